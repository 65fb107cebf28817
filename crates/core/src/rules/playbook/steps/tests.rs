use crate::{check, Options};
use opb_syntax::Syntax;

/// The findings of `codes` for a YAML playbook, as `CODE pointer`.
fn found(yaml: &str, codes: &[&str]) -> Vec<String> {
    let options = Options { syntax: Some(Syntax::Yaml), ..Options::default() };
    check(yaml, &options)
        .diagnostics
        .iter()
        .filter(|d| codes.contains(&d.code))
        .map(|d| format!("{} {}", d.code, d.pointer))
        .collect()
}

fn messages(yaml: &str, code: &str) -> Vec<String> {
    let options = Options { syntax: Some(Syntax::Yaml), ..Options::default() };
    check(yaml, &options)
        .diagnostics
        .into_iter()
        .filter(|d| d.code == code)
        .map(|d| d.message)
        .collect()
}

const FLOW: &[&str] = &["IN004", "PB213", "PB215", "PB216", "PB217"];

#[test]
fn next_takes_an_id_a_list_or_labelled_branches() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: b}
  - {id: b, kind: gate, next: [c, d]}
  - {id: c, kind: gate, next: {yes: d, no: e}}
  - {id: d, kind: gate, next: null}
  - {id: e, kind: gate}
";
    assert_eq!(found(yaml, FLOW), Vec::<String>::new());
}

#[test]
fn next_of_another_type_is_wrong_type() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: 3}
  - {id: b, kind: gate, next: [c, 7]}
  - {id: c, kind: gate, next: {yes: true, no: d}}
  - {id: d, kind: gate}
";
    assert_eq!(
        found(yaml, FLOW),
        ["IN004 /steps/0/next", "IN004 /steps/1/next/1", "IN004 /steps/2/next/yes"]
    );
}

#[test]
fn every_form_of_next_must_name_a_step() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: x}
  - {id: b, kind: gate, next: [a, y]}
  - {id: c, kind: gate, next: {yes: z, no: b}}
";
    assert_eq!(
        found(yaml, &["PB213"]),
        ["PB213 /steps/0/next", "PB213 /steps/1/next/1", "PB213 /steps/2/next/yes"]
    );
    let branch = messages(yaml, "PB213").remove(2);
    assert_eq!(branch, "Branch `yes` of `next` of step `c` names `z`, which is no step of this playbook. It must be `a`, `b` or `c`.");
}

#[test]
fn a_broken_link_does_not_also_make_steps_unreachable() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: sned}
  - {id: send, kind: gate}
";
    assert_eq!(found(yaml, FLOW), ["PB213 /steps/0/next"]);
}

#[test]
fn a_typo_walks_on_from_the_step_it_meant() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: sned}
  - {id: send, kind: gate, next: record}
  - {id: record, kind: gate}
  - {id: orphan, kind: gate}
";
    assert_eq!(found(yaml, FLOW), ["PB213 /steps/0/next", "PB215 /steps/3/id"]);
    assert!(messages(yaml, "PB213")[0].ends_with("Did you mean `send`?"));
}

#[test]
fn a_link_to_a_step_never_written_still_shows_what_is_unreachable() {
    let yaml = "
steps:
  - {id: look, kind: gate, next: decide}
  - {id: decide, kind: gate, next: file}
  - {id: orphan, kind: gate}
";
    assert_eq!(found(yaml, FLOW), ["PB213 /steps/1/next", "PB215 /steps/2/id"]);
}

#[test]
fn a_mistyped_start_starts_where_it_meant() {
    let yaml = "
start: recovr
steps:
  - {id: recover, kind: gate, next: send}
  - {id: send, kind: gate}
  - {id: orphan, kind: gate}
";
    assert_eq!(found(yaml, &["PB214", "PB215"]), ["PB214 /start", "PB215 /steps/2/id"]);
    assert!(messages(yaml, "PB214")[0].ends_with("Did you mean `recover`?"));
}

#[test]
fn an_unknown_start_is_reported_once() {
    let yaml = "
start: nowhere
steps:
  - {id: a, kind: gate, next: b}
  - {id: b, kind: gate}
";
    assert_eq!(found(yaml, &["PB214", "PB215"]), ["PB214 /start"]);
}

#[test]
fn unreachable_steps_are_named_from_the_start() {
    let yaml = "
start: b
steps:
  - {id: a, kind: gate, next: b}
  - {id: b, kind: gate}
";
    assert_eq!(found(yaml, &["PB215"]), ["PB215 /steps/0/id"]);
}

