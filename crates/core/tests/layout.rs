//! The graph layout of dense playbooks, as a red team wrote them to stall
//! it (`benches/dense.rs`): every one is laid out within the budget, drawn
//! simplified or refused with its price, never laid out exactly at a cost
//! of millions of dummy vertices.

#[path = "../benches/dense.rs"]
mod dense;
// Its manifests have no graph to lay out.
#[allow(dead_code)]
#[path = "../benches/generate.rs"]
mod generate;

use opb_core::explain::layout::{self, Fidelity, NodeSpec, Shape, Size, Spacing, BUDGET};
use opb_core::explain::{Explain, Graph};
use opb_core::{analyze, Options};

fn graph_of(text: &str) -> Graph {
    match analyze(text, &Options::default()).explain {
        Some(Explain::Playbook(explain)) => explain.graph,
        other => panic!("not a playbook: {other:?}"),
    }
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
