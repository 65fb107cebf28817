//! What a harness must provide before the playbook runs: connections, MCP
//! servers and secrets, each with what uses it, and what the core's
//! cross-check finds missing, unused or mismatched.

use super::parts::{code_list, step_links};
use super::selection::Selection;
use crate::checker::Report;
use leptos::prelude::*;
use opb_core::explain::requires::{
    ConnectionExplain, McpServerExplain, Mismatch, Missing, RequiresExplain, Unused,
};
use opb_core::explain::Explain;
use opb_core::CompactString;
use std::sync::Arc;

/// How serious a cross-check finding is, as the panel marks it.
#[derive(Clone, Copy)]
enum Weight {
    Missing,
    Mismatched,
    Unused,
}

impl Weight {
    fn as_str(self) -> &'static str {
        match self {
            Weight::Missing => "missing",
            Weight::Mismatched => "mismatched",
            Weight::Unused => "unused",
        }
    }
}

/// One finding of the cross-check, in words.
struct Issue {
    weight: Weight,
    /// A stable name for tests and styles: `missing-connection`, …
    what: &'static str,
    /// The provider or server it is about.
    subject: String,
    text: AnyView,
    steps: Vec<CompactString>,
}

fn list(names: &[String]) -> AnyView {
    code_list(names, "none")
}

fn missing(m: &Missing) -> Issue {
    match m {
        Missing::Connection { provider, tools, steps } => Issue {
            weight: Weight::Missing,
            what: "missing-connection",
            subject: provider.clone(),
            text: view! { "No connection to " <strong>{provider.clone()}</strong> ", which " {list(tools)} " need" {(tools.len() == 1).then_some("s")} "." }.into_any(),
            steps: steps.clone(),
        },
        Missing::RequiredConnection { provider } => Issue {
            weight: Weight::Missing,
            what: "missing-required-connection",
            subject: provider.clone(),
            text: view! { <code>"manifest.requiredConnectors"</code> " names " <strong>{provider.clone()}</strong> ", but no connection to it is declared." }.into_any(),
            steps: Vec::new(),
        },
        Missing::McpServer { server, tools, steps } => Issue {
            weight: Weight::Missing,
            what: "missing-mcp-server",
            subject: server.clone(),
            text: view! { "No MCP server " <strong>{server.clone()}</strong> " is declared, which " {list(tools)} " need" {(tools.len() == 1).then_some("s")} "." }.into_any(),
            steps: steps.clone(),
        },
    }
}

fn unused(u: &Unused) -> Issue {
    match u {
        Unused::Connection { provider } => Issue {
            weight: Weight::Unused,
            what: "unused-connection",
            subject: provider.clone(),
            text: view! { "The connection to " <strong>{provider.clone()}</strong> " is needed by no embedded tool." }.into_any(),
            steps: Vec::new(),
        },
        Unused::McpServer { server } => Issue {
            weight: Weight::Unused,
            what: "unused-mcp-server",
            subject: server.clone(),
            text: view! { "MCP server " <strong>{server.clone()}</strong> " is used by no tool name." }.into_any(),
            steps: Vec::new(),
        },
    }
}

