//! The per-step summary: linear in the graph, no path enumerated.

use super::{class_of, higher, Net, StepRisk};
use opb_syntax::order;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// What can run before a node: the highest risk rank, and whether some
/// step's risk is not known.
#[derive(Debug, Clone, Copy, Default)]
struct Before {
    rank: Option<usize>,
    partly_unknown: bool,
}

impl Before {
    fn join(self, other: Before) -> Before {
        Before {
            rank: higher(self.rank, other.rank),
            partly_unknown: self.partly_unknown || other.partly_unknown,
        }
    }
}

/// The risk that can run before each node, by strongly connected component
/// in topological order: a component's steps can all run before one another
/// when it is a cycle.
fn risk_before(net: &Net<'_>) -> Vec<Before> {
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(net.ids.len(), net.edge_count);
    for _ in 0..net.ids.len() {
        graph.add_node(());
    }
    for (from, edges) in net.out.iter().enumerate() {
        for &(_, to) in edges {
            graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), ());
        }
    }
    // kosaraju_scc lists the components in reverse topological order.
    let components = kosaraju_scc(&graph);
    let mut component_of = vec![0; net.ids.len()];
    for (c, members) in components.iter().enumerate() {
        for member in members {
            component_of[member.index()] = c;
        }
    }
    let mut before = vec![Before::default(); components.len()];
    let mut node_before = vec![Before::default(); net.ids.len()];
    for (c, members) in components.iter().enumerate().rev() {
        let own = members.iter().fold(Before::default(), |acc, m| {
            let profile = &net.profiles[m.index()];
            acc.join(Before { rank: profile.rank, partly_unknown: profile.risk_partly_unknown })
        });
        let cyclic = members.len() > 1 || members.iter().any(|m| graph.contains_edge(*m, *m));
        let inside = if cyclic { before[c].join(own) } else { before[c] };
        for member in members {
            node_before[member.index()] = inside;
        }
        let onward = before[c].join(own);
        for member in members.iter().filter(|m| net.reachable[m.index()]) {
            for &(_, to) in &net.out[member.index()] {
                let target = component_of[to];
                if target != c {
                    before[target] = before[target].join(onward);
                }
            }
        }
    }
    node_before
}

pub(super) fn summarize(net: &Net<'_>) -> Vec<StepRisk> {
    let before = risk_before(net);
    let mut order: Vec<usize> = (0..net.ids.len()).filter(|&n| net.reachable[n]).collect();
    order::sort_by_key(&mut order, |&n| net.profiles[n].step.index);
    order
        .into_iter()
        .map(|node| {
            let profile = &net.profiles[node];
            let behind_gate = profile.step.behind_gate;
            let reached = net.gate_free[node].filter(|_| !behind_gate);
            StepRisk {
                step: net.ids[node].to_owned(),
                kind: profile.step.kind.as_deref().map(str::to_owned),
                risk_class: class_of(profile.rank),
                risk_rank: profile.rank,
                highest_risk_before_class: class_of(before[node].rank),
                highest_risk_before_rank: before[node].rank,
                risk_before_partly_unknown: before[node].partly_unknown,
                behind_gate,
                acting_tools: profile.acting.clone(),
                flagged: profile.flagged(),
                ungated_previous: reached.and_then(|(p, _)| p).map(|p| net.ids[p].to_owned()),
                ungated_distance: reached.map(|(_, d)| d),
            }
        })
        .collect()
}
