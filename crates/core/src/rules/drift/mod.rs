//! DR: drift between a playbook's embedded tool definitions and a runtime's
//! registry (seed 000: "A runtime importing a document checks the embedded
//! definitions against its own registry and flags drift"). These rules run
//! only when a registry is given ([`crate::Options::registry`]); each
//! finding points at the embedded definition's field in the playbook.
//!
//! What makes a tool riskier than the document says is a warning (a higher
//! risk class, side effects, no approval, more permissions); every other
//! difference is an info. A registry field left undeclared agrees with the
//! document. DR009 is about the registry text itself and is reported with
//! the registry's own diagnostics.

mod registry;
mod schema;
mod shape;

pub use registry::Registry;

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::compare::{
    compare, Definition, Direction, ListChange, ListField, ToolChange, ValueChange,
};
use crate::views::playbook::{PlaybookView, ToolView};
use foldhash::{HashSet, HashSetExt};
use opb_syntax::{Node, Ptr};
use registry::RegistryTool;

pub static DR001: Rule = Rule {
    code: "DR001",
    name: "registry-tool-missing",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("An embedded tool that the registry does not define: a runtime with this registry has no such tool to run."),
    source: documented!("\"A name resolves against the document's own embedded tools array and the runtime's tool registry\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Add the tool to the registry, or check the name: a runtime resolves the step's tool names against its registry."),
    example: documented!("# playbook\ntools:\n  - {name: refund.create, …}\n# registry\n- {name: charge.history, …}"),
};

pub static DR002: Rule = Rule {
    code: "DR002",
    name: "risk-raised",
    severity: Severity::Warning,
    group: Group::PlaybookDrift,
    summary: documented!("The registry's definition is riskier than the embedded one: a higher `riskClass`, `sideEffecting: true` where the document says false or nothing, or no approval where the document says `requiresApproval: true`."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate. A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000). A reader who trusts the document underestimates what the runtime's tool does."),
    fix: documented!("Update the embedded definition to what the registry says (and review the steps that allow the tool, and their gates), or correct the registry if it is the one that is wrong."),
    example: documented!("# playbook\ntools:\n  - {name: refund.create, riskClass: internal, …}\n# registry\n- {name: refund.create, riskClass: money, …}"),
};

pub static DR003: Rule = Rule {
    code: "DR003",
    name: "risk-changed",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("`riskClass`, `sideEffecting` or `requiresApproval` differ from the registry's without raising the risk: lowered, or declared on one side only."),
    source: documented!("\"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Bring the embedded definition in line with the registry, so the document explains the tool the runtime will run."),
    example: documented!("# playbook\ntools:\n  - {name: notes.write, riskClass: customer_comms, …}\n# registry\n- {name: notes.write, riskClass: internal, …}"),
};

pub static DR004: Rule = Rule {
    code: "DR004",
    name: "permissions-widened",
    severity: Severity::Warning,
    group: Group::PlaybookDrift,
    summary: documented!("The registry's definition lists permissions the embedded one does not: the runtime's tool needs more than the document says."),
    source: documented!("\"permissions array · required\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Add the permissions to the embedded definition (and check the playbook should have them), or narrow the registry's tool."),
    example: documented!("# playbook\ntools:\n  - {name: charge.history, permissions: [charges:read], …}\n# registry\n- {name: charge.history, permissions: [charges:read, charges:write], …}"),
};

pub static DR005: Rule = Rule {
    code: "DR005",
    name: "permissions-narrowed",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("The embedded definition lists permissions the registry's does not: the runtime's tool needs less than the document says."),
    source: documented!("\"permissions array · required\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Drop the permissions the runtime's tool does not need from the embedded definition, or add them to the registry if it is the one that is behind."),
    example: documented!("# playbook\ntools:\n  - {name: email.send, permissions: [email:send, email:read], …}\n# registry\n- {name: email.send, permissions: [email:send], …}"),
};

