//! What an editor shows at a place: fields with the seed's words, enum
//! values with their meanings, and on steps and tools what the panels say.

use opb_core::assist::locate;
use opb_core::{Options, Syntax, analyze};

const PLAYBOOK: &str = r#"openplaybook: "1.6"
requires:
  connections:
    - provider: stripe
      authKind: oauth
      capabilities: [charge.history]
manifest:
  requiredConnectors: [stripe]
tools:
  - name: charge.history
    source: connector
    description: Lists a customer's charges.
    permissions: []
    inputSchema: {type: object}
    outputSchema: {type: object}
    riskClass: read
    sideEffecting: false
    connectorType: stripe
steps:
  - id: recover
    kind: agent
    agent: lou
    purpose: Look at the failed charge.
    allowedTools: [charge.history, customer.get]
    next: gate
  - id: gate
    kind: gate
    purpose: A person approves.
"#;

fn hover_at(needle: &str, nth: usize) -> String {
    let offset = PLAYBOOK.match_indices(needle).nth(nth).map(|(at, _)| at + 1).expect("needle in the text");
    let analysis = analyze(PLAYBOOK, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    analysis.hover(PLAYBOOK, offset).map(|h| h.markdown).unwrap_or_default()
}

#[test]
fn a_key_shows_its_field_and_the_seed_sentence() {
    let text = hover_at("riskClass", 0);
    assert!(text.starts_with("**`riskClass`**: a string"), "{text}");
    assert!(text.contains("- `money`: Moves money"), "{text}");
    let text = hover_at("allowedTools", 0);
    assert!(text.contains("a call to any name not on the executing step's list is refused"), "{text}");
}

#[test]
fn an_enum_value_shows_its_meaning() {
    assert!(hover_at("oauth", 0).contains("`authKind: oauth`: OAuth"), "{}", hover_at("oauth", 0));
    assert!(hover_at("connector\n", 0).contains("Connector tools"), "{}", hover_at("connector\n", 0));
}

#[test]
fn a_step_id_shows_its_boundary_and_a_next_the_step_it_names() {
    let text = hover_at("recover", 0);
    assert!(text.starts_with("**Step `recover`** (agent)"), "{text}");
    assert!(text.contains("charge.history"), "{text}");
    assert!(hover_at("gate\n", 0).starts_with("**Step `gate`** (gate)"), "{}", hover_at("gate\n", 0));
}

#[test]
fn an_allowed_tool_shows_its_risk_or_that_nothing_is_known() {
    let text = hover_at("charge.history", 2);
    assert!(text.contains("**Tool `charge.history`**, embedded in `tools[0]`"), "{text}");
    assert!(text.contains("Risk class `read`: Only reads data"), "{text}");
    assert!(hover_at("customer.get", 0).contains("not embedded"), "{}", hover_at("customer.get", 0));
}

#[test]
fn places_are_found_in_json_too_and_nothing_outside_the_document() {
    let text = r#"{"steps": [{"id": "a", "kind": "agent"}]}"#;
    let place = locate(text, Syntax::Json, text.find("agent").unwrap()).expect("a place");
    assert_eq!(place.tokens, ["steps", "0", "kind"]);
    assert!(!place.on_key);
    assert!(locate(text, Syntax::Json, text.find("kind").unwrap() + 1).is_some_and(|p| p.on_key));
    assert_eq!(locate("", Syntax::Json, 0), None);
}

#[test]
fn a_certain_fix_is_written_as_the_text_there_is_quoted() {
    let fixes = |text: &str, syntax| {
        opb_core::check(text, &Options { syntax: Some(syntax), ..Options::default() })
            .diagnostics
            .into_iter()
            .filter_map(|d| d.fix.map(|fix| (d.code, fix)))
            .collect::<Vec<_>>()
    };
    let json = r#"{"openplaybook": "1.6", "requires": {"connections": []}, "steps": [{"id": "triage", "kind": "gate", "next": "gaet", "Purpose": "x"}, {"id": "gate", "kind": "gate"}]}"#;
    assert_eq!(fixes(json, Syntax::Json), [("PB213", "\"gate\"".to_owned()), ("IN007", "\"purpose\"".to_owned())]);
    let yaml = "openplaybook: '1.6'\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: 'gaet'}\n  - id: gate\n    kind: gate\n    purpos: x\n";
    assert_eq!(fixes(yaml, Syntax::Yaml), [("PB213", "'gate'".to_owned()), ("IN007", "purpose".to_owned())]);
    let unknown = "openplaybook: '1.6'\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: somewhere-else}\n";
    assert!(fixes(unknown, Syntax::Yaml).is_empty(), "no fix where nothing is one small edit away");
}
