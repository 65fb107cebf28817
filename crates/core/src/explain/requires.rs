//! The explain view of the `requires` block: each declaration with what uses
//! it, and what is missing, unused or mismatched, all read from the
//! cross-check the PB2xx/PB4xx rules read, so it says what they say.

use crate::views::playbook::{ConnectionView, McpServerView, PlaybookView};
use crate::views::requires::{connection_provider, mcp_uses, AllowingSteps, CrossCheck};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::CompactString;
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
    /// Whether an earlier connection has the same provider (PB404): lookups
    /// see the first, so what uses the provider is listed there, not here.
    pub duplicate: bool,
    /// Embedded tools that need this connection (their provider is this one).
    pub tools: Vec<String>,
    /// Ids of the steps allowing one of those tools.
    pub steps: Vec<CompactString>,
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
    /// Whether an earlier server has the same name (PB412): what uses the
    /// name is listed on the first, not here.
    pub duplicate: bool,
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
    pub steps: Vec<CompactString>,
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
        steps: Vec<CompactString>,
    },
    /// A `manifest.requiredConnectors` member without a connection, that no
    /// tool a step allows needs (PB406).
    RequiredConnection {
        /// The provider `manifest.requiredConnectors` names.
        provider: String,
    },
    /// An MCP server that steps' tool names use and `requires.mcpServers`
    /// does not declare (PB212).
    McpServer {
        /// The server's logical name.
        server: String,
        /// The `mcp.<server>.<tool>` names steps allow.
        tools: Vec<String>,
        /// Ids of the steps allowing them.
        steps: Vec<CompactString>,
    },
}

/// A declaration nothing uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Unused {
    /// A connection no embedded tool needs.
    Connection {
        /// The connection's provider.
        provider: String,
    },
    /// An MCP server no tool name uses (PB413).
    McpServer {
        /// The server's logical name.
        server: String,
    },
}

/// A declaration that disagrees with the rest of the document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Mismatch {
    /// A connection whose provider `manifest.requiredConnectors` does not name
    /// (PB405).
    ConnectionNotRequired {
        /// The connection's provider.
        provider: String,
    },
    /// A capability naming no embedded tool, or one of another provider
    /// (PB407).
    CapabilityUnknown {
        /// The provider of the connection that lists it, as written.
        provider: Option<String>,
        /// The `capabilities` entry.
        capability: String,
        /// Whether a tool of that name is embedded (of another provider, then).
        embedded: bool,
        /// That tool's `connectorType`; absent when it has none or none is
        /// embedded.
        tool_provider: Option<String>,
    },
    /// An embedded connector tool steps allow that its provider's connection
    /// does not list in `capabilities` (PB408).
    CapabilityUnlisted {
        /// The tool's provider.
        provider: String,
        /// The tool's name.
        tool: String,
        /// Ids of the steps allowing it.
        steps: Vec<CompactString>,
    },
    /// A `toolNames` entry that is not `mcp.<server>.<tool>` of its server
    /// (PB414).
    ToolNameForeign {
        /// The server whose `toolNames` has it.
        server: String,
        /// The entry as written.
        tool_name: String,
    },
    /// An MCP tool steps allow that its server's `toolNames` does not list
    /// (PB415).
    ToolNameUnlisted {
        /// The server's logical name.
        server: String,
        /// The full name, `mcp.<server>.<tool>`.
        tool: String,
        /// Ids of the steps allowing it.
        steps: Vec<CompactString>,
    },
}

/// A tool name and the ids of the steps allowing it.
type ToolSteps<'a> = (&'a str, Vec<&'a str>);

/// A key (a provider or server) and its tools.
type Group<'a> = (&'a str, Vec<ToolSteps<'a>>);

/// Groups (key, tool, step) triples by key, then by tool: each key's tools
/// with, for each tool, the steps that allow it; all in first-seen order and
/// without repeats.
fn group<'a>(items: impl Iterator<Item = (&'a str, &'a str, Option<&'a str>)>) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    let mut group_at: HashMap<&str, usize> = HashMap::new();
    let mut tool_at: HashMap<(&str, &str), usize> = HashMap::new();
    let mut seen = HashSet::new();
    for (key, tool, step) in items {
        let g = *group_at.entry(key).or_insert_with(|| {
            groups.push((key, Vec::new()));
            groups.len() - 1
        });
        let Some((_, tools)) = groups.get_mut(g) else { continue };
        let t = *tool_at.entry((key, tool)).or_insert_with(|| {
            tools.push((tool, Vec::new()));
            tools.len() - 1
        });
        if let (Some((_, steps)), Some(step)) = (tools.get_mut(t), step) {
            if seen.insert((key, tool, step)) {
                steps.push(step);
            }
        }
    }
    groups
}

