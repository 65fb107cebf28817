//! A tool's approval policy as the explain view shows it: who decides, the
//! deadline, the escalation ladder, four eyes, with the seed's defaults
//! filled in and marked, and one sentence that says it all.

use super::{strings, Defaulted, DurationValue};
use crate::diagnostics::prose::write_list;
use crate::views::manifest::values::read_fraction;
use crate::views::manifest::{Escalation, ManifestToolView};
use opb_syntax::Node;
use serde::Serialize;
use std::fmt::Write;

/// "24h when nobody sets one" (seed 003, `approval.deadline`).
pub(crate) const DEFAULT_DEADLINE: &str = "24h";

/// The default ladder: "reminds the people who may decide at a quarter,
/// tells the agent's owner at half and the tenant's admins at three
/// quarters" (seed 003, `approval.escalation`). Each point also as written,
/// so the text is not formatted from the number for every tool.
const DEFAULT_LADDER: [(f64, &str, &str); 3] =
    [(0.25, "0.25", "deciders"), (0.5, "0.5", "owner"), (0.75, "0.75", "admins")];

/// How a tool's calls are approved: its `requires_approval` entries and its
/// `approval` policy, defaults filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApprovalExplain {
    /// The `requires_approval` entries: functions a person decides every time.
    pub always_asks: Vec<String>,
    /// Who may decide (`approval.deciders`).
    pub deciders: DecidersExplain,
    /// How long a call waits for a decision before it is denied
    /// (`approval.deadline`; 24h unless set).
    pub deadline: Defaulted<DurationValue>,
    /// Who is told as the deadline nears (`approval.escalation`).
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

/// Who may decide on a call (`approval.deciders`): a decider holds at least
/// `role` and, when teams or people are named, is one of the people or in
/// one of the teams.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecidersExplain {
    /// The least role a decider holds: `operator` (the default) or `admin`.
    pub role: Defaulted<String>,
    /// `deciders.teams`: the tenant's teams, by name.
    pub teams: Vec<String>,
    /// `deciders.people`: accounts that may decide (`user:<name>`).
    pub people: Vec<String>,
    /// `deciders.keys`: the tenant's API keys that may decide, by key ID.
    pub keys: Vec<String>,
}

/// Who is told while a request waits (`approval.escalation`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EscalationExplain {
    /// `escalation: off`.
    pub off: bool,
    /// `approval.escalation_reason`, as written.
    pub reason: Option<String>,
    /// The ladder, as set or the default one.
    pub steps: Vec<EscalationStep>,
    /// Whether `steps` is the default ladder.
    pub default: bool,
}

/// One rung of the escalation ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EscalationStep {
    /// The point of the deadline as a fraction, when it reads as one.
    pub at: Option<f64>,
    /// `at` as written.
    pub at_text: String,
    /// Who is told, as written: `deciders`, `owner`, `admins`,
    /// `role:<role>` or `team:<team>`; empty when unset.
    pub to: String,
}

/// The approval policy of `tool` as the explain view shows it.
pub(crate) fn explain(tool: &ManifestToolView<'_>) -> ApprovalExplain {
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
    let default_ladder = || {
        DEFAULT_LADDER
            .iter()
            .map(|&(at, at_text, to)| EscalationStep {
                at: Some(at),
                at_text: at_text.to_owned(),
                to: to.to_owned(),
            })
            .collect()
    };
    match node.map(Escalation::read) {
        Some(Escalation::Off) => {
            EscalationExplain { off: true, reason, steps: Vec::new(), default: false }
        }
        Some(Escalation::Steps(steps)) => EscalationExplain {
            off: false,
            reason,
            steps: steps
                .iter()
                .filter(|s| s.as_object().is_some())
                .map(|s| EscalationStep {
                    at: s.get("at").and_then(read_fraction),
                    at_text: s
                        .get("at")
                        .and_then(Node::scalar_text)
                        .map(|t| t.into_owned())
                        .unwrap_or_default(),
                    to: s.get("to").and_then(Node::as_str).unwrap_or_default().to_owned(),
                })
                .collect(),
            default: false,
        },
        Some(Escalation::Invalid) | None => {
            EscalationExplain { off: false, reason, steps: default_ladder(), default: true }
        }
    }
}

fn ticked(out: &mut String, item: &impl AsRef<str>) {
    out.push('`');
    out.push_str(item.as_ref());
    out.push('`');
}

fn target(out: &mut String, to: &str) {
    match to {
        "deciders" => out.push_str("the people who may decide"),
        "owner" => out.push_str("the agent's owner"),
        "admins" => out.push_str("the tenant's admins"),
        other => {
            let _ = match other.split_once(':') {
                Some(("role", role)) => write!(out, "role `{role}`"),
                Some(("team", team)) => write!(out, "team `{team}`"),
                _ => write!(out, "`{other}`"),
            };
        }
    }
}

