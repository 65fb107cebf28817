//! The cross-checks between a playbook's `requires` block,
//! `manifest.requiredConnectors`, its embedded tools and its steps'
//! `allowedTools`. Computed once here and read both by the rules (PB212,
//! PB405–PB409, PB413–PB415) and by the explain view, so the two can never
//! disagree.
//!
//! What counts as a use: every string entry of any step's `allowedTools`
//! (whatever the step's kind: PB218 reports tools on a non-agent step), and
//! for MCP servers also the name of an embedded tool. A duplicate entry in one
//! step's list (PB210) is looked at once. Lookups by provider or server name
//! see the first declaration, as tool lookups see the first tool.

use super::graph::Graph;
use super::playbook::{
    mcp_name, ConnectionView, Entry, McpName, McpServerView, PlaybookView, StepView, ToolView,
};
use super::spec;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::Ptr;

/// What a tool name needs from `requires` before a harness can run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Need<'a> {
    /// A connection to this provider (`requires.connections[].provider`).
    Connection(&'a str),
    /// An MCP server of this logical name (`requires.mcpServers[].name`).
    McpServer(&'a str),
}

/// The provider whose connection an embedded tool needs: its `connectorType`
/// when that is a provider the seed knows, unless its `source` says it is a
/// built-in or MCP tool (PB309 reports the misplaced `connectorType`; PB304 an
/// unknown one).
pub fn connection_provider<'a>(tool: &ToolView<'a>) -> Option<&'a str> {
    if matches!(tool.source, Some("primitive" | "mcp")) {
        return None;
    }
    tool.connector_type.filter(|provider| spec::PROVIDERS.contains(provider))
}

/// What a tool name needs: an MCP server when the name is
/// `mcp.<server>.<tool>`, else the connection of the embedded tool's provider.
/// A registry-only name outside the MCP family needs nothing the document can
/// tell.
pub fn need<'a>(name: &'a str, embedded: Option<&ToolView<'a>>) -> Option<Need<'a>> {
    match mcp_name(name) {
        McpName::Valid { server, .. } => Some(Need::McpServer(server)),
        McpName::Malformed => None,
        McpName::NotMcp => embedded.and_then(connection_provider).map(Need::Connection),
    }
}

/// A step's `allowedTools` entry.
#[derive(Debug, Clone, Copy)]
pub struct ToolRef<'v, 'a> {
    pub step: &'v StepView<'a>,
    pub entry: &'v Entry<'a>,
}

impl ToolRef<'_, '_> {
    /// The entry's pointer; built only for a finding.
    pub fn ptr(&self) -> Ptr {
        self.entry.ptr(&self.step.ptr.key("allowedTools"))
    }
}

/// A step's entry naming an embedded connector tool, with the provider it
/// needs.
#[derive(Debug, Clone, Copy)]
pub struct ConnectorRef<'v, 'a> {
    pub at: ToolRef<'v, 'a>,
    pub provider: &'a str,
}

/// A step's entry naming an MCP tool (`mcp.<server>.<tool>`), with the
/// server's declaration, if any.
#[derive(Debug, Clone, Copy)]
pub struct McpRef<'v, 'a> {
    pub at: ToolRef<'v, 'a>,
    pub server: &'a str,
    pub declared: Option<&'v McpServerView<'a>>,
}

/// A connection's `capabilities` entry that does not name an embedded tool of
/// that connection's provider.
#[derive(Debug, Clone, Copy)]
pub struct UnknownCapability<'v, 'a> {
    pub connection: &'v ConnectionView<'a>,
    pub capability: &'v Entry<'a>,
    /// The embedded tool of that name when there is one: its `connectorType`
    /// then names another provider, or none.
    pub tool: Option<&'v ToolView<'a>>,
}

/// An `mcpServers[].toolNames` entry that is not `mcp.<that server>.<tool>`.
#[derive(Debug, Clone, Copy)]
pub struct ForeignToolName<'v, 'a> {
    pub server: &'v McpServerView<'a>,
    pub tool_name: &'v Entry<'a>,
}