pub static DR006: Rule = Rule {
    code: "DR006",
    name: "data-scope-changed",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("`dataScopeResources` or `dataScopeWrites` differ from the registry's: the message names what the registry adds and drops."),
    source: documented!("\"dataScopeResources array\", \"dataScopeWrites array\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Bring the embedded data scopes in line with the registry, so a reader sees what the runtime's tool reads and writes."),
    example: documented!("# playbook\ntools:\n  - {name: refund.create, dataScopeWrites: [refunds], …}\n# registry\n- {name: refund.create, dataScopeWrites: [refunds, ledger], …}"),
};

pub static DR007: Rule = Rule {
    code: "DR007",
    name: "schema-changed",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("`inputSchema`, `outputSchema`, `harnessInputSchema` or `harnessOutputSchema` differ from the registry's (compared as data: key order and formatting do not count)."),
    source: documented!("\"inputSchema object · required\", \"outputSchema object · required\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Copy the registry's schema into the embedded definition, or update the registry if the document has the newer one."),
    example: documented!("# playbook\ntools:\n  - {name: refund.create, inputSchema: {type: object, properties: {chargeId: {type: string}}}, …}\n# registry\n- {name: refund.create, inputSchema: {type: object, properties: {chargeId: {type: string}, amount: {type: integer}}}, …}"),
};

pub static DR008: Rule = Rule {
    code: "DR008",
    name: "origin-changed",
    severity: Severity::Info,
    group: Group::PlaybookDrift,
    summary: documented!("`source`, `connectorType` or `scope` differ from the registry's: the runtime's tool comes from elsewhere than the document says."),
    source: documented!("\"source enum · required\", \"connectorType enum\", \"scope enum\" and \"A runtime importing a document checks the embedded definitions against its own registry and flags drift\" (seed 000)."),
    fix: documented!("Bring the embedded definition in line with the registry; a different connector also needs its connection in `requires`."),
    example: documented!("# playbook\ntools:\n  - {name: charge.history, source: connector, connectorType: stripe, …}\n# registry\n- {name: charge.history, source: connector, connectorType: square, …}"),
};

pub use shape::DR009;

pub static RULES: &[&Rule] =
    &[&DR001, &DR002, &DR003, &DR004, &DR005, &DR006, &DR007, &DR008, &DR009];

/// Compares every embedded tool, the first of each name, with the registry.
/// Does nothing when the registry holds no list of definitions: its own
/// diagnostics say why.
pub(crate) fn check(root: &Node, registry: &Registry, report: &mut Report) {
    if !registry.is_usable() {
        return;
    }
    let view = PlaybookView::new(root);
    let mut seen = HashSet::new();
    for tool in &view.tools {
        let Some(name) = tool.name.filter(|name| seen.insert(*name)) else { continue };
        match registry.tool(name) {
            None => {
                let (ptr, at) = field(tool, "name");
                report.push(
                    &DR001,
                    &ptr,
                    at,
                    format!("The registry does not define `{name}`: a runtime with this registry has no such tool, so the document's definition is all a reader has."),
                );
            }
            Some(entry) => compare_tool(tool, name, &entry, report),
        }
    }
}

/// Where a finding about `key` of the embedded tool points: the value, or
/// the tool when it lacks the field.
fn field<'a>(tool: &ToolView<'a>, key: &str) -> (Ptr, At<'a>) {
    match tool.node.get(key) {
        Some(value) => (tool.ptr.key(key), At::Value(value)),
        None => (tool.ptr.clone(), At::Missing(tool.node)),
    }
}

fn compare_tool(tool: &ToolView<'_>, name: &str, entry: &RegistryTool<'_>, report: &mut Report) {
    let document = Definition::of_view(tool);
    let registry = Definition::of_view(&entry.view).or(&document);
    let whose = format!("The registry's `{name}` (line {})", entry.line);
    for change in compare(&document, &registry) {
        let (ptr, at) = field(tool, change.key());
        for (rule, message) in describe(&whose, &change) {
            report.push(rule, &ptr, at, message);
        }
    }
    for (key, summary) in schema::changes(tool.node, entry.view.node) {
        let (ptr, at) = field(tool, key);
        report.push(&DR007, &ptr, at, format!("{whose} has another {key}: {summary}."));
    }
}

