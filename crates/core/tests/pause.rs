//! A paused analysis and a paused layout: the page's way of checking a
//! large text and drawing a dense graph without freezing (see
//! `opb_core::pause`).

#[path = "../benches/dense.rs"]
mod dense;

use opb_core::explain::layout::{self, NodeSpec, Shape, Size, Spacing};
use opb_core::explain::Explain;
use opb_core::pause::{never, Turn, EVERY_EVENTS};
use opb_core::{analyze, analyze_pausing, Kind, Options};
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Polls `future` until it is ready; returns its output and how many
/// polls it took.
fn run<F: Future>(future: F) -> (F::Output, usize) {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for polls in 1.. {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return (output, polls);
        }
    }
    unreachable!()
}

fn large_yaml(steps: usize) -> String {
    let mut text = String::from("openplaybook: \"1.6\"\nid: large\nsteps:\n");
    for i in 0..steps {
        text.push_str(&format!("  - id: s{i}\n    kind: gate\n    next: s{}\n", i + 1));
    }
    text.push_str(&format!("  - id: s{steps}\n    kind: end\n"));
    text
}

#[test]
fn a_paused_analysis_finds_what_an_unpaused_one_finds() {
    let text = large_yaml(2_000);
    let options = Options::default();
    let asked = Cell::new(0);
    let pause = || {
        asked.set(asked.get() + 1);
        Some(Turn::default())
    };
    let (paused, polls) = run(analyze_pausing(&text, &options, pause));
    assert!(asked.get() > text.len() / 20 / EVERY_EVENTS, "asked {} times", asked.get());
    assert_eq!(polls, asked.get() + 1, "each pause is awaited");
    let whole = analyze(&text, &options);
    assert_eq!(serde_json::to_value(&paused).ok(), serde_json::to_value(&whole).ok());
    assert!(paused.explain.is_some());
}

#[test]
fn a_caller_that_never_pauses_is_answered_at_once() {
    let text = large_yaml(100);
    let (analysis, polls) = run(analyze_pausing(&text, &Options::default(), never));
    assert_eq!(polls, 1);
    assert_eq!(analysis.checked.kind, Some(Kind::Playbook));
}

#[test]
fn a_layout_that_pauses_draws_what_one_at_once_draws() {
    let example = include_str!("../../../examples/failed-charge-recovery.json");
    for text in [example.to_owned(), dense::playbook(60, 6), dense::playbook(150, 8)] {
        let Some(Explain::Playbook(explain)) = analyze(&text, &Options::default()).explain else {
            panic!("a playbook")
        };
        let graph = &explain.graph;
        let specs = vec![
            NodeSpec { size: Size::new(150.0, 84.0), shape: Shape::Diamond };
            graph.nodes.len()
        ];
        let label = |text: &str| Size::new(7.0 * text.len() as f64 + 16.0, 20.0);
        let (terminal, spacing) = (Size::new(58.0, 24.0), Spacing::default());
        let at_once = layout::playbook(graph, &specs, label, terminal, &spacing);
        let asked = Cell::new(0);
        let pause = || {
            asked.set(asked.get() + 1);
            Some(Turn::default())
        };
        let (paused, polls) =
            run(layout::playbook_pausing(graph, &specs, label, terminal, &spacing, pause));
        assert_eq!(paused, at_once);
        assert!(at_once.is_ok_and(|drawn| drawn.work > 0));
        assert!(asked.get() >= 6, "asked between the phases and alignments: {}", asked.get());
        assert_eq!(polls, asked.get() + 1, "each pause is awaited");
    }
}
