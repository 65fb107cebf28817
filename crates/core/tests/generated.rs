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
