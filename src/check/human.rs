//! Diagnostics for people: each one with its source line (the credentials
//! the core found in the file masked past their first four characters) and
//! a caret under the range, rustc-style, then a summary line per file and a
//! total.
//!
//! Rendered with annotate-snippets, the renderer rustc itself uses: it takes
//! byte ranges (what the core reports) and renders to a string, which the
//! output stream strips of colour when colour is off. Every text from the
//! document or the command line (messages, labels, source lines, file
//! names) is escaped first ([`crate::escape`]).

use super::{CheckedFile, Role, Totals};
use crate::{escape, style};
use annotate_snippets::{Annotation, AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use opb_core::text::{floor_char_boundary, LineIndex, Range};
use opb_core::{Counts, Diagnostic, Kind, Related, Severity};
use opb_render::words::plural;
use std::borrow::Cow;
use std::fmt::Write;

pub fn render(files: &[CheckedFile], totals: &Totals) -> String {
    let renderer = Renderer::styled();
    let mut out = String::new();
    for file in files {
        let index = LineIndex::new(&file.input.text);
        if !file.checked.diagnostics.is_empty() && !out.is_empty() {
            out.push('\n');
        }
        // The lines shown are cut from the text with every credential the
        // core found in it masked: offsets and lines are the same.
        let shown = if file.checked.diagnostics.is_empty() {
            Cow::Borrowed(file.input.text.as_str())
        } else {
            file.checked.masking.mask_source(&file.input.text)
        };
        for diagnostic in &file.checked.diagnostics {
            out.push_str(&render_diagnostic(&renderer, file, &shown, &index, diagnostic));
            out.push_str("\n\n");
        }
        writeln!(out, "{}", file_summary(file)).ok();
    }
    if files.len() + totals.unreadable > 1 {
        writeln!(out, "\n{}", total_summary(totals)).ok();
    }
    out
}

/// One diagnostic of `file`, with the lines of `text` (the file's text as
/// shown, masked) it points at.
fn render_diagnostic(
    renderer: &Renderer,
    file: &CheckedFile,
    text: &str,
    index: &LineIndex<'_>,
    d: &Diagnostic,
) -> String {
    let excerpt = Excerpt::around(text, index, &d.range);
    // The root's pointer is empty: no label then. The core masked a
    // credential used as a key in it.
    let pointer = (!d.pointer.is_empty()).then(|| escape::line(&d.pointer).into_owned());
    let id = format!("{} {}", d.code, d.name);
    let help = format!("`opb rules {}` explains this rule and how to fix it", d.code);
    let message = escape::line(&d.message);
    let title = level(d.severity).primary_title(message.as_ref()).id(id.as_str());
    let name = escape::line(&file.input.name);
    let name = name.as_ref();
    // A related place the excerpt shows is marked in it; one elsewhere is a
    // snippet of its own, as rustc shows a note elsewhere in the file (the
    // two may be far apart, even on one long line).
    let labels: Vec<String> =
        d.related.iter().map(|r| escape::line(&r.message).into_owned()).collect();
    let (near, far): (Vec<_>, Vec<_>) =
        d.related.iter().zip(&labels).partition(|(r, _)| excerpt.span_of(&r.range).is_some());
    let snippet = Snippet::source(excerpt.text.as_str())
        .line_start(d.range.start.line)
        .annotation(AnnotationKind::Primary.span(excerpt.span.clone()).label(pointer))
        .annotations(near.iter().filter_map(|(r, label)| {
            Some(AnnotationKind::Context.span(excerpt.span_of(&r.range)?).label(label.as_str()))
        }));
    let far: Vec<(Excerpt, &Related, &String)> = far
        .into_iter()
        .map(|(r, label)| (Excerpt::around(text, index, &r.range), r, label))
        .collect();
    let mut group = placed(Group::with_title(title), excerpt.cut_before, name, &d.range, snippet);
    for (excerpt, r, label) in &far {
        let snippet = Snippet::source(excerpt.text.as_str())
            .line_start(r.range.start.line)
            .annotation(AnnotationKind::Context.span(excerpt.span.clone()).label(label.as_str()));
        group = placed(group, excerpt.cut_before, name, &r.range, snippet);
    }
    renderer.render(&[group.element(Level::HELP.message(help))])
}

/// `group` with `snippet` of the file `name` added. When the excerpt's first
/// line was cut, the renderer would count the column from the cut: the
/// core's position heads the snippet instead.
fn placed<'a>(
    group: Group<'a>,
    cut_before: bool,
    name: &'a str,
    range: &Range,
    snippet: Snippet<'a, Annotation<'a>>,
) -> Group<'a> {
    if cut_before {
        group
            .element(Origin::path(name).line(range.start.line).char_column(range.start.column))
            .element(snippet)
    } else {
        group.element(snippet.path(name))
    }
}

