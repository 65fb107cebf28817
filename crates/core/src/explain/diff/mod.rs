//! What changed between two versions of a document in what it may do: a
//! semantic diff of two explain views, not of their text.
//!
//! Playbooks are compared by step id, embedded tool name, connection
//! provider, MCP server name and secret name; plugin manifests by tool id,
//! connection, secret and flow name. The first of two items sharing a key is
//! the one compared, as everywhere else in the core. Each change says
//! whether it widens what the document may do (a step may call a new tool, a
//! risk class is raised, a connection or secret is added, a gate no longer
//! stands before a step, a function no longer asks a person), narrows it, or
//! is neutral.

mod manifest;
mod playbook;
pub mod words;

pub use crate::views::compare::{
    Direction, ListChange, ListField, OriginField, ToolChange, ValueChange,
};

use super::Explain;
use crate::diagnostics::masking::Masking;
use foldhash::{HashMap, HashMapExt};
use opb_syntax::Kind;
use serde::Serialize;
use std::borrow::Cow;

/// Which way a change moves what the document may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Impact {
    /// The new version may do more, or with less oversight.
    Widens,
    /// The new version may do less, or with more oversight.
    Narrows,
    /// Different, neither more nor less.
    Neutral,
}

impl Impact {
    fn of(direction: Direction) -> Impact {
        match direction {
            Direction::Raised => Impact::Widens,
            Direction::Lowered => Impact::Narrows,
            Direction::Changed => Impact::Neutral,
        }
    }
}

/// The part of the document a change is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// The document as a whole: version, start; a plugin's own fields.
    Document,
    /// A playbook step, by id.
    Step,
    /// An embedded tool (by name) or a manifest tool (by id).
    Tool,
    /// A playbook's `requires.connections` entry (by provider) or a
    /// manifest's connection (by name).
    Connection,
    /// A playbook's `requires.mcpServers` entry, by name.
    McpServer,
    /// A playbook's `requires.secrets` entry or a manifest's secret, by name.
    Secret,
    /// A manifest's flow, by name.
    Flow,
}

/// Where a change is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Subject {
    /// The part of the document.
    pub section: Section,
    /// The step id, tool name or id, provider or name; none for the document.
    pub key: Option<String>,
}

impl Subject {
    fn document() -> Subject {
        Subject { section: Section::Document, key: None }
    }

    fn of(section: Section, key: &str) -> Subject {
        Subject { section, key: Some(key.to_owned()) }
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// Where it is.
    pub subject: Subject,
    /// Whether it widens what the document may do, narrows it, or neither.
    pub impact: Impact,
    /// What changed (flattened: its `change` tag and fields).
    #[serde(flatten)]
    pub detail: Detail,
}

/// A value before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FromTo<T> {
    /// In the old version.
    pub from: T,
    /// In the new version.
    pub to: T,
}

