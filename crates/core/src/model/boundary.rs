//! Each step's capability boundary: every `allowedTools` entry resolved
//! against the embedded tools (or marked registry-only or invalid), the
//! step's highest risk, the gates that lead into it, and a plain-English
//! summary. Also the explain entry of each embedded tool.

mod summary;

use super::graph::Graph;
use super::playbook::{mcp_name, McpName, PlaybookView, StepView, ToolView};
use super::requires::{self, CrossCheck, Need};
use super::spec;
use crate::parse::Node;
use crate::{Diagnostic, Severity};
use serde::Serialize;
use std::collections::HashSet;

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
    fn of(need: Need<'_>, check: &CrossCheck<'_, '_>) -> Requirement {
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

/// How one `allowedTools` entry resolves.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "resolution", rename_all = "snake_case")]
pub enum Resolution {
    /// The document embeds its definition.
    Embedded {
        /// Position of the definition in `tools`.
        tool: usize,
        /// The definition's facts (flattened into the entry).
        #[serde(flatten)]
        facts: Box<ToolFacts>,
    },
    /// Not embedded: it can only resolve against a runtime's registry.
    RegistryOnly {
        /// The name as the step writes it.
        name: String,
        /// The family its name gives: `mcp` or `built_in_or_connector`.
        family: Family,
        /// The MCP server an `mcp.` name needs; nothing is known otherwise.
        needs: Option<Requirement>,
    },
    /// Not a tool name at all.
    Invalid {
        /// The entry, when it is a string.
        name: Option<String>,
        /// The entry's type, as messages say it (`a string`, `an object`).
        value_type: &'static str,
        /// Why it is not a tool name.
        reason: String,
    },
}

impl Resolution {
    /// The tool name, unless the entry is invalid.
    pub fn name(&self) -> Option<&str> {
        match self {
            Resolution::Embedded { facts, .. } => facts.name.as_deref(),
            Resolution::RegistryOnly { name, .. } => Some(name),
            Resolution::Invalid { .. } => None,
        }
    }
}

/// One `allowedTools` entry of a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AllowedTool {
    /// Position in the step's `allowedTools`.
    pub index: usize,
    /// JSON pointer to the entry.
    pub pointer: String,
    /// What the entry resolves to (flattened: its `resolution` tag and fields).
    #[serde(flatten)]
    pub resolution: Resolution,
}

/// How a step writes `allowedTools`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ListForm {
    /// No `allowedTools`: the step may call no tool.
    Absent,
    /// A list (possibly empty).
    List,
    /// Some other value: which tools it may call cannot be read.
    NotAList,
}

/// A gate step that leads directly into a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateEntry {
    /// The gate step's id.
    pub gate: String,
    /// The branch labels of its edges into the step (empty for a plain `next`).
    pub labels: Vec<String>,
}

/// What one step may do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepBoundary {
    /// The step's id, when it is a non-empty string.
    pub id: Option<String>,
    /// Position in `steps`.
    pub index: usize,
    /// JSON pointer to the step.
    pub pointer: String,
    /// `kind` as written (`agent`, `gate`, or another).
    pub kind: Option<String>,
    /// The agent that runs the step, as written.
    pub agent: Option<String>,
    /// What the step is for, in the author's words.
    pub purpose: Option<String>,
    /// How `allowedTools` is written.
    pub allowed_tools: ListForm,
    /// Each entry of `allowedTools`, resolved, in order.
    pub tools: Vec<AllowedTool>,
    /// The most consequential `riskClass` among the embedded tools it allows.
    pub highest_risk_class: Option<String>,
    /// Its rank in `model::spec::RISK_CLASSES`.
    pub highest_risk_rank: Option<usize>,
    /// Whether some tool it allows has no known risk class (registry-only, or
    /// embedded without a valid `riskClass`): the real highest risk may be
    /// higher.
    pub risk_partly_unknown: bool,
    /// Gate steps that lead directly into this step; empty when none does.
    pub gated_by: Vec<GateEntry>,
    /// Ids of the other steps that lead directly into this one.
    pub entered_from: Vec<String>,
    /// Whether every path from the start to this step passes a gate step
    /// (false when no path reaches it).
    pub behind_gate: bool,
    /// Whether the playbook starts here.
    pub is_start: bool,
    /// How many error diagnostics point into this step.
    pub errors: usize,
    /// What the step may do, in plain English.
    pub summary: String,
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
    pub allowed_by: Vec<String>,
    /// How many error diagnostics point into its definition.
    pub errors: usize,
}