fn quoted<T: std::fmt::Display>(value: &Option<T>) -> String {
    match value {
        Some(value) => format!("`{value}`"),
        None => "nothing".to_owned(),
    }
}

/// Most names a message lists; the rest are counted.
const LISTED: usize = 8;

/// `` `a`, `b` and 3 more ``: names for a message, at most [`LISTED`].
pub(super) fn listed<S: AsRef<str>>(values: &[S]) -> String {
    let mut text = values
        .iter()
        .take(LISTED)
        .map(|v| format!("`{}`", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ");
    if values.len() > LISTED {
        text.push_str(&format!(" and {} more", values.len() - LISTED));
    }
    text
}

fn names(values: &[String]) -> String {
    listed(values)
}

/// The findings of one difference, each with its rule; `whose` opens the
/// message. Permissions both added and removed are two findings: one
/// widens, the other narrows.
fn describe(whose: &str, change: &ToolChange) -> Vec<(&'static Rule, String)> {
    let risk_rule =
        |direction: Direction| if direction == Direction::Raised { &DR002 } else { &DR003 };
    match change {
        ToolChange::RiskClass(ValueChange { from, to, direction }) => {
            let consequence = match direction {
                Direction::Raised => ": the tool is riskier than the document says",
                Direction::Lowered => ": the document overstates the risk",
                Direction::Changed => "",
            };
            vec![(
                risk_rule(*direction),
                format!(
                    "{whose} has riskClass {}; the document declares {}{consequence}.",
                    quoted(to),
                    quoted(from)
                ),
            )]
        }
        ToolChange::SideEffecting(ValueChange { from, to, direction }) => {
            let registry = match to {
                Some(true) => "changes data (`sideEffecting: true`)",
                Some(false) => "only reads (`sideEffecting: false`)",
                None => "does not declare sideEffecting",
            };
            vec![(
                risk_rule(*direction),
                format!("{whose} {registry}; the document declares {}.", quoted(from)),
            )]
        }
        ToolChange::RequiresApproval(ValueChange { from, direction, .. }) => {
            let message = match direction {
                Direction::Raised => format!(
                    "{whose} does not require approval; the document declares `requiresApproval: true`: a runtime with this registry calls it without asking a person."
                ),
                _ => format!("{whose} requires approval (`requiresApproval: true`); the document declares {}.", quoted(from)),
            };
            vec![(risk_rule(*direction), message)]
        }
        ToolChange::List {
            list: ListField::Permissions,
            change: ListChange { added, removed },
        } => {
            let mut findings = Vec::new();
            if !added.is_empty() {
                findings.push((
                    &DR004,
                    format!(
                        "{whose} needs permissions the document does not list: {}.",
                        names(added)
                    ),
                ));
            }
            if !removed.is_empty() {
                findings.push((
                    &DR005,
                    format!(
                        "{whose} does not need {}, which the document's permissions list.",
                        names(removed)
                    ),
                ));
            }
            findings
        }
        ToolChange::List { list, change: ListChange { added, removed } } => {
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("it also lists {}", names(added)));
            }
            if !removed.is_empty() {
                parts.push(format!("it does not list {}", names(removed)));
            }
            vec![(&DR006, format!("{whose} differs in {}: {}.", list.key(), parts.join(", and ")))]
        }
        ToolChange::Origin { origin, change } => {
            vec![(
                &DR008,
                format!(
                    "{whose} has {} {}; the document declares {}.",
                    origin.key(),
                    quoted(&change.to),
                    quoted(&change.from)
                ),
            )]
        }
    }
}
