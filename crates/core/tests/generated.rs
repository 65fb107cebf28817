//! The benchmark's generated documents are valid: they measure the path a
//! real document takes, not an error path.

#[path = "../benches/generate.rs"]
mod generate;

use opb_core::{analyze, Options, Severity};

#[test]
fn generated_playbooks_are_clean() {
    for steps in [10, 100, 1_000] {
        let text = generate::playbook(steps);
        let analysis = analyze(&text, &Options::default());
        let serious: Vec<_> = analysis
            .checked
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .collect();
        assert!(serious.is_empty(), "{steps} steps: {serious:#?}");
        assert!(analysis.explain.is_some());
    }
}

#[test]
fn generated_manifests_are_clean() {
    for tools in [10, 100, 2_000] {
        let text = generate::manifest(tools);
        let analysis = analyze(&text, &Options::default());
        assert_eq!(analysis.checked.kind, Some(opb_core::Kind::PluginManifest), "{tools} tools");
        let serious: Vec<_> = analysis
            .checked
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .collect();
        assert!(serious.is_empty(), "{tools} tools: {serious:#?}");
        assert!(analysis.explain.is_some());
    }
}
