use super::*;
use opb_syntax::{parse, Limits, Node, Syntax};

fn root(yaml: &str) -> Node {
    parse(yaml, Syntax::Yaml, &Limits::default()).root.expect("the test document parses")
}

const DOCUMENT: &str = r#"
manifest: { requiredConnectors: [stripe, resend, linear] }
requires:
  connections:
    - { provider: stripe, authKind: oauth, capabilities: [charge.history, refund.create, customer.get, ghost] }
    - { provider: resend, authKind: api_token }
    - { provider: slack, authKind: oauth }
    - { provider: stripey, authKind: oauth, capabilities: [charge.history] }
  mcpServers:
    - { name: acme, toolNames: [mcp.acme.search, mcp.other.x, mcp.acme] }
    - { name: idle, toolNames: [] }
    - { name: defined, toolNames: [] }
tools:
  - { name: charge.history, source: connector, connectorType: stripe }
  - { name: refund.create, source: connector, connectorType: stripe }
  - { name: email.send, source: connector, connectorType: resend }
  - { name: issue.create, source: connector, connectorType: linear }
  - { name: customer.get, source: primitive }
  - { name: page.post, source: primitive, connectorType: slack }
  - { name: mcp.defined.only, source: mcp }
steps:
  - id: a
    allowedTools: [charge.history, refund.create, email.send, email.send, page.post, mcp.acme.search, mcp.acme.orders, mcp.nowhere.x, mcp.bad]
  - id: b
    allowedTools: [charge.history, mcp.nowhere.y, registry.only]
"#;

fn names<'a, T>(items: &'a [T], name: impl Fn(&'a T) -> &'a str) -> Vec<&'a str> {
    items.iter().map(name).collect()
}

#[test]
fn connections_are_checked_against_the_manifest() {
    let root = root(DOCUMENT);
    let view = PlaybookView::new(&root);
    let check = cross_check(&view);
    // `stripey` is an unknown provider: PB403 reports it, not PB405.
    assert_eq!(
        names(&check.connections_not_required, |c| c.provider.unwrap_or_default()),
        ["slack"]
    );
    assert_eq!(names(&check.required_unconnected, |c| c.name), ["linear"]);
}

#[test]
fn capabilities_must_name_tools_of_their_provider() {
    let root = root(DOCUMENT);
    let view = PlaybookView::new(&root);
    let check = cross_check(&view);
    let unknown: Vec<(&str, &str, bool)> = check
        .capabilities_unknown
        .iter()
        .map(|u| (u.connection.provider.unwrap_or_default(), u.capability.name, u.tool.is_some()))
        .collect();
    // `charge.history` under `stripey` is not reported: the provider itself is wrong.
    assert_eq!(unknown, [("stripe", "customer.get", true), ("stripe", "ghost", false)]);
}

#[test]
fn step_references_need_their_connections() {
    let root = root(DOCUMENT);
    let view = PlaybookView::new(&root);
    let check = cross_check(&view);
    let refs = |list: &[ConnectorRef<'_, '_>]| -> Vec<(String, String)> {
        list.iter()
            .map(|r| (r.at.step.id.unwrap_or_default().to_owned(), r.at.entry.name.to_owned()))
            .collect()
    };
    // `email.send` is listed twice in step a and reported once; `page.post`
    // is a primitive, so its `connectorType` asks for no connection.
    assert_eq!(refs(&check.capabilities_unlisted), [("a".to_owned(), "email.send".to_owned())]);
    assert!(check.connectors_unconnected.is_empty());
}

#[test]
fn mcp_references_need_declared_servers_that_list_them() {
    let root = root(DOCUMENT);
    let view = PlaybookView::new(&root);
    let check = cross_check(&view);
    let refs = |list: &[McpRef<'_, '_>]| -> Vec<String> {
        list.iter().map(|r| r.at.entry.name.to_owned()).collect()
    };
    assert_eq!(refs(&check.mcp_undeclared), ["mcp.nowhere.x", "mcp.nowhere.y"]);
    assert_eq!(refs(&check.mcp_tool_names_incomplete), ["mcp.acme.orders"]);
    // `defined` is used by an embedded tool's name only: not unused.
    assert_eq!(names(&check.mcp_servers_unused, |s| s.name.unwrap_or_default()), ["idle"]);
    let foreign: Vec<&str> =
        check.mcp_tool_names_foreign.iter().map(|f| f.tool_name.name).collect();
    assert_eq!(foreign, ["mcp.other.x", "mcp.acme"]);
}

#[test]
fn a_connector_tool_without_its_connection_is_unconnected() {
    let root = root(
        r#"
requires: { connections: [] }
tools: [{ name: refund.create, source: connector, connectorType: stripe }]
steps: [{ id: a, allowedTools: [refund.create] }, { id: b, allowedTools: [refund.create] }]
"#,
    );
    let view = PlaybookView::new(&root);
    let check = cross_check(&view);
    let steps: Vec<&str> =
        check.connectors_unconnected.iter().filter_map(|r| r.at.step.id).collect();
    assert_eq!(steps, ["a", "b"]);
    assert!(check.connectors_unconnected.iter().all(|r| r.provider == "stripe"));
    assert!(check.capabilities_unlisted.is_empty());
}

#[test]
fn needs_follow_the_name_then_the_connector_type() {
    let root = root("tools: [{ name: x, source: connector, connectorType: stripe }, { name: y, connectorType: nope }]");
    let view = PlaybookView::new(&root);
    assert_eq!(need("mcp.acme.search", None), Some(Need::McpServer("acme")));
    assert_eq!(need("mcp.acme", None), None);
    assert_eq!(need("x", view.tool("x")), Some(Need::Connection("stripe")));
    assert_eq!(need("y", view.tool("y")), None);
    assert_eq!(need("registry.only", None), None);
}
