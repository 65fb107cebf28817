//! The playbook explain view: snapshots of the examples' full views (JSON),
//! and focused tests of tool resolution, gates, risk and the summaries.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::explain::boundary::{Family, ListForm, Requirement, Resolution, StepBoundary};
use opb_core::explain::requires::{Mismatch, Missing, Unused};
use opb_core::explain::{Explain, PlaybookExplain};
use opb_core::{analyze, Options, Syntax};
use std::path::Path;

fn explain_text(text: &str, syntax: Syntax) -> PlaybookExplain {
    let options = Options { syntax: Some(syntax), ..Options::default() };
    match analyze(text, &options).explain {
        Some(Explain::Playbook(explain)) => explain,
        other => panic!("expected a playbook explain view, got {other:?}"),
    }
}

fn explain_example(file: &str) -> PlaybookExplain {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    explain_text(&text, Syntax::from_path(file).unwrap())
}

fn explain_json(json: &str) -> PlaybookExplain {
    explain_text(json, Syntax::Json)
}

fn step<'e>(explain: &'e PlaybookExplain, id: &str) -> &'e StepBoundary {
    explain.steps.iter().find(|s| s.id.as_deref() == Some(id)).unwrap()
}

#[test]
fn failed_charge_recovery() {
    let explain = explain_example("failed-charge-recovery.json");
    insta::assert_snapshot!(serde_json::to_string_pretty(&explain).unwrap());
}

#[test]
fn refund_triage_broken() {
    let explain = explain_example("refund-triage.broken.yaml");
    insta::assert_snapshot!(serde_json::to_string_pretty(&explain).unwrap());
}

/// A playbook around one step's `allowedTools`, with the tools and requires
/// given.
fn with_step(step: &str, tools: &str, requires: &str) -> PlaybookExplain {
    explain_json(&format!(
        r#"{{ "openplaybook": "1.6", "requires": {requires}, "tools": [{tools}], "steps": [{step}] }}"#
    ))
}

const NO_REQUIRES: &str = r#"{ "connections": [] }"#;

#[test]
fn a_registry_only_tool_keeps_the_family_its_name_gives() {
    let explain = with_step(
        r#"{ "id": "a", "kind": "agent", "allowedTools": ["issue.create", "mcp.acme.search"] }"#,
        "",
        r#"{ "connections": [], "mcpServers": [{ "name": "acme", "toolNames": ["mcp.acme.search"] }] }"#,
    );
    let a = step(&explain, "a");
    assert_eq!(
        a.tools.iter().map(|t| t.resolution.clone()).collect::<Vec<_>>(),
        [
            Resolution::RegistryOnly {
                name: "issue.create".into(),
                family: Family::BuiltInOrConnector,
                needs: None
            },
            Resolution::RegistryOnly {
                name: "mcp.acme.search".into(),
                family: Family::Mcp,
                needs: Some(Requirement::McpServer { server: "acme".into(), declared: true }),
            },
        ]
    );
    assert!(a.risk_partly_unknown);
    assert_eq!(a.highest_risk_class, None);
    assert_eq!(
        a.summary,
        "May call issue.create and mcp.acme.search on MCP server acme, which the document does not define, \
         so only a runtime's registry can say what they do. Every other tool call is refused."
    );
}

#[test]
fn invalid_references_say_why() {
    let explain = with_step(
        r#"{ "id": "a", "kind": "agent", "allowedTools": [{ "kind": "tool", "name": "x" }, 7, "mcp.acme", "mcp..x"] }"#,
        "",
        NO_REQUIRES,
    );
    let a = step(&explain, "a");
    let reasons: Vec<(Option<&str>, &str)> = a
        .tools
        .iter()
        .map(|t| match &t.resolution {
            Resolution::Invalid { name, reason, .. } => (name.as_deref(), reason.as_str()),
            other => panic!("expected an invalid entry, got {other:?}"),
        })
        .collect();
    let malformed =
        "a name starting with mcp. must be mcp.<server>.<tool>, with both parts non-empty";
    assert_eq!(
        reasons,
        [
            (None, "the object form of a tool reference is planned, not part of today's format, where a reference is a string"),
            (None, "a tool reference is a string"),
            (Some("mcp.acme"), malformed),
            (Some("mcp..x"), malformed),
        ]
    );
    assert_eq!(a.tools[2].pointer, "/steps/0/allowedTools/2");
    assert!(!a.risk_partly_unknown, "an invalid entry grants no tool, so it adds no unknown risk");
    assert_eq!(
        a.summary,
        "May call no tool. \
         Entry 1 of allowedTools (an object) is not a valid tool name: the object form of a tool reference is planned, not part of today's format, where a reference is a string. \
         Entry 2 of allowedTools (a number) is not a valid tool name: a tool reference is a string. \
         “mcp.acme” in allowedTools is not a valid tool name: a name starting with mcp. must be mcp.<server>.<tool>, with both parts non-empty. \
         “mcp..x” in allowedTools is not a valid tool name: a name starting with mcp. must be mcp.<server>.<tool>, with both parts non-empty."
    );
}