/// The names or step ids of a list, owned.
fn owned<S: for<'s> From<&'s str>>(values: &[&str]) -> Vec<S> {
    values.iter().map(|v| S::from(v)).collect()
}

/// A group's tools, and the union of their steps, each once.
fn flatten(tools: Vec<ToolSteps<'_>>) -> (Vec<String>, Vec<CompactString>) {
    let mut seen = HashSet::new();
    let steps = tools
        .iter()
        .flat_map(|(_, steps)| steps)
        .filter(|s| seen.insert(**s))
        .map(|s| CompactString::new(s))
        .collect();
    (tools.into_iter().map(|(tool, _)| tool.to_owned()).collect(), steps)
}

/// What the requires view reads about uses, indexed once.
struct Uses<'u, 'a> {
    /// Ids of the steps allowing each tool name.
    steps: &'u AllowingSteps<'a>,
    /// The embedded tools that need each provider's connection.
    provider_tools: HashMap<&'a str, Vec<&'a str>>,
    /// The MCP tool names the document uses, by server.
    server_tools: HashMap<&'a str, Vec<&'a str>>,
}

impl<'u, 'a> Uses<'u, 'a> {
    fn new(view: &PlaybookView<'a>, steps: &'u AllowingSteps<'a>) -> Uses<'u, 'a> {
        let mut provider_tools: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut seen = HashSet::new();
        for tool in &view.tools {
            if let (Some(name), Some(provider)) = (tool.name, connection_provider(tool)) {
                if seen.insert((provider, name)) {
                    provider_tools.entry(provider).or_default().push(name);
                }
            }
        }
        let mut server_tools: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut seen = HashSet::new();
        for (server, name) in mcp_uses(view) {
            if seen.insert(name) {
                server_tools.entry(server).or_default().push(name);
            }
        }
        Uses { steps, provider_tools, server_tools }
    }

    fn steps_of(&self, tool: &str) -> &[&'a str] {
        self.steps.get(tool).map_or(&[], Vec::as_slice)
    }
}

