//! A typed, tolerant view over an Orchestrator Zero plugin manifest (seed
//! 003, DOCUMENTS.md §2): what the PM rules and explain read. It never
//! reports; values of the wrong type read as absent (the shape rules report
//! them).

pub mod package;
pub mod url;
pub mod values;

use crate::views::objects;
use crate::views::playbook::Named;
use foldhash::{HashMap, HashMapExt, HashSet};
use opb_syntax::{Member, Node, Ptr, Value};
use package::{Ecosystem, Package, PackageError};

/// A plugin manifest as the rules and explain see it.
#[derive(Debug)]
pub struct ManifestView<'a> {
    /// The plugin's name, when it is a non-empty string.
    pub name: Option<&'a str>,
    pub version: Option<&'a Node>,
    pub tools: Vec<ManifestToolView<'a>>,
    pub skills: Vec<Named<'a>>,
    pub flows: Vec<FlowView<'a>>,
    pub connections: Vec<ManifestConnectionView<'a>>,
    /// `requires.secrets`.
    pub secrets: Vec<Named<'a>>,
    pub optional_secrets: Vec<Named<'a>>,
    /// `egress`, when it says the plugin reaches out (anything non-empty).
    pub egress: Option<&'a Node>,
    index: Index<'a>,
}

/// Lookups by name, so that cross-references stay linear on a manifest of
/// thousands of tools. The first of two items with one name wins.
#[derive(Debug, Default)]
struct Index<'a> {
    flows: HashMap<&'a str, usize>,
    connections: HashMap<&'a str, usize>,
    skills: HashSet<&'a str>,
    secrets: HashSet<&'a str>,
    optional_secrets: HashSet<&'a str>,
    /// Tool id to the positions in `connections` of those that list it.
    covered_by: HashMap<&'a str, Vec<usize>>,
}

fn first_positions<'a>(names: impl Iterator<Item = Option<&'a str>>) -> HashMap<&'a str, usize> {
    let mut positions = HashMap::new();
    for (position, name) in names.enumerate() {
        if let Some(name) = name {
            positions.entry(name).or_insert(position);
        }
    }
    positions
}

/// How a tool runs, by the field that says so. When a tool sets more than
/// one (PM201), the first of `flow`, `url`, `package`, `mcp` decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runs<'a> {
    /// `mcp` alone: a command in the plugin's own environment.
    Command,
    /// `package` (possibly with `mcp` naming its command).
    Package(Result<Package<'a>, PackageError>),
    /// `url`: a remote MCP server.
    Remote(&'a str),
    /// `flow`: one of the plugin's flows as a tool.
    Flow(&'a str),
    /// None of them, or only values of the wrong type.
    Unknown,
}

#[derive(Debug)]
pub struct ManifestToolView<'a> {
    pub index: usize,
    pub ptr: Ptr,
    pub node: &'a Node,
    /// The id, when it is a non-empty string.
    pub id: Option<&'a str>,
    pub runs: Runs<'a>,
}

#[derive(Debug)]
pub struct FlowView<'a> {
    pub ptr: Ptr,
    pub node: &'a Node,
    pub name: Option<&'a str>,
    /// The `tool` of each step, as `<id>.<function>`.
    pub step_tools: Vec<Named<'a>>,
}

#[derive(Debug)]
pub struct ManifestConnectionView<'a> {
    pub ptr: Ptr,
    pub name: Option<&'a str>,
    /// Tool ids, `<tool>.<function>` or `<tool>.*`.
    pub tools: Vec<Named<'a>>,
    pub params: Vec<Named<'a>>,
    /// Whether the connection has steps (which record a templated host).
    pub has_steps: bool,
}

/// How `approval.escalation` reads.
#[derive(Debug, Clone, Copy)]
pub enum Escalation<'a> {
    /// `off` (quoted or not, any case) or `false`.
    Off,
    /// The ladder's steps.
    Steps(&'a [Node]),
    /// Any other value.
    Invalid,
}

