//! When the editor's text is checked, and how a large text's check is
//! paced: which texts are large, how long after an edit each is checked, and
//! the clock of a check run in slices. Plain Rust, tested natively; the app
//! (`src/ui/app.rs`) gives it the page's clock (`performance.now()`) and its
//! turn of the event loop (a zero-delay timer).

use std::cell::Cell;
use std::future::Future;

/// Texts from this length (UTF-16 units) on take long enough to check that
/// the status bar says a check is coming.
pub const LARGE: u32 = 256 * 1024;

/// Whether a text of `length` UTF-16 units is large ([`LARGE`]): the status
/// bar says its check is coming, and it is checked in slices ([`Slices`]).
pub fn is_large(length: u32) -> bool {
    length >= LARGE
}

/// How long after the last edit the text is checked: ordinary documents at
/// once (their check takes milliseconds, and issue 7 asks for updated
/// diagnostics within a frame of the key); large ones wait, so typing in
/// them is not slowed by a check per key.
pub fn debounce_ms(length: u32) -> Option<u32> {
    match length {
        0..LARGE => None,
        LARGE..=2_097_151 => Some(150),
        _ => Some(400),
    }
}

/// How long a slice of a large text's check runs before the page gets a
/// turn: well under the 100 ms a page may be held (issue 7), with room for
/// the check's last part, its rules and explain view, which is not sliced.
pub const SLICE_MS: f64 = 30.0;

/// The clock of a check run in slices: when to pause, how long it worked,
/// its pauses apart, and in how many slices. `clock` reads the time in
/// milliseconds; it is given rather than read here so that the pacing is
/// plain Rust, tested with a clock the test moves.
pub struct Slices<Clock> {
    clock: Clock,
    started: f64,
    slice_started: Cell<f64>,
    paused: Cell<f64>,
    count: Cell<u32>,
}

impl<Clock: Fn() -> f64> Slices<Clock> {
    /// The clock of a check whose first slice starts now.
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

    /// The check's pause ([`opb_core::pause`]): once the slice has run its
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

    /// How many slices the check has run in so far.
    pub fn count(&self) -> u32 {
        self.count.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::pin;
    use std::task::{Context, Waker};

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
    fn large_starts_at_256k_utf16_units() {
        assert_eq!(LARGE, 262_144);
        assert!(!is_large(0));
        assert!(!is_large(LARGE - 1));
        assert!(is_large(LARGE));
        assert!(is_large(u32::MAX));
    }

    #[test]
    fn ordinary_texts_are_checked_at_once_large_ones_wait_longer_as_they_grow() {
        assert_eq!(debounce_ms(0), None);
        assert_eq!(debounce_ms(LARGE - 1), None);
        assert_eq!(debounce_ms(LARGE), Some(150));
        assert_eq!(debounce_ms(2_097_151), Some(150));
        assert_eq!(debounce_ms(2_097_152), Some(400));
        assert_eq!(debounce_ms(u32::MAX), Some(400));
    }

    /// The status bar says "Checking…" for exactly the texts whose check
    /// waits.
    #[test]
    fn a_text_waits_for_its_check_exactly_when_it_is_large() {
        for length in [0, 1, LARGE - 1, LARGE, LARGE + 1, 2_097_151, 2_097_152, u32::MAX] {
            assert_eq!(debounce_ms(length).is_some(), is_large(length), "length {length}");
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
}
