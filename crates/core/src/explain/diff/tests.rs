use super::{Detail, DiffError, Impact, Section};
use crate::views::compare::{ListField, ToolChange};
use crate::{analyze, diff, Options};
use opb_syntax::Syntax;

fn analysis(text: &str) -> crate::Analysis {
    analyze(text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() })
}

const BASE: &str = r#"
openplaybook: "1.6"
requires: {connections: [{provider: stripe, authKind: oauth, scopes: [read]}], secrets: [{name: A, purpose: p}]}
manifest: {requiredConnectors: [stripe]}
tools:
  - {name: look, source: primitive, description: d, permissions: [a:read], inputSchema: {}, outputSchema: {}, riskClass: read, sideEffecting: false}
  - {name: pay, source: primitive, description: d, permissions: [a:write], inputSchema: {}, outputSchema: {}, riskClass: internal, sideEffecting: true}
steps:
  - {id: a, kind: agent, agent: x, purpose: p, allowedTools: [look], next: g}
  - {id: g, kind: gate, purpose: p, next: b}
  - {id: b, kind: agent, agent: x, purpose: p, allowedTools: [pay]}
"#;

fn changes(old: &str, new: &str) -> Vec<(Section, Option<String>, Impact, Detail)> {
    diff(&analysis(old), &analysis(new))
        .unwrap()
        .changes
        .into_iter()
        .map(|c| (c.subject.section, c.subject.key, c.impact, c.detail))
        .collect()
}

#[test]
fn the_same_document_has_no_changes() {
    assert!(diff(&analysis(BASE), &analysis(BASE)).unwrap().is_empty());
}

#[test]
fn a_tool_allowed_and_its_risk_raised_widen() {
    let new = BASE
        .replace("allowedTools: [look]", "allowedTools: [look, pay]")
        .replace("riskClass: internal", "riskClass: money");
    let found = changes(BASE, &new);
    let step_a: Vec<_> =
        found.iter().filter(|c| c.0 == Section::Step && c.1.as_deref() == Some("a")).collect();
    assert!(
        matches!(&step_a[0].3, Detail::ToolAllowed { tool, risk_class: Some(risk), embedded: true } if tool == "pay" && risk == "money")
    );
    assert!(step_a.iter().all(|c| c.2 == Impact::Widens), "{step_a:?}");
    let tool: Vec<_> = found.iter().filter(|c| c.0 == Section::Tool).collect();
    assert_eq!(tool.len(), 1);
    assert!(matches!(&tool[0].3, Detail::Definition(ToolChange::RiskClass(_))));
    assert_eq!(tool[0].2, Impact::Widens);
}

#[test]
fn a_gate_removed_widens_for_the_step_behind_it() {
    let new = BASE.replace("next: g}", "next: b}");
    let found = changes(BASE, &new);
    assert!(
        found.iter().any(|c| c.1.as_deref() == Some("b")
            && matches!(c.3, Detail::BehindGate(ref v) if v.from && !v.to)
            && c.2 == Impact::Widens),
        "{found:#?}"
    );
    assert!(found.iter().any(|c| c.1.as_deref() == Some("a")
        && matches!(&c.3, Detail::NextAdded { to, .. } if to == "b")));
}

#[test]
fn requires_changes_are_keyed_by_name() {
    let new = BASE
        .replace(
            "scopes: [read]}]",
            "scopes: [read, write]}, {provider: resend, authKind: api_token}]",
        )
        .replace("secrets: [{name: A, purpose: p}]", "secrets: [{name: B, purpose: q}]");
    let found = changes(BASE, &new);
    let summary: Vec<(Section, Option<&str>, Impact)> =
        found.iter().map(|c| (c.0, c.1.as_deref(), c.2)).collect();
    assert!(summary.contains(&(Section::Connection, Some("stripe"), Impact::Widens)), "{found:#?}");
    assert!(summary.contains(&(Section::Connection, Some("resend"), Impact::Widens)));
    assert!(summary.contains(&(Section::Secret, Some("B"), Impact::Widens)));
    assert!(summary.contains(&(Section::Secret, Some("A"), Impact::Narrows)));
}

#[test]
fn a_permission_swapped_is_one_widening_and_one_narrowing() {
    let new = BASE.replace("permissions: [a:write]", "permissions: [b:write]");
    let found = changes(BASE, &new);
    let impacts: Vec<Impact> = found.iter().map(|c| c.2).collect();
    assert_eq!(impacts, [Impact::Widens, Impact::Narrows]);
    assert!(found.iter().all(|c| matches!(
        &c.3,
        Detail::Definition(ToolChange::List { list: ListField::Permissions, .. })
    )));
}

#[test]
fn steps_added_and_removed() {
    let new = BASE
        .replace(
            "  - {id: a, kind: agent, agent: x, purpose: p, allowedTools: [look], next: g}\n",
            "  - {id: c, kind: agent, agent: x, purpose: p, allowedTools: [look, pay], next: g}\n",
        )
        .replace("\nsteps:", "\nstart: c\nsteps:");
    let found = changes(BASE, &new);
    let keys: Vec<(Section, Option<&str>, Impact)> =
        found.iter().map(|c| (c.0, c.1.as_deref(), c.2)).collect();
    assert_eq!(keys[0], (Section::Document, None, Impact::Neutral), "start changed: {found:#?}");
    assert!(keys.contains(&(Section::Step, Some("c"), Impact::Widens)));
    assert!(keys.contains(&(Section::Step, Some("a"), Impact::Narrows)));
    let added = keys.iter().position(|k| k.1 == Some("c"));
    let removed = keys.iter().position(|k| k.1 == Some("a"));
    assert!(added < removed, "removed steps come after the new version's");
}

#[test]
fn a_playbook_and_a_manifest_do_not_compare() {
    let manifest = analyze("name: p\ntools:\n  - id: p_x\n    mcp: [x]\n", &Options::default());
    assert!(matches!(diff(&analysis(BASE), &manifest), Err(DiffError::KindsDiffer { .. })));
    let broken = analyze("{", &Options::default());
    assert_eq!(
        diff(&broken, &analysis(BASE)),
        Err(DiffError::Unreadable { old: true, new: false })
    );
    assert_eq!(
        DiffError::Unreadable { old: true, new: false }.to_string(),
        "the old version cannot be read as a playbook or a plugin manifest"
    );
}
