//! opb-layout, the graph layout: a layered (Sugiyama) drawing of a
//! directed graph, top to bottom: node boxes, edge routes with their label
//! positions, and the drawing's size. It knows nothing of playbooks: the
//! core's `explain::layout` lays a step graph out with it (start and end
//! markers included) and says what a simplified drawing means to a reader.
//!
//! The phases, each in its own module:
//! 1. `rank`: edges that close a cycle are turned round (the graph's own
//!    back edges first, then any a depth-first search still finds), and each
//!    node gets the longest-path rank, sources pulled down next to their
//!    successors. Ranks are doubled: the odd ranks between two node ranks
//!    hold where edges bend and their labels, so a label is laid out like a
//!    node and never covers one.
//! 2. Every edge becomes a chain through one dummy vertex per rank it
//!    crosses, so all edges join neighbouring ranks.
//! 3. `order`: crossing reduction within each rank: a depth-first initial
//!    order, then barycentre sweeps down and up, with adjacent swaps on
//!    graphs of ordinary size, keeping the order with the fewest crossings.
//! 4. `position`: horizontal coordinates by Brandes–Köpf (four alignments
//!    compacted, then balanced), which keeps long edges straight.
//! 5. `route`: vertical coordinates, ports spread along each node's
//!    border, and routes that are vertical within a rank's band and bend only
//!    in the free space between bands, so no edge crosses a node or a label.
//!
//! The input is never trusted: edges to nodes that do not exist are left
//! without a route, sizes that are not finite positive numbers are read as
//! one unit, and every phase runs in time near-linear in the size of the
//! graph with its dummy vertices. That graph can still be huge (an edge
//! gets a dummy per rank it crosses), so the work is priced before it is
//! done and kept within a budget (`budget`): past it the drawing is
//! simplified, and past that it is not made. Nothing here panics, loops
//! forever or runs unbounded.

mod budget;
mod order;
mod position;
mod rank;
mod route;
#[cfg(test)]
mod tests;

pub use budget::{Fidelity, TooDense, BUDGET, DRAWN_EDGE};

use budget::{Extent, Work};
use opb_syntax::pause;
use serde::Serialize;
use std::future::Future;

/// A width and a height, in the caller's unit (the playground's is the CSS pixel).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Size {
    /// Across, left to right.
    pub width: f64,
    /// Down, top to bottom.
    pub height: f64,
}

impl Size {
    /// A size of `width` by `height`. The layout reads a side that is not a
    /// finite positive number as one unit, and cuts one over 100,000 units
    /// to that.
    pub const fn new(width: f64, height: f64) -> Size {
        Size { width, height }
    }

    /// Finite positive sides no larger than `MAX_SIDE`; anything else reads as one unit.
    fn sane(self) -> Size {
        let side = |v: f64| if v.is_finite() && v > 0.0 { v.min(MAX_SIDE) } else { 1.0 };
        Size { width: side(self.width), height: side(self.height) }
    }
}

/// The largest side a node or label may have; larger ones are cut to it.
/// [`Size::new`] states the number to callers: change the two together.
pub(crate) const MAX_SIDE: f64 = 100_000.0;

/// The outline of a node, which decides where edges meet its border.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// The box itself: edges meet its sides.
    Rect,
    /// A rhombus with its corners at the middles of the box's sides (how the
    /// playground draws a gate).
    Diamond,
    /// A circle (or ellipse) inscribed in the node's box.
    Circle,
}

/// A node to lay out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NodeSpec {
    /// The size of its box.
    pub size: Size,
    /// The outline edges meet, inside the box.
    pub shape: Shape,
}

/// An edge to lay out, between two positions of the node list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EdgeSpec {
    /// The source's position in the node list; an edge naming a position
    /// past the list's end gets an empty route.
    pub from: usize,
    /// The target's position in the node list; equal to `from` for a
    /// self-loop.
    pub to: usize,
    /// The size of its label, if it has one.
    pub label: Option<Size>,
    /// Whether the edge closes a cycle (the graph's back edge): it is laid
    /// out pointing up, so the rest of the graph reads top to bottom.
    pub back: bool,
}

