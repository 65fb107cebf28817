//! PM4xx: approvals (seed 003: `requires_approval`, `approval`).

use super::shown;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::manifest::values::{parse_go_duration, read_fraction, HOUR, MINUTE};
use crate::views::manifest::{Escalation, ManifestToolView, ManifestView, Runs, ToolLabel};
use crate::views::spec::one_of;
use opb_syntax::{Node, Ptr, Value};

/// The seed's bounds: a deadline from 1m to 720h, at most five escalation
/// steps, 16 teams, 32 people and 8 keys among the deciders.
const MIN_DEADLINE: i128 = MINUTE;
const MAX_DEADLINE: i128 = 720 * HOUR;
const MAX_ESCALATION_STEPS: usize = 5;
const MAX_TEAMS: usize = 16;
const MAX_PEOPLE: usize = 32;
const MAX_KEYS: usize = 8;

pub(super) const ROLES: &[&str] = &["operator", "admin"];

/// Each role of `approval.deciders.role`, as seed 003 describes it.
pub(super) fn role_meaning(role: &str) -> Option<&'static str> {
    Some(match role {
        "operator" => "The default: a decider holds at least the tenant's operator role.",
        "admin" => "A decider holds the tenant's admin role.",
        _ => return None,
    })
}
const TARGETS: &[&str] = &["deciders", "owner", "admins", "role:<role>", "team:<name>"];

pub static PM401: Rule = Rule {
    code: "PM401",
    name: "approval-ref-invalid",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("A `requires_approval` entry that is not `<id>.<function>` with this tool's id, nor `<plugin>/<id>.<function>` with this plugin's name. A flow tool's one function is its flow, so there the function must be the flow's name."),
    source: documented!("\"This tool's functions that a person must decide every time, as `<id>.<function>` (or `<plugin>/<id>.<function>` with this plugin's own name)\" (seed 003, `requires_approval`); a flow tool \"exposes [its flow] as its one function, `<id>.<flow>`\" (seed 003, `flow`)."),
    fix: documented!("Name a function of this tool with its id in front: `requires_approval: [acme_github.merge]`."),
    example: documented!("tools:\n  - id: acme_github\n    mcp: [python, -m, acme_github.server]\n    requires_approval: [merge, other_tool.send]"),
};

pub static PM402: Rule = Rule {
    code: "PM402",
    name: "approval-deadline-range",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("`approval.deadline` is not a Go duration (`90s`, `35m`, `1h30m`, `48h`) from 1m to 720h, both included."),
    source: documented!("\"`deadline`: how long a call waits before it is denied, never approved, 1m to 720h (the agent's, then the tenant's, 24h when nobody sets one; a tenant rule wins).\" (seed 003, `approval`); durations are Go-style (DOCUMENTS.md §2)."),
    fix: documented!("Write a duration from `1m` to `720h` (30 days), or leave `deadline` out for 24h. Days are written in hours: `72h`."),
    example: documented!("approval:\n  deadline: 30s"),
};

pub static PM403: Rule = Rule {
    code: "PM403",
    name: "escalation-off-no-reason",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("`escalation: off` (plain or quoted, any case, or `false`) without a non-empty `escalation_reason`."),
    source: documented!("\"`escalation`: `off` (with `escalation_reason`, since it loosens oversight)\" (seed 003, `approval`)."),
    fix: documented!("Say why nobody should be reminded: `escalation_reason: the on-call rota decides within minutes`; or keep the default ladder by removing `escalation`."),
    example: documented!("approval:\n  escalation: off"),
};

pub static PM404: Rule = Rule {
    code: "PM404",
    name: "escalation-steps",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("`escalation` is neither `off` nor a list of steps; or it has more than five steps; or a step's `at` is not a fraction strictly between 0 and 1 (`0.5`, or quoted `\"0.5\"`) or a percentage strictly between 0% and 100% (`\"90%\"`); or its `to` is not `deciders`, `owner`, `admins`, `role:<role>` or `team:<name>`."),
    source: documented!("\"`off` … or the ladder's steps, at most five, each `{at: <fraction or \"90%\">, to: deciders | owner | admins | role:<role> | team:<name>}`\" (seed 003, `approval`)."),
    fix: documented!("Write at most five steps such as `{at: 0.5, to: owner}` or `{at: \"90%\", to: admins}`."),
    example: documented!("approval:\n  escalation:\n    - {at: 2, to: boss}"),
};

