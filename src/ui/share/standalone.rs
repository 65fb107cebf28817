//! The viewer without the editor, as docs sites show it (the `?embed=1`
//! page and the `<opb-viewer>` element): a compact bar with the document's
//! kind, counts and an "Open in playground" link, the trust banner, then
//! the viewer's tabs (graph, tools, requires and risk paths, or a
//! manifest's tools) and the diagnostics. The tabs have no address here: the embed's fragment holds
//! the document, and `<opb-viewer>` must not touch its host page's.

use super::banner::TrustBanner;
use crate::checker::{self, Report};
use crate::format::kind_label;
use crate::link::{NoLink, fragment_for};
use crate::route::Route;
use crate::ui::diagnostics::{DiagnosticsPanel, Jump, SEVERITIES, SeverityIcon, count_of};
use crate::ui::editor::EditorHandle;
use crate::ui::viewer::{Viewer, ViewerPanel, ViewerTabs};
use crate::ui::viewer::nav::{self, LocalTabs};
use crate::ui::viewer::risk_paths::{RiskPathsPanel, RiskPathsState, RiskPathsTab};
use leptos::prelude::*;
use opb_core::Kind;
use opb_core::explain::Explain;
use std::sync::Arc;

/// A document shown without an editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub code: String,
    pub kind: Option<Kind>,
}

/// Checks each document set in `document` into `report`, calling
/// `after_check` with each new report.
pub fn follow(document: RwSignal<Option<Shown>>, after_check: impl Fn(&Report) + 'static) -> RwSignal<Option<Arc<Report>>> {
    let report = RwSignal::new(None::<Arc<Report>>);
    Effect::new(move |_| {
        let checked = document.with(|d| d.as_ref().map(|d| Arc::new(checker::check(&d.code, d.kind))));
        if let Some(checked) = &checked {
            after_check(checked);
        }
        report.set(checked);
    });
    report
}

/// The playground's address for the document, or the playground alone when
/// no link can hold it.
fn playground_href(playground: &str, document: Option<&Shown>) -> String {
    document
        .and_then(|d| fragment_for(playground, &d.code, d.kind, &Route::Diagnostics).ok())
        .map_or_else(|| playground.to_owned(), |fragment| format!("{playground}{fragment}"))
}

#[component]
pub fn StandaloneViewer(
    document: RwSignal<Option<Shown>>,
    report: RwSignal<Option<Arc<Report>>>,
    /// The playground's address (no query, no fragment).
    playground: String,
    /// Why there is no document, when there is none.
    #[prop(into)]
    problem: Signal<Option<String>>,
    /// The tab shown, which the viewer's tabs set: first the graph, the
    /// panel a share link names, or an element's `tab`.
    chosen: RwSignal<Route>,
    /// Whether the viewer is the whole page (the embed), with the page's
    /// `main` landmark and `h1`, or one element of a host page
    /// (`<opb-viewer>`), whose page has its own.
    whole_page: bool,
) -> impl IntoView {
    let href = move || document.with(|d| playground_href(&playground, d.as_ref()));
    let too_large = move || {
        document.with(|d| {
            d.as_ref().is_some_and(|d| matches!(fragment_for("", &d.code, d.kind, &Route::Diagnostics), Err(NoLink::TooLong { .. })))
        })
    };
    // The panels are made once a document is there, not again for each new
    // document: they follow `report` themselves.
    let has_document = Memo::new(move |_| document.with(Option::is_some));
    provide_context(LocalTabs(chosen));
    // No editor: the viewer's marks in the text have nowhere to go.
    let viewer = Viewer::new(report.into(), EditorHandle::default());
    let risk_paths = RiskPathsState::new(viewer);
    // The tab shown: the chosen one when the document has it, else the
    // first of the document's kind (a manifest has one view, a playbook three).
    let tab = Memo::new(move |_| {
        let manifest = report.with(|r| {
            matches!(r.as_deref().and_then(|r| r.analysis.explain.as_ref()), Some(Explain::PluginManifest(_)))
        });
        match chosen.get() {
            Route::Graph | Route::Tools | Route::Requires | Route::Paths if manifest => Route::Manifest,
            Route::Manifest if !manifest => Route::Graph,
            route @ (Route::Diagnostics | Route::Graph | Route::Tools | Route::Requires | Route::Paths | Route::Manifest) => route,
            // The playground's other panels (rules, compare) are not in the embed.
            _ if manifest => Route::Manifest,
            _ => Route::Graph,
        }
    });
    let panel = move || match tab.get() {
        Route::Diagnostics => view! { <DiagnosticsPanel report=report on_jump=|_: Jump| {} /> }.into_any(),
        Route::Paths => view! { <RiskPathsPanel state=risk_paths /> }.into_any(),
        route => view! { <ViewerPanel viewer=viewer route=route on_jump=move |jump: Jump| viewer.follow_jump(jump) /> }.into_any(),
    };
    let kind = move || {
        report.with(|r| r.as_ref().and_then(|r| r.analysis.checked.kind)).map_or("Document", kind_label)
    };
    let counts = SEVERITIES.map(|severity| {
        let count = move || report.with(|r| r.as_deref().map_or(0, |r| count_of(r, severity)));
        view! {
            <span class="count" data-severity=severity.as_str() data-count=count class:zero=move || count() == 0>
                <SeverityIcon severity=severity />
                {count}
                <span class="visually-hidden">{format!(" {}", severity.as_str())}</span>
            </span>
        }
    });
    view! {
        <div class="standalone" data-testid="standalone">
            <div class="standalone-bar" role=whole_page.then_some("banner")>
                <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="2" y="2" width="20" height="20" rx="6" />
                    <path d="M7 8.5h4M7 12h10M7 15.5h6" />
                </svg>
                {if whole_page {
                    view! { <h1 class="standalone-kind" data-testid="kind">{kind}</h1> }.into_any()
                } else {
                    view! { <span class="standalone-kind" data-testid="kind">{kind}</span> }.into_any()
                }}
                <div class="counts" aria-label="Diagnostics by severity">{counts}</div>
                <a
                    class="button open-playground"
                    data-testid="open-in-playground"
                    href=href
                    target="_blank"
                    rel="noopener"
                    title=move || if too_large() { "The document is too large for a link: the playground opens empty" } else { "Open this document in the opb playground" }
                >
                    "Open in playground ↗"
                </a>
            </div>
            <div class="standalone-body" role=whole_page.then_some("main")>
                {move || problem.get().map(|p| view! { <p class="share-notice error" role="alert" data-testid="embed-problem">{p}</p> })}
                {move || has_document.get().then(|| view! {
                    <TrustBanner report=report />
                    <section class="standalone-panel">
                        <nav class="tabs" role="tablist" aria-label="Views">
                            <ViewerTabs viewer=viewer route=tab />
                            <RiskPathsTab state=risk_paths route=tab />
                            <a
                                role="tab"
                                href="#diagnostics"
                                on:click=nav::link(Route::Diagnostics)
                                data-testid="tab-diagnostics"
                                aria-selected=move || (tab.get() == Route::Diagnostics).to_string()
                            >
                                "Diagnostics"
                            </a>
                        </nav>
                        <div class="tab-panel" role="tabpanel">{panel}</div>
                    </section>
                })}
            </div>
        </div>
    }
}
