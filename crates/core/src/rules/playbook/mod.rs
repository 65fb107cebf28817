//! PB: rules for OpenPlaybook documents (seed 000), one module per group of
//! the catalogue.

mod document;
mod requires;
mod steps;
mod tools;

pub(crate) use requires::PB411;

use super::input::over_count_limit;
use super::Rule;
use crate::finding::Report;
use crate::model::PlaybookModel;
use crate::parse::Node;
use crate::Limits;

/// Every PB rule, in catalogue order.
pub static RULES: &[&[&Rule]] = &[document::RULES, steps::RULES, tools::RULES, requires::RULES];

/// Runs every PB rule; returns the playbook's model, for explain to read
/// without building it again, unless a count limit stopped the check.
pub(crate) fn check<'a>(root: &'a Node, limits: &Limits, report: &mut Report) -> Option<PlaybookModel<'a>> {
    if over_count_limits(root, limits, report) {
        return None;
    }
    let model = PlaybookModel::new(root);
    document::check(&model.view, report);
    steps::check(&model.view, &model.graph, report);
    tools::check(&model.view, report);
    requires::check(&model.view, report);
    Some(model)
}

/// IN006 for more steps or tools than the limits allow; nothing else is then
/// checked.
fn over_count_limits(root: &Node, limits: &Limits, report: &mut Report) -> bool {
    [("steps", limits.max_steps), ("tools", limits.max_tools)]
        .into_iter()
        .any(|(key, limit)| over_count_limit(root, key, limit, "playbook", "Split it into smaller playbooks.", report))
}
