//! The explain layer: what a document can do, built from the typed views
//! and the diagnostics, for people. The viewer, the CLI and the renderers
//! show these values; nothing here decides whether a document is valid.

pub mod anchors;
pub mod boundary;
pub mod diff;
pub mod layout;
pub mod manifest;
pub mod paths;
pub mod requires;
pub mod trust;

pub use crate::views::graph::{Graph, GraphEdge, GraphNode};

use crate::diagnostics::Diagnostic;
use crate::views::playbook::PlaybookView;
use crate::views::requires::{allowing_steps, CrossCheck};
use opb_syntax::{Kind, Node};
use serde::Serialize;

/// The explanation of a document, by kind.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
// One value per analysis, never in a collection: boxing the larger variant
// would save no memory and add an indirection to every use.
#[allow(clippy::large_enum_variant)]
pub enum Explain {
    /// A playbook's steps, tools, `requires` and step graph.
    Playbook(PlaybookExplain),
    /// A plugin manifest's tools, flows, connections, secrets and skills.
    PluginManifest(manifest::ManifestExplain),
}

/// What a playbook can do, step by step.
#[derive(Debug, Clone, Serialize)]
pub struct PlaybookExplain {
    /// The document's own metadata.
    pub document: PlaybookMetadata,
    /// Each step's capability boundary, in document order.
    pub steps: Vec<boundary::StepBoundary>,
    /// Each embedded tool, in document order, with the steps that allow it.
    pub tools: Vec<boundary::ToolExplain>,
    /// The `requires` block, cross-referenced with the tools and steps.
    pub requires: requires::RequiresExplain,
    /// The step graph.
    pub graph: Graph,
}

/// A playbook's top-level metadata, as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaybookMetadata {
    /// The top-level `id`.
    pub id: Option<String>,
    /// The top-level `name`, for people.
    pub name: Option<String>,
    /// The top-level `description`.
    pub description: Option<String>,
    /// `openplaybook` as written (a YAML number as its source text).
    pub version: Option<String>,
    /// Whether the document has no `openplaybook` and is read as 1.6.
    pub version_assumed: bool,
}

fn playbook_explain(
    root: &Node,
    view: &PlaybookView<'_>,
    check: &CrossCheck<'_, '_>,
    graph: Graph,
    diagnostics: &[Diagnostic],
) -> PlaybookExplain {
    let allowing = allowing_steps(view, &graph);
    let (steps, tools) = boundary::explain(view, &graph, check, &allowing, diagnostics);
    let text = |key: &str| root.get(key).and_then(Node::as_str).map(str::to_owned);
    PlaybookExplain {
        document: PlaybookMetadata {
            id: text("id"),
            name: text("name"),
            description: text("description"),
            version: view.version.and_then(Node::scalar_text).map(|v| v.into_owned()),
            version_assumed: view.version.is_none(),
        },
        steps,
        tools,
        requires: requires::explain(view, check, &allowing),
        graph,
    }
}

/// Builds the explain view of a document read as `kind`; a playbook's from
/// the view, cross-check and graph its rules read (none when a limit stopped
/// them).
pub(crate) fn explain(
    root: &Node,
    kind: Kind,
    diagnostics: &[Diagnostic],
    view: Option<&PlaybookView<'_>>,
    check: Option<&CrossCheck<'_, '_>>,
    graph: Option<Graph>,
) -> Option<Explain> {
    root.as_object()?;
    match kind {
        Kind::Playbook => view.zip(check).zip(graph).map(|((view, check), graph)| {
            Explain::Playbook(playbook_explain(root, view, check, graph, diagnostics))
        }),
        Kind::PluginManifest => crate::rules::checks(kind)
            .then(|| Explain::PluginManifest(manifest::build(root, diagnostics))),
    }
}
