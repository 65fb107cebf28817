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
use crate::model::playbook::PlaybookView;
use crate::parse::Node;
use crate::Limits;

/// Every PB rule, in catalogue order.
pub static RULES: &[&[&Rule]] = &[document::RULES, steps::RULES, tools::RULES, requires::RULES];

pub(crate) fn check(root: &Node, limits: &Limits, report: &mut Report) {
    if over_count_limits(root, limits, report) {
        return;
    }
    let view = PlaybookView::new(root);
    document::check(&view, report);
    steps::check(&view, report);
    tools::check(&view, report);
    requires::check(&view, report);
}

/// IN006 for more steps or tools than the limits allow; nothing else is then
/// checked.
fn over_count_limits(root: &Node, limits: &Limits, report: &mut Report) -> bool {
    [("steps", limits.max_steps), ("tools", limits.max_tools)]
        .into_iter()
        .any(|(key, limit)| over_count_limit(root, key, limit, "playbook", "Split it into smaller playbooks.", report))
}