/// The distances of a drawing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spacing {
    /// Between two nodes side by side.
    pub node_gap: f64,
    /// Between two ranks of nodes (labels add their height to it).
    pub rank_gap: f64,
    /// Beside an edge passing other edges or nodes.
    pub edge_gap: f64,
    /// Around the whole drawing.
    pub margin: f64,
    /// How far a self-loop reaches out from its node's side.
    pub loop_reach: f64,
}

impl Default for Spacing {
    fn default() -> Spacing {
        Spacing { node_gap: 36.0, rank_gap: 64.0, edge_gap: 14.0, margin: 24.0, loop_reach: 30.0 }
    }
}

impl Spacing {
    fn sane(self) -> Spacing {
        let gap = |v: f64, default: f64| {
            if v.is_finite() && v >= 0.0 {
                v.min(MAX_SIDE)
            } else {
                default
            }
        };
        let d = Spacing::default();
        Spacing {
            node_gap: gap(self.node_gap, d.node_gap),
            rank_gap: gap(self.rank_gap, d.rank_gap),
            edge_gap: gap(self.edge_gap, d.edge_gap),
            margin: gap(self.margin, d.margin),
            loop_reach: gap(self.loop_reach, d.loop_reach),
        }
    }
}

/// A point of the drawing, from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Rightwards from the drawing's left edge.
    pub x: f64,
    /// Downwards from the drawing's top edge.
    pub y: f64,
}

/// Where a node is drawn: its box's top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NodeBox {
    /// The left side, from the drawing's left edge.
    pub x: f64,
    /// The top side, from the drawing's top edge.
    pub y: f64,
    /// The width its [`NodeSpec`] gives, read as [`Size::new`] says.
    pub width: f64,
    /// The height its [`NodeSpec`] gives, read as [`Size::new`] says.
    pub height: f64,
    /// The node's rank: 0 at the top.
    pub rank: usize,
}

impl NodeBox {
    /// The middle of the box.
    pub fn center(&self) -> Point {
        Point { x: self.x + self.width / 2.0, y: self.y + self.height / 2.0 }
    }

    /// Whether two boxes share any area.
    #[cfg(test)]
    pub(crate) fn overlaps(&self, other: &NodeBox) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }
}

/// How an edge is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeRoute {
    /// From the edge's source to its target (for a back edge too), on the
    /// nodes' borders. Two points at one height are joined by a straight
    /// line; two at different heights by a curve leaving and arriving
    /// vertically (a cubic Bézier with both control points at mid-height),
    /// which stays between the two heights and so between the ranks. For a
    /// self-loop the four points are one cubic Bézier: start, two control
    /// points, end. Empty when the edge names a node that does not exist.
    pub points: Vec<Point>,
    /// Where the label's box is centred, when the edge has a label.
    pub label: Option<Point>,
    /// Laid out pointing up (a back edge, or one turned round to break a cycle).
    pub reversed: bool,
    /// An edge from a node to itself: `points` are then one cubic Bézier
    /// out of the node's right side and back.
    pub self_loop: bool,
}

/// A drawing of a graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// The drawing's width, margins included: every box and route lies
    /// within it.
    pub width: f64,
    /// The drawing's height, margins included.
    pub height: f64,
    /// One box per input node, in input order.
    pub nodes: Vec<NodeBox>,
    /// One route per input edge, in input order.
    pub edges: Vec<EdgeRoute>,
    /// Whether the drawing is exact or was simplified to stay within the
    /// budget.
    pub fidelity: Fidelity,
    /// The work units the layout spent ([`budget`](BUDGET)).
    pub work: u64,
}

/// What occupies a position in a rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// An input node.
    Node(usize),
    /// A point an edge passes through.
    Bend,
    /// The label of this input edge.
    Label(usize),
}

/// A node, or a dummy vertex of an edge's chain, in one rank.
#[derive(Debug, Clone, Copy)]
struct Vertex {
    role: Role,
    rank: usize,
    /// The width it takes in its rank (a node's includes its self-loop).
    width: f64,
    height: f64,
}

impl Vertex {
    fn is_dummy(&self) -> bool {
        !matches!(self.role, Role::Node(_))
    }
}

