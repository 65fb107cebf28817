//! The names on a step's `allowedTools`: their type, form, duplicates, and
//! what they resolve to (PB205, PB209 to PB212, PB219, and through
//! `unsupervised` PB220 and PB221).

use super::unsupervised::Unsupervised;
use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::ItemName;
use crate::views::graph::Graph;
use crate::views::playbook::{mcp_name, McpName, PlaybookView, StepView, ToolView};
use crate::views::spec::one_of;
use foldhash::{HashMap, HashMapExt};
use opb_syntax::{Node, Value};

pub static PB205: Rule = Rule {
    code: "PB205",
    name: "mcp-name-malformed",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("A tool name starts with `mcp.` but is not `mcp.<server>.<tool>` with both parts non-empty."),
    source: documented!("\"MCP tools, composed as mcp.<server>.<tool> where <server> is a logical name the document declares in requires.mcpServers.\" (seed 000)"),
    fix: documented!("Write the name as `mcp.<server>.<tool>`: the server's logical name from `requires.mcpServers`, a dot, and the tool's name, e.g. `mcp.acme.search_orders`."),
    example: documented!("allowedTools: [mcp.search_orders]   # no server: mcp.acme.search_orders"),
};

pub static PB209: Rule = Rule {
    code: "PB209",
    name: "tool-ref-not-string",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("An `allowedTools` entry is not a string. An object is the richer reference form that is planned, not part of the current wire format."),
    source: documented!("\"On an agent step, allowedTools is a list of tool names\"; \"A richer per-reference object form, carrying a kind discriminator … is planned direction for a future OpenPlaybook version. It is not part of the current wire format: today's documents declare tool names\" (seed 000, Future direction)."),
    fix: documented!("Write the tool's name as a string, e.g. `\"customer.get\"`, and keep its definition in the document's `tools`."),
    example: documented!("allowedTools:\n  - customer.get\n  - { kind: skill, ref: \"skill://refunds\" }   # planned, not current"),
};

pub static PB210: Rule = Rule {
    code: "PB210",
    name: "tool-ref-duplicate",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("The same name appears twice in one step's `allowedTools`; the second is underlined."),
    source: documented!("\"On an agent step, allowedTools is a list of tool names\" (seed 000): the allow-list is a set of capabilities, so a repeat adds nothing and may hide a typo in the name meant."),
    fix: documented!("Remove the repeated name, or correct it to the tool that was meant."),
    example: documented!("allowedTools: [customer.get, charge.history, customer.get]"),
};

pub static PB211: Rule = Rule {
    code: "PB211",
    name: "tool-ref-unresolved",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("A name on `allowedTools` that no embedded tool in `tools` defines: only a runtime's registry can resolve it, so a reader of the document cannot tell what it does."),
    source: documented!("\"A name resolves against the document's own embedded tools array and the runtime's tool registry\"; \"A document carries the definitions of the tools it references in its tools array, so a foreign reader can explain what the playbook does without any registry.\" (seed 000)"),
    fix: documented!("Add the tool's definition to `tools` (name, source, description, permissions, inputSchema, outputSchema), or correct the name if it is a typo."),
    example: documented!("allowedTools: [customer.lookup]   # no tool in `tools` is named customer.lookup"),
};

pub static PB212: Rule = Rule {
    code: "PB212",
    name: "mcp-server-undeclared",
    severity: Severity::Error,
    group: Group::PlaybookSteps,
    summary: documented!("An `mcp.<server>.<tool>` name whose `<server>` is not declared in `requires.mcpServers`."),
    source: documented!("\"MCP tools, composed as mcp.<server>.<tool> where <server> is a logical name the document declares in requires.mcpServers.\" (seed 000)"),
    fix: documented!("Declare the server in `requires.mcpServers` (`{ \"name\": \"<server>\", \"toolNames\": [\"mcp.<server>.<tool>\"] }`), or correct the server part of the name."),
    example: documented!("requires:\n  mcpServers: [{ name: acme }]\nsteps:\n  - allowedTools: [mcp.orders.lookup]   # no server `orders`"),
};

pub static PB219: Rule = Rule {
    code: "PB219",
    name: "write-without-gate",
    severity: Severity::Info,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step may call an embedded tool with `requiresApproval: true`, and can be entered other than straight from a `gate` step (it is the start, or a step that is not a gate leads to it): the approval is left to the runtime rather than drawn in the playbook."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate.\" (seed 000); a `gate` step is an approval gate, a person decides before the playbook goes on (DOCUMENTS.md §1)."),
    fix: documented!("Put a `gate` step directly before the step on every way into it, with a `next` that leads to it once a person approves."),
    example: documented!("steps:\n  - id: draft\n    kind: agent\n    next: send           # straight to sending, no gate\n  - id: send\n    kind: agent\n    allowedTools: [email.send]   # requiresApproval: true"),
};

/// What the names of every step are checked against.
pub(super) struct Context<'a> {
    view: &'a PlaybookView<'a>,
    /// The logical names in `requires.mcpServers`.
    servers: Vec<&'a str>,
    /// The steps that can be entered other than straight from a `gate`
    /// step, and how: the first way found.
    ungated: HashMap<&'a str, Entry<'a>>,
    /// The gate-free routes from the start (PB220, PB221).
    unsupervised: Unsupervised<'a>,
}

/// How a step can be entered without a `gate` step right before it.
#[derive(Clone, Copy)]
enum Entry<'a> {
    /// It is where the playbook starts.
    Start,
    /// This step, not a gate, leads straight to it.
    From(&'a str),
}

