//! The step graph: nodes, edges with branch labels, start, ends, unreachable
//! steps, cycles and back edges. Built on `petgraph`.

use super::playbook::PlaybookView;
use foldhash::{HashMap, HashMapExt};
use opb_syntax::order;
use opb_syntax::CompactString;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;

/// A playbook's steps as a directed graph: which step may run after which.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Graph {
    /// One node per step with an id, in document order; a later step
    /// repeating an id is left out.
    pub nodes: Vec<GraphNode>,
    /// One edge per `next` target that names a node, by source step in
    /// document order, then in the order `next` lists them.
    pub edges: Vec<GraphEdge>,
    /// The step the playbook starts at, when it names one that exists.
    pub start: Option<CompactString>,
    /// Steps that end the playbook (no `next`).
    pub ends: Vec<CompactString>,
    /// Steps no path from the start reaches (empty when there is no start).
    pub unreachable: Vec<CompactString>,
    /// Each cycle's steps, in document order; a self-loop is a cycle of one.
    pub cycles: Vec<Vec<CompactString>>,
}

/// A step of the graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphNode {
    /// The step's id: what edges, `start` and `ends` name it by.
    pub id: CompactString,
    /// Index of the step in `steps`.
    pub step: usize,
    /// The step's `kind` as written (`agent`, `gate`, or another).
    pub kind: Option<CompactString>,
}

/// A `next` from one step to another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphEdge {
    /// The id of the step whose `next` it is.
    pub from: CompactString,
    /// The id of the step it leads to.
    pub to: CompactString,
    /// The branch label, when `next` is an object of labelled branches
    /// (`approved: refund`); none for a plain `next`.
    pub label: Option<CompactString>,
    /// An edge that goes back to a step on the current path from the start:
    /// it closes a cycle. Drawn distinctly.
    pub back: bool,
}

/// Builds the graph of a playbook. Steps without an id, and later steps that
/// repeat an id, are left out; edges to unknown steps are left out.
pub fn build(view: &PlaybookView<'_>) -> Graph {
    let count = view.steps.len();
    let mut graph: DiGraph<usize, Option<&str>> = DiGraph::with_capacity(count, count);
    let mut by_id: HashMap<&str, NodeIndex> = HashMap::with_capacity(count);
    let mut nodes = Vec::with_capacity(count);
    for (position, step) in view.steps.iter().enumerate() {
        let Some(id) = step.id else { continue };
        if by_id.contains_key(id) {
            continue;
        }
        by_id.insert(id, graph.add_node(position));
        nodes.push(GraphNode {
            id: id.into(),
            step: step.index,
            kind: step.kind.map(CompactString::new),
        });
    }
    let mut ends = Vec::new();
    for (position, step) in view.steps.iter().enumerate() {
        let Some(id) = step.id else { continue };
        let from = by_id[id];
        if graph[from] != position {
            continue;
        }
        let ends_here = step.node.get("next").is_none_or(|n| n.is_null());
        if ends_here {
            ends.push(id.into());
        }
        for next in &step.next {
            if let Some(&to) = by_id.get(next.target) {
                graph.add_edge(from, to, next.label);
            }
        }
    }

    let start = match view.start {
        Some(node) => node.as_str().filter(|s| by_id.contains_key(s)),
        None => view.steps.first().and_then(|s| s.id),
    };

    let id_of = |n: NodeIndex| -> &str { view.steps[graph[n]].id.unwrap_or_default() };
    let back = back_edges(&graph, start.map(|s| by_id[s]));
    let edges = graph
        .edge_references()
        .map(|e| GraphEdge {
            from: id_of(e.source()).into(),
            to: id_of(e.target()).into(),
            label: e.weight().map(CompactString::new),
            back: back[e.id().index()],
        })
        .collect();

    let unreachable = match start {
        Some(start) => {
            let reached = reachable(&graph, by_id[start]);
            graph.node_indices().filter(|n| !reached[n.index()]).map(|n| id_of(n).into()).collect()
        }
        None => Vec::new(),
    };

    let mut cycles: Vec<Vec<CompactString>> = kosaraju_scc(&graph)
        .into_iter()
        .filter(|scc| scc.len() > 1 || graph.contains_edge(scc[0], scc[0]))
        .map(|mut scc| {
            order::sort_by_key(&mut scc, |n| graph[*n]);
            scc.into_iter().map(|n| id_of(n).into()).collect()
        })
        .collect();
    order::sort_by_key(&mut cycles, |c| by_id[c[0].as_str()].index());

    Graph { nodes, edges, start: start.map(CompactString::new), ends, unreachable, cycles }
}

fn reachable(graph: &DiGraph<usize, Option<&str>>, start: NodeIndex) -> Vec<bool> {
    let mut seen = vec![false; graph.node_count()];
    let mut stack = vec![start];
    seen[start.index()] = true;
    while let Some(n) = stack.pop() {
        for next in graph.neighbors(n) {
            if !seen[next.index()] {
                seen[next.index()] = true;
                stack.push(next);
            }
        }
    }
    seen
}

/// Marks the edges that point back to a node on the DFS path: from the start
/// first, then from each node not yet visited, in document order. Iterative,
/// so a 10,000-step chain does not exhaust the stack.
fn back_edges(graph: &DiGraph<usize, Option<&str>>, start: Option<NodeIndex>) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnPath,
        Done,
    }
    // Every node's outgoing edges in the order they were added, in one list:
    // node `n`'s are `outgoing[at[n]..at[n + 1]]`.
    let mut outgoing: Vec<(NodeIndex, EdgeIndex, NodeIndex)> =
        graph.edge_references().map(|e| (e.source(), e.id(), e.target())).collect();
    order::sort_by_key(&mut outgoing, |&(source, _, _)| source);
    let at: Vec<usize> = (0..=graph.node_count())
        .map(|n| outgoing.partition_point(|&(source, _, _)| source.index() < n))
        .collect();
    let first_edge = |n: NodeIndex| at.get(n.index()).copied().unwrap_or_default();
    let end_of = |n: NodeIndex| at.get(n.index() + 1).copied().unwrap_or_default();

    let mut state = vec![State::New; graph.node_count()];
    let mut back = vec![false; graph.edge_count()];
    let roots = start.into_iter().chain(graph.node_indices());
    for root in roots {
        if state[root.index()] != State::New {
            continue;
        }
        // Each frame: the node and the position of its next edge to walk.
        let mut stack = vec![(root, first_edge(root))];
        state[root.index()] = State::OnPath;
        while let Some((node, next)) = stack.last_mut() {
            let edge = outgoing.get(*next).filter(|_| *next < end_of(*node));
            *next += 1;
            match edge {
                Some(&(_, edge, target)) => match state[target.index()] {
                    State::New => {
                        state[target.index()] = State::OnPath;
                        stack.push((target, first_edge(target)));
                    }
                    State::OnPath => back[edge.index()] = true,
                    State::Done => {}
                },
                None => {
                    state[node.index()] = State::Done;
                    stack.pop();
                }
            }
        }
    }
    back
}