/// What changed. Playbook and manifest changes share the type so that one
/// renderer reads both.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Detail {
    // The document.
    /// `openplaybook` (or a plugin's `version`) as written.
    Version(FromTo<Option<String>>),
    /// The step the playbook starts at.
    Start(FromTo<Option<String>>),

    // Playbook steps.
    /// A step only the new version has; it widens when it may call a tool.
    StepAdded {
        /// Its `kind` as written.
        kind: Option<String>,
        /// Its `allowedTools` names.
        tools: Vec<String>,
        /// The most consequential risk class among its embedded tools.
        highest_risk_class: Option<String>,
    },
    /// A step only the old version has; it narrows when it could call a tool.
    StepRemoved {
        /// Its `kind` as written.
        kind: Option<String>,
        /// The `allowedTools` names it had.
        tools: Vec<String>,
    },
    /// A step's `kind` as written.
    StepKind(FromTo<Option<String>>),
    /// A step's `allowedTools` gains a tool.
    ToolAllowed {
        /// The tool's name.
        tool: String,
        /// Its risk class in the new version, when embedded with one.
        risk_class: Option<String>,
        /// Whether the new version embeds its definition.
        embedded: bool,
    },
    /// A step's `allowedTools` loses a tool.
    ToolDisallowed {
        /// The tool's name.
        tool: String,
    },
    /// The most consequential risk class among the step's embedded tools.
    StepRisk {
        /// The class before and after (flattened).
        #[serde(flatten)]
        values: FromTo<Option<String>>,
        /// Raised, lowered, or neither, in the seed's order of classes.
        direction: Direction,
    },
    /// Whether every path from the start to the step passes a gate.
    BehindGate(FromTo<bool>),
    /// An edge of the step's `next` only the new version has.
    NextAdded {
        /// The id of the step it leads to.
        to: String,
        /// Its branch label; none for a plain `next`.
        label: Option<String>,
    },
    /// An edge of the step's `next` only the old version has.
    NextRemoved {
        /// The id of the step it led to.
        to: String,
        /// Its branch label; none for a plain `next`.
        label: Option<String>,
    },

    // Embedded tool definitions.
    /// A definition only the new version embeds. Neutral: what a step may
    /// call is its `allowedTools`, which [`Detail::ToolAllowed`] reports.
    ToolDefined {
        /// Its `riskClass` as written.
        risk_class: Option<String>,
        /// Its `sideEffecting`; absent when undeclared.
        side_effecting: Option<bool>,
        /// Its `requiresApproval`; absent when undeclared.
        requires_approval: Option<bool>,
    },
    /// A definition only the old version embeds (neutral, as
    /// [`Detail::ToolDefined`]).
    ToolUndefined,
    /// A field of an embedded definition (the same comparison as drift).
    Definition(ToolChange),

    // The requires block.
    /// A `requires.connections` entry only the new version has.
    ConnectionAdded {
        /// Its `authKind` as written.
        auth_kind: Option<String>,
        /// The OAuth scopes it requests.
        scopes: Vec<String>,
    },
    /// A `requires.connections` entry only the old version has.
    ConnectionRemoved,
    /// A connection's `authKind` as written.
    AuthKind(FromTo<Option<String>>),
    /// OAuth scopes a connection requests that it did not before.
    ScopesAdded {
        /// The new scopes, in the new version's order.
        scopes: Vec<String>,
    },
    /// OAuth scopes a connection no longer requests.
    ScopesRemoved {
        /// The dropped scopes, in the old version's order.
        scopes: Vec<String>,
    },
    /// A `requires.mcpServers` entry only the new version has.
    McpServerAdded {
        /// Its `toolNames`.
        tool_names: Vec<String>,
    },
    /// A `requires.mcpServers` entry only the old version has.
    McpServerRemoved,
    /// Names an MCP server's `toolNames`, or a manifest connection's
    /// `tools`, gains.
    ToolNamesAdded {
        /// The names gained, in the new version's order.
        tool_names: Vec<String>,
    },
    /// Names an MCP server's `toolNames`, or a manifest connection's
    /// `tools`, loses.
    ToolNamesRemoved {
        /// The names lost, in the old version's order.
        tool_names: Vec<String>,
    },
    /// A secret only the new version requires or accepts.
    SecretAdded {
        /// A playbook secret's purpose.
        purpose: Option<String>,
        /// A manifest secret: `requires.secrets` (true) or `optional_secrets`.
        required: Option<bool>,
    },
    /// A secret only the old version has.
    SecretRemoved,

    // Plugin manifests.
    /// A manifest tool only the new version has.
    ManifestToolAdded {
        /// How it runs, in words (`package npm:@acme/tool@1.2.3`).
        runs: String,
    },
    /// A manifest tool only the old version has.
    ManifestToolRemoved {
        /// How it ran, in words.
        runs: String,
    },
    /// How a manifest tool runs, in words.
    Runs(FromTo<String>),
    /// A function now in `requires_approval`: a person decides every call.
    AlwaysAsksAdded {
        /// The function's name, as `<id>.<function>` would end.
        function: String,
    },
    /// A function no longer in `requires_approval`.
    AlwaysAsksRemoved {
        /// The function's name, as `<id>.<function>` would end.
        function: String,
    },
    /// The approval policy in one sentence, when it changed otherwise.
    ApprovalPolicy(FromTo<String>),
    /// A function's annotation override (`readOnlyHint`, `destructiveHint`,
    /// `openWorldHint`).
    Annotation {
        /// The function's name.
        function: String,
        /// The annotation, as the manifest spells it (`readOnlyHint`, …).
        hint: &'static str,
        /// Its override before and after (flattened); absent where the
        /// manifest leaves the server's word.
        #[serde(flatten)]
        values: FromTo<Option<bool>>,
    },
    /// A manifest tool's `isolation`: gaining one narrows, losing it widens.
    Isolation(FromTo<Option<String>>),
    /// A manifest tool's `sandbox`: setting one (out of the plugin sandbox)
    /// widens, unsetting it narrows.
    Sandbox(FromTo<Option<String>>),
    /// A remote tool's `connection`.
    ToolConnection(FromTo<Option<String>>),
    /// An extra environment variable of a tool (values are not compared).
    EnvAdded {
        /// The variable's name.
        name: String,
    },
    /// An environment variable a tool no longer sets.
    EnvRemoved {
        /// The variable's name.
        name: String,
    },
    /// A header a remote tool sends (values are not compared).
    HeaderAdded {
        /// The header's name.
        name: String,
    },
    /// A header a remote tool no longer sends.
    HeaderRemoved {
        /// The header's name.
        name: String,
    },
    /// A manifest connection only the new version has.
    ManifestConnectionAdded {
        /// Its `tools`, as written.
        tools: Vec<String>,
    },
    /// A manifest connection only the old version has.
    ManifestConnectionRemoved,
    /// Whether the plugin declares `egress`.
    Egress(FromTo<bool>),
    /// A flow only the new version has.
    FlowAdded,
    /// A flow only the old version has.
    FlowRemoved,
}

