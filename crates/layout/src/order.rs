//! Crossing reduction: the order of the vertices within each rank.

use super::budget::Work;
use super::{Proper, Role};
use opb_syntax::{order, pause};
use std::future::Future;

/// Sweeps (each one down or one up) at most; the search stops earlier once
/// `PATIENCE` sweeps in a row found no better order.
pub(super) const SWEEPS: u64 = 24;
const PATIENCE: usize = 4;

/// Adjacent swaps cost the product of two vertices' degrees per pair; they
/// run on graphs up to this many vertices (dummies included).
const TRANSPOSE_LIMIT: usize = 4_000;
pub(super) const TRANSPOSE_PASSES: u64 = 4;

/// The vertices of each rank, left to right, with few crossings. A sweep
/// or a pass of swaps runs only while `work` affords it; the caller that
/// wants the full search checks [`most`] first. `pause` is asked after
/// each sweep.
pub(super) async fn order<W: Future<Output = ()>>(
    graph: &Proper,
    work: &mut Work,
    pause: &mut impl FnMut() -> Option<W>,
) -> Vec<Vec<usize>> {
    let size = graph.extent();
    work.spend(size.pass().saturating_add(size.segments));
    let mut layers = initial(graph);
    let mut pos = positions(&layers, graph.vertices.len());
    let mut best = layers.clone();
    let mut fewest = crossings(&layers, &pos, &graph.down);
    let swaps = swap_bound(graph);
    let mut stale = 0;
    for sweep in 0..SWEEPS {
        if fewest == 0 || stale >= PATIENCE || !work.affords(size.sweep()) {
            break;
        }
        work.spend(size.sweep());
        // Ties go left in two sweeps out of four and right in the others,
        // which lets symmetric orders that are stuck swap over.
        let lean = if sweep % 4 >= 2 { Lean::Right } else { Lean::Left };
        if sweep % 2 == 0 {
            for layer in layers.iter_mut().skip(1) {
                reorder(layer, &mut pos, &graph.up, lean);
            }
        } else {
            for layer in layers.iter_mut().rev().skip(1) {
                reorder(layer, &mut pos, &graph.down, lean);
            }
        }
        if let Some(bound) = swaps {
            transpose(&mut layers, &mut pos, graph, bound, work);
        }
        let count = crossings(&layers, &pos, &graph.down);
        if count < fewest {
            fewest = count;
            best.clone_from(&layers);
            stale = 0;
        } else {
            stale += 1;
        }
        pause::ask(pause).await;
    }
    best
}

/// The most `order` may spend on `graph` beyond its fixed cost: every
/// sweep, and every pass of swaps after each.
pub(super) fn most(graph: &Proper) -> u64 {
    let swaps = swap_bound(graph).unwrap_or(0);
    SWEEPS.saturating_mul(
        graph.extent().sweep().saturating_add(TRANSPOSE_PASSES.saturating_mul(swaps)),
    )
}

/// What one pass of adjacent swaps costs at most, when the graph is small
/// enough for swaps: comparing a vertex with its right neighbour costs the
/// products of their degrees up and down, twice (the pair kept and
/// swapped). The right one of each pair is a rank's vertex in the order
/// the pass found it, every vertex but the first, and the left one may be
/// any vertex of the rank (it moves right as it is swapped). So a rank
/// costs at most its largest degree times the sum of the others, each way.
/// Degrees do not change with the order.
fn swap_bound(graph: &Proper) -> Option<u64> {
    if graph.vertices.len() > TRANSPOSE_LIMIT {
        return None;
    }
    // By rank and side: the largest degree, the smallest and their sum.
    let mut degrees = vec![[(0u64, u64::MAX, 0u64); 2]; graph.ranks];
    for (v, vertex) in graph.vertices.iter().enumerate() {
        let Some(rank) = degrees.get_mut(vertex.rank) else { continue };
        for (side, neighbours) in rank.iter_mut().zip([&graph.up, &graph.down]) {
            let d = neighbours[v].len() as u64;
            *side = (side.0.max(d), side.1.min(d), side.2 + d);
        }
    }
    let pairs = degrees.iter().flatten().filter(|side| side.2 > 0);
    let swaps: u64 = pairs.map(|&(largest, smallest, sum)| 2 * largest * (sum - smallest)).sum();
    Some(swaps + graph.vertices.len() as u64)
}

/// A depth-first order from the nodes, by rank and then input order: each
/// vertex goes to the end of its rank when first reached, so a chain and its
/// branches start out side by side in the order the document lists them.
fn initial(graph: &Proper) -> Vec<Vec<usize>> {
    let mut layers = vec![Vec::new(); graph.ranks];
    let mut seen = vec![false; graph.vertices.len()];
    let mut starts: Vec<usize> = (0..graph.vertices.len())
        .filter(|&v| matches!(graph.vertices[v].role, Role::Node(_)))
        .collect();
    order::sort_by_key(&mut starts, |&v| graph.vertices[v].rank);
    // A dummy not reached from a node (one a simplified drawing leaves
    // without a neighbour above) starts a search of its own, after them.
    starts.extend(
        (0..graph.vertices.len()).filter(|&v| !matches!(graph.vertices[v].role, Role::Node(_))),
    );
    for start in starts {
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            if seen[v] {
                continue;
            }
            seen[v] = true;
            if let Some(layer) = layers.get_mut(graph.vertices[v].rank) {
                layer.push(v);
            }
            stack.extend(graph.down[v].iter().rev().filter(|&&w| !seen[w]));
        }
    }
    layers
}

