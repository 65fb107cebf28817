//! A paused analysis: the page's way of checking a large text without
//! freezing (see `opb_core::pause`).

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
