//! The document the editor holds, as the modules that keep and share it
//! read it: the editor, the last check's report, the name, kind and panel.

use crate::checker::Report;
use crate::route::Route;
use crate::storage::Saved;
use crate::ui::editor::EditorHandle;
use leptos::prelude::*;
use opb_core::Kind;
use std::sync::Arc;

/// The app's document state, as the document session and the drafts read
/// it. Copy, for components.
#[derive(Clone, Copy)]
pub struct DocumentState {
    pub editor: EditorHandle,
    pub report: RwSignal<Option<Arc<Report>>>,
    /// Whether `report` is of the editor's text (an edit's check may still
    /// be coming).
    pub fresh: StoredValue<bool>,
    pub kind_choice: RwSignal<Option<Kind>>,
    pub name: RwSignal<String>,
    pub edited: RwSignal<bool>,
    /// The tab shown.
    pub route: RwSignal<Route>,
    /// Whether the author (or the address, a link, a draft) chose that tab:
    /// only a chosen tab is kept in links and drafts, and it stays through
    /// edits and other documents; otherwise each document opens on the tab
    /// that matters for it ([`Route::first_view`]).
    pub tab_chosen: RwSignal<bool>,
}

impl DocumentState {
    pub fn saved(&self) -> Option<Saved> {
        Some(Saved {
            text: self.editor.text()?,
            name: self.name.get_untracked(),
            kind: self.kind_choice.get_untracked(),
            edited: self.edited.get_untracked(),
        })
    }

    /// The tab, when it was chosen.
    pub fn chosen_route(&self) -> Option<Route> {
        self.tab_chosen.get_untracked().then(|| self.route.get_untracked())
    }

    /// The chosen tab as a draft or a link keeps it.
    pub fn view(&self) -> Option<String> {
        self.chosen_route()?.view()
    }

    /// Shows `route`, as chosen.
    pub fn choose(&self, route: Route) {
        self.route.set(route);
        self.tab_chosen.set(true);
    }

    /// The codes of the findings of a credential written into the text
    /// (the core says which findings are), one per finding; none while the
    /// last check is of an older text.
    pub fn credential_findings(&self) -> Option<Vec<&'static str>> {
        if !self.fresh.get_value() {
            return None;
        }
        self.report.with_untracked(|report| {
            let checked = &report.as_ref()?.analysis.checked;
            Some(checked.credential_findings().map(|d| d.code).collect())
        })
    }
}
