//! Risk paths of the fixtures in `fixtures/paths/`, rendered one line per
//! path and per step and snapshotted, and what a reader relies on: the path
//! that skips a gate is found, a loop is walked round once, and dead ends
//! and unreachable ends are told apart.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::explain::paths::{Ending, RiskPaths};
use opb_core::{analyze, risk_paths, Options, Syntax};
use std::fmt::Write;
use std::path::Path;

fn fixture(name: &str) -> RiskPaths {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/paths").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let analysis =
        analyze(&text, &Options { syntax: Syntax::from_path(name), ..Options::default() });
    risk_paths(&analysis).expect("a playbook")
}

/// `FLAGGED money ungated: refund  triage > refund > done`, then one line
/// per step.
fn render(paths: &RiskPaths) -> String {
    let mut out = String::new();
    for path in &paths.paths {
        let mark = if path.flagged {
            "FLAGGED"
        } else if path.gated {
            "gated"
        } else {
            "ungated"
        };
        let risk = path.highest_risk_class.as_deref().unwrap_or("-");
        let unknown = if path.risk_partly_unknown { "+?" } else { "" };
        let ungated: Vec<&str> = path.ungated.iter().map(|u| u.step.as_str()).collect();
        let ending = match path.ending {
            Ending::End => "",
            Ending::DeadEnd => " (dead end)",
        };
        let loops = if path.loops { " (loops)" } else { "" };
        writeln!(
            out,
            "{mark:<7} {risk}{unknown:<2} ungated: [{}]  {}{ending}{loops}",
            ungated.join(", "),
            path.steps.join(" > ")
        )
        .unwrap();
    }
    writeln!(out, "complete: {} {:?}", paths.complete, paths.stopped_by).unwrap();
    for step in &paths.steps {
        let acting: Vec<String> = step
            .acting_tools
            .iter()
            .map(|t| format!("{} ({})", t.name, t.risk_class.as_deref().unwrap_or("?")))
            .collect();
        writeln!(
            out,
            "step {:<8} before: {:<15} behind gate: {:<5} flagged: {:<5} acts: [{}] route: [{}]",
            step.step,
            format!(
                "{}{}",
                step.highest_risk_before_class.as_deref().unwrap_or("-"),
                if step.risk_before_partly_unknown { "+?" } else { "" }
            ),
            step.behind_gate,
            step.flagged,
            acting.join(", "),
            paths.ungated_route(&step.step).join(" > "),
        )
        .unwrap();
    }
    out
}

#[test]
fn the_only_path_to_money_skips_the_gate() {
    let paths = fixture("money-skips-gate.yaml");
    let money: Vec<_> =
        paths.paths.iter().filter(|p| p.steps.iter().any(|s| s == "refund")).collect();
    assert_eq!(money.len(), 1);
    assert!(money[0].flagged && !money[0].gated);
    assert_eq!(paths.paths[0], *money[0], "the flagged path is listed first");
    insta::assert_snapshot!(render(&paths));
}

#[test]
fn a_retry_loop_is_walked_round_once() {
    let paths = fixture("retry-loop.json");
    assert!(paths.complete);
    assert!(paths.paths.iter().any(|p| p.loops));
    assert!(paths.paths.iter().all(|p| !p.flagged), "the payout is behind the gate on every path");
    insta::assert_snapshot!(render(&paths));
}

#[test]
fn dead_ends_and_unreachable_ends() {
    let paths = fixture("dead-ends.yaml");
    assert!(paths.steps.iter().all(|s| s.step != "island"), "unreachable steps are not summarised");
    insta::assert_snapshot!(render(&paths));
}

#[test]
fn the_explain_view_has_no_paths_and_json_has_every_field() {
    let paths = fixture("money-skips-gate.yaml");
    let json = serde_json::to_value(&paths).unwrap();
    for field in ["start", "paths", "complete", "stopped_by", "limits", "steps"] {
        assert!(json.get(field).is_some(), "{field}");
    }
    assert_eq!(json["paths"][0]["ungated"][0]["tools"][0]["name"], "refund.create");
}

#[test]
fn a_manifest_has_no_risk_paths() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/acme-github.oz0-plugin.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(risk_paths(&analyze(&text, &Options::default())).is_none());
}
