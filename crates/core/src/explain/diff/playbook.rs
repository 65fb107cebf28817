//! Two playbooks compared: the document, the steps (allow-lists, risk,
//! gates, routes), the embedded definitions and the `requires` block.

use super::{definition_impact, keyed, Change, Detail, FromTo, Impact, Section, Subject};
use crate::explain::boundary::{Resolution, StepBoundary, ToolExplain};
use crate::explain::requires::RequiresExplain;
use crate::explain::PlaybookExplain;
use crate::views::compare::{compare, list_change, Definition, Direction, ListChange, ToolChange};
use crate::views::graph::Graph;
use crate::views::spec;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::CompactString;

pub(super) fn diff(old: &PlaybookExplain, new: &PlaybookExplain) -> Vec<Change> {
    let mut changes = Vec::new();
    let document =
        |detail| Change { subject: Subject::document(), impact: Impact::Neutral, detail };
    if old.document.version != new.document.version {
        changes.push(document(Detail::Version(FromTo {
            from: old.document.version.clone(),
            to: new.document.version.clone(),
        })));
    }
    if old.graph.start != new.graph.start {
        changes.push(document(Detail::Start(FromTo {
            from: owned(&old.graph.start),
            to: owned(&new.graph.start),
        })));
    }
    steps(old, new, &mut changes);
    tools(&old.tools, &new.tools, &mut changes);
    requires(&old.requires, &new.requires, &mut changes);
    changes
}

/// The tool names a step allows, each once, in order.
fn allowed(step: &StepBoundary) -> Vec<&str> {
    let mut seen = HashSet::new();
    step.tools
        .iter()
        .filter_map(|t| t.resolution.name())
        .filter(|name| seen.insert(*name))
        .collect()
}

/// A step's edges as (target, label), by step id.
fn routes(graph: &Graph) -> HashMap<&str, Vec<(&str, Option<&str>)>> {
    let mut routes: HashMap<&str, Vec<(&str, Option<&str>)>> = HashMap::new();
    for edge in &graph.edges {
        routes
            .entry(edge.from.as_str())
            .or_default()
            .push((edge.to.as_str(), edge.label.as_deref()));
    }
    routes
}

fn steps(old: &PlaybookExplain, new: &PlaybookExplain, changes: &mut Vec<Change>) {
    let (old_routes, new_routes) = (routes(&old.graph), routes(&new.graph));
    for (id, before, after) in keyed(&old.steps, &new.steps, |s| s.id.as_deref()) {
        let subject = || Subject::of(Section::Step, id);
        match (before, after) {
            (None, Some(step)) => {
                let tools: Vec<String> = allowed(step).into_iter().map(str::to_owned).collect();
                let acts = !tools.is_empty() && step.kind.as_deref() != Some("gate");
                changes.push(Change {
                    subject: subject(),
                    impact: if acts { Impact::Widens } else { Impact::Neutral },
                    detail: Detail::StepAdded {
                        kind: owned(&step.kind),
                        tools,
                        highest_risk_class: owned(&step.highest_risk_class),
                    },
                });
            }
            (Some(step), None) => {
                let tools: Vec<String> = allowed(step).into_iter().map(str::to_owned).collect();
                let acted = !tools.is_empty() && step.kind.as_deref() != Some("gate");
                changes.push(Change {
                    subject: subject(),
                    impact: if acted { Impact::Narrows } else { Impact::Neutral },
                    detail: Detail::StepRemoved { kind: owned(&step.kind), tools },
                });
            }
            (Some(before), Some(after)) => {
                let empty = Vec::new();
                let edges =
                    (old_routes.get(id).unwrap_or(&empty), new_routes.get(id).unwrap_or(&empty));
                step_changes(id, before, after, edges, changes);
            }
            (None, None) => {}
        }
    }
}

type Routes<'r> = (&'r Vec<(&'r str, Option<&'r str>)>, &'r Vec<(&'r str, Option<&'r str>)>);

