//! Whether an embedded tool's origin and risk are declared and consistent:
//! source against name (PB305), read tools (PB306, PB307), connector type
//! (PB308, PB309), declared risk (PB311) and declared writes (PB313).

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::{is_absent, ItemName};
use crate::views::playbook::{mcp_name, McpName, ToolView};
use crate::views::spec::{one_of, RISK_CLASSES, SOURCES};

pub static PB305: Rule = Rule {
    code: "PB305",
    name: "source-name-mismatch",
    severity: Severity::Warning,
    group: Group::PlaybookTools,
    summary: documented!("`source: mcp` on a tool whose name is not `mcp.<server>.<tool>`, or a name starting `mcp.` on a tool whose `source` is not `mcp`."),
    source: documented!("\"MCP tools, composed as mcp.<server>.<tool> where <server> is a logical name the document declares in requires.mcpServers\" (seed 000, three naming families)."),
    fix: documented!("Name an MCP tool `mcp.<server>.<tool>` and give it `source: mcp`; give a built-in or connector tool a plain name and `source: primitive` or `connector`."),
    example: documented!("tools:\n  - name: search_orders\n    source: mcp   # name it mcp.acme.search_orders"),
};

pub static PB306: Rule = Rule {
    code: "PB306",
    name: "read-tool-side-effecting",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("A tool with `riskClass: read` declares `sideEffecting: true`."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate.\" (seed 000)"),
    fix: documented!("If the tool only reads, set `sideEffecting: false`. If it changes something, give it the risk class of what it changes (`internal`, `customer_comms` or `money`) and list its writes in `dataScopeWrites`."),
    example: documented!("tools:\n  - name: notes.read\n    riskClass: read\n    sideEffecting: true"),
};

pub static PB307: Rule = Rule {
    code: "PB307",
    name: "read-tool-approval",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("A read tool (`riskClass: read`, or `sideEffecting: false`) declares `requiresApproval: true`."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval\" (seed 000)."),
    fix: documented!("Set `requiresApproval: false` on a tool that only reads; if it writes, declare `sideEffecting: true` and its risk class."),
    example: documented!("tools:\n  - name: customer.get\n    riskClass: read\n    sideEffecting: false\n    requiresApproval: true"),
};

pub static PB308: Rule = Rule {
    code: "PB308",
    name: "connector-type-missing",
    severity: Severity::Warning,
    group: Group::PlaybookTools,
    summary: documented!("A tool with `source: connector` has no `connectorType`: the reader cannot tell which provider it calls."),
    source: documented!("\"Connector tools, named by the provider's tool set: charge.history from the Stripe connector\" and the tool field \"connectorType enum\" (seed 000)."),
    fix: documented!("Add the provider the tool belongs to, e.g. `connectorType: stripe`."),
    example: documented!("tools:\n  - name: charge.history\n    source: connector   # which connector?"),
};

pub static PB309: Rule = Rule {
    code: "PB309",
    name: "connector-type-on-non-connector",
    severity: Severity::Warning,
    group: Group::PlaybookTools,
    summary: documented!("A tool whose `source` is not `connector` has a `connectorType`."),
    source: documented!("\"Connector tools, named by the provider's tool set\" (seed 000): a connector type belongs to connector tools; built-in and MCP tools have none."),
    fix: documented!("Remove `connectorType`, or set `source: connector` if the tool does come from that provider."),
    example: documented!("tools:\n  - name: customer.get\n    source: primitive\n    connectorType: stripe"),
};

pub static PB311: Rule = Rule {
    code: "PB311",
    name: "risk-undeclared",
    severity: Severity::Warning,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool has no `riskClass` or no `sideEffecting`: a reader cannot tell what calling it risks."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects\" (seed 000), and \"so a foreign reader can explain what the playbook does without any registry\"."),
    fix: documented!("Declare both: `riskClass` (`read`, `internal`, `customer_comms` or `money`) and `sideEffecting` (`true` or `false`)."),
    example: documented!("tools:\n  - name: email.send\n    source: connector\n    # no riskClass, no sideEffecting"),
};

pub static PB313: Rule = Rule {
    code: "PB313",
    name: "write-tool-undeclared-scope",
    severity: Severity::Info,
    group: Group::PlaybookTools,
    summary: documented!("A tool with `sideEffecting: true` lists no `dataScopeWrites`: a reader cannot tell what it changes."),
    source: documented!("\"write tools declare their side effects\" (seed 000), and the tool field \"dataScopeWrites array\"."),
    fix: documented!("List what the tool writes, e.g. `dataScopeWrites: [outbound_email]`."),
    example: documented!("tools:\n  - name: email.send\n    sideEffecting: true\n    # no dataScopeWrites"),
};

pub(super) fn check(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    check_source_and_name(tool, what, report);
    check_read_tool(tool, what, report);
    check_connector_type(tool, what, report);
    check_risk_declared(tool, what, report);
    check_writes_declared(tool, what, report);
}

