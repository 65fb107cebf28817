//! PB: rules for OpenPlaybook documents (seed 000), one module per group of
//! the catalogue.

use super::Rule;
use crate::finding::Report;
use crate::model::playbook::PlaybookView;
use crate::parse::Node;
use crate::Limits;

pub static RULES: &[&Rule] = &[];

pub(crate) fn check(root: &Node, _limits: &Limits, _report: &mut Report) {
    let _view = PlaybookView::new(root);
}