impl<'a> Escalation<'a> {
    pub fn read(node: &'a Node) -> Escalation<'a> {
        match &node.value {
            Value::Bool(false) => Escalation::Off,
            Value::String(s) if s.trim().eq_ignore_ascii_case("off") => Escalation::Off,
            Value::Array(steps) => Escalation::Steps(steps),
            _ => Escalation::Invalid,
        }
    }
}

/// The names a list gives: its strings, or the `name` of its objects
/// (`skills: [triage-guide]` or `skills: [{name: triage-guide}]`).
pub fn names<'a>(node: Option<&'a Node>, ptr: &Ptr) -> Vec<Named<'a>> {
    let Some(items) = node.and_then(Node::as_array) else { return Vec::new() };
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| match &item.value {
            Value::String(name) => Some(Named { name, node: item, ptr: ptr.index(i) }),
            Value::Object(object) => {
                let named = object.get("name")?;
                Some(Named { name: named.as_str()?, node: named, ptr: ptr.index(i).key("name") })
            }
            _ => None,
        })
        .collect()
}

/// Whether a value says something: not null, `false`, or an empty string,
/// list or map.
pub fn is_non_empty(node: &Node) -> bool {
    match &node.value {
        Value::Null | Value::Bool(false) => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(object) => !object.is_empty(),
        Value::Bool(true) | Value::Number(_) => true,
    }
}

fn non_empty_str<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    node.get(key).and_then(Node::as_str).filter(|s| !s.is_empty())
}

impl<'a> ManifestView<'a> {
    pub fn new(root: &'a Node) -> Self {
        let top = Ptr::root();
        let tools = objects(root.get("tools"), &top.key("tools"))
            .map(|(index, ptr, node)| ManifestToolView {
                index,
                id: non_empty_str(node, "id"),
                runs: runs(node),
                ptr,
                node,
            })
            .collect();
        let flows = objects(root.get("flows"), &top.key("flows"))
            .map(|(_, ptr, node)| {
                let steps_ptr = ptr.key("steps");
                let step_tools = objects(node.get("steps"), &steps_ptr)
                    .filter_map(|(_, step_ptr, step)| {
                        let tool = step.get("tool")?;
                        Some(Named { name: tool.as_str()?, node: tool, ptr: step_ptr.key("tool") })
                    })
                    .collect();
                FlowView { name: non_empty_str(node, "name"), step_tools, ptr, node }
            })
            .collect();
        let connections = objects(root.get("connections"), &top.key("connections"))
            .map(|(_, ptr, node)| ManifestConnectionView {
                name: non_empty_str(node, "name"),
                tools: names(node.get("tools"), &ptr.key("tools")),
                params: names(node.get("params"), &ptr.key("params")),
                has_steps: node.get("steps").is_some_and(is_non_empty),
                ptr,
            })
            .collect();
        let requires_secrets = root.get("requires").and_then(|r| r.get("secrets"));
        let mut view = ManifestView {
            name: non_empty_str(root, "name"),
            version: root.get("version").filter(|v| !v.is_null()),
            tools,
            skills: names(root.get("skills"), &top.key("skills")),
            flows,
            connections,
            secrets: names(requires_secrets, &top.key("requires").key("secrets")),
            optional_secrets: names(root.get("optional_secrets"), &top.key("optional_secrets")),
            egress: root.get("egress").filter(|e| is_non_empty(e)),
            index: Index::default(),
        };
        view.index = view.build_index();
        view
    }

