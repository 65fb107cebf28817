//! The selected step's capability boundary, from the core's explain: each
//! tool it may call with what the document says of it, the plain-English
//! summary (and, first, that no person decides before it, when PB220 or
//! PB221 says so), the line that every other call is refused, how the step
//! is entered and left, and its diagnostics.

use super::explain::playbook_step;
use super::parts::{
    approval, code_list, effects, item_diagnostics, step_links, RiskBadge, StepLink,
};
use super::selection::{Selection, Target};
use crate::checker::{Located, Report};
use crate::ui::diagnostics::{message, Jump};
use leptos::prelude::*;
use opb_core::explain::boundary::{
    AllowedTool, Family, ListForm, Requirement, Resolution, StepBoundary,
};
use opb_core::explain::{Explain, PlaybookExplain};
use opb_render::scene::WARNING_TRIANGLE;
use std::sync::Arc;

#[component]
pub fn StepPanel(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    selection: Selection,
    #[prop(into)] on_jump: Callback<Jump>,
) -> impl IntoView {
    move || {
        let target = selection.get();
        let report = report.get();
        let explain = match report.as_deref().and_then(|r| r.analysis.explain.as_ref()) {
            Some(Explain::Playbook(explain)) => explain,
            _ => return ().into_any(),
        };
        let step = match &target {
            Some(Target::Step(id)) => playbook_step(explain, id),
            _ => None,
        };
        match (step, report.as_deref()) {
            (Some(step), Some(report)) => {
                details(step, explain, report, selection, on_jump).into_any()
            }
            _ => hint(explain, &target).into_any(),
        }
    }
}

/// What the panel says before a step is selected.
fn hint(explain: &PlaybookExplain, target: &Option<Target>) -> impl IntoView {
    let name = explain.document.name.clone().or_else(|| explain.document.id.clone());
    let gone = match target {
        Some(Target::Step(id)) => Some(format!("The step {id} is no longer in the document.")),
        _ => None,
    };
    view! {
        <section class="step-panel empty" aria-label="Selected step">
            {name.map(|n| view! { <h3 class="document-title">{n}</h3> })}
            {explain.document.description.clone().map(|d| view! { <p class="document-description">{d}</p> })}
            {gone.map(|g| view! { <p class="panel-note-inline">{g}</p> })}
            <p class="hint">"Select a step in the graph (click it, or Tab to it and press Enter) to see what it may call and how risky that is."</p>
        </section>
    }
}

fn kind_text(step: &StepBoundary) -> String {
    match (step.kind.as_deref(), step.agent.as_deref()) {
        (Some("agent"), Some(agent)) => format!("Agent step, run by {agent}"),
        (Some("agent"), None) => "Agent step, no agent named".to_owned(),
        (Some("gate"), _) => "Gate: a person decides".to_owned(),
        (Some(kind), _) => format!("Step of kind “{kind}”"),
        (None, _) => "Step without a kind".to_owned(),
    }
}

