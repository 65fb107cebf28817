//! The document as a reader may see it outside the editor: every string a
//! credential rule found a credential in (SEC001, PB411, PM312) has it cut
//! to its first four characters. The explain view is built from this tree,
//! so every panel, graph label, hover text and `opb explain` line built on
//! it is masked without a shell having to remember to: the masking happens
//! once, here.
//!
//! The editor keeps the source as typed; diagnostics mask their own
//! messages ([`crate::diagnostics`]).

use crate::diagnostics::secrets::{preview, redact};
use crate::diagnostics::Diagnostic;
use crate::rules::credentials::is_credential_finding;
use opb_syntax::order;
use opb_syntax::text::Span;
use opb_syntax::{Node, Value};
use std::borrow::Cow;

/// A copy of `root` with every credential the diagnostics found masked, or
/// `None` when they found none (the common case: nothing is copied).
pub(crate) fn masked(root: &Node, diagnostics: &[Diagnostic]) -> Option<Node> {
    let mut found: Vec<Span> = diagnostics
        .iter()
        .filter(|d| is_credential_finding(d))
        .map(|d| Span::new(d.range.start.offset, d.range.end.offset))
        .collect();
    if found.is_empty() {
        return None;
    }
    order::sort_by_key(&mut found, |span| (span.start, span.end));
    let mut root = root.clone();
    mask_at(&mut root, &found);
    Some(root)
}

/// Masks the scalars of the tree whose spans are in `found` (sorted).
/// Iterative, so no nesting depth the limits allow can exhaust the stack;
/// a subtree that holds no found span is not entered.
fn mask_at(root: &mut Node, found: &[Span]) {
    let holds = |span: Span| {
        let first = found.partition_point(|f| f.start < span.start);
        found[first..].first().is_some_and(|f| f.end <= span.end)
    };
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let flagged = found
            .binary_search_by_key(&(node.span.start, node.span.end), |f| (f.start, f.end))
            .is_ok();
        match &mut node.value {
            Value::String(text) if flagged => *text = masked_text(text).into(),
            Value::Number(number) if flagged => number.raw = preview(&number.raw),
            Value::Array(items) => stack.extend(items.iter_mut().filter(|item| holds(item.span))),
            Value::Object(object) => {
                stack.extend(
                    object
                        .members
                        .iter_mut()
                        .map(|m| &mut m.value)
                        .filter(|value| holds(value.span)),
                );
            }
            _ => {}
        }
    }
}

/// A credential's string: each credential-shaped part cut to its preview
/// (the prose around it kept); a string that is a credential without a
/// known shape (a header's literal value, a server name of auth material)
/// cut as a whole.
fn masked_text(text: &str) -> String {
    match redact(text) {
        Cow::Owned(redacted) => redacted,
        Cow::Borrowed(_) => preview(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, Options};

    fn strings(node: &Node, out: &mut Vec<String>) {
        match &node.value {
            Value::String(s) => out.push(s.to_string()),
            Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            Value::Object(o) => o.members.iter().for_each(|m| strings(&m.value, out)),
            _ => {}
        }
    }

    fn masked_strings(text: &str) -> Option<Vec<String>> {
        let root =
            opb_syntax::parse(text, opb_syntax::Syntax::Yaml, &opb_syntax::Limits::default())
                .root
                .unwrap();
        let analysis = analyze(text, &Options::default());
        let masked = masked(&root, &analysis.checked.diagnostics)?;
        assert_eq!(masked.span, root.span, "spans are kept");
        let mut out = Vec::new();
        strings(&masked, &mut out);
        Some(out)
    }

    #[test]
    fn only_the_credential_is_cut_and_the_prose_around_it_kept() {
        let text = "openplaybook: \"1.6\"\nsteps:\n  - id: a\n    kind: gate\n    purpose: Charge with sk_live_51HqzR7Kx9PmW2vT8nLcB4yQd then stop\n  - {id: b, kind: gate, purpose: plain words}\n";
        let strings = masked_strings(text).unwrap();
        assert!(strings.contains(&"Charge with sk_l… then stop".to_owned()), "{strings:?}");
        assert!(strings.contains(&"plain words".to_owned()), "{strings:?}");
        assert!(!strings.iter().any(|s| s.contains("sk_live")), "{strings:?}");
    }

    #[test]
    fn a_credential_of_no_known_shape_is_cut_whole() {
        let manifest = "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    headers:\n      Authorization: \"Basic dXNlcjpwYXNz\"\n";
        let strings = masked_strings(manifest).unwrap();
        assert!(strings.contains(&"Basi…".to_owned()), "{strings:?}");
        assert!(!strings.iter().any(|s| s.contains("dXNl")), "{strings:?}");
    }

    #[test]
    fn a_duplicate_member_is_masked_too() {
        let text = "openplaybook: \"1.6\"\nsteps:\n  - {id: a, kind: gate}\ndescription: x\ndescription: token ghp_16C7e42F292c6912E7710c838347Ae178B4a\n";
        let strings = masked_strings(text).unwrap();
        assert!(!strings.iter().any(|s| s.contains("ghp_16C7")), "{strings:?}");
    }

    #[test]
    fn nothing_is_copied_without_a_credential() {
        assert!(
            masked_strings("openplaybook: \"1.6\"\nsteps:\n  - {id: a, kind: gate}\n").is_none()
        );
    }
}
