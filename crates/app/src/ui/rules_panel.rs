//! The rules tab: every rule of the core's registry, and one rule's
//! documentation when a diagnostic's link (`#rules/<CODE>`) selects it.

use super::diagnostics::{message, SeverityIcon};
use super::markdown::Markdown;
use crate::markdown;
use leptos::prelude::*;
use opb_core::{Group, Rule};

/// The rules of the registry, grouped as `spec/RULES.md` sections them, in
/// catalogue order.
pub fn grouped() -> Vec<(Group, Vec<&'static Rule>)> {
    let mut groups: Vec<(Group, Vec<&'static Rule>)> = Vec::new();
    for rule in opb_core::rules() {
        match groups.iter_mut().find(|(g, _)| *g == rule.group) {
            Some((_, members)) => members.push(rule),
            None => groups.push((rule.group, vec![rule])),
        }
    }
    groups
}

/// `selected` is a rule code (or name) from the address, if any. `origin`
/// is the code of the problem whose rule link opened the page, if one did:
/// that rule's page leads back to it (`on_back`).
#[component]
pub fn RulesPanel(
    #[prop(into)] selected: Signal<Option<String>>,
    #[prop(optional)] origin: Option<Signal<Option<&'static str>>>,
    #[prop(optional)] on_back: Option<Callback<()>>,
) -> impl IntoView {
    move || match selected.get() {
        Some(code) => match opb_core::rule(&code) {
            Some(rule) => {
                let from_problem = origin.is_some_and(|o| o.get() == Some(rule.code));
                let back = from_problem.then(|| view! {
                    <a class="back-link back-to-problem" href="#diagnostics" data-testid="back-to-problem" on:click=move |_| {
                        if let Some(on_back) = on_back {
                            on_back.run(());
                        }
                    }>
                        "← Back to the problem"
                    </a>
                });
                rule_page(rule, back).into_any()
            }
            None => view! {
                <div class="rules-panel">
                    <a class="back-link" href="#rules">"← All rules"</a>
                    <p class="panel-empty">{format!("No rule is called “{code}”.")}</p>
                </div>
            }
            .into_any(),
        },
        None => index().into_any(),
    }
}

fn rule_page(rule: &'static Rule, back: Option<impl IntoView>) -> impl IntoView {
    view! {
        <article class="rules-panel rule-page" data-rule=rule.code>
            {back}
            <a class="back-link" href="#rules">"← All rules"</a>
            <header class="rule-header">
                <SeverityIcon severity=rule.severity />
                <span class="rule-code">{rule.code}</span>
                <span class="rule-title">{rule.name}</span>
                <span class="severity-badge" data-severity=rule.severity.as_str()>{rule.severity.as_str()}</span>
            </header>
            <p class="rule-group">{rule.group.title()}</p>
            <Markdown documentation=markdown::documentation(rule) />
        </article>
    }
}

fn index() -> impl IntoView {
    let groups = grouped()
        .into_iter()
        .map(|(group, members)| {
            let items = members
                .into_iter()
                .map(|rule| {
                    view! {
                        <li>
                            <a class="rule-row" href=format!("#rules/{}", rule.code)>
                                <SeverityIcon severity=rule.severity />
                                <span class="rule-code">{rule.code}</span>
                                <span class="rule-name">{rule.name}</span>
                                <span class="rule-summary">{message(rule.summary)}</span>
                            </a>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="rule-group-section">
                    <h3>{group.title()}</h3>
                    <ul class="rule-index">{items}</ul>
                </section>
            }
        })
        .collect_view();
    view! { <div class="rules-panel">{groups}</div> }
}
