//! Per-rule fixtures: for every registered rule, `fixtures/rules/<CODE>.bad.*`
//! must trigger it and `fixtures/rules/<CODE>.good.*` must not. The bad
//! fixture's full diagnostics are snapshotted (positions included), so a
//! cascade of other findings shows up in review.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::{check, rules, Options};
use std::path::{Path, PathBuf};

fn fixture(code: &str, which: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules");
    ["json", "yaml"]
        .iter()
        .map(|ext| dir.join(format!("{code}.{which}.{ext}")))
        .find(|p| p.exists())
}

fn run(path: &Path) -> (String, opb_core::Checked) {
    let text = std::fs::read_to_string(path).unwrap();
    let options = Options {
        syntax: opb_core::Syntax::from_path(&path.to_string_lossy()),
        ..Options::default()
    };
    let checked = check(&text, &options);
    (text, checked)
}

/// One line per diagnostic: `line:col-line:col severity CODE pointer message`.
pub fn render(checked: &opb_core::Checked) -> String {
    checked
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{}:{}-{}:{} {} {} {} {}\n",
                d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column,
                d.severity, d.code, if d.pointer.is_empty() { "\"\"" } else { &d.pointer }, d.message
            )
        })
        .collect()
}

#[test]
fn every_rule_has_fixtures_that_trigger_it_and_not() {
    let mut problems = Vec::new();
    for rule in rules::all() {
        let code = rule.code;
        match fixture(code, "bad") {
            None => problems.push(format!("{code}: no fixtures/rules/{code}.bad.(json|yaml)")),
            Some(path) => {
                let (_, checked) = run(&path);
                if !checked.diagnostics.iter().any(|d| d.code == code) {
                    problems.push(format!("{code}: the bad fixture does not trigger it:\n{}", render(&checked)));
                }
                insta::with_settings!({ snapshot_suffix => code, prepend_module_to_snapshot => false }, {
                    insta::assert_snapshot!("bad", render(&checked));
                });
            }
        }
        match fixture(code, "good") {
            None => problems.push(format!("{code}: no fixtures/rules/{code}.good.(json|yaml)")),
            Some(path) => {
                let (_, checked) = run(&path);
                if checked.diagnostics.iter().any(|d| d.code == code) {
                    problems.push(format!("{code}: the good fixture triggers it:\n{}", render(&checked)));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