    fn build_index(&self) -> Index<'a> {
        let mut covered_by: HashMap<&'a str, Vec<usize>> = HashMap::new();
        for (position, connection) in self.connections.iter().enumerate() {
            for entry in &connection.tools {
                if let Some(id) = self.listed_tool(entry.name) {
                    let positions = covered_by.entry(id).or_default();
                    if positions.last() != Some(&position) {
                        positions.push(position);
                    }
                }
            }
        }
        Index {
            flows: first_positions(self.flows.iter().map(|f| f.name)),
            connections: first_positions(self.connections.iter().map(|c| c.name)),
            skills: self.skills.iter().map(|s| s.name).collect(),
            secrets: self.secrets.iter().map(|s| s.name).collect(),
            optional_secrets: self.optional_secrets.iter().map(|s| s.name).collect(),
            covered_by,
        }
    }

    /// The tool id a connection's `tools` entry lists: `<id>`, `<id>.*` or
    /// `<id>.<function>`, with or without this plugin's name in front.
    fn listed_tool<'r>(&self, entry: &'r str) -> Option<&'r str> {
        let reference = self.own_reference(entry)?;
        match reference.split_once('.') {
            Some((id, function)) => (!function.is_empty()).then_some(id),
            None => Some(reference),
        }
    }

    /// The first flow with this name.
    pub fn flow(&self, name: &str) -> Option<&FlowView<'a>> {
        self.index.flows.get(name).and_then(|&i| self.flows.get(i))
    }

    /// The first connection with this name.
    pub fn connection(&self, name: &str) -> Option<&ManifestConnectionView<'a>> {
        self.index.connections.get(name).and_then(|&i| self.connections.get(i))
    }

    pub fn has_skill(&self, name: &str) -> bool {
        self.index.skills.contains(name)
    }

    /// Whether `requires.secrets` names it.
    pub fn requires_secret(&self, name: &str) -> bool {
        self.index.secrets.contains(name)
    }

    /// Whether `optional_secrets` names it.
    pub fn optional_secret(&self, name: &str) -> bool {
        self.index.optional_secrets.contains(name)
    }

    /// A reference without this plugin's own `<plugin>/` in front; `None`
    /// when it names another plugin.
    pub fn own_reference<'r>(&self, reference: &'r str) -> Option<&'r str> {
        match reference.split_once('/') {
            Some((plugin, rest)) => (Some(plugin) == self.name).then_some(rest),
            None => Some(reference),
        }
    }

    /// Every secret the plugin holds, required ones first.
    pub fn all_secrets(&self) -> impl Iterator<Item = &Named<'a>> {
        self.secrets.iter().chain(&self.optional_secrets)
    }

    /// The connections whose `tools` list this tool: its id, `<id>.*` or one
    /// of its functions.
    pub fn connections_covering(
        &self,
        id: &str,
    ) -> impl Iterator<Item = &ManifestConnectionView<'a>> {
        self.index
            .covered_by
            .get(id)
            .into_iter()
            .flatten()
            .filter_map(|&position| self.connections.get(position))
    }

    /// Whether a connection's `tools` list this tool.
    pub fn lists(&self, connection: &ManifestConnectionView<'_>, tool_id: &str) -> bool {
        connection.tools.iter().any(|t| self.listed_tool(t.name) == Some(tool_id))
    }
}

fn runs(node: &Node) -> Runs<'_> {
    if let Some(flow) = node.get("flow").and_then(Node::as_str) {
        return Runs::Flow(flow);
    }
    if let Some(url) = node.get("url").and_then(Node::as_str) {
        return Runs::Remote(url);
    }
    if let Some(package) = node.get("package").and_then(Node::as_str) {
        return Runs::Package(Package::parse(package));
    }
    if node.get("mcp").is_some_and(|m| !m.is_null()) {
        return Runs::Command;
    }
    Runs::Unknown
}

