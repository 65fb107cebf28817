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

#[path = "support/invariants.rs"]
mod invariants;

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
        let unsupervised: Vec<String> =
            path.unsupervised.iter().map(|u| format!("{} {}", u.risk_class, u.step)).collect();
        writeln!(
            out,
            "{mark:<7} {risk}{unknown:<2} ungated: [{}] unsupervised: [{}]  {}{ending}{loops}",
            ungated.join(", "),
            unsupervised.join(", "),
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

/// The examples, the path fixtures and the rule fixtures of steps and
/// tools: on each, PB220/PB221 and the risk paths name the same steps
/// (`invariants::assert_risk_agrees`); some of them flag a step, some not.
#[test]
fn the_risk_paths_and_the_rules_agree_on_every_playbook_here() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        root.join("../../examples"),
        root.join("tests/fixtures/paths"),
        root.join("tests/fixtures/rules"),
    ];
    let mut flagged = 0;
    let mut playbooks = 0;
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let playbook_rule = name.starts_with("PB2") || name.starts_with("PB3");
            if dir.ends_with("rules") && !playbook_rule || name.contains("oz0-plugin") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let options = Options { syntax: Syntax::from_path(&name), ..Options::default() };
            let analysis = analyze(&text, &options);
            let Some(paths) = risk_paths(&analysis) else { continue };
            playbooks += 1;
            flagged += usize::from(paths.flagged_paths() > 0);
            invariants::assert_analysis(&text, &options, &analysis);
        }
    }
    assert!(playbooks > 40 && flagged > 3, "{playbooks} playbooks, {flagged} flagged");
}
