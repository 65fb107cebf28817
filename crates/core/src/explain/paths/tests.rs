use super::{build, Ending, PathLimits, RiskPaths, Stop};
use crate::explain::Explain;
use crate::{analyze, Options};
use opb_syntax::Syntax;

/// A playbook of `steps` (id, kind, tools, next) over three embedded tools:
/// `read` (read), `note` (internal, side-effecting) and `pay` (money,
/// side-effecting).
fn playbook(steps: &[(&str, &str, &[&str], &str)]) -> String {
    let tool = |name: &str, risk: &str, writes: bool| {
        format!(
            r#"{{"name": "{name}", "source": "primitive", "description": "d", "permissions": [], "inputSchema": {{}}, "outputSchema": {{}}, "riskClass": "{risk}", "sideEffecting": {writes}}}"#
        )
    };
    let steps: Vec<String> = steps
        .iter()
        .map(|(id, kind, tools, next)| {
            let tools: Vec<String> = tools.iter().map(|t| format!("\"{t}\"")).collect();
            let next = if next.is_empty() { String::new() } else { format!(r#", "next": {next}"#) };
            let allowed = if *kind == "agent" {
                format!(r#", "agent": "a", "purpose": "p", "allowedTools": [{}]"#, tools.join(", "))
            } else {
                String::new()
            };
            format!(r#"{{"id": "{id}", "kind": "{kind}"{allowed}{next}}}"#)
        })
        .collect();
    format!(
        r#"{{"openplaybook": "1.6", "requires": {{"connections": []}}, "tools": [{}, {}, {}], "steps": [{}]}}"#,
        tool("read", "read", false),
        tool("note", "internal", true),
        tool("pay", "money", true),
        steps.join(", ")
    )
}

fn paths_with(text: &str, limits: &PathLimits) -> RiskPaths {
    match analyze(text, &Options { syntax: Some(Syntax::Json), ..Options::default() }).explain {
        Some(Explain::Playbook(explain)) => build(&explain, limits),
        other => panic!("not a playbook: {other:?}"),
    }
}

fn paths(text: &str) -> RiskPaths {
    paths_with(text, &PathLimits::default())
}

fn walks(paths: &RiskPaths) -> Vec<String> {
    paths.paths.iter().map(|p| p.steps.join(">")).collect()
}

#[test]
fn a_money_step_behind_a_gate_on_one_branch_only_is_flagged_on_that_branch() {
    let text = playbook(&[
        ("look", "agent", &["read"], r#"{"ok": "gate", "rush": "pay"}"#),
        ("gate", "gate", &[], r#""pay""#),
        ("pay", "agent", &["pay"], ""),
    ]);
    let paths = paths(&text);
    assert!(paths.complete);
    assert_eq!(walks(&paths), ["look>pay", "look>gate>pay"]);
    assert!(paths.paths[0].flagged && !paths.paths[0].gated);
    assert_eq!(paths.paths[0].ungated[0].step, "pay");
    assert_eq!(paths.paths[0].ungated[0].position, 1);
    assert!(!paths.paths[1].flagged && paths.paths[1].gated);
    assert_eq!(paths.paths[0].highest_risk_class.as_deref(), Some("money"));
    let pay = paths.steps.iter().find(|s| s.step == "pay").unwrap();
    assert!(pay.flagged && !pay.behind_gate);
    assert_eq!(pay.highest_risk_before_class.as_deref(), Some("read"));
    assert_eq!(paths.ungated_route("pay"), ["look", "pay"]);
    assert_eq!(pay.ungated_distance, Some(1));
    assert_eq!(paths.routes().ungated_tail("pay", 1), ["pay"]);
    let gate = paths.steps.iter().find(|s| s.step == "gate").unwrap();
    assert_eq!((gate.ungated_previous.as_deref(), gate.ungated_distance), (Some("look"), Some(1)));
}

#[test]
fn a_cycle_is_walked_round_once() {
    let text = playbook(&[
        ("a", "agent", &["read"], r#""b""#),
        ("b", "agent", &["note"], r#"["a", "end"]"#),
        ("end", "agent", &["read"], ""),
    ]);
    let paths = paths(&text);
    assert!(paths.complete);
    assert_eq!(walks(&paths), ["a>b>end", "a>b>a>b>end"]);
    assert_eq!(paths.paths.iter().map(|p| p.loops).collect::<Vec<_>>(), [false, true]);
    // "note" acts (internal), with no gate anywhere.
    assert!(paths.paths.iter().all(|p| !p.gated && !p.flagged));
    let a = paths.steps.iter().find(|s| s.step == "a").unwrap();
    assert_eq!(
        a.highest_risk_before_class.as_deref(),
        Some("internal"),
        "on a cycle, b runs before a"
    );
    let end = paths.steps.iter().find(|s| s.step == "end").unwrap();
    assert_eq!(end.highest_risk_before_class.as_deref(), Some("internal"));
}

#[test]
fn a_self_loop_and_a_dead_end() {
    let text = playbook(&[
        ("a", "agent", &["read"], r#"["a", "b", "nowhere"]"#),
        ("b", "agent", &["read"], r#""missing""#),
    ]);
    let paths = paths(&text);
    assert_eq!(walks(&paths), ["a>b", "a>a>b"]);
    assert!(paths.paths.iter().all(|p| p.ending == Ending::DeadEnd));
}

#[test]
fn no_end_means_no_path_but_every_step_is_summarised() {
    let text = playbook(&[
        ("a", "agent", &["pay"], r#""b""#),
        ("b", "agent", &["read"], r#""a""#),
        ("c", "agent", &["read"], ""),
    ]);
    let paths = paths(&text);
    assert!(paths.paths.is_empty() && paths.complete);
    let steps: Vec<&str> = paths.steps.iter().map(|s| s.step.as_str()).collect();
    assert_eq!(steps, ["a", "b"], "c is unreachable");
    assert!(paths.steps[0].flagged);
    assert_eq!(paths.ungated_route("a"), ["a"]);
}

#[test]
fn a_gate_before_every_acting_step_clears_the_path() {
    let text = playbook(&[("g", "gate", &[], r#""pay""#), ("pay", "agent", &["pay", "note"], "")]);
    let paths = paths(&text);
    assert_eq!(paths.paths.len(), 1);
    assert!(paths.paths[0].gated && !paths.paths[0].flagged);
    let pay = paths.steps.iter().find(|s| s.step == "pay").unwrap();
    assert!(!pay.flagged && pay.behind_gate);
    assert!(paths.ungated_route("pay").is_empty());
}

#[test]
fn paths_are_listed_by_risk() {
    let text = playbook(&[
        ("start", "agent", &["read"], r#"["low", "mid", "high"]"#),
        ("low", "agent", &["read"], ""),
        ("mid", "agent", &["note"], ""),
        ("high", "gate", &[], r#""pay""#),
        ("pay", "agent", &["pay"], ""),
    ]);
    assert_eq!(walks(&paths(&text)), ["start>high>pay", "start>mid", "start>low"]);
}

/// Each of `layers` layers has two steps, both leading to both of the next
/// layer's: 2^layers paths.
fn lattice(layers: usize) -> String {
    let mut steps: Vec<(String, String)> = vec![("s".into(), r#"["l0a", "l0b"]"#.into())];
    for layer in 0..layers {
        let next = if layer + 1 == layers {
            r#""end""#.to_owned()
        } else {
            format!(r#"["l{0}a", "l{0}b"]"#, layer + 1)
        };
        steps.push((format!("l{layer}a"), next.clone()));
        steps.push((format!("l{layer}b"), next));
    }
    steps.push(("end".into(), String::new()));
    let borrowed: Vec<(&str, &str, &[&str], &str)> = steps
        .iter()
        .map(|(id, next)| (id.as_str(), "agent", &["read"][..], next.as_str()))
        .collect();
    playbook(&borrowed)
}

#[test]
fn a_dense_lattice_stops_at_the_path_limit() {
    let paths = paths(&lattice(40));
    assert!(!paths.complete);
    assert_eq!(paths.stopped_by, Some(Stop::MaxPaths));
    assert_eq!(paths.paths.len(), PathLimits::default().max_paths);
    assert_eq!(paths.steps.len(), 82);
}

#[test]
fn exactly_the_limit_is_complete() {
    let limits = PathLimits { max_paths: 8, ..PathLimits::default() };
    let paths = paths_with(&lattice(3), &limits);
    assert!(paths.complete, "{:?}", paths.stopped_by);
    assert_eq!(paths.paths.len(), 8);
}

#[test]
fn a_cyclic_web_stops_at_the_edge_walk_limit() {
    // Every step leads on and back to the start: walks multiply with each
    // back edge they may take.
    let ids: Vec<String> = (0..300).map(|i| format!("s{i}")).collect();
    let nexts: Vec<String> = (0..300)
        .map(|i| if i + 1 == 300 { String::new() } else { format!(r#"["s{}", "s0"]"#, i + 1) })
        .collect();
    let steps: Vec<(&str, &str, &[&str], &str)> = ids
        .iter()
        .zip(&nexts)
        .map(|(id, next)| (id.as_str(), "agent", &["read"][..], next.as_str()))
        .collect();
    let limits =
        PathLimits { max_paths: 100_000, max_listed_steps: 10_000_000, max_edge_walks: 50_000 };
    let paths = paths_with(&playbook(&steps), &limits);
    assert_eq!(paths.stopped_by, Some(Stop::MaxEdgeWalks));
    assert!(!paths.paths.is_empty());
    assert_eq!(paths.paths[0].steps.len(), 300, "the straight walk is found first");
}

#[test]
fn a_long_chain_is_one_path() {
    let ids: Vec<String> = (0..10_000).map(|i| format!("s{i}")).collect();
    let nexts: Vec<String> = (0..10_000)
        .map(|i| if i + 1 == 10_000 { String::new() } else { format!(r#""s{}""#, i + 1) })
        .collect();
    let steps: Vec<(&str, &str, &[&str], &str)> = ids
        .iter()
        .zip(&nexts)
        .map(|(id, next)| (id.as_str(), "agent", &["read"][..], next.as_str()))
        .collect();
    let paths = paths(&playbook(&steps));
    assert!(paths.complete);
    assert_eq!(paths.paths.len(), 1);
    assert_eq!(paths.paths[0].steps.len(), 10_000);
    assert_eq!(paths.steps.len(), 10_000);
}

#[test]
fn long_walks_round_cycles_stop_at_the_listed_steps_limit() {
    let ids: Vec<String> = (0..300).map(|i| format!("s{i}")).collect();
    let nexts: Vec<String> = (0..300)
        .map(|i| if i + 1 == 300 { String::new() } else { format!(r#"["s{}", "s0"]"#, i + 1) })
        .collect();
    let steps: Vec<(&str, &str, &[&str], &str)> = ids
        .iter()
        .zip(&nexts)
        .map(|(id, next)| (id.as_str(), "agent", &["read"][..], next.as_str()))
        .collect();
    let limits = PathLimits { max_listed_steps: 1_000, ..PathLimits::default() };
    let paths = paths_with(&playbook(&steps), &limits);
    assert_eq!(paths.stopped_by, Some(Stop::MaxListedSteps));
    assert!(paths.paths.iter().map(|p| p.steps.len()).sum::<usize>() <= 1_000);
    assert_eq!(walks(&paths)[0], ids.join(">"), "the walk round no cycle comes first");
}

#[test]
fn an_internal_step_before_the_gate_leaves_a_gated_money_step_supervised() {
    let text = playbook(&[
        ("note", "agent", &["note"], r#""review""#),
        ("review", "gate", &[], r#""pay""#),
        ("pay", "agent", &["pay"], ""),
    ]);
    let gated = paths(&text);
    let [path] = gated.paths.as_slice() else { panic!("one path: {:?}", walks(&gated)) };
    assert_eq!(path.highest_risk_class.as_deref(), Some("money"));
    assert!(!path.gated, "`note` acts before the gate");
    assert!(!path.flagged && path.unsupervised.is_empty(), "{:?}", path.unsupervised);
    // Without the gate, the path names the class and the step.
    let text =
        playbook(&[("note", "agent", &["note"], r#""pay""#), ("pay", "agent", &["pay"], "")]);
    let open = paths(&text);
    let unsupervised: Vec<_> = open.paths[0]
        .unsupervised
        .iter()
        .map(|u| (u.risk_class.as_str(), u.step.as_str(), u.tools.clone()))
        .collect();
    assert_eq!(unsupervised, [("money", "pay", vec!["pay".to_owned()])]);
    assert!(open.paths[0].flagged);
}
