//! PM: rules for Orchestrator Zero plugin manifests (seed 003), one module
//! per group of the catalogue, plus the manifest's shape (IN004, IN007).

mod approvals;
mod flows;
mod process;
mod remote;
mod runs;
mod shape;

pub(crate) use shape::TOP;
mod tool_id;

pub(crate) use remote::PM312;

use super::input::over_count_limit;
use crate::diagnostics::{Report, Rule};
use crate::views::manifest::ManifestView;
use crate::views::spec::one_of;
use opb_syntax::{Limits, Node, Value};

/// Every PM rule, in catalogue order.
pub static RULES: &[&[&Rule]] =
    &[tool_id::RULES, runs::RULES, remote::RULES, approvals::RULES, process::RULES, flows::RULES];

pub(crate) fn check(root: &Node, limits: &Limits, report: &mut Report) {
    if over_count_limit(
        root,
        "tools",
        limits.max_tools,
        "manifest",
        "Split it into smaller plugins.",
        report,
    ) {
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

/// How many names a message lists before it says how many more there are.
const NAMES_SHOWN: usize = 10;

/// "it has `a`, `b` or `c`" (at most ten of them), or `none` when the
/// plugin has none, for messages about a name that is not found.
fn known_names<'n>(names: impl Iterator<Item = &'n str>, none: &str) -> String {
    let names: Vec<&str> = names.collect();
    match names.len() {
        0 => none.to_owned(),
        n if n <= NAMES_SHOWN => format!("it has {}", one_of(&names)),
        n => format!(
            "it has {} and {} more",
            names[..NAMES_SHOWN].iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
            n - NAMES_SHOWN
        ),
    }
}

/// A value for a message: a scalar as written in backticks, otherwise its
/// type ("an object").
fn shown(node: &Node) -> String {
    match &node.value {
        Value::String(s) => format!("`{s}`"),
        _ => node
            .scalar_text()
            .map(|t| format!("`{t}`"))
            .unwrap_or_else(|| node.type_name().to_owned()),
    }
}
