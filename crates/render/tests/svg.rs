//! `svg::graph` read back as an XML document, as a browser or an image
//! tool would: well formed, described, self-contained, and showing what the
//! core's explain view says, masked.

#[path = "../../core/benches/dense.rs"]
mod dense;

use opb_core::explain::layout::{Fidelity, Notice};
use opb_core::explain::{Explain, PlaybookExplain};
use opb_core::{analyze, Options, Syntax};
use opb_render::svg::{graph, NotDrawn};
use opb_render::Theme;
use roxmltree::{Document, Node};
use std::path::Path;

fn explain_of(text: &str, syntax: Syntax) -> PlaybookExplain {
    match analyze(text, &Options { syntax: Some(syntax), ..Options::default() }).explain {
        Some(Explain::Playbook(explain)) => explain,
        other => panic!("not a playbook: {other:?}"),
    }
}

fn example() -> PlaybookExplain {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/failed-charge-recovery.json");
    explain_of(&std::fs::read_to_string(path).unwrap(), Syntax::Json)
}

fn texts<'a>(doc: &'a Document<'a>, class: &str) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|c| c == class)))
        .filter_map(|n| n.descendants().find(|d| d.is_text()).and_then(|t| t.text()))
        .collect()
}

#[test]
fn the_example_is_a_described_drawing_of_every_step() {
    let svg = graph(&example(), Theme::Light).expect("drawn");
    let doc = Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert_eq!(root.attribute("role"), Some("img"));
    let labels: Vec<&str> =
        root.attribute("aria-labelledby").unwrap_or_default().split(' ').collect();
    let by_id = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_owned()
    };
    let [title, desc] = labels[..] else { panic!("{labels:?}") };
    assert_eq!(by_id(title), "Step graph of Failed charge recovery");
    assert_eq!(by_id(desc), "4 steps: recover, gate, send, record. It starts at recover.");

    let steps: Vec<&str> = doc.descendants().filter_map(|n| n.attribute("data-step-id")).collect();
    assert_eq!(steps, ["recover", "gate", "send", "record"]);
    assert_eq!(texts(&doc, "node-title"), ["recover", "gate", "send", "record"]);
    assert_eq!(texts(&doc, "node-sub"), ["agent lou", "agent lou", "agent lou"]);
    // Each class in the core's one word for it, never the document's value.
    assert_eq!(texts(&doc, "risk-badge"), ["READ", "CUSTOMERS", "INTERNAL"]);
    assert_eq!(texts(&doc, "edge-label"), ["approved", "rejected"]);
    assert_eq!(texts(&doc, "terminal"), ["Start", "End"]);
    // Each step's hover text is the playground's: kind, purpose, summary.
    let send = doc.descendants().find(|n| n.attribute("data-step-id") == Some("send")).unwrap();
    let title = send.children().find(|n| n.has_tag_name("title")).and_then(|n| n.text()).unwrap();
    assert!(title.starts_with("send (agent step)\nSend the approved email.\n\n"), "{title}");
}

fn rule_fixture(name: &str) -> PlaybookExplain {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/rules").join(name);
    explain_of(&std::fs::read_to_string(path).unwrap(), Syntax::Yaml)
}

