//! The trust banner: shown first when a document arrives by a link or an
//! embed, it says in one glance what the document can do. Every fact comes
//! from the core's [`opb_core::trust_summary`], in the words (and markup)
//! of [`opb_render::glance`], which the viewer and the report show too.

use crate::checker::Report;
use leptos::prelude::*;
use std::sync::Arc;

/// The banner for the checked document. `on_dismiss`, when given, adds a
/// close button.
#[component]
pub fn TrustBanner(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    #[prop(optional, into)] on_dismiss: Option<Callback<()>>,
) -> impl IntoView {
    let summary = Memo::new(move |_| {
        report.with(|r| r.as_ref().and_then(|r| opb_core::trust_summary(&r.analysis)))
    });
    view! {
        <section class="trust-banner" data-testid="trust-banner" aria-labelledby="trust-banner-title">
            <div class="trust-top">
                <svg class="trust-icon" viewBox="0 0 24 24" aria-hidden="true">
                    <path d="M12 2.5l8 3v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" />
                    <path d="M8.5 12l2.5 2.5 4.5-5" />
                </svg>
                <h2 id="trust-banner-title">"What this document can do"</h2>
                {on_dismiss.map(|dismiss| view! {
                    <button class="icon-button trust-dismiss" aria-label="Dismiss the summary" title="Dismiss" on:click=move |_| dismiss.run(())>"×"</button>
                })}
            </div>
            {move || match summary.get() {
                Some(summary) => view! { <div class="trust-body" inner_html=opb_render::glance::html(&summary)></div> }.into_any(),
                None => view! {
                    <p class="trust-muted">{move || if report.with(Option::is_none) { "Checking…" } else { "It could not be read as a playbook or a plugin manifest: see the diagnostics." }}</p>
                }.into_any(),
            }}
        </section>
    }
}