impl<'a> Context<'a> {
    pub(super) fn new(view: &'a PlaybookView<'a>, graph: &'a Graph) -> Self {
        let servers = view.requires.mcp_servers.iter().filter_map(|s| s.name).collect();
        let kinds: HashMap<&str, Option<&str>> =
            graph.nodes.iter().map(|n| (n.id.as_str(), n.kind.as_deref())).collect();
        let mut ungated = HashMap::new();
        if let Some(start) = &graph.start {
            ungated.insert(start.as_str(), Entry::Start);
        }
        for edge in &graph.edges {
            if kinds.get(edge.from.as_str()).copied().flatten() != Some("gate") {
                ungated.entry(edge.to.as_str()).or_insert(Entry::From(edge.from.as_str()));
            }
        }
        Context { view, servers, ungated, unsupervised: Unsupervised::new(graph) }
    }
}

/// Checks every entry of a step's `allowedTools`.
pub(super) fn check(
    context: &Context<'_>,
    step: &StepView<'_>,
    what: ItemName<'_>,
    report: &mut Report,
) {
    let Some(entries) = step.allowed_tools_node.and_then(Node::as_array) else { return };
    // A short list is searched for an earlier entry of a name; a long one
    // is indexed (a step lists a few tools, and thousands of steps do).
    const SHORT: usize = 12;
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        // Built only for a finding.
        let ptr = || step.ptr.key_index("allowedTools", i);
        let Some(name) = entry.as_str() else {
            let message = match &entry.value {
                Value::Object(_) => format!(
                    "Entry {i} of `allowedTools` of {what} is an object: the object form of a tool reference is planned for a future OpenPlaybook version, not part of the current wire format. Write the tool's name as a string."
                ),
                _ => format!("Entry {i} of `allowedTools` of {what} is {}; a tool reference is the tool's name, a string.", entry.type_name()),
            };
            report.push(&PB209, &ptr(), At::Value(entry), message);
            continue;
        };
        let first = match entries.len() {
            0..=SHORT => entries.iter().take(i).position(|earlier| earlier.as_str() == Some(name)),
            _ => first_at.get(name).copied(),
        };
        if let Some(first) = first {
            report.push(
                &PB210,
                &ptr(),
                At::Value(entry),
                format!(
                    "{} allows `{name}` twice (entries {first} and {i}); once is enough.",
                    capitalise(what)
                ),
            );
            continue;
        }
        if entries.len() > SHORT {
            first_at.insert(name, i);
        }
        let tool = context.view.tool(name);
        if let Some(rule) = resolve(context, name, tool, what) {
            report.push(rule.0, &ptr(), At::Value(entry), rule.1);
        }
        if let Some(message) = ungated(context, step, name, tool, what) {
            report.push(&PB219, &ptr(), At::Value(entry), message);
        }
        if let Some(tool) = tool {
            if let Some((rule, message)) = context.unsupervised.finding(
                step,
                name,
                tool.risk_class,
                tool.requires_approval,
                what,
            ) {
                report.push(rule, &ptr(), At::Value(entry), message);
            }
        }
    }
}

/// The most specific problem with a name, if any: a malformed MCP name
/// (PB205), an undeclared MCP server (PB212), or no embedded definition
/// (PB211). `tool` is the name's embedded definition, looked up once for
/// this and PB219.
fn resolve(
    context: &Context<'_>,
    name: &str,
    tool: Option<&ToolView<'_>>,
    what: ItemName<'_>,
) -> Option<(&'static Rule, String)> {
    match mcp_name(name) {
        McpName::Malformed => Some((
            &PB205,
            format!("`{name}` on {what} starts with `mcp.` but is not `mcp.<server>.<tool>` with both parts non-empty."),
        )),
        McpName::Valid { server, .. } if !context.servers.contains(&server) => {
            let declared = if context.servers.is_empty() {
                "it declares none".to_owned()
            } else {
                format!("it declares {}", one_of(&context.servers))
            };
            Some((
                &PB212,
                format!("{} allows `{name}`, but MCP server `{server}` is not declared in `requires.mcpServers` ({declared}).", capitalise(what)),
            ))
        }
        _ if tool.is_none() => Some((
            &PB211,
            format!("{} allows `{name}`, which no tool in `tools` defines: only a runtime's registry can resolve it, so a reader cannot tell what it does. Add its definition to `tools`, or correct the name.", capitalise(what)),
        )),
        _ => None,
    }
}

/// PB219's message for an agent step that may call a tool requiring
/// approval, with no gate leading to it. A step without an id is left to
/// PB201: nothing can lead to it at all.
fn ungated(
    context: &Context<'_>,
    step: &StepView<'_>,
    name: &str,
    tool: Option<&ToolView<'_>>,
    what: ItemName<'_>,
) -> Option<String> {
    let id = step.id.filter(|_| step.kind == Some("agent"))?;
    tool.filter(|tool| tool.requires_approval == Some(true))?;
    let how = match context.ungated.get(id)? {
        Entry::Start => "the playbook starts there, with no `gate` step before it".to_owned(),
        Entry::From(from) => format!("step `{from}`, not a `gate` step, leads straight to it"),
    };
    Some(format!("{} may call `{name}`, which requires approval, but {how}: the approval is left to the runtime. Put a `gate` step right before `{id}`, on every way into it.", capitalise(what)))
}
