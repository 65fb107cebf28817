//! A typed, tolerant view over a playbook's tree: what rules and explain
//! read. It never reports; values of the wrong type read as absent (the shape
//! rules report them).

use crate::views::{objects, strings};
use foldhash::{HashMap, HashMapExt};
use opb_syntax::{CompactString, Node, Ptr, Value};

/// An OpenPlaybook document as the rules and explain see it.
#[derive(Debug)]
pub struct PlaybookView<'a> {
    pub root: &'a Node,
    pub version: Option<&'a Node>,
    pub steps: Vec<StepView<'a>>,
    pub tools: Vec<ToolView<'a>>,
    pub requires: RequiresView<'a>,
    /// `manifest.requiredConnectors`, each with its node and pointer.
    pub required_connectors: Vec<Entry<'a>>,
    pub start: Option<&'a Node>,
    /// The first tool of each name. The keys are copies, held in the table
    /// itself when short: every step's tools are looked up here, and keys
    /// borrowed from the tree made each lookup's comparison read a
    /// different part of a large tree (a tenth of the 10,000-step
    /// playbook's time went to those comparisons).
    tools_by_name: HashMap<CompactString, usize>,
}

/// A string of a plugin manifest, with its node and pointer.
#[derive(Debug, Clone)]
pub struct Named<'a> {
    pub name: &'a str,
    pub node: &'a Node,
    pub ptr: Ptr,
}

/// A string entry of a list, with its position.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub node: &'a Node,
    /// Position in the list.
    pub index: usize,
}

impl Entry<'_> {
    /// The entry's pointer, given its list's. Built only for a finding:
    /// a view holds thousands of entries and nearly all are sound.
    pub fn ptr(&self, list: &Ptr) -> Ptr {
        list.index(self.index)
    }
}

#[derive(Debug)]
pub struct StepView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    /// The id, when it is a non-empty string.
    pub id: Option<&'a str>,
    pub kind: Option<&'a str>,
    pub agent: Option<&'a str>,
    pub purpose: Option<&'a str>,
    /// The `allowedTools` node, whatever its type.
    pub allowed_tools_node: Option<&'a Node>,
    /// The string entries of `allowedTools`.
    pub allowed_tools: Vec<Entry<'a>>,
    pub next: Vec<NextRef<'a>>,
}

/// One outgoing edge as `next` writes it.
#[derive(Debug, Clone)]
pub struct NextRef<'a> {
    /// The branch label, for the object form of `next`.
    pub label: Option<&'a str>,
    pub target: &'a str,
    pub node: &'a Node,
    /// Position in the list form of `next`.
    pub index: Option<usize>,
}

impl NextRef<'_> {
    /// The pointer to the target, given the step's; built only for a finding.
    pub fn ptr(&self, step: &StepView<'_>) -> Ptr {
        let next = step.ptr.key("next");
        match (self.label, self.index) {
            (Some(label), _) => next.key(label),
            (None, Some(index)) => next.index(index),
            (None, None) => next,
        }
    }
}

#[derive(Debug)]
pub struct ToolView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    pub name: Option<&'a str>,
    pub source: Option<&'a str>,
    pub description: Option<&'a str>,
    pub risk_class: Option<&'a str>,
    pub side_effecting: Option<bool>,
    pub requires_approval: Option<bool>,
    pub connector_type: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub permissions: Vec<&'a str>,
    pub data_scope_resources: Vec<&'a str>,
    pub data_scope_writes: Vec<&'a str>,
}

#[derive(Debug, Default)]
pub struct RequiresView<'a> {
    pub node: Option<&'a Node>,
    pub connections_node: Option<&'a Node>,
    pub connections: Vec<ConnectionView<'a>>,
    pub mcp_servers_node: Option<&'a Node>,
    pub mcp_servers: Vec<McpServerView<'a>>,
    pub secrets_node: Option<&'a Node>,
    pub secrets: Vec<SecretView<'a>>,
}

#[derive(Debug)]
pub struct ConnectionView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    pub provider: Option<&'a str>,
    pub auth_kind: Option<&'a str>,
    pub scopes: Vec<&'a str>,
    pub capabilities: Vec<Entry<'a>>,
}

#[derive(Debug)]
pub struct McpServerView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    pub name: Option<&'a str>,
    pub tool_names: Vec<Entry<'a>>,
    pub capabilities: Vec<&'a Node>,
}

#[derive(Debug)]
pub struct SecretView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    pub name: Option<&'a str>,
    pub purpose: Option<&'a str>,
}

/// How an `mcp.`-prefixed name splits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpName<'a> {
    /// Not an MCP name at all.
    NotMcp,
    /// `mcp.<server>.<tool>` with both parts non-empty.
    Valid { server: &'a str, tool: &'a str },
    /// Starts with `mcp.` but is not `mcp.<server>.<tool>`.
    Malformed,
}

/// Splits a tool name by the MCP naming family (seed 000: "composed as
/// mcp.<server>.<tool>"). The tool part may itself contain dots.
pub fn mcp_name(name: &str) -> McpName<'_> {
    let Some(rest) = name.strip_prefix("mcp.") else { return McpName::NotMcp };
    match rest.split_once('.') {
        Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
            McpName::Valid { server, tool }
        }
        _ => McpName::Malformed,
    }
}

fn str_of<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    node.get(key).and_then(Node::as_str)
}

fn entries(node: Option<&Node>) -> Vec<Entry<'_>> {
    let Some(items) = node.and_then(Node::as_array) else { return Vec::new() };
    items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| item.as_str().map(|name| Entry { name, node: item, index }))
        .collect()
}

