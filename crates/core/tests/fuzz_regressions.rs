//! Every input a fuzz target stopped on (`fuzz/artifacts/<target>/`), kept in
//! `fixtures/fuzz/` and checked the way that target checks it. A new crash
//! is added here first, failing, and then fixed; docs/fuzzing.md lists them.

#[path = "support/invariants.rs"]
mod invariants;

use invariants::{assert_analysis, assert_checked};
use opb_core::{analyze, check, Kind, Options, Syntax};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What the check targets do: every kind, detected or forced.
fn check_every_kind(text: &str, syntax: Option<Syntax>) {
    for kind in [None, Some(Kind::Playbook), Some(Kind::PluginManifest)] {
        let options = Options { syntax, kind, ..Options::default() };
        assert_checked(text, &options, &check(text, &options));
        assert_analysis(text, &options, &analyze(text, &options));
    }
}

/// check_yaml: a mapping repeats `headers`; IN005 reports a repeated key
/// inside the second `headers`, which lookups (reading the first) never
/// reach. The pointer names the value in the text all the same: the
/// invariant now resolves pointers through repeated keys, as rules read
/// them (no change to the core).
#[test]
fn a_finding_inside_a_shadowed_repeated_key() {
    let text = fixture("check_yaml-shadowed-headers.yaml");
    let checked = check(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.code == "IN005" && d.pointer == "/tools/0/headers/X-H2"),
        "{:#?}",
        checked.diagnostics
    );
    check_every_kind(&text, Some(Syntax::Yaml));
}

/// check_detect: the same through SEC001, a credential in the second of two
/// `tools` lists.
#[test]
fn a_credential_inside_a_shadowed_repeated_key() {
    let text = fixture("check_detect-shadowed-tools.yaml");
    let checked = check(&text, &Options::default());
    assert!(checked.diagnostics.iter().any(|d| d.code == "SEC001"), "{:#?}", checked.diagnostics);
    check_every_kind(&text, None);
}

/// check_yaml: an alias naming no anchor stops the read (IN001), and the
/// finding carried the pointer of where the alias stood, in a document that
/// was never built. Like every parse error, it points at the root.
#[test]
fn an_undefined_alias_points_at_the_root() {
    let text = fixture("check_yaml-undefined-alias.yaml");
    let checked = check(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let in001 = checked.diagnostics.iter().find(|d| d.code == "IN001").expect("IN001");
    assert!(in001.message.contains("alias"), "{}", in001.message);
    assert_eq!(in001.pointer, "");
    check_every_kind(&text, Some(Syntax::Yaml));
}

/// share_decode (a `#base64:` link of this document, opened as a
/// playbook): a mapping used as a key (`? …`) repeats `steps`. IN004
/// already reports the key; IN005 inside it pointed at `/steps` of the
/// object around it, which has none. A key has no pointer, so what is inside
/// one is not reported again.
#[test]
fn a_repeated_key_inside_a_mapping_key_is_not_reported_again() {
    let text = fixture("share_decode-duplicate-inside-a-key.yaml");
    let options = Options { kind: Some(Kind::Playbook), ..Options::default() };
    let checked = check(&text, &options);
    assert!(checked.diagnostics.iter().any(|d| d.code == "IN004"), "{:#?}", checked.diagnostics);
    assert!(!checked.diagnostics.iter().any(|d| d.code == "IN005"), "{:#?}", checked.diagnostics);
    check_every_kind(&text, None);
}

/// check_yaml: a flow mapping used as a key holds mappings used as keys in
/// turn. IN004 reported the key, and then each collection key inside it,
/// at a pointer through a key, which no value has. As for repeated keys
/// (above), what is inside a key is not reported again.
#[test]
fn a_collection_key_inside_a_mapping_key_is_not_reported_again() {
    let text = fixture("check_yaml-collection-key-inside-a-key.yaml");
    let checked = check(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let in004: Vec<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.code == "IN004")
        .map(|d| d.pointer.as_str())
        .collect();
    // The two keys of the mapping at `/tools/1/mcp/2` that are mappings;
    // those inside the first (`"subject": …`, `"body": …`) are not reported.
    let keys = [
        r#"/tools/1/mcp/2/"properties": { "to": { "type": "string""#,
        r#"/tools/1/mcp/2/"required": ["to", "subject", "body"] }"#,
    ];
    assert_eq!(in004, keys, "{:#?}", checked.diagnostics);
    check_every_kind(&text, Some(Syntax::Yaml));
}
