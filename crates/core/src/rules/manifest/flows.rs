//! PM6xx: flow tools, results, models, secrets in arguments, manuals and
//! labels (seed 003: `flow`, `results.fit`, `uses_model`, `secret_arguments`,
//! `manual`, `labels`).

use super::{known_names, shown};
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::manifest::values::is_argument_pointer;
use crate::views::manifest::{ManifestToolView, ManifestView, Runs};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::order;
use opb_syntax::Node;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::VecDeque;

/// The seed's bounds: 1 to 200 characters of purpose, 16 secret arguments
/// per function, 8 skills in a manual.
const MAX_PURPOSE_CHARS: usize = 200;
const MAX_SECRET_ARGUMENTS: usize = 16;
const MAX_MANUAL: usize = 8;

/// The fields a flow tool does not set (beside `mcp`, `package` and `url`,
/// which PM201 covers).
const FLOW_FORBIDDEN: &[&str] = &[
    "env",
    "container",
    "headers",
    "sandbox",
    "timeout",
    "limits",
    "isolation",
    "secret_arguments",
    "affinity",
];

pub static PM601: Rule = Rule {
    code: "PM601",
    name: "flow-unknown",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A flow tool's `flow` names no flow of the plugin."),
    source: documented!("\"A flow tool: the name of one of this plugin's flows\" and \"Lint refuses a flow that is not in the plugin\" (seed 003, `flow`)."),
    fix: documented!("Name one of the plugin's `flows`, or add the flow to `flows`."),
    example: documented!("flows:\n  - name: triage\ntools:\n  - id: acme_triage\n    flow: triage-v2"),
};

pub static PM602: Rule = Rule {
    code: "PM602",
    name: "flow-tool-duplicate",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A second flow tool of the same flow; the second is underlined."),
    source: documented!(
        "\"Lint refuses … a second flow tool of the same flow\" (seed 003, `flow`)."
    ),
    fix: documented!("Keep one tool for the flow; agents that need it list that tool's function."),
    example: documented!(
        "tools:\n  - {id: acme_triage, flow: triage}\n  - {id: acme_triage_again, flow: triage}"
    ),
};

pub static PM603: Rule = Rule {
    code: "PM603",
    name: "flow-cycle",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A flow tool that would reach itself: its flow has a step whose `tool` is a function of this tool, or of another flow tool whose flow leads back. The message names the shortest way round (a loop of more than 16 flow tools by its size)."),
    source: documented!("\"Lint refuses … a flow tool that would reach itself.\" (seed 003, `flow`); flow steps name tools as `<id>.<function>` (DOCUMENTS.md §2)."),
    fix: documented!("Break the loop: a flow's steps call other tools, not the flow tool that runs it."),
    example: documented!("flows:\n  - name: triage\n    steps:\n      - tool: acme_triage.triage\ntools:\n  - {id: acme_triage, flow: triage}"),
};

pub static PM604: Rule = Rule {
    code: "PM604",
    name: "flow-field-forbidden",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A flow tool that sets `env`, `container`, `headers`, `sandbox`, `timeout`, `limits`, `isolation`, `secret_arguments` or `affinity`; one finding per field, and the field's value is not judged by its own rule as well."),
    source: documented!("\"It sets no `mcp`, `package`, `url`, `env`, `container`, `headers`, `sandbox`, `timeout`, `limits`, `isolation`, `secret_arguments` or `affinity` (its flow runs on its plugin's pool)\" (seed 003, `flow`)."),
    fix: documented!("Remove the field: each step of the flow runs through its own tool and gates."),
    example: documented!("tools:\n  - id: acme_triage\n    flow: triage\n    timeout: 10m"),
};

pub static PM605: Rule = Rule {
    code: "PM605",
    name: "flow-input-schema",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A flow that a flow tool exposes has no `description`, or no `input_schema` with an object at its root (`type: object`)."),
    source: documented!("\"Its description, arguments and result are the flow's `description`, `input_schema` (required, with an object at its root) and `output_schema` (a warning without one)\" (seed 003, `flow`)."),
    fix: documented!("Give the flow a `description` (what the model reads to decide whether to call it) and `input_schema: {type: object, properties: {…}}`."),
    example: documented!("flows:\n  - name: triage\n    input_schema: {type: string}\ntools:\n  - {id: acme_triage, flow: triage}"),
};