fn next_refs(node: Option<&Node>) -> Vec<NextRef<'_>> {
    let Some(node) = node else { return Vec::new() };
    match &node.value {
        Value::String(target) => vec![NextRef { label: None, target, node, index: None }],
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                item.as_str().map(|target| NextRef {
                    label: None,
                    target,
                    node: item,
                    index: Some(i),
                })
            })
            .collect(),
        Value::Object(object) => object
            .unique_members()
            .filter_map(|m| {
                m.value.as_str().map(|target| NextRef {
                    label: Some(m.key.as_str()),
                    target,
                    node: &m.value,
                    index: None,
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl<'a> ToolView<'a> {
    /// Reads one tool definition: an entry of a playbook's `tools`, or of a
    /// registry, which has the same shape.
    pub fn new(index: usize, ptr: Ptr, node: &'a Node) -> ToolView<'a> {
        ToolView {
            index,
            ptr,
            node,
            name: str_of(node, "name"),
            source: str_of(node, "source"),
            description: str_of(node, "description"),
            risk_class: str_of(node, "riskClass"),
            side_effecting: node.get("sideEffecting").and_then(Node::as_bool),
            requires_approval: node.get("requiresApproval").and_then(Node::as_bool),
            connector_type: str_of(node, "connectorType"),
            scope: str_of(node, "scope"),
            permissions: strings(node.get("permissions")),
            data_scope_resources: strings(node.get("dataScopeResources")),
            data_scope_writes: strings(node.get("dataScopeWrites")),
        }
    }
}

impl<'a> PlaybookView<'a> {
    pub fn new(root: &'a Node) -> Self {
        let top = Ptr::root();
        let steps_ptr = top.key("steps");
        let steps = objects(root.get("steps"), &steps_ptr)
            .map(|(index, ptr, node)| StepView {
                index,
                id: str_of(node, "id").filter(|id| !id.is_empty()),
                kind: str_of(node, "kind"),
                agent: str_of(node, "agent"),
                purpose: str_of(node, "purpose"),
                allowed_tools_node: node.get("allowedTools"),
                allowed_tools: entries(node.get("allowedTools")),
                next: next_refs(node.get("next")),
                ptr,
                node,
            })
            .collect();

        let tools: Vec<ToolView<'a>> = objects(root.get("tools"), &top.key("tools"))
            .map(|(index, ptr, node)| ToolView::new(index, ptr, node))
            .collect();
        let mut tools_by_name = HashMap::with_capacity(tools.len());
        for (i, tool) in tools.iter().enumerate() {
            if let Some(name) = tool.name {
                tools_by_name.entry(CompactString::new(name)).or_insert(i);
            }
        }

        let requires_node = root.get("requires");
        let requires_ptr = top.key("requires");
        let requires = match requires_node {
            Some(node) if node.as_object().is_some() => {
                let connections_ptr = requires_ptr.key("connections");
                let servers_ptr = requires_ptr.key("mcpServers");
                let secrets_ptr = requires_ptr.key("secrets");
                RequiresView {
                    node: Some(node),
                    connections_node: node.get("connections"),
                    connections: objects(node.get("connections"), &connections_ptr)
                        .map(|(index, ptr, node)| ConnectionView {
                            index,
                            provider: str_of(node, "provider"),
                            auth_kind: str_of(node, "authKind"),
                            scopes: strings(node.get("scopes")),
                            capabilities: entries(node.get("capabilities")),
                            ptr,
                            node,
                        })
                        .collect(),
                    mcp_servers_node: node.get("mcpServers"),
                    mcp_servers: objects(node.get("mcpServers"), &servers_ptr)
                        .map(|(index, ptr, node)| McpServerView {
                            index,
                            name: str_of(node, "name"),
                            tool_names: entries(node.get("toolNames")),
                            capabilities: node
                                .get("capabilities")
                                .and_then(Node::as_array)
                                .map(|c| c.iter().collect())
                                .unwrap_or_default(),
                            ptr,
                            node,
                        })
                        .collect(),
                    secrets_node: node.get("secrets"),
                    secrets: objects(node.get("secrets"), &secrets_ptr)
                        .map(|(index, ptr, node)| SecretView {
                            index,
                            name: str_of(node, "name"),
                            purpose: str_of(node, "purpose"),
                            ptr,
                            node,
                        })
                        .collect(),
                }
            }
            other => RequiresView { node: other, ..RequiresView::default() },
        };

        let required_connectors =
            entries(root.get("manifest").and_then(|m| m.get("requiredConnectors")));

        PlaybookView {
            root,
            version: root.get("openplaybook"),
            steps,
            tools,
            requires,
            required_connectors,
            start: root.get("start"),
            tools_by_name,
        }
    }

    /// The first embedded tool with this name.
    pub fn tool(&self, name: &str) -> Option<&ToolView<'a>> {
        self.tools_by_name.get(name).map(|&i| &self.tools[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_names_split_on_the_first_dot_after_the_prefix() {
        assert_eq!(
            mcp_name("mcp.acme.search_orders"),
            McpName::Valid { server: "acme", tool: "search_orders" }
        );
        assert_eq!(
            mcp_name("mcp.acme.orders.search"),
            McpName::Valid { server: "acme", tool: "orders.search" }
        );
        assert_eq!(mcp_name("mcp.acme"), McpName::Malformed);
        assert_eq!(mcp_name("mcp..x"), McpName::Malformed);
        assert_eq!(mcp_name("mcp.acme."), McpName::Malformed);
        assert_eq!(mcp_name("customer.get"), McpName::NotMcp);
    }
}