fn percent(out: &mut String, step: &EscalationStep) {
    let _ = match step.at {
        Some(at) => {
            let p = at * 100.0;
            let whole = p.round();
            if (p - whole).abs() < 1e-9 {
                // As an integer when it prints the same (not -0, not huge):
                // formatting a float costs more than the rest of the sentence.
                if whole.abs() < 1e15 && (whole != 0.0 || whole.is_sign_positive()) {
                    out.push_str(itoa::Buffer::new().format(whole as i64));
                    out.push('%');
                    Ok(())
                } else {
                    write!(out, "{whole}%")
                }
            } else {
                write!(out, "{p}%")
            }
        }
        None => write!(out, "`{}`", step.at_text),
    };
}

/// The policy in one sentence, for a reader deciding whether to trust it.
/// Its clauses are written into one buffer: a summary is built for every
/// tool of a manifest.
fn sentence(a: &ApprovalExplain) -> String {
    let mut out = String::with_capacity(320);
    if a.always_asks.is_empty() {
        out.push_str("When a person decides a call (by the plugin's policy or the tenant's rules)");
    } else {
        out.push_str("Every call to ");
        write_list(&mut out, &a.always_asks, "and", ticked);
        out.push_str(" waits for a person, whatever the tenant's policy says short of refusing it");
    }
    out.push_str(if a.deciders.role.value == "admin" {
        ": an admin or above"
    } else {
        ": an operator or above"
    });
    let (teams, people) = (&a.deciders.teams, &a.deciders.people);
    if !teams.is_empty() || !people.is_empty() {
        out.push_str(" who is ");
        if !teams.is_empty() {
            out.push_str("in team ");
            write_list(&mut out, teams, "or", ticked);
        }
        if !teams.is_empty() && !people.is_empty() {
            out.push_str(" or ");
        }
        if !people.is_empty() {
            out.push_str("one of ");
            write_list(&mut out, people, "and", ticked);
        }
    }
    if !a.deciders.keys.is_empty() {
        out.push_str(", or API key ");
        write_list(&mut out, &a.deciders.keys, "or", ticked);
        out.push(',');
    }
    let deadline_note = if a.deadline.default {
        " (the default, unless the agent or the tenant sets one)"
    } else {
        ""
    };
    out.push_str(" decides within ");
    out.push_str(&a.deadline.value.text);
    out.push_str(deadline_note);
    out.push_str(", else it is denied");
    if a.escalation.off {
        out.push_str("; nobody is reminded");
        if let Some(reason) = &a.escalation.reason {
            let _ = write!(out, " ({reason})");
        }
    } else if !a.escalation.steps.is_empty() {
        out.push_str("; it escalates to ");
        write_list(&mut out, &a.escalation.steps, "and", |out, step| {
            target(out, &step.to);
            out.push_str(" at ");
            percent(out, step);
        });
        out.push_str(" of the deadline");
        if a.escalation.default {
            out.push_str(" (the default ladder)");
        }
    }
    if a.four_eyes {
        out.push_str("; the job's starter may deny but not approve (four eyes)");
    }
    if !a.edit.value {
        out.push_str("; a call is approved with its own arguments only");
    }
    if let Some(confirm) = &a.confirm {
        let _ = write!(out, "; the approver types the value of `{confirm}` to confirm");
    }
    out.push('.');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::manifest::ManifestView;

    fn approval_of(text: &str) -> ApprovalExplain {
        let root =
            opb_syntax::parse(text, opb_syntax::Syntax::Yaml, &opb_syntax::Limits::default())
                .root
                .unwrap();
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
    fn the_default_ladder_is_written_as_its_numbers_print() {
        for (at, at_text, _) in DEFAULT_LADDER {
            assert_eq!(at.to_string(), at_text);
        }
    }

    #[test]
    fn whole_percents_print_as_floats_do() {
        for at in [0.0, -0.0, 0.25, 0.5, 1.0, 2.5, -0.3, 1e13, 1e20] {
            let mut out = String::new();
            percent(
                &mut out,
                &EscalationStep { at: Some(at), at_text: String::new(), to: String::new() },
            );
            assert_eq!(out, format!("{}%", (at * 100.0).round()), "{at}");
        }
    }

    #[test]
    fn escalation_off_says_why() {
        let a = approval_of("tools:\n  - id: acme_x\n    mcp: [x]\n    approval: {escalation: off, escalation_reason: on-call decides at once}\n");
        assert!(a.escalation.off && a.escalation.steps.is_empty());
        assert!(
            a.summary.ends_with("nobody is reminded (on-call decides at once)."),
            "{}",
            a.summary
        );
    }
}