/// The graph with every edge cut into steps between neighbouring ranks.
struct Proper {
    vertices: Vec<Vertex>,
    /// Neighbours one rank up, and one rank down.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// For each input edge, its vertices from the upper end to the lower;
    /// empty for a self-loop or an edge to a missing node.
    chains: Vec<Vec<usize>>,
    reversed: Vec<bool>,
    ranks: usize,
    /// Each node's self-loops, by input edge position.
    loops: Vec<Vec<usize>>,
}

/// Lays out `nodes` and `edges` within [`BUDGET`]. `root`, when given, is
/// the node the drawing starts from: it goes first in the search that
/// breaks cycles and sits on the top rank unless an edge from elsewhere
/// leads into it.
pub fn layout(
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    root: Option<usize>,
    spacing: &Spacing,
) -> Result<Layout, TooDense> {
    pause::at_once(layout_pausing(nodes, edges, root, spacing, BUDGET, pause::never))
}

/// Lays out as [`layout`] does, within `budget` work units: exactly when
/// the whole exact drawing fits in it, else simplified when that fits
/// ([`Fidelity`]), else not at all. `pause` is asked between the phases and
/// between the sweeps of crossing reduction whether to pause (see
/// [`pause`]).
pub async fn layout_pausing<W: Future<Output = ()>>(
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    root: Option<usize>,
    spacing: &Spacing,
    budget: u64,
    mut pause: impl FnMut() -> Option<W>,
) -> Result<Layout, TooDense> {
    let spacing = spacing.sane();
    let nodes: Vec<NodeSpec> =
        nodes.iter().map(|n| NodeSpec { size: n.size.sane(), shape: n.shape }).collect();
    let edges: Vec<EdgeSpec> =
        edges.iter().map(|e| EdgeSpec { label: e.label.map(Size::sane), ..*e }).collect();
    let mut work = Work::new(budget);
    let layering = rank::layer(nodes.len(), &edges, root.filter(|&r| r < nodes.len()));
    work.spend((nodes.len() + edges.len()) as u64);
    pause::ask(&mut pause).await;

    let mut drawn = None;
    let exact = extent(nodes.len(), &layering, Fidelity::Exact);
    // The least the exact drawing can cost, known before it is built.
    if work.affords(exact.fixed().saturating_add(order::SWEEPS.saturating_mul(exact.sweep()))) {
        let graph = proper(&nodes, &edges, &layering, &spacing, Fidelity::Exact);
        let rest = exact.fixed().saturating_add(order::most(&graph)) - exact.pass();
        work.spend(exact.pass());
        if work.affords(rest) {
            drawn = Some((graph, Fidelity::Exact));
        }
    }
    let (graph, fidelity) = match drawn {
        Some(drawn) => drawn,
        None => {
            let simple = extent(nodes.len(), &layering, Fidelity::Simplified);
            let price = simple.simplified(exact, layering.edges.len() as u64);
            if !work.affords(price) {
                return Err(TooDense { needed: work.spent().saturating_add(price), budget });
            }
            work.spend(simple.pass());
            (
                proper(&nodes, &edges, &layering, &spacing, Fidelity::Simplified),
                Fidelity::Simplified,
            )
        }
    };
    pause::ask(&mut pause).await;
    // Coordinates and routes are paid for first: crossing reduction, which
    // can stop at any sweep, takes what is left.
    work.spend(graph.extent().coordinates());
    let layers = order::order(&graph, &mut work, &mut pause).await;
    let xs = position::x_coordinates(&graph, &layers, &spacing, &mut pause).await;
    let mut drawing = route::draw(&nodes, &edges, &graph, &layers, &xs, &spacing, fidelity);
    drawing.work = work.spent();
    Ok(drawing)
}

/// The size of the graph [`proper`] makes of `layering` for `fidelity`,
/// from the ranks alone.
fn extent(nodes: usize, layering: &rank::Layering, fidelity: Fidelity) -> Extent {
    let mut size = Extent { vertices: nodes as u64, segments: 0 };
    for oriented in &layering.edges {
        let (Some(&top), Some(&bottom)) =
            (layering.rank.get(oriented.upper), layering.rank.get(oriented.lower))
        else {
            continue;
        };
        let span = bottom.saturating_sub(top) as u64;
        let (vertices, segments) = match fidelity {
            Fidelity::Exact => (span.saturating_sub(1), span),
            Fidelity::Simplified => (1, if span == 2 { 2 } else { 1 }),
        };
        size.vertices += vertices;
        size.segments += segments;
    }
    size
}