#[test]
fn a_cycle_names_its_steps_at_the_next_that_closes_it() {
    let yaml = "
steps:
  - {id: draft, kind: gate, next: review}
  - {id: review, kind: gate, next: {approved: send, rejected: revise}}
  - {id: revise, kind: gate, next: draft}
  - {id: send, kind: gate}
  - {id: poll, kind: gate, next: [poll, send]}
";
    assert_eq!(found(yaml, &["PB216"]), ["PB216 /steps/2/next", "PB216 /steps/4/next/0"]);
    let messages = messages(yaml, "PB216");
    assert!(
        messages[0].starts_with(
            "Steps `draft`, `review` and `revise` form a cycle: `revise` leads back to `draft`."
        ),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].starts_with("Step `poll` forms a cycle: `poll` leads back to itself."),
        "{}",
        messages[1]
    );
}

#[test]
fn a_playbook_where_every_step_has_a_next_never_ends() {
    let yaml = "
steps:
  - {id: a, kind: gate, next: b}
  - {id: b, kind: gate, next: a}
";
    assert_eq!(found(yaml, &["PB217"]), ["PB217 /steps"]);
}

#[test]
fn ids_must_be_present_non_empty_and_unique() {
    let yaml = "
steps:
  - {kind: gate, next: a}
  - {id: '', kind: gate}
  - {id: 3, kind: gate}
  - {id: a, kind: gate}
  - {id: a, kind: gate}
";
    assert_eq!(
        found(yaml, &["PB201", "PB202", "IN004", "PB215"]),
        ["PB201 /steps/0", "PB201 /steps/1/id", "PB201 /steps/2/id", "PB202 /steps/4/id"]
    );
}

#[test]
fn kinds_decide_what_a_step_must_say() {
    let yaml = "
steps:
  - {id: a, kind: agent, next: b}
  - {id: b, kind: gate, allowedTools: [], next: c}
  - {id: c, kind: timer, allowedTools: [], next: d}
  - {id: d, agent: lou}
";
    assert_eq!(
        found(yaml, &["PB203", "PB204", "PB206", "PB207", "PB208", "PB218"]),
        [
            "PB206 /steps/0",
            "PB207 /steps/0",
            "PB208 /steps/0",
            "PB218 /steps/1/allowedTools",
            "PB204 /steps/2/kind",
            "PB218 /steps/2/allowedTools",
            "PB203 /steps/3"
        ]
    );
}

#[test]
fn each_name_reports_its_most_specific_problem() {
    let yaml = "
requires:
  mcpServers: [{name: acme}]
tools:
  - {name: customer.get}
steps:
  - id: a
    kind: agent
    allowedTools: [customer.get, customer.lookup, mcp.acme, mcp.orders.find, mcp.acme.find, {kind: skill}, 4, customer.get]
";
    assert_eq!(
        found(yaml, &["PB205", "PB209", "PB210", "PB211", "PB212"]),
        [
            "PB211 /steps/0/allowedTools/1",
            "PB205 /steps/0/allowedTools/2",
            "PB212 /steps/0/allowedTools/3",
            "PB211 /steps/0/allowedTools/4",
            "PB209 /steps/0/allowedTools/5",
            "PB209 /steps/0/allowedTools/6",
            "PB210 /steps/0/allowedTools/7",
        ]
    );
}

#[test]
fn a_tool_requiring_approval_wants_a_gate_right_before() {
    let yaml = "
tools:
  - {name: email.send, requiresApproval: true}
steps:
  - {id: draft, kind: agent, next: [gate, rush]}
  - {id: gate, kind: gate, next: send}
  - {id: send, kind: agent, allowedTools: [email.send]}
  - {id: rush, kind: agent, allowedTools: [email.send]}
";
    assert_eq!(found(yaml, &["PB219"]), ["PB219 /steps/3/allowedTools/0"]);
}

#[test]
fn a_gate_on_one_way_in_is_not_enough_nor_is_the_start() {
    let yaml = "
tools:
  - {name: email.send, requiresApproval: true}
steps:
  - {id: first, kind: agent, allowedTools: [email.send], next: [check, send]}
  - {id: check, kind: gate, next: send}
  - {id: send, kind: agent, allowedTools: [email.send], next: only}
  - {id: gate2, kind: gate, next: only}
  - {id: only, kind: agent, allowedTools: [email.send]}
";
    // `first` is the start; `send` is also reached from `first` straight;
    // `only` is reached from `send`, not a gate, though `gate2` leads to it too.
    assert_eq!(
        found(yaml, &["PB219"]),
        [
            "PB219 /steps/0/allowedTools/0",
            "PB219 /steps/2/allowedTools/0",
            "PB219 /steps/4/allowedTools/0"
        ]
    );
    let gated = "
tools:
  - {name: email.send, requiresApproval: true}
steps:
  - {id: check, kind: gate, next: send}
  - {id: send, kind: agent, allowedTools: [email.send]}
";
    assert!(found(gated, &["PB219"]).is_empty(), "a step entered only from a gate");
}

