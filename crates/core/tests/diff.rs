//! The semantic diff of two versions: a playbook whose new version gives a
//! step more power (one step gains a customer_comms tool) and a manifest a
//! version later, snapshotted as the JSON the CLI prints and the app reads.

use opb_core::explain::diff::{Detail, Diff, Impact, Section};
use opb_core::{analyze, diff, Options, Syntax};
use std::path::Path;

fn version(name: &str) -> opb_core::Analysis {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    analyze(&text, &Options { syntax: Syntax::from_path(name), ..Options::default() })
}

fn compare(old: &str, new: &str) -> Diff {
    diff(&version(old), &version(new)).expect("two versions of one kind")
}

#[test]
fn a_step_gains_a_customer_comms_tool() {
    let diff = compare("comms.old.json", "comms.new.json");
    let record: Vec<_> = diff
        .changes
        .iter()
        .filter(|c| {
            c.subject.section == Section::Step && c.subject.key.as_deref() == Some("record")
        })
        .collect();
    assert!(
        matches!(&record[0].detail, Detail::ToolAllowed { tool, risk_class: Some(risk), .. } if tool == "email.send" && risk == "customer_comms")
    );
    assert!(record.iter().all(|c| c.impact == Impact::Widens));
    assert_eq!(diff.summary.narrows + diff.summary.neutral, 0, "{diff:#?}");
    insta::assert_snapshot!(serde_json::to_string_pretty(&diff).unwrap());
}

#[test]
fn the_reverse_narrows_as_much() {
    let forward = compare("comms.old.json", "comms.new.json");
    let back = compare("comms.new.json", "comms.old.json");
    assert_eq!(back.summary.narrows, forward.summary.widens);
    assert_eq!(back.summary.widens, 0);
}

#[test]
fn a_manifest_a_version_later() {
    let diff = compare("acme-github.old.oz0-plugin.yaml", "acme-github.new.oz0-plugin.yaml");
    let widening: Vec<&str> = diff
        .changes
        .iter()
        .filter(|c| c.impact == Impact::Widens)
        .map(|c| match &c.detail {
            Detail::Egress(_) => "egress",
            Detail::ManifestToolAdded { .. } => "tool added",
            Detail::AlwaysAsksRemoved { .. } => "no longer asks",
            Detail::Annotation { .. } => "annotation",
            Detail::Sandbox(_) => "sandbox",
            Detail::Isolation(_) => "isolation",
            Detail::SecretAdded { .. } => "secret",
            _ => "other",
        })
        .collect();
    assert_eq!(
        widening,
        [
            "egress",
            "no longer asks",
            "annotation",
            "annotation",
            "isolation",
            "sandbox",
            "tool added",
            "secret"
        ]
    );
    insta::assert_snapshot!(serde_json::to_string_pretty(&diff).unwrap());
}

#[test]
fn a_version_compared_with_itself_has_no_changes() {
    let diff = compare("acme-github.old.oz0-plugin.yaml", "acme-github.old.oz0-plugin.yaml");
    assert!(diff.is_empty());
}
