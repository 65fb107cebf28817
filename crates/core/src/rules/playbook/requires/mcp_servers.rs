//! PB410–PB416 and PB419: the MCP servers a playbook declares by logical
//! name, and the `mcp.<server>.<tool>` names that compose from them.

use crate::diagnostics::credentials::{
    find_credential, high_entropy_run, preview, starts_with_bearer,
};
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::playbook::steps::PB205;
use crate::rules::{check_fields, is_blank, Field, Ty};
use crate::views::playbook::{mcp_name, McpName, McpServerView, PlaybookView};
use crate::views::requires::{CrossCheck, ForeignToolName, McpRef};
use foldhash::{HashSet, HashSetExt};

pub static PB410: Rule = Rule {
    code: "PB410",
    name: "mcp-server-name-url",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("An `mcpServers[].name` looks like a URL or a host: it contains `://` or `/`, has a dot, or ends in `:<port>`."),
    source: documented!("\"mcpServers[].name — Logical MCP server name — the local handle tool names compose from (mcp.<name>.<tool>). Never a URL and never auth material.\" (seed 000, The requires declaration)"),
    fix: documented!("Name the server with a short logical handle (`acme`, `orders_db`) and use it in tool names (`mcp.acme.search_orders`). Where the server lives is the harness's configuration, not the playbook's."),
    example: documented!("requires:\n  mcpServers:\n    - name: https://mcp.acme.example/sse   # write: acme"),
};