fn details(
    step: &StepBoundary,
    explain: &PlaybookExplain,
    report: &Report,
    selection: Selection,
    on_jump: Callback<Jump>,
) -> impl IntoView {
    let id = step.id.clone().unwrap_or_default();
    let graph = &explain.graph;
    let is_end = graph.ends.contains(&id);
    let unreachable = graph.unreachable.contains(&id);
    let in_cycle = graph.cycles.iter().any(|c| c.contains(&id));
    let is_agent = step.kind.as_deref() == Some("agent");
    let next: Vec<(Option<String>, String)> = graph
        .edges
        .iter()
        .filter(|e| e.from == id)
        .map(|e| (e.label.as_deref().map(str::to_owned), e.to.to_string()))
        .collect();
    let diagnostics: Vec<&Located> = report
        .located
        .iter()
        .filter(|l| {
            report.analysis.anchors.item(&l.diagnostic.pointer) == Some(step.pointer.as_str())
        })
        .collect();

    let flags = view! {
        <div class="step-flags">
            {step.is_start.then(|| view! { <span class="chip start">"Start"</span> })}
            {is_end.then(|| view! { <span class="chip end">"Ends the playbook"</span> })}
            {unreachable.then(|| view! { <span class="chip warn">"Unreachable from the start"</span> })}
            {in_cycle.then(|| view! { <span class="chip loop">"In a loop"</span> })}
            {(step.behind_gate && !step.is_start).then(|| view! { <span class="chip gated">"Behind a gate"</span> })}
            {(step.errors > 0).then(|| view! {
                <span class="chip error">{format!("{} error{}", step.errors, if step.errors == 1 { "" } else { "s" })}</span>
            })}
        </div>
    };

    let boundary = match (is_agent, step.allowed_tools) {
        (true, ListForm::List) if !step.tools.is_empty() => view! {
            <h4>"May call"</h4>
            <div class="table-scroll">
                <table class="boundary-table">
                    <thead>
                        <tr><th scope="col">"Tool"</th><th scope="col">"Risk"</th><th scope="col">"Family"</th><th scope="col">"Effects"</th></tr>
                    </thead>
                    <tbody>{step.tools.iter().map(|t| allowed_row(t, selection)).collect_view()}</tbody>
                </table>
            </div>
            <p class="refusal" data-testid="refusal">
                <svg viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="7" width="10" height="7" rx="1.5" /><path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" /></svg>
                "Any other tool call is refused: this list is the step's whole capability boundary."
            </p>
        }
        .into_any(),
        (true, ListForm::NotAList) => view! {
            <p class="refusal unknown" data-testid="refusal">"Its allowedTools is not a list, so which tools it may call cannot be read."</p>
        }
        .into_any(),
        (true, _) => view! {
            <p class="refusal" data-testid="refusal">"It may call no tool: every tool call is refused."</p>
        }
        .into_any(),
        (false, _) => ().into_any(),
    };

    let entered = if step.is_start {
        view! { <span class="none">"the start"</span> }.into_any()
    } else {
        let mut from = step.entered_from.clone();
        from.extend(step.gated_by.iter().map(|g| g.gate.clone()));
        step_links(&from, selection)
    };
    let gates = step.gated_by.iter().map(|g| {
        let labels = if g.labels.is_empty() { String::new() } else { format!(" ({})", g.labels.join(", ")) };
        view! { <span class="gate-entry"><StepLink id=g.gate.to_string() selection=selection />{labels}</span> }
    });
    let leaves = if next.is_empty() {
        view! { <span class="none">{if is_end { "nowhere: the playbook ends here" } else { "no step that exists" }}</span> }.into_any()
    } else {
        next.into_iter()
            .map(|(label, to)| view! {
                <span class="next-entry">{label.map(|l| view! { <span class="branch">{l}</span>" → " })}<StepLink id=to selection=selection /></span>
            })
            .collect_view()
            .into_any()
    };

    let diagnostics_view = item_diagnostics(&diagnostics, on_jump);

    view! {
        <section class="step-panel" data-testid="step-panel" data-step=id.to_string() aria-label=format!("Step {id}")>
            <header class="step-header">
                <h3 class="step-id">{id.to_string()}</h3>
                <span class="step-kind">{kind_text(step)}</span>
                {is_agent.then(|| match (&step.highest_risk_class, step.risk_partly_unknown, step.tools.is_empty()) {
                    (_, _, true) => view! { <span class="risk-badge" data-risk="none">"no tools"</span> }.into_any(),
                    (risk, partly, false) => view! { <RiskBadge risk=risk.as_deref().map(str::to_owned) partly_unknown=partly && risk.is_some() /> }.into_any(),
                })}
            </header>
            {flags}
            {step.purpose.clone().map(|p| view! { <p class="step-purpose">{p}</p> })}
            {step.unsupervised_sentence().map(|sentence| view! {
                <p class="step-unsupervised" data-testid="step-unsupervised">
                    <svg class="graph" viewBox="-13 -14 26 25" aria-hidden="true"><g class="unsupervised-mark"><path d=WARNING_TRIANGLE /><text y="2.5">"!"</text></g></svg>
                    <span>{message(&sentence)}</span>
                </p>
            })}
            <p class="step-summary" data-testid="step-summary">{step.summary.clone()}</p>
            {boundary}
            <dl class="step-links">
                <dt>"Entered from"</dt><dd>{entered}</dd>
                {(!step.gated_by.is_empty()).then(|| view! { <dt>"Gated by"</dt><dd>{gates.collect_view()}</dd> })}
                <dt>"Goes on to"</dt><dd>{leaves}</dd>
            </dl>
            {diagnostics_view}
        </section>
    }
}

