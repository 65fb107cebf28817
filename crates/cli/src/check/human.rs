//! Diagnostics for people: each one with its source line (credentials in it
//! masked past their first four characters) and a caret under
//! the range, rustc-style, then a summary line per file and a total.
//!
//! Rendered with annotate-snippets, the renderer rustc itself uses: it takes
//! byte ranges (what the core reports), treats document text as untrusted
//! (control characters and bidi overrides are neutralised) and renders to a
//! string, which the output stream strips of colour when colour is off.

use super::{CheckedFile, Role, Totals};
use crate::style;
use crate::words::plural;
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use opb_core::{Counts, Diagnostic, Kind, Severity, mask};
use opb_core::text::{LineIndex, floor_char_boundary};
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
    let excerpt = Excerpt::around(&file.input.text, index, d);
    // The root's pointer is empty: no label then.
    // A pointer names keys as written, a credential used as a key too: the
    // label people read is masked like the source (JSON and SARIF keep the
    // exact pointer, for tools).
    let pointer = (!d.pointer.is_empty()).then(|| annotate_snippets::normalize_untrusted_str(&mask(&d.pointer)));
    let id = format!("{} {}", d.code, d.name);
    let help = format!("`opb rules {}` explains this rule and how to fix it", d.code);
    let title = level(d.severity).primary_title(d.message.as_str()).id(id.as_str());
    let snippet = Snippet::source(excerpt.text.as_str())
        .line_start(d.range.start.line)
        .annotation(AnnotationKind::Primary.span(excerpt.span).label(pointer));
    let help = Level::HELP.message(help);
    let name = file.input.name.as_str();
    if excerpt.cut_before {
        // The renderer would count the column from the cut: the core's
        // position heads the snippet instead, in a group of its own.
        let origin = Origin::path(name).line(d.range.start.line).char_column(d.range.start.column);
        renderer.render(&[title.element(origin), Group::with_level(level(d.severity)).element(snippet).element(help)])
    } else {
        renderer.render(&[title.element(snippet.path(name)).element(help)])
    }
}

/// The source lines a diagnostic's range covers, cut around the range when
/// a line is long (minified JSON puts a whole document on one line): the
/// renderer's work grows with the line, and it would be redone for every
/// finding on that line.
struct Excerpt {
    text: String,
    /// The range, in bytes of `text`.
    span: std::ops::Range<usize>,
    /// Whether the start of the first line was cut.
    cut_before: bool,
}

/// Bytes of context kept on each side of a range within a long line.
const CONTEXT: usize = 120;
/// Bytes read on each side of an excerpt to recognise the credentials in
/// it: more than any token, key or JWT is long.
const MASK_MARGIN: usize = 4096;
/// Marks where a long line was cut, as the renderer marks its own cuts.
const CUT: &str = "...";

impl Excerpt {
    fn around(text: &str, index: &LineIndex<'_>, d: &Diagnostic) -> Excerpt {
        let (start, end) = (d.range.start.offset, d.range.end.offset.max(d.range.start.offset));
        let first = index.line_span(start).start;
        let last = index.line_span(end).end.max(end);
        let cut_before = start - first > CONTEXT;
        let from = if cut_before { ceil_char_boundary(text, start - CONTEXT) } else { first };
        let to = if last - end > CONTEXT { floor_char_boundary(text, end + CONTEXT) } else { last };
        let head = if cut_before { CUT } else { "" };
        let tail = if to < last { CUT } else { "" };
        // Credentials are masked in the source shown, as in messages. The
        // masking reads a margin around the excerpt, so a credential that
        // starts before a cut is still recognised.
        let window = floor_char_boundary(text, from.saturating_sub(MASK_MARGIN))
            ..ceil_char_boundary(text, to.saturating_add(MASK_MARGIN));
        let masked = mask(text.get(window.clone()).unwrap_or_default());
        let body = masked.get(from - window.start..to - window.start).unwrap_or_default();
        let shift = head.len();
        Excerpt {
            text: format!("{head}{body}{tail}"),
            span: start - from + shift..end - from + shift,
            cut_before,
        }
    }
}

fn ceil_char_boundary(text: &str, offset: usize) -> usize {
    (offset..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len())
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
    let read_as = match (file.role, file.checked.kind) {
        (Role::Registry { tools }, _) => format!("read as a tool registry of {}", plural(tools, "tool", "tools")),
        (Role::Document, Some(Kind::Playbook)) => "read as a playbook".to_owned(),
        (Role::Document, Some(Kind::PluginManifest)) => "read as a plugin manifest".to_owned(),
        (Role::Document, None) => "kind not known".to_owned(),
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
