//! Each step's capability boundary: every `allowedTools` entry resolved
//! against the embedded tools (or marked registry-only or invalid), the
//! step's highest risk, the gates that lead into it, and a plain-English
//! summary. Also the explain entry of each embedded tool.

mod facts;
mod gates;
mod summary;

pub use crate::views::facts::{Family, Requirement, ToolFacts};
pub use facts::{by_risk, SharedFacts, ToolExplain};
pub use gates::GateEntry;

use crate::diagnostics::prose::write_list;
use crate::diagnostics::{Counts, Diagnostic};
use crate::rules::playbook::unsupervised;
use crate::views::graph::Graph;
use crate::views::playbook::{mcp_name, McpName, PlaybookView, StepView};
use crate::views::requires;
use crate::views::requires::{AllowingSteps, CrossCheck};
use crate::views::spec::risk_words;
use facts::Facts;
use foldhash::HashSet;
use gates::EntryIndex;
use opb_syntax::{item_pointer, CompactString, Node};
use serde::Serialize;

/// How one `allowedTools` entry resolves.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "resolution", rename_all = "snake_case")]
pub enum Resolution {
    /// The document embeds its definition.
    Embedded {
        /// Position of the definition in `tools`.
        tool: usize,
        /// The definition's facts (flattened into the entry as a digest:
        /// see [`SharedFacts`]).
        #[serde(flatten)]
        facts: SharedFacts,
    },
    /// Not embedded: it can only resolve against a runtime's registry.
    RegistryOnly {
        /// The name as the step writes it.
        name: String,
        /// The family its name gives: `mcp` or `built_in_or_connector`.
        family: Family,
        /// The MCP server an `mcp.` name needs; nothing is known otherwise.
        needs: Option<Requirement>,
    },
    /// Not a tool name at all.
    Invalid {
        /// The entry, when it is a string.
        name: Option<String>,
        /// The entry's type, as messages say it (`a string`, `an object`).
        value_type: &'static str,
        /// Why it is not a tool name.
        reason: String,
    },
}

impl Resolution {
    /// The tool name, unless the entry is invalid.
    pub fn name(&self) -> Option<&str> {
        match self {
            Resolution::Embedded { facts, .. } => facts.name.as_deref(),
            Resolution::RegistryOnly { name, .. } => Some(name),
            Resolution::Invalid { .. } => None,
        }
    }
}

/// One `allowedTools` entry of a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AllowedTool {
    /// Position in the step's `allowedTools`.
    pub index: usize,
    /// JSON pointer to the entry.
    pub pointer: CompactString,
    /// What the entry resolves to (flattened: its `resolution` tag and fields).
    #[serde(flatten)]
    pub resolution: Resolution,
}

/// How a step writes `allowedTools`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ListForm {
    /// No `allowedTools`: the step may call no tool.
    Absent,
    /// A list (possibly empty).
    List,
    /// Some other value: which tools it may call cannot be read.
    NotAList,
}

/// What one step may do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepBoundary {
    /// The step's id, when it is a non-empty string.
    pub id: Option<CompactString>,
    /// Position in `steps`.
    pub index: usize,
    /// JSON pointer to the step.
    pub pointer: CompactString,
    /// `kind` as written (`agent`, `gate`, or another).
    pub kind: Option<CompactString>,
    /// The agent that runs the step, as written.
    pub agent: Option<CompactString>,
    /// What the step is for, in the author's words.
    pub purpose: Option<String>,
    /// How `allowedTools` is written.
    pub allowed_tools: ListForm,
    /// Each entry of `allowedTools`, resolved, in order.
    pub tools: Vec<AllowedTool>,
    /// The most consequential `riskClass` among the embedded tools it allows.
    pub highest_risk_class: Option<CompactString>,
    /// Its rank in [`crate::spec::RISK_CLASSES`] (0 is `read`).
    pub highest_risk_rank: Option<usize>,
    /// Whether some tool it allows has no known risk class (registry-only, or
    /// embedded without a valid `riskClass`): the real highest risk may be
    /// higher.
    pub risk_partly_unknown: bool,
    /// Gate steps that lead directly into this step; empty when none does.
    pub gated_by: Vec<GateEntry>,
    /// Ids of the other steps that lead directly into this one.
    pub entered_from: Vec<CompactString>,
    /// Whether every path from the start to this step passes a gate step
    /// (false when no path reaches it).
    pub behind_gate: bool,
    /// Whether the playbook starts here.
    pub is_start: bool,
    /// The embedded tools it allows that a person should decide before and
    /// that ask for no one (`riskClass` `money` or `customer_comms`, without
    /// `requiresApproval: true`), when it is an agent step the start reaches
    /// with no gate on the way: each is a PB220 or PB221 finding, and the
    /// graph marks the step. Empty for every other step.
    pub unsupervised: Vec<UnsupervisedTool>,
    /// How many error diagnostics point into this step.
    pub errors: usize,
    /// What the step may do, in plain English.
    pub summary: String,
}