const PAYOUT_TOOL: &str = r#"{
    "name": "payout.create", "source": "connector", "connectorType": "stripe",
    "description": "Pay a customer back.", "permissions": ["payouts:write"],
    "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" },
    "dataScopeWrites": ["payouts"], "riskClass": "money", "sideEffecting": true, "requiresApproval": true
}"#;

const LOOKUP_TOOL: &str = r#"{
    "name": "customer.get", "source": "primitive", "description": "Read one customer.",
    "permissions": [], "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" },
    "dataScopeResources": ["customers"], "riskClass": "read", "sideEffecting": false
}"#;

const STRIPE_REQUIRED: &str = r#"{ "connections": [{ "provider": "stripe", "authKind": "oauth", "capabilities": ["payout.create"] }] }"#;

fn playbook(requires: &str, tools: &[&str], steps: &str) -> PlaybookExplain {
    explain_json(&format!(
        r#"{{ "openplaybook": "1.6", "manifest": {{ "requiredConnectors": ["stripe"] }}, "requires": {requires},
             "tools": [{}], "steps": {steps} }}"#,
        tools.join(",")
    ))
}

#[test]
fn a_money_tool_behind_a_gate() {
    let explain = playbook(
        STRIPE_REQUIRED,
        &[LOOKUP_TOOL, PAYOUT_TOOL],
        r#"[
            { "id": "look", "kind": "agent", "agent": "lou", "purpose": "Look.", "allowedTools": ["customer.get"], "next": ["approve", "done"] },
            { "id": "approve", "kind": "gate", "purpose": "A person decides.", "next": { "approved": "pay", "rejected": "done" } },
            { "id": "pay", "kind": "agent", "agent": "lou", "purpose": "Pay.", "allowedTools": ["customer.get", "payout.create"], "next": "done" },
            { "id": "done", "kind": "agent", "agent": "lou", "purpose": "Close.", "allowedTools": [] }
        ]"#,
    );
    let pay = step(&explain, "pay");
    assert_eq!(pay.highest_risk_class.as_deref(), Some("money"));
    assert_eq!(pay.highest_risk_rank, Some(3));
    assert!(!pay.risk_partly_unknown);
    assert_eq!(pay.gated_by.len(), 1);
    assert_eq!(pay.gated_by[0].gate, "approve");
    assert_eq!(pay.gated_by[0].labels, ["approved"]);
    assert!(pay.entered_from.is_empty());
    let Resolution::Embedded { tool, facts } = &pay.tools[1].resolution else {
        panic!("payout.create is embedded")
    };
    assert_eq!(*tool, 1);
    assert_eq!(facts.family, Family::Connector);
    assert_eq!(
        facts.needs,
        Some(Requirement::Connection { provider: "stripe".into(), declared: true })
    );
    assert_eq!(
        pay.summary,
        "Can read customers (customer.get); may write to payouts via Stripe (payout.create) after a person approves each call. \
         Every other tool call is refused. \
         Reached only from the gate “approve” (on “approved”), so a person decides right before it runs."
    );

    assert!(pay.behind_gate);

    let done = step(&explain, "done");
    assert_eq!(done.entered_from, ["look", "pay"]);
    assert!(!done.behind_gate, "look leads to done directly");
    assert_eq!(
        done.summary,
        "May call no tool: its allowedTools list is empty. \
         Reached from the gate “approve” (on “rejected”) and from “look” and “pay”; \
         some path to it passes no gate, so it can run without a person deciding."
    );
    assert_eq!(
        step(&explain, "approve").summary,
        "Waits for a person to decide before the playbook goes on."
    );
    assert!(step(&explain, "look").gated_by.is_empty());

    let payout = &explain.tools[1];
    assert_eq!(payout.allowed_by, ["pay"]);
    assert_eq!(explain.tools[0].allowed_by, ["look", "pay"]);
}