const UNSUPERVISED: &[&str] = &["PB220", "PB221"];

/// Tools of both supervised classes, without approval, and a money tool
/// with it; `orders.sync` is internal.
const RISKY_TOOLS: &str = "
tools:
  - {name: refund.create, riskClass: money, sideEffecting: true}
  - {name: email.send, riskClass: customer_comms, sideEffecting: true, requiresApproval: false}
  - {name: payout.create, riskClass: money, sideEffecting: true, requiresApproval: true}
  - {name: orders.sync, riskClass: internal, sideEffecting: true}
";

fn unsupervised(steps: &str) -> Vec<String> {
    found(&format!("{RISKY_TOOLS}{steps}"), UNSUPERVISED)
}

#[test]
fn a_gate_start_covers_everything_after_it() {
    let steps = "
steps:
  - {id: approve, kind: gate, next: refund}
  - {id: refund, kind: agent, allowedTools: [refund.create, email.send], next: again}
  - {id: again, kind: agent, allowedTools: [refund.create]}
";
    assert!(unsupervised(steps).is_empty(), "{:?}", unsupervised(steps));
}

#[test]
fn the_start_and_a_branch_without_a_gate_are_unsupervised() {
    let steps = "
steps:
  - {id: quick_refund, kind: agent, allowedTools: [orders.sync, refund.create], next: [review, rush]}
  - {id: review, kind: gate, next: {approved: notify}}
  - {id: notify, kind: agent, allowedTools: [email.send]}
  - {id: rush, kind: agent, allowedTools: [email.send, refund.create]}
";
    assert_eq!(
        unsupervised(steps),
        [
            "PB220 /steps/0/allowedTools/1",
            "PB221 /steps/3/allowedTools/0",
            "PB220 /steps/3/allowedTools/1"
        ]
    );
    let messages = messages(&format!("{RISKY_TOOLS}{steps}"), "PB221");
    assert_eq!(
        messages,
        ["Step `rush` may call `email.send` (writes to customers), which does not declare `requiresApproval: true`, and the playbook can reach it with no `gate` step on the way: `quick_refund` → `rush`. The playbook may write to customers with no person deciding: put a `gate` step before it on every way in, or declare `requiresApproval: true` on the tool."]
    );
}

#[test]
fn a_loop_back_past_a_gate_is_still_supervised_and_one_around_it_is_not() {
    // `pay` comes after the gate on every way in: the back edge from `pay`
    // returns to the gate, not past it.
    let gated = "
steps:
  - {id: look, kind: agent, allowedTools: [orders.sync], next: approve}
  - {id: approve, kind: gate, next: pay}
  - {id: pay, kind: agent, allowedTools: [refund.create], next: [approve, look]}
";
    assert!(unsupervised(gated).is_empty(), "{:?}", unsupervised(gated));
    // Here the loop returns to `look`, which leads to `pay` without the gate.
    let around = "
steps:
  - {id: look, kind: agent, allowedTools: [orders.sync], next: [approve, pay]}
  - {id: approve, kind: gate, next: look}
  - {id: pay, kind: agent, allowedTools: [refund.create]}
";
    assert_eq!(unsupervised(around), ["PB220 /steps/2/allowedTools/0"]);
}

#[test]
fn approval_on_the_tool_or_an_unknown_risk_is_not_flagged() {
    let steps = "
steps:
  - {id: pay, kind: agent, allowedTools: [payout.create, registry.only, orders.sync]}
";
    assert!(unsupervised(steps).is_empty(), "{:?}", unsupervised(steps));
    assert_eq!(
        found(&format!("{RISKY_TOOLS}{steps}"), &["PB211"]),
        ["PB211 /steps/0/allowedTools/1"]
    );
}

#[test]
fn a_long_route_is_cut_in_the_middle() {
    let steps = "
steps:
  - {id: s0, kind: agent, next: s1}
  - {id: s1, kind: agent, next: s2}
  - {id: s2, kind: agent, next: s3}
  - {id: s3, kind: agent, next: s4}
  - {id: s4, kind: agent, next: s5}
  - {id: s5, kind: agent, next: s6}
  - {id: s6, kind: agent, allowedTools: [refund.create]}
";
    let messages = messages(&format!("{RISKY_TOOLS}{steps}"), "PB220");
    assert!(messages[0].contains("`s0` → … → `s2` → `s3` → `s4` → `s5` → `s6`."), "{messages:?}");
}
