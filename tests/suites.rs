//! The public YAML suite: the yaml-test-suite's data, vendored in
//! `tests/data/yaml-test-suite` with its licence and the commit it was taken
//! from (only `===`, `in.yaml`, `in.json` and `error` of each case). Read
//! through the binary, as a user runs it.
//!
//! - A case with `error`: `opb check` reports IN001.
//! - A case whose stream is one document: `opb convert --to json` writes
//!   the data of `in.json` (numbers compared as values, key order free).
//! - A stream of several documents: the first is read, and IN001 says the
//!   rest are not (docs/spec-decisions.md). An empty stream: IN001, "The
//!   text is empty".
//! - A valid case without `in.json` (its data has no JSON form): accepted.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Case {
    id: String,
    yaml: Vec<u8>,
    invalid: bool,
    /// The JSON values of `in.json`, one per document.
    documents: Option<Vec<Value>>,
}

fn cases() -> Vec<Case> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/yaml-test-suite/data");
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(&data).expect("the vendored yaml-test-suite").flatten() {
        let path = entry.path();
        if path.join("in.yaml").is_file() {
            dirs.push(path);
        } else {
            dirs.extend(
                std::fs::read_dir(&path)
                    .expect("a case folder")
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.join("in.yaml").is_file()),
            );
        }
    }
    dirs.sort();
    dirs.into_iter()
        .map(|dir: PathBuf| Case {
            id: dir.strip_prefix(&data).expect("under data").display().to_string(),
            yaml: std::fs::read(dir.join("in.yaml")).expect("in.yaml"),
            invalid: dir.join("error").exists(),
            documents: std::fs::read_to_string(dir.join("in.json")).ok().map(|json| {
                serde_json::Deserializer::from_str(&json)
                    .into_iter::<Value>()
                    .collect::<Result<_, _>>()
                    .expect("in.json is JSON")
            }),
        })
        .collect()
}

fn opb(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_opb"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("opb runs");
    child.stdin.take().expect("stdin").write_all(stdin).expect("written");
    child.wait_with_output().expect("opb ends")
}

/// The messages of the IN001 `opb check` reports for a YAML text.
fn syntax_errors(yaml: &[u8]) -> Vec<String> {
    let output = opb(&["check", "--format", "json", "--stdin-name", "in.yaml", "-"], yaml);
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let diagnostics = report["files"][0]["diagnostics"].as_array().cloned().unwrap_or_default();
    diagnostics
        .iter()
        .filter(|d| d["code"] == "IN001")
        .filter_map(|d| d["message"].as_str().map(str::to_owned))
        .collect()
}

/// What IN001 says of the documents after the first.
const SECOND_DOCUMENT: &str = "A second YAML document starts here";

/// `value` with every number as a double and nothing else changed: YAML's
/// `1.0` and JSON's `1` are the same number.
fn by_value(value: &Value) -> Value {
    match value {
        Value::Number(n) => {
            n.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
        }
        Value::Array(items) => Value::Array(items.iter().map(by_value).collect()),
        Value::Object(members) => {
            Value::Object(members.iter().map(|(k, v)| (k.clone(), by_value(v))).collect())
        }
        other => other.clone(),
    }
}

#[test]
fn every_invalid_case_is_rejected() {
    let cases = cases();
    let accepted: Vec<&str> = cases
        .iter()
        .filter(|c| c.invalid && syntax_errors(&c.yaml).is_empty())
        .map(|c| c.id.as_str())
        .collect();
    assert!(accepted.is_empty(), "invalid YAML accepted: {accepted:?}");
    assert_eq!(cases.iter().filter(|c| c.invalid).count(), 94);
}

#[test]
fn every_single_document_reads_to_the_suites_data() {
    let mut compared = 0;
    let mut wrong = Vec::new();
    for case in cases().iter().filter(|c| !c.invalid) {
        let Some([expected]) = case.documents.as_deref() else { continue };
        compared += 1;
        let output = opb(&["convert", "--to", "json", "--stdin-name", "in.yaml", "-"], &case.yaml);
        let written: Option<Value> = serde_json::from_slice(&output.stdout).ok();
        if written.as_ref().map(by_value) != Some(by_value(expected)) {
            wrong.push(format!(
                "{}: expected {expected}, opb wrote {} {}",
                case.id,
                String::from_utf8_lossy(&output.stdout).trim(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
    }
    assert!(wrong.is_empty(), "{} of {compared} differ:\n{}", wrong.len(), wrong.join("\n"));
    assert!(compared > 200, "{compared} compared");
}

#[test]
fn streams_of_several_documents_or_none_are_answered_as_documented() {
    for case in cases().iter().filter(|c| !c.invalid) {
        let errors = syntax_errors(&case.yaml);
        let only_later_documents = errors.iter().all(|e| e.starts_with(SECOND_DOCUMENT));
        match case.documents.as_deref() {
            Some([]) => assert!(
                errors.iter().any(|e| e.starts_with("The text is empty")),
                "{}: an empty stream: {errors:?}",
                case.id
            ),
            Some([_, _, ..]) => assert!(
                !errors.is_empty() && only_later_documents,
                "{}: the documents after the first: {errors:?}",
                case.id
            ),
            // Without `in.json`, a stream of several documents is answered
            // as one with a JSON form is.
            _ => assert!(only_later_documents, "{}: valid YAML refused: {errors:?}", case.id),
        }
    }
}
