//! A playbook explained: each step's capability boundary, the embedded
//! tools, the `requires` cross-check and the shape of the graph.

use super::{Page, Tone};
use crate::words::{list, problems};
use opb_core::explain::boundary::{
    AllowedTool, Family, ListForm, Requirement, Resolution, StepBoundary, ToolExplain, ToolFacts,
};
use opb_core::explain::requires::{Mismatch, Missing, RequiresExplain, Unused};
use opb_core::explain::trust::{verdict, VerdictLevel};
use opb_core::explain::{Graph, PlaybookExplain};
use opb_core::spec::risk_label;
use opb_core::Counts;

/// Width of the field labels of a step or tool.
const LABEL: usize = 12;

/// Writes `opb explain`'s account of a playbook read from `name` on `page`.
pub fn render(name: &str, explain: &PlaybookExplain, page: &mut dyn Page) {
    title(name, explain, page);
    page.blank();
    page.heading("Steps: what each one may do");
    if explain.steps.is_empty() {
        page.paragraph(2, "The playbook has no steps.");
    }
    for step in &explain.steps {
        page.blank();
        self::step(step, &explain.graph, page);
    }
    page.blank();
    tools(&explain.tools, page);
    page.blank();
    requires(&explain.requires, page);
    page.blank();
    graph(&explain.graph, page);
}

fn title(name: &str, explain: &PlaybookExplain, page: &mut dyn Page) {
    let document = &explain.document;
    let heading = match (&document.name, &document.id) {
        (Some(title), Some(id)) => format!("{title} ({id})"),
        (Some(title), None) => title.clone(),
        (None, Some(id)) => id.clone(),
        (None, None) => name.to_owned(),
    };
    page.styled_line(0, Tone::Emphasis, &heading, "");
    let verdict = verdict(explain);
    let tone = match verdict.level {
        VerdictLevel::Unsupervised => Tone::Missing,
        VerdictLevel::Supervised | VerdictLevel::Neutral => Tone::Label,
    };
    page.bullet(0, tone, &verdict.sentence);
    if let Some(description) = &document.description {
        page.paragraph(0, description);
    }
    let version = match &document.version {
        Some(version) => format!("OpenPlaybook {version}"),
        None => "no `openplaybook` version, read as 1.6".to_owned(),
    };
    page.paragraph(0, &format!("A playbook ({version}), from {name}."));
}

fn step(step: &StepBoundary, graph: &Graph, page: &mut dyn Page) {
    let id = step
        .id
        .as_deref()
        .map_or_else(|| format!("step {} (no id)", step.index + 1), str::to_owned);
    let mut traits = Vec::new();
    match step.kind.as_deref() {
        Some("agent") => traits.push(match &step.agent {
            Some(agent) => format!("agent step, run by {agent}"),
            None => "agent step, agent not named".to_owned(),
        }),
        Some("gate") => traits.push("gate: a person decides".to_owned()),
        Some(kind) => traits.push(format!("kind {kind}, unknown to opb")),
        None => traits.push("no kind".to_owned()),
    }
    if step.is_start {
        traits.push("the start".to_owned());
    }
    page.styled_line(2, Tone::Emphasis, &id, &format!("  ({})", traits.join("; ")));
    if let Some(purpose) = &step.purpose {
        page.field(4, "Purpose", LABEL, purpose);
    }
    page.field(4, "May do", LABEL, &step.summary);
    if step.allowed_tools == ListForm::List && !step.tools.is_empty() {
        let width = step
            .tools
            .iter()
            .filter_map(|t| t.resolution.name())
            .map(str::len)
            .max()
            .unwrap_or_default();
        for (i, tool) in step.tools.iter().enumerate() {
            let label = if i == 0 { "Tools" } else { "" };
            page.field_hanging(4, label, LABEL, &allowed_tool(tool, width), width + 2);
        }
    }
    if let Some(risk) = risk(step) {
        page.field(4, "Risk", LABEL, &risk);
    }
    if let Some(unsupervised) = step.unsupervised_sentence() {
        page.field(4, "Who decides", LABEL, &unsupervised);
    }
    page.field(4, "Entered from", LABEL, &entered_from(step, graph));
    page.field(4, "Next", LABEL, &next(step, graph));
    if let Some(errors) = problems(Counts { error: step.errors, ..Counts::default() }) {
        page.field(4, "Problems", LABEL, &format!("{errors} into this step (see `opb check`)."));
    }
}

