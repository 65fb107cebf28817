//! What an editor shows at a place: fields with the seed's words, enum
//! values with their meanings, and on steps and tools what the panels say.

use opb_core::assist::locate;
use opb_core::{analyze, Options, Syntax};

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
    let offset =
        PLAYBOOK.match_indices(needle).nth(nth).map(|(at, _)| at + 1).expect("needle in the text");
    let analysis = analyze(PLAYBOOK, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    analysis.hover(PLAYBOOK, offset).map(|h| h.markdown).unwrap_or_default()
}

#[test]
fn a_key_shows_its_field_and_the_seed_sentence() {
    let text = hover_at("riskClass", 0);
    assert!(text.starts_with("**`riskClass`**: a string"), "{text}");
    assert!(text.contains("- `money`: Moves money"), "{text}");
    let text = hover_at("allowedTools", 0);
    assert!(
        text.contains("a call to any name not on the executing step's list is refused"),
        "{text}"
    );
}

#[test]
fn an_enum_value_shows_its_meaning() {
    assert!(hover_at("oauth", 0).contains("`authKind: oauth`: OAuth"), "{}", hover_at("oauth", 0));
    assert!(
        hover_at("connector\n", 0).contains("Connector tools"),
        "{}",
        hover_at("connector\n", 0)
    );
}

#[test]
fn a_step_id_shows_its_boundary_and_a_next_the_step_it_names() {
    let text = hover_at("recover", 0);
    assert!(text.starts_with("**Step `recover`** (agent)"), "{text}");
    assert!(text.contains(r"charge\.history"), "{text}");
    assert!(
        hover_at("gate\n", 0).starts_with("**Step `gate`** (gate)"),
        "{}",
        hover_at("gate\n", 0)
    );
}

#[test]
fn an_allowed_tool_shows_its_risk_or_that_nothing_is_known() {
    let text = hover_at("charge.history", 2);
    assert!(text.contains("**Tool `charge.history`**, embedded in `tools[0]`"), "{text}");
    assert!(text.contains("Risk class `read`: Only reads data"), "{text}");
    assert!(
        hover_at("customer.get", 0).contains("not embedded"),
        "{}",
        hover_at("customer.get", 0)
    );
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
    assert_eq!(
        fixes(json, Syntax::Json),
        [("PB213", "\"gate\"".to_owned()), ("IN007", "\"purpose\"".to_owned())]
    );
    let yaml = "openplaybook: '1.6'\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: 'gaet'}\n  - id: gate\n    kind: gate\n    purpos: x\n";
    assert_eq!(
        fixes(yaml, Syntax::Yaml),
        [("PB213", "'gate'".to_owned()), ("IN007", "purpose".to_owned())]
    );
    let unknown = "openplaybook: '1.6'\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: somewhere-else}\n";
    assert!(fixes(unknown, Syntax::Yaml).is_empty(), "no fix where nothing is one small edit away");
}

mod completion {
    //! Completion while typing: the text around the cursor rarely parses.

    use super::PLAYBOOK;
    use opb_core::assist::{complete, Completions};
    use opb_core::{Kind, Syntax};

    /// The completions where `‸` is in `text` (the marker taken out).
    fn at(kind: Kind, syntax: Syntax, text: &str) -> (String, Option<Completions>) {
        let offset = text.find('‸').expect("a cursor marker");
        let text = text.replacen('‸', "", 1);
        let completions = complete(kind, syntax, &text, offset);
        (text, completions)
    }

    fn labels(completions: &Option<Completions>) -> Vec<&str> {
        completions.iter().flat_map(|c| &c.items).map(|i| i.label.as_str()).collect()
    }

    /// The text after choosing the item labelled `label`.
    fn chosen(text: &str, completions: &Completions, label: &str) -> String {
        let item = completions
            .items
            .iter()
            .find(|i| i.label == label)
            .unwrap_or_else(|| panic!("{label} offered"));
        format!("{}{}{}", &text[..completions.from], item.insert, &text[completions.to..])
    }

