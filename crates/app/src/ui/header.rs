//! The header: the document's name and its kind (detected or chosen, with
//! the switch to choose). The problems are counted once, on the Diagnostics
//! tab, so the header keeps to one row.

use crate::checker::Report;
use crate::format::kind_label;
use leptos::prelude::*;
use opb_core::Kind;
use std::sync::Arc;
use wasm_bindgen::JsCast;

#[component]
pub fn Header(
    #[prop(into)] name: Signal<String>,
    #[prop(into)] edited: Signal<bool>,
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    kind_choice: RwSignal<Option<Kind>>,
) -> impl IntoView {
    let kind_badge = move || {
        report.get().map(|report| {
            let checked = &report.analysis.checked;
            let (label, how) = match (checked.kind, checked.kind_detected) {
                (Some(kind), true) => (kind_label(kind), "detected"),
                (Some(kind), false) => (kind_label(kind), "chosen"),
                (None, _) => ("Unknown kind", "choose one →"),
            };
            view! {
                <span class="kind-badge" data-testid="kind" data-kind=checked.kind.map_or("unknown", Kind::as_str)>
                    <span class="kind-label">{label}</span>
                    <span class="kind-how">{how}</span>
                </span>
            }
        })
    };
    view! {
        <header class="topbar">
            // The page's one top-level heading: the playground's name.
            <h1 class="brand-heading">
                <a class="brand" href="#">
                    <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true">
                        <rect x="2" y="2" width="20" height="20" rx="6" />
                        <path d="M7 8.5h4M7 12h10M7 15.5h6" />
                    </svg>
                    <span class="brand-name">"opb"</span>
                    <span class="brand-sub">"playground"</span>
                </a>
            </h1>
            <div class="document-info">
                <span class="document-name" data-testid="document-name" title=move || name.get()>{move || name.get()}</span>
                {move || edited.get().then(|| view! { <span class="edited" title="Changed since it was loaded">"edited"</span> })}
                {kind_badge}
            </div>
            <KindSwitch choice=kind_choice />
        </header>
    }
}

/// Auto-detect, or read the text as one kind: one radio group, one Tab
/// stop (the chosen option), the arrow keys choosing another.
#[component]
pub fn KindSwitch(choice: RwSignal<Option<Kind>>) -> impl IntoView {
    const OPTIONS: [(Option<Kind>, &str, &str); 3] = [
        (None, "auto", "Auto"),
        (Some(Kind::Playbook), "playbook", "Playbook"),
        (Some(Kind::PluginManifest), "plugin-manifest", "Plugin manifest"),
    ];
    // An arrow key chooses the option before or after, wrapping, and moves
    // the focus to it, as a radio group does.
    let on_key = move |ev: leptos::ev::KeyboardEvent, at: usize| {
        let step = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => 1,
            "ArrowLeft" | "ArrowUp" => OPTIONS.len() - 1,
            _ => return,
        };
        ev.prevent_default();
        let (kind, key, _) = OPTIONS[(at + step) % OPTIONS.len()];
        choice.set(kind);
        let group = event_target::<web_sys::Element>(&ev).parent_element();
        if let Some(button) =
            group.and_then(|g| g.query_selector(&format!("[data-kind=\"{key}\"]")).ok().flatten())
        {
            let _ = button.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    let buttons = OPTIONS
        .iter()
        .enumerate()
        .map(|(at, &(kind, key, label))| {
            let checked = move || choice.get() == kind;
            view! {
                <button
                    role="radio"
                    data-kind=key
                    aria-checked=move || checked().to_string()
                    tabindex=move || if checked() { "0" } else { "-1" }
                    class:active=checked
                    on:click=move |_| choice.set(kind)
                    on:keydown=move |ev| on_key(ev, at)
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="kind-switch" role="radiogroup" aria-label="Read the document as" data-testid="kind-switch">
            <span class="kind-switch-label">"Read as"</span>
            <div class="segmented">{buttons}</div>
        </div>
    }
}