fn mismatched(m: &Mismatch) -> Issue {
    match m {
        Mismatch::ConnectionNotRequired { provider } => Issue {
            weight: Weight::Mismatched,
            what: "connection-not-required",
            subject: provider.clone(),
            text: view! { "There is a connection to " <strong>{provider.clone()}</strong> ", but " <code>"manifest.requiredConnectors"</code> " does not name it." }.into_any(),
            steps: Vec::new(),
        },
        Mismatch::CapabilityUnknown { provider, capability, embedded, tool_provider } => {
            let whose = provider.clone().unwrap_or_else(|| "a connection without a provider".to_owned());
            let why = match (embedded, tool_provider) {
                (false, _) => "which is not an embedded tool".to_owned(),
                (true, Some(other)) => format!("which is a tool of {other}"),
                (true, None) => "whose tool names no provider".to_owned(),
            };
            Issue {
                weight: Weight::Mismatched,
                what: "capability-unknown",
                subject: whose.clone(),
                text: view! { "The " <strong>{whose}</strong> " connection lists " <code>{capability.clone()}</code> ", " {why} "." }.into_any(),
                steps: Vec::new(),
            }
        }
        Mismatch::CapabilityUnlisted { provider, tool, steps } => Issue {
            weight: Weight::Mismatched,
            what: "capability-unlisted",
            subject: provider.clone(),
            text: view! { <code>{tool.clone()}</code> " is a " {provider.clone()} " tool, but the " <strong>{provider.clone()}</strong> " connection's capabilities do not list it." }.into_any(),
            steps: steps.clone(),
        },
        Mismatch::ToolNameForeign { server, tool_name } => Issue {
            weight: Weight::Mismatched,
            what: "tool-name-foreign",
            subject: server.clone(),
            text: view! { "MCP server " <strong>{server.clone()}</strong> " lists " <code>{tool_name.clone()}</code> ", which is not one of its " <code>{format!("mcp.{server}.*")}</code> " names." }.into_any(),
            steps: Vec::new(),
        },
        Mismatch::ToolNameUnlisted { server, tool, steps } => Issue {
            weight: Weight::Mismatched,
            what: "tool-name-unlisted",
            subject: server.clone(),
            text: view! { <code>{tool.clone()}</code> " is allowed, but MCP server " <strong>{server.clone()}</strong> "'s toolNames do not list it." }.into_any(),
            steps: steps.clone(),
        },
    }
}

fn issues(requires: &RequiresExplain) -> Vec<Issue> {
    requires
        .missing
        .iter()
        .map(missing)
        .chain(requires.mismatched.iter().map(mismatched))
        .chain(requires.unused.iter().map(unused))
        .collect()
}

