//! Typed views over a parsed document, and the explain views built from
//! them for the viewer and the CLI.

pub mod graph;
pub mod playbook;
pub mod spec;

use crate::{Diagnostic, Kind, Node};
use serde::Serialize;

/// The explanation of a document, by kind.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Explain {
    Playbook(PlaybookExplain),
}

/// What a playbook can do, step by step.
#[derive(Debug, Clone, Serialize)]
pub struct PlaybookExplain {
    pub graph: graph::Graph,
}

/// Builds the explain view of a document read as `kind`.
pub fn explain(root: &Node, kind: Kind, _diagnostics: &[Diagnostic]) -> Option<Explain> {
    root.as_object()?;
    match kind {
        Kind::Playbook => {
            let view = playbook::PlaybookView::new(root);
            Some(Explain::Playbook(PlaybookExplain { graph: graph::build(&view) }))
        }
        Kind::PluginManifest => None,
    }
}