/// Resolves one `allowedTools` entry.
pub fn resolve_tool(entry: &Node, view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>) -> Resolution {
    let Some(name) = entry.as_str() else {
        let reason = match entry.as_object() {
            Some(_) => "the object form of a tool reference is planned, not part of today's format, where a reference is a string",
            None => "a tool reference is a string",
        };
        return Resolution::Invalid { name: None, value_type: entry.type_name(), reason: reason.to_owned() };
    };
    if name.is_empty() {
        return Resolution::Invalid { name: Some(String::new()), value_type: entry.type_name(), reason: "a tool name cannot be empty".to_owned() };
    }
    if mcp_name(name) == McpName::Malformed {
        return Resolution::Invalid {
            name: Some(name.to_owned()),
            value_type: entry.type_name(),
            reason: "a name starting with mcp. must be mcp.<server>.<tool>, with both parts non-empty".to_owned(),
        };
    }
    match view.tool(name) {
        Some(tool) => Resolution::Embedded { tool: tool.index, facts: Box::new(ToolFacts::of(tool, check)) },
        None => {
            let needs = requires::need(name, None);
            Resolution::RegistryOnly {
                name: name.to_owned(),
                family: if needs.is_some() { Family::Mcp } else { Family::BuiltInOrConnector },
                needs: needs.map(|n| Requirement::of(n, check)),
            }
        }
    }
}

/// How many error diagnostics point into each item of the top-level array
/// `key` (`/<key>/<i>` or below it), by item position.
fn errors_by_item(diagnostics: &[Diagnostic], key: &str, len: usize) -> Vec<usize> {
    let mut counts = vec![0; len];
    let prefix = format!("/{key}/");
    for diagnostic in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        let Some(rest) = diagnostic.pointer.strip_prefix(&prefix) else { continue };
        let token = rest.split('/').next().unwrap_or_default();
        if let Some(count) = token.parse::<usize>().ok().and_then(|i| counts.get_mut(i)) {
            *count += 1;
        }
    }
    counts
}

fn array_len(view: &PlaybookView<'_>, key: &str) -> usize {
    view.root.get(key).and_then(Node::as_array).map_or(0, <[Node]>::len)
}

/// The boundary of every step, in document order.
pub fn steps(view: &PlaybookView<'_>, graph: &Graph, check: &CrossCheck<'_, '_>, diagnostics: &[Diagnostic]) -> Vec<StepBoundary> {
    let errors = errors_by_item(diagnostics, "steps", array_len(view, "steps"));
    let ungated = reached_without_gate(graph);
    view.steps
        .iter()
        .map(|step| {
            let behind_gate = step.id.is_some_and(|id| {
                in_graph(step, graph) && graph.start.is_some() && !graph.unreachable.iter().any(|u| u == id) && !ungated.contains(id)
            });
            let errors = errors.get(step.index).copied().unwrap_or_default();
            boundary(step, view, graph, check, behind_gate, errors)
        })
        .collect()
}

/// The steps some path from the start reaches without passing a gate step
/// first (the step itself may be one). A step the start reaches only through
/// gates is absent: a person has decided before it runs.
fn reached_without_gate(graph: &Graph) -> HashSet<&str> {
    let mut reached = HashSet::new();
    let Some(start) = graph.start.as_deref() else { return reached };
    reached.insert(start);
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        if graph.node(id).and_then(|n| n.kind.as_deref()) == Some("gate") {
            continue;
        }
        for edge in graph.edges.iter().filter(|e| e.from == id) {
            if reached.insert(edge.to.as_str()) {
                stack.push(edge.to.as_str());
            }
        }
    }
    reached
}

