//! PB4xx: the `requires` block and `manifest.requiredConnectors`, and their shape (IN004, IN007).
//!
//! One submodule per part of the block: provider connections, MCP servers,
//! named secrets. What the block, the manifest, the tools and the steps say
//! of each other is computed once by [`crate::views::requires::cross_check`],
//! which the explain view reads too; the rules add what is only theirs (the
//! order of precedence between findings, and the messages). The type of `requires` itself and of `manifest` is the
//! top-level shape check's (`document`).

mod connections;
mod mcp_servers;
mod secrets;

pub(crate) use mcp_servers::PB411;

use crate::diagnostics::{At, Report, Rule};
use crate::rules::{check_fields, expect_objects, Field, Holds, Ty};
use crate::views::playbook::PlaybookView;
use crate::views::requires;
use opb_syntax::{Node, Ptr};

pub static RULES: &[&Rule] = &[
    &connections::PB401,
    &connections::PB402,
    &connections::PB403,
    &connections::PB404,
    &connections::PB405,
    &connections::PB406,
    &connections::PB407,
    &connections::PB408,
    &connections::PB409,
    &mcp_servers::PB410,
    &mcp_servers::PB411,
    &mcp_servers::PB412,
    &mcp_servers::PB413,
    &mcp_servers::PB414,
    &mcp_servers::PB415,
    &mcp_servers::PB416,
    &secrets::PB417,
    &secrets::PB418,
    &mcp_servers::PB419,
];

pub(crate) const REQUIRES_FIELDS: &[Field] = &[
    Field::new("connections", Ty::Array)
        .holds(Holds::Items(connections::CONNECTION_FIELDS))
        .doc("The machine-readable credential declaration — one entry per manifest.requiredConnectors member."),
    Field::new("mcpServers", Ty::Array).holds(Holds::Items(mcp_servers::SERVER_FIELDS)).doc(
        "MCP servers this playbook's mcp.<name>.<tool> tool names require — logical names + tool names, never URLs or auth. [] on pre-1.6 documents.",
    ),
    Field::new("secrets", Ty::Array)
        .holds(Holds::Items(secrets::SECRET_FIELDS))
        .doc("Named secrets this playbook's bindings reference — names + purposes only, never values. [] on pre-1.6 documents."),
];

pub(super) fn check(
    view: &PlaybookView<'_>,
    cross_check: &requires::CrossCheck<'_, '_>,
    report: &mut Report,
) {
    let ptr = Ptr::root().key("requires");
    if let Some(requires) = view.requires.node.filter(|n| n.as_object().is_some()) {
        check_fields(report, requires, &ptr, REQUIRES_FIELDS, "`requires`");
        for (field, what) in [
            ("connections", "a connection with `provider` and `authKind`"),
            ("mcpServers", "an MCP server with a `name`"),
            ("secrets", "a secret with `name` and `purpose`"),
        ] {
            expect_objects(
                report,
                requires.get(field),
                &ptr.key(field),
                format_args!("Each entry of `requires.{field}`"),
                Some(what),
            );
        }
    }
    connections::check(view, cross_check, report);
    mcp_servers::check(view, cross_check, report);
    secrets::check(view, report);
}

/// Where a finding about a missing required field points: at its null or
/// blank value when there is one, else at the object that lacks it.
fn missing_at<'n>(object: &'n Node, object_ptr: &Ptr, field: &str) -> (Ptr, At<'n>) {
    match object.get(field) {
        Some(value) => (object_ptr.key(field), At::Value(value)),
        None => (object_ptr.clone(), At::Missing(object)),
    }
}

#[cfg(test)]
mod tests {
    /// The code and pointer of every finding about `requires` and the
    /// manifest, and of the step entries PB408, PB409 and PB415 report.
    fn found(yaml: &str) -> Vec<String> {
        let checked = crate::check(yaml, &crate::Options::default());
        checked
            .diagnostics
            .iter()
            .filter(|d| {
                d.code.starts_with("PB4") || d.code == "PB205" || d.pointer.starts_with("/requires")
            })
            .map(|d| format!("{} {}", d.code, d.pointer))
            .collect()
    }

