//! The explain view of a plugin manifest, for the viewer and the CLI: per
//! tool how it runs, where, within which limits and how its calls are
//! approved, with the seed's defaults filled in and marked (`tool.rs`,
//! `approval.rs`); then flows, connections, secrets and skills with what
//! uses them (`uses.rs`).

mod approval;
mod tool;
mod uses;

pub use crate::views::manifest::package::Ecosystem;
pub use approval::{ApprovalExplain, DecidersExplain, EscalationExplain, EscalationStep};
pub use tool::{
    Annotations, FunctionExplain, HeaderExplain, LabelsExplain, ManifestToolExplain, Placement,
    ResourcesExplain, RunsExplain, UsageExplain,
};
pub use uses::{
    FlowExplain, ManifestConnectionExplain, ManifestSecretExplain, SecretUse, SkillExplain,
};

use crate::diagnostics::{Counts, Diagnostic};
use crate::views;
use crate::views::manifest::values::{parse_go_duration, SECOND};
use crate::views::manifest::ManifestView;
use opb_syntax::Node;
use serde::Serialize;

/// A value as set, or the default the seed states, marked as such.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Defaulted<T> {
    /// The value as set, or the seed's default when `default` is true.
    pub value: T,
    /// Whether the manifest leaves it unset and `value` is the default.
    pub default: bool,
}

impl<T> Defaulted<T> {
    pub(crate) fn set(value: T) -> Self {
        Defaulted { value, default: false }
    }

    pub(crate) fn default_value(value: T) -> Self {
        Defaulted { value, default: true }
    }
}

/// A duration as written, and in seconds when it reads as a Go duration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DurationValue {
    /// As written (`90s`, `1h30m`), or the default's text.
    pub text: String,
    /// The duration in seconds; none when `text` is not a Go duration.
    pub seconds: Option<f64>,
}

impl DurationValue {
    pub(crate) fn of(text: &str) -> DurationValue {
        let nanos = parse_go_duration(text).ok();
        DurationValue { text: text.to_owned(), seconds: nanos.map(|n| n as f64 / SECOND as f64) }
    }
}

/// What a plugin manifest declares, tool by tool, and what uses what.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestExplain {
    /// The plugin's own fields.
    pub plugin: PluginInfo,
    /// Each `tools` entry that is an object, in document order.
    pub tools: Vec<ManifestToolExplain>,
    /// Each `flows` entry, in document order.
    pub flows: Vec<FlowExplain>,
    /// Each `connections` entry, in document order.
    pub connections: Vec<ManifestConnectionExplain>,
    /// `requires.secrets`, then `optional_secrets`, each in document order.
    pub secrets: Vec<ManifestSecretExplain>,
    /// Each `skills` entry, in document order.
    pub skills: Vec<SkillExplain>,
    /// Whether the plugin declares `egress` (reaches outside).
    pub egress: bool,
}

/// The plugin's top-level fields, as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginInfo {
    /// `name`: the plugin's name.
    pub name: Option<String>,
    /// `version` as written (a YAML number as its source text).
    pub version: Option<String>,
    /// `description`: what the plugin is for.
    pub description: Option<String>,
}

fn text(node: Option<&Node>) -> Option<String> {
    node.and_then(Node::as_str).map(str::to_owned)
}

/// The string items of an array field, owned.
fn strings(node: Option<&Node>) -> Vec<String> {
    views::strings(node).into_iter().map(str::to_owned).collect()
}

/// Builds the explain view of a manifest.
pub(crate) fn build(root: &Node, diagnostics: &[Diagnostic]) -> ManifestExplain {
    let view = ManifestView::new(root);
    let counts = Counts::by_item(diagnostics, root, "tools");
    let tools: Vec<ManifestToolExplain> = view
        .tools
        .iter()
        .map(|tool| tool::explain(&view, tool, counts.get(tool.index).copied().unwrap_or_default()))
        .collect();
    let uses = uses::of(&view, &tools);
    ManifestExplain {
        plugin: PluginInfo {
            name: view.name.map(str::to_owned),
            version: view.version.and_then(Node::scalar_text).map(|v| v.into_owned()),
            description: text(root.get("description")),
        },
        tools,
        flows: uses.flows,
        connections: uses.connections,
        secrets: uses.secrets,
        skills: uses.skills,
        egress: view.egress.is_some(),
    }
}
