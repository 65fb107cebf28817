//! PB2xx: steps and the graph, and the shape (IN004, IN007) of each step.
//!
//! This file checks what each step says about itself (id, kind, agent,
//! purpose, where `allowedTools` may be); `allowed` checks the names on
//! `allowedTools`, `flow` checks `next`, `start` and the graph.

mod allowed;
mod flow;
pub(crate) mod unsupervised;

pub use allowed::{PB205, PB209, PB210, PB211, PB212, PB219};
pub use flow::{PB213, PB214, PB215, PB216, PB217};
pub use unsupervised::{PB220, PB221};

use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::{check_fields, is_absent, is_blank, Field, ItemName, Ty};
use crate::views::graph::Graph;
use crate::views::playbook::{PlaybookView, StepView};
use crate::views::spec::{one_of, step_kind_meaning, STEP_KINDS};
use foldhash::{HashMap, HashMapExt};
use opb_syntax::Node;

pub static PB201: Rule = Rule {
    code: "PB201",
    name: "step-id-missing",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("A step has no `id`, or its `id` is not a non-empty string: no `next` or `start` can name it."),
    source: documented!("\"an agent step declaring tools\": `{ \"id\": \"recover\", \"kind\": \"agent\", … \"next\": \"gate\" }` (seed 000): steps are named by `id` and lead to each other by it; `next` and `start` name step ids (DOCUMENTS.md §1)."),
    fix: documented!("Give the step a short, unique id string, e.g. `\"id\": \"send\"`."),
    example: documented!("steps:\n  - kind: agent        # no id\n    agent: lou\n    purpose: Send the email."),
};

pub static PB202: Rule = Rule {
    code: "PB202",
    name: "step-id-duplicate",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("Two steps share an `id`; the second is underlined. A `next` naming that id is ambiguous, so the graph keeps only the first."),
    source: documented!("Steps lead to each other by id: `\"next\": \"gate\"` (seed 000); `next` is a step id, a list of step ids, or an object of branch labels to step ids (DOCUMENTS.md §1)."),
    fix: documented!("Rename one of the two steps, and update the `next` and `start` that should lead to it."),
    example: documented!("steps:\n  - id: send\n    kind: agent\n  - id: send           # again\n    kind: agent"),
};

pub static PB203: Rule = Rule {
    code: "PB203",
    name: "step-kind-missing",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("A step has no `kind`: nobody can tell whether an agent runs it or a person decides it."),
    source: documented!("\"an agent step declaring tools\": `{ \"id\": \"recover\", \"kind\": \"agent\", … }` (seed 000); the kinds the project knows are `agent` and `gate` (DOCUMENTS.md §1)."),
    fix: documented!("Add `\"kind\": \"agent\"` for a step an agent runs, or `\"kind\": \"gate\"` for a step where a person approves."),
    example: documented!("steps:\n  - id: send           # no kind\n    agent: lou\n    allowedTools: [email.send]"),
};

pub static PB204: Rule = Rule {
    code: "PB204",
    name: "step-kind-unknown",
    severity: Severity::Info,
    group: Group::PlaybookSteps,
    summary: documented!("A step's `kind` is neither `agent` nor `gate`. It is drawn as a plain node with all its fields shown; opb checks nothing kind-specific on it."),
    source: documented!("\"Step kinds the project knows: `agent` and `gate` … Any other kind is drawn as a plain node with all its fields shown, and reported as an info, not an error.\" (DOCUMENTS.md §1)"),
    fix: documented!("Nothing, if the kind is meant for a runtime that knows it. Check its spelling if it was meant to be `agent` or `gate`."),
    example: documented!("steps:\n  - id: wait\n    kind: timer          # not agent or gate"),
};

pub static PB206: Rule = Rule {
    code: "PB206",
    name: "agent-missing",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step does not say which agent runs it."),
    source: documented!("\"an agent step declaring tools\": `{ \"id\": \"recover\", \"kind\": \"agent\", \"agent\": \"lou\", … }` (seed 000)."),
    fix: documented!("Name the agent that runs the step, e.g. `\"agent\": \"lou\"`."),
    example: documented!("steps:\n  - id: recover\n    kind: agent          # no agent\n    purpose: Draft the email."),
};

