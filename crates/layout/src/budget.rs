//! The layout's budget: how much work a drawing may take, and what is drawn
//! when the exact drawing would take more.
//!
//! A graph's drawing costs far more than its size in the document says: an
//! edge becomes one dummy vertex per rank it crosses, and crossing
//! reduction and coordinate assignment go over all of them, many times. A
//! few hundred steps with twenty branches each to steps far apart make
//! millions of dummies: minutes and gigabytes of work. So every phase is
//! priced in work units before it runs (one unit per vertex or segment a
//! pass goes over), and the drawing is chosen by price:
//!
//! 1. [`Fidelity::Exact`] when the whole exact drawing, every sweep and
//!    swap it might make included, fits the budget;
//! 2. else [`Fidelity::Simplified`], when its price and what drawing its
//!    edges costs the page fit: each edge gets one dummy vertex, next to
//!    its source (its label's place, so labels still never cover a node),
//!    and runs from there straight to its target, across the ranks
//!    between; crossing reduction sweeps while the budget lasts;
//! 3. else no drawing at all: [`TooDense`], and the callers list the nodes
//!    and their edges instead.

use serde::Serialize;

/// The work units a layout may spend. The most any playbook of the
/// examples, the tests and the benchmarks could cost drawn exactly is about
/// 3.2 million (a random DAG of 1,000 nodes, most of it the adjacent swaps
/// it might make); 150 steps with 8 branches each to steps far apart would
/// cost about 10 million exactly and cost 3.7 million simplified, most of
/// it the page's (drawing 1,200 edges); 200 steps with 20 branches each
/// would cost hundreds of millions exactly and 12.5 million simplified, and
/// are listed. At the native build's 10 to 40 million units a second, no
/// layout takes more than about half a second; a page runs it in slices.
pub const BUDGET: u64 = 6_000_000;

/// The price of each edge of a simplified drawing, for the page that shows
/// it: a path and a label across much of the drawing, which Chromium takes
/// about a tenth of a millisecond to read, style and lay out, and longer to
/// paint. So a simplified drawing has at most about 2,000 edges (each
/// crossing many others: not a drawing anyone reads); a graph with more
/// crossing edges than that is listed instead.
pub const DRAWN_EDGE: u64 = 3_000;

/// How faithfully a drawing follows the layered layout the module
/// describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fidelity {
    /// Every phase in full: edges bend round every node and label, and
    /// crossings are reduced as far as the search goes.
    Exact,
    /// Within the budget only by simplifying: an edge that spans several
    /// ranks is drawn from just below its source straight to its target,
    /// and may pass behind the nodes between; crossing reduction may stop
    /// early.
    Simplified,
}

/// A graph too dense to draw even simplified within the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TooDense {
    /// The units the simplified drawing would have needed.
    pub needed: u64,
    /// The units the layout had.
    pub budget: u64,
}

/// Why there is no drawing, which a caller says before it lists the nodes
/// and their edges instead.
impl std::fmt::Display for TooDense {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("too many crossing edges to draw")
    }
}

/// The units spent so far, against the budget.
#[derive(Debug)]
pub(super) struct Work {
    spent: u64,
    budget: u64,
}

impl Work {
    pub fn new(budget: u64) -> Work {
        Work { spent: 0, budget }
    }

    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Whether `units` more stay within the budget.
    pub fn affords(&self, units: u64) -> bool {
        self.spent.saturating_add(units) <= self.budget
    }

    pub fn spend(&mut self, units: u64) {
        self.spent = self.spent.saturating_add(units);
    }
}

/// The size of a graph whose edges join neighbouring ranks only, and the
/// price of each phase over it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extent {
    /// Vertices: the nodes and the dummies.
    pub vertices: u64,
    /// Segments between neighbouring ranks.
    pub segments: u64,
}

/// Brandes–Köpf goes over the graph ten times: once for its conflicts,
/// twice for each of its four alignments (aligning, then compacting), and
/// once more to balance them.
const COORDINATE_PASSES: u64 = 10;

impl Extent {
    /// One pass over every vertex and segment.
    pub fn pass(self) -> u64 {
        self.vertices.saturating_add(self.segments)
    }

    /// Building the graph, its first order, counting its crossings once,
    /// coordinates and routes: what every drawing of it costs.
    pub fn fixed(self) -> u64 {
        self.pass().saturating_mul(3 + COORDINATE_PASSES).saturating_add(self.segments)
    }

    /// One sweep of crossing reduction and the count of crossings after it.
    pub fn sweep(self) -> u64 {
        self.pass().saturating_add(self.segments)
    }

    /// Coordinates and routes, the phases after crossing reduction.
    pub fn coordinates(self) -> u64 {
        self.pass().saturating_mul(1 + COORDINATE_PASSES)
    }

    /// The price of a simplified drawing of this size with `edges` edges,
    /// whose exact drawing would be `exact`: what every drawing costs, and
    /// what drawing its edges costs the page that shows it. Drawn straight,
    /// an edge still crosses every rank between its ends (one segment each
    /// in the exact drawing), which the page pays for in painting; and each
    /// is a path and a label the page reads, styles and lays out
    /// ([`DRAWN_EDGE`]).
    pub fn simplified(self, exact: Extent, edges: u64) -> u64 {
        self.fixed().saturating_add(exact.segments).saturating_add(edges.saturating_mul(DRAWN_EDGE))
    }
}