/// What [`Diff::mask`] does to each text of a change.
type Visit<'v> = &'v mut dyn FnMut(&mut String);

impl Detail {
    /// Hands `visit` every text of the change that comes from a document.
    fn visit_texts(&mut self, visit: Visit<'_>) {
        match self {
            Detail::Version(values)
            | Detail::Start(values)
            | Detail::StepKind(values)
            | Detail::AuthKind(values)
            | Detail::Isolation(values)
            | Detail::Sandbox(values)
            | Detail::ToolConnection(values)
            | Detail::StepRisk { values, .. } => {
                optional(&mut values.from, visit);
                optional(&mut values.to, visit);
            }
            Detail::Runs(values) | Detail::ApprovalPolicy(values) => {
                visit(&mut values.from);
                visit(&mut values.to);
            }
            Detail::StepAdded { kind, tools, highest_risk_class } => {
                optional(kind, visit);
                tools.iter_mut().for_each(&mut *visit);
                optional(highest_risk_class, visit);
            }
            Detail::StepRemoved { kind, tools } => {
                optional(kind, visit);
                tools.iter_mut().for_each(visit);
            }
            Detail::ToolAllowed { tool, risk_class, .. } => {
                visit(tool);
                optional(risk_class, visit);
            }
            Detail::NextAdded { to, label } | Detail::NextRemoved { to, label } => {
                visit(to);
                optional(label, visit);
            }
            Detail::ToolDefined { risk_class: text, .. }
            | Detail::SecretAdded { purpose: text, .. } => optional(text, visit),
            Detail::ConnectionAdded { auth_kind, scopes } => {
                optional(auth_kind, visit);
                scopes.iter_mut().for_each(visit);
            }
            Detail::Definition(change) => change.visit_texts(visit),
            Detail::ScopesAdded { scopes: texts }
            | Detail::ScopesRemoved { scopes: texts }
            | Detail::McpServerAdded { tool_names: texts }
            | Detail::ToolNamesAdded { tool_names: texts }
            | Detail::ToolNamesRemoved { tool_names: texts }
            | Detail::ManifestConnectionAdded { tools: texts } => texts.iter_mut().for_each(visit),
            Detail::ToolDisallowed { tool: text }
            | Detail::ManifestToolAdded { runs: text }
            | Detail::ManifestToolRemoved { runs: text }
            | Detail::AlwaysAsksAdded { function: text }
            | Detail::AlwaysAsksRemoved { function: text }
            | Detail::Annotation { function: text, .. }
            | Detail::EnvAdded { name: text }
            | Detail::EnvRemoved { name: text }
            | Detail::HeaderAdded { name: text }
            | Detail::HeaderRemoved { name: text } => visit(text),
            Detail::BehindGate(_)
            | Detail::Egress(_)
            | Detail::ToolUndefined
            | Detail::ConnectionRemoved
            | Detail::McpServerRemoved
            | Detail::SecretRemoved
            | Detail::ManifestConnectionRemoved
            | Detail::FlowAdded
            | Detail::FlowRemoved => {}
        }
    }
}

fn optional(text: &mut Option<String>, visit: Visit<'_>) {
    if let Some(text) = text {
        visit(text);
    }
}

/// How many changes of each impact.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Changes that let the document do more, or with less oversight.
    pub widens: usize,
    /// Changes that let it do less, or with more oversight.
    pub narrows: usize,
    /// Changes that do neither.
    pub neutral: usize,
}

/// The semantic diff of two versions of one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    /// The kind both versions are.
    pub kind: Kind,
    /// Document changes first, then by section in document order; removed
    /// items after the items of the new version.
    pub changes: Vec<Change>,
    /// `changes` by impact.
    pub summary: Summary,
}

impl Diff {
    fn new(kind: Kind, changes: Vec<Change>) -> Diff {
        let mut summary = Summary::default();
        for change in &changes {
            match change.impact {
                Impact::Widens => summary.widens += 1,
                Impact::Narrows => summary.narrows += 1,
                Impact::Neutral => summary.neutral += 1,
            }
        }
        Diff { kind, changes, summary }
    }

