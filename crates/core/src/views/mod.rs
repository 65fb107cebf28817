//! The typed views the rules read: a playbook's steps, tools and `requires`
//! block, its step graph and the requires cross-check; a manifest's tools;
//! what the seeds define (risk classes, providers); what a definition says
//! of a tool, and how two definitions compare. Built once per analysis and
//! read by the rules, then by explain.

pub mod compare;
pub mod facts;
pub mod graph;
pub mod manifest;
pub mod playbook;
pub mod requires;
pub mod spec;

use opb_syntax::{Node, Ptr};

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

/// The object items of an array field, with index and pointer; other items
/// are skipped (the shape checks report them).
pub(crate) fn objects<'a>(
    node: Option<&'a Node>,
    ptr: &Ptr,
) -> impl Iterator<Item = (usize, Ptr, &'a Node)> {
    let ptr = ptr.clone();
    node.and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|(_, item)| item.as_object().is_some())
        .map(move |(i, item)| (i, ptr.index(i), item))
}

/// The string items of an array field; other items are skipped.
pub(crate) fn strings(node: Option<&Node>) -> Vec<&str> {
    node.and_then(Node::as_array)
        .map(|items| items.iter().filter_map(Node::as_str).collect())
        .unwrap_or_default()
}
