//! Drift against a registry: a registry that disagrees where it matters (it
//! widens one permission and lowers one risk class), the registry's forms,
//! and the cases that must stay quiet.

use opb_core::{analyze, check, Checked, Limits, Options, Registry, Severity, Syntax};
use std::path::Path;
use std::sync::Arc;

fn read(relative: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)).unwrap()
}

fn registry(text: &str) -> Arc<Registry> {
    Arc::new(Registry::read(text, None, &Limits::default()))
}

fn check_with(document: &str, registry: Option<Arc<Registry>>) -> Checked {
    check(document, &Options { registry, ..Options::default() })
}

fn drift(checked: &Checked) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .filter(|d| d.code.starts_with("DR"))
        .map(|d| {
            format!(
                "{}:{} {} {} {} {}",
                d.range.start.line, d.range.start.column, d.severity, d.code, d.pointer, d.message
            )
        })
        .collect()
}

const EXAMPLE: &str = "../../examples/failed-charge-recovery.json";
const RUNTIME: &str = "tests/fixtures/registry/runtime.registry.yaml";

#[test]
fn a_registry_that_widens_a_permission_and_lowers_a_risk_class() {
    let registry = registry(&read(RUNTIME));
    assert!(registry.diagnostics.is_empty(), "{:?}", registry.diagnostics);
    let checked = check_with(&read(EXAMPLE), Some(registry));
    let found = drift(&checked);
    let warnings: Vec<&opb_core::Diagnostic> =
        checked.diagnostics.iter().filter(|d| d.severity == Severity::Warning).collect();
    assert_eq!(warnings.len(), 1, "{found:#?}");
    assert_eq!((warnings[0].code, warnings[0].pointer.as_str()), ("DR004", "/tools/1/permissions"));
    assert!(found.iter().any(|f| f.contains("DR003 /tools/3/riskClass")), "{found:#?}");
    insta::assert_snapshot!(found.join("\n"));
}

#[test]
fn without_a_registry_nothing_drifts() {
    assert!(drift(&check_with(&read(EXAMPLE), None)).is_empty());
}

#[test]
fn a_list_and_an_object_with_tools_read_alike() {
    let list = read(RUNTIME);
    let registry_list = registry(&list);
    let indented: String =
        list.lines().filter(|l| !l.starts_with('#')).map(|l| format!("  {l}\n")).collect();
    let registry_object = registry(&format!("tools:\n{indented}"));
    assert!(registry_object.diagnostics.is_empty(), "{:?}", registry_object.diagnostics);
    assert_eq!(registry_list.len(), registry_object.len());
    let document = read(EXAMPLE);
    // The same findings; only the registry lines they quote move.
    let without_lines = |found: Vec<String>| -> Vec<String> {
        found
            .into_iter()
            .map(|f| {
                f.split(" (line ")
                    .map(|part| part.split_once(')').map_or(part, |(_, rest)| rest))
                    .collect()
            })
            .collect()
    };
    let from_list = without_lines(drift(&check_with(&document, Some(registry_list))));
    assert_eq!(from_list.len(), 3);
    assert_eq!(from_list, without_lines(drift(&check_with(&document, Some(registry_object)))));
}

#[test]
fn a_registry_that_cannot_be_read_reports_itself_and_nothing_else() {
    let document = read(EXAMPLE);
    for text in ["[{\"name\": ", "{\"name\": \"not a list\"}", "42"] {
        let registry = registry(text);
        assert!(!registry.is_usable());
        assert_eq!(registry.counts.error, 1, "{text}: {:?}", registry.diagnostics);
        assert!(drift(&check_with(&document, Some(registry))).is_empty(), "{text}");
    }
    let registry = registry("{\"name\": \"not a list\"}");
    assert_eq!(registry.diagnostics[0].code, "DR009");
    assert_eq!(registry.syntax, Syntax::Json);
}

#[test]
fn an_identical_registry_and_one_with_only_other_tools() {
    let document = read(EXAMPLE);
    let embedded = analyze(&document, &Options::default());
    assert!(embedded.explain.is_some());
    let tools =
        document.find("\"tools\": [").map(|at| &document[at + "\"tools\": ".len()..]).unwrap();
    let list_end = tools.find("\n  ],").unwrap();
    let identical = registry(&format!("{}\n]", &tools[..list_end]));
    assert!(identical.diagnostics.is_empty(), "{:?}", identical.diagnostics);
    assert_eq!(identical.len(), 5);
    assert!(drift(&check_with(&document, Some(identical))).is_empty());

    let others = registry("- {name: slack.post, riskClass: internal}\n");
    let missing = drift(&check_with(&document, Some(others)));
    assert_eq!(missing.len(), 5, "every embedded tool is missing: {missing:#?}");
    assert!(missing.iter().all(|m| m.contains("info DR001")));
}

#[test]
fn a_manifest_is_not_compared() {
    let manifest = read("../../examples/acme-github.oz0-plugin.yaml");
    let registry = registry(&read(RUNTIME));
    assert!(drift(&check_with(&manifest, Some(registry))).is_empty());
}
