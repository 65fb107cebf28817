//! PB: rules for OpenPlaybook documents (seed 000), one module per group of
//! the catalogue.

mod document;
mod requires;
mod steps;
mod tools;

pub(crate) use requires::PB411;

use super::input::IN006;
use super::Rule;
use crate::finding::{At, Ptr, Report};
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
    for (key, limit) in [("steps", limits.max_steps), ("tools", limits.max_tools)] {
        let Some(node) = root.get(key) else { continue };
        if let Some(items) = node.as_array() {
            if items.len() > limit {
                report.push(
                    &IN006,
                    &Ptr::root().key(key),
                    At::Value(node),
                    format!("The playbook has {} {key}; the limit is {limit}. Split it into smaller playbooks.", items.len()),
                );
                return true;
            }
        }
    }
    false
}