pub static PB207: Rule = Rule {
    code: "PB207",
    name: "purpose-missing",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step has no `purpose`: a reader cannot tell what it is for, nor judge whether its tools fit it."),
    source: documented!("\"an agent step declaring tools\": `{ … \"purpose\": \"Draft a recovery email for the failed charge and record the attempt.\", … }` (seed 000)."),
    fix: documented!("Say in one sentence what the step does, e.g. `\"purpose\": \"Send the approved email.\"`."),
    example: documented!("steps:\n  - id: send\n    kind: agent\n    agent: lou           # no purpose\n    allowedTools: [email.send]"),
};

pub static PB208: Rule = Rule {
    code: "PB208",
    name: "allowed-tools-missing",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step has no `allowedTools`: it may call nothing, since a call to any name not on the list is refused."),
    source: documented!("\"On an agent step, allowedTools is a list of tool names … a call to any name not on the executing step's list is refused.\" (seed 000)"),
    fix: documented!("List the tools the step needs, e.g. `\"allowedTools\": [\"customer.get\"]`; write `[]` to say on purpose that it calls none."),
    example: documented!("steps:\n  - id: recover\n    kind: agent\n    agent: lou\n    purpose: Draft the email.   # no allowedTools"),
};

pub static PB218: Rule = Rule {
    code: "PB218",
    name: "allowed-tools-on-non-agent",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("A step whose kind is not `agent` has `allowedTools`: a `gate`, or a kind opb does not know (that step also gets PB204). The list is an agent step's capability boundary, and only an agent step calls tools."),
    source: documented!("\"On an agent step, allowedTools is a list of tool names\" (seed 000); \"`allowedTools` on a step that is not an agent step is shown and reported (warning).\" (DOCUMENTS.md §1)."),
    fix: documented!("Move the tools to the agent step that calls them, or make the step `\"kind\": \"agent\"` if an agent runs it."),
    example: documented!("steps:\n  - id: gate\n    kind: gate\n    allowedTools: [email.send]   # a gate calls no tools"),
};

pub static RULES: &[&Rule] = &[
    &PB201, &PB202, &PB203, &PB204, &PB205, &PB206, &PB207, &PB208, &PB209, &PB210, &PB211, &PB212,
    &PB213, &PB214, &PB215, &PB216, &PB217, &PB218, &PB219, &PB220, &PB221,
];

/// The fields of a step. `id` is checked by PB201, `next` by `flow`.
pub(crate) const STEP_FIELDS: &[Field] = &[
    Field::new("id", Ty::Any).required(),
    Field::new("kind", Ty::String).suggests(STEP_KINDS, step_kind_meaning).doc(
        "Step kinds the project knows: `agent` and `gate` (an approval gate: a person decides before the playbook goes on). Any other kind is drawn as a plain node with all its fields shown, and reported as an info, not an error.",
    ),
    Field::new("agent", Ty::String),
    Field::new("purpose", Ty::String),
    Field::new("allowedTools", Ty::Array).doc(
        "On an agent step, allowedTools is a list of tool names. A name resolves against the document's own embedded tools array and the runtime's tool registry; a call to any name not on the executing step's list is refused.",
    ),
    Field::new("next", Ty::Any).doc(
        "`next` is a step id (string), a list of step ids, or an object whose keys are branch labels and whose values are step ids. Absent or null: the step ends the playbook.",
    ),
];

pub(super) fn check(view: &PlaybookView<'_>, graph: &Graph, report: &mut Report) {
    let ids_sound = check_ids(view, report);
    let names = allowed::Context::new(view, graph);
    for step in &view.steps {
        let what = describe(step);
        check_fields(report, step.node, &step.ptr, STEP_FIELDS, &what);
        check_kind(step, what, report);
        allowed::check(&names, step, what, report);
    }
    flow::check(view, graph, ids_sound, report);
}

/// How messages name a step: by its id, or by its place when it has none.
fn describe<'s>(step: &StepView<'s>) -> ItemName<'s> {
    ItemName {
        named: "step",
        placed: "the step at",
        list: "steps",
        name: step.id,
        index: step.index,
    }
}