    const TOOLS: &str = "tools:\n\
        - {name: charge.history, source: connector, connectorType: stripe, description: d, permissions: [], inputSchema: {}, outputSchema: {}, riskClass: read, sideEffecting: false}\n\
        - {name: issue.create, source: connector, connectorType: linear, description: d, permissions: [], inputSchema: {}, outputSchema: {}, riskClass: internal, sideEffecting: true, dataScopeWrites: [issues]}\n\
        steps:\n  - {id: a, kind: agent, agent: lou, purpose: p, allowedTools: [charge.history, issue.create, mcp.acme.search]}\n";

    #[test]
    fn a_missing_connection_is_reported_once() {
        // `linear` is required: PB406 on the manifest, not also PB409 on the step.
        // `Stripe` is `stripe` miscased: PB403 only.
        let yaml = format!(
            "manifest: {{requiredConnectors: [stripe, linear]}}\nrequires:\n  connections: [{{provider: Stripe, authKind: oauth}}]\n  mcpServers: [{{name: acme, toolNames: [mcp.acme.search]}}]\n{TOOLS}"
        );
        assert_eq!(
            found(&yaml),
            ["PB406 /manifest/requiredConnectors/1", "PB403 /requires/connections/0/provider"]
        );
        // Not required: PB409 on the step.
        let yaml = format!(
            "manifest: {{requiredConnectors: [stripe]}}\nrequires:\n  connections: [{{provider: stripe, authKind: oauth, capabilities: [charge.history]}}]\n  mcpServers: [{{name: acme, toolNames: [mcp.acme.search]}}]\n{TOOLS}"
        );
        assert_eq!(found(&yaml), ["PB409 /steps/0/allowedTools/1"]);
    }

    #[test]
    fn without_connections_only_pb401_speaks() {
        let yaml = format!("manifest: {{requiredConnectors: [stripe, linear]}}\nrequires:\n  mcpServers: [{{name: acme, toolNames: [mcp.acme.search]}}]\n{TOOLS}");
        assert_eq!(found(&yaml), ["PB401 /requires"]);
    }

    #[test]
    fn a_second_connection_is_a_duplicate_only() {
        let yaml = format!(
            "manifest: {{requiredConnectors: [stripe, linear]}}\nrequires:\n  connections:\n    - {{provider: stripe, authKind: oauth, capabilities: [charge.history]}}\n    - {{provider: linear, authKind: oauth, capabilities: [issue.create]}}\n    - {{provider: stripe, authKind: api_token}}\n  mcpServers: [{{name: acme, toolNames: [mcp.acme.search]}}]\n{TOOLS}"
        );
        assert_eq!(found(&yaml), ["PB404 /requires/connections/2/provider"]);
    }

    #[test]
    fn a_server_name_that_is_no_handle_is_reported_alone() {
        let yaml = format!(
            "manifest: {{requiredConnectors: [stripe, linear]}}\nrequires:\n  connections:\n    - {{provider: stripe, authKind: oauth, capabilities: [charge.history]}}\n    - {{provider: linear, authKind: oauth, capabilities: [issue.create]}}\n  mcpServers:\n    - {{name: acme.example.com, toolNames: [mcp.acme.search, other]}}\n    - {{name: acme, toolNames: [mcp.acme.search, mcp.acme, other], capabilities: [x]}}\n    - {{name: user@acme, toolNames: []}}\n    - {{toolNames: []}}\n{TOOLS}"
        );
        assert_eq!(
            found(&yaml),
            [
                "PB410 /requires/mcpServers/0/name",
                "PB205 /requires/mcpServers/1/toolNames/1",
                "PB414 /requires/mcpServers/1/toolNames/2",
                "PB416 /requires/mcpServers/1/capabilities",
                "PB411 /requires/mcpServers/2/name",
                "PB419 /requires/mcpServers/3",
            ]
        );
    }
}
