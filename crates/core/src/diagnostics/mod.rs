//! The diagnostic vocabulary every layer above speaks: how serious a finding
//! is, the metadata of a rule, what a rule reports (a [`Finding`], before
//! positions) and what the shells read (a [`Diagnostic`]), with the shapes
//! of credentials, the masking by those found that no shown text may skip,
//! and the wording of lists.
//!
//! It knows the syntax layer's spans and pointers, and nothing of any rule
//! or view: the rules themselves are statics of [`crate::rules`].

pub mod credentials;
mod diagnostic;
mod finding;
pub mod masking;
pub mod prose;
mod settings;

pub use diagnostic::{resolve, Counts, Diagnostic, Edit, Related};
pub use finding::{At, Finding, Report};
pub use settings::{Accepted, RuleSettings, Suppressed, Suppression, SuppressionKind};

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document breaks the spec: the CLI exits 1 on one.
    Error,
    /// Allowed, but likely a mistake or a risk a reader should weigh.
    Warning,
    /// Worth knowing, nothing to fix: the version assumed when none is
    /// written, say.
    Info,
}

impl Severity {
    /// The severity as serialised and shown: `error`, `warning` or `info`.
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
    /// IN0xx: reading the text, for both kinds (syntax, shape, limits).
    Input,
    /// PB1xx: a playbook's top level and its `openplaybook` version.
    PlaybookDocument,
    /// PB2xx: steps, their `allowedTools` and the step graph.
    PlaybookSteps,
    /// PB3xx: the embedded tool definitions (`tools`).
    PlaybookTools,
    /// PB4xx: the `requires` block against what the document uses.
    PlaybookRequires,
    /// DR0xx: embedded definitions against a runtime's registry
    /// ([`Options::registry`](crate::Options::registry)).
    PlaybookDrift,
    /// SEC001: a credential written into the document, for both kinds.
    Credentials,
    /// PM1xx: a manifest tool's `id`.
    ManifestToolId,
    /// PM2xx: what a manifest tool runs (`mcp`, `package`, `url`, `flow`).
    ManifestRuns,
    /// PM3xx: remote tools (`url`, `connection`, `functions`, `headers`).
    ManifestRemote,
    /// PM4xx: `requires_approval` and `approval`.
    ManifestApprovals,
    /// PM5xx: process and sandbox (`env`, `isolation`, `sandbox`, `limits`,
    /// `timeout`).
    ManifestProcess,
    /// PM6xx: flows, results, models and secrets in arguments.
    ManifestFlows,
}

impl Group {
    /// The group's heading, as `spec/RULES.md` writes it.
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

/// A text of a rule's documentation: as written, or empty when the core is
/// built without its `documentation` feature.
#[cfg(feature = "documentation")]
macro_rules! documented {
    ($text:expr) => {
        $text
    };
}
#[cfg(not(feature = "documentation"))]
macro_rules! documented {
    ($text:expr) => {
        ""
    };
}
pub(crate) use documented;

/// A rule of the catalogue and its documentation.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable code, e.g. `PB213`. Never reused for another meaning.
    pub code: &'static str,
    /// Kebab-case name, e.g. `next-unknown`.
    pub name: &'static str,
    /// The severity its diagnostics carry.
    pub severity: Severity,
    /// Its section of the catalogue.
    pub group: Group,
    /// One sentence: when the rule fires. This and the next three are empty
    /// when the core is built without its `documentation` feature.
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
