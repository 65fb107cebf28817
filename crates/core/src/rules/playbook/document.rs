//! PB1xx: the document and its version, and the shape (IN004, IN007) of the top level.

use crate::finding::Report;
use crate::model::playbook::PlaybookView;
use crate::rules::Rule;

pub static RULES: &[&Rule] = &[];

pub(super) fn check(_view: &PlaybookView<'_>, _report: &mut Report) {}
