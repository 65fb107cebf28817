//! Vertical coordinates, and the route of every edge.
//!
//! Each rank is a horizontal band as tall as its tallest vertex. Within a
//! band an edge runs vertically, at its port on a node or at its dummy's x,
//! which the horizontal placement keeps clear of every other vertex; it
//! changes x only in the empty space between two bands. So no route crosses
//! a node or a label.

use super::{
    EdgeRoute, EdgeSpec, Fidelity, Layout, NodeBox, NodeSpec, Point, Proper, Role, Shape, Size,
    Spacing,
};
use opb_syntax::order;

/// Space between a self-loop and its label.
pub(super) const LABEL_OFFSET: f64 = 6.0;

/// The widest spacing between two edges leaving one side of a node.
const PORT_STEP: f64 = 14.0;

/// The share of a node's width its ports may spread over.
const PORT_SPREAD: f64 = 0.6;

const EPSILON: f64 = 1e-6;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Top,
    Bottom,
}

/// Where a node is and how it is shaped.
#[derive(Clone, Copy)]
struct Placed {
    center: Point,
    width: f64,
    height: f64,
    shape: Shape,
}

impl Placed {
    /// The point of the border at `dx` from the centre, on one side.
    fn port(&self, side: Side, dx: f64) -> Point {
        let half_w = self.width / 2.0;
        let half_h = self.height / 2.0;
        let dx = dx.clamp(-half_w, half_w);
        let t = if half_w > 0.0 { dx.abs() / half_w } else { 0.0 };
        let reach = match self.shape {
            Shape::Rect => half_h,
            Shape::Diamond => half_h * (1.0 - t),
            Shape::Circle => half_h * (1.0 - t * t).max(0.0).sqrt(),
        };
        let y = match side {
            Side::Top => self.center.y - reach,
            Side::Bottom => self.center.y + reach,
        };
        Point { x: self.center.x + dx, y }
    }

    /// The point of the right-hand border at `dy` from the centre.
    fn right(&self, dy: f64) -> Point {
        let half_w = self.width / 2.0;
        let half_h = self.height / 2.0;
        let t = if half_h > 0.0 { (dy.abs() / half_h).min(1.0) } else { 0.0 };
        let reach = match self.shape {
            Shape::Rect => half_w,
            Shape::Diamond => half_w * (1.0 - t),
            Shape::Circle => half_w * (1.0 - t * t).max(0.0).sqrt(),
        };
        Point { x: self.center.x + reach, y: self.center.y + dy }
    }
}

/// The top and bottom of each rank's band.
struct Bands {
    top: Vec<f64>,
    bottom: Vec<f64>,
}

impl Bands {
    fn new(graph: &Proper, layers: &[Vec<usize>], spacing: &Spacing) -> Bands {
        let mut top = Vec::with_capacity(layers.len());
        let mut bottom = Vec::with_capacity(layers.len());
        let mut y = spacing.margin;
        for (r, layer) in layers.iter().enumerate() {
            if r > 0 {
                y += spacing.rank_gap / 2.0;
            }
            let height = layer.iter().map(|&v| graph.vertices[v].height).fold(0.0, f64::max);
            top.push(y);
            y += height;
            bottom.push(y);
        }
        Bands { top, bottom }
    }

    fn top(&self, rank: usize) -> f64 {
        self.top.get(rank).copied().unwrap_or_default()
    }

    fn bottom(&self, rank: usize) -> f64 {
        self.bottom.get(rank).copied().unwrap_or_default()
    }

    fn middle(&self, rank: usize) -> f64 {
        (self.top(rank) + self.bottom(rank)) / 2.0
    }
}

/// Offsets from a node's centre for `count` edges leaving one side.
fn spread(count: usize, width: f64) -> Vec<f64> {
    if count < 2 {
        return vec![0.0; count];
    }
    let gaps = (count - 1) as f64;
    let step = PORT_STEP.min(width * PORT_SPREAD / gaps);
    (0..count).map(|i| (i as f64 - gaps / 2.0) * step).collect()
}

