//! What the panels have selected (a step, a playbook tool or a manifest
//! tool), kept by name so it survives edits while the item still exists, and
//! its link to the editor: the selected item's lines are marked there.

use super::explain::{manifest_tool, playbook_step, playbook_tool, tool_key};
use crate::checker::utf16_offsets;
use crate::checker::{Located, Report};
use crate::ui::diagnostics::Jump;
use crate::ui::editor::EditorHandle;
use leptos::prelude::*;
use opb_core::explain::Explain;
use std::sync::Arc;

/// An item of the document, by the name the panels show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A step, by id.
    Step(String),
    /// An embedded tool of a playbook, by name.
    Tool(String),
    /// A tool of a plugin manifest, by [`tool_key`].
    ManifestTool(String),
}

/// The selection, shared by the panels. Copy, so every closure can hold it.
#[derive(Clone, Copy)]
pub struct Selection {
    target: RwSignal<Option<Target>>,
    /// Whether the editor scrolls to the next selection: yes when the reader
    /// picked it in the panels, no when the editor already shows the place.
    reveal: StoredValue<bool>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection { target: RwSignal::new(None), reveal: StoredValue::new(false) }
    }
}

impl Selection {
    /// Selects `target` from the panels: the editor scrolls to it.
    pub fn choose(&self, target: Option<Target>) {
        self.reveal.set_value(target.is_some());
        self.target.set(target);
    }

    /// Selects `target` where the editor already is (after a jump to a
    /// diagnostic): its lines are marked without scrolling.
    pub fn follow(&self, target: Option<Target>) {
        self.reveal.set_value(false);
        self.target.set(target);
    }

    pub fn get(&self) -> Option<Target> {
        self.target.get()
    }

    pub fn with<R>(&self, f: impl FnOnce(&Option<Target>) -> R) -> R {
        self.target.with(f)
    }

    pub fn is(&self, target: &Target) -> bool {
        self.target.with(|t| t.as_ref() == Some(target))
    }

    /// Selects the step or tool a diagnostic points into, keeping the
    /// selection when it points elsewhere.
    pub fn follow_diagnostic(&self, report: &Report, pointer: &str) {
        if let Some(target) = of_pointer(report, pointer) {
            self.follow(Some(target));
        }
    }

    /// Keeps the editor's mark on the selected item's lines: after each
    /// check (positions move as the text changes) and each new selection.
    pub fn mark_in_editor(self, report: Signal<Option<Arc<Report>>>, editor: EditorHandle) {
        Effect::new(move |_| {
            let target = self.target.get();
            let span =
                report.with(|r| r.as_deref().zip(target.as_ref()).and_then(|(r, t)| span_of(r, t)));
            let reveal = self.reveal.get_value();
            self.reveal.set_value(false);
            let range = span.and_then(|(start, end)| {
                match editor.with_text(|text| utf16_offsets(text, &[start, end]))?[..] {
                    [from, to] => Some((from, to)),
                    _ => None,
                }
            });
            editor.highlight(range, reveal);
        });
    }
}

/// The byte span of a target's item in the checked text.
fn span_of(report: &Report, target: &Target) -> Option<(usize, usize)> {
    let explain = report.analysis.explain.as_ref()?;
    let pointer = match (explain, target) {
        (Explain::Playbook(p), Target::Step(id)) => playbook_step(p, id)?.pointer.as_str(),
        (Explain::Playbook(p), Target::Tool(name)) => playbook_tool(p, name)?.pointer.as_str(),
        (Explain::PluginManifest(m), Target::ManifestTool(key)) => {
            manifest_tool(m, key)?.pointer.as_str()
        }
        _ => return None,
    };
    let span = report.analysis.anchors.span(pointer)?;
    Some((span.start, span.end))
}

/// The step or tool a pointer is about, when it is one the panels show.
pub fn of_pointer(report: &Report, pointer: &str) -> Option<Target> {
    let item = report.analysis.anchors.item(pointer)?;
    match report.analysis.explain.as_ref()? {
        Explain::Playbook(p) => p
            .steps
            .iter()
            .find(|s| s.pointer == item)
            .and_then(|s| s.id.as_deref().map(|id| Target::Step(id.to_owned())))
            .or_else(|| {
                p.tools
                    .iter()
                    .find(|t| t.pointer == item)
                    .and_then(|t| t.facts.name.clone().map(Target::Tool))
            }),
        Explain::PluginManifest(m) => {
            m.tools.iter().find(|t| t.pointer == item).map(|t| Target::ManifestTool(tool_key(t)))
        }
    }
}

/// The diagnostic a jump of the diagnostics panel went to.
pub fn jumped_to<'r>(report: &'r Report, jump: &Jump) -> Option<&'r Located> {
    report.located.iter().find(|l| l.from == jump.from && l.to == jump.to)
}