fn step_changes(
    id: &str,
    before: &StepBoundary,
    after: &StepBoundary,
    (old_edges, new_edges): Routes<'_>,
    changes: &mut Vec<Change>,
) {
    let mut push = |impact, detail| {
        changes.push(Change { subject: Subject::of(Section::Step, id), impact, detail })
    };
    if before.kind != after.kind {
        push(
            Impact::Neutral,
            Detail::StepKind(FromTo { from: owned(&before.kind), to: owned(&after.kind) }),
        );
    }
    let (old_tools, new_tools) = (allowed(before), allowed(after));
    let (had, has): (HashSet<&str>, HashSet<&str>) =
        (old_tools.iter().copied().collect(), new_tools.iter().copied().collect());
    // The risk class of each embedded tool the step allows, by name (none
    // when the definition declares none).
    let mut embedded: HashMap<&str, Option<&str>> = HashMap::new();
    for allowed in &after.tools {
        if let Resolution::Embedded { facts, .. } = &allowed.resolution {
            if let Some(name) = facts.name.as_deref() {
                embedded.entry(name).or_insert(facts.risk_class.as_deref());
            }
        }
    }
    for tool in new_tools.iter().filter(|t| !had.contains(*t)) {
        let embedded = embedded.get(tool).copied();
        push(
            Impact::Widens,
            Detail::ToolAllowed {
                tool: (*tool).to_owned(),
                risk_class: embedded
                    .flatten()
                    .filter(|c| spec::risk_rank(c).is_some())
                    .map(str::to_owned),
                embedded: embedded.is_some(),
            },
        );
    }
    for tool in old_tools.iter().filter(|t| !has.contains(*t)) {
        push(Impact::Narrows, Detail::ToolDisallowed { tool: (*tool).to_owned() });
    }
    if before.highest_risk_rank != after.highest_risk_rank {
        let direction = match (before.highest_risk_rank, after.highest_risk_rank) {
            (Some(a), Some(b)) if b < a => Direction::Lowered,
            (_, Some(_)) => Direction::Raised,
            _ => Direction::Lowered,
        };
        let values = FromTo {
            from: owned(&before.highest_risk_class),
            to: owned(&after.highest_risk_class),
        };
        push(Impact::of(direction), Detail::StepRisk { values, direction });
    }
    if before.behind_gate != after.behind_gate {
        let acts = !new_tools.is_empty() && after.kind.as_deref() != Some("gate");
        let impact = match (acts, after.behind_gate) {
            (false, _) => Impact::Neutral,
            (true, false) => Impact::Widens,
            (true, true) => Impact::Narrows,
        };
        push(
            impact,
            Detail::BehindGate(FromTo { from: before.behind_gate, to: after.behind_gate }),
        );
    }
    let (old_set, new_set): (HashSet<_>, HashSet<_>) =
        (old_edges.iter().collect(), new_edges.iter().collect());
    let mut seen = HashSet::new();
    for (to, label) in new_edges.iter().filter(|e| !old_set.contains(e) && seen.insert(*e)) {
        push(
            Impact::Neutral,
            Detail::NextAdded { to: (*to).to_owned(), label: label.map(str::to_owned) },
        );
    }
    for (to, label) in old_edges.iter().filter(|e| !new_set.contains(e) && seen.insert(*e)) {
        push(
            Impact::Neutral,
            Detail::NextRemoved { to: (*to).to_owned(), label: label.map(str::to_owned) },
        );
    }
}

/// A definition change for the diff: a list that both gains and loses is
/// two changes, one that widens and one that narrows.
pub(super) fn definition_changes(change: ToolChange) -> Vec<(Impact, Detail)> {
    match change {
        ToolChange::List { list, change: ListChange { added, removed } }
            if !added.is_empty() && !removed.is_empty() =>
        {
            vec![
                (
                    Impact::Widens,
                    Detail::Definition(ToolChange::List {
                        list,
                        change: ListChange { added, removed: Vec::new() },
                    }),
                ),
                (
                    Impact::Narrows,
                    Detail::Definition(ToolChange::List {
                        list,
                        change: ListChange { added: Vec::new(), removed },
                    }),
                ),
            ]
        }
        change => vec![(definition_impact(&change), Detail::Definition(change))],
    }
}