pub static PM606: Rule = Rule {
    code: "PM606",
    name: "flow-output-schema",
    severity: Severity::Warning,
    group: Group::ManifestFlows,
    summary: documented!("A flow that a flow tool exposes has no `output_schema`."),
    source: documented!("\"… and `output_schema` (a warning without one)\" (seed 003, `flow`)."),
    fix: documented!("Describe the flow's result: `output_schema: {type: object, properties: {…}}`."),
    example: documented!("flows:\n  - name: triage\n    description: Label an issue.\n    input_schema: {type: object}\ntools:\n  - {id: acme_triage, flow: triage}"),
};

pub static PM607: Rule = Rule {
    code: "PM607",
    name: "results-fit-on-flow",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!(
        "`results.fit: true` on a flow tool. `fit: false` declares nothing and is let be."
    ),
    source: documented!("\"`plugin lint` refuses it on a flow tool\" (seed 003, `results.fit`)."),
    fix: documented!(
        "Remove `results.fit`: a flow's result is its steps', not a view that fits a budget."
    ),
    example: documented!("tools:\n  - id: acme_triage\n    flow: triage\n    results: {fit: true}"),
};

pub static PM608: Rule = Rule {
    code: "PM608",
    name: "results-empty",
    severity: Severity::Warning,
    group: Group::ManifestFlows,
    summary: documented!("An empty `results` block (`results: {}` or `results:` with nothing)."),
    source: documented!(
        "\"`plugin lint` … warns on an empty `results` block\" (seed 003, `results.fit`)."
    ),
    fix: documented!(
        "Declare `results: {fit: true}` when the tool follows the convention, or remove the block."
    ),
    example: documented!("tools:\n  - id: acme_docs\n    mcp: [node, docs.js]\n    results: {}"),
};

pub static PM609: Rule = Rule {
    code: "PM609",
    name: "uses-model-purpose",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("`uses_model` without `purpose`, or a purpose that is blank or longer than 200 characters (counted as Unicode characters)."),
    source: documented!("\"The tool's functions and hooks call a model, and why, in 1 to 200 characters.\" (seed 003, `uses_model.purpose`)"),
    fix: documented!("Say in one short sentence why the tool calls a model: `purpose: Summarises long pages before returning them.`"),
    example: documented!("tools:\n  - id: acme_summarise\n    mcp: [python, -m, summarise]\n    uses_model: {}"),
};

pub static PM610: Rule = Rule {
    code: "PM610",
    name: "uses-model-not-local",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("`uses_model` on a remote or flow tool."),
    source: documented!("\"Not on a remote or a flow tool\" (seed 003, `uses_model.purpose`)."),
    fix: documented!("Remove `uses_model`: a remote server calls models on its own account, and a flow's steps call them through their agents."),
    example: documented!("tools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    uses_model: {purpose: Rank results.}"),
};

pub static PM611: Rule = Rule {
    code: "PM611",
    name: "secret-arguments-invalid",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("A `secret_arguments` entry that is not a list of JSON pointers (`/env/API_KEY`), or that has more than 16 pointers for one function (the first one over is underlined)."),
    source: documented!("\"The arguments of the tool's functions a model may write a `{{secret:NAME}}` placeholder into, by function, as JSON pointers (`run: [/env/API_KEY]`), at most 16 per function.\" (seed 003, `secret_arguments`)"),
    fix: documented!("List each argument as a pointer with a leading slash, at most 16 per function: `run: [/env/API_KEY]`."),
    example: documented!("secret_arguments:\n  run: env.API_KEY"),
};

pub static PM612: Rule = Rule {
    code: "PM612",
    name: "manual-invalid",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("`manual` names a skill that is not this plugin's (`<other>/<skill>`, or a name not in `skills`), lists one twice, or has more than 8 entries."),
    source: documented!("\"Skills of this plugin …, by name or as `<plugin>/<skill>` with this plugin's own name: each one of the plugin's skills, listed once, at most 8. Another plugin's skill is refused (\\\"a tool's manual is its own plugin's skills\\\").\" (seed 003, `manual`)"),
    fix: documented!("List skills of this plugin's `skills`, each once, at most 8."),
    example: documented!("skills: [triage-guide]\ntools:\n  - id: acme_github\n    mcp: [python, -m, server]\n    manual: [other-plugin/guide]"),
};

pub static PM613: Rule = Rule {
    code: "PM613",
    name: "labels-invalid",
    severity: Severity::Error,
    group: Group::ManifestFlows,
    summary: documented!("`labels.source` is not a string, or `labels.untrusted` is not a boolean."),
    source: documented!("\"`source`, the system its results come from …, and `untrusted: true` for a tool whose results hold outside text although it stays inside the tenant\" (seed 003, `labels`)."),
    fix: documented!("Write `labels: {source: gmail, untrusted: true}`."),
    example: documented!("labels:\n  source: [gmail]\n  untrusted: \"yes\""),
};