pub static PB411: Rule = Rule {
    code: "PB411",
    name: "mcp-server-name-auth",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("An `mcpServers[].name` looks like auth material: it contains `@`, starts with `Bearer`, or has a token's shape (a known token prefix, or a long high-entropy run). The message shows only its first 4 characters."),
    source: documented!("\"mcpServers[].name — Logical MCP server name … Never a URL and never auth material.\" and \"Names and purposes only; never credentials.\" (seed 000, The requires declaration)"),
    fix: documented!("Name the server with a short logical handle (`acme`). If the name held a real credential, revoke it: everyone who saw the document has it. Declare the credential as a named secret (`requires.secrets`, with a `purpose`) for the harness to supply."),
    example: documented!("requires:\n  mcpServers:\n    - name: ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
};

pub static PB412: Rule = Rule {
    code: "PB412",
    name: "mcp-server-duplicate",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("Two `mcpServers` entries have the same `name`; the second is reported."),
    source: documented!("\"mcpServers[].name — Logical MCP server name — the local handle tool names compose from (mcp.<name>.<tool>)\" (seed 000): a handle names one server."),
    fix: documented!("Merge the two entries (the union of their `toolNames`), or rename one and the tool names that use it."),
    example: documented!("requires:\n  mcpServers:\n    - {name: acme, toolNames: [mcp.acme.search_orders]}\n    - {name: acme, toolNames: []}"),
};

pub static PB413: Rule = Rule {
    code: "PB413",
    name: "mcp-server-unused",
    severity: Severity::Warning,
    group: Group::PlaybookRequires,
    summary: documented!("A declared MCP server is used by no tool name: no step allows, and no embedded tool is named, `mcp.<server>.<tool>`."),
    source: documented!("\"mcpServers array — MCP servers this playbook's mcp.<name>.<tool> tool names require\" (seed 000, The requires declaration): a server no name uses is not required."),
    fix: documented!("Remove the server, so a harness does not provide it for nothing, or allow its tools on the steps that need them."),
    example: documented!("requires:\n  mcpServers:\n    - {name: acme, toolNames: []}\nsteps:\n  - {id: a, kind: agent, allowedTools: [customer.get]}"),
};

pub static PB414: Rule = Rule {
    code: "PB414",
    name: "mcp-tool-names-foreign",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("An `mcpServers[n].toolNames` entry is not `mcp.<that server's name>.<tool>`."),
    source: documented!("\"mcpServers[].toolNames — The mcp.<name>.* tool names this playbook references from this server.\" (seed 000, The requires declaration)"),
    fix: documented!("List only this server's tools, spelled in full: `mcp.acme.search_orders` under the server `acme`. Move another server's tool to that server's `toolNames`."),
    example: documented!("requires:\n  mcpServers:\n    - name: acme\n      toolNames: [search_orders, mcp.orders.lookup]"),
};

pub static PB415: Rule = Rule {
    code: "PB415",
    name: "mcp-tool-names-incomplete",
    severity: Severity::Warning,
    group: Group::PlaybookRequires,
    summary: documented!("A step allows `mcp.<server>.<tool>`, but the declared server's `toolNames` does not list it."),
    source: documented!("\"mcpServers[].toolNames — The mcp.<name>.* tool names this playbook references from this server.\" (seed 000, The requires declaration)"),
    fix: documented!("Add the tool name to its server's `toolNames`, so a harness knows before the run which tools the playbook calls."),
    example: documented!("requires:\n  mcpServers:\n    - {name: acme, toolNames: []}\nsteps:\n  - {id: a, kind: agent, allowedTools: [mcp.acme.search_orders]}"),
};

pub static PB416: Rule = Rule {
    code: "PB416",
    name: "mcp-capabilities-reserved",
    severity: Severity::Info,
    group: Group::PlaybookRequires,
    summary: documented!("An `mcpServers[].capabilities` list is not empty; the field is reserved and a reader may ignore it."),
    source: documented!("\"mcpServers[].capabilities — Reserved best-effort capability hints; empty today.\" (seed 000, The requires declaration)"),
    fix: documented!("Leave `capabilities` empty (`[]`) or remove it; list the server's tools in `toolNames`."),
    example: documented!("requires:\n  mcpServers:\n    - {name: acme, toolNames: [mcp.acme.search_orders], capabilities: [search]}"),
};

pub static PB419: Rule = Rule {
    code: "PB419",
    name: "mcp-server-name-missing",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("An `mcpServers` entry has no `name` (or an empty one): no `mcp.<server>.<tool>` name can refer to it."),
    source: documented!("\"mcpServers[].name string · required — Logical MCP server name — the local handle tool names compose from (mcp.<name>.<tool>).\" (seed 000, The requires declaration)"),
    fix: documented!("Give the server the logical name its tool names use: `name: acme` for `mcp.acme.search_orders`."),
    example: documented!("requires:\n  mcpServers:\n    - toolNames: [mcp.acme.search_orders]"),
};

pub(super) const SERVER_FIELDS: &[Field] = &[
    Field::new("name", Ty::String).required().doc(
        "Logical MCP server name — the local handle tool names compose from (mcp.<name>.<tool>). Never a URL and never auth material.",
    ),
    Field::new("toolNames", Ty::StringArray).doc("The mcp.<name>.* tool names this playbook references from this server."),
    Field::new("capabilities", Ty::Array).doc("Reserved best-effort capability hints; empty today."),
];

pub(super) fn check(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>, report: &mut Report) {
    // Servers whose name can be a logical handle, by index: the rules about
    // tool names and use speak only of those.
    let mut usable = HashSet::new();
    for server in &view.requires.mcp_servers {
        let what = describe(server);
        check_fields(report, server.node, &server.ptr, SERVER_FIELDS, &what);
        let name = usable_name(server, report);
        check_capabilities(server, name, report);
        let Some(name) = name else { continue };
        usable.insert(server.index);
        if let Some(first) = check.mcp_server(name).filter(|first| !std::ptr::eq(*first, server)) {
            report_duplicate(server, first, name, report);
        }
    }
    let is_first_usable = |server: &McpServerView<'_>| {
        usable.contains(&server.index)
            && server
                .name
                .and_then(|name| check.mcp_server(name))
                .is_some_and(|first| std::ptr::eq(first, server))
    };
    for &server in &check.mcp_servers_unused {
        if is_first_usable(server) {
            report_unused(server, report);
        }
    }
    for foreign in &check.mcp_tool_names_foreign {
        if usable.contains(&foreign.server.index) {
            report_foreign(foreign, report);
        }
    }
    for reference in &check.mcp_tool_names_incomplete {
        if reference.declared.is_some_and(|server| usable.contains(&server.index)) {
            report_incomplete(reference, report);
        }
    }
}