/// A step entered from few steps and one entered from many (whose entries
/// are hashed rather than compared) list each step and label once, in
/// order; so do a short and a long `allowedTools` in a summary.
#[test]
fn many_entries_read_like_few() {
    for senders in [2, 20] {
        let mut steps = vec![
            r#"{ "id": "gate", "kind": "gate", "next": { "yes": "end", "also": "end", "again": "end", "no": "first" } }"#.to_owned(),
            r#"{ "id": "first", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": [], "next": ["end", "end", "gate"] }"#
                .to_owned(),
        ];
        let tools: Vec<String> =
            (0..senders).flat_map(|_| ["\"customer.get\"", "\"x.y\""]).map(str::to_owned).collect();
        for s in 0..senders {
            steps.push(format!(
                r#"{{ "id": "s{s}", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": [{}], "next": "end" }}"#,
                tools.join(", ")
            ));
        }
        steps.push(r#"{ "id": "end", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": [] }"#.to_owned());
        let explain = playbook(STRIPE_REQUIRED, &[LOOKUP_TOOL], &format!("[{}]", steps.join(",")));
        let end = step(&explain, "end");
        let expected: Vec<String> =
            ["first".to_owned()].into_iter().chain((0..senders).map(|s| format!("s{s}"))).collect();
        assert_eq!(end.entered_from, expected);
        assert_eq!(end.gated_by.len(), 1);
        assert_eq!(end.gated_by[0].labels, ["yes", "also", "again"]);
        assert_eq!(step(&explain, "first").gated_by[0].labels, ["no"]);
        assert!(
            step(&explain, "s0").summary.starts_with(
                "Can read customers (customer.get); may also call x.y, which the document does not define, so only a runtime's registry can say what it does. \
                 Every other tool call is refused."
            ),
            "{senders}: {}",
            step(&explain, "s0").summary
        );
    }
}

#[test]
fn a_repeated_step_id_allows_a_tool_once() {
    let explain = playbook(
        STRIPE_REQUIRED,
        &[LOOKUP_TOOL],
        r#"[
            { "id": "look", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": ["customer.get"], "next": "other" },
            { "id": "other", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": ["customer.get"], "next": "look" },
            { "id": "look", "kind": "agent", "agent": "a", "purpose": "P.", "allowedTools": ["customer.get", "customer.get"] }
        ]"#,
    );
    assert_eq!(explain.tools[0].allowed_by, ["look", "other"]);
}

#[test]
fn summaries_say_what_the_document_leaves_unknown() {
    let undeclared = r#"{ "name": "notes.sync", "source": "primitive", "description": "Sync the notes.", "permissions": [],
        "inputSchema": {}, "outputSchema": {} }"#;
    let unscoped_write = r#"{ "name": "refund.create", "source": "connector", "connectorType": "stripe",
        "description": "Refund a charge.", "permissions": [], "inputSchema": {}, "outputSchema": {},
        "riskClass": "money", "sideEffecting": true }"#;
    let unscoped_read = r#"{ "name": "mcp.acme.search_orders", "source": "mcp", "description": "Search the orders.",
        "permissions": [], "inputSchema": {}, "outputSchema": {}, "riskClass": "read", "sideEffecting": false }"#;
    let explain = playbook(
        r#"{ "connections": [{ "provider": "stripe", "authKind": "oauth", "capabilities": ["refund.create"] }],
             "mcpServers": [{ "name": "acme", "toolNames": ["mcp.acme.search_orders"] }] }"#,
        &[LOOKUP_TOOL, undeclared, unscoped_write, unscoped_read],
        r#"[
            { "id": "a", "kind": "agent", "allowedTools": ["customer.get", "mcp.acme.search_orders", "refund.create", "notes.sync", "refund.create"] },
            { "id": "b", "kind": "agent" },
            { "id": "c", "kind": "agent", "allowedTools": "customer.get" },
            { "id": "d", "kind": "review", "allowedTools": ["customer.get"] },
            { "id": "e", "allowedTools": ["notes.sync"] },
            { "id": "f", "kind": "gate", "allowedTools": ["customer.get"] }
        ]"#,
    );
    assert_eq!(
        step(&explain, "a").summary,
        "Can read customers (customer.get), and read data with mcp.acme.search_orders on MCP server acme (“Search the orders”); \
         may change data with refund.create via Stripe (“Refund a charge”) without a person's approval; \
         may call notes.sync (“Sync the notes”), whose side effects the document does not declare. \
         Every other tool call is refused."
    );
    assert_eq!(step(&explain, "a").highest_risk_class.as_deref(), Some("money"));
    assert!(step(&explain, "a").risk_partly_unknown, "notes.sync declares no riskClass");
    assert_eq!(step(&explain, "b").allowed_tools, ListForm::Absent);
    assert_eq!(step(&explain, "b").summary, "May call no tool: it has no allowedTools.");
    assert_eq!(step(&explain, "c").allowed_tools, ListForm::NotAList);
    assert_eq!(
        step(&explain, "c").summary,
        "Its allowedTools is not a list, so this reader cannot say which tools it may call."
    );
    assert_eq!(
        step(&explain, "d").summary,
        "Is of kind “review”, which this reader does not know, so it cannot say what the step does. \
         Can read customers (customer.get). Every other tool call is refused."
    );
    assert_eq!(
        step(&explain, "e").summary,
        "Has no kind, so this reader cannot say what the step does. \
         May call notes.sync (“Sync the notes”), whose side effects the document does not declare. \
         Every other tool call is refused."
    );
    assert_eq!(
        step(&explain, "f").summary,
        "Waits for a person to decide before the playbook goes on. \
         It lists allowedTools, but only an agent step calls tools."
    );
}