pub(super) fn draw(
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    graph: &Proper,
    layers: &[Vec<usize>],
    xs: &[f64],
    spacing: &Spacing,
    fidelity: Fidelity,
) -> Layout {
    let bands = Bands::new(graph, layers, spacing);
    let left =
        graph.vertices.iter().zip(xs).map(|(v, x)| x - v.width / 2.0).fold(f64::INFINITY, f64::min);
    let shift = if left.is_finite() { spacing.margin - left } else { 0.0 };
    let x_of = |v: usize| xs.get(v).copied().unwrap_or_default() + shift;
    let right = graph
        .vertices
        .iter()
        .enumerate()
        .map(|(v, vertex)| x_of(v) + vertex.width / 2.0)
        .fold(0.0, f64::max);

    let placed: Vec<Placed> = nodes
        .iter()
        .enumerate()
        .map(|(i, spec)| Placed {
            center: Point {
                x: x_of(i),
                y: graph.vertices.get(i).map_or(0.0, |v| bands.middle(v.rank)),
            },
            width: spec.size.width,
            height: spec.size.height,
            shape: spec.shape,
        })
        .collect();
    let ports = Ports::new(graph, &x_of, &placed);

    let routes = edges
        .iter()
        .enumerate()
        .map(|(e, edge)| {
            let chain = graph.chains.get(e).map_or(&[][..], Vec::as_slice);
            if edge.from == edge.to {
                let loops = graph.loops.get(edge.from).map_or(&[][..], Vec::as_slice);
                return match (placed.get(edge.from), loops.iter().position(|&l| l == e)) {
                    (Some(node), Some(k)) => self_loop(node, k, loops, edges, spacing),
                    _ => EdgeRoute {
                        points: Vec::new(),
                        label: None,
                        reversed: false,
                        self_loop: true,
                    },
                };
            }
            chain_route(e, chain, graph, &bands, &placed, &ports, &x_of)
        })
        .collect();

    let boxes = placed
        .iter()
        .enumerate()
        .map(|(i, p)| NodeBox {
            x: p.center.x - p.width / 2.0,
            y: p.center.y - p.height / 2.0,
            width: p.width,
            height: p.height,
            rank: graph.vertices.get(i).map_or(0, |v| v.rank / 2),
        })
        .collect();
    let height = bands.bottom.last().copied().unwrap_or(spacing.margin) + spacing.margin;
    Layout {
        width: right.max(spacing.margin) + spacing.margin,
        height,
        nodes: boxes,
        edges: routes,
        fidelity,
        work: 0,
    }
}

/// The port offset of each edge on the side of the node it leaves and the
/// side it enters, ordered by where the edge goes next so ports do not cross.
struct Ports {
    /// By input edge: offset at its upper end and at its lower end.
    upper: Vec<f64>,
    lower: Vec<f64>,
}

