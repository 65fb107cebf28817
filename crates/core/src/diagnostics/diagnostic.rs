//! Diagnostics as the outside world sees them.

use crate::diagnostics::credentials::redact;
use crate::diagnostics::masking::Masking;
use crate::diagnostics::{Finding, Severity};
use opb_syntax::order;
use opb_syntax::text::{LineIndex, Range};
use opb_syntax::Node;
use serde::Serialize;
use std::borrow::Cow;

/// One finding with its position: the shape the CLI's JSON output, SARIF and
/// the playground all read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The rule's code, e.g. `PB213`: [`crate::rule`] finds its
    /// documentation.
    pub code: &'static str,
    /// The rule's kebab-case name, e.g. `next-unknown`.
    pub name: &'static str,
    /// The rule's severity.
    pub severity: Severity,
    /// What is wrong here and how to fix it, for people; a credential in it
    /// is cut to its first four characters.
    pub message: String,
    /// RFC 6901 pointer: the offending value, or for a missing field the
    /// object that lacks it.
    pub pointer: String,
    /// Where to underline, in bytes and in lines and characters; empty where
    /// the text offers nothing to underline (a limit, an empty document).
    pub range: Range,
    /// Other places it concerns, each with what happened there: for a
    /// bracket or quote that is never closed (the range), where the parser
    /// stopped. Left out of JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// The text that certainly belongs at `range` instead, quoted as the
    /// text there is (a step id or a field name one small edit away), for
    /// an editor's quick fix. Left out of JSON when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// A certain fix as an edit of the text: replace the bytes `start..end`
/// with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The first byte replaced.
    pub start: usize,
    /// The byte after the last replaced.
    pub end: usize,
    /// What replaces them.
    pub text: String,
}

impl Diagnostic {
    /// The edit that applies the diagnostic's certain fix, if it has one:
    /// what an editor's quick fix and `opb check --fix` both apply.
    pub fn edit(&self) -> Option<Edit> {
        let text = self.fix.clone()?;
        Some(Edit { start: self.range.start.offset, end: self.range.end.offset, text })
    }
}

/// A second place a diagnostic concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// What happened there, for people.
    pub message: String,
    /// Where, as the diagnostic's own range is given.
    pub range: Range,
}

/// Turns findings into diagnostics, ordered by position then code, each
/// masked by `masking`: its message (and every credential-shaped part of it
/// cut by shape too, for a rule that quotes a value in another form than
/// the document's), its related places' messages and its pointer. A fix
/// that holds a credential is dropped: it would be shown whole in JSON.
pub fn resolve(
    findings: Vec<Finding>,
    index: &LineIndex<'_>,
    masking: &Masking,
) -> Vec<Diagnostic> {
    let mut findings = findings;
    order::sort_by(&mut findings, |a, b| {
        (a.span.start, a.span.end, a.rule.code).cmp(&(b.span.start, b.span.end, b.rule.code))
    });
    findings
        .dedup_by(|a, b| a.rule.code == b.rule.code && a.span == b.span && a.message == b.message);
    let offsets: Vec<usize> =
        findings.iter().flat_map(|f| [f.span.start, f.span.end.max(f.span.start)]).collect();
    let positions = index.positions(&offsets);
    findings
        .into_iter()
        .zip(positions.chunks_exact(2))
        .map(|(f, ends)| {
            // Few findings have a second place: its positions are found
            // one by one.
            let related = f
                .related
                .into_iter()
                .map(|note| Related {
                    message: masked(masking, note.message),
                    range: index.range(note.span),
                })
                .collect();
            let fix = f.fix.filter(|fix| matches!(masking.mask(fix), Cow::Borrowed(_)));
            Diagnostic {
                code: f.rule.code,
                name: f.rule.name,
                severity: f.rule.severity,
                message: masked(masking, f.message),
                pointer: match masking.mask(&f.pointer) {
                    Cow::Owned(masked) => masked,
                    Cow::Borrowed(_) => f.pointer,
                },
                range: Range { start: ends[0], end: ends[1] },
                related,
                fix: fix.map(|fix| {
                    quoted_like(
                        index.text().get(f.span.start..f.span.end).unwrap_or_default(),
                        &fix,
                    )
                }),
            }
        })
        .collect()
}

/// A message with the credentials found cut, then every credential-shaped
/// part: most hold none, and are kept, not copied.
fn masked(masking: &Masking, message: String) -> String {
    match masking.mask(&message) {
        Cow::Owned(masked) => redact(&masked).into_owned(),
        Cow::Borrowed(_) => match redact(&message) {
            Cow::Owned(redacted) => redacted,
            Cow::Borrowed(_) => message,
        },
    }
}

/// `value` written as `written` is: in its double or single quotes, else
/// plain when YAML reads it so, else double-quoted.
fn quoted_like(written: &str, value: &str) -> String {
    let plain = !value.is_empty()
        && value.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !value.starts_with(['-', '.']);
    match written.chars().next() {
        Some('\'') if !value.contains('\'') => format!("'{value}'"),
        Some('"') | Some('\'') => double_quoted(value),
        _ if plain => value.to_owned(),
        _ => double_quoted(value),
    }
}

fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// How many diagnostics of each severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Diagnostics of severity [`Severity::Error`].
    pub error: usize,
    /// Diagnostics of severity [`Severity::Warning`].
    pub warning: usize,
    /// Diagnostics of severity [`Severity::Info`].
    pub info: usize,
}

impl Counts {
    /// The counts of `diagnostics`.
    pub fn of(diagnostics: &[Diagnostic]) -> Counts {
        let mut counts = Counts::default();
        for diagnostic in diagnostics {
            counts.add(diagnostic.severity);
        }
        counts
    }

    /// The counts of the diagnostics that point into each item of the
    /// document's top-level array `key` (`/<key>/<i>` or below it), by item
    /// position: one pass, however many items.
    pub(crate) fn by_item(diagnostics: &[Diagnostic], root: &Node, key: &str) -> Vec<Counts> {
        let len = root.get(key).and_then(Node::as_array).map_or(0, <[Node]>::len);
        let mut counts = vec![Counts::default(); len];
        let prefix = format!("/{key}/");
        for diagnostic in diagnostics {
            let Some(rest) = diagnostic.pointer.strip_prefix(&prefix) else { continue };
            let token = rest.split('/').next().unwrap_or_default();
            if let Some(item) = token.parse::<usize>().ok().and_then(|i| counts.get_mut(i)) {
                item.add(diagnostic.severity);
            }
        }
        counts
    }

    fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Info => self.info += 1,
        }
    }
}