pub static PM405: Rule = Rule {
    code: "PM405",
    name: "deciders-invalid",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("`approval.deciders.role` is not `operator` or `admin`; or there are more than 16 `teams`, 32 `people` or 8 `keys` (the first one over is underlined); or a person is not `user:<name>`."),
    source: documented!("\"`role` (`operator`, the default, or `admin`), `teams` (teams of the tenant, by name, at most 16) and `people` (accounts, as `user:<name>`, at most 32) and `keys` (the tenant's API keys that may decide, by key ID, at most 8 …)\" (seed 003, `approval.deciders`)."),
    fix: documented!("Use `role: operator` or `role: admin`, name people as `user:<name>`, and keep within the limits; a team stands for many people."),
    example: documented!("approval:\n  deciders:\n    role: owner\n    people: [alice]"),
};

pub static PM406: Rule = Rule {
    code: "PM406",
    name: "approval-field-type",
    severity: Severity::Error,
    group: Group::ManifestApprovals,
    summary: documented!("`approval.edit` or `approval.not_starter` is not a boolean, or `approval.confirm` is not an argument name (a non-empty string without spaces, not a JSON pointer)."),
    source: documented!("\"`edit: false` keeps a person from approving a call with other arguments. `confirm: <argument>` asks a person to type that argument's value before a call runs\" and \"`approval.not_starter` boolean\" (seed 003, `approval`). YAML 1.2 reads `no` and `yes` as strings, so they are refused with a hint."),
    fix: documented!("Write `edit: false`, `not_starter: true`, and `confirm:` with the name of one argument of the function (`confirm: pull_number`)."),
    example: documented!("approval:\n  edit: no\n  confirm: /pull_number"),
};

pub static RULES: &[&Rule] = &[&PM401, &PM402, &PM403, &PM404, &PM405, &PM406];

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    for tool in &view.tools {
        check_requires_approval(view, tool, report);
        let Some(approval) = tool.get("approval").filter(|a| a.as_object().is_some()) else {
            continue;
        };
        let ptr = tool.ptr.key("approval");
        let what = tool.label();
        if let Some(deadline) = approval.get("deadline").filter(|d| !d.is_null()) {
            check_deadline(deadline, &ptr.key("deadline"), what, report);
        }
        if let Some(escalation) = approval.get("escalation").filter(|e| !e.is_null()) {
            check_escalation(approval, escalation, &ptr, what, report);
        }
        if let Some(deciders) = approval.get("deciders").filter(|d| d.as_object().is_some()) {
            check_deciders(deciders, &ptr.key("deciders"), what, report);
        }
        for key in ["edit", "not_starter"] {
            if let Some(value) = approval.get(key).filter(|v| !v.is_null() && v.as_bool().is_none())
            {
                report.push(
                    &PM406,
                    &ptr.key(key),
                    At::Value(value),
                    format!(
                        "`approval.{key}` of {what} must be `true` or `false`, not {}.{}",
                        shown(value),
                        yaml11_hint(value)
                    ),
                );
            }
        }
        if let Some(confirm) = approval.get("confirm").filter(|c| !c.is_null()) {
            let is_name = confirm.as_str().is_some_and(|s| {
                !s.is_empty() && !s.starts_with('/') && !s.contains(char::is_whitespace)
            });
            if !is_name {
                report.push(
                    &PM406,
                    &ptr.key("confirm"),
                    At::Value(confirm),
                    format!("`approval.confirm` of {what} is {}; it names one argument of the function, such as `pull_number`.", shown(confirm)),
                );
            }
        }
    }
}

