//! How steps lead to each other: the forms of `next`, the step ids `next`
//! and `start` name, and the graph they make (PB213 to PB217).

use super::describe;
use crate::diagnostics::prose::and_list;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::input::IN004;
use crate::rules::shape::edit_distance;
use crate::views::graph::{Graph, GraphEdge};
use crate::views::playbook::{PlaybookView, StepView};
use crate::views::spec::one_of;
use foldhash::{HashMap, HashMapExt};
use opb_syntax::order;
use opb_syntax::{CompactString, Node, Ptr, Value};

pub static PB213: Rule = Rule {
    code: "PB213",
    name: "next-unknown",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("A `next` (a step id, an entry of a list of step ids, or a branch of an object of labels to step ids) names no step of the playbook."),
    source: documented!("`\"next\": \"gate\"` leads to the step with id `gate` (seed 000); \"`next` is a step id (string), a list of step ids, or an object whose keys are branch labels and whose values are step ids.\" (DOCUMENTS.md §1)"),
    fix: documented!("Name an existing step's id (the message lists them), or add the step that was meant."),
    example: documented!("steps:\n  - id: gate\n    kind: gate\n    next: { approved: sned }   # no step `sned`"),
};

pub static PB214: Rule = Rule {
    code: "PB214",
    name: "start-unknown",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("`start` names no step of the playbook, so it has no first step (and opb cannot say which steps are reachable)."),
    source: documented!("\"`start` names the first step; absent: the first step in `steps`.\" (DOCUMENTS.md §1)"),
    fix: documented!("Set `start` to the id of the first step, or remove it to start at the first step of `steps`."),
    example: documented!("start: recovr   # the step is `recover`"),
};

pub static PB215: Rule = Rule {
    code: "PB215",
    name: "step-unreachable",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("No path of `next`s from the start step reaches this step, so it never runs. Reported only when every step has its own id and every `next` has one of its forms. Where a `next` or `start` names no step, opb also walks from the step it probably meant (`send` for `sned`), so a typo does not make that step and all after it look unreachable too."),
    source: documented!("\"`start` names the first step\"; \"`next` is a step id (string), a list of step ids, or an object whose keys are branch labels and whose values are step ids.\" (DOCUMENTS.md §1)"),
    fix: documented!("Lead to the step from the step before it with `next`, or remove it if it is left over."),
    example: documented!("start: recover\nsteps:\n  - id: recover\n    kind: agent\n  - id: orphan      # nothing leads here\n    kind: agent"),
};

pub static PB216: Rule = Rule {
    code: "PB216",
    name: "cycle",
    severity: Severity::Info,
    group: Group::PlaybookSteps,
    summary: documented!("Steps form a cycle (a step leads, through `next`s, back to itself). The message names the steps and the `next` that leads back. Cycles are legal, e.g. a revise loop, but worth seeing."),
    source: documented!("\"`next` is a step id (string), a list of step ids, or an object whose keys are branch labels and whose values are step ids.\" (DOCUMENTS.md §1): nothing forbids a `next` to an earlier step."),
    fix: documented!("Nothing, if the loop is meant. Make sure some step of the cycle can lead out of it, so the playbook can end."),
    example: documented!("steps:\n  - id: draft\n    next: gate\n  - id: gate\n    kind: gate\n    next: { approved: send, rejected: draft }   # back to draft"),
};

pub static PB217: Rule = Rule {
    code: "PB217",
    name: "no-end",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!(
        "Every step has a `next`, so no step ends the playbook: it can only stop by failing."
    ),
    source: documented!(
        "\"`next` … Absent or null: the step ends the playbook.\" (DOCUMENTS.md §1)"
    ),
    fix: documented!("Give the last step no `next` (or `next: null`)."),
    example: documented!("steps:\n  - id: a\n    next: b\n  - id: b\n    next: a"),
};

/// Steps are listed by id in messages only when there are few enough to read.
const LISTED_IDS: usize = 12;

/// How many ids opb compares, in all, with names that name no step, looking
/// for the step meant: enough for hundreds of typos in a real playbook,
/// few enough that a hostile one with thousands stays fast. Past it, the
/// document is too broken to tell what is unreachable.
const GUESS_BUDGET: usize = 100_000;

/// Ids longer than this are not compared for a step meant.
const GUESSED_LEN: usize = 64;

