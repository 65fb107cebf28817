//! The panels: what a document can do, at a glance. For a playbook, the
//! step graph with the selected step's capability boundary, the embedded
//! tools by risk, and what the playbook requires; for a plugin manifest, its
//! tools and what uses what. Everything shown comes from the core's explain
//! views (and its layout of the graph); the panels only draw and link.

mod camera;
mod drift;
mod explain;
pub mod graph;
pub mod manifest_view;
pub mod on_path;
mod parts;
pub mod requires_panel;
pub mod risk_paths;
pub mod selection;
pub mod step_panel;
pub mod tools_panel;

use crate::checker::Report;
use crate::route::Route;
use crate::ui::diagnostics::Jump;
use crate::ui::editor::EditorHandle;
use graph::GraphView;
use leptos::prelude::*;
use manifest_view::ManifestView;
use opb_core::explain::Explain;
use requires_panel::RequiresPanel;
use selection::Selection;
use std::sync::Arc;
use step_panel::StepPanel;
use tools_panel::ToolsPanel;

/// The panels' state, made once by the app: the selection, and the last
/// check whose text could be read, which the panels keep showing while the
/// text in the editor is halfway through an edit.
#[derive(Clone, Copy)]
pub struct Panels {
    pub selection: Selection,
    report: Signal<Option<Arc<Report>>>,
    readable: Memo<Option<Arc<Report>>>,
    /// What the shown document is, apart: the panels are rebuilt only when
    /// this changes, not on every check.
    kind: Memo<Option<ViewKind>>,
}

impl Panels {
    /// The panels of the app's checks; it keeps the editor's mark on the
    /// selected item.
    pub fn new(report: Signal<Option<Arc<Report>>>, editor: EditorHandle) -> Panels {
        let readable = Memo::new_with_compare(
            move |previous: Option<&Option<Arc<Report>>>| match report.get() {
                Some(r) if r.analysis.explain.is_some() => Some(r),
                _ => previous.cloned().flatten(),
            },
            |a, b| match (a, b) {
                (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
                (Some(None), Some(None)) => false,
                _ => true,
            },
        );
        let selection = Selection::default();
        selection.mark_in_editor(readable.into(), editor);
        let kind = Memo::new(move |_| {
            readable.with(|r| match r.as_deref()?.analysis.explain.as_ref()? {
                Explain::Playbook(_) => Some(ViewKind::Playbook),
                Explain::PluginManifest(_) => Some(ViewKind::Manifest),
            })
        });
        Panels { selection, report, readable, kind }
    }

    /// Selects what a diagnostic the reader jumped to is about.
    pub fn follow_jump(&self, jump: Jump) {
        self.report.with_untracked(|r| {
            if let Some(report) = r.as_deref() {
                if let Some(located) = selection::jumped_to(report, &jump) {
                    self.selection.follow_diagnostic(report, &located.diagnostic.pointer);
                }
            }
        });
    }

    fn kind(&self) -> Option<ViewKind> {
        self.kind.get()
    }

    /// Whether the panels show an earlier check than the editor's text.
    fn stale(&self) -> bool {
        let current = self.report.with(|r| r.as_ref().map(Arc::as_ptr));
        let shown = self.readable.with(|r| r.as_ref().map(Arc::as_ptr));
        shown.is_some() && current != shown
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ViewKind {
    Playbook,
    Manifest,
}

/// The panels' tabs, for the kind of document shown. Their counts are of
/// the text in the editor: while it cannot be read they are cleared, as the
/// panels say, rather than left at the last readable version's.
#[component]
pub fn PanelTabs(panels: Panels, #[prop(into)] route: Signal<Route>) -> impl IntoView {
    let count = move |f: fn(&Explain) -> usize| {
        move || {
            panels.report.with(|r| r.as_deref().and_then(|r| r.analysis.explain.as_ref()).map(f))
        }
    };
    let tools = count(|e| match e {
        Explain::Playbook(p) => p.tools.len(),
        Explain::PluginManifest(m) => m.tools.len(),
    });
    let issues = count(|e| match e {
        Explain::Playbook(p) => {
            p.requires.missing.len() + p.requires.mismatched.len() + p.requires.unused.len()
        }
        Explain::PluginManifest(_) => 0,
    });
    let tab = move |target: Route, label: &'static str, testid: &'static str| {
        view! {
            <a role="tab" href=format!("#{}", target.view().unwrap_or_default()) data-testid=testid aria-selected=move || (route.get() == target).to_string()>
                {label}
            </a>
        }
    };
    move || {
        match panels.kind() {
        Some(ViewKind::Playbook) => view! {
            {tab(Route::Graph, "Graph", "tab-graph")}
            <a role="tab" href="#tools" data-testid="tab-tools" aria-selected=move || (route.get() == Route::Tools).to_string()>
                "Tools" {move || tools().map(|n| view! { <span class="tab-count">{n}</span> })}
            </a>
            <a role="tab" href="#requires" data-testid="tab-requires" aria-selected=move || (route.get() == Route::Requires).to_string()>
                "Requires"
                {move || issues().filter(|&n| n > 0).map(|n| view! { <span class="tab-count attention" title="Missing, unused or mismatched">{n}</span> })}
            </a>
        }
        .into_any(),
        Some(ViewKind::Manifest) => view! {
            <a role="tab" href="#manifest" data-testid="tab-manifest" aria-selected=move || (route.get() == Route::Manifest).to_string()>
                "Manifest" {move || tools().map(|n| view! { <span class="tab-count">{n}</span> })}
            </a>
        }
        .into_any(),
        None => ().into_any(),
    }
    }
}

/// What a panel says while the editor's text cannot be read: it shows the
/// last readable version.
fn stale_note(panels: Panels) -> Option<impl IntoView> {
    panels.stale().then(|| {
        view! {
            <p class="stale-note" role="status">"The text cannot be read as it stands: this shows its last readable version."</p>
        }
    })
}

/// The panel of a tab. `on_jump` moves the editor to a diagnostic.
#[component]
pub fn Panel(panels: Panels, route: Route, #[prop(into)] on_jump: Callback<Jump>) -> impl IntoView {
    let report: Signal<Option<Arc<Report>>> = panels.readable.into();
    let selection = panels.selection;
    let stale = move || stale_note(panels);
    let body = move || {
        match (route.clone(), panels.kind()) {
        (_, None) => view! { <p class="panel-empty">"Nothing to show yet: the panels show documents that can be read."</p> }.into_any(),
        (Route::Manifest, Some(ViewKind::Manifest)) => view! { <ManifestView report=report selection=selection on_jump=on_jump /> }.into_any(),
        (Route::Manifest, Some(ViewKind::Playbook)) => view! {
            <p class="panel-empty">"This is a playbook: see its " <a href="#graph">"graph"</a> ", " <a href="#tools">"tools"</a> " and " <a href="#requires">"requires"</a> "."</p>
        }
        .into_any(),
        (_, Some(ViewKind::Manifest)) => view! {
            <p class="panel-empty">"This is a plugin manifest: see its " <a href="#manifest">"tools and what uses them"</a> "."</p>
        }
        .into_any(),
        (Route::Tools, _) => view! { <ToolsPanel report=report selection=selection /> }.into_any(),
        (Route::Requires, _) => view! { <RequiresPanel report=report selection=selection /> }.into_any(),
        _ => view! {
            <div class="graph-tab">
                <GraphView report=report selection=selection />
                <div class="step-panel-scroll"><StepPanel report=report selection=selection on_jump=on_jump /></div>
            </div>
        }
        .into_any(),
    }
    };
    view! { <div class="viewer-panel">{stale}{body}</div> }
}