pub static RULES: &[&Rule] = &[
    &PM601, &PM602, &PM603, &PM604, &PM605, &PM606, &PM607, &PM608, &PM609, &PM610, &PM611, &PM612,
    &PM613,
];

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    check_flow_tools(view, report);
    check_cycles(view, report);
    for tool in &view.tools {
        if tool.is_flow() {
            for key in FLOW_FORBIDDEN {
                if let Some(member) = tool.member(key).filter(|m| !m.value.is_null()) {
                    report.push(
                        &PM604,
                        &tool.ptr.key(key),
                        At::Key(member),
                        format!("Flow {} sets `{key}`; a flow tool's flow runs on its plugin's pool, each step through its own tool.", tool.label()),
                    );
                }
            }
        }
        check_results(tool, report);
        check_uses_model(tool, report);
        if !tool.is_flow() {
            check_secret_arguments(tool, report);
        }
        check_manual(view, tool, report);
        check_labels(tool, report);
    }
}

fn check_flow_tools(view: &ManifestView<'_>, report: &mut Report) {
    let mut exposed: HashMap<&str, &ManifestToolView<'_>> = HashMap::new();
    for tool in &view.tools {
        let Runs::Flow(name) = tool.runs else { continue };
        let Some(node) = tool.get("flow") else { continue };
        let ptr = tool.ptr.key("flow");
        let Some(flow) = view.flow(name) else {
            let choices =
                known_names(view.flows.iter().filter_map(|f| f.name), "the plugin has no `flows`");
            report.push(
                &PM601,
                &ptr,
                At::Value(node),
                format!(
                    "Flow {} names flow `{name}`, which is not a flow of the plugin; {choices}.",
                    tool.label()
                ),
            );
            continue;
        };
        if let Some(first) = exposed.get(name) {
            report.push(
                &PM602,
                &ptr,
                At::Value(node),
                format!(
                    "Flow `{name}` already has a flow tool, {}; a flow has one.",
                    first.label()
                ),
            );
            continue;
        }
        exposed.insert(name, tool);
        let by = tool.label();
        let has_description = flow
            .node
            .get("description")
            .and_then(Node::as_str)
            .is_some_and(|d| !d.trim().is_empty());
        if !has_description {
            report.push(
                &PM605,
                &flow.ptr,
                At::Missing(flow.node),
                format!("Flow `{name}`, exposed by {by}, has no `description`; it is what a model reads to decide whether to call it."),
            );
        }
        match flow.node.get("input_schema").filter(|s| !s.is_null()) {
            None => report.push(
                &PM605,
                &flow.ptr,
                At::Missing(flow.node),
                format!("Flow `{name}`, exposed by {by}, has no `input_schema`; its arguments need one, with an object at its root."),
            ),
            Some(schema) if schema.as_object().is_some() => {
                let ty = schema.get("type");
                if ty.and_then(Node::as_str) != Some("object") {
                    let (ptr, at, written) = match ty {
                        Some(ty) => (flow.ptr.key("input_schema").key("type"), At::Value(ty), format!("has `type` {}", shown(ty))),
                        None => (flow.ptr.key("input_schema"), At::Missing(schema), "has no `type`".to_owned()),
                    };
                    report.push(
                        &PM605,
                        &ptr,
                        at,
                        format!("`input_schema` of flow `{name}`, exposed by {by}, {written}; its root is an object: `type: object`."),
                    );
                }
            }
            Some(_) => {}
        }
        if flow.node.get("output_schema").is_none_or(Node::is_null) {
            report.push(
                &PM606,
                &flow.ptr,
                At::Missing(flow.node),
                format!("Flow `{name}`, exposed by {by}, has no `output_schema`; its result is not described to the model."),
            );
        }
    }
}

