//! The panel area's tab strip. Tabs that do not fit scroll sideways, and
//! the strip says so: a fade and an arrow button on each side that has
//! tabs out of sight. The selected tab is scrolled into sight whenever it
//! changes (a rule link opening the Rules tab, say), so a selected tab is
//! never hidden. The tabs themselves are links: the keyboard reaches every
//! one with Tab, and the browser scrolls a focused one into sight, so the
//! arrows are for the pointer only.

use crate::route::Route;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::ResizeObserver;

/// Pixels of scroll that still count as the end: sub-pixel layouts leave
/// a fraction.
const SLACK: i32 = 2;

/// Room kept beside a tab scrolled into sight, about the fade's width, so
/// the fade never covers the selected tab.
const MARGIN: i32 = 28;

/// Keeps the strip's measure as long as it is mounted.
struct Watch {
    observer: ResizeObserver,
    _callback: Closure<dyn Fn(js_sys::Array)>,
}

/// The strip around `children` (the tabs). `route` is the selected tab;
/// `changed` changes when the tabs may have (a check changes their counts,
/// a document's kind which tabs there are).
#[component]
pub fn TabStrip(
    #[prop(into)] route: Signal<Route>,
    #[prop(into)] changed: Signal<u64>,
    children: Children,
) -> impl IntoView {
    let nav = NodeRef::<html::Nav>::new();
    let before = RwSignal::new(false);
    let after = RwSignal::new(false);
    let measure = move || {
        let Some(nav) = nav.get_untracked() else { return };
        let left = nav.scroll_left();
        let hidden = nav.scroll_width() - nav.client_width();
        let (more_before, more_after) = (left > SLACK, left < hidden - SLACK);
        if before.get_untracked() != more_before {
            before.set(more_before);
        }
        if after.get_untracked() != more_after {
            after.set(more_after);
        }
    };
    let reveal = move || {
        let Some(nav) = nav.get_untracked() else { return };
        let Some(tab) = nav
            .query_selector("[aria-selected=\"true\"]")
            .ok()
            .flatten()
            .and_then(|tab| tab.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let (start, end) = (tab.offset_left(), tab.offset_left() + tab.offset_width());
        let (left, width) = (nav.scroll_left(), nav.client_width());
        if start < left + MARGIN {
            nav.set_scroll_left((start - MARGIN).max(0));
        } else if end > left + width - MARGIN {
            nav.set_scroll_left(end - width + MARGIN);
        }
    };
    let scroll = move |direction: i32| {
        if let Some(nav) = nav.get_untracked() {
            let step = (nav.client_width() * 2 / 3).max(MARGIN);
            nav.set_scroll_left(nav.scroll_left() + direction * step);
        }
    };
    // The strip's width changes with the window and the splitter, and each
    // tab's with its count and as the page's font arrives: the strip and
    // every tab are watched.
    let watch = StoredValue::new_local(None::<Watch>);
    let watch_tabs = move || {
        let Some(nav) = nav.get_untracked() else { return };
        watch.with_value(|w| {
            if let Some(Watch { observer, .. }) = w {
                let mut tab = nav.first_element_child();
                while let Some(element) = tab {
                    observer.observe(&element);
                    tab = element.next_element_sibling();
                }
            }
        });
    };
    nav.on_load(move |nav| {
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |_: js_sys::Array| measure());
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&nav);
            watch.set_value(Some(Watch { observer, _callback: callback }));
        }
    });
    // After the tabs are drawn: the selected one into sight when it
    // changed, then the arrows and fades for what is out of sight, and any
    // new tab watched.
    Effect::new(move |previous: Option<Route>| {
        let now = route.get();
        changed.track();
        let moved = previous.as_ref() != Some(&now);
        request_animation_frame(move || {
            if moved {
                reveal();
            }
            measure();
            watch_tabs();
        });
        now
    });
    on_cleanup(move || {
        watch.try_update_value(|w| {
            if let Some(Watch { observer, .. }) = w.take() {
                observer.disconnect();
            }
        });
    });
    // An arrow: its side, its words, its chevron, whether tabs lie beyond
    // it, and which way it scrolls.
    let arrow = move |side: &'static str,
                      words: &'static str,
                      chevron: &'static str,
                      more: RwSignal<bool>,
                      direction: i32| {
        view! {
            <button
                class=format!("tab-scroll {side}")
                data-testid=format!("tabs-{side}")
                aria-label=words
                title=words
                tabindex="-1"
                hidden=move || !more.get()
                on:click=move |_| scroll(direction)
            >
                <svg viewBox="0 0 16 16" aria-hidden="true"><path d=chevron /></svg>
            </button>
        }
    };
    view! {
        <div class="tab-strip" class:more-before=before class:more-after=after>
            {arrow("before", "Show the tabs before", "M10 3.5L5.5 8l4.5 4.5", before, -1)}
            <nav class="tabs" role="tablist" aria-label="Panels" node_ref=nav on:scroll=move |_| measure()>
                {children()}
            </nav>
            {arrow("after", "Show the tabs after", "M6 3.5L10.5 8 6 12.5", after, 1)}
        </div>
    }
}
