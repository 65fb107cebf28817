//! Pauses in a long read, for callers that must not be held by one.
//!
//! A browser page runs the core on the thread that also handles the reader's
//! keys: a check of a large YAML text (a 5 MB playbook takes about 100 ms in
//! Chromium) would freeze the page for all of it. [`crate::analyze_pausing`]
//! therefore asks its caller, every [`EVERY_EVENTS`] YAML events and between
//! its phases, whether to pause: the caller answers `None` to go on, or a
//! future to await first (a page's timer, which lets the browser handle
//! input). An `async fn` keeps the read's state, borrowed text and all,
//! across the pauses.
//!
//! The core knows no clock and no executor: [`never`] goes on at once, and
//! [`at_once`] runs such a read to its end where it stands, which is how
//! [`crate::analyze`] and [`crate::check`] read.

use std::future::{Future, Ready};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// How many YAML events are read between two questions to the caller: a
/// question is a call (a clock read in a page); the events between two take
/// well under a millisecond.
pub const EVERY_EVENTS: usize = 512;

/// The answer of a caller that never pauses.
pub fn never() -> Option<Ready<()>> {
    None
}

/// Asks `pause` whether to pause, and awaits its answer when it gives one.
pub(crate) async fn ask<W: Future<Output = ()>>(pause: &mut impl FnMut() -> Option<W>) {
    if let Some(wait) = pause() {
        wait.await;
    }
}

/// Runs a future whose every pause is [`never`] to its end, here and now.
pub(crate) fn at_once<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        // Nothing in the core awaits anything but the caller's pauses.
        Poll::Pending => unreachable!("a read without pauses finishes when first polled"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A pause that is pending when first polled, as a timer is.
    struct Turn(bool);

    impl Future for Turn {
        type Output = ();
        fn poll(mut self: std::pin::Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                context.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }

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
        let options = crate::Options::default();
        let asked = Cell::new(0);
        let pause = || {
            asked.set(asked.get() + 1);
            Some(Turn(false))
        };
        let (paused, polls) = run(crate::analyze_pausing(&text, &options, pause));
        assert!(asked.get() > text.len() / 20 / EVERY_EVENTS, "asked {} times", asked.get());
        assert_eq!(polls, asked.get() + 1, "each pause is awaited");
        let whole = crate::analyze(&text, &options);
        assert_eq!(serde_json::to_value(&paused).ok(), serde_json::to_value(&whole).ok());
        assert!(paused.explain.is_some());
    }

    #[test]
    fn a_caller_that_never_pauses_is_answered_at_once() {
        let text = large_yaml(100);
        let (analysis, polls) = run(crate::analyze_pausing(&text, &crate::Options::default(), never));
        assert_eq!(polls, 1);
        assert_eq!(analysis.checked.kind, Some(crate::Kind::Playbook));
    }
}
