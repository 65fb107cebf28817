//! The changes for people: a summary line, then each changed step, tool or
//! declaration with its changes, `+` where the new version may do more, `-`
//! where it may do less, `~` otherwise.

use super::words::{self, Part};
use super::Versions;
use crate::{escape, style};
use anstyle::Style;
use opb_core::explain::diff::{Diff, Impact, Subject};
use opb_core::prose::capitalise;
use opb_core::Kind;
use opb_render::words::plural;
use std::fmt::Write;

/// Lines are wrapped to this many columns.
const WIDTH: usize = 100;

pub fn render(versions: &Versions<'_>, diff: &Diff) -> String {
    let mut out = String::new();
    let title = format!("{} → {}", escape::line(versions.old), escape::line(versions.new));
    writeln!(
        out,
        "{}{title}{} ({})",
        style::EMPHASIS.render(),
        style::EMPHASIS.render_reset(),
        kind(diff.kind)
    )
    .ok();
    writeln!(out, "{}", summary(diff)).ok();
    let mut current: Option<&Subject> = None;
    for change in &diff.changes {
        if current != Some(&change.subject) {
            out.push('\n');
            writeln!(
                out,
                "{}{}{}",
                style::LABEL.render(),
                capitalise(plain(&words::subject(&change.subject))),
                style::LABEL.render_reset()
            )
            .ok();
            current = Some(&change.subject);
        }
        let (mark, mark_style) = marker(change.impact);
        let options = textwrap::Options::new(WIDTH - 4).subsequent_indent("    ");
        for (i, line) in textwrap::wrap(&plain(&words::change(change)), options).iter().enumerate()
        {
            if i == 0 {
                writeln!(
                    out,
                    "  {}{mark}{} {line}",
                    mark_style.render(),
                    mark_style.render_reset()
                )
                .ok();
            } else {
                writeln!(out, "  {line}").ok();
            }
        }
    }
    out
}

fn kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Playbook => "two versions of a playbook",
        Kind::PluginManifest => "two versions of a plugin manifest",
    }
}

/// `3 changes: 2 widen what it may do, 1 narrows it.`
pub fn summary(diff: &Diff) -> String {
    if diff.is_empty() {
        return "No change in what it may do.".to_owned();
    }
    let summary = diff.summary;
    let mut parts = Vec::new();
    if summary.widens > 0 {
        parts.push(format!("{} what it may do", plural_verb(summary.widens, "widens", "widen")));
    }
    if summary.narrows > 0 {
        parts.push(format!("{} it", plural_verb(summary.narrows, "narrows", "narrow")));
    }
    if summary.neutral > 0 {
        parts.push(format!("{} neutral", plural_verb(summary.neutral, "is", "are")));
    }
    format!("{}: {}.", plural(diff.changes.len(), "change", "changes"), parts.join(", "))
}

/// `1 widens`, `2 widen`.
fn plural_verb(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn marker(impact: Impact) -> (&'static str, Style) {
    match impact {
        Impact::Widens => ("+", style::WARNING),
        Impact::Narrows => ("-", style::INFO),
        Impact::Neutral => ("~", Style::new()),
    }
}

/// The sentence as text; names from the documents are neutralised so they
/// cannot restyle the terminal.
fn plain(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|part| match part {
            Part::Text(text) | Part::Name(text) => escape::line(text),
        })
        .collect()
}