/// PB201 and PB202. Returns whether every step has an id of its own, so the
/// graph holds every step.
fn check_ids(view: &PlaybookView<'_>, report: &mut Report) -> bool {
    let mut sound = true;
    let mut first_with: HashMap<&str, usize> = HashMap::with_capacity(view.steps.len());
    for step in &view.steps {
        // Built only for a finding: nearly every step has a sound id.
        let ptr = || step.ptr.key("id");
        match (step.node.get("id"), step.id) {
            (_, Some(id)) => {
                if let Some(first) = first_with.get(id) {
                    sound = false;
                    if let Some(node) = step.node.get("id") {
                        report.push(
                            &PB202,
                            &ptr(),
                            At::Value(node),
                            format!("Step id `{id}` is already the id of `steps[{first}]`; `next` and `start` naming it lead to the first. Rename one of the two."),
                        );
                    }
                } else {
                    first_with.insert(id, step.index);
                }
            }
            (None, None) => {
                sound = false;
                report.push(&PB201, &step.ptr, At::Missing(step.node), format!("{} has no `id`, so no `next` or `start` can lead to it. Give it a unique id.", capitalise(describe(step))));
            }
            (Some(node), None) => {
                sound = false;
                let problem = match node.as_str() {
                    Some(_) => "empty".to_owned(),
                    None => node.type_name().to_owned(),
                };
                report.push(
                    &PB201,
                    &ptr(),
                    At::Value(node),
                    format!(
                        "The `id` of {} must be a non-empty string, not {problem}.",
                        describe(step)
                    ),
                );
            }
        }
    }
    sound
}

/// PB203, PB204, PB218, and for agent steps PB206 to PB208.
fn check_kind(step: &StepView<'_>, what: ItemName<'_>, report: &mut Report) {
    let node = step.node.get("kind");
    let has_tools = !is_absent(step.allowed_tools_node);
    if is_blank(node) {
        let at = node.map_or(At::Missing(step.node), At::Value);
        let ptr = if node.is_some() { step.ptr.key("kind") } else { step.ptr.clone() };
        report.push(&PB203, &ptr, at, format!("{} has no `kind`: say whether an agent runs it (`agent`) or a person approves it (`gate`).", capitalise(what)));
        return;
    }
    let (Some(kind), Some(node)) = (step.kind, node) else { return };
    match kind {
        "agent" => check_agent_step(step, what, report),
        known if STEP_KINDS.contains(&known) => {
            if let Some(tools) = step.allowed_tools_node.filter(|_| has_tools) {
                report.push(
                    &PB218,
                    &step.ptr.key("allowedTools"),
                    At::Value(tools),
                    format!("{} is a `{known}` step, but has `allowedTools`: only an agent step calls tools. Move them to the agent step that needs them.", capitalise(what)),
                );
            }
        }
        unknown => {
            report.push(
                &PB204,
                &step.ptr.key("kind"),
                At::Value(node),
                format!("{} has kind `{unknown}`, which opb does not know (it knows {}); it is drawn as a plain node.", capitalise(what), one_of(STEP_KINDS)),
            );
            if let Some(tools) = step.allowed_tools_node.filter(|_| has_tools) {
                report.push(
                    &PB218,
                    &step.ptr.key("allowedTools"),
                    At::Value(tools),
                    format!("{} is a `{unknown}` step, a kind opb does not know, but has `allowedTools`: only an agent step calls tools, so they are shown but bind nothing opb can tell. Move them to the agent step that needs them, or make the step `kind: agent`.", capitalise(what)),
                );
            }
        }
    }
}

/// A field an agent step must fill: its name, the rule a blank one breaks,
/// the test of blankness, and what the field should say.
type FieldCheck = (&'static str, &'static Rule, fn(Option<&Node>) -> bool, &'static str);

fn check_agent_step(step: &StepView<'_>, what: ItemName<'_>, report: &mut Report) {
    let fields: [FieldCheck; 3] = [
        ("agent", &PB206, is_blank, "which agent runs it, e.g. `agent: lou`"),
        ("purpose", &PB207, is_blank, "what it is for, in one sentence"),
        ("allowedTools", &PB208, is_absent, "which tools it may call; without the list it may call none (write `[]` to say so on purpose)"),
    ];
    for (field, rule, missing, wanted) in fields {
        let node = step.node.get(field);
        if missing(node) {
            let (ptr, at) = match node {
                Some(node) => (step.ptr.key(field), At::Value(node)),
                None => (step.ptr.clone(), At::Missing(step.node)),
            };
            report.push(
                rule,
                &ptr,
                at,
                format!("{}, an agent step, has no `{field}`: say {wanted}.", capitalise(what)),
            );
        }
    }
}

#[cfg(test)]
mod tests;