/// A tool a step may call with no person deciding (see
/// [`StepBoundary::unsupervised`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnsupervisedTool {
    /// The tool's name, as embedded.
    pub name: String,
    /// Its `riskClass`: `money` or `customer_comms`.
    pub risk_class: String,
}

/// The risk classes a person should decide before, most consequential
/// first: those PB220 and PB221 report a step for reaching unsupervised.
pub fn supervised_classes() -> impl Iterator<Item = &'static str> {
    unsupervised::SUPERVISED_CLASSES.iter().map(|(class, _)| *class)
}

/// What the graph's mark on a step that may act on `classes` with no
/// person deciding says, and the graph's legend with every class of
/// [`supervised_classes`]: "No person decides before this step can move
/// money or write to customers".
pub fn no_person_decides<'c>(classes: impl IntoIterator<Item = &'c str>) -> String {
    let mut out = String::from("No person decides before this step can ");
    let acts = classes.into_iter().map(|class| risk_words(class).map_or(class, |w| w.act));
    write_list(&mut out, acts, "or", |out, act| out.push_str(act));
    out
}

impl StepBoundary {
    /// The classes of [`StepBoundary::unsupervised`], each once, most
    /// consequential first; empty for a step PB220 and PB221 leave alone.
    pub fn unsupervised_classes(&self) -> Vec<&'static str> {
        supervised_classes()
            .filter(|class| self.unsupervised.iter().any(|tool| tool.risk_class == *class))
            .collect()
    }

    /// The graph's mark on this step ([`no_person_decides`]), when PB220
    /// or PB221 reports it.
    pub fn no_person_decides(&self) -> Option<String> {
        let classes = self.unsupervised_classes();
        (!classes.is_empty()).then(|| no_person_decides(classes))
    }

    /// Why no person decides before this step, in one sentence for the
    /// step's details, when PB220 or PB221 reports it: "No person decides
    /// before this step can move money: it may call `refund.create`, which
    /// asks for no approval, and the start reaches it with no gate on the
    /// way."
    pub fn unsupervised_sentence(&self) -> Option<String> {
        let mut out = self.no_person_decides()?;
        out.push_str(": it may call ");
        write_list(&mut out, &self.unsupervised, "and", |out, tool| {
            out.push('`');
            out.push_str(&tool.name);
            out.push('`');
        });
        out.push_str(if self.unsupervised.len() == 1 {
            ", which asks for no approval, and "
        } else {
            ", which ask for no approval, and "
        });
        out.push_str(if self.is_start {
            "the playbook starts here, with no gate before it."
        } else {
            "the start reaches it with no gate on the way."
        });
        Some(out)
    }
}

/// What resolving a step's entries reads, built once per playbook.
struct Resolver<'r, 'v, 'a> {
    view: &'r PlaybookView<'a>,
    check: &'r CrossCheck<'v, 'a>,
    facts: &'r Facts,
}

impl Resolver<'_, '_, '_> {
    /// Resolves one `allowedTools` entry.
    fn resolve(&self, entry: &Node) -> Resolution {
        let Some(name) = entry.as_str() else {
            let reason = match entry.as_object() {
                Some(_) => "the object form of a tool reference is planned, not part of today's format, where a reference is a string",
                None => "a tool reference is a string",
            };
            return Resolution::Invalid {
                name: None,
                value_type: entry.type_name(),
                reason: reason.to_owned(),
            };
        };
        if name.is_empty() {
            return Resolution::Invalid {
                name: Some(String::new()),
                value_type: entry.type_name(),
                reason: "a tool name cannot be empty".to_owned(),
            };
        }
        if mcp_name(name) == McpName::Malformed {
            return Resolution::Invalid {
                name: Some(name.to_owned()),
                value_type: entry.type_name(),
                reason: "a name starting with mcp. must be mcp.<server>.<tool>, with both parts non-empty".to_owned(),
            };
        }
        let embedded =
            self.view.tool(name).and_then(|tool| Some((tool.index, self.facts.of(tool)?.clone())));
        match embedded {
            Some((tool, facts)) => Resolution::Embedded { tool, facts },
            None => {
                let needs = requires::need(name, None);
                Resolution::RegistryOnly {
                    name: name.to_owned(),
                    family: if needs.is_some() { Family::Mcp } else { Family::BuiltInOrConnector },
                    needs: needs.map(|n| Requirement::of(n, self.check)),
                }
            }
        }
    }
}