/// `charge.history     no side effects, reads only, connector of stripe`.
fn allowed_tool(tool: &AllowedTool, width: usize) -> String {
    match &tool.resolution {
        Resolution::Embedded { facts, .. } => {
            let name = facts.name.as_deref().unwrap_or_default();
            format!("{name:<width$}  {}", tool_traits(facts).join(", "))
        }
        Resolution::RegistryOnly { name, needs, .. } => {
            let mut traits =
                vec!["not defined in this document: only a runtime's registry knows it".to_owned()];
            traits.extend(needs.as_ref().map(requirement));
            format!("{name:<width$}  {}", traits.join(", "))
        }
        Resolution::Invalid { name, value_type, reason } => match name {
            Some(name) => format!("{name:<width$}  not a tool name: {reason}"),
            None => format!("{:<width$}  not a tool name: {reason}", format!("({value_type})")),
        },
    }
}

/// What a tool's definition declares about its effect, risk and place.
fn tool_traits(facts: &ToolFacts) -> Vec<String> {
    let mut traits = vec![side_effects(facts.side_effecting).to_owned()];
    traits.push(match facts.risk_class.as_deref() {
        Some(risk) => risk_label(risk).unwrap_or(risk).to_owned(),
        None => "risk not declared".to_owned(),
    });
    if facts.requires_approval == Some(true) {
        traits.push("a person approves each call".to_owned());
    }
    traits.push(place(facts.family, facts.source.as_deref(), facts.needs.as_ref()));
    traits
}

/// What `sideEffecting` declares, in words: `true` is "changes data".
pub(crate) fn side_effects(declared: Option<bool>) -> &'static str {
    match declared {
        Some(false) => "no side effects",
        Some(true) => "changes data",
        None => "side effects not declared",
    }
}

/// Where a tool comes from and what it needs from `requires`.
fn place(family: Family, source: Option<&str>, needs: Option<&Requirement>) -> String {
    match (family, needs) {
        (_, Some(needs)) => requirement(needs),
        (Family::BuiltIn, None) => "built-in".to_owned(),
        (Family::Connector, None) => "connector, of no named provider".to_owned(),
        (Family::Mcp, None) => "MCP".to_owned(),
        (Family::BuiltInOrConnector, None) => "built-in or connector".to_owned(),
        (Family::Unknown, None) => match source {
            Some(source) => format!("source {source}, unknown to opb"),
            None => "no source".to_owned(),
        },
    }
}

fn requirement(needs: &Requirement) -> String {
    match needs {
        Requirement::Connection { provider, declared: true } => format!("connector of {provider}"),
        Requirement::Connection { provider, declared: false } => {
            format!("connector of {provider}, whose connection `requires` does not declare")
        }
        Requirement::McpServer { server, declared: true } => format!("on MCP server {server}"),
        Requirement::McpServer { server, declared: false } => {
            format!("on MCP server {server}, which `requires` does not declare")
        }
    }
}

fn risk(step: &StepBoundary) -> Option<String> {
    let label = step.highest_risk_class.as_deref().map(|c| risk_label(c).unwrap_or(c));
    match (label, step.risk_partly_unknown) {
        (Some(risk), false) => Some(format!("{risk} at most")),
        (Some(risk), true) => {
            Some(format!("{risk} at least; the risk of some of its tools is not known"))
        }
        (None, true) => Some("not known: no tool it allows declares a risk class".to_owned()),
        (None, false) => None,
    }
}

fn entered_from(step: &StepBoundary, graph: &Graph) -> String {
    let mut sources: Vec<String> = step
        .gated_by
        .iter()
        .map(|gate| match gate.labels.as_slice() {
            [] => format!("{} (a gate)", gate.gate),
            labels => format!("{} (a gate, on {})", gate.gate, list(labels)),
        })
        .collect();
    sources.extend(step.entered_from.iter().map(|id| id.to_string()));
    let unreachable = step.id.as_ref().is_some_and(|id| graph.unreachable.contains(id));
    match (sources.is_empty(), step.is_start, unreachable) {
        (true, true, _) => "nowhere: the playbook starts here".to_owned(),
        (true, false, _) => "no step: nothing leads here".to_owned(),
        (false, _, true) => format!("{}; no path from the start reaches it", list(&sources)),
        (false, _, false) => list(&sources),
    }
}