fn check_requires_approval(
    view: &ManifestView<'_>,
    tool: &ManifestToolView<'_>,
    report: &mut Report,
) {
    let Some(id) = tool.id else { return };
    let Some(entries) = tool.get("requires_approval").and_then(Node::as_array) else { return };
    // A flow tool's one function is its flow; a `flow` that names no flow
    // of the plugin is PM601's alone, so the entries are not judged by it.
    let flow = match tool.runs {
        Runs::Flow(flow) if view.flow(flow).is_some() => Some(flow),
        _ => None,
    };
    for (i, entry) in entries.iter().enumerate() {
        let Some(text) = entry.as_str() else { continue };
        let problem = match view.own_reference(text) {
            None => Some(format!("names another plugin; a tool's `requires_approval` lists its own functions, as `{id}.<function>`")),
            Some(reference) => match reference.split_once('.') {
                Some((entry_id, function)) if entry_id == id && !function.is_empty() => match flow {
                    Some(flow) if function != flow => {
                        Some(format!("names function `{function}`, but flow {}'s one function is its flow, `{id}.{flow}`", tool.label()))
                    }
                    _ => None,
                },
                Some((entry_id, _)) if entry_id != id => {
                    Some(format!("names tool `{entry_id}`; a tool's `requires_approval` lists its own functions, as `{id}.<function>`"))
                }
                _ => Some(format!("is not `<id>.<function>`; write `{id}.<function>`")),
            },
        };
        if let Some(problem) = problem {
            report.push(
                &PM401,
                &tool.ptr.key("requires_approval").index(i),
                At::Value(entry),
                format!("`requires_approval` entry `{text}` of {} {problem}.", tool.label()),
            );
        }
    }
}

fn check_deadline(deadline: &Node, ptr: &Ptr, what: ToolLabel<'_>, report: &mut Report) {
    let problem = match deadline.as_str() {
        None => format!("must be a duration such as `24h`, not {}", shown(deadline)),
        Some(text) => match parse_go_duration(text) {
            Err(error) => format!("is `{text}`, which is not a duration: {error}"),
            Ok(nanos) if nanos < MIN_DEADLINE => {
                format!("is `{text}`, shorter than 1m, the shortest deadline")
            }
            Ok(nanos) if nanos > MAX_DEADLINE => {
                format!("is `{text}`, longer than 720h (30 days), the longest deadline")
            }
            Ok(_) => return,
        },
    };
    report.push(
        &PM402,
        ptr,
        At::Value(deadline),
        format!("`approval.deadline` of {what} {problem}."),
    );
}

fn check_escalation(
    approval: &Node,
    escalation: &Node,
    ptr: &Ptr,
    what: ToolLabel<'_>,
    report: &mut Report,
) {
    let escalation_ptr = ptr.key("escalation");
    match Escalation::read(escalation) {
        Escalation::Off => {
            let has_reason = approval
                .get("escalation_reason")
                .and_then(Node::as_str)
                .is_some_and(|r| !r.trim().is_empty());
            if !has_reason {
                report.push(
                    &PM403,
                    &escalation_ptr,
                    At::Value(escalation),
                    format!("`approval.escalation` of {what} is off without an `escalation_reason`; say why, since it loosens oversight."),
                );
            }
        }
        Escalation::Invalid => {
            if matches!(escalation.value, Value::String(_) | Value::Bool(true)) {
                report.push(
                    &PM404,
                    &escalation_ptr,
                    At::Value(escalation),
                    format!("`approval.escalation` of {what} is {}; it is `off` or a list of at most five steps `{{at, to}}`.", shown(escalation)),
                );
            }
        }
        Escalation::Steps(steps) => {
            if let Some(first_over) = steps.get(MAX_ESCALATION_STEPS) {
                report.push(
                    &PM404,
                    &escalation_ptr.index(MAX_ESCALATION_STEPS),
                    At::Value(first_over),
                    format!("`approval.escalation` of {what} has {} steps; at most {MAX_ESCALATION_STEPS}.", steps.len()),
                );
            }
            for (i, step) in steps.iter().enumerate().filter(|(_, s)| s.as_object().is_some()) {
                check_escalation_step(step, &escalation_ptr.index(i), i, what, report);
            }
        }
    }
}

