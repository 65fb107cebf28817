//! Lookups in the core's explain views by the names the panels select by.
//! The first item of a repeated name is the one the core resolves to.

use opb_core::explain::boundary::{StepBoundary, ToolExplain};
use opb_core::explain::manifest::{ManifestExplain, ManifestToolExplain};
use opb_core::explain::PlaybookExplain;

pub fn playbook_step<'e>(explain: &'e PlaybookExplain, id: &str) -> Option<&'e StepBoundary> {
    explain.steps.iter().find(|s| s.id.as_deref() == Some(id))
}

pub fn playbook_tool<'e>(explain: &'e PlaybookExplain, name: &str) -> Option<&'e ToolExplain> {
    explain.tools.iter().find(|t| t.facts.name.as_deref() == Some(name))
}

pub fn manifest_tool<'e>(
    explain: &'e ManifestExplain,
    key: &str,
) -> Option<&'e ManifestToolExplain> {
    explain.tools.iter().find(|t| tool_key(t) == key)
}

/// How the panels name a manifest tool: its id, or `tools/<index>` for one
/// without (as the core's "used by" lists do).
pub fn tool_key(tool: &ManifestToolExplain) -> String {
    tool.id.clone().unwrap_or_else(|| format!("tools/{}", tool.index))
}