pub(super) fn check(view: &PlaybookView<'_>, graph: &Graph, ids_sound: bool, report: &mut Report) {
    let steps = Steps::new(view);
    let mut links = Links {
        shapes_sound: true,
        guessed_all: true,
        budget: GUESS_BUDGET,
        meant: HashMap::new(),
        roots: Vec::new(),
    };
    for step in &view.steps {
        links.shapes_sound &= check_next_shape(step, report);
        check_targets(step, &steps, &mut links, report);
    }
    let start = check_start(view, &steps, &mut links, report);
    if let (Some(start), true) = (start, ids_sound && links.shapes_sound && links.guessed_all) {
        links.roots.insert(0, start);
        check_unreachable(&steps, graph, start, &links.roots, report);
    }
    check_cycles(&steps, graph, report);
    check_end(view, report);
}

/// What the links between steps say about reachability.
struct Links<'a> {
    /// Every `next` has one of the accepted forms.
    shapes_sound: bool,
    /// Every name that names no step was looked at for the step meant.
    guessed_all: bool,
    /// How many more ids may be compared with such names.
    budget: usize,
    /// The step each such name probably meant, once looked at.
    meant: HashMap<&'a str, Option<&'a str>>,
    /// The steps a `next` or `start` probably meant where it names no step
    /// (`sned` for `send`): walked from too, so a typo does not also make
    /// the step it meant, and all after it, look unreachable.
    roots: Vec<&'a str>,
}

/// The steps by id: the first step with each id, in document order.
struct Steps<'v, 'a> {
    ids: Vec<&'a str>,
    by_id: HashMap<&'a str, &'v StepView<'a>>,
}

impl<'v, 'a> Steps<'v, 'a> {
    fn new(view: &'v PlaybookView<'a>) -> Self {
        let mut ids = Vec::with_capacity(view.steps.len());
        let mut by_id = HashMap::with_capacity(view.steps.len());
        for step in &view.steps {
            if let Some(id) = step.id {
                by_id.entry(id).or_insert_with(|| {
                    ids.push(id);
                    step
                });
            }
        }
        Steps { ids, by_id }
    }

    fn get(&self, id: &str) -> Option<&'v StepView<'a>> {
        self.by_id.get(id).copied()
    }

    fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// The step id a name that names no step was probably meant to be: the
    /// closest within two edits (case aside), and within one edit for every
    /// two characters, so short ids are not all taken for each other.
    fn meant(&self, name: &str) -> Option<&'a str> {
        if name.len() > GUESSED_LEN {
            return None;
        }
        self.ids
            .iter()
            .filter(|id| id.len() <= GUESSED_LEN && id.len().abs_diff(name.len()) <= 2)
            .map(|id| (edit_distance(id, name), *id))
            .filter(|(distance, id)| *distance <= 2 && *distance <= id.len().min(name.len()) / 2)
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, id)| id)
    }

    /// The step meant by a name that names no step, while the budget lasts.
    fn guess(&self, name: &'a str, links: &mut Links<'a>) -> Option<&'a str> {
        if let Some(&meant) = links.meant.get(name) {
            return meant;
        }
        if links.budget < self.ids.len() {
            links.guessed_all = false;
            return None;
        }
        links.budget -= self.ids.len();
        let meant = self.meant(name);
        links.meant.insert(name, meant);
        meant
    }

    /// What to tell the reader of a name that names no step: the step it
    /// probably meant, or the steps there are.
    fn hint(&self, meant: Option<&str>) -> String {
        match meant {
            Some(id) => format!(" Did you mean `{id}`?"),
            None => self.listed(),
        }
    }

    /// " It must be `a`, `b` or `c`.", when the ids are few enough to list.
    fn listed(&self) -> String {
        known_ids(&self.ids)
    }
}

fn known_ids(ids: &[&str]) -> String {
    match ids.len() {
        0 => " The playbook has no step with an id.".to_owned(),
        n if n <= LISTED_IDS => format!(" It must be {}.", one_of(ids)),
        _ => String::new(),
    }
}

