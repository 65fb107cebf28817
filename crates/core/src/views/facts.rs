//! What the document says about one embedded tool, as the DR rules compare
//! it with a registry's definition and explain shows it.

use crate::views::playbook::ToolView;
use crate::views::requires::{self, CrossCheck, Need};
use crate::views::spec;
use serde::Serialize;

/// The naming family of a tool (seed 000: built-in, connector, MCP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// `source: primitive`: a plain name over the runtime's primitives.
    BuiltIn,
    /// `source: connector`: from a provider's tool set.
    Connector,
    /// `source: mcp`, or a registry-only `mcp.<server>.<tool>` name.
    Mcp,
    /// A registry-only name outside the MCP family: only a registry can say
    /// which of the two it is.
    BuiltInOrConnector,
    /// An embedded tool whose `source` is missing or not a known value.
    Unknown,
}

/// A declaration a tool needs from `requires`, and whether the document has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requirement {
    /// A connection in `requires.connections`.
    Connection {
        /// The provider the tool's `connectorType` names.
        provider: String,
        /// Whether `requires.connections` has a connection to it.
        declared: bool,
    },
    /// An MCP server in `requires.mcpServers`.
    McpServer {
        /// The server's logical name, from `mcp.<server>.<tool>`.
        server: String,
        /// Whether `requires.mcpServers` declares it.
        declared: bool,
    },
}

impl Requirement {
    pub(crate) fn of(need: Need<'_>, check: &CrossCheck<'_, '_>) -> Requirement {
        let declared = check.declares(need);
        match need {
            Need::Connection(provider) => {
                Requirement::Connection { provider: provider.to_owned(), declared }
            }
            Need::McpServer(server) => {
                Requirement::McpServer { server: server.to_owned(), declared }
            }
        }
    }
}

/// What the document says about one embedded tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolFacts {
    /// The tool's name, when it is a string.
    pub name: Option<String>,
    /// The family its `source` gives.
    pub family: Family,
    /// `source` as written.
    pub source: Option<String>,
    /// What the tool does, in the author's words.
    pub description: Option<String>,
    /// `riskClass` as written.
    pub risk_class: Option<String>,
    /// The rank of `risk_class` in [`crate::spec::RISK_CLASSES`] (0 = read),
    /// when it is one of them.
    pub risk_rank: Option<usize>,
    /// `sideEffecting`; absent when undeclared.
    pub side_effecting: Option<bool>,
    /// `requiresApproval`; absent when undeclared.
    pub requires_approval: Option<bool>,
    /// The permissions it declares it needs.
    pub permissions: Vec<String>,
    /// Data the tool reads (`dataScopeResources`).
    pub data_scope_resources: Vec<String>,
    /// Data the tool writes (`dataScopeWrites`).
    pub data_scope_writes: Vec<String>,
    /// `connectorType` as written.
    pub connector_type: Option<String>,
    /// `scope` (`app` or `workspace`) as written.
    pub scope: Option<String>,
    /// The connection or MCP server it needs, if any.
    pub needs: Option<Requirement>,
}

impl ToolFacts {
    pub(crate) fn of(tool: &ToolView<'_>, check: &CrossCheck<'_, '_>) -> ToolFacts {
        let strings = |values: &[&str]| values.iter().map(|v| (*v).to_owned()).collect();
        ToolFacts {
            name: tool.name.map(str::to_owned),
            family: match tool.source {
                Some("primitive") => Family::BuiltIn,
                Some("connector") => Family::Connector,
                Some("mcp") => Family::Mcp,
                _ => Family::Unknown,
            },
            source: tool.source.map(str::to_owned),
            description: tool.description.map(str::to_owned),
            risk_class: tool.risk_class.map(str::to_owned),
            risk_rank: tool.risk_class.and_then(spec::risk_rank),
            side_effecting: tool.side_effecting,
            requires_approval: tool.requires_approval,
            permissions: strings(&tool.permissions),
            data_scope_resources: strings(&tool.data_scope_resources),
            data_scope_writes: strings(&tool.data_scope_writes),
            connector_type: tool.connector_type.map(str::to_owned),
            scope: tool.scope.map(str::to_owned),
            needs: tool
                .name
                .and_then(|name| requires::need(name, Some(tool)))
                .map(|n| Requirement::of(n, check)),
        }
    }
}