/// Every cross-check of a playbook, each list in document order.
#[derive(Debug)]
pub struct CrossCheck<'v, 'a> {
    connections: HashMap<&'a str, &'v ConnectionView<'a>>,
    servers: HashMap<&'a str, &'v McpServerView<'a>>,
    /// The `capabilities` of each provider's first connection.
    capabilities: HashMap<&'a str, HashSet<&'a str>>,
    /// The `toolNames` of each server name's first declaration.
    tool_names: HashMap<&'a str, HashSet<&'a str>>,
    /// PB405: connections (of a known provider) whose provider is not in
    /// `manifest.requiredConnectors`.
    pub connections_not_required: Vec<&'v ConnectionView<'a>>,
    /// PB406: `manifest.requiredConnectors` members (first of each) with no
    /// connection.
    pub required_unconnected: Vec<&'v Entry<'a>>,
    /// PB407: capabilities naming no embedded tool, or one of another
    /// provider (the latter only when the connection's provider is known).
    pub capabilities_unknown: Vec<UnknownCapability<'v, 'a>>,
    /// PB408: step entries naming an embedded connector tool whose
    /// provider's connection exists but does not list it in `capabilities`.
    pub capabilities_unlisted: Vec<ConnectorRef<'v, 'a>>,
    /// PB409: step entries naming an embedded connector tool whose provider
    /// has no connection.
    pub connectors_unconnected: Vec<ConnectorRef<'v, 'a>>,
    /// PB212: step entries `mcp.<server>.<tool>` whose server is not declared.
    pub mcp_undeclared: Vec<McpRef<'v, 'a>>,
    /// PB413: declared MCP servers no tool name (step entry or embedded tool)
    /// uses.
    pub mcp_servers_unused: Vec<&'v McpServerView<'a>>,
    /// PB414: `toolNames` entries that are not `mcp.<that server>.<tool>`.
    pub mcp_tool_names_foreign: Vec<ForeignToolName<'v, 'a>>,
    /// PB415: step entries `mcp.<server>.<tool>` whose declared server's
    /// `toolNames` does not list them.
    pub mcp_tool_names_incomplete: Vec<McpRef<'v, 'a>>,
}

/// Each step's string `allowedTools` entries, the first of each name only.
pub fn tool_refs<'v, 'a>(view: &'v PlaybookView<'a>) -> impl Iterator<Item = ToolRef<'v, 'a>> {
    // Read several times per step by the rules and explain: a short list is
    // compared with the entries before, only a long one is hashed.
    const SHORT: usize = 12;
    view.steps.iter().flat_map(|step| {
        let entries = &step.allowed_tools;
        let mut seen = HashSet::new();
        entries
            .iter()
            .enumerate()
            .filter(move |&(i, entry)| match entries.len() {
                0..=SHORT => !entries[..i].iter().any(|earlier| earlier.name == entry.name),
                _ => seen.insert(entry.name),
            })
            .map(move |(_, entry)| ToolRef { step, entry })
    })
}

/// The ids of the steps allowing each tool name, each id once, in document
/// order.
pub type AllowingSteps<'a> = HashMap<&'a str, Vec<&'a str>>;

/// Each tool name's [`AllowingSteps`]; built once per explain, read by the
/// tools' entries and the requires view. `graph` is the view's.
pub fn allowing_steps<'a>(view: &PlaybookView<'a>, graph: &Graph) -> AllowingSteps<'a> {
    let mut steps: HashMap<&str, Vec<&str>> = HashMap::with_capacity(view.tools.len());
    // `tool_refs` gives each name once per step, so a name can meet an id
    // twice only when steps repeat it: the graph then has fewer nodes than
    // steps with an id, and only then are (name, id) pairs remembered.
    let ids_repeat = graph.nodes.len() != view.steps.iter().filter(|s| s.id.is_some()).count();
    let mut seen = HashSet::new();
    for at in tool_refs(view) {
        if let Some(id) = at.step.id.filter(|id| !ids_repeat || seen.insert((at.entry.name, *id))) {
            steps.entry(at.entry.name).or_default().push(id);
        }
    }
    steps
}

/// Runs every cross-check over a playbook.
pub fn cross_check<'v, 'a>(view: &'v PlaybookView<'a>) -> CrossCheck<'v, 'a> {
    let mut connections = HashMap::new();
    for connection in &view.requires.connections {
        if let Some(provider) = connection.provider {
            connections.entry(provider).or_insert(connection);
        }
    }
    let mut servers = HashMap::new();
    for server in &view.requires.mcp_servers {
        if let Some(name) = server.name {
            servers.entry(name).or_insert(server);
        }
    }
    let capabilities = connections
        .iter()
        .map(|(&provider, connection)| {
            (provider, connection.capabilities.iter().map(|c| c.name).collect())
        })
        .collect();
    let tool_names = servers
        .iter()
        .map(|(&name, server)| (name, server.tool_names.iter().map(|n| n.name).collect()))
        .collect();
    let mut check = CrossCheck {
        connections,
        servers,
        capabilities,
        tool_names,
        connections_not_required: Vec::new(),
        required_unconnected: Vec::new(),
        capabilities_unknown: Vec::new(),
        capabilities_unlisted: Vec::new(),
        connectors_unconnected: Vec::new(),
        mcp_undeclared: Vec::new(),
        mcp_servers_unused: Vec::new(),
        mcp_tool_names_foreign: Vec::new(),
        mcp_tool_names_incomplete: Vec::new(),
    };
    check.connections_against_manifest(view);
    check.capabilities(view);
    check.step_references(view);
    check.mcp_servers(view);
    check
}

