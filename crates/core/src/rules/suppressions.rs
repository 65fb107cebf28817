//! Findings accepted with a reason: in YAML a comment,
//! `# opb: ignore[PB213] the gate is in the harness`, on the finding's
//! line or alone on the line above; in any document a code and pointer in
//! the settings' per-file-ignores ([`RuleSettings::accepted`]). An accepted
//! finding is kept, as suppressed, with its reason; a comment that accepts
//! nothing is reported (IN008), as ruff reports an unused `noqa`.

use crate::diagnostics::masking::Masking;
use crate::diagnostics::{
    documented, resolve, Diagnostic, Finding, Group, Rule, RuleSettings, Severity, Suppressed,
    Suppression, SuppressionKind,
};
use opb_syntax::text::{LineIndex, Span};
use opb_syntax::{order, Syntax};

pub static IN008: Rule = Rule {
    code: "IN008",
    name: "suppression-unused",
    severity: Severity::Warning,
    group: Group::Input,
    summary: documented!("An `# opb: ignore[CODE]` comment that silences nothing: no finding of that code is on its line (or, for a comment alone on its line, on the next), or the code names no rule."),
    source: documented!("A YAML comment `# opb: ignore[CODE] reason` accepts a finding of its line or the next (README, \"Checking a repository\"). It outlives the finding it was written for; left behind, it would silence the next finding of that code there unseen, which is why ruff reports an unused `noqa` (RUF100)."),
    fix: documented!("Remove the comment, or the code from its list, once the finding is fixed; check the code's spelling."),
    example: documented!("steps:\n  - id: look\n    next: done   # opb: ignore[PB213] renamed in the harness"),
};

/// One `# opb: ignore[...]` comment.
struct Comment {
    /// The comment's bytes, from `#` to the end of its line.
    span: Span,
    /// The line it is on, 1-based.
    line: usize,
    /// Alone on its line: it speaks of the next.
    alone: bool,
    codes: Vec<String>,
    reason: String,
}

const MARK: &str = "opb: ignore[";

/// The suppression comments of a YAML text. A `#` starts a comment at the
/// start of a line or after a space or tab, as YAML reads one.
fn comments(text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let mut start = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let at = start;
        start += line.len();
        let Some(hash) = line.match_indices('#').map(|(i, _)| i).find(|&i| {
            (i == 0 || matches!(line.as_bytes()[i - 1], b' ' | b'\t'))
                && line[i + 1..].trim_start().starts_with(MARK)
        }) else {
            continue;
        };
        let after = line[hash + 1..].trim_start();
        let inside = &after[MARK.len()..];
        let Some((codes, reason)) = inside.split_once(']') else { continue };
        out.push(Comment {
            span: Span { start: at + hash, end: at + line.trim_end().len() },
            line: number + 1,
            alone: line[..hash].trim().is_empty(),
            codes: codes
                .split(',')
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty())
                .collect(),
            reason: reason.trim().to_owned(),
        });
    }
    out
}

/// Splits the reported `diagnostics` into those still reported and those
/// accepted, and adds an IN008 for each comment's code that accepted none
/// (as `rules` choose and rate it).
pub(crate) fn apply(
    text: &str,
    syntax: Syntax,
    diagnostics: Vec<Diagnostic>,
    rules: &RuleSettings,
    index: &LineIndex<'_>,
    masking: &Masking,
) -> (Vec<Diagnostic>, Vec<Suppressed>) {
    let comments =
        if syntax == Syntax::Yaml && text.contains(MARK) { comments(text) } else { Vec::new() };
    if comments.is_empty() && rules.accepted.is_empty() {
        return (diagnostics, Vec::new());
    }
    let mut used: Vec<Vec<bool>> = comments.iter().map(|c| vec![false; c.codes.len()]).collect();
    let mut kept = Vec::new();
    let mut suppressed = Vec::new();
    for d in diagnostics {
        let external = rules.accepted.iter().find(|a| a.code == d.code && a.pointer == d.pointer);
        if let Some(accepted) = external {
            let suppression = Suppression {
                kind: SuppressionKind::External,
                justification: accepted.justification.clone(),
            };
            suppressed.push(Suppressed { diagnostic: d, suppression });
            continue;
        }
        let line = d.range.start.line;
        let mut by = None;
        for (c, comment) in comments.iter().enumerate() {
            let names_line = comment.line == line || (comment.alone && comment.line + 1 == line);
            if !names_line {
                continue;
            }
            for (k, code) in comment.codes.iter().enumerate() {
                if d.code.starts_with(code.as_str()) {
                    used[c][k] = true;
                    by.get_or_insert(c);
                }
            }
        }
        match by {
            Some(c) => {
                let suppression = Suppression {
                    kind: SuppressionKind::InSource,
                    justification: comments[c].reason.clone(),
                };
                suppressed.push(Suppressed { diagnostic: d, suppression });
            }
            None => kept.push(d),
        }
    }
    let unused: Vec<Finding> = comments
        .iter()
        .zip(&used)
        .flat_map(|(comment, used)| {
            comment.codes.iter().zip(used).filter(|(_, used)| !**used).map(|(code, _)| {
                let place = if comment.alone { "on the next line" } else { "on its line" };
                let message = if crate::rules::all().any(|r| r.code.starts_with(code.as_str())) {
                    format!("`# opb: ignore[{code}]` silences nothing: no {code} finding is {place}. Remove it, or the code from its list, now that the finding is gone.")
                } else {
                    format!("`# opb: ignore[{code}]` silences nothing: `{code}` names no rule. Check the code (`opb rules` lists them).")
                };
                Finding {
                    rule: &IN008,
                    message,
                    pointer: String::new(),
                    span: comment.span,
                    related: None,
                    fix: None,
                }
            })
        })
        .collect();
    if !unused.is_empty() {
        let mut unused = resolve(unused, index, masking);
        rules.apply(&mut unused);
        kept.extend(unused);
        order::sort_by(&mut kept, |a, b| {
            (a.range.start.offset, a.range.end.offset, a.code).cmp(&(
                b.range.start.offset,
                b.range.end.offset,
                b.code,
            ))
        });
    }
    (kept, suppressed)
}
