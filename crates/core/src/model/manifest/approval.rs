//! A tool's approval policy as the explain view shows it: who decides, the
//! deadline, the escalation ladder, four eyes, with the seed's defaults
//! filled in and marked, and one sentence that says it all.

use super::explain::{Defaulted, DurationValue};
use super::prose::{and_list, or_list};
use super::values::read_fraction;
use super::{Escalation, ToolView};
use crate::parse::Node;
use serde::Serialize;

/// "24h when nobody sets one" (seed 003, `approval.deadline`).
pub const DEFAULT_DEADLINE: &str = "24h";

/// The default ladder: "reminds the people who may decide at a quarter,
/// tells the agent's owner at half and the tenant's admins at three
/// quarters" (seed 003, `approval.escalation`).
const DEFAULT_LADDER: [(f64, &str); 3] = [(0.25, "deciders"), (0.5, "owner"), (0.75, "admins")];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApprovalExplain {
    /// The `requires_approval` entries: functions a person decides every time.
    pub always_asks: Vec<String>,
    pub deciders: DecidersExplain,
    pub deadline: Defaulted<DurationValue>,
    pub escalation: EscalationExplain,
    /// Whether a person may approve a call with other arguments
    /// (`edit`, true unless set to false).
    pub edit: Defaulted<bool>,
    /// The argument a person types to confirm (`confirm`).
    pub confirm: Option<String>,
    /// `not_starter: true`: the job's starter may deny but not approve.
    pub four_eyes: bool,
    /// The policy in one sentence.
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecidersExplain {
    /// The least role a decider holds: `operator` (the default) or `admin`.
    pub role: Defaulted<String>,
    pub teams: Vec<String>,
    pub people: Vec<String>,
    pub keys: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EscalationExplain {
    /// `escalation: off`.
    pub off: bool,
    pub reason: Option<String>,
    /// The ladder, as set or the default one.
    pub steps: Vec<EscalationStep>,
    /// Whether `steps` is the default ladder.
    pub default: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EscalationStep {
    /// The point of the deadline as a fraction, when it reads as one.
    pub at: Option<f64>,
    /// `at` as written.
    pub at_text: String,
    pub to: String,
}

fn strings(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::as_array)
        .map(|items| items.iter().filter_map(Node::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

pub fn explain(tool: &ToolView<'_>) -> ApprovalExplain {
    let approval = tool.get("approval").filter(|a| a.as_object().is_some());
    let field = |key: &str| approval.and_then(|a| a.get(key)).filter(|v| !v.is_null());
    let deciders_node = field("deciders");
    let decider_list = |key: &str| strings(deciders_node.and_then(|d| d.get(key)));
    let deciders = DecidersExplain {
        role: match deciders_node.and_then(|d| d.get("role")).and_then(Node::as_str) {
            Some(role) => Defaulted::set(role.to_owned()),
            None => Defaulted::default_value("operator".to_owned()),
        },
        teams: decider_list("teams"),
        people: decider_list("people"),
        keys: decider_list("keys"),
    };
    let deadline = match field("deadline").and_then(Node::scalar_text) {
        Some(text) => Defaulted::set(DurationValue::of(&text)),
        None => Defaulted::default_value(DurationValue::of(DEFAULT_DEADLINE)),
    };
    let escalation = escalation(field("escalation"), field("escalation_reason"));
    let edit = match field("edit").and_then(Node::as_bool) {
        Some(edit) => Defaulted::set(edit),
        None => Defaulted::default_value(true),
    };
    let mut explained = ApprovalExplain {
        always_asks: strings(tool.get("requires_approval")),
        deciders,
        deadline,
        escalation,
        edit,
        confirm: field("confirm").and_then(Node::as_str).map(str::to_owned),
        four_eyes: field("not_starter").and_then(Node::as_bool) == Some(true),
        summary: String::new(),
    };
    explained.summary = sentence(&explained);
    explained
}

fn escalation(node: Option<&Node>, reason: Option<&Node>) -> EscalationExplain {
    let reason = reason.and_then(Node::as_str).map(str::to_owned);
    let default_ladder = || DEFAULT_LADDER
        .iter()
        .map(|&(at, to)| EscalationStep { at: Some(at), at_text: at.to_string(), to: to.to_owned() })
        .collect();
    match node.map(Escalation::read) {
        Some(Escalation::Off) => EscalationExplain { off: true, reason, steps: Vec::new(), default: false },
        Some(Escalation::Steps(steps)) => EscalationExplain {
            off: false,
            reason,
            steps: steps
                .iter()
                .filter(|s| s.as_object().is_some())
                .map(|s| EscalationStep {
                    at: s.get("at").and_then(read_fraction),
                    at_text: s.get("at").and_then(Node::scalar_text).map(|t| t.into_owned()).unwrap_or_default(),
                    to: s.get("to").and_then(Node::as_str).unwrap_or_default().to_owned(),
                })
                .collect(),
            default: false,
        },
        Some(Escalation::Invalid) | None => EscalationExplain { off: false, reason, steps: default_ladder(), default: true },
    }
}

fn ticked(items: &[String]) -> Vec<String> {
    items.iter().map(|i| format!("`{i}`")).collect()
}

fn target(to: &str) -> String {
    match to {
        "deciders" => "the people who may decide".to_owned(),
        "owner" => "the agent's owner".to_owned(),
        "admins" => "the tenant's admins".to_owned(),
        other => match other.split_once(':') {
            Some(("role", role)) => format!("role `{role}`"),
            Some(("team", team)) => format!("team `{team}`"),
            _ => format!("`{other}`"),
        },
    }
}

fn percent(step: &EscalationStep) -> String {
    match step.at {
        Some(at) => {
            let p = at * 100.0;
            if (p - p.round()).abs() < 1e-9 {
                format!("{}%", p.round())
            } else {
                format!("{p}%")
            }
        }
        None => format!("`{}`", step.at_text),
    }
}

/// The policy in one sentence, for a reader deciding whether to trust it.
fn sentence(a: &ApprovalExplain) -> String {
    let mut parts = Vec::new();
    let lead = if a.always_asks.is_empty() {
        "When a person decides a call (by the plugin's policy or the tenant's rules)".to_owned()
    } else {
        format!("Every call to {} waits for a person, whatever the tenant's policy says short of refusing it", and_list(&ticked(&a.always_asks)))
    };
    let role = if a.deciders.role.value == "admin" { "an admin" } else { "an operator" };
    let mut among = Vec::new();
    if !a.deciders.teams.is_empty() {
        among.push(format!("in team {}", or_list(&ticked(&a.deciders.teams))));
    }
    if !a.deciders.people.is_empty() {
        among.push(format!("one of {}", and_list(&ticked(&a.deciders.people))));
    }
    let mut who = if among.is_empty() { format!("{role} or above") } else { format!("{role} or above who is {}", or_list(&among)) };
    if !a.deciders.keys.is_empty() {
        who.push_str(&format!(", or API key {},", or_list(&ticked(&a.deciders.keys))));
    }
    let deadline_note = if a.deadline.default { " (the default, unless the agent or the tenant sets one)" } else { "" };
    parts.push(format!("{lead}: {who} decides within {}{deadline_note}, else it is denied", a.deadline.value.text));
    if a.escalation.off {
        let reason = a.escalation.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        parts.push(format!("nobody is reminded{reason}"));
    } else if !a.escalation.steps.is_empty() {
        let ladder: Vec<String> = a.escalation.steps.iter().map(|s| format!("{} at {}", target(&s.to), percent(s))).collect();
        let default = if a.escalation.default { " (the default ladder)" } else { "" };
        parts.push(format!("it escalates to {} of the deadline{default}", and_list(&ladder)));
    }
    if a.four_eyes {
        parts.push("the job's starter may deny but not approve (four eyes)".to_owned());
    }
    if !a.edit.value {
        parts.push("a call is approved with its own arguments only".to_owned());
    }
    if let Some(confirm) = &a.confirm {
        parts.push(format!("the approver types the value of `{confirm}` to confirm"));
    }
    format!("{}.", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::manifest::ManifestView;

    fn approval_of(text: &str) -> ApprovalExplain {
        let root = crate::parse::parse(text, crate::Syntax::Yaml, &crate::Limits::default()).root.unwrap();
        let view = ManifestView::new(&root);
        explain(&view.tools[0])
    }

    #[test]
    fn defaults_are_filled_in_and_marked() {
        let a = approval_of("tools:\n  - id: acme_x\n    mcp: [x]\n");
        assert!(a.deadline.default && a.deadline.value.text == "24h");
        assert!(a.escalation.default && a.escalation.steps.len() == 3);
        assert!(a.deciders.role.default && a.deciders.role.value == "operator");
        assert!(a.edit.default && a.edit.value);
        assert_eq!(
            a.summary,
            "When a person decides a call (by the plugin's policy or the tenant's rules): an operator or above decides within 24h (the default, unless the agent or the tenant sets one), else it is denied; it escalates to the people who may decide at 25%, the agent's owner at 50% and the tenant's admins at 75% of the deadline (the default ladder)."
        );
    }

    #[test]
    fn a_full_policy_reads_as_one_sentence() {
        let a = approval_of(
            "tools:\n  - id: acme_github\n    mcp: [x]\n    requires_approval: [acme_github.merge]\n    approval:\n      deadline: 48h\n      edit: false\n      confirm: pull_number\n      not_starter: true\n      escalation:\n        - {at: 0.5, to: owner}\n        - {at: \"90%\", to: admins}\n      deciders: {role: operator, teams: [platform], keys: [k1]}\n",
        );
        assert_eq!(
            a.summary,
            "Every call to `acme_github.merge` waits for a person, whatever the tenant's policy says short of refusing it: an operator or above who is in team `platform`, or API key `k1`, decides within 48h, else it is denied; it escalates to the agent's owner at 50% and the tenant's admins at 90% of the deadline; the job's starter may deny but not approve (four eyes); a call is approved with its own arguments only; the approver types the value of `pull_number` to confirm."
        );
        assert!(a.four_eyes && !a.edit.value && !a.edit.default);
    }

    #[test]
    fn escalation_off_says_why() {
        let a = approval_of("tools:\n  - id: acme_x\n    mcp: [x]\n    approval: {escalation: off, escalation_reason: on-call decides at once}\n");
        assert!(a.escalation.off && a.escalation.steps.is_empty());
        assert!(a.summary.ends_with("nobody is reminded (on-call decides at once)."), "{}", a.summary);
    }
}
