//! Compare mode: a second editor holds an older version of the document,
//! the main editor's text is the newer one, and the core's semantic diff
//! (`opb_core::diff`) lists what changed in what the document may do, the
//! changes that let it do more first. The old version starts as a copy of
//! the current text, so the reader edits either side.

use super::editor::{Editor, EditorHandle};
use crate::checker::{self, Report};
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use opb_core::explain::diff::words::{self, Part};
use opb_core::explain::diff::{Change, Diff, Impact};
use opb_core::Syntax;
use std::sync::Arc;

/// How long after the last edit of the old version it is checked again.
const DEBOUNCE_MS: u32 = 120;

/// The old version, kept by the app so it survives leaving the tab.
#[derive(Clone, Copy)]
pub struct CompareState {
    /// The old version's text as last checked; none until compare mode is
    /// first opened.
    old: RwSignal<Option<String>>,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState { old: RwSignal::new(None) }
    }
}

/// The compare panel. `current` is the text of the main editor, read when
/// the old version starts as a copy of it.
#[component]
pub fn ComparePanel(
    state: CompareState,
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    #[prop(into)] current: Callback<(), Option<String>>,
) -> impl IntoView {
    if state.old.with_untracked(Option::is_none) {
        state.old.set(Some(current.run(()).unwrap_or_default()));
    }
    let initial = state.old.get_untracked().unwrap_or_default();
    let syntax = Syntax::sniff(&initial);
    let editor = EditorHandle::default();
    let pending = StoredValue::new_local(None::<Timeout>);
    // Each check of the old version is a new report: no need to compare them.
    let old_report = Memo::new_with_compare(
        move |_| state.old.with(|text| text.as_deref().map(|t| Arc::new(checker::check(t, None)))),
        |_, _| true,
    );
    // The old version's own diagnostics, as squiggles in its editor: once
    // it is ready, then after each check.
    let show_old = move |r: &Option<Arc<Report>>| {
        if let Some(r) = r {
            editor.show(&r.located);
            editor.set_syntax(r.analysis.checked.syntax);
        }
    };
    Effect::new(move |_| old_report.with(show_old));
    let on_change = move |_: u32| {
        pending.set_value(Some(Timeout::new(DEBOUNCE_MS, move || {
            pending.set_value(None);
            if let Some(text) = editor.text() {
                state.old.set(Some(text));
            }
        })));
    };
    let copy_current = move |_| {
        if let Some(text) = current.run(()) {
            editor.replace_text(&text);
            state.old.set(Some(text));
        }
    };
    let diff = Memo::new(move |_| {
        let old = old_report.get()?;
        let new = report.get()?;
        Some(opb_core::diff(&old.analysis, &new.analysis).map_err(|e| e.to_string()))
    });
    let changes = move || {
        match diff.get() {
        None => view! { <p class="panel-empty">"Checking…"</p> }.into_any(),
        Some(Err(reason)) => view! { <p class="compare-error" role="status" data-testid="compare-error">{format!("Cannot compare: {reason}.")}</p> }.into_any(),
        Some(Ok(diff)) => changes_view(&diff).into_any(),
    }
    };
    view! {
        <div class="compare-panel" data-testid="compare">
            <div class="compare-head">
                <p>
                    <strong>"Old version"</strong>
                    " below (editable); the editor on the left holds the new one. Listed beneath: what changed in what the document may do."
                </p>
                <button class="button" data-testid="compare-copy" title="Replace the old version with the editor's current text" on:click=copy_current>
                    "Copy the current text"
                </button>
            </div>
            <div class="compare-old">
                <Editor
                    handle=editor
                    testid="compare-editor"
                    label="Old version"
                    initial=initial
                    syntax=syntax
                    on_change=on_change
                    on_cursor=|_| {}
                    on_ready=move |()| old_report.with_untracked(show_old)
                />
            </div>
            <div class="compare-changes" data-testid="compare-changes" aria-live="polite">{changes}</div>
        </div>
    }
}

/// A sentence of the core's words, names set as code.
fn sentence(parts: Vec<Part>) -> impl IntoView {
    parts
        .into_iter()
        .map(|part| match part {
            Part::Text(text) => text.into_any(),
            Part::Name(name) => view! { <code>{name}</code> }.into_any(),
        })
        .collect_view()
}

fn summary(diff: &Diff) -> String {
    let s = diff.summary;
    if diff.is_empty() {
        return "No change in what the document may do.".to_owned();
    }
    let total = s.widens + s.narrows + s.neutral;
    let mut parts = Vec::new();
    if s.widens > 0 {
        parts.push(format!(
            "{} widen{} what it may do",
            s.widens,
            if s.widens == 1 { "s" } else { "" }
        ));
    }
    if s.narrows > 0 {
        parts.push(format!("{} narrow{} it", s.narrows, if s.narrows == 1 { "s" } else { "" }));
    }
    if s.neutral > 0 {
        parts.push(format!("{} neither", s.neutral));
    }
    format!("{total} change{}: {}.", if total == 1 { "" } else { "s" }, parts.join(", "))
}

fn change_item(change: &Change) -> impl IntoView {
    let (mark, impact, label) = match change.impact {
        Impact::Widens => ("+", "widens", "may do more"),
        Impact::Narrows => ("−", "narrows", "may do less"),
        Impact::Neutral => ("~", "neutral", "changed"),
    };
    view! {
        <li class="change" data-testid="change" data-impact=impact>
            <span class="change-mark" title=label aria-label=label>{mark}</span>
            <span class="change-subject">{sentence(capitalized(words::subject(&change.subject)))}</span>
            <span class="change-text">{sentence(words::change(change))}</span>
        </li>
    }
}

/// The subject's first word with a capital: "Step refund".
fn capitalized(mut parts: Vec<Part>) -> Vec<Part> {
    if let Some(Part::Text(text)) = parts.first_mut() {
        let mut chars = text.chars();
        if let Some(first) = chars.next() {
            *text = first.to_uppercase().chain(chars).collect();
        }
    }
    parts
}

fn changes_view(diff: &Diff) -> impl IntoView {
    let groups = [
        (Impact::Widens, "May do more, or with less oversight"),
        (Impact::Neutral, "Changed"),
        (Impact::Narrows, "May do less, or with more oversight"),
    ]
    .into_iter()
    .filter_map(|(impact, title)| {
        let items: Vec<_> =
            diff.changes.iter().filter(|c| c.impact == impact).map(change_item).collect();
        (!items.is_empty()).then(|| {
            view! {
                <section class="compare-group">
                    <h3>{title}</h3>
                    <ul>{items}</ul>
                </section>
            }
        })
    })
    .collect_view();
    view! {
        <p class="compare-summary" data-testid="compare-summary">{summary(diff)}</p>
        {groups}
    }
}