/// The source lines a range covers, cut around the range when
/// a line is long (minified JSON puts a whole document on one line): the
/// renderer's work grows with the line, and it would be redone for every
/// finding on that line. Shown escaped ([`escape::source`]).
struct Excerpt {
    text: String,
    /// The range, in bytes of `text`.
    span: std::ops::Range<usize>,
    /// Whether the start of the first line was cut.
    cut_before: bool,
    /// The source's bytes shown, and where they start in `text`.
    shown: std::ops::Range<usize>,
    shift: usize,
    /// The source's bytes shown, masked, before they were escaped.
    body: String,
}

/// Bytes of context kept on each side of a range within a long line.
const CONTEXT: usize = 120;
/// Marks where a long line was cut, as the renderer marks its own cuts.
const CUT: &str = "...";

impl Excerpt {
    fn around(text: &str, index: &LineIndex<'_>, range: &Range) -> Excerpt {
        let (start, end) = (range.start.offset, range.end.offset.max(range.start.offset));
        let first = index.line_span(start).start;
        let last = index.line_span(end).end.max(end);
        let cut_before = start - first > CONTEXT;
        let from = if cut_before { ceil_char_boundary(text, start - CONTEXT) } else { first };
        let to = if last - end > CONTEXT { floor_char_boundary(text, end + CONTEXT) } else { last };
        let head = if cut_before { CUT } else { "" };
        let tail = if to < last { CUT } else { "" };
        let body = text.get(from..to).unwrap_or_default();
        let mut excerpt = Excerpt {
            text: format!("{head}{}{tail}", escape::source(body)),
            span: 0..0,
            cut_before,
            shown: from..to,
            shift: head.len(),
            body: body.to_owned(),
        };
        excerpt.span = excerpt.at(start)..excerpt.at(end);
        excerpt
    }

    /// `range` in bytes of `text`, if the excerpt shows all of it.
    fn span_of(&self, range: &Range) -> Option<std::ops::Range<usize>> {
        let (start, end) = (range.start.offset, range.end.offset.max(range.start.offset));
        (self.shown.start <= start && end <= self.shown.end).then(|| self.at(start)..self.at(end))
    }

    /// Where a source offset the excerpt shows is in `text`: past the
    /// escapes of the characters before it.
    fn at(&self, offset: usize) -> usize {
        let before = self.body.get(..offset - self.shown.start).unwrap_or(&self.body);
        self.shift + escape::source(before).len()
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
    let name = escape::line(&file.input.name);
    let read_as = match (file.role, file.checked.kind) {
        (Role::Registry { tools }, _) => {
            format!("read as a tool registry of {}", plural(tools, "tool", "tools"))
        }
        (Role::Document, Some(Kind::Playbook)) => "read as a playbook".to_owned(),
        (Role::Document, Some(Kind::PluginManifest)) => "read as a plugin manifest".to_owned(),
        (Role::Document, None) => "kind not known".to_owned(),
    };
    let given = if file.checked.kind.is_some() && !file.checked.kind_detected {
        ", as --kind says"
    } else {
        ""
    };
    format!(
        "{}{}{}: {}{} ({read_as}{given})",
        style::EMPHASIS.render(),
        name,
        style::EMPHASIS.render_reset(),
        counts(file.checked.counts),
        suppressed(file.checked.suppressed.len()),
    )
}

/// `2 errors, 1 warning, 3 infos in 2 files`, and the files not read.
fn total_summary(totals: &Totals) -> String {
    let mut line = format!(
        "{}{} in {}",
        counts(totals.counts),
        suppressed(totals.suppressed),
        plural(totals.files, "file", "files")
    );
    if totals.unreadable > 0 {
        write!(line, "; {} could not be read", plural(totals.unreadable, "file", "files")).ok();
    }
    line
}

/// `, 2 suppressed` when findings were accepted with a reason.
fn suppressed(count: usize) -> String {
    if count == 0 {
        String::new()
    } else {
        format!(", {count} suppressed")
    }
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
