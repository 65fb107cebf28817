//! PB3xx: the embedded tools (`tools[]`), and the shape (IN004, IN007) of each tool.
//!
//! `definition` checks what a tool entry must carry (name, required fields,
//! enums, schemas); `risk` checks that its risk is declared and consistent.
//! PB312 (a tool no step allows) looks at the steps and lives here. The type
//! of `tools` itself is the top-level shape check's (`document`).

mod definition;

pub(crate) use definition::TOOL_FIELDS;
mod risk;

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::{expect_objects, ItemName};
use crate::views::playbook::{PlaybookView, ToolView};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::Ptr;

pub static PB312: Rule = Rule {
    code: "PB312",
    name: "tool-unused",
    severity: Severity::Info,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool that no step's `allowedTools` lists: the document defines it, but no step may call it."),
    source: documented!("\"A step declares the tools it is allowed to call … That allow-list is the step's capability boundary\" and \"A document carries the definitions of the tools it references in its tools array\" (seed 000)."),
    fix: documented!("Allow the tool on the step that needs it, or remove its definition if the playbook does not use it."),
    example: documented!("tools:\n  - {name: refund.create, source: connector, …}\nsteps:\n  - {id: look, kind: agent, allowedTools: [charge.history]}"),
};

pub static RULES: &[&Rule] = &[
    &definition::PB301,
    &definition::PB302,
    &definition::PB303,
    &definition::PB304,
    &risk::PB305,
    &risk::PB306,
    &risk::PB307,
    &risk::PB308,
    &risk::PB309,
    &definition::PB310,
    &risk::PB311,
    &PB312,
    &risk::PB313,
];

pub(super) fn check(view: &PlaybookView<'_>, report: &mut Report) {
    expect_objects(
        report,
        view.root.get("tools"),
        &Ptr::root().key("tools"),
        "Each entry of `tools`",
        Some("a tool definition with `name`, `source`, `description`, …"),
    );
    // Sized up front: a large playbook's sets would otherwise grow many times.
    let mut allowed: HashSet<&str> = HashSet::with_capacity(view.tools.len());
    allowed.extend(view.steps.iter().flat_map(|s| s.allowed_tools.iter().map(|n| n.name)));
    let mut first_with_name = HashMap::with_capacity(view.tools.len());
    for tool in &view.tools {
        let what = describe(tool);
        let distinct = definition::check(tool, what, &mut first_with_name, report);
        risk::check(tool, what, report);
        if distinct {
            check_used(tool, &allowed, report);
        }
    }
}

/// How messages name a tool, after "the": by its name, or by its place.
fn describe<'s>(tool: &ToolView<'s>) -> ItemName<'s> {
    let name = tool.name.filter(|name| !name.trim().is_empty());
    ItemName { named: "tool", placed: "tool at", list: "tools", name, index: tool.index }
}

/// PB312, at the tool's name.
fn check_used(tool: &ToolView<'_>, allowed: &HashSet<&str>, report: &mut Report) {
    let (Some(name), Some(node)) = (tool.name, tool.node.get("name")) else { return };
    if allowed.contains(name) {
        return;
    }
    report.push(
        &PB312,
        &tool.ptr.key("name"),
        At::Value(node),
        format!("The embedded tool `{name}` is defined, but no step's `allowedTools` lists it, so no step may call it. Allow it where it is needed, or remove it."),
    );
}

#[cfg(test)]
mod tests {
    /// The code and pointer of every finding about the tools, and of PB407
    /// (which a tool's own connector type could cascade into).
    fn found(yaml: &str) -> Vec<String> {
        let checked = crate::check(yaml, &crate::Options::default());
        checked
            .diagnostics
            .iter()
            .filter(|d| d.pointer.starts_with("/tools") || d.code == "PB407")
            .map(|d| format!("{} {}", d.code, d.pointer))
            .collect()
    }

    const STEPS: &str =
        "steps:\n  - {id: a, kind: agent, agent: lou, purpose: p, allowedTools: [t, mcp.x, c]}\n";

    #[test]
    fn one_fault_one_finding() {
        let yaml = format!(
            "requires:\n  connections: [{{provider: stripe, authKind: oauth, capabilities: [c]}}]\nmanifest: {{requiredConnectors: [stripe]}}\ntools:\n\
             - {{name: t, source: primitive, description: d, permissions: [], inputSchema: {{}}, outputSchema: [], riskClass: read, sideEffecting: true, requiresApproval: true}}\n\
             - {{name: mcp.x, source: mcp, description: d, permissions: [], inputSchema: {{}}, outputSchema: {{}}, riskClass: read, sideEffecting: false}}\n\
             - {{name: c, source: connector, connectorType: Stripe, description: d, permissions: [], inputSchema: {{}}, outputSchema: {{}}, riskClass: read, sideEffecting: false}}\n\
             - 42\n{STEPS}"
        );
        assert_eq!(
            found(&yaml),
            [
                "PB310 /tools/0/outputSchema",
                "PB306 /tools/0/sideEffecting",
                "PB205 /tools/1/name",
                "PB304 /tools/2/connectorType",
                "IN004 /tools/3",
            ]
        );
    }

    #[test]
    fn each_missing_required_field_is_reported() {
        let yaml = format!("tools:\n  - {{name: t, source: null, description: \"  \"}}\n{STEPS}");
        assert_eq!(
            found(&yaml),
            [
                "PB303 /tools/0",
                "PB303 /tools/0",
                "PB303 /tools/0",
                "PB311 /tools/0",
                "PB303 /tools/0/source",
                "PB303 /tools/0/description",
            ]
        );
    }
}
