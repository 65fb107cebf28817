//! Pauses in a long read or layout, for callers that must not be held by
//! one.
//!
//! A browser page runs the core on the thread that also handles the reader's
//! keys: a check of a large YAML text (a 5 MB playbook takes about 100 ms in
//! Chromium), or the layout of a dense graph, would freeze the page for all
//! of it. `opb_core::analyze_pausing` therefore asks its caller, every
//! [`EVERY_EVENTS`] YAML events and between its phases, whether to pause,
//! and the graph layout (`layout_pausing`) between its phases and sweeps:
//! the caller answers `None` to go on, or a future to await first (a page's
//! timer, which lets the browser handle input). An `async fn` keeps the
//! work's state, borrowed text and all, across the pauses. [`Slices`] is the
//! clock that decides when, given the page's time.
//!
//! The core knows no clock and no executor: [`never()`] goes on at once, and
//! [`at_once`] runs such work to its end where it stands, which is how
//! `opb_core::analyze` and `opb_core::check` read.

use std::cell::Cell;
use std::future::{Future, Ready};
use std::pin::{pin, Pin};
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

/// How long a slice of work runs before the page gets a turn: well under
/// the 100 ms a page may be held, with room for the parts of the work that
/// are not sliced (a check's rules and explain view).
pub const SLICE_MS: f64 = 30.0;

/// The clock of work run in slices (a check, a view): when to pause, how
/// long it worked, its pauses apart, and in how many slices. `clock` reads
/// the time in milliseconds (a page's `performance.now()`); it is given
/// rather than read here so that the pacing is plain Rust, tested with a
/// clock the test moves.
pub struct Slices<Clock> {
    clock: Clock,
    started: f64,
    slice_started: Cell<f64>,
    paused: Cell<f64>,
    count: Cell<u32>,
}

impl<Clock: Fn() -> f64> Slices<Clock> {
    /// The clock of work whose first slice starts now.
    pub fn new(clock: Clock) -> Slices<Clock> {
        let now = clock();
        Slices {
            clock,
            started: now,
            slice_started: Cell::new(now),
            paused: Cell::new(0.0),
            count: Cell::new(1),
        }
    }

    /// The work's pause (what [`ask`] asks): once the slice has run its
    /// time, `turn` (a turn of the page's event loop), after which the next
    /// slice starts; before that, `None`, and `turn` is not made.
    pub fn pause<'s, Turn: Future<Output = ()> + 's>(
        &'s self,
        turn: impl FnOnce() -> Turn + 's,
    ) -> Option<impl Future<Output = ()> + 's> {
        let stopped = (self.clock)();
        if stopped - self.slice_started.get() < SLICE_MS {
            return None;
        }
        Some(async move {
            turn().await;
            let resumed = (self.clock)();
            self.paused.set(self.paused.get() + resumed - stopped);
            self.slice_started.set(resumed);
            self.count.set(self.count.get() + 1);
        })
    }

    /// The time worked so far, in milliseconds.
    pub fn working(&self) -> f64 {
        (self.clock)() - self.started - self.paused.get()
    }

    /// How many slices the work has run in so far.
    pub fn count(&self) -> u32 {
        self.count.get()
    }
}

/// A turn for a caller that polls the work itself: pending once (the poll
/// returns, and the caller lets the page run before it polls again), then
/// ready. It wakes its waker, so an executor polls it again too.
#[derive(Debug, Default)]
pub struct Turn {
    taken: bool,
}

impl Future for Turn {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.taken {
            return Poll::Ready(());
        }
        self.taken = true;
        context.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    /// Runs a pause to its end; the tests' turns are ready at once.
    fn take(pause: impl Future<Output = ()>) {
        let mut pause = pin!(pause);
        let mut context = Context::from_waker(Waker::noop());
        assert!(pause.as_mut().poll(&mut context).is_ready());
    }

    /// A turn of the event loop that takes `ms` of the test's clock.
    fn turn_taking(now: &Cell<f64>, ms: f64) -> impl FnOnce() -> std::future::Ready<()> + '_ {
        move || {
            now.set(now.get() + ms);
            std::future::ready(())
        }
    }

    #[test]
    fn a_slice_pauses_only_after_slice_ms_of_work() {
        let now = Cell::new(1_000.0);
        let slices = Slices::new(|| now.get());
        let turns = Cell::new(0);
        let counted_turn = || {
            turns.set(turns.get() + 1);
            std::future::ready(())
        };
        assert!(slices.pause(counted_turn).is_none());
        now.set(1_000.0 + SLICE_MS - 0.5);
        assert!(slices.pause(counted_turn).is_none());
        assert_eq!(turns.get(), 0, "a pause not taken makes no turn");
        now.set(1_000.0 + SLICE_MS);
        take(slices.pause(counted_turn).expect("the slice has run its time"));
        assert_eq!(turns.get(), 1);
    }

    #[test]
    fn the_next_slice_is_timed_from_the_end_of_the_pause() {
        let now = Cell::new(0.0);
        let slices = Slices::new(|| now.get());
        now.set(SLICE_MS);
        take(slices.pause(turn_taking(&now, 200.0)).expect("first slice done"));
        let resumed = SLICE_MS + 200.0;
        now.set(resumed + SLICE_MS - 0.5);
        assert!(slices.pause(turn_taking(&now, 200.0)).is_none());
        now.set(resumed + SLICE_MS);
        assert!(slices.pause(turn_taking(&now, 200.0)).is_some());
    }

    #[test]
    fn paused_time_is_not_working_time() {
        let now = Cell::new(100.0);
        let slices = Slices::new(|| now.get());
        assert_eq!(slices.working(), 0.0);
        now.set(140.0);
        assert_eq!(slices.working(), 40.0);
        take(slices.pause(turn_taking(&now, 500.0)).expect("40 ms is a slice"));
        assert_eq!(now.get(), 640.0);
        assert_eq!(slices.working(), 40.0);
        now.set(650.0);
        assert_eq!(slices.working(), 50.0);
        now.set(690.0);
        take(slices.pause(turn_taking(&now, 250.0)).expect("40 ms is a slice"));
        now.set(950.0);
        assert_eq!(slices.working(), 100.0);
    }

    #[test]
    fn each_pause_taken_adds_a_slice() {
        let now = Cell::new(0.0);
        let slices = Slices::new(|| now.get());
        assert_eq!(slices.count(), 1);
        assert!(slices.pause(turn_taking(&now, 5.0)).is_none());
        assert_eq!(slices.count(), 1, "no pause, the same slice");
        for taken in 1..=3 {
            now.set(now.get() + SLICE_MS);
            let pause = slices.pause(turn_taking(&now, 5.0)).expect("the slice has run its time");
            assert_eq!(slices.count(), taken, "counted once the page has had its turn");
            take(pause);
            assert_eq!(slices.count(), taken + 1);
        }
    }

    #[test]
    fn a_turn_is_pending_once_and_asks_to_be_polled_again() {
        /// A waker that counts its wakes.
        struct Count(AtomicUsize);
        impl Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::Relaxed);
            }
        }
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(woken.clone());
        let mut turn = pin!(Turn::default());
        let mut context = Context::from_waker(&waker);
        assert!(turn.as_mut().poll(&mut context).is_pending());
        assert_eq!(woken.0.load(Ordering::Relaxed), 1);
        assert!(turn.as_mut().poll(&mut context).is_ready());
    }
}
