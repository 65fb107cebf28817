//! The header: the document's name, its kind (detected or chosen, with the
//! switch to choose), and its counts.

use crate::checker::Report;
use super::diagnostics::{count_of, SeverityIcon, SEVERITIES};
use crate::format::{kind_label, plural};
use leptos::prelude::*;
use opb_core::Kind;
use std::sync::Arc;

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
    let counts = SEVERITIES.map(|severity| {
        let count = move || report.with(|r| r.as_deref().map_or(0, |r| count_of(r, severity)));
        view! {
            <span class="count" data-severity=severity.as_str() data-count=count class:zero=move || count() == 0>
                <SeverityIcon severity=severity />
                {move || plural(severity, count())}
            </span>
        }
    });
    view! {
        <header class="topbar">
            <a class="brand" href="#">
                <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="2" y="2" width="20" height="20" rx="6" />
                    <path d="M7 8.5h4M7 12h10M7 15.5h6" />
                </svg>
                <span class="brand-name">"opb"</span>
                <span class="brand-sub">"playground"</span>
            </a>
            <div class="document-info">
                <span class="document-name" data-testid="document-name" title="Document">{move || name.get()}</span>
                {move || edited.get().then(|| view! { <span class="edited" title="Changed since it was loaded">"edited"</span> })}
                {kind_badge}
            </div>
            <div class="counts" data-testid="counts" aria-live="polite">{counts}</div>
            <KindSwitch choice=kind_choice />
        </header>
    }
}

/// Auto-detect, or read the text as one kind.
#[component]
pub fn KindSwitch(choice: RwSignal<Option<Kind>>) -> impl IntoView {
    let options = [
        (None, "auto", "Auto"),
        (Some(Kind::Playbook), "playbook", "Playbook"),
        (Some(Kind::PluginManifest), "plugin-manifest", "Plugin manifest"),
    ];
    let buttons = options.map(|(kind, key, label)| {
        let checked = move || choice.get() == kind;
        view! {
            <button
                role="radio"
                data-kind=key
                aria-checked=move || checked().to_string()
                class:active=checked
                on:click=move |_| choice.set(kind)
            >
                {label}
            </button>
        }
    });
    view! {
        <div class="kind-switch" role="radiogroup" aria-label="Read the document as" data-testid="kind-switch">
            <span class="kind-switch-label">"Read as"</span>
            <div class="segmented">{buttons}</div>
        </div>
    }
}
