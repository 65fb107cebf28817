//! The rule catalogue: every diagnostic the core can report, registered once
//! with its code, name, default severity and documentation.
//!
//! One module per group of `spec/RULES.md`. Each module defines its rules as
//! statics (so a check names the rule it reports by value) and a `check`
//! function; [`ALL`] lists every rule once, in catalogue order.

pub mod credentials;
pub mod drift;
pub mod input;
pub mod manifest;
pub mod playbook;
mod shape;
pub(crate) mod suppressions;

pub(crate) use shape::{check_fields, expect, expect_objects, is_absent, is_blank};
pub use shape::{Combinations, Field, Holds, Ty, Values};

use crate::diagnostics::Rule;

/// Whether this build checks and explains documents of `kind`: every build
/// but one without the `manifest` feature, which reads a plugin manifest
/// and finds its credentials but runs none of its rules.
pub const fn checks(kind: opb_syntax::Kind) -> bool {
    match kind {
        opb_syntax::Kind::Playbook => true,
        opb_syntax::Kind::PluginManifest => cfg!(feature = "manifest"),
    }
}

/// Every rule, in catalogue order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    input::RULES
        .iter()
        .chain(playbook::RULES.iter().flat_map(|group| group.iter()))
        .chain(drift::RULES.iter())
        .chain(manifest::RULES.iter().flat_map(|group| group.iter()))
        .chain(credentials::RULES.iter())
        .copied()
}

/// The rule with this code (case-insensitive) or name.
pub fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    all().find(|r| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name)
}

/// A playbook's parts for its rules and explain, unless a count limit stops
/// its check (reported as IN006); none for a manifest.
pub(crate) fn playbook_parts<'a>(
    root: &'a opb_syntax::Node,
    kind: Option<opb_syntax::Kind>,
    limits: &opb_syntax::Limits,
    report: &mut crate::diagnostics::Report,
) -> Option<crate::views::PlaybookParts<'a>> {
    match kind {
        Some(opb_syntax::Kind::Playbook) => playbook::parts(root, limits, report),
        _ => None,
    }
}

/// Runs every rule of `kind` over a document whose root is an object; a
/// playbook's rules read `model` (none when a count limit stopped them: see
/// [`playbook_parts`]).
pub(crate) fn check(
    root: &opb_syntax::Node,
    kind: Option<opb_syntax::Kind>,
    model: Option<&crate::views::PlaybookModel<'_, '_>>,
    limits: &opb_syntax::Limits,
    report: &mut crate::diagnostics::Report,
) {
    match (kind, model) {
        (Some(opb_syntax::Kind::Playbook), Some(model)) => playbook::check(model, report),
        (Some(opb_syntax::Kind::PluginManifest), _) if checks(opb_syntax::Kind::PluginManifest) => {
            manifest::check(root, limits, report)
        }
        _ => {}
    }
    if kind.is_some() && !report.has(&input::IN006) {
        credentials::check(root, report);
    }
}

/// How a message names a step or a tool: by its name, or by its place when
/// it has none. Written only into a message: nearly every item has no
/// finding, so no name is copied for the others.
#[derive(Clone, Copy)]
pub(crate) struct ItemName<'s> {
    /// What precedes the name: "step".
    pub named: &'static str,
    /// What precedes the place: "the step at".
    pub placed: &'static str,
    /// The list the item is in: "steps".
    pub list: &'static str,
    pub name: Option<&'s str>,
    pub index: usize,
}

impl std::fmt::Display for ItemName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name {
            Some(name) => write!(f, "{} `{name}`", self.named),
            None => write!(f, "{} `{}[{}]`", self.placed, self.list, self.index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ItemName;
    use crate::diagnostics::prose::capitalise;

    #[test]
    fn an_item_is_named_by_its_name_or_else_by_its_place() {
        let step =
            |name| ItemName { named: "step", placed: "the step at", list: "steps", name, index: 3 };
        assert_eq!(step(Some("send")).to_string(), "step `send`");
        assert_eq!(step(None).to_string(), "the step at `steps[3]`");
        assert_eq!(capitalise(step(None)).to_string(), "The step at `steps[3]`");
    }
}
