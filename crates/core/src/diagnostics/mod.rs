//! The diagnostic vocabulary every layer above speaks: how serious a finding
//! is, the metadata of a rule, what a rule reports (a [`Finding`], before
//! positions) and what the shells read (a [`Diagnostic`]), with the
//! credential masking no shown text may skip and the wording of lists.
//!
//! It knows the syntax layer's spans and pointers, and nothing of any rule
//! or view: the rules themselves are statics of [`crate::rules`].

mod diagnostic;
mod finding;
pub mod prose;
pub mod secrets;

pub use diagnostic::{Counts, Diagnostic, resolve};
pub use finding::{At, Finding, Report};

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The group a rule belongs to, as `spec/RULES.md` sections them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    Input,
    PlaybookDocument,
    PlaybookSteps,
    PlaybookTools,
    PlaybookRequires,
    PlaybookDrift,
    Credentials,
    ManifestToolId,
    ManifestRuns,
    ManifestRemote,
    ManifestApprovals,
    ManifestProcess,
    ManifestFlows,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Input => "Input (both kinds)",
            Group::PlaybookDocument => "OpenPlaybook: document and version",
            Group::PlaybookSteps => "OpenPlaybook: steps and graph",
            Group::PlaybookTools => "OpenPlaybook: embedded tools",
            Group::PlaybookRequires => "OpenPlaybook: the requires block",
            Group::PlaybookDrift => "OpenPlaybook: drift against a registry",
            Group::Credentials => "Credentials (both kinds)",
            Group::ManifestToolId => "Plugin manifest: tool id",
            Group::ManifestRuns => "Plugin manifest: what runs",
            Group::ManifestRemote => "Plugin manifest: remote tools",
            Group::ManifestApprovals => "Plugin manifest: approvals",
            Group::ManifestProcess => "Plugin manifest: process and sandbox",
            Group::ManifestFlows => "Plugin manifest: flows, results, models, secrets in arguments",
        }
    }
}

/// A rule of the catalogue and its documentation.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable code, e.g. `PB213`. Never reused for another meaning.
    pub code: &'static str,
    /// Kebab-case name, e.g. `next-unknown`.
    pub name: &'static str,
    pub severity: Severity,
    pub group: Group,
    /// One sentence: when the rule fires.
    pub summary: &'static str,
    /// The sentence of the seed (or the assumption of DOCUMENTS.md) the rule
    /// enforces, quoted, with where it comes from.
    pub source: &'static str,
    /// How to fix a finding.
    pub fix: &'static str,
    /// A small document fragment that triggers the rule.
    pub example: &'static str,
}

impl Rule {
    /// The rule's documentation as Markdown: what it checks, the sentence it
    /// enforces, how to fix it, and an example.
    pub fn documentation(&self) -> String {
        format!(
            "# {code} {name} ({severity})\n\n{summary}\n\n**Enforces:** {source}\n\n**Fix:** {fix}\n\n**Example of what it reports:**\n\n```\n{example}\n```\n",
            code = self.code,
            name = self.name,
            severity = self.severity,
            summary = self.summary,
            source = self.source,
            fix = self.fix,
            example = self.example.trim_end(),
        )
    }
}