    fn playbook_with(line_after: &str, typed: &str) -> String {
        let at = PLAYBOOK.find(line_after).expect("the line") + line_after.len();
        format!("{}{typed}‸\n{}", &PLAYBOOK[..at], &PLAYBOOK[at..])
    }

    #[test]
    fn a_half_typed_yaml_key_in_a_tool_is_offered_the_tool_fields_it_lacks() {
        let text = PLAYBOOK.replace("    riskClass: read\n", "");
        let text = playbook_with_in(&text, "    sideEffecting: false\n", "    ris");
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, &text);
        let offered = labels(&completions);
        assert!(offered.contains(&"riskClass"), "{offered:?}");
        // Keys the tool already has, above and below the cursor, are not offered.
        assert!(
            !offered.contains(&"name")
                && !offered.contains(&"connectorType")
                && !offered.contains(&"source"),
            "{offered:?}"
        );
        let completions = completions.expect("completions");
        let item = completions.items.iter().find(|i| i.label == "riskClass").expect("riskClass");
        assert!(item.is_key);
        assert_eq!(item.detail, "string");
        assert!(item.info.starts_with("**`riskClass`**: a string"), "{}", item.info);
        assert!(item.info.contains("- `money`: Moves money"), "{}", item.info);
        let after = chosen(&text, &completions, "riskClass");
        assert!(
            after.contains(
                "\n    sideEffecting: false\n    riskClass: \n    connectorType: stripe\n"
            ),
            "{after}"
        );
    }

    fn playbook_with_in(text: &str, line_after: &str, typed: &str) -> String {
        let at = text.find(line_after).expect("the line") + line_after.len();
        format!("{}{typed}‸\n{}", &text[..at], &text[at..])
    }

    #[test]
    fn an_empty_yaml_value_is_offered_its_enumeration_with_meanings() {
        let text = PLAYBOOK.replace("    riskClass: read\n", "    riskClass: ‸\n");
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, &text);
        assert_eq!(labels(&completions), ["read", "internal", "customer_comms", "money"]);
        let completions = completions.expect("completions");
        let money = completions.items.iter().find(|i| i.label == "money").expect("money");
        assert!(!money.is_key);
        assert!(money.info.starts_with("`riskClass: money`: Moves money"), "{}", money.info);
        assert!(chosen(&text, &completions, "money").contains("\n    riskClass: money\n"));
        // Right after the colon, the value gets its space; a half-typed one is replaced.
        let (text, completions) =
            at(Kind::Playbook, Syntax::Yaml, &PLAYBOOK.replace("riskClass: read", "riskClass:‸"));
        assert!(chosen(&text, &completions.expect("completions"), "read")
            .contains("\n    riskClass: read\n"));
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Yaml,
            &PLAYBOOK.replace("riskClass: read", "riskClass: \"mo‸"),
        );
        assert!(chosen(&text, &completions.expect("completions"), "money")
            .contains("\n    riskClass: \"money\"\n"));
        let (_, completions) = at(
            Kind::Playbook,
            Syntax::Yaml,
            &PLAYBOOK.replace("authKind: oauth", "authKind: oa‸uth"),
        );
        assert_eq!(
            completions.as_ref().map(|c| c.to - c.from),
            Some("oauth".len()),
            "the whole word is replaced"
        );
        assert!(labels(&completions).contains(&"oauth"));
    }

    #[test]
    fn yaml_keys_of_steps_items_and_the_top_level() {
        let text = playbook_with("    purpose: A person approves.\n", "    ne");
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, &text);
        let offered = labels(&completions);
        assert!(offered.contains(&"next") && offered.contains(&"allowedTools"), "{offered:?}");
        assert!(!offered.contains(&"kind") && !offered.contains(&"purpose"), "{offered:?}");
        assert!(
            chosen(&text, &completions.expect("completions"), "next").contains("\n    next: \n")
        );
        // A new item of the list: `- ` then the key.
        let (_, completions) = at(Kind::Playbook, Syntax::Yaml, &format!("{PLAYBOOK}  - ‸"));
        assert!(labels(&completions).contains(&"id"), "{:?}", labels(&completions));
        // Back at the left: the top-level keys the document lacks.
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, &format!("{PLAYBOOK}st‸"));
        let offered = labels(&completions);
        assert!(
            offered.contains(&"start")
                && !offered.contains(&"steps")
                && !offered.contains(&"tools"),
            "{offered:?}"
        );
        assert!(chosen(&text, &completions.expect("completions"), "start").ends_with("\nstart: "));
        // A key holding a list opens it on the next line.
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, "openplaybook: \"1.6\"\nste‸");
        assert_eq!(
            chosen(&text, &completions.expect("completions"), "steps"),
            "openplaybook: \"1.6\"\nsteps:\n  - "
        );
        // A nested object: requires' connections' items.
        let (_, completions) = at(
            Kind::Playbook,
            Syntax::Yaml,
            &PLAYBOOK.replace("      authKind: oauth\n", "      au‸\n"),
        );
        assert!(
            labels(&completions).contains(&"authKind")
                && !labels(&completions).contains(&"provider")
        );
        let (_, completions) = at(
            Kind::Playbook,
            Syntax::Yaml,
            &PLAYBOOK.replace("      authKind: oauth\n", "      authKind: ‸\n"),
        );
        assert!(labels(&completions).contains(&"oauth"), "{:?}", labels(&completions));
    }

    #[test]
    fn yaml_lists_at_their_keys_column_and_quoted_keys() {
        let text = "openplaybook: \"1.6\"\nsteps:\n- id: a\n  kind: agent\n\n  # a comment\n  ne‸\n- id: b\nst";
        let (_, completions) = at(Kind::Playbook, Syntax::Yaml, text);
        let offered = labels(&completions);
        assert!(
            offered.contains(&"next") && !offered.contains(&"kind") && !offered.contains(&"id"),
            "{offered:?}"
        );
        let text = "steps:\n- id: a\nsta‸\n";
        let (_, completions) = at(Kind::Playbook, Syntax::Yaml, text);
        let offered = labels(&completions);
        assert!(offered.contains(&"start") && !offered.contains(&"steps"), "{offered:?}");
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, "\"ste‸\": []\n");
        assert_eq!(chosen(&text, &completions.expect("completions"), "steps"), "\"steps\": []\n");
        let (text, completions) = at(Kind::Playbook, Syntax::Yaml, "'ste‸\n");
        assert_eq!(chosen(&text, &completions.expect("completions"), "steps"), "'steps':\n  - \n");
    }

    #[test]
    fn nothing_is_offered_where_no_table_reaches_or_nothing_is_typed() {
        // A list of names, a comment, a block scalar's text, a step's free text.
        for text in [
            PLAYBOOK.replace(
                "allowedTools: [charge.history, customer.get]",
                "allowedTools:\n      - char‸",
            ),
            PLAYBOOK.replace("riskClass: read", "riskClass: read # ri‸"),
            PLAYBOOK.replace("purpose: A person approves.", "purpose: |\n      A person ‸"),
            PLAYBOOK.replace("purpose: A person approves.", "purpose: A per‸"),
            PLAYBOOK.replace("    inputSchema: {type: object}\n", "    inputSchema:\n      ty‸\n"),
        ] {
            let (_, completions) = at(Kind::Playbook, Syntax::Yaml, &text);
            assert_eq!(completions, None, "{text}");
        }
    }

    #[test]
    fn a_manifest_in_yaml() {
        let manifest =
            "name: acme\ntools:\n  - id: acme.run\n    runs: oci:ghcr.io/acme/run\n    ‸\n";
        let (_, completions) = at(Kind::PluginManifest, Syntax::Yaml, manifest);
        let offered = labels(&completions);
        assert!(
            offered.contains(&"isolation")
                && offered.contains(&"sandbox")
                && !offered.contains(&"id"),
            "{offered:?}"
        );
        let (_, completions) =
            at(Kind::PluginManifest, Syntax::Yaml, &manifest.replace("    ‸", "    isolation: ‸"));
        assert_eq!(labels(&completions), ["gvisor", "microvm"]);
        let (_, completions) =
            at(Kind::PluginManifest, Syntax::Yaml, &manifest.replace("    ‸", "    affinity: ‸"));
        assert_eq!(labels(&completions), ["node", "any"]);
    }

    const JSON: &str = r#"{
  "openplaybook": "1.6",
  "tools": [
    {"name": "charge.history", "source": "connector", "riskClass": "read"},
    {
      "name": "refund.create",
      "source": "connector"
    }
  ],
  "steps": [{"id": "look", "kind": "agent", "allowedTools": ["charge.history"]}]
}
"#;

    #[test]
    fn json_keys_while_typing_a_quoted_key() {
        let text = JSON.replace(
            "      \"source\": \"connector\"\n",
            "      \"source\": \"connector\",\n      \"ris‸\n",
        );
        let (text, completions) = at(Kind::Playbook, Syntax::Json, &text);
        let offered = labels(&completions);
        assert!(
            offered.contains(&"riskClass")
                && !offered.contains(&"name")
                && !offered.contains(&"source"),
            "{offered:?}"
        );
        assert!(chosen(&text, &completions.expect("completions"), "riskClass")
            .contains("\n      \"riskClass\": \n"));
        // An empty pair of quotes, and no quote yet.
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace(
                "\"source\": \"connector\"\n",
                "\"source\": \"connector\",\n      \"‸\"\n",
            ),
        );
        assert!(chosen(&text, &completions.expect("completions"), "riskClass")
            .contains("\n      \"riskClass\": \n"));
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON
                .replace("\"source\": \"connector\"\n", "\"source\": \"connector\",\n      ris‸\n"),
        );
        assert!(chosen(&text, &completions.expect("completions"), "riskClass")
            .contains("\n      \"riskClass\": \n"));
        // Keys after the cursor count too; a key being edited keeps its colon.
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace("{\"name\": \"charge", "{\"na‸me\": \"charge"),
        );
        let completions = completions.expect("completions");
        assert!(!labels(&Some(completions.clone())).contains(&"riskClass"));
        assert!(chosen(&text, &completions, "name").contains("{\"name\": \"charge.history\""));
        // The top level and a step.
        let (_, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace("\"openplaybook\"", "\"st‸\", \"openplaybook\""),
        );
        assert!(
            labels(&completions).contains(&"start") && !labels(&completions).contains(&"steps")
        );
        let (_, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace("\"kind\": \"agent\"", "\"kind\": \"agent\", \"‸"),
        );
        assert!(labels(&completions).contains(&"next") && !labels(&completions).contains(&"id"));
    }

    #[test]
    fn json_values() {
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace("\"riskClass\": \"read\"", "\"riskClass\": ‸"),
        );
        assert_eq!(labels(&completions), ["read", "internal", "customer_comms", "money"]);
        assert!(chosen(&text, &completions.expect("completions"), "money")
            .contains("\"riskClass\": \"money\"}"));
        let (text, completions) = at(
            Kind::Playbook,
            Syntax::Json,
            &JSON.replace("\"riskClass\": \"read\"", "\"riskClass\": \"r‸ead\""),
        );
        assert!(chosen(&text, &completions.expect("completions"), "internal")
            .contains("\"riskClass\": \"internal\"}"));
        let (_, completions) =
            at(Kind::Playbook, Syntax::Json, &JSON.replace("\"kind\": \"agent\"", "\"kind\": \"‸"));
        assert!(labels(&completions).contains(&"gate"), "{:?}", labels(&completions));
        // Not a value of an enumeration, not after a value, not after a closed string.
        for text in [
            JSON.replace("\"id\": \"look\"", "\"id\": \"lo‸"),
            JSON.replace("\"riskClass\": \"read\"", "\"riskClass\": \"read\" ‸"),
            JSON.replace("\"riskClass\": \"read\"", "\"riskClass\"‸: \"read\""),
            JSON.replace("[\"charge.history\"]", "[\"ch‸"),
        ] {
            assert_eq!(at(Kind::Playbook, Syntax::Json, &text).1, None, "{text}");
        }
    }

    #[test]
    fn a_manifest_in_json_and_a_flow_mapping_from_the_parsed_text() {
        let manifest =
            "{\"name\": \"acme\", \"tools\": [{\"id\": \"acme.run\", \"sandbox\": \"‸\"}]}";
        assert_eq!(labels(&at(Kind::PluginManifest, Syntax::Json, manifest).1), ["own", "host"]);
        let yaml = "requires:\n  connections:\n    - {provider: stripe, authKind: oa‸}\n";
        assert!(labels(&at(Kind::Playbook, Syntax::Yaml, yaml).1).contains(&"oauth"));
    }

    #[test]
    fn any_offset_of_any_text_is_answered_without_a_panic() {
        let texts = [
            PLAYBOOK.to_owned(),
            JSON.to_owned(),
            "é: \"😀\"\n  - -\n-\n\"a\n{\"\\".to_owned(),
            "\u{feff}st".to_owned(),
            String::new(),
        ];
        for text in &texts {
            for syntax in [Syntax::Json, Syntax::Yaml] {
                for kind in [Kind::Playbook, Kind::PluginManifest] {
                    for offset in 0..=text.len() + 2 {
                        let _ = complete(kind, syntax, text, offset);
                    }
                }
            }
        }
        // A byte order mark is not part of the first key.
        assert!(labels(&complete(Kind::Playbook, Syntax::Yaml, "\u{feff}st", 5)).contains(&"steps"));
        // An offset inside a character counts as its start.
        assert!(labels(&complete(Kind::Playbook, Syntax::Yaml, "st😀", 4)).contains(&"steps"));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config { cases: 2000, ..Default::default() })]

    /// Completion answers any text of JSON's and YAML's punctuation at any
    /// offset, inside characters and past the end included, without a panic.
    #[test]
    fn completion_never_panics(text in "[a-z \"'{}\\[\\]:,#\\-\n\t\r\\\\é😀]{0,120}", offset in 0usize..140) {
        for syntax in [opb_core::Syntax::Json, opb_core::Syntax::Yaml] {
            for kind in [opb_core::Kind::Playbook, opb_core::Kind::PluginManifest] {
                if let Some(found) = opb_core::assist::complete(kind, syntax, &text, offset) {
                    proptest::prop_assert!(found.from <= found.to && found.to <= text.len());
                    proptest::prop_assert!(text.is_char_boundary(found.from) && text.is_char_boundary(found.to));
                }
            }
        }
    }
}