/// The tool's `source` when it is one of the seed's values.
fn known_source<'a>(tool: &ToolView<'a>) -> Option<&'a str> {
    tool.source.filter(|s| SOURCES.contains(s))
}

/// PB305. A malformed `mcp.` name is PB205's, and not reported here too.
fn check_source_and_name(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    let (Some(name), Some(source)) = (tool.name, known_source(tool)) else { return };
    let Some(node) = tool.node.get("source") else { return };
    let problem = match (mcp_name(name), source) {
        (McpName::NotMcp, "mcp") => {
            format!("has `source: mcp`, but its name `{name}` is not `mcp.<server>.<tool>`: name it after its server, e.g. `mcp.acme.{name}`")
        }
        (McpName::Valid { .. }, other) if other != "mcp" => {
            format!("has an MCP tool name (`mcp.<server>.<tool>`), but its `source` is `{other}`: set `source: mcp`, or give it a name without the `mcp.` prefix")
        }
        _ => return,
    };
    report.push(&PB305, &tool.ptr.key("source"), At::Value(node), format!("The {what} {problem}."));
}

/// PB306 and PB307. A read tool with side effects that also requires
/// approval is one fault (the risk class is wrong), reported as PB306 only.
fn check_read_tool(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    let read_class = tool.risk_class == Some("read");
    if read_class && tool.side_effecting == Some(true) {
        if let Some(node) = tool.node.get("sideEffecting") {
            report.push(
                &PB306,
                &tool.ptr.key("sideEffecting"),
                At::Value(node),
                format!("The {what} has `riskClass: read` but `sideEffecting: true`; read tools declare `sideEffecting: false`. If it only reads, set `sideEffecting: false`; if it writes, give it the risk class of what it changes."),
            );
        }
        return;
    }
    let reads = read_class || tool.side_effecting == Some(false);
    if !reads || tool.requires_approval != Some(true) {
        return;
    }
    let Some(node) = tool.node.get("requiresApproval") else { return };
    let because = if read_class { "`riskClass: read`" } else { "`sideEffecting: false`" };
    report.push(
        &PB307,
        &tool.ptr.key("requiresApproval"),
        At::Value(node),
        format!("The {what} is a read tool ({because}) but has `requiresApproval: true`; read tools never require approval. Set it to `false`, or declare the tool's side effects if it writes."),
    );
}

/// PB308 and PB309.
fn check_connector_type(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    let Some(source) = known_source(tool) else { return };
    let member = tool.node.as_object().and_then(|o| o.member("connectorType"));
    let declared = member.filter(|m| !m.value.is_null());
    match (source, declared) {
        ("connector", None) => report.push(
            &PB308,
            &tool.ptr,
            At::Missing(tool.node),
            format!("The {what} has `source: connector` but no `connectorType`: say which provider it calls, e.g. `connectorType: stripe`."),
        ),
        ("connector", Some(_)) | (_, None) => {}
        (other, Some(member)) => report.push(
            &PB309,
            &tool.ptr.key("connectorType"),
            At::Key(member),
            format!("The {what} has a `connectorType`, but its `source` is `{other}`, not `connector`: remove `connectorType`, or set `source: connector`."),
        ),
    }
}

/// PB311: one finding naming what is undeclared.
fn check_risk_declared(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    let missing: Vec<&str> = ["riskClass", "sideEffecting"]
        .into_iter()
        .filter(|field| is_absent(tool.node.get(field)))
        .collect();
    let missing = match missing.as_slice() {
        [] => return,
        [one] => format!("no `{one}`"),
        _ => "neither `riskClass` nor `sideEffecting`".to_owned(),
    };
    report.push(
        &PB311,
        &tool.ptr,
        At::Missing(tool.node),
        format!(
            "The {what} declares {missing}: a reader cannot tell what calling it risks. Declare `riskClass` ({}) and `sideEffecting`.",
            one_of(RISK_CLASSES)
        ),
    );
}

/// PB313, at the tool when `dataScopeWrites` is absent, at the list when it
/// is empty. A side-effecting read tool is PB306's: its writes are in doubt.
fn check_writes_declared(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    if tool.side_effecting != Some(true) || tool.risk_class == Some("read") {
        return;
    }
    let writes = tool.node.get("dataScopeWrites");
    let (ptr, at) = match writes {
        Some(node) if node.as_array().is_some_and(<[_]>::is_empty) => {
            (tool.ptr.key("dataScopeWrites"), At::Value(node))
        }
        Some(node) if !node.is_null() => return,
        _ => (tool.ptr.clone(), At::Missing(tool.node)),
    };
    report.push(
        &PB313,
        &ptr,
        at,
        format!("The {what} has `sideEffecting: true` but lists no `dataScopeWrites`: say what it changes, e.g. `dataScopeWrites: [outbound_email]`."),
    );
}