#[component]
pub fn RequiresPanel(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    selection: Selection,
) -> impl IntoView {
    move || {
        let report = report.get();
        let Some(Explain::Playbook(explain)) =
            report.as_deref().and_then(|r| r.analysis.explain.as_ref())
        else {
            return view! { <p class="panel-empty">"The requires view is for playbooks that can be read."</p> }.into_any();
        };
        let requires = &explain.requires;
        let found = issues(requires);
        let summary = if found.is_empty() {
            view! { <p class="cross-check ok" data-testid="cross-check-ok">"Every declaration is used, and everything the steps need is declared."</p> }.into_any()
        } else {
            let items = found
                .into_iter()
                .map(|issue| {
                    view! {
                        <li class="issue" data-weight=issue.weight.as_str() data-issue=issue.what data-subject=issue.subject>
                            <span class="issue-weight">{issue.weight.as_str()}</span>
                            <span class="issue-text">{issue.text}</span>
                            {(!issue.steps.is_empty()).then(|| view! {
                                <span class="issue-steps">"allowed by " {step_links(&issue.steps, selection)}</span>
                            })}
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="cross-check" data-testid="cross-check">{items}</ul> }.into_any()
        };
        view! {
            <div class="viewer-scroll requires-panel" data-testid="requires-panel">
                <section>
                    <h3>"Cross-check"</h3>
                    {(!requires.declared).then(|| view! { <p class="panel-note-inline">"The document has no requires block."</p> })}
                    {summary}
                </section>
                <section>
                    <h3>"Connections" <span class="count-pill">{requires.connections.len()}</span></h3>
                    {connections(requires, selection)}
                </section>
                <section>
                    <h3>"MCP servers" <span class="count-pill">{requires.mcp_servers.len()}</span></h3>
                    {mcp_servers(&requires.mcp_servers, selection)}
                </section>
                <section>
                    <h3>"Secrets" <span class="count-pill">{requires.secrets.len()}</span></h3>
                    {secrets(requires)}
                </section>
            </div>
        }
        .into_any()
    }
}

fn connections(requires: &RequiresExplain, selection: Selection) -> AnyView {
    if requires.connections.is_empty() {
        return view! { <p class="none-declared">"No connections declared."</p> }.into_any();
    }
    let rows = requires.connections.iter().map(|c| connection_row(c, selection)).collect_view();
    view! {
        <div class="table-scroll">
            <table class="requires-table" data-testid="connections">
                <thead><tr><th scope="col">"Provider"</th><th scope="col">"Auth"</th><th scope="col">"Scopes"</th><th scope="col">"Capabilities"</th><th scope="col">"Used by"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn connection_row(c: &ConnectionExplain, selection: Selection) -> impl IntoView {
    let provider = c.provider.clone().unwrap_or_else(|| "(no provider)".to_owned());
    view! {
        <tr data-provider=provider.clone()>
            <td>
                <strong class="cell-title">{provider.clone()}</strong>
                {if c.required {
                    view! { <span class="flag yes" title="manifest.requiredConnectors names it">"required"</span> }.into_any()
                } else {
                    view! { <span class="flag unknown" title="manifest.requiredConnectors does not name it">"not in requiredConnectors"</span> }.into_any()
                }}
                {c.duplicate.then(|| view! { <span class="resolution invalid">"repeats an earlier connection"</span> })}
            </td>
            <td>{c.auth_kind.clone().unwrap_or_else(|| "—".to_owned())}</td>
            <td>{code_list(&c.scopes, "none")}</td>
            <td>{code_list(&c.capabilities, "none")}</td>
            <td>
                {code_list(&c.tools, "no tool")}
                {(!c.steps.is_empty()).then(|| view! { <div class="used-steps">"in " {step_links(&c.steps, selection)}</div> })}
            </td>
        </tr>
    }
}

fn mcp_servers(servers: &[McpServerExplain], selection: Selection) -> AnyView {
    if servers.is_empty() {
        return view! { <p class="none-declared">"No MCP servers declared."</p> }.into_any();
    }
    let rows = servers
        .iter()
        .map(|s| {
            let name = s.name.clone().unwrap_or_else(|| "(no name)".to_owned());
            let uses = s
                .tools
                .iter()
                .map(|t| {
                    view! {
                        <li>
                            <code>{t.name.clone()}</code>
                            {(!t.embedded).then(|| view! { <span class="resolution registry">"registry only"</span> })}
                            {(!t.listed).then(|| view! { <span class="resolution invalid">"not in toolNames"</span> })}
                            " in " {step_links(&t.steps, selection)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <tr data-server=name.clone()>
                    <td>
                        <strong class="cell-title">{name.clone()}</strong>
                        {s.duplicate.then(|| view! { <span class="resolution invalid">"repeats an earlier server"</span> })}
                    </td>
                    <td>{code_list(&s.tool_names, "none")}</td>
                    <td>{if s.tools.is_empty() { view! { <span class="none">"no tool name"</span> }.into_any() } else { view! { <ul class="uses">{uses}</ul> }.into_any() }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="requires-table" data-testid="mcp-servers">
                <thead><tr><th scope="col">"Logical name"</th><th scope="col">"Tool names"</th><th scope="col">"Used by"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn secrets(requires: &RequiresExplain) -> AnyView {
    if requires.secrets.is_empty() {
        return view! { <p class="none-declared">"No secrets declared."</p> }.into_any();
    }
    let rows = requires
        .secrets
        .iter()
        .map(|s| {
            view! {
                <tr data-secret=s.name.clone()>
                    <td><code>{s.name.clone().unwrap_or_else(|| "(no name)".to_owned())}</code></td>
                    <td>{s.purpose.clone().unwrap_or_else(|| "no purpose given".to_owned())}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="requires-table" data-testid="secrets">
                <thead><tr><th scope="col">"Name"</th><th scope="col">"Purpose: what needs it"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="panel-note-inline">"Names and purposes only: a playbook never carries a secret's value, and the format does not say which step uses a secret, so its purpose is what tells."</p>
    }
    .into_any()
}
