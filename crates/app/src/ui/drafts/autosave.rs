//! When the tab's document is written as its draft: after a check, once
//! typing pauses (and at least every so often while it does not), and at
//! once as the page is left or hidden.

use crate::ui::storage::drafts::now;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// Writes are issued this long after the last check, not in the check's
/// task: taking a large text out of the editor costs milliseconds a key.
/// IndexedDB copies the text and writes it off the page's thread, so a
/// text of megabytes is saved as often as a small one.
const SAVE_AFTER_MS: u32 = 400;

/// Typing that never pauses is saved at least this often, so no edit on
/// screen for a second is lost when the tab closes.
const SAVE_AT_LEAST_EVERY_MS: f64 = 800.0;

/// Whether the document changed since it was last saved, since when, and
/// the save waiting for typing to pause. Copy, for components.
#[derive(Clone, Copy)]
pub struct Autosave {
    unsaved: StoredValue<Option<f64>>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
}

impl Default for Autosave {
    fn default() -> Autosave {
        Autosave { unsaved: StoredValue::new(None), timer: StoredValue::new_local(None) }
    }
}

impl Autosave {
    /// The document changed: `save` runs when typing pauses, and at least
    /// every [`SAVE_AT_LEAST_EVERY_MS`] while it does not.
    pub fn changed(&self, save: impl FnOnce() + 'static) {
        let since = *self.unsaved.get_value().get_or_insert_with(now);
        self.unsaved.set_value(Some(since));
        if self.timer.with_value(Option::is_some)
            && now() - since + f64::from(SAVE_AFTER_MS) > SAVE_AT_LEAST_EVERY_MS
        {
            return;
        }
        self.timer.set_value(Some(Timeout::new(SAVE_AFTER_MS, save)));
    }

    /// Whether a change waits to be saved; it is taken to be saved now.
    pub fn take_pending(&self) -> bool {
        self.timer.try_set_value(None);
        self.unsaved.try_update_value(Option::take).flatten().is_some()
    }

    /// Forgets the change waiting: the tab edits another draft now.
    pub fn forget(&self) {
        self.timer.set_value(None);
        self.unsaved.set_value(None);
    }
}

/// Calls `changed` after every check but the first of the document the
/// page opened with (`checked` counts them), and `leave` as the page is
/// left or hidden.
pub fn follow(
    checked: Signal<u64>,
    changed: impl Fn() + 'static,
    leave: impl Fn() + Copy + 'static,
) {
    Effect::new(move |previous: Option<u64>| {
        let count = checked.get();
        if previous.is_some_and(|p| p != count) {
            changed();
        }
        count
    });
    // A write issued at `pagehide` is often aborted with the page:
    // Chromium lost about half of them on a reload. `beforeunload`
    // comes before the next page is even asked for, while the page
    // still has time to commit; `pagehide` and a hidden page stay for
    // the browsers and exits that skip it (iOS, a phone's tab killed
    // in the background).
    let _ = window_event_listener(leptos::ev::beforeunload, move |_| leave());
    let _ = window_event_listener(leptos::ev::pagehide, move |_| leave());
    let _ = window_event_listener(leptos::ev::visibilitychange, move |_| {
        if document().visibility_state() == web_sys::VisibilityState::Hidden {
            leave();
        }
    });
}