/// The self-loops of each node, by input edge position.
fn self_loops(n: usize, edges: &[EdgeSpec]) -> Vec<Vec<usize>> {
    let mut loops = vec![Vec::new(); n];
    for (e, edge) in edges.iter().enumerate() {
        if edge.from == edge.to {
            if let Some(list) = loops.get_mut(edge.from) {
                list.push(e);
            }
        }
    }
    loops
}

/// The room a node's self-loops and their labels take: beside it (on each
/// side, since the node is kept centred) and in height (the labels stack).
fn loop_room(loops: &[usize], edges: &[EdgeSpec], spacing: &Spacing) -> Size {
    let Some(outermost) = loops.len().checked_sub(1) else { return Size::new(0.0, 0.0) };
    let labels = loops.iter().filter_map(|&e| edges.get(e).and_then(|edge| edge.label));
    let (widest, stacked) = labels
        .fold((0.0f64, 0.0f64), |(w, h), l| (w.max(l.width), h + l.height + route::LABEL_OFFSET));
    let beside = route::loop_reach(outermost, spacing)
        + if widest > 0.0 { route::LABEL_OFFSET + widest } else { 0.0 };
    Size::new(beside, stacked)
}

/// The graph of `layering` with its edges cut at the ranks between their
/// ends: at every one for an exact drawing, at its label's rank only for a
/// simplified one, whose edge then has no segment between the ranks left
/// uncut.
fn proper(
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    layering: &rank::Layering,
    spacing: &Spacing,
    fidelity: Fidelity,
) -> Proper {
    let loops = self_loops(nodes.len(), edges);
    let mut vertices: Vec<Vertex> = nodes
        .iter()
        .zip(&loops)
        .enumerate()
        .map(|(i, (n, loops))| {
            let room = loop_room(loops, edges, spacing);
            Vertex {
                role: Role::Node(i),
                rank: layering.rank.get(i).copied().unwrap_or_default(),
                width: n.size.width + 2.0 * room.width,
                height: n.size.height.max(room.height),
            }
        })
        .collect();
    let mut chains = vec![Vec::new(); edges.len()];
    let mut reversed = vec![false; edges.len()];
    for oriented in &layering.edges {
        let (Some(edge), Some(&top), Some(&bottom)) = (
            edges.get(oriented.edge),
            layering.rank.get(oriented.upper),
            layering.rank.get(oriented.lower),
        ) else {
            continue;
        };
        // The label sits next to the edge's real source: just below it, or
        // just above it when the edge is drawn pointing up.
        let label_rank = if oriented.reversed { bottom.saturating_sub(1) } else { top + 1 };
        let mut chain = vec![oriented.upper];
        let cuts = match fidelity {
            Fidelity::Exact => top + 1..bottom,
            Fidelity::Simplified => label_rank..label_rank + 1,
        };
        for r in cuts {
            let (role, size) = match edge.label {
                Some(size) if r == label_rank => (Role::Label(oriented.edge), size),
                _ => (Role::Bend, Size::new(0.0, 0.0)),
            };
            chain.push(vertices.len());
            vertices.push(Vertex { role, rank: r, width: size.width, height: size.height });
        }
        chain.push(oriented.lower);
        chains[oriented.edge] = chain;
        reversed[oriented.edge] = oriented.reversed;
    }
    let mut up = vec![Vec::new(); vertices.len()];
    let mut down = vec![Vec::new(); vertices.len()];
    for chain in &chains {
        for pair in chain.windows(2) {
            if let [a, b] = *pair {
                if vertices[b].rank == vertices[a].rank + 1 {
                    down[a].push(b);
                    up[b].push(a);
                }
            }
        }
    }
    let ranks = vertices.iter().map(|v| v.rank + 1).max().unwrap_or(0);
    Proper { vertices, up, down, chains, reversed, ranks, loops }
}

impl Proper {
    fn extent(&self) -> Extent {
        let segments: usize = self.down.iter().map(Vec::len).sum();
        Extent { vertices: self.vertices.len() as u64, segments: segments as u64 }
    }
}