#[test]
fn long_descriptions_are_cut_at_a_word() {
    let wordy = format!(
        r#"{{ "name": "x.run", "source": "primitive", "description": "{}", "permissions": [], "inputSchema": {{}},
             "outputSchema": {{}}, "sideEffecting": false }}"#,
        "Look things up  in\\nthe archive. ".repeat(20)
    );
    let explain = with_step(
        r#"{ "id": "a", "kind": "agent", "allowedTools": ["x.run"] }"#,
        &wordy,
        NO_REQUIRES,
    );
    let summary = &step(&explain, "a").summary;
    let quoted = summary.split('“').nth(1).and_then(|rest| rest.split('”').next()).unwrap();
    assert!(quoted.ends_with('…'), "{summary}");
    assert!(quoted.chars().count() <= 121, "{summary}");
    assert!(
        quoted.starts_with("Look things up in the archive. Look"),
        "whitespace is collapsed: {summary}"
    );
}

#[test]
fn requires_cross_references_agree_with_the_tools() {
    let explain = playbook(
        r#"{ "connections": [
                { "provider": "stripe", "authKind": "oauth", "capabilities": ["customer.get"] },
                { "provider": "slack", "authKind": "oauth" } ],
             "mcpServers": [{ "name": "idle", "toolNames": ["mcp.other.x"] }],
             "secrets": [{ "name": "TOKEN", "purpose": "auth for MCP server \"idle\"" }] }"#,
        &[LOOKUP_TOOL, PAYOUT_TOOL],
        r#"[{ "id": "a", "kind": "agent", "allowedTools": ["payout.create", "mcp.ghost.run"] }]"#,
    );
    let requires = &explain.requires;
    assert_eq!(requires.connections[0].tools, ["payout.create"]);
    assert_eq!(requires.connections[0].steps, ["a"]);
    assert!(requires.connections[0].required);
    assert!(!requires.connections[1].required);
    assert_eq!(requires.secrets[0].name.as_deref(), Some("TOKEN"));
    assert_eq!(
        requires.missing,
        [Missing::McpServer {
            server: "ghost".into(),
            tools: vec!["mcp.ghost.run".into()],
            steps: vec!["a".into()]
        }]
    );
    assert_eq!(
        requires.unused,
        [
            Unused::Connection { provider: "slack".into() },
            Unused::McpServer { server: "idle".into() }
        ]
    );
    assert_eq!(
        requires.mismatched,
        [
            Mismatch::ConnectionNotRequired { provider: "slack".into() },
            Mismatch::CapabilityUnknown {
                provider: Some("stripe".into()),
                capability: "customer.get".into(),
                embedded: true,
                tool_provider: None,
            },
            Mismatch::CapabilityUnlisted {
                provider: "stripe".into(),
                tool: "payout.create".into(),
                steps: vec!["a".into()]
            },
            Mismatch::ToolNameForeign { server: "idle".into(), tool_name: "mcp.other.x".into() },
        ]
    );
}

