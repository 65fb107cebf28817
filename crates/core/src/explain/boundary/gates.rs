//! How a step is entered: the gates and other steps that lead directly into
//! it, and whether every path from the start passes a gate. Indexed once per
//! graph, so a 10,000-step playbook is read in linear time.

use crate::views::graph::{Graph, GraphEdge};
use crate::views::playbook::StepView;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::order;
use opb_syntax::CompactString;
use serde::Serialize;

/// A gate step that leads directly into a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateEntry {
    /// The gate step's id.
    pub gate: CompactString,
    /// The branch labels of its edges into the step (empty for a plain `next`).
    pub labels: Vec<CompactString>,
}

/// How one step is entered.
#[derive(Debug, Default)]
pub(super) struct StepEntries {
    pub gated_by: Vec<GateEntry>,
    pub entered_from: Vec<CompactString>,
    pub behind_gate: bool,
    pub is_start: bool,
}

/// A step's incoming edges up to this many are deduplicated by comparing
/// with the ones kept before; more are hashed.
const FEW_EDGES: usize = 12;

/// The graph, indexed for entries: nodes by position in `graph.nodes`, each
/// node's edges in one flat list, so a 10,000-step playbook costs a few
/// vectors rather than a vector and hash entries per step.
pub(super) struct EntryIndex<'g> {
    graph: &'g Graph,
    /// Each node's position, by id.
    nodes: HashMap<&'g str, usize>,
    gates: Vec<bool>,
    /// The edges into node `n`: `incoming[incoming_at[n]..incoming_at[n + 1]]`.
    incoming_at: Vec<usize>,
    incoming: Vec<&'g GraphEdge>,
    /// Nodes some path from the start reaches without passing a gate first.
    ungated: Vec<bool>,
    unreachable: Vec<bool>,
}

/// Groups items by node, in their order within a node: the start of each
/// node's run (`count + 1` of them), then the runs.
fn by_node<T>(count: usize, mut items: Vec<(usize, T)>) -> (Vec<usize>, Vec<T>) {
    // Stable, so each node's items keep their order.
    order::sort_by_key(&mut items, |&(node, _)| node);
    let at = (0..=count).map(|node| items.partition_point(|&(n, _)| n < node)).collect();
    (at, items.into_iter().map(|(_, item)| item).collect())
}

/// The run of node `node` in what [`by_node`] returns.
fn run<'r, T>(at: &[usize], items: &'r [T], node: usize) -> &'r [T] {
    match (at.get(node), at.get(node + 1)) {
        (Some(&from), Some(&to)) => items.get(from..to).unwrap_or_default(),
        _ => &[],
    }
}

impl<'g> EntryIndex<'g> {
    pub(super) fn new(graph: &'g Graph) -> EntryIndex<'g> {
        let count = graph.nodes.len();
        let mut nodes = HashMap::with_capacity(count);
        for (position, node) in graph.nodes.iter().enumerate() {
            nodes.entry(node.id.as_str()).or_insert(position);
        }
        let gates: Vec<bool> =
            graph.nodes.iter().map(|n| n.kind.as_deref() == Some("gate")).collect();
        let position = |id: &str| nodes.get(id).copied();
        let mut into = Vec::with_capacity(graph.edges.len());
        let mut out_of = Vec::with_capacity(graph.edges.len());
        for edge in &graph.edges {
            let Some(to) = position(&edge.to) else { continue };
            into.push((to, edge));
            if let Some(from) = position(&edge.from) {
                out_of.push((from, to));
            }
        }
        let (incoming_at, incoming) = by_node(count, into);
        let (outgoing_at, outgoing) = by_node(count, out_of);
        let mut unreachable = vec![false; count];
        for id in &graph.unreachable {
            if let Some(slot) = position(id).and_then(|n| unreachable.get_mut(n)) {
                *slot = true;
            }
        }
        let start = graph.start.as_deref().and_then(position);
        let ungated = reached_without_gate(start, &gates, &outgoing_at, &outgoing);
        EntryIndex { graph, nodes, gates, incoming_at, incoming, ungated, unreachable }
    }

    /// How a step is entered. A step without an id, or a later one repeating
    /// an id, is not in the graph: nothing enters it.
    pub(super) fn of(&self, step: &StepView<'_>) -> StepEntries {
        let node = step.id.and_then(|id| self.nodes.get(id).copied());
        let Some(node) =
            node.filter(|&n| self.graph.nodes.get(n).is_some_and(|n| n.step == step.index))
        else {
            return StepEntries::default();
        };
        let flag = |flags: &[bool]| flags.get(node).copied().unwrap_or_default();
        let mut entries = StepEntries {
            behind_gate: self.graph.start.is_some()
                && !flag(&self.unreachable)
                && !flag(&self.ungated),
            is_start: self.graph.start.as_deref() == step.id,
            ..StepEntries::default()
        };
        let edges = run(&self.incoming_at, &self.incoming, node);
        let few = edges.len() <= FEW_EDGES;
        let mut others = HashSet::new();
        let mut gate_at: HashMap<&str, usize> = HashMap::new();
        let mut labels = HashSet::new();
        for edge in edges {
            let from = edge.from.as_str();
            let is_gate =
                self.nodes.get(from).and_then(|&n| self.gates.get(n)).copied().unwrap_or_default();
            if !is_gate {
                let new = if few {
                    !entries.entered_from.iter().any(|id| id == from)
                } else {
                    others.insert(from)
                };
                if new {
                    entries.entered_from.push(edge.from.clone());
                }
                continue;
            }
            let known = if few {
                entries.gated_by.iter().position(|g| g.gate == from)
            } else {
                gate_at.get(from).copied()
            };
            let at = known.unwrap_or_else(|| {
                entries.gated_by.push(GateEntry { gate: edge.from.clone(), labels: Vec::new() });
                if !few {
                    gate_at.insert(from, entries.gated_by.len() - 1);
                }
                entries.gated_by.len() - 1
            });
            if let (Some(gate), Some(label)) = (entries.gated_by.get_mut(at), &edge.label) {
                let new = if few {
                    !gate.labels.contains(label)
                } else {
                    labels.insert((from, label.as_str()))
                };
                if new {
                    gate.labels.push(label.clone());
                }
            }
        }
        entries
    }
}

/// A step that some path reaches only through gates is absent: a person
/// has decided before it runs. The step itself may be a gate.
fn reached_without_gate(
    start: Option<usize>,
    gates: &[bool],
    outgoing_at: &[usize],
    outgoing: &[usize],
) -> Vec<bool> {
    let mut reached = vec![false; gates.len()];
    let Some(start) = start else { return reached };
    let mut stack = vec![start];
    if let Some(slot) = reached.get_mut(start) {
        *slot = true;
    }
    while let Some(node) = stack.pop() {
        if gates.get(node).copied().unwrap_or_default() {
            continue;
        }
        for &next in run(outgoing_at, outgoing, node) {
            if let Some(slot) = reached.get_mut(next).filter(|seen| !**seen) {
                *slot = true;
                stack.push(next);
            }
        }
    }
    reached
}