fn check_escalation_step(
    step: &Node,
    ptr: &Ptr,
    index: usize,
    what: ToolLabel<'_>,
    report: &mut Report,
) {
    match step.get("at").filter(|a| !a.is_null()) {
        None => report.push(&PM404, ptr, At::Missing(step), format!("Escalation step {index} of {what} has no `at` (a fraction such as `0.5`, or `\"90%\"`).")),
        Some(at) => {
            let inside = read_fraction(at).is_some_and(|f| f > 0.0 && f < 1.0);
            if !inside {
                report.push(
                    &PM404,
                    &ptr.key("at"),
                    At::Value(at),
                    format!("`at` of escalation step {index} of {what} is {}; it is a fraction between 0 and 1 (`0.5`) or a percentage (`\"90%\"`) of the deadline.", shown(at)),
                );
            }
        }
    }
    match step.get("to").filter(|t| !t.is_null()) {
        None => report.push(
            &PM404,
            ptr,
            At::Missing(step),
            format!("Escalation step {index} of {what} has no `to`; it is {}.", one_of(TARGETS)),
        ),
        Some(to) => {
            if !to.as_str().is_some_and(is_target) {
                report.push(
                    &PM404,
                    &ptr.key("to"),
                    At::Value(to),
                    format!(
                        "`to` of escalation step {index} of {what} is {}; it is {}.",
                        shown(to),
                        one_of(TARGETS)
                    ),
                );
            }
        }
    }
}

fn is_target(to: &str) -> bool {
    matches!(to, "deciders" | "owner" | "admins")
        || ["role:", "team:"]
            .iter()
            .any(|prefix| to.strip_prefix(prefix).is_some_and(|rest| !rest.trim().is_empty()))
}

fn check_deciders(deciders: &Node, ptr: &Ptr, what: ToolLabel<'_>, report: &mut Report) {
    if let Some(role) = deciders.get("role").and_then(Node::as_str).filter(|r| !ROLES.contains(r)) {
        if let Some(node) = deciders.get("role") {
            report.push(
                &PM405,
                &ptr.key("role"),
                At::Value(node),
                format!("`approval.deciders.role` of {what} is `{role}`; it is {}.", one_of(ROLES)),
            );
        }
    }
    for (key, limit, unit) in [
        ("teams", MAX_TEAMS, "teams"),
        ("people", MAX_PEOPLE, "people"),
        ("keys", MAX_KEYS, "keys"),
    ] {
        let Some(items) = deciders.get(key).and_then(Node::as_array) else { continue };
        if let Some(first_over) = items.get(limit) {
            report.push(
                &PM405,
                &ptr.key(key).index(limit),
                At::Value(first_over),
                format!(
                    "`approval.deciders.{key}` of {what} names {} {unit}; at most {limit}.",
                    items.len()
                ),
            );
        }
    }
    if let Some(people) = deciders.get("people").and_then(Node::as_array) {
        for (i, person) in people.iter().enumerate() {
            let Some(text) = person.as_str() else { continue };
            if text.strip_prefix("user:").is_none_or(|name| name.trim().is_empty()) {
                report.push(
                    &PM405,
                    &ptr.key("people").index(i),
                    At::Value(person),
                    format!(
                        "Person `{text}` among the deciders of {what} is not `user:<name>`{}.",
                        user_hint(text)
                    ),
                );
            }
        }
    }
}

/// "; write `user:alice`" for a bare name.
fn user_hint(text: &str) -> String {
    if text.starts_with("user:") || text.trim().is_empty() {
        String::new()
    } else {
        format!("; write `user:{text}`")
    }
}

/// A hint for the YAML 1.1 booleans YAML 1.2 reads as strings.
fn yaml11_hint(value: &Node) -> String {
    let Some(text) = value.as_str() else { return String::new() };
    let meant = match text.to_ascii_lowercase().as_str() {
        "yes" | "y" | "on" | "true" => "true",
        "no" | "n" | "off" | "false" => "false",
        _ => return String::new(),
    };
    format!(" YAML 1.2 reads `{text}` as a string; write `{meant}` without quotes.")
}