#[test]
fn error_diagnostics_mark_their_step_and_tool() {
    // A duplicate key (IN005, an error) inside step 1 and inside tool 0.
    let explain = explain_json(
        r#"{ "openplaybook": "1.6", "requires": { "connections": [] },
             "tools": [{ "name": "t", "name": "u", "source": "primitive", "description": "T.", "permissions": [],
                         "inputSchema": {}, "outputSchema": {} }],
             "steps": [{ "id": "a", "kind": "agent", "next": "b" },
                       { "id": "b", "kind": "agent", "purpose": "B.", "purpose": "Again." }] }"#,
    );
    assert_eq!(explain.steps.iter().map(|s| s.errors).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(explain.tools[0].errors, 1);
}

#[test]
fn metadata_says_when_the_version_is_assumed() {
    let explain = explain_text("id: x\nname: X\nsteps: [{ id: a, kind: agent }]\n", Syntax::Yaml);
    assert_eq!(explain.document.id.as_deref(), Some("x"));
    assert_eq!(explain.document.version, None);
    assert!(explain.document.version_assumed);
    let explain =
        explain_text("openplaybook: 1.6\nsteps: [{ id: a, kind: agent }]\n", Syntax::Yaml);
    assert_eq!(explain.document.version.as_deref(), Some("1.6"));
    assert!(!explain.document.version_assumed);
}

#[test]
fn a_missing_connection_is_listed_once_per_provider() {
    let issue = r#"{ "name": "issue.create", "source": "connector", "connectorType": "linear", "description": "File an issue.",
        "permissions": [], "inputSchema": {}, "outputSchema": {}, "riskClass": "internal", "sideEffecting": true }"#;
    let message = r#"{ "name": "chat.post", "source": "connector", "connectorType": "slack", "description": "Post a message.",
        "permissions": [], "inputSchema": {}, "outputSchema": {}, "riskClass": "internal", "sideEffecting": true }"#;
    let explain = explain_json(&format!(
        r#"{{ "manifest": {{ "requiredConnectors": ["linear", "gusto"] }}, "requires": {{ "connections": [] }},
             "tools": [{issue}, {message}],
             "steps": [{{ "id": "a", "kind": "agent", "allowedTools": ["issue.create", "chat.post"] }},
                       {{ "id": "b", "kind": "agent", "allowedTools": ["issue.create"] }}] }}"#
    ));
    let connection = |provider: &str, tools: &[&str], steps: &[&str]| Missing::Connection {
        provider: provider.into(),
        tools: tools.iter().map(|t| (*t).to_owned()).collect(),
        steps: steps.iter().map(|s| (*s).into()).collect(),
    };
    assert_eq!(
        explain.requires.missing,
        [
            connection("linear", &["issue.create"], &["a", "b"]),
            connection("slack", &["chat.post"], &["a"]),
            Missing::RequiredConnection { provider: "gusto".into() },
        ]
    );
    assert_eq!(explain.requires.required_connectors, ["linear", "gusto"]);
    let a = step(&explain, "a");
    let Resolution::Embedded { facts, .. } = &a.tools[0].resolution else {
        panic!("issue.create is embedded")
    };
    assert_eq!(
        facts.needs,
        Some(Requirement::Connection { provider: "linear".into(), declared: false })
    );
}

