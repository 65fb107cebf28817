//! Per-rule fixtures: for every registered rule, `fixtures/rules/<CODE>.bad.*`
//! must trigger it and `fixtures/rules/<CODE>.good.*` must not, nor anything
//! else but what `GOOD_MAY_REPORT` allows with its reason. The bad
//! fixture's full diagnostics are snapshotted (positions included), so a
//! cascade of other findings shows up in review.
//!
//! Rules that compare a playbook with a tool registry (DR) read one beside
//! the fixture: `<CODE>.<bad|good>.registry.(json|yaml)`, else
//! `<CODE>.registry.(json|yaml)` for both. The registry's own diagnostics
//! are rendered after the document's, each line starting `registry`.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::{check, Diagnostic, Options, Registry};
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
    let path =
        find(&format!("{code}.{which}.registry")).or_else(|| find(&format!("{code}.registry")))?;
    let text = std::fs::read_to_string(&path).unwrap();
    Some(Registry::read(
        &text,
        opb_core::Syntax::from_path(&path.to_string_lossy()),
        &opb_core::Limits::default(),
    ))
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
    // As opb check reads it: a suppression comment's own rule (IN008) is
    // reported where accepted findings are set aside.
    let mut checked = check(&text, &options);
    checked.accept(&text, &options.rules);
    Run { checked, registry }
}

fn line(d: &Diagnostic) -> String {
    format!(
        "{}:{}-{}:{} {} {} {} {}\n",
        d.range.start.line,
        d.range.start.column,
        d.range.end.line,
        d.range.end.column,
        d.severity,
        d.code,
        if d.pointer.is_empty() { "\"\"" } else { &d.pointer },
        d.message
    )
}

/// One line per diagnostic: `line:col-line:col severity CODE pointer message`.
pub fn render(checked: &opb_core::Checked) -> String {
    checked.diagnostics.iter().map(line).collect()
}

/// The only findings a good fixture may have, each with its reason: its
/// near miss is another rule's to report. Every other good fixture is clean,
/// so it cannot pass by stopping before its rule is reached (a parse error,
/// a value another rule refuses first).
const GOOD_MAY_REPORT: &[(&str, &str, &str)] = &[
    ("PM401", "PM601", "a misspelt flow is PM601's alone: PM401 does not judge the entry naming it"),
    ("PM505", "PM203", "an `oci:` image whose reference does not parse (PM203) is still an image, so `microvm` on it is not PM505's"),
    ("PM509", "PM508", "`sandbox: own` on a plugin that holds nothing is PM509's near miss, and PM508 warns of every `sandbox` set"),
];

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
                    problems.push(format!(
                        "{code}: the bad fixture does not trigger it:\n{}",
                        run.render()
                    ));
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
                    problems
                        .push(format!("{code}: the good fixture triggers it:\n{}", run.render()));
                }
                let allowed: Vec<_> = GOOD_MAY_REPORT
                    .iter()
                    .filter(|(rule, ..)| *rule == code)
                    .map(|(_, other, _)| *other)
                    .collect();
                let registry = run.registry.iter().flat_map(|r| &r.diagnostics);
                if run
                    .checked
                    .diagnostics
                    .iter()
                    .chain(registry)
                    .any(|d| !allowed.contains(&d.code))
                {
                    problems.push(format!(
                        "{code}: the good fixture has findings beyond GOOD_MAY_REPORT:\n{}",
                        run.render()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The findings a shell asks about before a document leaves the page are
/// exactly the credential rules': each of SEC001, PB411 and PM312 makes
/// one of its bad fixture, and no other rule's bad fixture has one.
#[test]
fn credential_findings_are_the_credential_rules_findings() {
    const CREDENTIAL_RULES: [&str; 3] = ["PB411", "PM312", "SEC001"];
    let mut problems = Vec::new();
    for rule in opb_core::rules() {
        let Some(path) = fixture(rule.code, "bad") else { continue };
        let run = run(&path, registry(rule.code, "bad"));
        let found: Vec<_> = run.checked.credential_findings().map(|d| d.code).collect();
        let credential_rule = CREDENTIAL_RULES.contains(&rule.code);
        if credential_rule && !found.contains(&rule.code) {
            problems
                .push(format!("{}: its bad fixture has no credential finding of it", rule.code));
        }
        if let Some(other) = found.iter().find(|code| !CREDENTIAL_RULES.contains(code)) {
            problems.push(format!("{}: {other} counts as a credential finding", rule.code));
        }
        let all = run.checked.diagnostics.iter().filter(|d| CREDENTIAL_RULES.contains(&d.code));
        if all.count() != found.len() {
            problems.push(format!("{}: a credential rule's finding is left out", rule.code));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn accepting_sets_a_finding_aside_only_when_asked() {
    let path = fixture("IN008", "good").expect("the IN008 fixture that must not trigger it");
    let text = std::fs::read_to_string(&path).unwrap();
    let options = Options { syntax: Some(opb_core::Syntax::Yaml), ..Options::default() };
    // What a reader's view shows: the finding the comment accepts.
    let mut checked = check(&text, &options);
    let codes = |checked: &opb_core::Checked| {
        checked.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
    };
    assert!(codes(&checked).contains(&"PB213"), "{:?}", codes(&checked));
    assert!(checked.suppressed.is_empty());
    let before = checked.counts;
    // What a repository's check shows: the same finding, set aside.
    checked.accept(&text, &options.rules);
    assert!(!codes(&checked).contains(&"PB213"), "{:?}", codes(&checked));
    assert_eq!(checked.suppressed.len(), 1);
    assert_eq!(checked.suppressed[0].diagnostic.code, "PB213");
    assert_eq!(checked.counts.error + 1, before.error);
}