/// The steps that carry the mark of no person deciding, each with its
/// title.
fn unsupervised_marks(svg: &str) -> Vec<(String, String)> {
    let doc = Document::parse(svg).expect("well-formed XML");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("unsupervised-mark"))
        .map(|mark| {
            let step = mark.ancestors().find_map(|n| n.attribute("data-step-id")).unwrap();
            let title = mark.children().find(|n| n.has_tag_name("title")).unwrap();
            let shown = mark.children().find(|n| n.has_tag_name("text")).unwrap();
            assert_eq!(shown.text(), Some("!"), "a shape and a sign, not colour alone");
            (step.to_owned(), title.text().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn a_step_no_person_decides_before_is_marked_and_a_gated_one_is_not() {
    // PB220: the start leads to `quick_refund`, whose refund tool asks for
    // no approval, past the gate.
    let svg = graph(&rule_fixture("PB220.bad.yaml"), Theme::Light).unwrap();
    assert_eq!(
        unsupervised_marks(&svg),
        [(
            "quick_refund".to_owned(),
            "No person decides before this step can move money".to_owned()
        )]
    );
    let doc = Document::parse(&svg).unwrap();
    let desc = doc.descendants().find(|n| n.has_tag_name("desc")).and_then(|n| n.text()).unwrap();
    assert!(
        desc.ends_with(" No person decides before this step can move money: quick_refund."),
        "{desc}"
    );
    let node = doc.descendants().find(|n| n.attribute("data-step-id") == Some("quick_refund"));
    let hover = node.and_then(|n| n.children().find(|c| c.has_tag_name("title"))).unwrap();
    assert!(hover.text().unwrap().ends_with("it may call `refund.create`, which asks for no approval, and the start reaches it with no gate on the way."));

    // The same step behind the gate: a person decides, no mark.
    let gated = graph(&rule_fixture("PB220.good.yaml"), Theme::Light).unwrap();
    assert!(gated.contains(r#"data-step-id="quick_refund""#));
    assert_eq!(unsupervised_marks(&gated), []);
    assert!(!gated.contains("No person decides"));

    // PB221: writing to customers, in its own words.
    let comms = graph(&rule_fixture("PB221.bad.yaml"), Theme::Dark).unwrap();
    assert_eq!(
        unsupervised_marks(&comms),
        [(
            "send".to_owned(),
            "No person decides before this step can write to customers".to_owned()
        )]
    );
}

#[test]
fn nothing_runs_and_nothing_is_fetched() {
    for theme in [Theme::Light, Theme::Dark] {
        let svg = graph(&example(), theme).unwrap();
        let doc = Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().attribute("data-theme"), Some(theme.name()));
        for node in doc.descendants().filter(Node::is_element) {
            let name = node.tag_name().name();
            assert!(
                !["script", "foreignObject", "image", "use", "a", "iframe"].contains(&name),
                "<{name}>"
            );
            for attribute in node.attributes() {
                assert!(!attribute.name().starts_with("on"), "event handler {}", attribute.name());
                assert!(attribute.name() != "href", "a reference: {}", attribute.value());
                if let Some(url) = attribute.value().strip_prefix("url(#") {
                    let id = url.trim_end_matches(')');
                    assert!(
                        doc.descendants().any(|n| n.attribute("id") == Some(id)),
                        "only the drawing's own markers: {url}"
                    );
                }
            }
        }
        let style =
            doc.descendants().find(|n| n.has_tag_name("style")).and_then(|n| n.text()).unwrap();
        assert!(
            !style.contains("@import") && !style.contains("url(") && !style.contains(":root"),
            "{style}"
        );
        // No property is read from a page the drawing is put in: every
        // `var()` names one the drawing sets itself.
        for call in style.split("var(--").skip(1) {
            let name = call.split([')', ',']).next().unwrap();
            assert!(style.contains(&format!("--{name}:")), "--{name} comes from outside");
        }
    }
}

#[test]
fn credentials_are_masked_and_odd_ids_written_safely() {
    let text = r#"{"openplaybook": "1.6", "name": "<b>odd</b> & \"quoted\"",
      "requires": {"connections": []},
      "steps": [
        {"id": "a<script>\u0001", "kind": "agent", "agent": "lou", "purpose": "Charge with sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8 at once.", "next": "b"},
        {"id": "b", "kind": "gate", "next": {"ok]]>": "a<script>\u0001"}}
      ],
      "start": "a<script>\u0001"}"#;
    let svg = graph(&explain_of(text, Syntax::Json), Theme::Light).unwrap();
    assert!(!svg.contains("sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8"), "the key whole");
    assert!(svg.contains("sk_l"), "the key's first four characters stay, as in every view");
    let doc = Document::parse(&svg).expect("well-formed despite the ids");
    assert!(doc.descendants().any(|n| n.attribute("data-step-id") == Some("a<script>\u{fffd}")));
    assert_eq!(texts(&doc, "edge-label"), ["ok]]>"]);
    assert!(doc.descendants().filter(Node::is_element).all(|n| n.tag_name().name() != "script"));
    assert_eq!(
        doc.descendants().find(|n| n.has_tag_name("title")).and_then(|n| n.text()),
        Some("Step graph of <b>odd</b> & \"quoted\"")
    );
}

#[test]
fn drawings_that_differ_define_different_ids() {
    let ids = |svg: &str| -> Vec<String> {
        let doc = Document::parse(svg).unwrap();
        doc.descendants().filter_map(|n| n.attribute("id")).map(str::to_owned).collect()
    };
    let (light, dark) =
        (graph(&example(), Theme::Light).unwrap(), graph(&example(), Theme::Dark).unwrap());
    let (light_ids, dark_ids) = (ids(&light), ids(&dark));
    assert_eq!(light_ids.len(), 4, "title, description, two arrowheads: {light_ids:?}");
    assert!(
        light_ids.iter().all(|id| id.starts_with("opb-") && !dark_ids.contains(id)),
        "{light_ids:?} {dark_ids:?}"
    );
    assert_eq!(graph(&example(), Theme::Light).unwrap(), light, "the same drawing each time");
    // A step id that looks like an id prefix is text, not a prefix.
    let text = r#"{"openplaybook": "1.6", "requires": {"connections": []}, "steps": [{"id": "opb-x", "kind": "gate"}], "start": "opb-x"}"#;
    assert!(graph(&explain_of(text, Syntax::Json), Theme::Light)
        .unwrap()
        .contains(r#"data-step-id="opb-x""#));
}

#[test]
fn what_cannot_be_drawn_says_why() {
    let empty = explain_of(
        r#"{"openplaybook": "1.6", "requires": {"connections": []}, "steps": []}"#,
        Syntax::Json,
    );
    assert_eq!(graph(&empty, Theme::Light), Err(NotDrawn::NoSteps));
    let steps: Vec<String> =
        (0..2_001).map(|i| format!(r#"{{"id": "s{i}", "kind": "gate"}}"#)).collect();
    let many = format!(
        r#"{{"openplaybook": "1.6", "requires": {{"connections": []}}, "steps": [{}]}}"#,
        steps.join(",")
    );
    let error = graph(&explain_of(&many, Syntax::Json), Theme::Light).unwrap_err();
    assert_eq!(error, NotDrawn::TooManySteps(2_001));
    assert_eq!(
        error.to_string(),
        "the playbook has 2001 steps, more than the 2000 a diagram can show"
    );
}

#[test]
fn a_dense_graph_is_drawn_simplified_and_says_so_above_itself() {
    let explain = explain_of(&dense::playbook(150, 8), Syntax::Yaml);
    let svg = graph(&explain, Theme::Light).expect("drawn");
    let doc = Document::parse(&svg).expect("well-formed XML");
    let notice = Fidelity::Simplified.notice().expect("a simplified drawing says so");
    assert_eq!(texts(&doc, "graph-notice"), [notice]);
    let desc = doc.descendants().find(|n| n.has_tag_name("desc")).and_then(|n| n.text());
    assert!(desc.is_some_and(|d| d.ends_with(notice)), "{desc:?}");
    let steps = doc.descendants().filter(|n| n.attribute("data-step-id").is_some()).count();
    assert_eq!(steps, 150, "every step drawn");
    let edges = doc.descendants().filter(|n| n.attribute("class") == Some("edge-label")).count();
    assert_eq!(edges, 150 * 8, "every branch drawn with its label");
}

#[test]
fn a_graph_too_dense_to_draw_is_listed_step_by_step() {
    let explain = explain_of(&dense::playbook(200, 20), Syntax::Yaml);
    let svg = graph(&explain, Theme::Light).expect("listed");
    let doc = Document::parse(&svg).expect("well-formed XML");
    assert_eq!(
        texts(&doc, "graph-notice"),
        ["Too many crossing edges to draw: here are the steps and their edges as a list."]
    );
    let list = doc.descendants().find(|n| n.attribute("class") == Some("graph-list"));
    let lines: Vec<&str> =
        list.expect("a list").children().filter_map(|line| line.text()).collect();
    assert_eq!(lines.len(), 200);
    for (i, line) in lines.iter().enumerate() {
        let id = format!("s{i}");
        assert!(line.starts_with(&format!("{id} ")), "{line}");
        assert_eq!(line.matches(", ").count(), 19, "every branch of {id}: {line}");
    }
    let first = explain.graph.edges.first().expect("an edge");
    assert!(lines[0].starts_with(&format!("s0 (start) → {} (b0), ", first.to)), "{}", lines[0]);
    assert!(doc.descendants().all(|n| n.attribute("data-step-id").is_none()), "nothing drawn");
}
