//! Per-rule fixtures: for every registered rule, `fixtures/rules/<CODE>.bad.*`
//! must trigger it and `fixtures/rules/<CODE>.good.*` must not. The bad
//! fixture's full diagnostics are snapshotted (positions included), so a
//! cascade of other findings shows up in review.
//!
//! Rules that compare a playbook with a tool registry (DR) read one beside
//! the fixture: `<CODE>.<bad|good>.registry.(json|yaml)`, else
//! `<CODE>.registry.(json|yaml)` for both. The registry's own diagnostics
//! are rendered after the document's, each line starting `registry`.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::{Diagnostic, Options, Registry, check};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn find(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules");
    ["json", "yaml"].iter().map(|ext| dir.join(format!("{name}.{ext}"))).find(|p| p.exists())
}

fn fixture(code: &str, which: &str) -> Option<PathBuf> {
    find(&format!("{code}.{which}"))
}

fn registry(code: &str, which: &str) -> Option<Registry> {
    let path = find(&format!("{code}.{which}.registry")).or_else(|| find(&format!("{code}.registry")))?;
    let text = std::fs::read_to_string(&path).unwrap();
    Some(Registry::read(&text, opb_core::Syntax::from_path(&path.to_string_lossy()), &opb_core::Limits::default()))
}

/// What checking a fixture found: the document's diagnostics, and the
/// registry's when there is one.
struct Run {
    checked: opb_core::Checked,
    registry: Option<Arc<Registry>>,
}

impl Run {
    fn reports(&self, code: &str) -> bool {
        let registry = self.registry.iter().flat_map(|r| &r.diagnostics);
        self.checked.diagnostics.iter().chain(registry).any(|d| d.code == code)
    }

    fn render(&self) -> String {
        let mut out = render(&self.checked);
        for d in self.registry.iter().flat_map(|r| &r.diagnostics) {
            out.push_str("registry ");
            out.push_str(&line(d));
        }
        out
    }
}

fn run(path: &Path, registry: Option<Registry>) -> Run {
    let text = std::fs::read_to_string(path).unwrap();
    let registry = registry.map(Arc::new);
    let options = Options {
        syntax: opb_core::Syntax::from_path(&path.to_string_lossy()),
        registry: registry.clone(),
        ..Options::default()
    };
    Run { checked: check(&text, &options), registry }
}

fn line(d: &Diagnostic) -> String {
    format!(
        "{}:{}-{}:{} {} {} {} {}\n",
        d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column,
        d.severity, d.code, if d.pointer.is_empty() { "\"\"" } else { &d.pointer }, d.message
    )
}

/// One line per diagnostic: `line:col-line:col severity CODE pointer message`.
pub fn render(checked: &opb_core::Checked) -> String {
    checked.diagnostics.iter().map(line).collect()
}

#[test]
fn every_rule_has_fixtures_that_trigger_it_and_not() {
    let mut problems = Vec::new();
    for rule in opb_core::rules() {
        let code = rule.code;
        match fixture(code, "bad") {
            None => problems.push(format!("{code}: no fixtures/rules/{code}.bad.(json|yaml)")),
            Some(path) => {
                let run = run(&path, registry(code, "bad"));
                if !run.reports(code) {
                    problems.push(format!("{code}: the bad fixture does not trigger it:\n{}", run.render()));
                }
                insta::with_settings!({ snapshot_suffix => code, prepend_module_to_snapshot => false }, {
                    insta::assert_snapshot!("bad", run.render());
                });
            }
        }
        match fixture(code, "good") {
            None => problems.push(format!("{code}: no fixtures/rules/{code}.good.(json|yaml)")),
            Some(path) => {
                let run = run(&path, registry(code, "good"));
                if run.reports(code) {
                    problems.push(format!("{code}: the good fixture triggers it:\n{}", run.render()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