fn next(step: &StepBoundary, graph: &Graph) -> String {
    let Some(id) = &step.id else { return "not in the graph: the step has no id".to_owned() };
    let edges: Vec<String> = graph
        .edges
        .iter()
        .filter(|edge| edge.from == *id)
        .map(|edge| match &edge.label {
            Some(label) => format!("{label} → {}", edge.to),
            None => edge.to.to_string(),
        })
        .collect();
    if edges.is_empty() {
        if graph.ends.contains(id) {
            "nothing: the playbook ends here".to_owned()
        } else {
            "no existing step (see `opb check`)".to_owned()
        }
    } else {
        edges.join(", ")
    }
}

/// The embedded tools' section, the tools in the order given: `opb
/// explain` keeps the document's, the viewer lists them riskiest first.
pub(crate) fn tools<'t>(tools: impl IntoIterator<Item = &'t ToolExplain>, page: &mut dyn Page) {
    page.heading("Embedded tools: the definitions the document carries");
    let mut none = true;
    for tool in tools {
        none = false;
        page.blank();
        self::tool(tool, page);
    }
    if none {
        page.paragraph(2, "None: every tool name resolves only against a runtime's registry.");
    }
}

fn tool(tool: &ToolExplain, page: &mut dyn Page) {
    let facts = &tool.facts;
    let name = facts.name.clone().unwrap_or_else(|| format!("tool {} (no name)", tool.index + 1));
    page.styled_line(2, Tone::Emphasis, &name, "");
    page.field(4, "Declares", LABEL, &tool_traits(facts).join(", "));
    if let Some(description) = &facts.description {
        page.field(4, "Description", LABEL, description);
    }
    if !facts.permissions.is_empty() {
        page.field(4, "Permissions", LABEL, &facts.permissions.join(", "));
    }
    if !facts.data_scope_resources.is_empty() {
        page.field(4, "Reads", LABEL, &facts.data_scope_resources.join(", "));
    }
    if !facts.data_scope_writes.is_empty() {
        page.field(4, "Writes", LABEL, &facts.data_scope_writes.join(", "));
    }
    let allowed =
        if tool.allowed_by.is_empty() { "no step".to_owned() } else { list(&tool.allowed_by) };
    page.field(4, "Allowed by", LABEL, &allowed);
    if let Some(errors) = problems(Counts { error: tool.errors, ..Counts::default() }) {
        page.field(
            4,
            "Problems",
            LABEL,
            &format!("{errors} into this definition (see `opb check`)."),
        );
    }
}

fn requires(requires: &RequiresExplain, page: &mut dyn Page) {
    page.heading("Requires: what a harness must provide before it runs");
    if !requires.declared {
        page.paragraph(2, "The document has no `requires` block.");
    }
    let required = list(&requires.required_connectors);
    page.field(2, "Required connectors", 19, &format!("{required} (manifest.requiredConnectors)"));
    page.blank();
    page.styled_line(2, Tone::Label, "Connections", "");
    if requires.connections.is_empty() {
        page.paragraph(4, "none");
    }
    for connection in &requires.connections {
        let provider = connection.provider.as_deref().unwrap_or("(no provider)");
        let auth = connection.auth_kind.as_deref().unwrap_or("no authKind");
        page.styled_line(4, Tone::Emphasis, provider, &format!("  ({auth})"));
        if !connection.scopes.is_empty() {
            page.field(6, "Scopes", LABEL, &connection.scopes.join(", "));
        }
        page.field(6, "Capabilities", LABEL, &list(&connection.capabilities));
        let used = if connection.tools.is_empty() {
            "no embedded tool".to_owned()
        } else {
            format!("{}, allowed by {}", list(&connection.tools), list(&connection.steps))
        };
        page.field(6, "Used by", LABEL, &used);
    }
    page.blank();
    page.styled_line(2, Tone::Label, "MCP servers", "");
    if requires.mcp_servers.is_empty() {
        page.paragraph(4, "none");
    }
    for server in &requires.mcp_servers {
        page.styled_line(4, Tone::Emphasis, server.name.as_deref().unwrap_or("(no name)"), "");
        page.field(6, "Tool names", LABEL, &list(&server.tool_names));
        let used: Vec<String> = server
            .tools
            .iter()
            .map(|t| format!("{} (allowed by {})", t.name, list(&t.steps)))
            .collect();
        let used = if used.is_empty() { "no step's tool".to_owned() } else { used.join("; ") };
        page.field(6, "Used by", LABEL, &used);
    }
    page.blank();
    page.styled_line(2, Tone::Label, "Secrets", " (names and purposes only, never values)");
    if requires.secrets.is_empty() {
        page.paragraph(4, "none");
    }
    for secret in &requires.secrets {
        let name = secret.name.as_deref().unwrap_or("(no name)");
        let purpose = secret.purpose.as_deref().unwrap_or("no purpose given");
        page.styled_line(4, Tone::Emphasis, name, &format!(": {purpose}"));
    }
    cross_check(requires, page);
}

