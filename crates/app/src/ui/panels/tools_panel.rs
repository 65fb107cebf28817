//! The playbook's embedded tools, riskiest first, with a legend of the risk
//! classes, and for each tool where it comes from, what it does to data,
//! whether a person approves it, its scope, and the steps that allow it.

use super::drift::{drift_by_tool, DriftCell, RegistryNote};
use super::parts::{approval, effects, step_links, RiskBadge};
use super::selection::{Selection, Target};
use crate::checker::{Located, Report};
use crate::ui::registry::RegistryState;
use leptos::prelude::*;
use opb_core::explain::boundary::{by_risk, Family, Requirement, ToolExplain};
use opb_core::explain::Explain;
use opb_core::spec::{risk_meaning, RISK_CLASSES};
use std::collections::HashMap;
use std::sync::Arc;

#[component]
pub fn ToolsPanel(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    selection: Selection,
) -> impl IntoView {
    // A loaded registry adds a column: each tool's drift from it.
    let registry = use_context::<RegistryState>();
    let table = move || {
        let report = report.get();
        let compared = registry.and_then(|r| r.name()).zip(report.as_deref().map(drift_by_tool));
        let Some(Explain::Playbook(explain)) =
            report.as_deref().and_then(|r| r.analysis.explain.as_ref())
        else {
            return view! { <p class="panel-empty">"The tools table is for playbooks that can be read."</p> }.into_any();
        };
        if explain.tools.is_empty() {
            return view! {
                <p class="panel-empty">"This playbook embeds no tool definitions: what its steps call can only be explained by a runtime's registry."</p>
            }
            .into_any();
        }
        let drift = compared.as_ref().map(|(_, drift)| drift);
        let rows = by_risk(&explain.tools)
            .into_iter()
            .map(|tool| row(tool, selection, drift))
            .collect_view();
        let note = compared.as_ref().map(|(name, drift)| {
            let count = |severity: &str| drift.values().flatten().filter(|l| l.diagnostic.severity.as_str() == severity).count();
            view! { <RegistryNote name=name.clone() warnings=count("warning") infos=count("info") /> }
        });
        view! {
            {note}
            <div class="table-scroll">
                <table class="tools-table" data-testid="tools-table">
                    <thead>
                        <tr>
                            <th scope="col">"Tool"</th>
                            <th scope="col">"Risk"</th>
                            <th scope="col">"Source"</th>
                            <th scope="col">"Effects"</th>
                            <th scope="col">"Allowed by"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <div class="viewer-scroll tools-panel">
            <Legend />
            {table}
        </div>
    }
}

/// Each risk class with its colour and what it means.
#[component]
pub fn Legend() -> impl IntoView {
    let items = RISK_CLASSES
        .iter()
        .rev()
        .map(|class| {
            view! {
                <li data-risk=*class>
                    <RiskBadge risk=Some((*class).to_owned()) />
                    <span>{risk_meaning(class).unwrap_or_default()}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="risk-legend" data-testid="risk-legend" aria-label="Risk classes">
            <h3>"Risk classes, most consequential first"</h3>
            <ul>{items}</ul>
        </section>
    }
}

/// Where a tool comes from: its family, and the connector or MCP server.
fn source(tool: &ToolExplain) -> impl IntoView {
    let facts = &tool.facts;
    let (family, detail, missing) = match (facts.family, facts.needs.as_ref()) {
        (Family::BuiltIn, _) => ("built-in", None, false),
        (Family::Connector, Some(Requirement::Connection { provider, declared })) => {
            ("connector", Some(provider.clone()), !declared)
        }
        (Family::Connector, _) => ("connector", facts.connector_type.clone(), false),
        (Family::Mcp, Some(Requirement::McpServer { server, declared })) => {
            ("MCP", Some(format!("server {server}")), !declared)
        }
        (Family::Mcp, _) => ("MCP", None, false),
        (Family::BuiltInOrConnector, _) => ("built-in or connector", None, false),
        (Family::Unknown, _) => {
            ("unknown", facts.source.clone().map(|s| format!("source “{s}”")), false)
        }
    };
    view! {
        <span class="family">{family}</span>
        {detail.map(|d| view! { <span class="family-detail">{d}</span> })}
        {missing.then(|| view! { <span class="resolution invalid" title="requires does not declare it">"not declared"</span> })}
    }
}

fn row(
    tool: &ToolExplain,
    selection: Selection,
    drift: Option<&HashMap<String, Vec<&Located>>>,
) -> impl IntoView {
    let facts = &tool.facts;
    let name = facts.name.clone().unwrap_or_else(|| format!("tools[{}]", tool.index));
    let target = Target::Tool(name.clone());
    let selected = {
        let target = target.clone();
        move || selection.is(&target)
    };
    let choose = move |_| selection.choose(Some(target.clone()));
    view! {
        <tr data-tool=name.clone() data-risk=facts.risk_class.clone() class:selected=selected on:click=choose>
            <td>
                <button class="tool-name link-button" title="Show its definition in the editor">{name.clone()}</button>
                {facts.description.clone().map(|d| view! { <div class="tool-description">{d}</div> })}
                {drift.map(|drift| {
                    let findings = drift.get(&name).map(|found| found.iter().map(|l| (*l).clone()).collect()).unwrap_or_default();
                    view! { <div class="drift" data-testid="drift"><DriftCell findings=findings /></div> }
                })}
                {(tool.errors > 0).then(|| view! {
                    <span class="resolution invalid">{format!("{} error{}", tool.errors, if tool.errors == 1 { "" } else { "s" })}</span>
                })}
            </td>
            <td><RiskBadge risk=facts.risk_class.clone() /></td>
            <td>
                {source(tool)}
                {facts.scope.clone().map(|scope| view! { <span class="family-detail">{format!("{scope} scope")}</span> })}
            </td>
            <td>
                <div>{effects(facts.side_effecting)}</div>
                <div class="approval">{approval(facts.requires_approval)}</div>
            </td>
            <td class="allowed-by">{step_links(&tool.allowed_by, selection)}</td>
        </tr>
    }
}
