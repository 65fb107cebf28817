//! Small pieces the panels share: risk badges, links to steps,
//! yes/no/undeclared cells and defaults.

use super::selection::{Selection, Target};
use crate::checker::Located;
use crate::ui::diagnostics::{message, Jump, SeverityIcon};
use leptos::prelude::*;
use opb_core::CompactString;
use opb_render::drawing::risk_word;

/// A risk class as a coloured badge with its name, so it reads without
/// colour too; `None` is a tool whose risk the document does not declare.
#[component]
pub fn RiskBadge(risk: Option<String>, #[prop(optional)] partly_unknown: bool) -> impl IntoView {
    let (key, text) = match &risk {
        Some(class) => (class.clone(), risk_word(class).to_owned()),
        None => ("unknown".to_owned(), "undeclared".to_owned()),
    };
    let title = partly_unknown.then_some(
        "Some of its tools do not declare a risk class: the real highest risk may be higher.",
    );
    view! {
        <span class="risk-badge" data-risk=key class:partly-unknown=partly_unknown title=title>
            {text}
            {partly_unknown.then_some(" +?")}
        </span>
    }
}

/// A step's id as a link to it in the graph.
#[component]
pub fn StepLink(id: String, selection: Selection) -> impl IntoView {
    let target = Target::Step(id.clone());
    view! {
        <a
            class="step-link"
            href="#graph"
            data-step-link=id.clone()
            title=format!("Show step {id} in the graph")
            on:click=move |ev| {
                // Inside a clickable row, the link alone acts.
                ev.stop_propagation();
                selection.choose(Some(target.clone()));
            }
        >
            {id.clone()}
        </a>
    }
}

/// Step links, or a dash when there are none.
pub fn step_links(ids: &[CompactString], selection: Selection) -> AnyView {
    if ids.is_empty() {
        return view! { <span class="none">"none"</span> }.into_any();
    }
    ids.iter()
        .map(|id| view! { <StepLink id=id.to_string() selection=selection /> })
        .collect_view()
        .into_any()
}

/// Names set as code, comma-separated, or a dash when there are none.
pub fn code_list(names: &[String], none: &'static str) -> AnyView {
    if names.is_empty() {
        return view! { <span class="none">{none}</span> }.into_any();
    }
    let last = names.len() - 1;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| view! { <code>{name.clone()}</code>{(i < last).then_some(", ")} })
        .collect_view()
        .into_any()
}

/// What a tool does to data, as it declares it (`sideEffecting`).
pub fn effects(side_effecting: Option<bool>) -> AnyView {
    match side_effecting {
        Some(false) => view! { <span class="flag no">"reads only"</span> }.into_any(),
        Some(true) => view! { <span class="flag yes">"changes data"</span> }.into_any(),
        None => view! { <span class="flag unknown">"effects not declared"</span> }.into_any(),
    }
}

/// Whether a person approves each call, as a tool declares it.
pub fn approval(requires: Option<bool>) -> AnyView {
    match requires {
        Some(true) => {
            view! { <span class="flag yes">"a person approves each call"</span> }.into_any()
        }
        Some(false) => view! { <span class="flag no">"no approval"</span> }.into_any(),
        None => view! { <span class="flag unknown">"approval not declared"</span> }.into_any(),
    }
}

/// A value the seed defaults, marked when it is the default.
pub fn defaulted(text: String, default: bool) -> impl IntoView {
    view! {
        <span class="value" class:is-default=default>
            {text}
            {default.then(|| view! { <span class="default-tag" title="Not set: the seed's default">"default"</span> })}
        </span>
    }
}

/// The diagnostics of one step or tool, each a button that moves the editor
/// to it; nothing when there are none.
pub fn item_diagnostics(
    diagnostics: &[&Located],
    on_jump: Callback<Jump>,
) -> Option<impl IntoView> {
    (!diagnostics.is_empty()).then(|| {
        let items = diagnostics
            .iter()
            .map(|l| {
                let d = &l.diagnostic;
                let jump = Jump { from: l.from, to: l.to };
                view! {
                    <li>
                        <button class="step-diagnostic" data-code=d.code on:click=move |_| on_jump.run(jump)>
                            <SeverityIcon severity=d.severity />
                            <span>{message(&d.message)}</span>
                            <span class="rule-code">{d.code}</span>
                        </button>
                    </li>
                }
            })
            .collect_view();
        view! { <h4>"Diagnostics"</h4><ul class="step-diagnostics">{items}</ul> }
    })
}
