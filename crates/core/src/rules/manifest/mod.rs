//! PM: rules for Orchestrator Zero plugin manifests (seed 003), one module
//! per group of the catalogue, plus the manifest's shape (IN004, IN007).

mod approvals;
mod flows;
mod process;
mod remote;
mod runs;
mod shape;
mod tool_id;

pub(crate) use remote::PM312;

use super::input::over_count_limit;
use super::Rule;
use crate::finding::Report;
use crate::model::manifest::ManifestView;
use crate::parse::{Node, Value};
use crate::Limits;

/// Every PM rule, in catalogue order.
pub static RULES: &[&[&Rule]] = &[tool_id::RULES, runs::RULES, remote::RULES, approvals::RULES, process::RULES, flows::RULES];

pub(crate) fn check(root: &Node, limits: &Limits, report: &mut Report) {
    if over_count_limit(root, "tools", limits.max_tools, "manifest", "Split it into smaller plugins.", report) {
        return;
    }
    shape::check(root, report);
    let view = ManifestView::new(root);
    tool_id::check(&view, report);
    runs::check(&view, report);
    remote::check(&view, report);
    approvals::check(&view, report);
    process::check(&view, report);
    flows::check(&view, report);
}

/// "Tool `x`" from "tool `x`", for the start of a sentence.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A value for a message: a scalar as written in backticks, otherwise its
/// type ("an object").
fn shown(node: &Node) -> String {
    match &node.value {
        Value::String(s) => format!("`{s}`"),
        _ => node.scalar_text().map(|t| format!("`{t}`")).unwrap_or_else(|| node.type_name().to_owned()),
    }
}