fn describe(server: &McpServerView<'_>) -> String {
    format!("`requires.mcpServers[{}]`", server.index)
}

/// PB419, PB411 and PB410. Returns the name when it can be a logical
/// handle, so the rules about tool names can use it.
fn usable_name<'a>(server: &McpServerView<'a>, report: &mut Report) -> Option<&'a str> {
    let node = server.node.get("name");
    if is_blank(node) {
        let (ptr, at) = super::missing_at(server.node, &server.ptr, "name");
        report.push(
            &PB419,
            &ptr,
            at,
            format!("{} has no `name`: give it the logical name its tool names use, as in `mcp.<name>.<tool>`.", describe(server)),
        );
        return None;
    }
    let (name, node) = (server.name?, node?);
    let ptr = server.ptr.key("name");
    // Auth material first: the more serious finding, and one that must not echo the name.
    if let Some(why) = auth_material(name) {
        // The whole name is the auth material: it is cut wherever it occurs
        // (a tool name composed from it, another rule's message).
        report.flag_credential(name);
        report.push(
            &PB411,
            &ptr,
            At::Value(node),
            format!(
                "The name of {} (`{}`) {why}: a server name is a logical handle, never auth material. Use a short name such as `acme`; if this was a real credential, revoke it and declare it as a named secret instead.",
                describe(server),
                preview(name)
            ),
        );
        return None;
    }
    if let Some(why) = url_or_host(name) {
        report.push(
            &PB410,
            &ptr,
            At::Value(node),
            format!(
                "The name of {} is `{name}`, which {why}: a server name is a logical handle (as in `mcp.<name>.<tool>`), never a URL. Use a short name such as `acme`; where the server lives is the harness's configuration.",
                describe(server)
            ),
        );
        return None;
    }
    Some(name)
}

/// Why a name looks like auth material, if it does.
fn auth_material(name: &str) -> Option<String> {
    if name.contains('@') {
        return Some("contains `@`, as a login or credentials in a URL do".to_owned());
    }
    if starts_with_bearer(name) {
        return Some("starts with `Bearer`, as an Authorization header does".to_owned());
    }
    if let Some(credential) = find_credential(name) {
        return Some(format!("looks like {}", credential.kind));
    }
    high_entropy_run(name).map(|_| "has a long random-looking run, the shape of a token".to_owned())
}

/// Why a name looks like a URL or a host, if it does.
fn url_or_host(name: &str) -> Option<&'static str> {
    if name.contains("://") {
        Some("contains `://`, like a URL")
    } else if name.contains('/') {
        Some("contains `/`, like a URL path")
    } else if ends_in_port(name) {
        Some("ends in `:<port>`, like a host")
    } else if name.contains('.') {
        Some("has a dot, like a host name (and would make `mcp.<name>.<tool>` ambiguous)")
    } else {
        None
    }
}

/// `…:<digits>`.
fn ends_in_port(name: &str) -> bool {
    name.rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
}

/// PB412, at the second server's name.
fn report_duplicate(
    server: &McpServerView<'_>,
    first: &McpServerView<'_>,
    name: &str,
    report: &mut Report,
) {
    let Some(node) = server.node.get("name") else { return };
    report.push(
        &PB412,
        &server.ptr.key("name"),
        At::Value(node),
        format!(
            "{} is a second MCP server named `{name}` (the first is `requires.mcpServers[{}]`); tool names `mcp.{name}.…` resolve to the first. Merge the two entries.",
            describe(server),
            first.index
        ),
    );
}

