//! The explain view of the `requires` block: each declaration with what uses
//! it, and what is missing, unused or mismatched, all read from the shared
//! [`CrossCheck`] so it says what the PB2xx/PB4xx rules say.

use super::{connection_provider, mcp_uses, tool_refs, CrossCheck};
use crate::model::playbook::{ConnectionView, McpServerView, PlaybookView};
use serde::Serialize;

/// What a harness must provide before the playbook runs, cross-referenced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequiresExplain {
    /// Whether the document has a `requires` object at all.
    pub declared: bool,
    /// `manifest.requiredConnectors`, as written (first of each).
    pub required_connectors: Vec<String>,
    /// `requires.connections`, in document order.
    pub connections: Vec<ConnectionExplain>,
    /// `requires.mcpServers`, in document order.
    pub mcp_servers: Vec<McpServerExplain>,
    /// `requires.secrets`, in document order.
    pub secrets: Vec<SecretExplain>,
    /// What something in the document needs and `requires` does not declare.
    pub missing: Vec<Missing>,
    /// Declarations nothing in the document uses.
    pub unused: Vec<Unused>,
    /// Declarations that disagree with the tools or the manifest.
    pub mismatched: Vec<Mismatch>,
}

/// One `requires.connections` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectionExplain {
    /// Position in `requires.connections`.
    pub index: usize,
    /// JSON pointer to the entry.
    pub pointer: String,
    /// The connector it is for, as written.
    pub provider: Option<String>,
    /// How it authenticates (`oauth`, `api_token`, `aggregator_link`), as written.
    pub auth_kind: Option<String>,
    /// OAuth scopes to request.
    pub scopes: Vec<String>,
    /// Embedded tool names the document says it uses from this provider.
    pub capabilities: Vec<String>,
    /// Whether `manifest.requiredConnectors` names the provider.
    pub required: bool,
    /// Embedded tools that need this connection (their provider is this one).
    pub tools: Vec<String>,
    /// Ids of the steps allowing one of those tools.
    pub steps: Vec<String>,
}

/// One `requires.mcpServers` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct McpServerExplain {
    /// Position in `requires.mcpServers`.
    pub index: usize,
    /// JSON pointer to the entry.
    pub pointer: String,
    /// The logical name tool names compose from (`mcp.<name>.<tool>`).
    pub name: Option<String>,
    /// The `toolNames` the document declares for it.
    pub tool_names: Vec<String>,
    /// Every `mcp.<name>.*` tool name the document uses, with its steps.
    pub tools: Vec<McpToolUse>,
}

/// One MCP tool name of a server, and where it is used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct McpToolUse {
    /// The full name, `mcp.<server>.<tool>`.
    pub name: String,
    /// Whether the document embeds a definition of it.
    pub embedded: bool,
    /// Whether the server's `toolNames` lists it.
    pub listed: bool,
    /// Ids of the steps allowing it.
    pub steps: Vec<String>,
}

/// One `requires.secrets` entry: a name and a purpose, never a value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SecretExplain {
    /// Position in `requires.secrets`.
    pub index: usize,
    /// JSON pointer to the entry.
    pub pointer: String,
    /// The secret's name (never its value).
    pub name: Option<String>,
    /// Why the secret is needed.
    pub purpose: Option<String>,
}

/// Something the document needs that `requires` does not declare.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Missing {
    /// A provider whose embedded connector tools steps allow, without a
    /// connection (PB409, or PB406 when `manifest.requiredConnectors` names
    /// it: see `required_connectors`).
    Connection {
        /// The provider without a connection.
        provider: String,
        /// The embedded tools of that provider that steps allow.
        tools: Vec<String>,
        /// Ids of the steps allowing them.
        steps: Vec<String>,
    },
    /// A `manifest.requiredConnectors` member without a connection, that no
    /// tool a step allows needs (PB406).
    RequiredConnection { provider: String },
    /// An MCP server that steps' tool names use and `requires.mcpServers`
    /// does not declare (PB212).
    McpServer {
        /// The server's logical name.
        server: String,
        /// The `mcp.<server>.<tool>` names steps allow.
        tools: Vec<String>,
        /// Ids of the steps allowing them.
        steps: Vec<String>,
    },
}

/// A declaration nothing uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Unused {
    /// A connection no embedded tool needs.
    Connection { provider: String },
    /// An MCP server no tool name uses (PB413).
    McpServer { server: String },
}

