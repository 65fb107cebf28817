//! Typed views over a parsed document, and the explain views built from
//! them for the viewer and the CLI.

pub mod anchors;
pub mod boundary;
pub mod compare;
pub mod diff;
pub mod graph;
pub mod layout;
pub mod manifest;
pub(crate) mod masked;
pub mod paths;
pub mod playbook;
pub mod requires;
pub mod spec;
pub mod trust;

use crate::{Diagnostic, Kind, Node};
use serde::Serialize;

/// The explanation of a document, by kind.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
// One value per analysis, never in a collection: boxing the larger variant
// would save no memory and add an indirection to every use.
#[allow(clippy::large_enum_variant)]
pub enum Explain {
    Playbook(PlaybookExplain),
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
    pub requires: requires::view::RequiresExplain,
    /// The step graph.
    pub graph: graph::Graph,
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

/// A playbook's typed view and step graph, built once per analysis for the
/// rules and explain (each was a tenth of the time when both built their
/// own); the graph then becomes part of the explain view.
pub(crate) struct PlaybookParts<'a> {
    pub(crate) view: playbook::PlaybookView<'a>,
    pub(crate) graph: graph::Graph,
}

impl<'a> PlaybookParts<'a> {
    pub(crate) fn new(root: &'a Node) -> Self {
        let view = playbook::PlaybookView::new(root);
        let graph = graph::build(&view);
        PlaybookParts { view, graph }
    }
}

/// What a playbook's rules read: its parts and the requires cross-check of
/// its view, which explain reads after them (built twice, it was a twentieth
/// of the time).
pub(crate) struct PlaybookModel<'m, 'a> {
    pub(crate) view: &'m playbook::PlaybookView<'a>,
    pub(crate) graph: &'m graph::Graph,
    pub(crate) check: &'m requires::CrossCheck<'m, 'a>,
}

fn playbook_explain(
    root: &Node,
    view: &playbook::PlaybookView<'_>,
    check: &requires::CrossCheck<'_, '_>,
    graph: graph::Graph,
    diagnostics: &[Diagnostic],
) -> PlaybookExplain {
    let allowing = requires::allowing_steps(view, &graph);
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
        requires: requires::view::explain(view, check, &allowing),
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
    view: Option<&playbook::PlaybookView<'_>>,
    check: Option<&requires::CrossCheck<'_, '_>>,
    graph: Option<graph::Graph>,
) -> Option<Explain> {
    root.as_object()?;
    match kind {
        Kind::Playbook => view.zip(check).zip(graph).map(|((view, check), graph)| {
            Explain::Playbook(playbook_explain(root, view, check, graph, diagnostics))
        }),
        Kind::PluginManifest => Some(Explain::PluginManifest(manifest::explain::build(root, diagnostics))),
    }
}