fn tools(old: &[ToolExplain], new: &[ToolExplain], changes: &mut Vec<Change>) {
    for (name, before, after) in keyed(old, new, |t| t.facts.name.as_deref()) {
        let subject = || Subject::of(Section::Tool, name);
        match (before, after) {
            (None, Some(tool)) => changes.push(Change {
                subject: subject(),
                impact: Impact::Neutral,
                detail: Detail::ToolDefined {
                    risk_class: tool.facts.risk_class.clone(),
                    side_effecting: tool.facts.side_effecting,
                    requires_approval: tool.facts.requires_approval,
                },
            }),
            (Some(_), None) => changes.push(Change {
                subject: subject(),
                impact: Impact::Neutral,
                detail: Detail::ToolUndefined,
            }),
            (Some(before), Some(after)) => {
                for change in compare(
                    &Definition::of_facts(&before.facts),
                    &Definition::of_facts(&after.facts),
                ) {
                    for (impact, detail) in definition_changes(change) {
                        changes.push(Change { subject: subject(), impact, detail });
                    }
                }
            }
            (None, None) => {}
        }
    }
}

fn strs(values: &[String]) -> Vec<&str> {
    values.iter().map(String::as_str).collect()
}

/// `ScopesAdded`/`ScopesRemoved` or `ToolNamesAdded`/`ToolNamesRemoved`.
fn list_changes(
    subject: &Subject,
    from: &[String],
    to: &[String],
    added: impl Fn(Vec<String>) -> Detail,
    removed: impl Fn(Vec<String>) -> Detail,
    changes: &mut Vec<Change>,
) {
    let Some(change) = list_change(Some(&strs(from)), Some(&strs(to))) else { return };
    if !change.added.is_empty() {
        changes.push(Change {
            subject: subject.clone(),
            impact: Impact::Widens,
            detail: added(change.added),
        });
    }
    if !change.removed.is_empty() {
        changes.push(Change {
            subject: subject.clone(),
            impact: Impact::Narrows,
            detail: removed(change.removed),
        });
    }
}

fn requires(old: &RequiresExplain, new: &RequiresExplain, changes: &mut Vec<Change>) {
    for (provider, before, after) in
        keyed(&old.connections, &new.connections, |c| c.provider.as_deref())
    {
        let subject = Subject::of(Section::Connection, provider);
        match (before, after) {
            (None, Some(c)) => changes.push(Change {
                subject,
                impact: Impact::Widens,
                detail: Detail::ConnectionAdded {
                    auth_kind: c.auth_kind.clone(),
                    scopes: c.scopes.clone(),
                },
            }),
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Narrows,
                detail: Detail::ConnectionRemoved,
            }),
            (Some(before), Some(after)) => {
                if before.auth_kind != after.auth_kind {
                    let detail = Detail::AuthKind(FromTo {
                        from: before.auth_kind.clone(),
                        to: after.auth_kind.clone(),
                    });
                    changes.push(Change {
                        subject: subject.clone(),
                        impact: Impact::Neutral,
                        detail,
                    });
                }
                let (added, removed) = (
                    |scopes| Detail::ScopesAdded { scopes },
                    |scopes| Detail::ScopesRemoved { scopes },
                );
                list_changes(&subject, &before.scopes, &after.scopes, added, removed, changes);
            }
            (None, None) => {}
        }
    }
    for (name, before, after) in keyed(&old.mcp_servers, &new.mcp_servers, |s| s.name.as_deref()) {
        let subject = Subject::of(Section::McpServer, name);
        match (before, after) {
            (None, Some(s)) => changes.push(Change {
                subject,
                impact: Impact::Widens,
                detail: Detail::McpServerAdded { tool_names: s.tool_names.clone() },
            }),
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Narrows,
                detail: Detail::McpServerRemoved,
            }),
            (Some(before), Some(after)) => {
                let added = |tool_names| Detail::ToolNamesAdded { tool_names };
                let removed = |tool_names| Detail::ToolNamesRemoved { tool_names };
                list_changes(
                    &subject,
                    &before.tool_names,
                    &after.tool_names,
                    added,
                    removed,
                    changes,
                );
            }
            (None, None) => {}
        }
    }
    for (name, before, after) in keyed(&old.secrets, &new.secrets, |s| s.name.as_deref()) {
        let subject = Subject::of(Section::Secret, name);
        match (before, after) {
            (None, Some(s)) => changes.push(Change {
                subject,
                impact: Impact::Widens,
                detail: Detail::SecretAdded { purpose: s.purpose.clone(), required: None },
            }),
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Narrows,
                detail: Detail::SecretRemoved,
            }),
            _ => {}
        }
    }
}

/// A name of the explain view, as a change's detail holds it.
fn owned(name: &Option<CompactString>) -> Option<String> {
    name.as_deref().map(str::to_owned)
}