/// A declaration that disagrees with the rest of the document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Mismatch {
    /// A connection whose provider `manifest.requiredConnectors` does not name
    /// (PB405).
    ConnectionNotRequired { provider: String },
    /// A capability naming no embedded tool, or one of another provider
    /// (`tool_provider`, absent when the tool has none) (PB407).
    CapabilityUnknown { provider: Option<String>, capability: String, embedded: bool, tool_provider: Option<String> },
    /// An embedded connector tool steps allow that its provider's connection
    /// does not list in `capabilities` (PB408).
    CapabilityUnlisted { provider: String, tool: String, steps: Vec<String> },
    /// A `toolNames` entry that is not `mcp.<server>.<tool>` of its server
    /// (PB414).
    ToolNameForeign { server: String, tool_name: String },
    /// An MCP tool steps allow that its server's `toolNames` does not list
    /// (PB415).
    ToolNameUnlisted { server: String, tool: String, steps: Vec<String> },
}

/// Adds `value` to a list unless it is there already: the lists below name
/// each step or tool once, in first-seen order.
fn push_unique(list: &mut Vec<String>, value: &str) {
    if !list.iter().any(|v| v == value) {
        list.push(value.to_owned());
    }
}

/// Groups (key, tool, step) triples by key, keeping first-seen order.
fn group<'a>(items: impl Iterator<Item = (&'a str, &'a str, Option<&'a str>)>) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for (key, tool, step) in items {
        let index = match groups.iter().position(|(k, _, _)| k == key) {
            Some(index) => index,
            None => {
                groups.push((key.to_owned(), Vec::new(), Vec::new()));
                groups.len() - 1
            }
        };
        if let Some((_, tools, steps)) = groups.get_mut(index) {
            push_unique(tools, tool);
            if let Some(step) = step {
                push_unique(steps, step);
            }
        }
    }
    groups
}

fn owned(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

/// Builds the requires view from the shared cross-check.
pub fn explain(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>) -> RequiresExplain {
    let mut required_connectors = Vec::new();
    for connector in &view.required_connectors {
        push_unique(&mut required_connectors, connector.name);
    }
    let connections: Vec<ConnectionExplain> =
        view.requires.connections.iter().map(|c| connection(view, c, &required_connectors)).collect();
    let mcp_servers = view.requires.mcp_servers.iter().map(|s| mcp_server(view, s)).collect();
    let secrets = view
        .requires
        .secrets
        .iter()
        .map(|s| SecretExplain {
            index: s.index,
            pointer: s.ptr.to_string(),
            name: s.name.map(str::to_owned),
            purpose: s.purpose.map(str::to_owned),
        })
        .collect();

    // One entry per provider: one that tools need says which, and
    // `required_connectors` says whether the manifest names it too.
    let used = check.connectors_unconnected.iter().map(|r| (r.provider, r.at.entry.name, r.at.step.id));
    let mut missing: Vec<Missing> =
        group(used).into_iter().map(|(provider, tools, steps)| Missing::Connection { provider, tools, steps }).collect();
    missing.extend(
        check
            .required_unconnected
            .iter()
            .filter(|c| !check.connectors_unconnected.iter().any(|r| r.provider == c.name))
            .map(|c| Missing::RequiredConnection { provider: c.name.to_owned() }),
    );
    let undeclared = check.mcp_undeclared.iter().map(|r| (r.server, r.at.entry.name, r.at.step.id));
    missing.extend(group(undeclared).into_iter().map(|(server, tools, steps)| Missing::McpServer { server, tools, steps }));

    let mut unused: Vec<Unused> = connections
        .iter()
        .filter(|c| c.tools.is_empty())
        .filter_map(|c| c.provider.clone())
        .map(|provider| Unused::Connection { provider })
        .collect();
    unused.extend(
        check.mcp_servers_unused.iter().filter_map(|s| s.name).map(|name| Unused::McpServer { server: name.to_owned() }),
    );

    let mut mismatched: Vec<Mismatch> = check
        .connections_not_required
        .iter()
        .filter_map(|c| c.provider)
        .map(|provider| Mismatch::ConnectionNotRequired { provider: provider.to_owned() })
        .collect();
    mismatched.extend(check.capabilities_unknown.iter().map(|u| Mismatch::CapabilityUnknown {
        provider: u.connection.provider.map(str::to_owned),
        capability: u.capability.name.to_owned(),
        embedded: u.tool.is_some(),
        tool_provider: u.tool.and_then(|t| t.connector_type).map(str::to_owned),
    }));
    let unlisted = check.capabilities_unlisted.iter().map(|r| (r.provider, r.at.entry.name, r.at.step.id));
    for (provider, tool, steps) in group_pairs(unlisted) {
        mismatched.push(Mismatch::CapabilityUnlisted { provider, tool, steps });
    }
    mismatched.extend(check.mcp_tool_names_foreign.iter().filter_map(|f| {
        Some(Mismatch::ToolNameForeign { server: f.server.name?.to_owned(), tool_name: f.tool_name.name.to_owned() })
    }));
    let incomplete = check.mcp_tool_names_incomplete.iter().map(|r| (r.server, r.at.entry.name, r.at.step.id));
    for (server, tool, steps) in group_pairs(incomplete) {
        mismatched.push(Mismatch::ToolNameUnlisted { server, tool, steps });
    }

    RequiresExplain {
        declared: view.requires.node.is_some_and(|n| n.as_object().is_some()),
        required_connectors,
        connections,
        mcp_servers,
        secrets,
        missing,
        unused,
        mismatched,
    }
}

/// Groups (owner, tool, step) triples by (owner, tool): one entry per tool,
/// with the steps that allow it.
fn group_pairs<'a>(items: impl Iterator<Item = (&'a str, &'a str, Option<&'a str>)>) -> Vec<(String, String, Vec<String>)> {
    let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
    for (owner, tool, step) in items {
        let index = match groups.iter().position(|(o, t, _)| o == owner && t == tool) {
            Some(index) => index,
            None => {
                groups.push((owner.to_owned(), tool.to_owned(), Vec::new()));
                groups.len() - 1
            }
        };
        if let (Some((_, _, steps)), Some(step)) = (groups.get_mut(index), step) {
            push_unique(steps, step);
        }
    }
    groups
}