/// IN004 for a `next` that is not a step id, a list of step ids, an object
/// of labels to step ids, or null. Returns whether its form is sound.
fn check_next_shape(step: &StepView<'_>, report: &mut Report) -> bool {
    let Some(next) = step.node.get("next") else { return true };
    // Built only for a finding: most steps have a sound `next`.
    let ptr = || step.ptr.key("next");
    let what = || describe(step);
    let mut sound = true;
    match &next.value {
        Value::Null | Value::String(_) => {}
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate().filter(|(_, item)| item.as_str().is_none()) {
                sound = false;
                report.push(
                    &IN004,
                    &ptr().index(i),
                    At::Value(item),
                    format!(
                        "Each entry of `next` of {} must be a step id (a string); entry {i} is {}.",
                        what(),
                        item.type_name()
                    ),
                );
            }
        }
        Value::Object(object) => {
            for member in object.unique_members().filter(|m| m.value.as_str().is_none()) {
                sound = false;
                report.push(
                    &IN004,
                    &ptr().key(&member.key),
                    At::Value(&member.value),
                    format!(
                        "Branch `{}` of `next` of {} must name a step id (a string), not {}.",
                        member.key,
                        what(),
                        member.value.type_name()
                    ),
                );
            }
        }
        Value::Bool(_) | Value::Number(_) => {
            sound = false;
            report.push(
                &IN004,
                &ptr(),
                At::Value(next),
                format!(
                    "`next` of {} must be a step id, a list of step ids, or an object of branch labels to step ids, not {}.",
                    what(),
                    next.type_name()
                ),
            );
        }
    }
    sound
}

/// PB213 for each `next` target that names no step.
fn check_targets<'a>(
    step: &StepView<'a>,
    steps: &Steps<'_, 'a>,
    links: &mut Links<'a>,
    report: &mut Report,
) {
    for next in step.next.iter().filter(|n| !steps.contains(n.target)) {
        let what = describe(step);
        let meant = steps.guess(next.target, links);
        links.roots.extend(meant);
        let hint = steps.hint(meant);
        let place = match next.label {
            Some(label) => format!("Branch `{label}` of `next` of {what}"),
            None => format!("`next` of {what}"),
        };
        report.push_fixable(
            &PB213,
            &next.ptr(step),
            At::Value(next.node),
            format!("{place} names `{}`, which is no step of this playbook.{hint}", next.target),
            meant,
        );
    }
}

/// PB214. Returns the step to walk from for PB215: the one `start` names
/// (or probably meant), or the first step when there is no `start`. None
/// when that cannot be told: a `start` that is not a string (IN004), no
/// steps (PB104), or an unknown `start` like no step id.
fn check_start<'a>(
    view: &PlaybookView<'a>,
    steps: &Steps<'_, 'a>,
    links: &mut Links<'a>,
    report: &mut Report,
) -> Option<&'a str> {
    let Some(start) = view.start else { return view.steps.first().and_then(|s| s.id) };
    let name = start.as_str()?;
    if steps.contains(name) {
        return Some(name);
    }
    if view.steps.is_empty() {
        return None;
    }
    let meant = steps.guess(name, links);
    let hint = steps.hint(meant);
    report.push_fixable(
        &PB214,
        &Ptr::root().key("start"),
        At::Value(start),
        format!("`start` names `{name}`, which is no step of this playbook, so the playbook has no first step.{hint}"),
        meant,
    );
    meant
}

/// PB215: steps no path from the roots reaches.
fn check_unreachable(
    steps: &Steps<'_, '_>,
    graph: &Graph,
    start: &str,
    roots: &[&str],
    report: &mut Report,
) {
    // Steps by position in `graph.nodes`, and every edge's ends by position,
    // grouped by where they start: a few vectors rather than a vector and a
    // hash entry per step.
    let mut position: HashMap<&str, usize> = HashMap::with_capacity(graph.nodes.len());
    for (at, node) in graph.nodes.iter().enumerate() {
        position.entry(node.id.as_str()).or_insert(at);
    }
    let mut edges: Vec<(usize, usize)> = graph
        .edges
        .iter()
        .filter_map(|e| Some((*position.get(e.from.as_str())?, *position.get(e.to.as_str())?)))
        .collect();
    order::sort(&mut edges);
    let successors = |node: usize| {
        let first = edges.partition_point(|&(from, _)| from < node);
        edges
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(move |&&(from, _)| from == node)
            .map(|&(_, to)| to)
    };
    let mut reached = vec![false; graph.nodes.len()];
    let mut pending: Vec<usize> = roots.iter().filter_map(|id| position.get(id).copied()).collect();
    for &root in &pending {
        if let Some(slot) = reached.get_mut(root) {
            *slot = true;
        }
    }
    while let Some(node) = pending.pop() {
        for next in successors(node) {
            if let Some(slot) = reached.get_mut(next).filter(|seen| !**seen) {
                *slot = true;
                pending.push(next);
            }
        }
    }
    let is_reached =
        |id: &str| position.get(id).and_then(|&at| reached.get(at)).copied().unwrap_or_default();
    for id in steps.ids.iter().filter(|id| !is_reached(id)) {
        let Some(step) = steps.get(id) else { continue };
        let Some(node) = step.node.get("id") else { continue };
        report.push(
            &PB215,
            &step.ptr.key("id"),
            At::Value(node),
            format!("Step `{id}` is unreachable: no path of `next`s from the start step `{start}` leads to it, so it never runs."),
        );
    }
}