    /// Cuts every credential `masking` knows in every text of the changes:
    /// each version's view is masked by its own analysis, and a value one
    /// version flagged may stand unflagged in the other.
    pub(crate) fn mask(&mut self, masking: &Masking) {
        if masking.is_empty() {
            return;
        }
        let mut mask = |text: &mut String| {
            if let Cow::Owned(masked) = masking.mask(text) {
                *text = masked;
            }
        };
        for change in &mut self.changes {
            if let Some(key) = &mut change.subject.key {
                mask(key);
            }
            change.detail.visit_texts(&mut mask);
        }
    }

    /// Whether nothing the diff compares changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Why two documents could not be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum DiffError {
    /// A version could not be read as a playbook or a manifest.
    Unreadable {
        /// Whether the old version could not be explained.
        old: bool,
        /// Whether the new version could not be explained.
        new: bool,
    },
    /// A playbook cannot be compared with a manifest.
    KindsDiffer {
        /// The old version's kind.
        old: Kind,
        /// The new version's kind.
        new: Kind,
    },
}

fn a_kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Playbook => "a playbook",
        Kind::PluginManifest => "a plugin manifest",
    }
}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffError::Unreadable { old, new } => {
                let which = match (old, new) {
                    (true, true) => "neither version can",
                    (true, false) => "the old version cannot",
                    _ => "the new version cannot",
                };
                write!(f, "{which} be read as a playbook or a plugin manifest")
            }
            DiffError::KindsDiffer { old, new } => write!(
                f,
                "the old version is {} and the new one {}: only two versions of one kind compare",
                a_kind(*old),
                a_kind(*new)
            ),
        }
    }
}

/// The changes from `old` to `new`.
pub(crate) fn diff(old: &Explain, new: &Explain) -> Result<Diff, DiffError> {
    match (old, new) {
        (Explain::Playbook(old), Explain::Playbook(new)) => {
            Ok(Diff::new(Kind::Playbook, playbook::diff(old, new)))
        }
        (Explain::PluginManifest(old), Explain::PluginManifest(new)) => {
            Ok(Diff::new(Kind::PluginManifest, manifest::diff(old, new)))
        }
        (old, new) => Err(DiffError::KindsDiffer { old: kind_of(old), new: kind_of(new) }),
    }
}

fn kind_of(explain: &Explain) -> Kind {
    match explain {
        Explain::Playbook(_) => Kind::Playbook,
        Explain::PluginManifest(_) => Kind::PluginManifest,
    }
}

/// The impact of a change to an embedded definition: more permissions or
/// data scopes widen, fewer narrow; a list both gains and loses is split
/// by the caller.
fn definition_impact(change: &ToolChange) -> Impact {
    match change {
        ToolChange::RiskClass(v) => Impact::of(v.direction),
        ToolChange::SideEffecting(v) | ToolChange::RequiresApproval(v) => Impact::of(v.direction),
        ToolChange::List { change, .. } if change.removed.is_empty() => Impact::Widens,
        ToolChange::List { change, .. } if change.added.is_empty() => Impact::Narrows,
        ToolChange::List { .. } | ToolChange::Origin { .. } => Impact::Neutral,
    }
}

/// A key with its item in the old and the new version.
type Keyed<'a, T> = (&'a str, Option<&'a T>, Option<&'a T>);

/// Keys in the order of `new`, then those only in `old` in their order:
/// each key once, the first item of a key standing for it.
fn keyed<'a, T>(old: &'a [T], new: &'a [T], key: impl Fn(&T) -> Option<&str>) -> Vec<Keyed<'a, T>> {
    let index = |items: &'a [T]| {
        let mut map: HashMap<&'a str, &'a T> = HashMap::with_capacity(items.len());
        let mut order = Vec::with_capacity(items.len());
        for item in items {
            if let Some(k) = key(item) {
                if !map.contains_key(k) {
                    map.insert(k, item);
                    order.push(k);
                }
            }
        }
        (map, order)
    };
    let (old_map, old_order) = index(old);
    let (new_map, new_order) = index(new);
    let mut keys: Vec<Keyed<'a, T>> =
        new_order.iter().map(|k| (*k, old_map.get(k).copied(), new_map.get(k).copied())).collect();
    keys.extend(
        old_order
            .iter()
            .filter(|k| !new_map.contains_key(*k))
            .map(|k| (*k, old_map.get(k).copied(), None)),
    );
    keys
}

#[cfg(test)]
mod tests;
