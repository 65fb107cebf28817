//! A header button that opens a panel under it (the Share and Drafts
//! menus): a dialog with a heading and a close button, closed by Escape.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

/// What a menu's button and panel are called.
pub struct Names {
    /// The button's test id; the panel's is `{name}-panel`, its id too.
    pub name: &'static str,
    pub label: &'static str,
    /// The panel's accessible name.
    pub purpose: &'static str,
    /// The button's icon, an SVG path on a 24-pixel grid.
    pub icon: &'static str,
}

/// The button and, while `open`, the panel holding `children`;
/// `on_open` runs as the button opens it.
#[component]
pub fn Popover(
    names: Names,
    open: RwSignal<bool>,
    #[prop(into)] on_open: Callback<()>,
    children: ChildrenFn,
) -> impl IntoView {
    let Names { name, label, purpose, icon } = names;
    let panel = format!("{name}-panel");
    let toggle = move || {
        let opening = !open.get_untracked();
        if opening {
            on_open.run(());
        }
        open.set(opening);
    };
    let on_key = move |ev: KeyboardEvent| {
        if ev.key() == "Escape" {
            open.set(false);
        }
    };
    view! {
        <div class="share-menu" on:keydown=on_key>
            <button
                class="button"
                data-testid=name
                title=label
                aria-haspopup="dialog"
                aria-expanded=move || open.get().to_string()
                aria-controls=panel.clone()
                on:click=move |_| toggle()
            >
                <svg class="button-icon" viewBox="0 0 24 24" aria-hidden="true"><path d=icon /></svg>
                // Hidden from sight (not from assistive technology) where
                // the header is narrow; the title names the icon then.
                <span class="button-label">{label}</span>
            </button>
            <Show when=move || open.get()>
                <div class="share-panel" id=panel.clone() role="dialog" aria-label=purpose data-testid=panel.clone()>
                    <div class="share-panel-top">
                        <h2>{label}</h2>
                        <button class="icon-button" aria-label="Close" on:click=move |_| open.set(false)>"×"</button>
                    </div>
                    {children()}
                </div>
            </Show>
        </div>
    }
}