/// PB216: one finding per cycle, on a `next` that leads back into it (an
/// edge back to a step on the path walked from the start).
fn check_cycles(steps: &Steps<'_, '_>, graph: &Graph, report: &mut Report) {
    let cycle_of: HashMap<&str, usize> = graph
        .cycles
        .iter()
        .enumerate()
        .flat_map(|(i, cycle)| cycle.iter().map(move |id| (id.as_str(), i)))
        .collect();
    let mut closing: Vec<Option<&GraphEdge>> = vec![None; graph.cycles.len()];
    for edge in graph.edges.iter().filter(|e| e.back) {
        let from = cycle_of.get(edge.from.as_str());
        if let (Some(&cycle), true) = (from, from == cycle_of.get(edge.to.as_str())) {
            if let Some(slot) = closing.get_mut(cycle) {
                slot.get_or_insert(edge);
            }
        }
    }
    for (cycle, edge) in graph.cycles.iter().zip(closing) {
        let Some(edge) = edge else { continue };
        let Some(step) = steps.get(&edge.from) else { continue };
        let Some(next) = step.next.iter().find(|n| n.target == edge.to) else { continue };
        report.push(
            &PB216,
            &next.ptr(step),
            At::Value(next.node),
            cycle_message(cycle, &edge.from, &edge.to),
        );
    }
}

fn cycle_message(cycle: &[CompactString], from: &str, to: &str) -> String {
    let back = if from == to {
        format!("`{from}` leads back to itself")
    } else {
        format!("`{from}` leads back to `{to}`")
    };
    let steps = match cycle {
        [only] => format!("Step `{only}` forms a cycle"),
        _ => {
            let names: Vec<String> = cycle.iter().map(|id| format!("`{id}`")).collect();
            format!("Steps {} form a cycle", and_list(&names))
        }
    };
    format!("{steps}: {back}. Cycles are legal (a revise loop, a retry), but check that the playbook can leave it.")
}

/// PB217: no step ends the playbook. A step without an id still counts:
/// it may be the end the author meant.
fn check_end(view: &PlaybookView<'_>, report: &mut Report) {
    if view.steps.is_empty()
        || view.steps.iter().any(|s| s.node.get("next").is_none_or(Node::is_null))
    {
        return;
    }
    let Some(member) = view.root.as_object().and_then(|o| o.member("steps")) else { return };
    report.push(
        &PB217,
        &Ptr::root().key("steps"),
        At::Key(member),
        "Every step has a `next`, so no step ends the playbook. Give the last step no `next`.",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(ids: &[&str]) -> Vec<CompactString> {
        ids.iter().map(|s| CompactString::new(s)).collect()
    }

    #[test]
    fn cycles_name_their_steps_and_the_way_back() {
        assert_eq!(
            cycle_message(&ids(&["draft", "gate"]), "gate", "draft"),
            "Steps `draft` and `gate` form a cycle: `gate` leads back to `draft`. Cycles are legal (a revise loop, a retry), but check that the playbook can leave it."
        );
        assert!(cycle_message(&ids(&["a", "b", "c"]), "c", "a")
            .starts_with("Steps `a`, `b` and `c` form a cycle: `c` leads back to `a`."));
        assert!(cycle_message(&ids(&["poll"]), "poll", "poll")
            .starts_with("Step `poll` forms a cycle: `poll` leads back to itself."));
    }

    #[test]
    fn few_ids_are_listed() {
        assert_eq!(known_ids(&["a", "b"]), " It must be `a` or `b`.");
        assert_eq!(known_ids(&[]), " The playbook has no step with an id.");
        let many: Vec<String> = (0..=LISTED_IDS).map(|i| format!("s{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(known_ids(&many), "");
    }
}