fn boundary(
    step: &StepView<'_>,
    view: &PlaybookView<'_>,
    graph: &Graph,
    check: &CrossCheck<'_, '_>,
    behind_gate: bool,
    errors: usize,
) -> StepBoundary {
    let ptr = step.ptr.key("allowedTools");
    let (allowed_tools, tools) = match step.allowed_tools_node {
        None => (ListForm::Absent, Vec::new()),
        Some(node) => match node.as_array() {
            Some(items) => (
                ListForm::List,
                items
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| AllowedTool {
                        index,
                        pointer: ptr.index(index).to_string(),
                        resolution: resolve_tool(entry, view, check),
                    })
                    .collect(),
            ),
            None => (ListForm::NotAList, Vec::new()),
        },
    };

    let mut highest: Option<(usize, String)> = None;
    let mut risk_partly_unknown = false;
    for tool in &tools {
        match &tool.resolution {
            Resolution::Embedded { facts, .. } => match (facts.risk_rank, facts.risk_class.as_deref()) {
                (Some(rank), Some(class)) => {
                    if highest.as_ref().is_none_or(|(top, _)| rank > *top) {
                        highest = Some((rank, class.to_owned()));
                    }
                }
                _ => risk_partly_unknown = true,
            },
            Resolution::RegistryOnly { .. } => risk_partly_unknown = true,
            Resolution::Invalid { .. } => {}
        }
    }

    let (gated_by, entered_from) = entries(step, graph);
    let mut boundary = StepBoundary {
        id: step.id.map(str::to_owned),
        index: step.index,
        pointer: step.ptr.to_string(),
        kind: step.kind.map(str::to_owned),
        agent: step.agent.map(str::to_owned),
        purpose: step.purpose.map(str::to_owned),
        allowed_tools,
        tools,
        highest_risk_rank: highest.as_ref().map(|(rank, _)| *rank),
        highest_risk_class: highest.map(|(_, class)| class),
        risk_partly_unknown,
        gated_by,
        entered_from,
        behind_gate,
        is_start: step.id.is_some_and(|id| graph.start.as_deref() == Some(id) && in_graph(step, graph)),
        errors,
        summary: String::new(),
    };
    boundary.summary = summary::summarize(&boundary);
    boundary
}

/// Whether this step is the graph's node for its id (a later step repeating
/// an id is left out of the graph).
fn in_graph(step: &StepView<'_>, graph: &Graph) -> bool {
    step.id.and_then(|id| graph.node(id)).is_some_and(|node| node.step == step.index)
}

/// The gates, and the other steps, whose edges lead directly into a step.
fn entries(step: &StepView<'_>, graph: &Graph) -> (Vec<GateEntry>, Vec<String>) {
    let mut gates: Vec<GateEntry> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    let Some(id) = step.id.filter(|_| in_graph(step, graph)) else { return (gates, others) };
    for edge in graph.edges.iter().filter(|e| e.to == id) {
        let is_gate = graph.node(&edge.from).and_then(|n| n.kind.as_deref()) == Some("gate");
        if !is_gate {
            if !others.contains(&edge.from) {
                others.push(edge.from.clone());
            }
            continue;
        }
        let position = match gates.iter().position(|g| g.gate == edge.from) {
            Some(position) => position,
            None => {
                gates.push(GateEntry { gate: edge.from.clone(), labels: Vec::new() });
                gates.len() - 1
            }
        };
        if let (Some(gate), Some(label)) = (gates.get_mut(position), &edge.label) {
            if !gate.labels.contains(label) {
                gate.labels.push(label.clone());
            }
        }
    }
    (gates, others)
}

/// The explain entry of every embedded tool, in document order.
pub fn tools(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>, diagnostics: &[Diagnostic]) -> Vec<ToolExplain> {
    let errors = errors_by_item(diagnostics, "tools", array_len(view, "tools"));
    view.tools
        .iter()
        .map(|tool| {
            let mut allowed_by: Vec<String> = Vec::new();
            if let Some(name) = tool.name.filter(|name| view.tool(name).is_some_and(|t| t.index == tool.index)) {
                for at in requires::tool_refs(view).filter(|at| at.entry.name == name) {
                    if let Some(id) = at.step.id.filter(|id| !allowed_by.iter().any(|a| a == id)) {
                        allowed_by.push(id.to_owned());
                    }
                }
            }
            ToolExplain {
                index: tool.index,
                pointer: tool.ptr.to_string(),
                facts: ToolFacts::of(tool, check),
                allowed_by,
                errors: errors.get(tool.index).copied().unwrap_or_default(),
            }
        })
        .collect()
}
