//! The graph layout of playbooks: an example's step graph reads top down
//! between its markers, and dense playbooks, as a red team wrote them to
//! stall it (`benches/dense.rs`), are each laid out within the budget,
//! drawn simplified or refused with its price, never laid out exactly at a
//! cost of millions of dummy vertices. The engine's own tests are
//! opb-layout's.

#[path = "../benches/dense.rs"]
mod dense;
// Its manifests have no graph to lay out.
#[allow(dead_code)]
#[path = "../benches/generate.rs"]
mod generate;

use opb_core::explain::layout::{self, Fidelity, NodeBox, NodeSpec, Shape, Size, Spacing, BUDGET};
use opb_core::explain::{Explain, Graph};
use opb_core::{analyze, Options};

fn graph_of(text: &str) -> Graph {
    match analyze(text, &Options::default()).explain {
        Some(Explain::Playbook(explain)) => explain.graph,
        other => panic!("not a playbook: {other:?}"),
    }
}

/// Whether two boxes share any area.
fn overlaps(a: &NodeBox, b: &NodeBox) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/// Lays `graph` out with gates the playground's size.
fn lay_out(graph: &Graph) -> Result<layout::GraphLayout, layout::TooDense> {
    let gate = NodeSpec { size: Size::new(150.0, 84.0), shape: Shape::Diamond };
    let label = |text: &str| Size::new(7.0 * text.len() as f64 + 16.0, 20.0);
    let specs = vec![gate; graph.nodes.len()];
    layout::playbook(graph, &specs, label, Size::new(58.0, 24.0), &Spacing::default())
}

#[test]
fn dense_playbooks_are_drawn_simplified_within_the_budget() {
    for (steps, branches) in [(150, 8), (200, 8), (500, 3)] {
        let graph = graph_of(&dense::playbook(steps, branches));
        assert_eq!(graph.edges.len(), steps * branches);
        let drawn = lay_out(&graph).expect("drawn");
        assert_eq!(drawn.fidelity, Fidelity::Simplified, "{steps} by {branches}");
        assert!(drawn.work <= BUDGET, "{} units for {steps} by {branches}", drawn.work);
        assert_eq!(drawn.nodes.len(), steps);
        assert!(drawn.edges.iter().all(|route| !route.points.is_empty()), "every edge routed");
    }
}

#[test]
fn playbooks_too_dense_to_draw_are_refused_with_their_price() {
    for (steps, branches) in [(200, 20), (1_000, 20), (2_000, 3)] {
        let graph = graph_of(&dense::playbook(steps, branches));
        let refused = lay_out(&graph).expect_err("too dense");
        assert_eq!(refused.budget, BUDGET);
        assert!(refused.needed > BUDGET, "{steps} by {branches}: {refused:?}");
    }
}

#[test]
fn the_examples_and_generated_playbooks_are_drawn_exactly() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut texts: Vec<String> = std::fs::read_dir(examples)
        .expect("examples")
        .map(|entry| std::fs::read_to_string(entry.expect("an entry").path()).expect("text"))
        .collect();
    texts.extend([10, 100, 1_000, 2_000].map(generate::playbook));
    let mut drawn = 0;
    for text in &texts {
        if let Some(Explain::Playbook(explain)) = analyze(text, &Options::default()).explain {
            assert_eq!(lay_out(&explain.graph).map(|d| d.fidelity), Ok(Fidelity::Exact));
            drawn += 1;
        }
    }
    assert_eq!(drawn, 6, "two examples and four generated playbooks");
}

#[test]
fn the_example_playbook_reads_top_down_with_its_markers() {
    let text = include_str!("../../../examples/failed-charge-recovery.json");
    let Some(Explain::Playbook(explain)) = analyze(text, &Options::default()).explain else {
        panic!("a playbook")
    };
    let graph = &explain.graph;
    let specs: Vec<NodeSpec> = graph
        .nodes
        .iter()
        .map(|n| match n.kind.as_deref() {
            Some("gate") => NodeSpec { size: Size::new(110.0, 64.0), shape: Shape::Diamond },
            _ => NodeSpec { size: Size::new(120.0, 48.0), shape: Shape::Rect },
        })
        .collect();
    let drawn = layout::playbook(
        graph,
        &specs,
        |label| Size::new(label.len() as f64 * 7.0 + 16.0, 20.0),
        Size::new(18.0, 18.0),
        &Spacing::default(),
    )
    .expect("within the budget");
    let rank = |id: &str| graph.nodes.iter().position(|n| n.id == id).map(|i| drawn.nodes[i].rank);
    assert_eq!(
        ["recover", "gate", "send", "record"].map(rank),
        [Some(1), Some(2), Some(3), Some(4)],
        "the start marker takes the top rank"
    );
    let start = drawn.start.as_ref().expect("a start marker");
    assert_eq!(start.step, "recover");
    assert_eq!(start.at.rank, 0);
    assert_eq!(
        drawn.ends.iter().map(|t| (t.step.as_str(), t.at.rank)).collect::<Vec<_>>(),
        [("record", 5)]
    );
    assert_eq!(drawn.edges.len(), graph.edges.len());
    assert!(graph
        .edges
        .iter()
        .zip(&drawn.edges)
        .all(|(e, r)| e.label.is_some() == r.label.is_some()));
    let mut all = drawn.nodes.clone();
    all.push(start.at);
    all.extend(drawn.ends.iter().map(|t| t.at));
    for (i, a) in all.iter().enumerate() {
        assert!(all.iter().skip(i + 1).all(|b| !overlaps(a, b)));
    }
}
