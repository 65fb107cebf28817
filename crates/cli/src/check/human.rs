//! Diagnostics for people: each one with its source line and a caret under
//! the range, rustc-style, then a summary line per file and a total.
//!
//! Rendered with annotate-snippets, the renderer rustc itself uses: it takes
//! byte ranges (what the core reports), treats document text as untrusted
//! (control characters and bidi overrides are neutralised) and renders to a
//! string, which the output stream strips of colour when colour is off.

use super::{CheckedFile, Totals};
use crate::style;
use crate::words::plural;
use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use opb_core::text::LineIndex;
use opb_core::{Counts, Diagnostic, Kind, Severity};
use std::fmt::Write;

pub fn render(files: &[CheckedFile], totals: &Totals) -> String {
    let renderer = Renderer::styled();
    let mut out = String::new();
    for file in files {
        let index = LineIndex::new(&file.input.text);
        if !file.checked.diagnostics.is_empty() && !out.is_empty() {
            out.push('\n');
        }
        for diagnostic in &file.checked.diagnostics {
            out.push_str(&render_diagnostic(&renderer, file, &index, diagnostic));
            out.push_str("\n\n");
        }
        writeln!(out, "{}", file_summary(file)).ok();
    }
    if files.len() + totals.unreadable > 1 {
        writeln!(out, "\n{}", total_summary(totals)).ok();
    }
    out
}

fn render_diagnostic(renderer: &Renderer, file: &CheckedFile, index: &LineIndex<'_>, d: &Diagnostic) -> String {
    // Only the lines the range covers go to the renderer, so a long file
    // with many findings is not re-scanned once per finding.
    let text = &file.input.text;
    let first = index.line_span(d.range.start.offset).start;
    let last = index.line_span(d.range.end.offset).end.max(d.range.end.offset);
    let excerpt = text.get(first..last).unwrap_or_default();
    let span = d.range.start.offset.saturating_sub(first)..d.range.end.offset.saturating_sub(first);
    // The root's pointer is empty: no label then.
    let pointer = (!d.pointer.is_empty()).then(|| annotate_snippets::normalize_untrusted_str(&d.pointer));
    let id = format!("{} {}", d.code, d.name);
    let help = format!("`opb rules {}` explains this rule and how to fix it", d.code);
    let report = &[level(d.severity)
        .primary_title(d.message.as_str())
        .id(id.as_str())
        .element(
            Snippet::source(excerpt)
                .line_start(d.range.start.line)
                .path(file.input.name.as_str())
                .annotation(AnnotationKind::Primary.span(span).label(pointer)),
        )
        .element(Level::HELP.message(help))];
    renderer.render(report)
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// `examples/a.yaml: 2 errors, 1 warning, 0 infos (read as a playbook)`.
fn file_summary(file: &CheckedFile) -> String {
    let name = annotate_snippets::normalize_untrusted_str(&file.input.name);
    let read_as = match file.checked.kind {
        Some(Kind::Playbook) => "read as a playbook",
        Some(Kind::PluginManifest) => "read as a plugin manifest",
        None => "kind not known",
    };
    let given = if file.checked.kind.is_some() && !file.checked.kind_detected { ", as --kind says" } else { "" };
    format!(
        "{}{}{}: {} ({read_as}{given})",
        style::EMPHASIS.render(),
        name,
        style::EMPHASIS.render_reset(),
        counts(file.checked.counts),
    )
}

/// `2 errors, 1 warning, 3 infos in 2 files`, and the files not read.
fn total_summary(totals: &Totals) -> String {
    let mut line = format!("{} in {}", counts(totals.counts), plural(totals.files, "file", "files"));
    if totals.unreadable > 0 {
        write!(line, "; {} could not be read", plural(totals.unreadable, "file", "files")).ok();
    }
    line
}

fn counts(counts: Counts) -> String {
    if counts == Counts::default() {
        return "no problems".to_owned();
    }
    let part = |n: usize, one: &str, many: &str, style: anstyle::Style| {
        let style = if n > 0 { style } else { anstyle::Style::new() };
        format!("{}{}{}", style.render(), plural(n, one, many), style.render_reset())
    };
    [
        part(counts.error, "error", "errors", style::ERROR),
        part(counts.warning, "warning", "warnings", style::WARNING),
        part(counts.info, "info", "infos", style::INFO),
    ]
    .join(", ")
}
