//! The changes as Markdown for a pull-request comment: a heading, a summary
//! line and a table, stable from run to run. Every name from a document is
//! a code span and every other text is escaped, so a document cannot inject
//! markup, links or table cells into the comment.

use super::human::summary;
use super::words::{self, Part};
use super::Versions;
use opb_core::explain::diff::{Diff, Impact};
use opb_core::Kind;
use std::fmt::Write;

pub fn render(versions: &Versions<'_>, diff: &Diff) -> String {
    let mut out = String::new();
    writeln!(out, "### opb diff: {} → {}\n", code(versions.old), code(versions.new)).ok();
    let kind = match diff.kind {
        Kind::Playbook => "playbook",
        Kind::PluginManifest => "plugin manifest",
    };
    writeln!(out, "Two versions of a {kind}. {}", escape(&summary(diff))).ok();
    if diff.is_empty() {
        return out;
    }
    out.push_str("\n| Impact | Where | Change |\n|---|---|---|\n");
    for change in &diff.changes {
        let impact = match change.impact {
            Impact::Widens => "**widens**",
            Impact::Narrows => "narrows",
            Impact::Neutral => "neutral",
        };
        writeln!(
            out,
            "| {impact} | {} | {} |",
            sentence(&words::subject(&change.subject)),
            sentence(&words::change(change))
        )
        .ok();
    }
    out
}

fn sentence(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|part| match part {
            Part::Text(text) => escape(text),
            Part::Name(name) => code(name),
        })
        .collect()
}

/// One line, without the characters that end a table row.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// The characters that can start markup inside a table cell: emphasis,
/// code, links and images, HTML and entities, strikethrough, and `|`,
/// which would split the cell. Line-start markup (`#`, `-`, `>`) cannot
/// occur inside a cell.
const MARKUP: &[char] = &['\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&'];

/// Text with every character that could start markup backslash-escaped
/// (CommonMark allows the escape before any ASCII punctuation).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        if MARKUP.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A code span: fenced by one more backtick than the longest run inside,
/// padded where the value starts or ends with a backtick, with `|` escaped
/// (GitHub reads `\|` in a table's code span as a pipe).
fn code(value: &str) -> String {
    let value = one_line(value).replace('|', "\\|");
    let longest = value.split(|c| c != '`').map(str::len).max().unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    let pad =
        if value.starts_with('`') || value.ends_with('`') || value.is_empty() { " " } else { "" };
    format!("{fence}{pad}{value}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_break_out_of_their_code_span_or_cell() {
        assert_eq!(code("email.send"), "`email.send`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a|b\nc"), "`a\\|b c`");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("now runs <img src=x> [link](y) | *bold*"),
            "now runs \\<img src=x\\> \\[link\\](y) \\| \\*bold\\*"
        );
        assert_eq!(
            escape("2 changes: 1 widens, 1 is neutral."),
            "2 changes: 1 widens, 1 is neutral."
        );
    }
}
