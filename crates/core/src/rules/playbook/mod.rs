//! PB: rules for OpenPlaybook documents (seed 000), one module per group of
//! the catalogue.

mod document;

pub(crate) use document::{SCHEMA_KEY, TOP_LEVEL};
mod requires;
mod steps;
mod tools;

pub(crate) use requires::PB411;
pub(crate) use steps::unsupervised;

use super::input::over_count_limit;
use crate::diagnostics::{Report, Rule};
use crate::views::{PlaybookModel, PlaybookParts};
use opb_syntax::{Limits, Node};

/// Every PB rule, in catalogue order.
pub static RULES: &[&[&Rule]] = &[document::RULES, steps::RULES, tools::RULES, requires::RULES];

/// A playbook's parts, for its rules and explain, unless a count limit
/// stops its check.
pub(crate) fn parts<'a>(
    root: &'a Node,
    limits: &Limits,
    report: &mut Report,
) -> Option<PlaybookParts<'a>> {
    (!over_count_limits(root, limits, report)).then(|| PlaybookParts::new(root))
}

/// Runs every PB rule.
pub(crate) fn check(model: &PlaybookModel<'_, '_>, report: &mut Report) {
    document::check(model.view, report);
    steps::check(model.view, model.graph, report);
    tools::check(model.view, report);
    requires::check(model.view, model.check, report);
}

/// IN006 for more steps or tools than the limits allow; nothing else is then
/// checked.
fn over_count_limits(root: &Node, limits: &Limits, report: &mut Report) -> bool {
    [("steps", limits.max_steps), ("tools", limits.max_tools)].into_iter().any(|(key, limit)| {
        over_count_limit(root, key, limit, "playbook", "Split it into smaller playbooks.", report)
    })
}