/// PM603: flow tools that reach themselves through their flows' steps.
fn check_cycles(view: &ManifestView<'_>, report: &mut Report) {
    let mut graph: DiGraph<usize, ()> = DiGraph::new();
    let mut index_of: HashMap<&str, NodeIndex> = HashMap::new();
    for (position, tool) in view.tools.iter().enumerate() {
        if let (Some(id), true) = (tool.id, tool.is_flow()) {
            index_of.entry(id).or_insert_with(|| graph.add_node(position));
        }
    }
    for from in graph.node_indices().collect::<Vec<_>>() {
        let Some(Runs::Flow(flow_name)) =
            graph.node_weight(from).and_then(|&p| view.tools.get(p)).map(|t| &t.runs)
        else {
            continue;
        };
        let Some(flow) = view.flow(flow_name) else { continue };
        for step in &flow.step_tools {
            let Some(reference) = view.own_reference(step.name) else { continue };
            let called = reference.split_once('.').map_or(reference, |(tool, _)| tool);
            if let Some(&to) = index_of.get(called) {
                graph.update_edge(from, to, ());
            }
        }
    }
    for mut scc in kosaraju_scc(&graph) {
        if scc.len() == 1 && !scc.iter().any(|&n| graph.contains_edge(n, n)) {
            continue;
        }
        order::sort(&mut scc);
        let members: HashSet<NodeIndex> = scc.iter().copied().collect();
        for &start in &scc {
            let Some(tool) = graph.node_weight(start).and_then(|&p| view.tools.get(p)) else {
                continue;
            };
            let Some(node) = tool.get("flow") else { continue };
            let id = tool.id.unwrap_or_default();
            let how = if scc.len() > MAX_WAY_ROUND {
                format!("it is one of {} flow tools whose flows call each other", scc.len())
            } else {
                let way: Vec<String> = way_round(&graph, &members, start)
                    .iter()
                    .filter_map(|&n| graph.node_weight(n).and_then(|&p| view.tools.get(p)))
                    .map(|t| match t.runs {
                        Runs::Flow(flow) => {
                            format!("`{}` (flow `{flow}`)", t.id.unwrap_or_default())
                        }
                        _ => format!("`{}`", t.id.unwrap_or_default()),
                    })
                    .collect();
                format!("{} → `{id}`", way.join(" → "))
            };
            report.push(
                &PM603,
                &tool.ptr.key("flow"),
                At::Value(node),
                format!(
                    "Flow {} would reach itself through its flow's steps: {how}.",
                    tool.label()
                ),
            );
        }
    }
}

/// The most flow tools a PM603 message walks through; a larger loop is
/// named by its size, so a hostile manifest cannot make the check quadratic.
const MAX_WAY_ROUND: usize = 16;

