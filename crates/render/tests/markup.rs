//! `markup::view` and `markup::result` as `<opb-viewer>` and the embed page
//! use them: the trust summary, one panel per tab, every step's boundary
//! linked to its node, markup that needs no script and carries none, and
//! the result message a host page reads.

use opb_core::explain::layout::Notice;
use opb_core::{analyze, Options, Syntax};
use opb_render::markup::{result, view};

mod common;
use common::{assert_inert, attributes, dense, example};

fn analysis_of(name: &str) -> opb_core::Analysis {
    analyze(&example(name), &Options { syntax: Syntax::from_path(name), ..Options::default() })
}

#[test]
fn a_playbook_gets_its_summary_its_tabs_and_a_boundary_for_every_drawn_step() {
    let analysis = analysis_of("refund-triage.broken.yaml");
    let (html, tabs) = view("refund-triage.broken.yaml", &analysis);
    let ids: Vec<&str> = tabs.iter().map(|t| t.id).collect();
    assert_eq!(ids, ["graph", "tools", "requires", "paths", "diagnostics"]);
    let problems = analysis.checked.diagnostics.len();
    assert_eq!(tabs.last().unwrap().label, format!("Problems ({problems})"));
    assert!(
        html.starts_with(
            r#"<div class="opb-view"><section class="trust-banner" data-testid="trust-banner""#
        ),
        "the summary first"
    );
    let summary = opb_core::trust_summary(&analysis).unwrap();
    assert!(html.contains(&opb_render::glance::html(&summary)), "the playground's words");
    // One panel per tab, the first shown.
    assert_eq!(attributes(&html, "role").iter().filter(|r| **r == "tabpanel").count(), tabs.len());
    assert_eq!(html.matches(" hidden>").count(), tabs.len() - 1);
    assert_eq!(attributes(&html, "aria-selected"), ["true", "false", "false", "false", "false"]);
    // Each drawn step has its boundary, and nothing else has one.
    let drawn: Vec<&str> = attributes(&html, "data-step-id");
    let boundaries: Vec<&str> = attributes(&html, "data-step");
    assert!(!drawn.is_empty());
    assert_eq!(drawn, boundaries);
    // The drawing takes the page's styles: no stylesheet or theme of its own.
    assert!(
        !html.contains("<style")
            && !html
                .contains(r#"<svg xmlns="http://www.w3.org/2000/svg" class="graph" data-theme"#)
    );
    assert_eq!(html.matches("<li data-severity=").count(), problems);
}

#[test]
fn the_markup_needs_no_script_and_carries_none() {
    for name in [
        "failed-charge-recovery.json",
        "refund-triage.broken.yaml",
        "shady-tools.broken.oz0-plugin.yaml",
        "acme-github.oz0-plugin.yaml",
    ] {
        let (html, _) = view(name, &analysis_of(name));
        assert_inert(
            name,
            &html,
            &["<script", "<iframe", "<img", "<link", "<object", "<style", " style=", "javascript:"],
        );
    }
}

#[test]
fn a_manifest_gets_its_tools_and_its_problems() {
    let analysis = analysis_of("shady-tools.broken.oz0-plugin.yaml");
    let (html, tabs) = view("shady-tools.broken.oz0-plugin.yaml", &analysis);
    assert_eq!(tabs.iter().map(|t| t.id).collect::<Vec<_>>(), ["manifest", "diagnostics"]);
    assert_eq!(tabs[0].label, "5 tools");
    assert!(html.contains("<h2>Tools: what each one runs, where, and who approves its calls</h2>"));
    assert!(!html.contains("<svg"));
}

#[test]
fn what_cannot_be_read_says_so_and_lists_why() {
    let analysis = analyze("{ not: [json", &Options::default());
    let (html, tabs) = view("document", &analysis);
    assert_eq!(tabs.iter().map(|t| t.id).collect::<Vec<_>>(), ["diagnostics"]);
    assert!(html.contains("opb could not read this as a playbook or a plugin manifest."));
    assert!(html.contains("<li data-severity=\"error\">"));
}

#[test]
fn the_result_message_is_json_a_host_page_reads() {
    let analysis = analysis_of("refund-triage.broken.yaml");
    let message: serde_json::Value = serde_json::from_str(&result(&analysis)).expect("JSON");
    assert_eq!(message["type"], "opb:result");
    assert_eq!(message["kind"], "playbook");
    let counts = analysis.checked.counts;
    assert_eq!(
        message["counts"],
        serde_json::json!({"error": counts.error, "warning": counts.warning, "info": counts.info})
    );
    let listed = message["diagnostics"].as_array().unwrap();
    assert_eq!(listed.len(), analysis.checked.diagnostics.len());
    for (sent, diagnostic) in listed.iter().zip(&analysis.checked.diagnostics) {
        assert_eq!(sent["code"], diagnostic.code);
        assert_eq!(sent["message"], diagnostic.message.as_str(), "escaped and read back whole");
        assert_eq!(sent["pointer"], diagnostic.pointer.as_str());
        assert_eq!(sent["line"], diagnostic.range.start.line);
        assert_eq!(sent["end_column"], diagnostic.range.end.column);
    }
    // Quotes, backslashes and control characters survive.
    let odd = analyze(
        "{\"openplaybook\": \"1.6\", \"id\": \"a\\\"b\\\\c\\u0001\", \"steps\": []}",
        &Options::default(),
    );
    let message: serde_json::Value = serde_json::from_str(&result(&odd)).expect("JSON");
    assert!(message["diagnostics"].as_array().is_some_and(|d| !d.is_empty()));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&result(&analyze("", &Options::default())))
            .unwrap()["kind"],
        serde_json::Value::Null
    );
}

