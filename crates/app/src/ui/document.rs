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
    pub route: RwSignal<Route>,
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

    pub fn view(&self) -> Option<String> {
        self.route.get_untracked().view()
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
