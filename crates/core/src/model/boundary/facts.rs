//! What the document says about each embedded tool, and the explain entry of
//! each tool with the steps that allow it.

use crate::model::playbook::{PlaybookView, ToolView};
use crate::model::requires::{self, AllowingSteps, CrossCheck, Need};
use crate::model::spec;
use crate::parse::CompactString;
use serde::{Serialize, Serializer};
use std::ops::Deref;
use std::sync::Arc;

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
    /// A connection to `provider` in `requires.connections`; `declared`
    /// says whether the document has one.
    Connection { provider: String, declared: bool },
    /// An MCP server named `server` in `requires.mcpServers`; `declared`
    /// says whether the document has one.
    McpServer { server: String, declared: bool },
}

impl Requirement {
    pub(super) fn of(need: Need<'_>, check: &CrossCheck<'_, '_>) -> Requirement {
        let declared = check.declares(need);
        match need {
            Need::Connection(provider) => Requirement::Connection { provider: provider.to_owned(), declared },
            Need::McpServer(server) => Requirement::McpServer { server: server.to_owned(), declared },
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
    /// The rank of `risk_class` in `model::spec::RISK_CLASSES` (0 = read),
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
    fn of(tool: &ToolView<'_>, check: &CrossCheck<'_, '_>) -> ToolFacts {
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
            needs: tool.name.and_then(|name| requires::need(name, Some(tool))).map(|n| Requirement::of(n, check)),
        }
    }
}

/// An embedded tool's facts as a step's entry holds them: shared with every
/// other step that allows the tool, and serialised as a digest of the
/// bounded facts only (name, family, enum values the seed knows, flags and
/// needs). The full definition is the tool's entry in `tools`: copying its
/// description and lists into every step would let a document that allows
/// one huge tool in thousands of steps make its explain view thousands of
/// times its own size.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedFacts(Arc<ToolFacts>);

impl Deref for SharedFacts {
    type Target = ToolFacts;

    fn deref(&self) -> &ToolFacts {
        &self.0
    }
}

impl Serialize for SharedFacts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Digest<'f> {
            name: Option<&'f str>,
            family: Family,
            risk_class: Option<&'f str>,
            risk_rank: Option<usize>,
            side_effecting: Option<bool>,
            requires_approval: Option<bool>,
            connector_type: Option<&'f str>,
            scope: Option<&'f str>,
            needs: Option<&'f Requirement>,
        }
        fn known<'f>(value: &'f Option<String>, values: &[&str]) -> Option<&'f str> {
            value.as_deref().filter(|v| values.contains(v))
        }
        let facts = &self.0;
        Digest {
            name: facts.name.as_deref(),
            family: facts.family,
            risk_class: known(&facts.risk_class, spec::RISK_CLASSES),
            risk_rank: facts.risk_rank,
            side_effecting: facts.side_effecting,
            requires_approval: facts.requires_approval,
            connector_type: known(&facts.connector_type, spec::PROVIDERS),
            scope: known(&facts.scope, spec::SCOPES),
            needs: facts.needs.as_ref(),
        }
        .serialize(serializer)
    }
}

/// One embedded tool and the steps that allow it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolExplain {
    /// Position in `tools`.
    pub index: usize,
    /// JSON pointer to the definition.
    pub pointer: String,
    /// What the definition says (flattened into the entry).
    #[serde(flatten)]
    pub facts: ToolFacts,
    /// Ids of the steps whose `allowedTools` name it.
    pub allowed_by: Vec<CompactString>,
    /// How many error diagnostics point into its definition.
    pub errors: usize,
}

/// Every embedded tool's facts, built once, by position in `tools` (none
/// for an entry that is not an object).
pub(super) struct Facts(Vec<Option<SharedFacts>>);

impl Facts {
    pub(super) fn new(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>) -> Facts {
        let mut facts = Vec::new();
        for tool in &view.tools {
            facts.resize(facts.len().max(tool.index + 1), None);
            if let Some(slot) = facts.get_mut(tool.index) {
                *slot = Some(SharedFacts(Arc::new(ToolFacts::of(tool, check))));
            }
        }
        Facts(facts)
    }

    pub(super) fn of(&self, tool: &ToolView<'_>) -> Option<&SharedFacts> {
        self.0.get(tool.index)?.as_ref()
    }
}

/// The explain entry of every embedded tool, in document order. A later
/// tool repeating a name (PB302) is allowed by no step: names resolve to the
/// first.
pub(super) fn tools(view: &PlaybookView<'_>, facts: &Facts, allowing: &AllowingSteps<'_>, errors: &[usize]) -> Vec<ToolExplain> {
    view.tools
        .iter()
        .filter_map(|tool| {
            let facts = facts.of(tool)?;
            let first = tool.name.and_then(|name| view.tool(name)).is_some_and(|t| t.index == tool.index);
            let allowed_by = match tool.name.and_then(|name| allowing.get(name)) {
                Some(ids) if first => ids.iter().map(|id| CompactString::new(id)).collect(),
                _ => Vec::new(),
            };
            Some(ToolExplain {
                index: tool.index,
                pointer: tool.ptr.as_str().to_owned(),
                facts: ToolFacts::clone(facts),
                allowed_by,
                errors: errors.get(tool.index).copied().unwrap_or_default(),
            })
        })
        .collect()
}