/// Builds the requires view from the shared cross-check.
pub(crate) fn explain<'a>(
    view: &PlaybookView<'a>,
    check: &CrossCheck<'_, 'a>,
    allowing: &AllowingSteps<'a>,
) -> RequiresExplain {
    let uses = Uses::new(view, allowing);
    let mut required = HashSet::new();
    let required_connectors: Vec<String> = view
        .required_connectors
        .iter()
        .filter(|c| required.insert(c.name))
        .map(|c| c.name.to_owned())
        .collect();
    let connections: Vec<ConnectionExplain> =
        view.requires.connections.iter().map(|c| connection(c, check, &uses, &required)).collect();
    let mcp_servers =
        view.requires.mcp_servers.iter().map(|s| mcp_server(view, s, check, &uses)).collect();
    let secrets = view
        .requires
        .secrets
        .iter()
        .map(|s| SecretExplain {
            index: s.index,
            pointer: s.ptr.as_str().to_owned(),
            name: s.name.map(str::to_owned),
            purpose: s.purpose.map(str::to_owned),
        })
        .collect();

    // One entry per provider: one that tools need says which, and
    // `required_connectors` says whether the manifest names it too.
    let used =
        check.connectors_unconnected.iter().map(|r| (r.provider, r.at.entry.name, r.at.step.id));
    let mut missing: Vec<Missing> = group(used)
        .into_iter()
        .map(|(provider, tools)| {
            let (tools, steps) = flatten(tools);
            Missing::Connection { provider: provider.to_owned(), tools, steps }
        })
        .collect();
    let needed: HashSet<&str> = check.connectors_unconnected.iter().map(|r| r.provider).collect();
    missing.extend(
        check
            .required_unconnected
            .iter()
            .filter(|c| !needed.contains(c.name))
            .map(|c| Missing::RequiredConnection { provider: c.name.to_owned() }),
    );
    let undeclared = check.mcp_undeclared.iter().map(|r| (r.server, r.at.entry.name, r.at.step.id));
    missing.extend(group(undeclared).into_iter().map(|(server, tools)| {
        let (tools, steps) = flatten(tools);
        Missing::McpServer { server: server.to_owned(), tools, steps }
    }));

    let mut unused: Vec<Unused> = connections
        .iter()
        .filter(|c| !c.duplicate && c.tools.is_empty())
        .filter_map(|c| c.provider.clone())
        .map(|provider| Unused::Connection { provider })
        .collect();
    unused.extend(
        check
            .mcp_servers_unused
            .iter()
            .filter_map(|s| s.name)
            .map(|name| Unused::McpServer { server: name.to_owned() }),
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
    let unlisted =
        check.capabilities_unlisted.iter().map(|r| (r.provider, r.at.entry.name, r.at.step.id));
    for (provider, tools) in group(unlisted) {
        mismatched.extend(tools.into_iter().map(|(tool, steps)| Mismatch::CapabilityUnlisted {
            provider: provider.to_owned(),
            tool: tool.to_owned(),
            steps: owned(&steps),
        }));
    }
    mismatched.extend(check.mcp_tool_names_foreign.iter().filter_map(|f| {
        Some(Mismatch::ToolNameForeign {
            server: f.server.name?.to_owned(),
            tool_name: f.tool_name.name.to_owned(),
        })
    }));
    let incomplete =
        check.mcp_tool_names_incomplete.iter().map(|r| (r.server, r.at.entry.name, r.at.step.id));
    for (server, tools) in group(incomplete) {
        mismatched.extend(tools.into_iter().map(|(tool, steps)| Mismatch::ToolNameUnlisted {
            server: server.to_owned(),
            tool: tool.to_owned(),
            steps: owned(&steps),
        }));
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

fn connection(
    connection: &ConnectionView<'_>,
    check: &CrossCheck<'_, '_>,
    uses: &Uses<'_, '_>,
    required: &HashSet<&str>,
) -> ConnectionExplain {
    let first = connection
        .provider
        .and_then(|p| check.connection(p))
        .is_none_or(|first| std::ptr::eq(first, connection));
    let tools: &[&str] = match connection.provider.filter(|_| first) {
        Some(provider) => uses.provider_tools.get(provider).map_or(&[], Vec::as_slice),
        None => &[],
    };
    let mut seen = HashSet::new();
    let steps = tools
        .iter()
        .flat_map(|t| uses.steps_of(t))
        .filter(|s| seen.insert(**s))
        .map(|s| CompactString::new(s))
        .collect();
    ConnectionExplain {
        index: connection.index,
        pointer: connection.ptr.as_str().to_owned(),
        provider: connection.provider.map(str::to_owned),
        auth_kind: connection.auth_kind.map(str::to_owned),
        scopes: owned(&connection.scopes),
        capabilities: connection.capabilities.iter().map(|c| c.name.to_owned()).collect(),
        required: connection.provider.is_some_and(|p| required.contains(p)),
        duplicate: !first,
        tools: owned(tools),
        steps,
    }
}

fn mcp_server(
    view: &PlaybookView<'_>,
    server: &McpServerView<'_>,
    check: &CrossCheck<'_, '_>,
    uses: &Uses<'_, '_>,
) -> McpServerExplain {
    let first = server
        .name
        .and_then(|n| check.mcp_server(n))
        .is_none_or(|first| std::ptr::eq(first, server));
    let listed: HashSet<&str> = server.tool_names.iter().map(|n| n.name).collect();
    let names: &[&str] = match server.name.filter(|_| first) {
        Some(name) => uses.server_tools.get(name).map_or(&[], Vec::as_slice),
        None => &[],
    };
    let tools = names
        .iter()
        .map(|&name| McpToolUse {
            name: name.to_owned(),
            embedded: view.tool(name).is_some(),
            listed: listed.contains(name),
            steps: owned(uses.steps_of(name)),
        })
        .collect();
    McpServerExplain {
        index: server.index,
        pointer: server.ptr.as_str().to_owned(),
        name: server.name.map(str::to_owned),
        tool_names: server.tool_names.iter().map(|n| n.name.to_owned()).collect(),
        duplicate: !first,
        tools,
    }
}