#[test]
fn a_step_entry_carries_a_bounded_digest_of_its_tool() {
    let huge = r#"{ "name": "huge.read", "source": "primitive", "description": "DESCRIPTION", "permissions": ["p"],
        "inputSchema": {}, "outputSchema": {}, "riskClass": "not-a-class", "sideEffecting": false }"#
        .replace("DESCRIPTION", &"Look it up. ".repeat(10_000));
    let explain = with_step(
        r#"{ "id": "a", "kind": "agent", "allowedTools": ["huge.read"] }"#,
        &huge,
        NO_REQUIRES,
    );
    let entry = serde_json::to_value(&step(&explain, "a").tools[0]).unwrap();
    assert_eq!(entry["resolution"], "embedded");
    assert_eq!(entry["tool"], 0);
    assert_eq!(entry["name"], "huge.read");
    assert_eq!(
        entry["risk_class"],
        serde_json::Value::Null,
        "a value the seed does not know is left to the tool's entry"
    );
    assert!(entry.get("description").is_none() && entry.get("permissions").is_none());
    // The Rust view still reaches every fact, shared with the tool's entry.
    let Resolution::Embedded { facts, .. } = &step(&explain, "a").tools[0].resolution else {
        panic!("embedded")
    };
    assert_eq!(facts.permissions, ["p"]);
    assert_eq!(facts.risk_class.as_deref(), Some("not-a-class"));
    let tool = serde_json::to_value(&explain.tools[0]).unwrap();
    assert!(tool["description"].as_str().is_some_and(|d| d.len() > 100_000));
    assert!(step(&explain, "a").summary.len() < 400, "{}", step(&explain, "a").summary);
}

#[test]
fn a_repeated_provider_or_server_lists_its_uses_once() {
    let explain = playbook(
        r#"{ "connections": [
                { "provider": "stripe", "authKind": "oauth", "capabilities": ["payout.create"] },
                { "provider": "stripe", "authKind": "api_token" } ],
             "mcpServers": [{ "name": "acme", "toolNames": ["mcp.acme.x"] }, { "name": "acme" }] }"#,
        &[PAYOUT_TOOL],
        r#"[{ "id": "a", "kind": "agent", "allowedTools": ["payout.create", "mcp.acme.x"] }]"#,
    );
    let requires = &explain.requires;
    assert_eq!(
        (requires.connections[0].duplicate, requires.connections[1].duplicate),
        (false, true)
    );
    assert_eq!(requires.connections[0].tools, ["payout.create"]);
    assert!(requires.connections[1].tools.is_empty() && requires.connections[1].steps.is_empty());
    assert_eq!(
        (requires.mcp_servers[0].duplicate, requires.mcp_servers[1].duplicate),
        (false, true)
    );
    assert_eq!(requires.mcp_servers[0].tools.len(), 1);
    assert!(requires.mcp_servers[1].tools.is_empty());
    assert!(
        requires.unused.is_empty(),
        "a duplicate is PB404's or PB412's, not unused: {:?}",
        requires.unused
    );
}

fn explain_rule_fixture(file: &str) -> PlaybookExplain {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    explain_text(&text, Syntax::from_path(file).unwrap())
}

#[test]
fn a_step_with_no_person_deciding_says_so_in_the_words_of_its_class() {
    let money = explain_rule_fixture("PB220.bad.yaml");
    let refund = step(&money, "quick_refund");
    assert_eq!(refund.unsupervised_classes(), ["money"]);
    assert_eq!(
        refund.no_person_decides().as_deref(),
        Some("No person decides before this step can move money")
    );
    assert_eq!(
        refund.unsupervised_sentence().as_deref(),
        Some("No person decides before this step can move money: it may call `refund.create`, which asks for no approval, and the start reaches it with no gate on the way.")
    );
    // Behind the gate, and a tool a person approves: no words at all.
    for id in ["send", "gate", "recover", "record"] {
        let other = step(&money, id);
        assert_eq!(
            (other.no_person_decides(), other.unsupervised_sentence()),
            (None, None),
            "{id}"
        );
    }

    let comms = explain_rule_fixture("PB221.bad.yaml");
    assert_eq!(
        step(&comms, "send").no_person_decides().as_deref(),
        Some("No person decides before this step can write to customers")
    );
    assert!(step(&explain_rule_fixture("PB220.good.yaml"), "quick_refund")
        .unsupervised_sentence()
        .is_none());
}

#[test]
fn the_legend_names_every_class_a_person_should_decide_before() {
    use opb_core::explain::boundary::{no_person_decides, supervised_classes};
    assert_eq!(supervised_classes().collect::<Vec<_>>(), ["money", "customer_comms"]);
    assert_eq!(
        no_person_decides(supervised_classes()),
        "No person decides before this step can move money or write to customers"
    );
}
