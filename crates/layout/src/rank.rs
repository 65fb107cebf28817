//! Layering: which edges are turned round so the graph has no cycle, and
//! each node's rank.

use super::EdgeSpec;
use opb_syntax::order;

/// An edge as laid out: from its upper end down to its lower end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Oriented {
    /// Position of the edge in the input.
    pub edge: usize,
    pub upper: usize,
    pub lower: usize,
    /// Whether `upper` is the edge's target.
    pub reversed: bool,
}

#[derive(Debug)]
pub(super) struct Layering {
    /// Every edge between two existing, different nodes, pointing down.
    pub edges: Vec<Oriented>,
    /// Each node's rank. Ranks are even: an edge spans at least two, and the
    /// odd ranks between hold its bends and label.
    pub rank: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    OnPath,
    Done,
}

/// Ranks `n` nodes joined by `edges`.
///
/// The edges the caller marks as back edges are turned round first; a
/// depth-first search (from `root`, then from each node not yet reached, in
/// order) turns round any edge that still closes a cycle. Turning round a
/// search's back edges leaves no cycle, since every other edge goes from a
/// node that the search finishes later to one it finishes earlier; the
/// reverse finishing order is then a topological order.
pub(super) fn layer(n: usize, edges: &[EdgeSpec], root: Option<usize>) -> Layering {
    let mut oriented: Vec<Oriented> = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.from < n && e.to < n && e.from != e.to)
        .map(|(edge, e)| match e.back {
            true => Oriented { edge, upper: e.to, lower: e.from, reversed: true },
            false => Oriented { edge, upper: e.from, lower: e.to, reversed: false },
        })
        .collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, o) in oriented.iter().enumerate() {
        out[o.upper].push(k);
    }

    let mut visit = vec![Visit::New; n];
    let mut turn = vec![false; oriented.len()];
    let mut finished = Vec::with_capacity(n);
    for start in root.into_iter().chain(0..n) {
        if visit[start] != Visit::New {
            continue;
        }
        visit[start] = Visit::OnPath;
        // Each frame: a node and how many of its edges were followed.
        let mut stack = vec![(start, 0usize)];
        while let Some(frame) = stack.last_mut() {
            let node = frame.0;
            match out[node].get(frame.1).copied() {
                Some(k) => {
                    frame.1 += 1;
                    let next = oriented[k].lower;
                    match visit[next] {
                        Visit::New => {
                            visit[next] = Visit::OnPath;
                            stack.push((next, 0));
                        }
                        Visit::OnPath => turn[k] = true,
                        Visit::Done => {}
                    }
                }
                None => {
                    visit[node] = Visit::Done;
                    finished.push(node);
                    stack.pop();
                }
            }
        }
    }
    for (o, _) in oriented.iter_mut().zip(&turn).filter(|(_, t)| **t) {
        *o = Oriented { edge: o.edge, upper: o.lower, lower: o.upper, reversed: !o.reversed };
    }

    let mut below: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut has_above = vec![false; n];
    for o in &oriented {
        below[o.upper].push(o.lower);
        has_above[o.lower] = true;
    }
    // Longest path from the sources, in topological order.
    let mut rank = vec![0usize; n];
    for &node in finished.iter().rev() {
        let next = rank[node] + 2;
        for &lower in &below[node] {
            rank[lower] = rank[lower].max(next);
        }
    }
    // A source other than the root sits just above its nearest successor
    // rather than on the top rank, so a side entry stays beside what it
    // leads to. Only sources move, and no source is another's successor, so
    // one pass in any order is enough.
    for node in 0..n {
        if !has_above[node] && Some(node) != root {
            if let Some(nearest) = below[node].iter().map(|&b| rank[b]).min() {
                rank[node] = nearest.saturating_sub(2);
            }
        }
    }
    Layering { edges: oriented, rank: compact(rank) }
}

/// Renumbers the ranks in use as 0, 2, 4, … in the same order, so no rank
/// is left empty. Edges keep spanning at least two ranks.
fn compact(rank: Vec<usize>) -> Vec<usize> {
    let mut used: Vec<usize> = rank.clone();
    order::sort(&mut used);
    used.dedup();
    rank.iter().map(|r| used.binary_search(r).unwrap_or_default() * 2).collect()
}
