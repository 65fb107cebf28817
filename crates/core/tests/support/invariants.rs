//! What every check keeps, whatever the text: shared by the property and
//! limit tests (`mod support`) and the fuzz targets (`fuzz/src/lib.rs`
//! includes this file), so a fuzzer and a test can never hold different
//! ideas of "correct".

use opb_core::explain::Explain;
use opb_core::text::LineIndex;
use opb_core::{risk_paths, Analysis, Checked, Counts, Masking, Options};
use opb_syntax::{parse, Member, Node, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Checks the invariants of `checked`, the result of checking `text` under
/// `options`; panics with the first one broken:
/// - every range lies inside the text, on character boundaries, and its
///   lines and columns are those of its byte offsets;
/// - every pointer resolves in the parsed document (the offending value, or
///   the object that lacks a field), reading through repeated keys and
///   naming a key that holds a credential the rules found as the masking
///   cuts it (see [`resolves`]); without a document, it is the root;
/// - a limit (IN006) stops everything else;
/// - the counts are those of the diagnostics.
pub fn assert_checked(text: &str, options: &Options, checked: &Checked) {
    let index = LineIndex::new(text);
    let root = parse(text, checked.syntax, &options.limits).root;
    for d in &checked.diagnostics {
        let (start, end) = (d.range.start.offset, d.range.end.offset);
        assert!(
            start <= end && end <= text.len(),
            "{} range {start}..{end} outside a text of {} bytes",
            d.code,
            text.len()
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "{} range {start}..{end} splits a character",
            d.code
        );
        assert_eq!(d.range.start, index.position(start), "{} start position", d.code);
        assert_eq!(d.range.end, index.position(end), "{} end position", d.code);
        match &root {
            Some(root) => assert!(
                resolves(root, &d.pointer, &checked.masking),
                "{} pointer {:?} resolves in the document ({})",
                d.code,
                d.pointer,
                d.message
            ),
            None => {
                assert_eq!(d.pointer, "", "{}: no document, so the pointer is the root", d.code)
            }
        }
        assert!(!d.message.is_empty(), "{} has a message", d.code);
    }
    if checked.diagnostics.iter().any(|d| d.code == "IN006") {
        assert!(
            checked.diagnostics.iter().all(|d| d.code == "IN006"),
            "a limit stops everything else: {:?}",
            checked.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        );
    }
    assert_eq!(checked.counts, Counts::of(&checked.diagnostics), "counts");
}

/// [`assert_checked`] on an analysis, and its explain view serialises (as
/// the CLI's `explain --format json` and the playground read it).
pub fn assert_analysis(text: &str, options: &Options, analysis: &Analysis) {
    assert_checked(text, options, &analysis.checked);
    assert_risk_agrees(analysis);
    if let Err(error) = serde_json::to_string(analysis) {
        panic!("the analysis serialises: {error}");
    }
}

/// PB220, PB221 and the risk paths come from one walk, so they agree:
/// - per step and class, the rules' findings and the explain view's
///   unsupervised tools match one for one;
/// - every step a listed path calls unsupervised is one of those, and the
///   per-step summary flags exactly those steps;
/// - when the list is complete and walks through every step the start
///   reaches, the listed paths name all of them.
pub fn assert_risk_agrees(analysis: &Analysis) {
    let Some(Explain::Playbook(explain)) = &analysis.explain else { return };
    let class_of = |code: &str| match code {
        "PB220" => Some("money"),
        "PB221" => Some("customer_comms"),
        _ => None,
    };
    let mut found: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for d in &analysis.checked.diagnostics {
        let Some(class) = class_of(d.code) else { continue };
        let step = d.pointer.split('/').nth(2).and_then(|i| i.parse::<usize>().ok());
        *found.entry((step.expect("a PB220/PB221 pointer names a step"), class)).or_default() += 1;
    }
    let mut explained: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for step in &explain.steps {
        for tool in &step.unsupervised {
            *explained.entry((step.index, tool.risk_class.as_str())).or_default() += 1;
        }
    }
    assert_eq!(found, explained, "PB220/PB221 and the explain view's unsupervised tools");
    let Some(paths) = risk_paths(analysis) else { return };
    let flagged: BTreeSet<(&str, &str)> = explain
        .steps
        .iter()
        .filter_map(|s| Some((s.id.as_deref()?, &s.unsupervised)))
        .flat_map(|(id, tools)| tools.iter().map(move |t| (id, t.risk_class.as_str())))
        .collect();
    let on_paths: BTreeSet<(&str, &str)> = paths
        .paths
        .iter()
        .flat_map(|p| &p.unsupervised)
        .map(|u| (u.step.as_str(), u.risk_class.as_str()))
        .collect();
    assert!(on_paths.is_subset(&flagged), "paths {on_paths:?} beyond the rules' {flagged:?}");
    let summary: BTreeSet<&str> =
        paths.steps.iter().filter(|s| s.flagged).map(|s| s.step.as_str()).collect();
    let flagged_steps: BTreeSet<&str> = flagged.iter().map(|(step, _)| *step).collect();
    assert_eq!(summary, flagged_steps, "the per-step summary and the rules");
    let walked: BTreeSet<&str> =
        paths.paths.iter().flat_map(|p| &p.steps).map(String::as_str).collect();
    if paths.complete && paths.steps.iter().all(|s| walked.contains(s.step.as_str())) {
        assert_eq!(on_paths, flagged, "a complete path list names every flagged step");
    }
}

/// Whether `pointer` names a value of the tree. Where an object repeats a
/// key, lookups read the first member, but rules still look at every value
/// in the text (IN005 underlines the second, SEC001 finds a credential in
/// it), so a token may step into any member with its key. A key that holds
/// a credential the rules found is named as `masking` cuts it, as every
/// pointer shown names it.
pub fn resolves(root: &Node, pointer: &str, masking: &Masking) -> bool {
    let Some(tokens) = pointer.strip_prefix('/') else { return pointer.is_empty() };
    let mut current = vec![root];
    for token in tokens.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        current = current
            .into_iter()
            .flat_map(|node| -> Vec<&Node> {
                match &node.value {
                    Value::Object(object) => {
                        let named = |m: &&Member| m.key == token || masking.mask(&m.key) == token;
                        object.members.iter().filter(named).map(|m| &m.value).collect()
                    }
                    Value::Array(items) => {
                        token.parse::<usize>().ok().and_then(|i| items.get(i)).into_iter().collect()
                    }
                    _ => Vec::new(),
                }
            })
            .collect();
        if current.is_empty() {
            return false;
        }
    }
    true
}
