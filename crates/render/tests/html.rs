//! `html::report` as a reader's browser gets it: one page, its own
//! Content-Security-Policy, nothing to fetch, `opb explain`'s words, the
//! drawing and every diagnostic, masked and escaped.

use opb_core::explain::layout::Notice;
use opb_core::{analyze, Options, Syntax};
use opb_render::html::{report, POLICY};
use opb_render::Theme;

mod common;
use common::{assert_inert, dense, example};

fn report_of(name: &str, text: &str, theme: Theme) -> String {
    let analysis =
        analyze(text, &Options { syntax: Syntax::from_path(name), ..Options::default() });
    report(name, &analysis, theme).expect("a report")
}

#[test]
fn a_playbook_report_holds_the_account_the_drawing_and_the_diagnostics() {
    let name = "refund-triage.broken.yaml";
    let html = report_of(name, &example(name), Theme::Auto);
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\" data-theme=\"auto\">"));
    assert!(html
        .contains(&format!(r#"<meta http-equiv="Content-Security-Policy" content="{POLICY}" />"#)));
    assert!(html.contains("<title>Refund triage · opb</title>"));
    assert!(
        html.contains("<h1 class=\"item\">Refund triage (refund-triage)"),
        "the account's own title heads the page"
    );
    // The drawing, inline, in the page's theme, and its legend open below
    // it, its marks in the same theme.
    assert_eq!(html.matches(r#"<svg xmlns="http://www.w3.org/2000/svg""#).count(), 1);
    assert!(html.contains(r#"class="graph" data-theme="auto""#));
    let legend = &html[html.find("<details class=\"graph-legend\"").expect("a legend")..];
    assert!(legend.starts_with(r#"<details class="graph-legend" data-testid="graph-legend" open>"#));
    assert_eq!(
        legend.matches(r#"<svg class="graph legend-mark" data-theme="auto""#).count(),
        opb_render::legend::entries().len()
    );
    // Every diagnostic opb check reports, with its position.
    let analysis =
        analyze(&example(name), &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    assert_eq!(html.matches("<li data-severity=").count(), analysis.checked.diagnostics.len());
    assert!(
        html.contains(
            "<code>PB213 next-unknown</code> <span class=\"position\">line 60, column 11</span>"
        ),
        "{html}"
    );
    // `opb explain`'s sections and words.
    for heading in [
        "Steps: what each one may do",
        "Embedded tools: the definitions the document carries",
        "Requires: what a harness must provide before it runs",
        "Graph",
    ] {
        assert!(html.contains(&format!("<h2>{heading}</h2>")), "{heading}");
    }
    let explain = match analysis.explain.as_ref().unwrap() {
        opb_core::explain::Explain::Playbook(p) => p,
        _ => unreachable!(),
    };
    for step in &explain.steps {
        // The core's sentence, up to its first quoted name.
        let words: String = step
            .summary
            .chars()
            .take_while(|c| !matches!(c, '`' | '"' | '\'' | '<' | '>' | '&'))
            .take(60)
            .collect();
        assert!(
            words.len() > 20 && html.contains(&format!("<dt>May do</dt><dd>{words}")),
            "{}",
            step.summary
        );
    }
}

#[test]
fn the_report_opens_on_the_trust_summary_the_playground_shows() {
    let name = "refund-triage.broken.yaml";
    let html = report_of(name, &example(name), Theme::Light);
    let analysis =
        analyze(&example(name), &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
    let summary = opb_core::trust_summary(&analysis).expect("a summary");
    let glance = opb_render::glance::html(&summary);
    let at = html.find("<h2>What this document can do</h2>").expect("the summary's heading");
    assert!(html[at..].starts_with(&format!("<h2>What this document can do</h2>\n{glance}")));
    assert!(at < html.find("<h2>The step graph</h2>").unwrap(), "before the graph");
    assert!(glance.starts_with(r#"<p class="trust-verdict supervised" data-verdict="supervised" data-testid="trust-verdict">Every step that can move money waits for a person: a person approves each call of <code>refund.<wbr>create</code>.</p>"#), "the verdict first: {glance}");
    // Its row agrees: calm, and says why.
    assert!(glance.contains(r#"<li class="trust-fact" data-fact="money"><span class="trust-fact-title">Moves money</span>"#), "{glance}");
    assert!(glance.contains("Step <code>decide</code> acts with <code>refund.<wbr>create</code>: <span class=\"trust-gated\">a person approves each call</span>"), "{glance}");
    assert!(glance.contains(r#"data-fact="requires""#) && glance.contains("trust-counts bad"));
}

#[test]
fn the_page_loads_nothing_and_runs_nothing() {
    for (name, theme) in [
        ("failed-charge-recovery.json", Theme::Light),
        ("shady-tools.broken.oz0-plugin.yaml", Theme::Dark),
    ] {
        let html = report_of(name, &example(name), theme);
        assert_inert(
            name,
            &html,
            &["<script", "<iframe", "<img", "<link", "<object", "<embed", "@import", "url(http"],
        );
        assert!(html.contains(&format!("data-theme=\"{}\"", theme.name())));
    }
}

#[test]
fn a_manifest_report_has_its_account_and_no_graph() {
    let name = "acme-github.oz0-plugin.yaml";
    let html = report_of(name, &example(name), Theme::Light);
    assert!(!html.contains("<svg"));
    assert!(html.contains("<h2>Tools: what each one runs, where, and who approves its calls</h2>"));
    assert!(html.contains("<h2>What opb check finds</h2>\n<p>No problems.</p>"));
}

#[test]
fn document_text_is_escaped_and_credentials_masked() {
    let text = r#"{"openplaybook": "1.6", "name": "<script>alert(1)</script>",
      "description": "Run it with ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8 set.",
      "requires": {"connections": []},
      "steps": [{"id": "a", "kind": "agent", "agent": "lou", "purpose": "Charge with sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8 now.", "allowedTools": []}],
      "start": "a"}"#;
    let html = report_of("x.json", text, Theme::Light);
    assert!(!html.contains("<script>"), "markup from the document is text");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("sk_live_51HqLyjWDarjtT1zdp7dcXYZa9b8"), "the key whole");
    assert!(html.contains("sk_l"));
    assert!(
        !html.contains("ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8"),
        "the description's token whole"
    );
    let banner =
        &html[html.find(r#"class="trust-description""#).expect("the banner's description")..];
    assert!(
        banner.starts_with(r#"class="trust-description">Run it with ghp_"#),
        "masked in the banner: {banner}"
    );
}

#[test]
fn what_is_neither_kind_gets_no_report() {
    let analysis = analyze("name: something\n", &Options::default());
    assert_eq!(report("x.yaml", &analysis, Theme::Light), None);
}

#[test]
fn a_dense_graph_is_reported_simplified_under_a_notice_or_listed() {
    let simplified = report_of("dense.yaml", &dense::playbook(150, 8), Theme::Light);
    let notice = opb_core::explain::layout::Fidelity::Simplified.notice().unwrap();
    assert!(simplified.contains(&format!(
        r#"<p class="graph-notice" role="note" data-testid="graph-notice">{notice}</p><div class="graph"><svg"#
    )));
    let listed = report_of("dense.yaml", &dense::playbook(200, 20), Theme::Light);
    assert!(listed.contains(r#"<ul class="graph-list" data-testid="graph-list"><li>s0 (start) → "#));
    assert!(!listed.contains("<svg"), "nothing drawn");
}
