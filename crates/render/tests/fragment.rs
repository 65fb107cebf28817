//! `fragment::fragment` as a docs page gets it from a fence: the views of a
//! valid playbook, of one whose money step no person decides before, of a
//! plugin manifest and of a broken document (its problems listed), each
//! snapshotted without its style, which is snapshotted once; masked,
//! escaped and inert.

use opb_core::{analyze, Kind, Options, Syntax};
use opb_render::fragment::{fragment, strict_failure, DarkSelector, Options as Fragment, View};
use opb_render::Theme;
use std::path::Path;

mod common;
use common::{assert_inert, dense, example};

fn rule_fixture(name: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/rules").join(name);
    std::fs::read_to_string(path).unwrap()
}

fn fragment_of(name: &str, text: &str, options: &Fragment) -> String {
    let analysis =
        analyze(text, &Options { syntax: Syntax::from_path(name), ..Options::default() });
    fragment(name, text, &analysis, None, options)
}

/// The fragment with its style cut out, for a snapshot of what it shows.
fn unstyled(html: &str) -> String {
    let start = html.find("<style>").expect("a style") + "<style>".len();
    let end = html.find("</style>").expect("its end");
    format!("{}…{}", &html[..start], &html[end..])
}

fn view(view: View) -> Fragment {
    Fragment { view, theme: Theme::Auto, ..Fragment::default() }
}

#[test]
fn each_view_of_each_kind_of_document() {
    let cases = [
        ("failed-charge-recovery.json", example("failed-charge-recovery.json"), View::Graph),
        ("failed-charge-recovery.json", example("failed-charge-recovery.json"), View::Summary),
        ("failed-charge-recovery.json", example("failed-charge-recovery.json"), View::Report),
        ("PB220.bad.yaml", rule_fixture("PB220.bad.yaml"), View::Graph),
        ("acme-github.oz0-plugin.yaml", example("acme-github.oz0-plugin.yaml"), View::Graph),
        ("acme-github.oz0-plugin.yaml", example("acme-github.oz0-plugin.yaml"), View::Report),
        ("refund-triage.broken.yaml", example("refund-triage.broken.yaml"), View::Graph),
    ];
    for (name, text, shown) in cases {
        let html = fragment_of(name, &text, &view(shown));
        assert_inert(name, &html, &["<script", "javascript:", "<iframe", "<img"]);
        let snapshot = format!("{}-{}", name.replace('.', "-"), shown.name());
        insta::assert_snapshot!(snapshot, unstyled(&html));
    }
}

#[test]
fn the_style_is_snapshotted_once() {
    let html = fragment_of("x.json", &example("failed-charge-recovery.json"), &view(View::Graph));
    let start = html.find("<style>").unwrap() + "<style>".len();
    let style = &html[start..html.find("</style>").unwrap()];
    insta::assert_snapshot!("style-html-dark", style.replace('}', "}\n"));
}

#[test]
fn a_broken_document_is_drawn_with_its_problems_listed() {
    let name = "refund-triage.broken.yaml";
    let text = example(name);
    let html = fragment_of(name, &text, &view(View::Graph));
    assert!(html.contains(r#"<svg xmlns="http://www.w3.org/2000/svg" class="graph""#));
    assert!(html.contains(r#"class="error-mark""#), "its steps' errors marked");
    assert!(
        html.contains("<p>8 errors, 2 warnings, 2 infos in refund-triage.broken.yaml.</p>"),
        "{}",
        unstyled(&html)
    );
    assert!(html.contains(
        "<code>PB213 next-unknown</code> <span class=\"position\">line 60, column 11</span>"
    ));
    let analysis = analyze(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let failure = strict_failure(name, &analysis).expect("errors");
    assert_eq!(failure[0], "refund-triage.broken.yaml has 8 errors, and strict forbids any:");
    assert_eq!(failure.len(), 9);
    assert!(failure
        .iter()
        .any(|l| l.starts_with("PB213 line 60: `next` of step `decide` names `file`")));
    let clean = example("failed-charge-recovery.json");
    let analysis = analyze(&clean, &Options::default());
    assert_eq!(strict_failure("clean.json", &analysis), None);
}

#[test]
fn a_credential_is_masked_and_keeps_the_document_static() {
    let text = r#"{
      "openplaybook": "1.6",
      "id": "leak",
      "description": "Run it with ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8 set.",
      "start": "a",
      "steps": [{"id": "a", "kind": "agent", "agent": "lou", "purpose": "Charge with sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8 now.", "allowedTools": []}],
      "tools": []
    }"#;
    for shown in [View::Graph, View::Summary, View::Report] {
        let options = Fragment { interactive: true, ..view(shown) };
        let html = fragment_of("leak.json", text, &options);
        assert!(!html.contains("sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8"), "{shown:?}: the key whole");
        assert!(
            !html.contains("ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8"),
            "{shown:?}: the token whole"
        );
        assert!(html.contains("ghp_"), "{shown:?}: the token cut to its first four characters");
        assert!(!html.contains("<opb-viewer"), "{shown:?}: no live element carries the text");
    }
}

#[test]
fn interactive_puts_the_live_element_over_the_static_fragment() {
    let text = "name: acme\n# <b>{{ x }}</b>\n";
    let analysis = analyze(text, &Options::default());
    let options = Fragment { interactive: true, theme: Theme::Dark, ..Fragment::default() };
    let html = fragment("acme.yaml", text, &analysis, Some(Kind::PluginManifest), &options);
    assert!(
        html.starts_with("<opb-viewer code=\"name: acme\n# &lt;b&gt;{{ x }}&lt;/b&gt;\n\" kind=\"plugin-manifest\" theme=\"dark\" v-pre><div class=\"opb-fragment\" data-theme=\"dark\" data-view=\"graph\" v-pre>"),
        "{}",
        &html[..300]
    );
    assert!(html.ends_with("</div></opb-viewer>\n"));
}

#[test]
fn the_dark_palette_goes_under_the_site_selector_given() {
    let text = example("failed-charge-recovery.json");
    let slate = DarkSelector::new(r#"[data-md-color-scheme="slate"]"#).unwrap();
    let html = fragment_of("x.json", &text, &Fragment { dark: slate, ..view(View::Graph) });
    assert!(html.contains(
        "[data-md-color-scheme=&quot;slate&quot;] .opb-fragment[data-theme=&quot;auto&quot;]{"
    ));
    assert!(!html.contains("html.dark"));
}

#[test]
fn a_graph_too_dense_to_draw_is_listed_in_the_fragment() {
    let html = fragment_of("dense.yaml", &dense::playbook(1_000, 20), &view(View::Graph));
    assert!(html.contains(r#"<ul class="graph-list" data-testid="graph-list">"#));
    assert!(html.contains("Too many crossing edges to draw: here are the steps and their edges"));
    assert!(!html.contains("<svg xmlns"));
}