#[test]
fn a_dense_graph_is_drawn_simplified_under_a_notice_or_listed() {
    let options = Options::default();
    let (html, _) = view("dense.yaml", &analyze(&dense::playbook(150, 8), &options));
    let notice = opb_core::explain::layout::Fidelity::Simplified.notice().unwrap();
    let note = format!(
        r#"<p class="graph-notice" role="note" data-testid="graph-notice">{notice}</p><div class="opb-graph"><svg"#
    );
    assert!(html.contains(&note), "the notice heads the drawing");
    assert_eq!(html.matches(r#"class="graph-notice""#).count(), 1, "and is not in the drawing too");
    assert_eq!(attributes(&html, "data-step-id").len(), 150);

    let (html, _) = view("dense.yaml", &analyze(&dense::playbook(200, 20), &options));
    assert!(html.contains(
        r#"<p class="graph-notice" role="note" data-testid="graph-notice">Too many crossing edges to draw: here are the steps and their edges as a list.</p><ul class="graph-list" data-testid="graph-list"><li>s0 (start) → "#
    ));
    assert!(!html.contains("<svg"), "nothing drawn");
    let listed = html.split(r#"data-testid="graph-list">"#).nth(1).unwrap_or_default();
    let listed = listed.split("</ul>").next().unwrap_or_default();
    assert_eq!(listed.matches("<li>").count(), 200, "every step listed");
    assert_eq!(attributes(&html, "data-step").len(), 200, "with its boundary beneath");
}

#[test]
fn a_step_no_person_decides_before_is_marked_explained_and_described() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/fixtures/rules/PB220.bad.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    let analysis = analyze(&text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let (html, _) = view("PB220.bad.yaml", &analysis);
    // The drawing marks the step, and the legend beneath it, closed, says
    // what the mark means.
    let (drawing, legend) = html.split_at(html.find(r#"<details class="graph-legend""#).unwrap());
    assert_eq!(drawing.matches(r#"<g class="unsupervised-mark""#).count(), 1);
    assert!(legend.starts_with(
        r#"<details class="graph-legend" data-testid="graph-legend"><summary>Legend</summary>"#
    ));
    assert!(legend.contains(
        "<span>No person decides before this step can move money or write to customers</span>"
    ));
    // The step's details say why, in the core's words.
    let details =
        &html[html.find(r#"<article class="opb-step" data-step="quick_refund">"#).unwrap()..];
    let details = &details[..details.find("</article>").unwrap()];
    assert!(
        details.contains("No person decides before this step can move money: it may call <code>refund.<wbr>create</code>, which asks for no approval, and the start reaches it with no gate on the way."),
        "{details}"
    );
    // The Risk paths name the class and the step.
    assert!(html.contains(
        "no person decides before quick_refund, which may move money with refund.create"
    ));
}

#[test]
fn the_tools_tab_lists_the_riskiest_first_as_the_core_orders_them() {
    let name = "failed-charge-recovery.json";
    let analysis = analysis_of(name);
    let (html, _) = view(name, &analysis);
    let Some(opb_core::explain::Explain::Playbook(explain)) = analysis.explain.as_ref() else {
        panic!("{name} is a playbook that can be read");
    };
    let panel = html.split(r#"id="opb-panel-tools""#).nth(1).unwrap();
    let panel = &panel[..panel.find("</section>").unwrap()];
    let at = |tool: &str| {
        panel.find(&format!(">{tool}<")).unwrap_or_else(|| panic!("{tool} in {panel}"))
    };
    let shown: Vec<usize> = opb_core::explain::boundary::by_risk(&explain.tools)
        .iter()
        .map(|tool| at(tool.facts.name.as_deref().unwrap()))
        .collect();
    assert!(shown.is_sorted(), "the tab follows the core's order: {shown:?}");
    // Not the document's order: the email (customer_comms) before the reads.
    assert!(at("email.send") < at("customer.get"));
}