impl<'a> ManifestToolView<'a> {
    /// The value of a field, when it is set (not null).
    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.node.get(key).filter(|n| !n.is_null())
    }

    /// The member of a field, set or null.
    pub fn member(&self, key: &str) -> Option<&'a Member> {
        self.node.as_object().and_then(|o| o.member(key))
    }

    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Node::as_str)
    }

    /// The name messages use: "tool `acme_fetch`", or "tool 3" without an
    /// id. Written only into a message: nearly every tool has no finding.
    pub fn label(&self) -> ToolLabel<'a> {
        ToolLabel { id: self.id, index: self.index }
    }

    pub fn is_remote(&self) -> bool {
        matches!(self.runs, Runs::Remote(_))
    }

    pub fn is_flow(&self) -> bool {
        matches!(self.runs, Runs::Flow(_))
    }

    /// The ecosystem its `package` names by its scheme, whether or not the
    /// reference after it parses: a fault in the reference (PM203) does not
    /// change what the tool is for the other rules.
    pub fn ecosystem(&self) -> Option<Ecosystem> {
        match &self.runs {
            Runs::Package(_) => {
                self.str("package").and_then(Ecosystem::of_package).map(|(ecosystem, _)| ecosystem)
            }
            _ => None,
        }
    }

    /// An `oci:` image, whether or not its reference is right.
    pub fn is_oci(&self) -> bool {
        self.ecosystem() == Some(Ecosystem::Oci)
    }

    /// A local tool: its own `mcp` command, or a PyPI or npm package.
    pub fn is_local(&self) -> bool {
        matches!(self.runs, Runs::Command)
            || matches!(self.ecosystem(), Some(Ecosystem::Pypi | Ecosystem::Npm))
    }

    /// The `sandbox` value, when it is a string.
    pub fn sandbox(&self) -> Option<&'a str> {
        self.str("sandbox")
    }
}

/// A tool's name in a message (see [`ManifestToolView::label`]).
#[derive(Debug, Clone, Copy)]
pub struct ToolLabel<'a> {
    id: Option<&'a str>,
    index: usize,
}

impl std::fmt::Display for ToolLabel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id {
            Some(id) => write!(f, "tool `{id}`"),
            None => write!(f, "tool {}", self.index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_of(text: &str) -> Node {
        opb_syntax::parse(text, opb_syntax::Syntax::Yaml, &opb_syntax::Limits::default())
            .root
            .unwrap()
    }

    #[test]
    fn tools_read_how_they_run() {
        let root = view_of(
            "name: acme-github\ntools:\n  - {id: a, mcp: [python]}\n  - {id: b, package: 'pypi:x'}\n  - {id: c, url: 'https://x'}\n  - {id: d, flow: f}\n  - {id: ''}\n  - 7\n",
        );
        let view = ManifestView::new(&root);
        let runs: Vec<_> = view.tools.iter().map(|t| t.runs.clone()).collect();
        assert_eq!(runs.len(), 5, "the number is not a tool");
        assert_eq!(runs[0], Runs::Command);
        assert!(matches!(runs[1], Runs::Package(Ok(_))));
        assert_eq!(runs[2], Runs::Remote("https://x"));
        assert_eq!(runs[3], Runs::Flow("f"));
        assert_eq!((view.tools[4].id, &view.tools[4].runs), (None, &Runs::Unknown));
    }

    #[test]
    fn escalation_off_in_every_spelling() {
        for text in ["e: off", "e: 'off'", "e: Off", "e: false"] {
            let root = view_of(text);
            assert!(matches!(Escalation::read(root.get("e").unwrap()), Escalation::Off), "{text}");
        }
        let root = view_of("e: true");
        assert!(matches!(Escalation::read(root.get("e").unwrap()), Escalation::Invalid));
    }

    #[test]
    fn references_and_coverage() {
        let root = view_of(
            "name: acme\nconnections:\n  - {name: gh, tools: [acme_a, acme_b.*, acme_c.run, acme/acme_d, other/acme_e]}\nskills: [one, {name: two}, 3]\n",
        );
        let view = ManifestView::new(&root);
        let connection = &view.connections[0];
        for id in ["acme_a", "acme_b", "acme_c", "acme_d"] {
            assert!(view.lists(connection, id), "{id}");
        }
        assert!(!view.lists(connection, "acme"));
        assert!(!view.lists(connection, "acme_e"), "another plugin's tool");
        assert_eq!(view.skills.iter().map(|s| s.name).collect::<Vec<_>>(), ["one", "two"]);
        assert_eq!(view.own_reference("acme/x"), Some("x"));
        assert_eq!(view.own_reference("other/x"), None);
        assert_eq!(view.own_reference("x"), Some("x"));
    }
}
