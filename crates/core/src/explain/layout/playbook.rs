//! The drawing of a playbook's step graph: its steps and edges, a start
//! marker with an arrow into the start step, and an end marker below each
//! step that ends the playbook.

use crate::views::graph::Graph;
use foldhash::{HashMap, HashMapExt};
use opb_layout::{
    layout_pausing, EdgeRoute, EdgeSpec, Fidelity, NodeBox, NodeSpec, Shape, Size, Spacing,
    TooDense, BUDGET,
};
use opb_syntax::pause;
use serde::Serialize;
use std::future::Future;

/// A start or end marker and the edge that joins it to its step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Terminal {
    /// The step it belongs to.
    pub step: String,
    /// Where the marker is drawn; `rank` counts it as a node of the drawing.
    pub at: NodeBox,
    /// From the start marker into its step, or from a step to its end
    /// marker.
    pub edge: EdgeRoute,
}

/// A drawing of a playbook's step graph, as [`playbook`] lays it out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphLayout {
    /// The drawing's width, margins and markers included.
    pub width: f64,
    /// The drawing's height, margins and markers included.
    pub height: f64,
    /// One box per node of the graph, in its order.
    pub nodes: Vec<NodeBox>,
    /// One route per edge of the graph, in its order.
    pub edges: Vec<EdgeRoute>,
    /// The start marker, above the start step.
    pub start: Option<Terminal>,
    /// An end marker below each step of `graph.ends`, in its order.
    pub ends: Vec<Terminal>,
    /// Whether the drawing is exact or was simplified to stay within the
    /// layout's budget; a drawer shows its [`super::Notice`] with it.
    pub fidelity: Fidelity,
    /// The work units the layout spent.
    pub work: u64,
}

/// Lays out `graph`. `nodes` gives each graph node's size and shape, in the
/// graph's order (a node without one is drawn as a small box); `label`
/// measures a branch label; `terminal` is the size of the round start and
/// end markers. A graph too dense to draw within the layout's budget is
/// [`TooDense`], and a drawer lists its steps and edges instead.
pub fn playbook(
    graph: &Graph,
    nodes: &[NodeSpec],
    label: impl Fn(&str) -> Size,
    terminal: Size,
    spacing: &Spacing,
) -> Result<GraphLayout, TooDense> {
    pause::at_once(playbook_pausing(graph, nodes, label, terminal, spacing, pause::never))
}

/// Lays out as [`playbook`] does, asking `pause` now and then whether to
/// pause (see [`super::layout_pausing`]).
pub async fn playbook_pausing<W: Future<Output = ()>>(
    graph: &Graph,
    nodes: &[NodeSpec],
    label: impl Fn(&str) -> Size,
    terminal: Size,
    spacing: &Spacing,
    pause: impl FnMut() -> Option<W>,
) -> Result<GraphLayout, TooDense> {
    let fallback =
        NodeSpec { size: Size::new(terminal.width, terminal.height), shape: Shape::Rect };
    let mut specs: Vec<NodeSpec> =
        (0..graph.nodes.len()).map(|i| nodes.get(i).copied().unwrap_or(fallback)).collect();
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(graph.nodes.len());
    for (i, node) in graph.nodes.iter().enumerate() {
        index.entry(node.id.as_str()).or_insert(i);
    }
    // An edge naming a node the graph does not have gets an empty route.
    let at = |id: &str| index.get(id).copied().unwrap_or(usize::MAX);
    let mut edges: Vec<EdgeSpec> = graph
        .edges
        .iter()
        .map(|e| EdgeSpec {
            from: at(&e.from),
            to: at(&e.to),
            label: e.label.as_deref().map(&label),
            back: e.back,
        })
        .collect();

    let marker = NodeSpec { size: terminal, shape: Shape::Circle };
    let start = graph.start.as_deref().and_then(|id| index.get(id).map(|&step| (id, step)));
    let root = start.map(|(_, step)| {
        specs.push(marker);
        edges.push(EdgeSpec { from: specs.len() - 1, to: step, label: None, back: false });
        specs.len() - 1
    });
    let ends: Vec<(&str, usize)> = graph
        .ends
        .iter()
        .filter_map(|id| {
            let step = *index.get(id.as_str())?;
            specs.push(marker);
            edges.push(EdgeSpec { from: step, to: specs.len() - 1, label: None, back: false });
            Some((id.as_str(), specs.len() - 1))
        })
        .collect();

    let drawn = layout_pausing(&specs, &edges, root, spacing, BUDGET, pause).await?;
    let terminal_at = |id: &str, node: usize, edge: usize| -> Option<Terminal> {
        Some(Terminal {
            step: id.to_owned(),
            at: *drawn.nodes.get(node)?,
            edge: drawn.edges.get(edge)?.clone(),
        })
    };
    let graph_edges = graph.edges.len();
    let start_terminal = start.and_then(|(id, _)| terminal_at(id, root?, graph_edges));
    let first_end_edge = graph_edges + usize::from(start.is_some());
    let end_terminals = ends
        .iter()
        .enumerate()
        .filter_map(|(k, &(id, node))| terminal_at(id, node, first_end_edge + k))
        .collect();
    Ok(GraphLayout {
        width: drawn.width,
        height: drawn.height,
        nodes: drawn.nodes.iter().take(graph.nodes.len()).copied().collect(),
        edges: drawn.edges.iter().take(graph_edges).cloned().collect(),
        start: start_terminal,
        ends: end_terminals,
        fidelity: drawn.fidelity,
        work: drawn.work,
    })
}
