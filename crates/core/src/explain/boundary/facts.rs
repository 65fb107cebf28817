//! The explain entry of each embedded tool with the steps that allow it, and
//! the tool's facts as every step that allows it shares them.

use crate::diagnostics::Counts;
use crate::views::facts::{Family, Requirement, ToolFacts};
use crate::views::playbook::{PlaybookView, ToolView};
use crate::views::requires::{AllowingSteps, CrossCheck};
use crate::views::spec;
use opb_syntax::CompactString;
use serde::{Serialize, Serializer};
use std::ops::Deref;
use std::sync::Arc;

/// An embedded tool's facts as a step's entry holds them: shared with every
/// other step that allows the tool, and serialised as a digest of the
/// bounded facts only (name, family, enum values the seed knows, flags and
/// needs). The full definition is the tool's entry in `tools`: copying its
/// description and lists into every step would let a document that allows
/// one huge tool in thousands of steps make its explain view thousands of
/// times its own size.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedFacts(Arc<ToolFacts>);

impl Deref for SharedFacts {
    type Target = ToolFacts;

    fn deref(&self) -> &ToolFacts {
        &self.0
    }
}

impl Serialize for SharedFacts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Digest<'f> {
            name: Option<&'f str>,
            family: Family,
            risk_class: Option<&'f str>,
            risk_rank: Option<usize>,
            side_effecting: Option<bool>,
            requires_approval: Option<bool>,
            connector_type: Option<&'f str>,
            scope: Option<&'f str>,
            needs: Option<&'f Requirement>,
        }
        fn known<'f>(value: &'f Option<String>, values: &[&str]) -> Option<&'f str> {
            value.as_deref().filter(|v| values.contains(v))
        }
        let facts = &self.0;
        Digest {
            name: facts.name.as_deref(),
            family: facts.family,
            risk_class: known(&facts.risk_class, spec::RISK_CLASSES),
            risk_rank: facts.risk_rank,
            side_effecting: facts.side_effecting,
            requires_approval: facts.requires_approval,
            connector_type: known(&facts.connector_type, spec::PROVIDERS),
            scope: known(&facts.scope, spec::SCOPES),
            needs: facts.needs.as_ref(),
        }
        .serialize(serializer)
    }
}

/// One embedded tool and the steps that allow it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolExplain {
    /// Position in `tools`.
    pub index: usize,
    /// JSON pointer to the definition.
    pub pointer: String,
    /// What the definition says (flattened into the entry).
    #[serde(flatten)]
    pub facts: ToolFacts,
    /// Ids of the steps whose `allowedTools` name it.
    pub allowed_by: Vec<CompactString>,
    /// How many error diagnostics point into its definition.
    pub errors: usize,
}

/// The tools riskiest first: the most consequential risk class first
/// (money, customer_comms, internal, read), tools that declare none last,
/// document order within each. The playground's tools table and the
/// viewer's Tools tab list them so.
pub fn by_risk(tools: &[ToolExplain]) -> Vec<&ToolExplain> {
    // A pass per class rather than a sort: a sort's code would weigh more
    // in the viewer's wasm than these few lines, and the classes are four.
    let rank = |tool: &ToolExplain| tool.facts.risk_rank.map_or(0, |r| r + 1);
    (0..=spec::RISK_CLASSES.len())
        .rev()
        .flat_map(|class| tools.iter().filter(move |tool| rank(tool) == class))
        .collect()
}

/// Every embedded tool's facts, built once, by position in `tools` (none
/// for an entry that is not an object).
pub(super) struct Facts(Vec<Option<SharedFacts>>);

impl Facts {
    pub(super) fn new(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>) -> Facts {
        let mut facts = Vec::new();
        for tool in &view.tools {
            facts.resize(facts.len().max(tool.index + 1), None);
            if let Some(slot) = facts.get_mut(tool.index) {
                *slot = Some(SharedFacts(Arc::new(ToolFacts::of(tool, check))));
            }
        }
        Facts(facts)
    }

    pub(super) fn of(&self, tool: &ToolView<'_>) -> Option<&SharedFacts> {
        self.0.get(tool.index)?.as_ref()
    }
}

/// The explain entry of every embedded tool, in document order. A later
/// tool repeating a name (PB302) is allowed by no step: names resolve to the
/// first.
pub(super) fn tools(
    view: &PlaybookView<'_>,
    facts: &Facts,
    allowing: &AllowingSteps<'_>,
    counts: &[Counts],
) -> Vec<ToolExplain> {
    view.tools
        .iter()
        .filter_map(|tool| {
            let facts = facts.of(tool)?;
            let first =
                tool.name.and_then(|name| view.tool(name)).is_some_and(|t| t.index == tool.index);
            let allowed_by = match tool.name.and_then(|name| allowing.get(name)) {
                Some(ids) if first => ids.iter().map(|id| CompactString::new(id)).collect(),
                _ => Vec::new(),
            };
            Some(ToolExplain {
                index: tool.index,
                pointer: tool.ptr.as_str().to_owned(),
                facts: ToolFacts::clone(facts),
                allowed_by,
                errors: counts.get(tool.index).map_or(0, |counts| counts.error),
            })
        })
        .collect()
}