impl Ports {
    fn new(graph: &Proper, x_of: &impl Fn(usize) -> f64, placed: &[Placed]) -> Ports {
        let edges = graph.chains.len();
        let mut leaving: Vec<Vec<(f64, usize)>> = vec![Vec::new(); placed.len()];
        let mut entering: Vec<Vec<(f64, usize)>> = vec![Vec::new(); placed.len()];
        for (e, chain) in graph.chains.iter().enumerate() {
            let (Some(&first), Some(&second), Some(&last), Some(&before_last)) = (
                chain.first(),
                chain.get(1),
                chain.last(),
                chain.len().checked_sub(2).and_then(|i| chain.get(i)),
            ) else {
                continue;
            };
            if let Some(list) = leaving.get_mut(first) {
                list.push((x_of(second), e));
            }
            if let Some(list) = entering.get_mut(last) {
                list.push((x_of(before_last), e));
            }
        }
        let mut upper = vec![0.0; edges];
        let mut lower = vec![0.0; edges];
        for (lists, offsets) in [(&mut leaving, &mut upper), (&mut entering, &mut lower)] {
            for (node, list) in lists.iter_mut().enumerate() {
                order::sort_by(list, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let width = placed.get(node).map_or(0.0, |p| p.width);
                for ((_, e), dx) in list.iter().zip(spread(list.len(), width)) {
                    offsets[*e] = dx;
                }
            }
        }
        Ports { upper, lower }
    }
}

fn chain_route(
    e: usize,
    chain: &[usize],
    graph: &Proper,
    bands: &Bands,
    placed: &[Placed],
    ports: &Ports,
    x_of: &impl Fn(usize) -> f64,
) -> EdgeRoute {
    let reversed = graph.reversed.get(e).copied().unwrap_or(false);
    let (Some(&first), Some(&last)) = (chain.first(), chain.last()) else {
        return EdgeRoute { points: Vec::new(), label: None, reversed, self_loop: false };
    };
    let (Some(from), Some(to)) = (placed.get(first), placed.get(last)) else {
        return EdgeRoute { points: Vec::new(), label: None, reversed, self_loop: false };
    };
    let rank = |v: usize| graph.vertices.get(v).map_or(0, |vertex| vertex.rank);
    let mut points = Vec::with_capacity(chain.len() * 2 + 2);
    let start = from.port(Side::Bottom, ports.upper.get(e).copied().unwrap_or_default());
    points.push(start);
    let below = bands.bottom(rank(first));
    if below > start.y + EPSILON {
        points.push(Point { x: start.x, y: below });
    }
    let mut label = None;
    for &v in chain.iter().skip(1).take(chain.len().saturating_sub(2)) {
        let x = x_of(v);
        let (top, bottom) = (bands.top(rank(v)), bands.bottom(rank(v)));
        points.push(Point { x, y: top });
        if bottom > top + EPSILON {
            points.push(Point { x, y: bottom });
        }
        if graph.vertices.get(v).is_some_and(|vertex| matches!(vertex.role, Role::Label(_))) {
            label = Some(Point { x, y: (top + bottom) / 2.0 });
        }
    }
    let end = to.port(Side::Top, ports.lower.get(e).copied().unwrap_or_default());
    let above = bands.top(rank(last));
    if above < end.y - EPSILON {
        points.push(Point { x: end.x, y: above });
    }
    points.push(end);
    if reversed {
        points.reverse();
    }
    EdgeRoute { points, label, reversed, self_loop: false }
}

/// How far the `k`-th self-loop of a node reaches beyond its side: each
/// further loop goes round the one before.
pub(super) fn loop_reach(k: usize, spacing: &Spacing) -> f64 {
    spacing.loop_reach * (1.0 + 0.5 * k as f64)
}

/// The `k`-th of a node's self-loops: out of its right side and back, as one
/// cubic Bézier; the loops' labels stacked beside the outermost.
fn self_loop(
    node: &Placed,
    k: usize,
    loops: &[usize],
    edges: &[EdgeSpec],
    spacing: &Spacing,
) -> EdgeRoute {
    let quarter = node.height / 4.0;
    let start = node.right(-quarter);
    let end = node.right(quarter);
    let side = node.center.x + node.width / 2.0;
    // A cubic reaches three quarters of the way to its control points.
    let control_x = side + loop_reach(k, spacing) * 4.0 / 3.0;
    let half = node.height / 2.0;
    let points = vec![
        start,
        Point { x: control_x, y: node.center.y - half },
        Point { x: control_x, y: node.center.y + half },
        end,
    ];
    let labels: Vec<Size> =
        loops.iter().filter_map(|&e| edges.get(e).and_then(|edge| edge.label)).collect();
    let stacked: f64 = labels.iter().map(|l| l.height + LABEL_OFFSET).sum::<f64>() - LABEL_OFFSET;
    let before: f64 = loops
        .iter()
        .take(k)
        .filter_map(|&e| edges.get(e).and_then(|edge| edge.label))
        .map(|l| l.height + LABEL_OFFSET)
        .sum();
    let outer = side + loop_reach(loops.len().saturating_sub(1), spacing) + LABEL_OFFSET;
    let label =
        loops.get(k).and_then(|&e| edges.get(e)).and_then(|edge| edge.label).map(|size| Point {
            x: outer + size.width / 2.0,
            y: node.center.y - stacked / 2.0 + before + size.height / 2.0,
        });
    EdgeRoute { points, label, reversed: false, self_loop: true }
}
