//! Pauses in a long read, for callers that must not be held by one.
//!
//! A browser page runs the core on the thread that also handles the reader's
//! keys: a check of a large YAML text (a 5 MB playbook takes about 100 ms in
//! Chromium) would freeze the page for all of it. `opb_core::analyze_pausing`
//! therefore asks its caller, every [`EVERY_EVENTS`] YAML events and between
//! its phases, whether to pause: the caller answers `None` to go on, or a
//! future to await first (a page's timer, which lets the browser handle
//! input). An `async fn` keeps the read's state, borrowed text and all,
//! across the pauses.
//!
//! The core knows no clock and no executor: [`never()`] goes on at once, and
//! [`at_once`] runs such a read to its end where it stands, which is how
//! `opb_core::analyze` and `opb_core::check` read.

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
pub async fn ask<W: Future<Output = ()>>(pause: &mut impl FnMut() -> Option<W>) {
    if let Some(wait) = pause() {
        wait.await;
    }
}

/// Runs a future whose every pause is [`never()`] to its end, here and now.
pub fn at_once<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        // Nothing in the core awaits anything but the caller's pauses.
        Poll::Pending => unreachable!("a read without pauses finishes when first polled"),
    }
}
