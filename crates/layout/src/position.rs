//! Horizontal coordinates by Brandes and Köpf ("Fast and Simple Horizontal
//! Coordinate Assignment", 2001), with the block-graph compaction dagre
//! uses: vertices are aligned into vertical blocks with their median
//! neighbours in four ways (from the top or the bottom, leaning left or
//! right), each alignment is compacted, and each vertex takes the mean of
//! its two middle candidates. Every candidate keeps neighbours in a rank at
//! least their separation apart, and so does the balanced result (the order
//! statistics of four separated values are separated too).

use super::{Proper, Spacing};
use opb_syntax::{order, pause};
use std::future::Future;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Vertical {
    Down,
    Up,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Horizontal {
    Left,
    Right,
}

/// The centre x of every vertex. `pause` is asked after each alignment.
pub(super) async fn x_coordinates<W: Future<Output = ()>>(
    graph: &Proper,
    layers: &[Vec<usize>],
    spacing: &Spacing,
    pause: &mut impl FnMut() -> Option<W>,
) -> Vec<f64> {
    let count = graph.vertices.len();
    if count == 0 {
        return Vec::new();
    }
    let conflicts = type1_conflicts(graph, layers);
    let mut candidates = Vec::with_capacity(4);
    for vertical in [Vertical::Down, Vertical::Up] {
        for horizontal in [Horizontal::Left, Horizontal::Right] {
            let mut adjusted: Vec<Vec<usize>> = match vertical {
                Vertical::Down => layers.to_vec(),
                Vertical::Up => layers.iter().rev().cloned().collect(),
            };
            if horizontal == Horizontal::Right {
                for layer in &mut adjusted {
                    layer.reverse();
                }
            }
            let neighbours = match vertical {
                Vertical::Down => &graph.up,
                Vertical::Up => &graph.down,
            };
            let root = vertical_alignment(&adjusted, neighbours, &conflicts, count);
            let mut xs = compact(graph, &adjusted, &root, spacing);
            if horizontal == Horizontal::Right {
                for x in &mut xs {
                    *x = -*x;
                }
            }
            candidates.push((horizontal, xs));
            pause::ask(pause).await;
        }
    }
    balance(graph, candidates)
}

/// The ends of an edge, in a fixed order, as a set key.
fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Edges that cross an inner segment (one between two dummies): aligning
/// along them would bend a long edge, so they are not aligned.
fn type1_conflicts(graph: &Proper, layers: &[Vec<usize>]) -> Conflicts {
    let mut pos = vec![0usize; graph.vertices.len()];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    let dummy = |v: usize| graph.vertices[v].is_dummy();
    let mut conflicts = Vec::new();
    for pair in layers.windows(2) {
        let [previous, layer] = pair else { continue };
        let mut k0 = 0;
        let mut scan_from = 0;
        for (i, &v) in layer.iter().enumerate() {
            let inner =
                if dummy(v) { graph.up[v].iter().copied().find(|&u| dummy(u)) } else { None };
            let k1 = inner.map_or(previous.len(), |w| pos[w]);
            if inner.is_some() || i + 1 == layer.len() {
                for &scanned in layer.get(scan_from..=i).unwrap_or_default() {
                    for &u in &graph.up[scanned] {
                        let at = pos[u];
                        if (at < k0 || k1 < at) && !(dummy(u) && dummy(scanned)) {
                            conflicts.push(key(u, scanned));
                        }
                    }
                }
                scan_from = i + 1;
                k0 = k1;
            }
        }
    }
    order::sort(&mut conflicts);
    conflicts.dedup();
    Conflicts(conflicts)
}

/// Edges not to align along, sorted for lookups.
struct Conflicts(Vec<(usize, usize)>);

impl Conflicts {
    fn contains(&self, a: usize, b: usize) -> bool {
        self.0.binary_search(&key(a, b)).is_ok()
    }
}

/// Aligns each vertex with a median neighbour in the rank before it (in the
/// adjusted order), never across an earlier alignment or a conflict. Returns
/// each vertex's block, named by its first vertex (the block's root).
fn vertical_alignment(
    layers: &[Vec<usize>],
    neighbours: &[Vec<usize>],
    conflicts: &Conflicts,
    count: usize,
) -> Vec<usize> {
    let mut root: Vec<usize> = (0..count).collect();
    // Blocks are cyclic lists through `align`; a vertex aligned with nothing
    // points at itself.
    let mut align: Vec<usize> = (0..count).collect();
    let mut pos = vec![0usize; count];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    let mut around = Vec::new();
    for layer in layers {
        let mut last_aligned: Option<usize> = None;
        for &v in layer {
            around.clear();
            around.extend(neighbours[v].iter().copied());
            if around.is_empty() {
                continue;
            }
            order::sort_by_key(&mut around, |&w| pos[w]);
            around.dedup();
            let middle = (around.len() - 1) / 2;
            let medians = if around.len() % 2 == 0 { middle..=middle + 1 } else { middle..=middle };
            for m in medians {
                let Some(&w) = around.get(m) else { continue };
                if align[v] == v
                    && last_aligned.is_none_or(|last| last < pos[w])
                    && !conflicts.contains(v, w)
                {
                    align[w] = v;
                    root[v] = root[w];
                    align[v] = root[v];
                    last_aligned = Some(pos[w]);
                }
            }
        }
    }
    root
}

/// The least separation between the centres of two neighbours in a rank.
fn separation(graph: &Proper, a: usize, b: usize, spacing: &Spacing) -> f64 {
    let gap =
        |v: usize| if graph.vertices[v].is_dummy() { spacing.edge_gap } else { spacing.node_gap };
    (graph.vertices[a].width + graph.vertices[b].width) / 2.0 + (gap(a) + gap(b)) / 2.0
}

/// Places the blocks: as far left as their left neighbours allow (a
/// longest-path pass over the block graph, whose edges join neighbouring
/// blocks left to right with their separation), then each block as far right
/// as its right neighbours allow, which closes gaps left by the first pass.
fn compact(graph: &Proper, layers: &[Vec<usize>], root: &[usize], spacing: &Spacing) -> Vec<f64> {
    let count = graph.vertices.len();
    // Two blocks side by side in several ranks get one edge per rank; the
    // passes take the largest separation, so repeats need no merging.
    let mut right: Vec<Vec<(usize, f64)>> = vec![Vec::new(); count];
    let mut left: Vec<Vec<(usize, f64)>> = vec![Vec::new(); count];
    let mut entering = vec![0usize; count];
    for layer in layers {
        for pair in layer.windows(2) {
            let [u, v] = *pair else { continue };
            let gap = separation(graph, u, v, spacing);
            right[root[u]].push((root[v], gap));
            left[root[v]].push((root[u], gap));
            entering[root[v]] += 1;
        }
    }
    let roots: Vec<usize> = (0..count).filter(|&v| root[v] == v).collect();
    let order = topological(&roots, &right, &mut entering);

    let mut x = vec![0.0f64; count];
    for &b in &order {
        x[b] = left[b].iter().map(|&(u, gap)| x[u] + gap).fold(0.0, f64::max);
    }
    for &b in order.iter().rev() {
        let limit = right[b].iter().map(|&(v, gap)| x[v] - gap).fold(f64::INFINITY, f64::min);
        if limit.is_finite() {
            x[b] = x[b].max(limit);
        }
    }
    (0..count).map(|v| x[root[v]]).collect()
}

/// Kahn's order of the blocks. The block graph has no cycle, since blocks
/// never cross; should one ever appear, its blocks are appended in index
/// order rather than dropped.
fn topological(roots: &[usize], right: &[Vec<(usize, f64)>], entering: &mut [usize]) -> Vec<usize> {
    let mut order = Vec::with_capacity(roots.len());
    let mut ready: Vec<usize> = roots.iter().copied().filter(|&b| entering[b] == 0).collect();
    let mut placed = vec![false; entering.len()];
    while let Some(b) = ready.pop() {
        placed[b] = true;
        order.push(b);
        for &(next, _) in &right[b] {
            entering[next] = entering[next].saturating_sub(1);
            if entering[next] == 0 && !placed[next] {
                ready.push(next);
            }
        }
    }
    if order.len() < roots.len() {
        order.extend(roots.iter().copied().filter(|&b| !placed[b]));
    }
    order
}

/// Shifts the four candidates onto the narrowest one (left-leaning ones by
/// their left edge, right-leaning ones by their right edge), then gives
/// each vertex the mean of its two middle candidates.
fn balance(graph: &Proper, candidates: Vec<(Horizontal, Vec<f64>)>) -> Vec<f64> {
    let extent = |xs: &[f64]| {
        let mut low = f64::INFINITY;
        let mut high = f64::NEG_INFINITY;
        for (v, &x) in xs.iter().enumerate() {
            let half = graph.vertices[v].width / 2.0;
            low = low.min(x - half);
            high = high.max(x + half);
        }
        (low, high)
    };
    let narrowest = candidates
        .iter()
        .map(|(_, xs)| extent(xs))
        .min_by(|a, b| (a.1 - a.0).total_cmp(&(b.1 - b.0)))
        .unwrap_or((0.0, 0.0));
    let shifted: Vec<Vec<f64>> = candidates
        .into_iter()
        .map(|(horizontal, xs)| {
            let (low, high) = extent(&xs);
            let delta = match horizontal {
                Horizontal::Left => narrowest.0 - low,
                Horizontal::Right => narrowest.1 - high,
            };
            xs.into_iter().map(|x| x + delta).collect()
        })
        .collect();
    (0..graph.vertices.len())
        .map(|v| {
            let mut values: Vec<f64> = shifted.iter().filter_map(|xs| xs.get(v).copied()).collect();
            order::sort_by(&mut values, f64::total_cmp);
            match values.as_slice() {
                [_, a, b, _] => (a + b) / 2.0,
                [only] => *only,
                _ => values.iter().sum::<f64>() / values.len().max(1) as f64,
            }
        })
        .collect()
}