/// PB413, at the name.
fn report_unused(server: &McpServerView<'_>, report: &mut Report) {
    let (Some(name), Some(node)) = (server.name, server.node.get("name")) else { return };
    report.push(
        &PB413,
        &server.ptr.key("name"),
        At::Value(node),
        format!("The MCP server `{name}` is declared, but no step allows and no embedded tool is named `mcp.{name}.<tool>`. Remove it, or allow the tools that need it."),
    );
}

/// PB414 for a `toolNames` entry of another server or outside the MCP
/// family; PB205 for a malformed `mcp.` name, the more specific finding.
fn report_foreign(foreign: &ForeignToolName<'_, '_>, report: &mut Report) {
    let (entry, name) = (foreign.tool_name, foreign.server.name.unwrap_or_default());
    let problem = match mcp_name(entry.name) {
        McpName::Valid { server: other, .. } => format!("a tool of the server `{other}`"),
        McpName::NotMcp => "not an MCP tool name".to_owned(),
        McpName::Malformed => {
            report.push(
                &PB205,
                &entry.ptr(&foreign.server.ptr.key("toolNames")),
                At::Value(entry.node),
                format!("`{}` in the `toolNames` of the MCP server `{name}` is not `mcp.<server>.<tool>` with both parts non-empty. Write it in full, e.g. `mcp.{name}.search`.", entry.name),
            );
            return;
        }
    };
    report.push(
        &PB414,
        &entry.ptr(&foreign.server.ptr.key("toolNames")),
        At::Value(entry.node),
        format!(
            "`{}` in the `toolNames` of the MCP server `{name}` is {problem}: list only `mcp.{name}.<tool>` names here.",
            entry.name
        ),
    );
}

/// PB416, at a non-empty `capabilities` list.
fn check_capabilities(server: &McpServerView<'_>, name: Option<&str>, report: &mut Report) {
    if server.capabilities.is_empty() {
        return;
    }
    let Some(node) = server.node.get("capabilities") else { return };
    let whose = name.map_or_else(|| describe(server), |name| format!("the MCP server `{name}`"));
    report.push(
        &PB416,
        &server.ptr.key("capabilities"),
        At::Value(node),
        format!("The `capabilities` of {whose} are reserved and \"empty today\" (seed 000): a reader may ignore them. List the server's tools in `toolNames` instead."),
    );
}

/// PB415, at the step's entry.
fn report_incomplete(reference: &McpRef<'_, '_>, report: &mut Report) {
    let (step, entry, name) = (reference.at.step, reference.at.entry, reference.server);
    let step_name = step.id.map_or_else(
        || format!("The step at `steps[{}]`", step.index),
        |id| format!("Step `{id}`"),
    );
    report.push(
        &PB415,
        &reference.at.ptr(),
        At::Value(entry.node),
        format!(
            "{step_name} allows `{}`, but the MCP server `{name}` does not list it in `toolNames`. Add it there, so a harness knows which tools the playbook calls.",
            entry.name
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_names_are_neither_urls_nor_auth() {
        for name in ["acme", "orders_db", "github-enterprise", "ACME", "crm2"] {
            assert_eq!(url_or_host(name), None, "{name}");
            assert_eq!(auth_material(name), None, "{name}");
        }
    }

    #[test]
    fn urls_and_hosts_are_recognised() {
        assert!(url_or_host("https://mcp.acme.example/sse").is_some());
        assert!(url_or_host("acme/sse").is_some());
        assert!(url_or_host("mcp.acme.example").is_some());
        assert!(url_or_host("localhost:8080").is_some());
        assert!(url_or_host("acme:").is_none());
        assert!(url_or_host("acme:prod").is_none());
    }

    #[test]
    fn auth_material_is_recognised() {
        assert!(auth_material("user@acme").is_some());
        assert!(auth_material("Bearer abc").is_some());
        assert!(auth_material("ghp_16C7e42F292c6912E7710c838347Ae178B4a").is_some());
        assert!(auth_material("Xk9fQ2mZr7LpT4vB8nWc").is_some());
    }
}
