//! Light and dark themes. The page follows the system's
//! `prefers-color-scheme` unless the reader (or an embedding page's
//! `theme=`) chooses; the drawn theme is written as `data-theme` on an
//! element whose CSS custom properties colour everything inside it (the
//! `<html>` element, or an `<opb-viewer>`'s root).

use super::storage::web_storage;
use crate::embed_code::Theme;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{Element, MediaQueryList, MediaQueryListEvent};

const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// The chosen theme and what the system prefers. Copy, for components.
#[derive(Clone, Copy)]
pub struct ThemeState {
    pub choice: RwSignal<Theme>,
    system_dark: RwSignal<bool>,
    /// Whether a choice is remembered for the next visit.
    persist: bool,
}

struct Listener {
    list: MediaQueryList,
    callback: Closure<dyn Fn(MediaQueryListEvent)>,
}

impl ThemeState {
    /// Draws `initial` on `target` from now on, following the system while
    /// the choice is [`Theme::Auto`].
    pub fn new(initial: Theme, target: Element, persist: bool) -> ThemeState {
        ThemeState::drawing(RwSignal::new(initial), target, persist)
    }

    /// Draws the theme `choice` holds on `target`.
    pub fn drawing(choice: RwSignal<Theme>, target: Element, persist: bool) -> ThemeState {
        let list = window().match_media(DARK_QUERY).ok().flatten();
        let system_dark = RwSignal::new(list.as_ref().is_some_and(MediaQueryList::matches));
        let state = ThemeState { choice, system_dark, persist };
        if let Some(list) = list {
            let callback =
                Closure::<dyn Fn(MediaQueryListEvent)>::new(move |event: MediaQueryListEvent| {
                    system_dark.try_set(event.matches());
                });
            if list
                .add_event_listener_with_callback("change", callback.as_ref().unchecked_ref())
                .is_ok()
            {
                let listener = StoredValue::new_local(Some(Listener { list, callback }));
                on_cleanup(move || {
                    listener.try_update_value(|l| {
                        if let Some(Listener { list, callback }) = l.take() {
                            let _ = list.remove_event_listener_with_callback(
                                "change",
                                callback.as_ref().unchecked_ref(),
                            );
                        }
                    });
                });
            }
        }
        Effect::new(move |_| {
            let _ = target.set_attribute("data-theme", state.drawn().as_str());
        });
        state
    }

    /// The theme the page is drawn in: light or dark.
    pub fn drawn(&self) -> Theme {
        self.choice.get().resolve(self.system_dark.get())
    }

    /// The next choice of the toggle: auto, light, dark, auto…
    fn cycle(&self) {
        let next = match self.choice.get_untracked() {
            Theme::Auto => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Auto,
        };
        self.choice.set(next);
        if self.persist {
            web_storage::save_theme(next.as_str());
        }
    }
}

/// The theme a playground visit starts with: the page's `theme=`, else the
/// reader's last choice, else the system's.
pub fn initial(from_query: Option<Theme>) -> Theme {
    from_query
        .or_else(|| web_storage::theme().as_deref().and_then(Theme::parse))
        .unwrap_or_default()
}

/// A button that steps through auto, light and dark.
#[component]
pub fn ThemeToggle(state: ThemeState) -> impl IntoView {
    let label = move || match state.choice.get() {
        Theme::Auto => "Theme: automatic, as the system. Switch to light",
        Theme::Light => "Theme: light. Switch to dark",
        Theme::Dark => "Theme: dark. Switch to automatic",
    };
    view! {
        <button
            class="icon-button theme-toggle"
            data-testid="theme-toggle"
            data-theme-choice=move || state.choice.get().as_str()
            aria-label=label
            title=label
            on:click=move |_| state.cycle()
        >
            {move || match state.choice.get() {
                Theme::Auto => view! {
                    <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="8" /><path d="M12 4a8 8 0 0 1 0 16z" class="filled" /></svg>
                }.into_any(),
                Theme::Light => view! {
                    <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="4" /><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" /></svg>
                }.into_any(),
                Theme::Dark => view! {
                    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" /></svg>
                }.into_any(),
            }}
        </button>
    }
}
