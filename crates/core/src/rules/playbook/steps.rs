//! PB2xx: steps and the graph, and the shape (IN004, IN007) of each step.

use crate::finding::Report;
use crate::model::playbook::PlaybookView;
use crate::rules::Rule;

pub static RULES: &[&Rule] = &[];

pub(super) fn check(_view: &PlaybookView<'_>, _report: &mut Report) {}