fn connection(
    view: &PlaybookView<'_>,
    connection: &ConnectionView<'_>,
    required_connectors: &[String],
) -> ConnectionExplain {
    let mut tools = Vec::new();
    let mut steps = Vec::new();
    if let Some(provider) = connection.provider {
        for tool in &view.tools {
            if let Some(name) = tool.name.filter(|_| connection_provider(tool) == Some(provider)) {
                push_unique(&mut tools, name);
            }
        }
        for at in tool_refs(view) {
            if let Some(id) = at.step.id.filter(|_| tools.iter().any(|t| t == at.entry.name)) {
                push_unique(&mut steps, id);
            }
        }
    }
    ConnectionExplain {
        index: connection.index,
        pointer: connection.ptr.to_string(),
        provider: connection.provider.map(str::to_owned),
        auth_kind: connection.auth_kind.map(str::to_owned),
        scopes: owned(&connection.scopes),
        capabilities: connection.capabilities.iter().map(|c| c.name.to_owned()).collect(),
        required: connection.provider.is_some_and(|p| required_connectors.iter().any(|r| r == p)),
        tools,
        steps,
    }
}

fn mcp_server(view: &PlaybookView<'_>, server: &McpServerView<'_>) -> McpServerExplain {
    let mut tools: Vec<McpToolUse> = Vec::new();
    if let Some(name) = server.name {
        for (_, tool) in mcp_uses(view).filter(|(s, _)| *s == name) {
            if !tools.iter().any(|t| t.name == tool) {
                tools.push(McpToolUse {
                    name: tool.to_owned(),
                    embedded: view.tool(tool).is_some(),
                    listed: server.tool_names.iter().any(|n| n.name == tool),
                    steps: Vec::new(),
                });
            }
        }
        for at in tool_refs(view) {
            let (Some(id), Some(tool)) = (at.step.id, tools.iter_mut().find(|t| t.name == at.entry.name)) else {
                continue;
            };
            push_unique(&mut tool.steps, id);
        }
    }
    McpServerExplain {
        index: server.index,
        pointer: server.ptr.to_string(),
        name: server.name.map(str::to_owned),
        tool_names: server.tool_names.iter().map(|n| n.name.to_owned()).collect(),
        tools,
    }
}
