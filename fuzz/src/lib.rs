//! What the fuzz targets share: the invariants the core's tests hold every
//! check to (one file, included from the core's tests), and the calls each
//! target makes.

#[path = "../../crates/core/tests/support/invariants.rs"]
pub mod invariants;

use opb_core::explain::layout::{self, NodeSpec, Shape, Size, Spacing};
use opb_core::explain::Explain;
use opb_core::{analyze, check, Kind, Options, Syntax};
use std::borrow::Cow;

/// The text the core gets from fuzzer bytes. The CLI refuses a file that is
/// not UTF-8 before the core sees it, so invalid sequences are replaced
/// rather than skipped: every input still reaches the parsers.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// The kinds a reader can choose: detected, or forced either way.
pub const KINDS: [Option<Kind>; 3] = [None, Some(Kind::Playbook), Some(Kind::PluginManifest)];

/// Checks `text` and holds the result to the invariants.
pub fn check_holds(text: &str, syntax: Option<Syntax>, kind: Option<Kind>) {
    let options = Options { syntax, kind, ..Options::default() };
    let checked = check(text, &options);
    invariants::assert_checked(text, &options, &checked);
}

/// Analyses `text` (check and explain), holds the result to the
/// invariants, and lays out a playbook's graph as the playground draws it.
pub fn analyze_holds(text: &str, syntax: Option<Syntax>, kind: Option<Kind>) {
    let options = Options { syntax, kind, ..Options::default() };
    let analysis = analyze(text, &options);
    invariants::assert_analysis(text, &options, &analysis);
    if let Some(Explain::Playbook(explain)) = &analysis.explain {
        layout_holds(&explain.graph);
    }
}

/// Lays out a step graph with sizes like the playground's (a label's width
/// grows with its text) and checks the drawing: within the layout's budget,
/// a box per node and a route per edge, every coordinate finite; or, too
/// dense to draw, a price over the budget.
fn layout_holds(graph: &opb_core::explain::Graph) {
    let specs: Vec<NodeSpec> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| NodeSpec {
            size: Size::new(40.0 + 7.0 * node.id.chars().count() as f64, 32.0),
            shape: if i % 3 == 0 { Shape::Diamond } else { Shape::Rect },
        })
        .collect();
    let label = |text: &str| Size::new(7.0 * text.chars().count() as f64, 14.0);
    let drawn =
        match layout::playbook(graph, &specs, label, Size::new(20.0, 20.0), &Spacing::default()) {
            Ok(drawn) => drawn,
            Err(dense) => {
                assert!(dense.needed > dense.budget, "{dense:?}");
                return;
            }
        };
    assert!(drawn.work <= layout::BUDGET, "{} units", drawn.work);
    assert_eq!(drawn.nodes.len(), graph.nodes.len(), "a box per node");
    assert_eq!(drawn.edges.len(), graph.edges.len(), "a route per edge");
    let finite = |v: f64| v.is_finite();
    assert!(finite(drawn.width) && finite(drawn.height), "size {} x {}", drawn.width, drawn.height);
    for node in &drawn.nodes {
        assert!([node.x, node.y, node.width, node.height].into_iter().all(finite), "{node:?}");
    }
    let routes = drawn
        .edges
        .iter()
        .chain(drawn.start.iter().map(|t| &t.edge))
        .chain(drawn.ends.iter().map(|t| &t.edge));
    for route in routes {
        assert!(
            route.points.iter().chain(&route.label).all(|p| finite(p.x) && finite(p.y)),
            "{route:?}"
        );
    }
}