/// Every step's boundary and every embedded tool's entry, in document order.
pub(crate) fn explain(
    view: &PlaybookView<'_>,
    graph: &Graph,
    check: &CrossCheck<'_, '_>,
    allowing: &AllowingSteps<'_>,
    diagnostics: &[Diagnostic],
) -> (Vec<StepBoundary>, Vec<ToolExplain>) {
    let facts = Facts::new(view, check);
    let resolver = Resolver { view, check, facts: &facts };
    let entries = EntryIndex::new(graph);
    // The rules' walk, so the steps named here are the ones PB220 and PB221
    // report.
    let gate_free = unsupervised::gate_free(graph);
    let reached_freely: HashSet<usize> = graph
        .nodes
        .iter()
        .zip(&gate_free)
        .filter_map(|(node, reached)| reached.map(|_| node.step))
        .collect();
    let step_counts = Counts::by_item(diagnostics, view.root, "steps");
    let mut list = String::new();
    let steps = view
        .steps
        .iter()
        .map(|step| {
            boundary(
                step,
                &resolver,
                &entries,
                step_counts.get(step.index).map_or(0, |counts| counts.error),
                reached_freely.contains(&step.index),
                &mut list,
            )
        })
        .collect();
    let tool_counts = Counts::by_item(diagnostics, view.root, "tools");
    (steps, facts::tools(view, &facts, allowing, &tool_counts))
}

/// One step's boundary; `list` is room for the pointer to its
/// `allowedTools`, reused from step to step.
fn boundary(
    step: &StepView<'_>,
    resolver: &Resolver<'_, '_, '_>,
    entries: &EntryIndex<'_>,
    errors: usize,
    reached_freely: bool,
    list: &mut String,
) -> StepBoundary {
    list.clear();
    list.push_str(step.ptr.as_str());
    list.push_str("/allowedTools");
    let (allowed_tools, tools) = match step.allowed_tools_node {
        None => (ListForm::Absent, Vec::new()),
        Some(node) => match node.as_array() {
            Some(items) => (
                ListForm::List,
                items
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| AllowedTool {
                        index,
                        pointer: item_pointer(list, index),
                        resolution: resolver.resolve(entry),
                    })
                    .collect(),
            ),
            None => (ListForm::NotAList, Vec::new()),
        },
    };

    let mut highest: Option<(usize, &str)> = None;
    let mut risk_partly_unknown = false;
    for tool in &tools {
        match &tool.resolution {
            Resolution::Embedded { facts, .. } => {
                match (facts.risk_rank, facts.risk_class.as_deref()) {
                    (Some(rank), Some(class)) => {
                        if highest.as_ref().is_none_or(|(top, _)| rank > *top) {
                            highest = Some((rank, class));
                        }
                    }
                    _ => risk_partly_unknown = true,
                }
            }
            Resolution::RegistryOnly { .. } => risk_partly_unknown = true,
            Resolution::Invalid { .. } => {}
        }
    }

    let mut unsupervised = Vec::new();
    if reached_freely && step.kind == Some("agent") {
        for tool in &tools {
            let Resolution::Embedded { facts, .. } = &tool.resolution else { continue };
            let (Some(name), Some(class)) = (
                facts.name.as_deref(),
                unsupervised::unsupervised_class(
                    facts.risk_class.as_deref(),
                    facts.requires_approval,
                ),
            ) else {
                continue;
            };
            if !unsupervised.iter().any(|u: &UnsupervisedTool| u.name == name) {
                unsupervised
                    .push(UnsupervisedTool { name: name.to_owned(), risk_class: class.to_owned() });
            }
        }
    }

    // Owned once, after the loop, rather than at every higher class.
    let highest_risk_rank = highest.map(|(rank, _)| rank);
    let highest_risk_class = highest.map(|(_, class)| CompactString::new(class));
    let entered = entries.of(step);
    let mut boundary = StepBoundary {
        id: step.id.map(CompactString::new),
        index: step.index,
        pointer: step.ptr.as_str().into(),
        kind: step.kind.map(CompactString::new),
        agent: step.agent.map(CompactString::new),
        purpose: step.purpose.map(str::to_owned),
        allowed_tools,
        tools,
        highest_risk_rank,
        highest_risk_class,
        risk_partly_unknown,
        gated_by: entered.gated_by,
        entered_from: entered.entered_from,
        behind_gate: entered.behind_gate,
        is_start: entered.is_start,
        unsupervised,
        errors,
        summary: String::new(),
    };
    boundary.summary = summary::summarize(&boundary);
    boundary
}