/// The family of a tool, as people read it.
fn family_text(family: Family, needs: Option<&Requirement>, connector: Option<&str>) -> String {
    match (family, needs) {
        (Family::BuiltIn, _) => "built-in".to_owned(),
        (Family::Connector, Some(Requirement::Connection { provider, .. })) => {
            format!("connector · {provider}")
        }
        (Family::Connector, _) => {
            connector.map_or_else(|| "connector".to_owned(), |c| format!("connector · {c}"))
        }
        (Family::Mcp, Some(Requirement::McpServer { server, .. })) => {
            format!("MCP · server {server}")
        }
        (Family::Mcp, _) => "MCP".to_owned(),
        (Family::BuiltInOrConnector, _) => "built-in or connector".to_owned(),
        (Family::Unknown, _) => "unknown source".to_owned(),
    }
}

/// Whether the declaration a tool needs is missing.
fn missing(needs: Option<&Requirement>) -> Option<String> {
    match needs? {
        Requirement::Connection { provider, declared: false } => {
            Some(format!("no {provider} connection in requires"))
        }
        Requirement::McpServer { server, declared: false } => {
            Some(format!("MCP server {server} not declared"))
        }
        _ => None,
    }
}

fn allowed_row(tool: &AllowedTool, selection: Selection) -> impl IntoView {
    match &tool.resolution {
        Resolution::Embedded { facts, .. } => {
            let name = facts.name.clone().unwrap_or_default();
            let scopes = (!facts.data_scope_resources.is_empty() || !facts.data_scope_writes.is_empty()).then(|| {
                view! {
                    <div class="tool-scopes">
                        {(!facts.data_scope_resources.is_empty()).then(|| view! { <span>"reads " {code_list(&facts.data_scope_resources, "")}</span> })}
                        {(!facts.data_scope_writes.is_empty()).then(|| view! { <span>"writes " {code_list(&facts.data_scope_writes, "")}</span> })}
                    </div>
                }
            });
            let target = Target::Tool(name.clone());
            view! {
                <tr data-tool=name.clone() data-resolution="embedded">
                    <td>
                        <a class="tool-name" href="#tools" on:click=move |_| selection.choose(Some(target.clone()))>{name.clone()}</a>
                        <span class="resolution embedded">"embedded"</span>
                        {missing(facts.needs.as_ref()).map(|m| view! { <span class="resolution invalid">{m}</span> })}
                        <div class="tool-permissions">"permissions " {code_list(&facts.permissions, "none listed")}</div>
                        {scopes}
                    </td>
                    <td><RiskBadge risk=facts.risk_class.clone() /></td>
                    <td>{family_text(facts.family, facts.needs.as_ref(), facts.connector_type.as_deref())}</td>
                    <td>
                        <div>{effects(facts.side_effecting)}</div>
                        <div class="approval">{approval(facts.requires_approval)}</div>
                    </td>
                </tr>
            }
            .into_any()
        }
        Resolution::RegistryOnly { name, family, needs } => view! {
            <tr data-tool=name.clone() data-resolution="registry-only">
                <td>
                    <code class="tool-name">{name.clone()}</code>
                    <span class="resolution registry">"registry only"</span>
                    {missing(needs.as_ref()).map(|m| view! { <span class="resolution invalid">{m}</span> })}
                    <div class="tool-permissions">"Not defined in the document: only a runtime's registry can say what it does."</div>
                </td>
                <td><span class="risk-badge" data-risk="unknown">"unknown"</span></td>
                <td>{family_text(*family, needs.as_ref(), None)}</td>
                <td><span class="flag unknown">"unknown"</span></td>
            </tr>
        }
        .into_any(),
        Resolution::Invalid { name, value_type, reason } => {
            let shown = name.clone().unwrap_or_else(|| format!("({value_type})"));
            view! {
                <tr data-tool=shown.clone() data-resolution="invalid">
                    <td colspan="4">
                        <code class="tool-name">{shown.clone()}</code>
                        <span class="resolution invalid">"invalid"</span>
                        <div class="tool-permissions">{format!("Not a tool name: {reason}.")}</div>
                    </td>
                </tr>
            }
            .into_any()
        }
    }
}
