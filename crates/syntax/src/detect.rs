//! Telling a playbook from a plugin manifest (DOCUMENTS.md §3).

use crate::Node;
use serde::{Deserialize, Serialize};

/// The two kinds of document the core reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// An OpenPlaybook document: steps, the tools they may call, and what
    /// they require.
    Playbook,
    /// An Orchestrator Zero plugin manifest: the tools a plugin serves and
    /// how they run.
    PluginManifest,
}

impl Kind {
    /// The kind's name as serialised and shown: `playbook` or
    /// `plugin-manifest`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Playbook => "playbook",
            Kind::PluginManifest => "plugin-manifest",
        }
    }

    /// Reads a kind as users write it: `playbook`, or `plugin`,
    /// `plugin-manifest`, `manifest`.
    pub fn parse(s: &str) -> Option<Kind> {
        match s.to_ascii_lowercase().as_str() {
            "playbook" | "openplaybook" => Some(Kind::Playbook),
            "plugin" | "plugin-manifest" | "manifest" | "oz0-plugin" => Some(Kind::PluginManifest),
            _ => None,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Detects the kind of a parsed document, or `None` when nothing says.
///
/// DOCUMENTS.md §3 lists `requires` among the playbook keys, but a manifest
/// has `requires` too (`requires.secrets`), so a top-level `requires` decides
/// only when nothing says "manifest": `openplaybook` or `steps` first, then
/// the manifest signs (`tools` entries with `id`, `flows`, `skills`), then
/// `requires`. docs/spec-decisions.md records this reading.
pub fn detect(root: &Node) -> Option<Kind> {
    let object = root.as_object()?;
    if object.contains("openplaybook") || object.contains("steps") {
        return Some(Kind::Playbook);
    }
    let tools_have_ids = object.get("tools").and_then(Node::as_array).is_some_and(|tools| {
        tools.iter().any(|t| {
            t.as_object()
                .is_some_and(|o| o.contains("id") && !(o.contains("name") && o.contains("source")))
        })
    });
    if tools_have_ids || object.contains("flows") || object.contains("skills") {
        return Some(Kind::PluginManifest);
    }
    if object.contains("requires") {
        return Some(Kind::Playbook);
    }
    None
}