#[test]
fn document_text_in_a_hover_is_text_not_markup() {
    let text = PLAYBOOK
        .replace("id: recover", "id: \"re`cover`![](https://x.example/id.png)\"")
        .replace(
            "purpose: Look at the failed charge.",
            "purpose: \"![](https://x.example/a.png) [click](https://x.example) <img src=x onerror=alert(1)>\\n\\n# Heading\\n<script>\"",
        )
        .replace("description: Lists a customer's charges.", "description: \"**bold** <b>html</b> www.x.example\"");
    let analysis = analyze(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let hover = |needle: &str| {
        let offset = text.find(needle).expect("needle") + 1;
        analysis.hover(&text, offset).map(|h| h.markdown).expect("a hover")
    };
    let step = hover("re`cover");
    assert!(step.starts_with("**Step ``re`cover`![](https://x.example/id.png)``**"), "{step}");
    let purpose = step.split("Purpose: ").nth(1).expect("the purpose");
    assert_eq!(
        purpose,
        r"\!\[\]\(https\:\/\/x\.example\/a\.png\) \[click\]\(https\:\/\/x\.example\) \<img src\=x onerror\=alert\(1\)\>

\# Heading
\<script\>"
    );
    let tool = hover("[charge.history, customer");
    assert!(tool.contains(r"\*\*bold\*\* \<b\>html\<\/b\> www\.x\.example"), "{tool}");
}
