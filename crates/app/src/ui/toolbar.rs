//! The editor's toolbar: the examples menu, the syntax, pretty-printing and
//! conversion, and the notice that reports what a transformation did.

use super::diagnostics::message;
use crate::examples::Example;
use crate::format::{other, syntax_label};
use leptos::prelude::*;
use opb_core::Syntax;

/// A short message about the last transformation.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub error: bool,
    pub text: String,
}

#[component]
pub fn Toolbar(
    examples: Vec<Example>,
    #[prop(into)] selected: Signal<String>,
    #[prop(into)] syntax: Signal<Syntax>,
    notice: RwSignal<Option<Notice>>,
    #[prop(into)] on_example: Callback<String>,
    #[prop(into)] on_format: Callback<()>,
    #[prop(into)] on_convert: Callback<Syntax>,
) -> impl IntoView {
    let options = examples
        .into_iter()
        .map(|example| {
            let name = example.name;
            view! { <option value=name selected=move || selected.get() == name>{name}</option> }
        })
        .collect_view();
    view! {
        <div class="toolbar">
            <label class="examples">
                <span class="toolbar-label">"Example"</span>
                <select
                    data-testid="examples"
                    on:change=move |ev| on_example.run(event_target_value(&ev))
                    prop:value=move || selected.get()
                >
                    <option value="" disabled selected=move || selected.with(String::is_empty)>"Choose an example…"</option>
                    {options}
                </select>
            </label>
            <span class="syntax-badge" data-testid="syntax">{move || syntax_label(syntax.get())}</span>
            <div class="toolbar-actions">
                <button class="button" data-testid="format" on:click=move |_| on_format.run(()) title="Re-indent the document in its syntax">
                    "Format"
                </button>
                <button
                    class="button"
                    data-testid="convert"
                    on:click=move |_| on_convert.run(other(syntax.get_untracked()))
                    title="Rewrite the document in the other syntax, keeping every value"
                >
                    {move || format!("Convert to {}", syntax_label(other(syntax.get())))}
                </button>
            </div>
        </div>
        {move || notice.get().map(|n| view! {
            <div class="notice" class:error=n.error role="status" data-testid="notice">
                <span>{message(&n.text)}</span>
                <button class="notice-close" aria-label="Dismiss" on:click=move |_| notice.set(None)>"×"</button>
            </div>
        })}
    }
}
