//! PB4xx: the `requires` block and `manifest.requiredConnectors`, and their shape (IN004, IN007).

use crate::finding::Report;
use crate::model::playbook::PlaybookView;
use crate::rules::Rule;

pub static RULES: &[&Rule] = &[];

pub(super) fn check(_view: &PlaybookView<'_>, _report: &mut Report) {}
