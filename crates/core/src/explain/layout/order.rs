//! Crossing reduction: the order of the vertices within each rank.

use super::{Proper, Role};
use opb_syntax::order;

/// Sweeps (each one down or one up) at most; the search stops earlier once
/// `PATIENCE` sweeps in a row found no better order.
const SWEEPS: usize = 24;
const PATIENCE: usize = 4;

/// Adjacent swaps cost the product of two vertices' degrees per pair; they
/// run on graphs up to this many vertices (dummies included).
const TRANSPOSE_LIMIT: usize = 4_000;
const TRANSPOSE_PASSES: usize = 4;

/// The vertices of each rank, left to right, with few crossings.
pub(super) fn order(graph: &Proper) -> Vec<Vec<usize>> {
    let mut layers = initial(graph);
    let mut pos = positions(&layers, graph.vertices.len());
    let mut best = layers.clone();
    let mut fewest = crossings(&layers, &pos, &graph.down);
    let small = graph.vertices.len() <= TRANSPOSE_LIMIT;
    let mut stale = 0;
    for sweep in 0..SWEEPS {
        if fewest == 0 || stale >= PATIENCE {
            break;
        }
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
        if small {
            transpose(&mut layers, &mut pos, graph);
        }
        let count = crossings(&layers, &pos, &graph.down);
        if count < fewest {
            fewest = count;
            best.clone_from(&layers);
            stale = 0;
        } else {
            stale += 1;
        }
    }
    best
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
    // Every dummy hangs below a node, so starting from the nodes reaches all.
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
/// neighbouring ranks.
fn transpose(layers: &mut [Vec<usize>], pos: &mut [usize], graph: &Proper) {
    for _ in 0..TRANSPOSE_PASSES {
        let mut improved = false;
        for layer in layers.iter_mut() {
            for i in 1..layer.len() {
                let (u, v) = (layer[i - 1], layer[i]);
                let kept = pair_crossings(u, v, pos, graph);
                let swapped = pair_crossings(v, u, pos, graph);
                if swapped < kept {
                    layer.swap(i - 1, i);
                    pos[u] = i;
                    pos[v] = i - 1;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// Crossings between the edges of `left` and of `right` when `left` is just
/// left of `right`.
fn pair_crossings(left: usize, right: usize, pos: &[usize], graph: &Proper) -> usize {
    let side = |neighbours: &[Vec<usize>]| {
        let mut count = 0;
        for &a in &neighbours[left] {
            count += neighbours[right].iter().filter(|&&b| pos[a] > pos[b]).count();
        }
        count
    };
    side(&graph.up) + side(&graph.down)
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
