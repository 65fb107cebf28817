//! The changes as Markdown for a pull-request comment: a heading, a summary
//! line and a table, stable from run to run. Every name from a document is
//! a code span and every other text is escaped, so a document cannot inject
//! markup, links or table cells into the comment.

use super::human::summary;
use super::words::{self, Part};
use super::Versions;
use opb_core::assist::markdown;
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

/// Text escaped as the core escapes a document's prose in Markdown, on
/// one line.
fn escape(text: &str) -> String {
    markdown::text(&one_line(text))
}

/// A code span as the core writes one, with `|` escaped (GitHub reads
/// `\|` in a table's code span as a pipe).
fn code(value: &str) -> String {
    markdown::code(&value.replace('|', "\\|"))
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
            "now runs \\<img src\\=x\\> \\[link\\]\\(y\\) \\| \\*bold\\*"
        );
        assert_eq!(escape("1 widens\nnow https://x"), "1 widens now https\\:\\/\\/x");
    }
}