/// The shortest way from `start` back to itself within its strongly
/// connected component, `start` first.
fn way_round(
    graph: &DiGraph<usize, ()>,
    members: &HashSet<NodeIndex>,
    start: NodeIndex,
) -> Vec<NodeIndex> {
    let mut parent: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for next in graph.neighbors(at).filter(|n| members.contains(n)) {
            if next == start {
                let mut way = vec![at];
                let mut current = at;
                while let Some(&p) = parent.get(&current) {
                    way.push(p);
                    current = p;
                }
                way.reverse();
                return way;
            }
            if let std::collections::hash_map::Entry::Vacant(entry) = parent.entry(next) {
                entry.insert(at);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}

fn check_results(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("results") else { return };
    let empty = member.value.is_null() || member.value.as_object().is_some_and(|o| o.is_empty());
    if empty {
        report.push(
            &PM608,
            &tool.ptr.key("results"),
            At::Key(member),
            format!(
                "`results` of {} is empty; declare `fit: true` or remove the block.",
                tool.label()
            ),
        );
        return;
    }
    if let (true, Some(fit)) =
        (tool.is_flow(), member.value.get("fit").filter(|f| f.as_bool() == Some(true)))
    {
        report.push(
            &PM607,
            &tool.ptr.key("results").key("fit"),
            At::Value(fit),
            format!("`results.fit` is refused on flow {}: a flow's result is not a view that fits a budget.", tool.label()),
        );
    }
}

fn check_uses_model(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("uses_model") else { return };
    let ptr = tool.ptr.key("uses_model");
    if tool.is_remote() || tool.is_flow() {
        let kind = if tool.is_flow() { "a flow tool" } else { "a remote tool" };
        report.push(
            &PM610,
            &ptr,
            At::Key(member),
            format!("`uses_model` is refused on {kind}, and {} is one: the node gives a model key only to a server it runs.", tool.label()),
        );
        return;
    }
    if member.value.is_null() {
        report.push(&PM609, &ptr, At::Key(member), format!("`uses_model` of {} has no `purpose`; say why the tool calls a model, in 1 to 200 characters.", tool.label()));
        return;
    }
    if member.value.as_object().is_none() {
        return;
    }
    match member.value.get("purpose").filter(|p| !p.is_null()) {
        None => report.push(
            &PM609,
            &ptr,
            At::Missing(&member.value),
            format!("`uses_model` of {} has no `purpose`; say why the tool calls a model, in 1 to 200 characters.", tool.label()),
        ),
        Some(purpose) => {
            let Some(text) = purpose.as_str() else { return };
            let length = text.chars().count();
            let problem = if text.trim().is_empty() {
                Some("is blank".to_owned())
            } else if length > MAX_PURPOSE_CHARS {
                Some(format!("is {length} characters long"))
            } else {
                None
            };
            if let Some(problem) = problem {
                report.push(
                    &PM609,
                    &ptr.key("purpose"),
                    At::Value(purpose),
                    format!("`uses_model.purpose` of {} {problem}; it says why the tool calls a model in 1 to {MAX_PURPOSE_CHARS} characters.", tool.label()),
                );
            }
        }
    }
}

fn check_secret_arguments(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(map) = tool.get("secret_arguments").and_then(Node::as_object) else { return };
    let ptr = tool.ptr.key("secret_arguments");
    for entry in map.unique_members() {
        let entry_ptr = ptr.key(&entry.key);
        let what = format!("`secret_arguments.{}` of {}", entry.key, tool.label());
        let Some(pointers) = entry.value.as_array() else {
            report.push(
                &PM611,
                &entry_ptr,
                At::Value(&entry.value),
                format!("{what} must be a list of JSON pointers to arguments (`[/env/API_KEY]`), not {}.", shown(&entry.value)),
            );
            continue;
        };
        if let Some(first_over) = pointers.get(MAX_SECRET_ARGUMENTS) {
            report.push(
                &PM611,
                &entry_ptr.index(MAX_SECRET_ARGUMENTS),
                At::Value(first_over),
                format!(
                    "{what} lists {} arguments; at most {MAX_SECRET_ARGUMENTS} per function.",
                    pointers.len()
                ),
            );
        }
        for (i, pointer) in pointers.iter().enumerate() {
            if !pointer.as_str().is_some_and(is_argument_pointer) {
                report.push(
                    &PM611,
                    &entry_ptr.index(i),
                    At::Value(pointer),
                    format!("Entry {i} of {what} is {}; it is a JSON pointer to an argument, such as `/env/API_KEY`.", shown(pointer)),
                );
            }
        }
    }
}

fn check_manual(view: &ManifestView<'_>, tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(entries) = tool.get("manual").and_then(Node::as_array) else { return };
    let ptr = tool.ptr.key("manual");
    let label = tool.label();
    if let Some(first_over) = entries.get(MAX_MANUAL) {
        report.push(
            &PM612,
            &ptr.index(MAX_MANUAL),
            At::Value(first_over),
            format!("`manual` of {label} lists {} skills; at most {MAX_MANUAL}.", entries.len()),
        );
    }
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let Some(text) = entry.as_str() else { continue };
        let problem = match view.own_reference(text) {
            None => Some(
                "names another plugin's skill; a tool's manual is its own plugin's skills"
                    .to_owned(),
            ),
            Some(skill) if !view.has_skill(skill) => {
                let choices =
                    known_names(view.skills.iter().map(|s| s.name), "the plugin has no `skills`");
                Some(format!("is not a skill of this plugin; {choices}"))
            }
            Some(skill) if !seen.insert(skill) => Some("lists a skill a second time".to_owned()),
            Some(_) => None,
        };
        if let Some(problem) = problem {
            report.push(
                &PM612,
                &ptr.index(i),
                At::Value(entry),
                format!("`manual` entry `{text}` of {label} {problem}."),
            );
        }
    }
}

fn check_labels(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(labels) = tool.get("labels").filter(|l| l.as_object().is_some()) else { return };
    let ptr = tool.ptr.key("labels");
    if let Some(source) = labels.get("source").filter(|s| !s.is_null() && s.as_str().is_none()) {
        report.push(
            &PM613,
            &ptr.key("source"),
            At::Value(source),
            format!("`labels.source` of {} must be a string naming the system its results come from, not {}.", tool.label(), shown(source)),
        );
    }
    if let Some(untrusted) =
        labels.get("untrusted").filter(|u| !u.is_null() && u.as_bool().is_none())
    {
        report.push(
            &PM613,
            &ptr.key("untrusted"),
            At::Value(untrusted),
            format!(
                "`labels.untrusted` of {} must be `true` or `false`, not {}.",
                tool.label(),
                shown(untrusted)
            ),
        );
    }
}
