//! The benchmark's generated documents are valid: they measure the path a
//! real document takes, not an error path.

#[path = "../benches/generate.rs"]
mod generate;

use opb_core::{analyze, Analysis, Options, Severity};

#[test]
fn generated_playbooks_are_clean() {
    for steps in [10, 100, 1_000] {
        let text = generate::playbook(steps);
        let analysis = analyze(&text, &Options::default());
        assert_clean(&analysis, &format!("{steps} steps"));
    }
}

#[test]
fn generated_manifests_are_clean() {
    for tools in [10, 100, 2_000] {
        let text = generate::manifest(tools);
        let analysis = analyze(&text, &Options::default());
        assert_eq!(analysis.checked.kind, Some(opb_core::Kind::PluginManifest), "{tools} tools");
        assert_clean(&analysis, &format!("{tools} tools"));
    }
}

/// The masking's benchmark document: each step's credential reported, and
/// none shown whole outside the text.
#[test]
fn generated_leaky_playbooks_report_every_credential_and_show_none() {
    let text = generate::leaky_playbook(100);
    let analysis = analyze(&text, &Options::default());
    let agents = text.matches("\"kind\": \"agent\"").count();
    let found = analysis.checked.diagnostics.iter().filter(|d| d.code == "SEC001").count();
    assert_eq!(found, agents);
    let shown = serde_json::to_string(&analysis.explain).unwrap();
    let source = analysis.masking().mask_source(&text);
    for token in text.split("with ").skip(1).map(|rest| &rest[..40]) {
        assert!(token.starts_with("ghp_"), "{token}");
        assert!(!shown.contains(&token[4..]), "{token} in the explain view");
        assert!(!source.contains(&token[4..]), "{token} in the source");
    }
}

/// No error or warning (infos are advice), and an explain view.
fn assert_clean(analysis: &Analysis, what: &str) {
    let serious: Vec<_> =
        analysis.checked.diagnostics.iter().filter(|d| d.severity != Severity::Info).collect();
    assert!(serious.is_empty(), "{what}: {serious:#?}");
    assert!(analysis.explain.is_some(), "{what}: no explain view");
}
