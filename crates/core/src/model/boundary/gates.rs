//! How a step is entered: the gates and other steps that lead directly into
//! it, and whether every path from the start passes a gate. Indexed once per
//! graph, so a 10,000-step playbook is read in linear time.

use crate::model::graph::{Graph, GraphEdge};
use crate::model::playbook::StepView;
use serde::Serialize;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// A gate step that leads directly into a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateEntry {
    /// The gate step's id.
    pub gate: String,
    /// The branch labels of its edges into the step (empty for a plain `next`).
    pub labels: Vec<String>,
}

/// How one step is entered.
#[derive(Debug, Default)]
pub(super) struct StepEntries {
    pub gated_by: Vec<GateEntry>,
    pub entered_from: Vec<String>,
    pub behind_gate: bool,
    pub is_start: bool,
}

/// The graph, indexed for entries.
pub(super) struct EntryIndex<'g> {
    graph: &'g Graph,
    /// Each node's step position, by id.
    steps: HashMap<&'g str, usize>,
    gates: HashSet<&'g str>,
    incoming: HashMap<&'g str, Vec<&'g GraphEdge>>,
    /// Steps some path from the start reaches without passing a gate first.
    ungated: HashSet<&'g str>,
    unreachable: HashSet<&'g str>,
}

impl<'g> EntryIndex<'g> {
    pub(super) fn new(graph: &'g Graph) -> EntryIndex<'g> {
        let steps = graph.nodes.iter().map(|n| (n.id.as_str(), n.step)).collect();
        let gates = graph.nodes.iter().filter(|n| n.kind.as_deref() == Some("gate")).map(|n| n.id.as_str()).collect();
        let mut incoming: HashMap<&str, Vec<&GraphEdge>> = HashMap::new();
        let mut outgoing: HashMap<&str, Vec<&str>> = HashMap::new();
        for edge in &graph.edges {
            incoming.entry(edge.to.as_str()).or_default().push(edge);
            outgoing.entry(edge.from.as_str()).or_default().push(edge.to.as_str());
        }
        let mut index = EntryIndex {
            graph,
            steps,
            gates,
            incoming,
            ungated: HashSet::new(),
            unreachable: graph.unreachable.iter().map(String::as_str).collect(),
        };
        index.ungated = index.reached_without_gate(&outgoing);
        index
    }

    /// A step that some path reaches only through gates is absent: a person
    /// has decided before it runs. The step itself may be a gate.
    fn reached_without_gate(&self, outgoing: &HashMap<&'g str, Vec<&'g str>>) -> HashSet<&'g str> {
        let mut reached = HashSet::new();
        let Some(start) = self.graph.start.as_deref() else { return reached };
        reached.insert(start);
        let mut stack = vec![start];
        while let Some(id) = stack.pop() {
            if self.gates.contains(id) {
                continue;
            }
            for &next in outgoing.get(id).into_iter().flatten() {
                if reached.insert(next) {
                    stack.push(next);
                }
            }
        }
        reached
    }

    /// How a step is entered. A step without an id, or a later one repeating
    /// an id, is not in the graph: nothing enters it.
    pub(super) fn of(&self, step: &StepView<'_>) -> StepEntries {
        let Some(id) = step.id.filter(|id| self.steps.get(id) == Some(&step.index)) else {
            return StepEntries::default();
        };
        let mut entries = StepEntries {
            behind_gate: self.graph.start.is_some() && !self.unreachable.contains(id) && !self.ungated.contains(id),
            is_start: self.graph.start.as_deref() == Some(id),
            ..StepEntries::default()
        };
        let mut others = HashSet::new();
        let mut gate_at: HashMap<&str, usize> = HashMap::new();
        let mut labels = HashSet::new();
        for edge in self.incoming.get(id).into_iter().flatten() {
            let from = edge.from.as_str();
            if !self.gates.contains(from) {
                if others.insert(from) {
                    entries.entered_from.push(from.to_owned());
                }
                continue;
            }
            let at = *gate_at.entry(from).or_insert_with(|| {
                entries.gated_by.push(GateEntry { gate: from.to_owned(), labels: Vec::new() });
                entries.gated_by.len() - 1
            });
            if let (Some(gate), Some(label)) = (entries.gated_by.get_mut(at), &edge.label) {
                if labels.insert((from, label.as_str())) {
                    gate.labels.push(label.clone());
                }
            }
        }
        entries
    }
}