fn cross_check(requires: &RequiresExplain, page: &mut dyn Page) {
    if !requires.missing.is_empty() {
        page.blank();
        page.styled_line(2, Tone::Label, "Missing", ": used or required, not declared");
        for missing in &requires.missing {
            page.bullet(4, Tone::Missing, &missing_text(missing, &requires.required_connectors));
        }
    }
    if !requires.unused.is_empty() {
        page.blank();
        page.styled_line(2, Tone::Label, "Unused", ": declared, used by nothing");
        for unused in &requires.unused {
            page.bullet(4, Tone::Odd, &unused_text(unused));
        }
    }
    if !requires.mismatched.is_empty() {
        page.blank();
        page.styled_line(2, Tone::Label, "Mismatched", ": declared, at odds with the rest");
        for mismatch in &requires.mismatched {
            page.bullet(4, Tone::Odd, &mismatch_text(mismatch));
        }
    }
}

fn missing_text(missing: &Missing, required_connectors: &[String]) -> String {
    match missing {
        Missing::RequiredConnection { provider } => {
            format!("a connection for {provider}, which manifest.requiredConnectors names")
        }
        Missing::Connection { provider, tools, steps } => {
            let required = if required_connectors.contains(provider) {
                ", which manifest.requiredConnectors also names"
            } else {
                ""
            };
            format!(
                "a connection for {provider}, for {} (allowed by {}){required}",
                list(tools),
                list(steps)
            )
        }
        Missing::McpServer { server, tools, steps } => {
            format!("MCP server {server}, for {} (allowed by {})", list(tools), list(steps))
        }
    }
}

fn unused_text(unused: &Unused) -> String {
    match unused {
        Unused::Connection { provider } => {
            format!("the connection for {provider}: no embedded tool needs it")
        }
        Unused::McpServer { server } => format!("MCP server {server}: no tool name uses it"),
    }
}

fn mismatch_text(mismatch: &Mismatch) -> String {
    match mismatch {
        Mismatch::ConnectionNotRequired { provider } => {
            format!("the connection for {provider}: manifest.requiredConnectors does not name {provider}")
        }
        Mismatch::CapabilityUnknown { provider, capability, embedded, tool_provider } => {
            let provider = provider.as_deref().unwrap_or("(no provider)");
            match (embedded, tool_provider) {
                (false, _) => format!("the {provider} connection lists capability {capability}, which no embedded tool defines"),
                (true, Some(other)) => {
                    format!("the {provider} connection lists capability {capability}, a tool of {other}")
                }
                (true, None) => {
                    format!("the {provider} connection lists capability {capability}, a tool of no connector")
                }
            }
        }
        Mismatch::CapabilityUnlisted { provider, tool, steps } => format!(
            "{tool} (allowed by {}) is not among the {provider} connection's capabilities",
            list(steps)
        ),
        Mismatch::ToolNameForeign { server, tool_name } => {
            format!(
                "MCP server {server} lists tool name {tool_name}, which is not mcp.{server}.<tool>"
            )
        }
        Mismatch::ToolNameUnlisted { server, tool, steps } => {
            format!(
                "{tool} (allowed by {}) is not among MCP server {server}'s toolNames",
                list(steps)
            )
        }
    }
}

fn graph(graph: &Graph, page: &mut dyn Page) {
    page.heading("Graph");
    let start = graph.start.as_deref().unwrap_or("no step (see `opb check`)");
    page.field(2, "Starts at", LABEL, start);
    let ends = if graph.ends.is_empty() {
        "no step: every step has a next".to_owned()
    } else {
        list(&graph.ends)
    };
    page.field(2, "Ends at", LABEL, &ends);
    if !graph.unreachable.is_empty() {
        page.field(2, "Unreachable", LABEL, &list(&graph.unreachable));
    }
    let cycles: Vec<String> = graph.cycles.iter().map(|cycle| list(cycle)).collect();
    let cycles = if cycles.is_empty() { "none".to_owned() } else { cycles.join("; ") };
    page.field(2, "Cycles", LABEL, &cycles);
}
