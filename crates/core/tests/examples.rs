//! The playbooks of `examples/` are real inputs: the valid one stays free of
//! errors and warnings, the broken one keeps each finding its comments name,
//! and the same document written as JSON and as YAML (converted by hand in
//! `fixtures/examples/`) gets the same diagnostics.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::{check, Checked, Limits, Options, Severity, Syntax};
use opb_syntax::{parse, Node, Value};
use std::path::{Path, PathBuf};

const FAILED_CHARGE_RECOVERY: &str = "examples/failed-charge-recovery.json";
const FAILED_CHARGE_RECOVERY_YAML: &str =
    "crates/core/tests/fixtures/examples/failed-charge-recovery.yaml";
const REFUND_TRIAGE: &str = "examples/refund-triage.broken.yaml";
const REFUND_TRIAGE_JSON: &str = "crates/core/tests/fixtures/examples/refund-triage.broken.json";

/// A path from the repository's root.
fn path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
}

fn read(relative: &str) -> (String, Syntax) {
    let path = path(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let syntax = Syntax::from_path(relative)
        .unwrap_or_else(|| panic!("{relative}: no .json or .yaml extension"));
    (text, syntax)
}

fn check_file(relative: &str) -> Checked {
    let (text, syntax) = read(relative);
    check(&text, &Options { syntax: Some(syntax), ..Options::default() })
}

/// One line per diagnostic: `line:col-line:col severity CODE pointer message`.
fn render(checked: &Checked) -> String {
    checked
        .diagnostics
        .iter()
        .map(|d| {
            let pointer = if d.pointer.is_empty() { "\"\"" } else { &d.pointer };
            format!(
                "{}:{}-{}:{} {} {} {pointer} {}\n",
                d.range.start.line,
                d.range.start.column,
                d.range.end.line,
                d.range.end.column,
                d.severity,
                d.code,
                d.message
            )
        })
        .collect()
}

/// The diagnostics as (code, pointer), sorted: what two syntaxes of one
/// document must share (their positions differ).
fn codes_and_pointers(checked: &Checked) -> Vec<(&'static str, String)> {
    let mut found: Vec<_> =
        checked.diagnostics.iter().map(|d| (d.code, d.pointer.clone())).collect();
    found.sort();
    found
}

/// A parsed document as plain data, without positions.
fn data(node: &Node) -> serde_json::Value {
    match &node.value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => serde_json::json!(n.value),
        Value::String(s) => serde_json::Value::String(s.to_string()),
        Value::Array(items) => serde_json::Value::Array(items.iter().map(data).collect()),
        Value::Object(object) => serde_json::Value::Object(
            object.members.iter().map(|m| (m.key.to_string(), data(&m.value))).collect(),
        ),
    }
}

fn document_data(relative: &str) -> serde_json::Value {
    let (text, syntax) = read(relative);
    let parsed = parse(&text, syntax, &Limits::default());
    assert!(parsed.problems.is_empty(), "{relative} parses cleanly: {:?}", parsed.problems);
    data(parsed.root.as_ref().unwrap_or_else(|| panic!("{relative} has a root")))
}

#[test]
fn failed_charge_recovery_has_no_errors_or_warnings() {
    for relative in [FAILED_CHARGE_RECOVERY, FAILED_CHARGE_RECOVERY_YAML] {
        let checked = check_file(relative);
        let serious: Vec<_> =
            checked.diagnostics.iter().filter(|d| d.severity != Severity::Info).collect();
        assert!(serious.is_empty(), "{relative}:\n{}", render(&checked));
    }
    // The infos it may have, for review.
    insta::assert_snapshot!(
        "failed_charge_recovery_infos",
        render(&check_file(FAILED_CHARGE_RECOVERY))
    );
}

#[test]
fn refund_triage_reports_each_mistake() {
    let checked = check_file(REFUND_TRIAGE);
    let expected = [
        (
            "PB405",
            "/requires/connections/1/provider",
            "the slack connection is not in manifest.requiredConnectors",
        ),
        ("PB410", "/requires/mcpServers/0/name", "the MCP server name is a URL"),
        ("PB417", "/requires/secrets/0", "the secret STRIPE_KEY has no purpose"),
        ("PB310", "/tools/2/outputSchema", "the outputSchema of notes.read is not an object"),
        ("PB306", "/tools/2/sideEffecting", "notes.read is a read tool with side effects"),
        ("PB212", "/steps/0/allowedTools/2", "mcp.orders.lookup names an undeclared server"),
        ("PB211", "/steps/1/allowedTools/1", "issue.create is not defined in tools"),
        ("PB213", "/steps/1/next", "decide leads to `file`, which is no step"),
        ("PB215", "/steps/2/id", "orphan is unreachable"),
        ("PB406", "/manifest/requiredConnectors/1", "linear is required but has no connection"),
    ];
    let found = codes_and_pointers(&checked);
    let missing: Vec<String> = expected
        .iter()
        .filter(|(code, pointer, _)| !found.iter().any(|(c, p)| c == code && p == pointer))
        .map(|(code, pointer, why)| format!("{code} at {pointer}: {why}"))
        .collect();
    assert!(
        missing.is_empty(),
        "not reported:\n{}\n\nreported:\n{}",
        missing.join("\n"),
        render(&checked)
    );
    insta::assert_snapshot!("refund_triage", render(&checked));
}

#[test]
fn hand_conversions_hold_the_same_data() {
    for (original, converted) in
        [(FAILED_CHARGE_RECOVERY, FAILED_CHARGE_RECOVERY_YAML), (REFUND_TRIAGE, REFUND_TRIAGE_JSON)]
    {
        assert_eq!(
            document_data(original),
            document_data(converted),
            "{converted} is {original} in the other syntax"
        );
    }
}

#[test]
fn json_and_yaml_get_the_same_diagnostics() {
    for (original, converted) in
        [(FAILED_CHARGE_RECOVERY, FAILED_CHARGE_RECOVERY_YAML), (REFUND_TRIAGE, REFUND_TRIAGE_JSON)]
    {
        let (a, b) = (check_file(original), check_file(converted));
        assert_eq!(
            codes_and_pointers(&a),
            codes_and_pointers(&b),
            "{original}:\n{}\n{converted}:\n{}",
            render(&a),
            render(&b)
        );
    }
}