fn positions(layers: &[Vec<usize>], count: usize) -> Vec<usize> {
    let mut pos = vec![0; count];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    pos
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lean {
    Left,
    Right,
}

/// Orders one rank by the barycentre of each vertex's neighbours in the rank
/// just placed. A vertex without such neighbours keeps its place; of two
/// with one barycentre, the one now further towards `lean` goes there.
fn reorder(layer: &mut [usize], pos: &mut [usize], neighbours: &[Vec<usize>], lean: Lean) {
    let mut movable: Vec<(f64, usize, usize)> = Vec::with_capacity(layer.len());
    let mut fixed = vec![false; layer.len()];
    for (i, &v) in layer.iter().enumerate() {
        let around = &neighbours[v];
        if around.is_empty() {
            fixed[i] = true;
        } else {
            let sum: usize = around.iter().map(|&w| pos[w]).sum();
            movable.push((sum as f64 / around.len() as f64, i, v));
        }
    }
    order::sort_by(&mut movable, |a, b| {
        let tie = match lean {
            Lean::Left => a.1.cmp(&b.1),
            Lean::Right => b.1.cmp(&a.1),
        };
        a.0.total_cmp(&b.0).then(tie)
    });
    let mut next = movable.into_iter();
    for (i, slot) in layer.iter_mut().enumerate() {
        if !fixed[i] {
            if let Some((_, _, v)) = next.next() {
                *slot = v;
            }
        }
        pos[*slot] = i;
    }
}

/// Swaps neighbouring vertices while that removes crossings with both
/// neighbouring ranks, a pass at a time while `work` affords `bound`.
fn transpose(
    layers: &mut [Vec<usize>],
    pos: &mut [usize],
    graph: &Proper,
    bound: u64,
    work: &mut Work,
) {
    for _ in 0..TRANSPOSE_PASSES {
        if !work.affords(bound) {
            break;
        }
        let mut improved = false;
        let mut spent = 0u64;
        for layer in layers.iter_mut() {
            spent += layer.len() as u64;
            for i in 1..layer.len() {
                let (u, v) = (layer[i - 1], layer[i]);
                let kept = pair_crossings(u, v, pos, graph);
                let swapped = pair_crossings(v, u, pos, graph);
                spent += kept.1 + swapped.1;
                if swapped.0 < kept.0 {
                    layer.swap(i - 1, i);
                    pos[u] = i;
                    pos[v] = i - 1;
                    improved = true;
                }
            }
        }
        work.spend(spent);
        if !improved {
            break;
        }
    }
}

/// Crossings between the edges of `left` and of `right` when `left` is just
/// left of `right`, and the pairs of edges compared to count them.
fn pair_crossings(left: usize, right: usize, pos: &[usize], graph: &Proper) -> (usize, u64) {
    let side = |neighbours: &[Vec<usize>]| {
        let mut count = 0;
        for &a in &neighbours[left] {
            count += neighbours[right].iter().filter(|&&b| pos[a] > pos[b]).count();
        }
        (count, (neighbours[left].len() * neighbours[right].len()) as u64)
    };
    let (up, down) = (side(&graph.up), side(&graph.down));
    (up.0 + down.0, up.1 + down.1)
}

/// Crossings between every two neighbouring ranks, each pair counted with a
/// Fenwick tree over the lower rank: O(E log V).
pub(super) fn crossings(layers: &[Vec<usize>], pos: &[usize], down: &[Vec<usize>]) -> usize {
    let mut total = 0;
    let mut tree = Vec::new();
    let mut targets = Vec::new();
    for pair in layers.windows(2) {
        let [upper, lower] = pair else { continue };
        tree.clear();
        tree.resize(lower.len() + 1, 0usize);
        let mut inserted = 0usize;
        for &u in upper {
            targets.clear();
            targets.extend(down[u].iter().map(|&v| pos[v]));
            for &p in &targets {
                total += inserted - prefix(&tree, p + 1);
            }
            for &p in &targets {
                add(&mut tree, p + 1);
                inserted += 1;
            }
        }
    }
    total
}

/// How many inserted positions are below `index` (1-based).
fn prefix(tree: &[usize], mut index: usize) -> usize {
    let mut sum = 0;
    while index > 0 {
        sum += tree.get(index).copied().unwrap_or_default();
        index &= index - 1;
    }
    sum
}

fn add(tree: &mut [usize], mut index: usize) {
    while let Some(slot) = tree.get_mut(index) {
        *slot += 1;
        index += index & index.wrapping_neg();
    }
}