impl<'v, 'a> CrossCheck<'v, 'a> {
    /// The first connection declared for a provider.
    pub fn connection(&self, provider: &str) -> Option<&'v ConnectionView<'a>> {
        self.connections.get(provider).copied()
    }

    /// The first MCP server declared with a name.
    pub fn mcp_server(&self, name: &str) -> Option<&'v McpServerView<'a>> {
        self.servers.get(name).copied()
    }

    /// Whether the document declares what a need asks for.
    pub fn declares(&self, need: Need<'_>) -> bool {
        match need {
            Need::Connection(provider) => self.connection(provider).is_some(),
            Need::McpServer(name) => self.mcp_server(name).is_some(),
        }
    }

    fn connections_against_manifest(&mut self, view: &'v PlaybookView<'a>) {
        let required: HashSet<&str> = view.required_connectors.iter().map(|c| c.name).collect();
        self.connections_not_required = view
            .requires
            .connections
            .iter()
            .filter(|c| {
                c.provider.is_some_and(|p| spec::PROVIDERS.contains(&p) && !required.contains(p))
            })
            .collect();
        let mut seen = HashSet::new();
        self.required_unconnected = view
            .required_connectors
            .iter()
            .filter(|c| seen.insert(c.name) && !self.connections.contains_key(c.name))
            .collect();
    }

    fn capabilities(&mut self, view: &'v PlaybookView<'a>) {
        for connection in &view.requires.connections {
            let known_provider = connection.provider.filter(|p| spec::PROVIDERS.contains(p));
            for capability in &connection.capabilities {
                let tool = view.tool(capability.name);
                let unknown = match (tool, known_provider) {
                    (None, _) => true,
                    (Some(tool), Some(provider)) => tool.connector_type != Some(provider),
                    (Some(_), None) => false,
                };
                if unknown {
                    self.capabilities_unknown.push(UnknownCapability {
                        connection,
                        capability,
                        tool,
                    });
                }
            }
        }
    }

    fn step_references(&mut self, view: &'v PlaybookView<'a>) {
        for at in tool_refs(view) {
            let embedded = view.tool(at.entry.name);
            match need(at.entry.name, embedded) {
                Some(Need::McpServer(server)) => {
                    let declared = self.mcp_server(server);
                    let reference = McpRef { at, server, declared };
                    if declared.is_none() {
                        self.mcp_undeclared.push(reference);
                    } else if !self
                        .tool_names
                        .get(server)
                        .is_some_and(|names| names.contains(at.entry.name))
                    {
                        self.mcp_tool_names_incomplete.push(reference);
                    }
                }
                Some(Need::Connection(provider)) => {
                    if embedded.is_none() {
                        continue;
                    }
                    let reference = ConnectorRef { at, provider };
                    if self.connection(provider).is_none() {
                        self.connectors_unconnected.push(reference);
                    } else if !self
                        .capabilities
                        .get(provider)
                        .is_some_and(|names| names.contains(at.entry.name))
                    {
                        self.capabilities_unlisted.push(reference);
                    }
                }
                None => {}
            }
        }
    }

    fn mcp_servers(&mut self, view: &'v PlaybookView<'a>) {
        let used: HashSet<&str> = mcp_uses(view).map(|(server, _)| server).collect();
        for server in &view.requires.mcp_servers {
            let Some(name) = server.name else { continue };
            if !used.contains(name) {
                self.mcp_servers_unused.push(server);
            }
            for tool_name in &server.tool_names {
                let own = matches!(mcp_name(tool_name.name), McpName::Valid { server, .. } if server == name);
                if !own {
                    self.mcp_tool_names_foreign.push(ForeignToolName { server, tool_name });
                }
            }
        }
    }
}

/// Every MCP tool name the document uses, as (server, full name): step
/// entries first, then embedded tool names.
pub fn mcp_uses<'v, 'a>(
    view: &'v PlaybookView<'a>,
) -> impl Iterator<Item = (&'a str, &'a str)> + 'v {
    let from_steps = tool_refs(view).map(|at| at.entry.name);
    let from_tools = view.tools.iter().filter_map(|tool| tool.name);
    from_steps.chain(from_tools).filter_map(|name| match mcp_name(name) {
        McpName::Valid { server, .. } => Some((server, name)),
        _ => None,
    })
}

#[cfg(test)]
mod tests;
