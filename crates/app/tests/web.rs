//! Component tests in a real browser (wasm-bindgen-test, headless Chromium):
//! each mounts one component into a fresh element and asserts on the DOM.
//! Run by scripts/test.sh; the editor itself is covered end to end in
//! tests/e2e, since it needs the page's CodeMirror bundle.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use opb_app::checker::{self, Report};
use opb_app::markdown::{Documentation, Md};
use opb_app::ui::diagnostics::{DiagnosticsPanel, EntryActions, Jump};
use opb_app::ui::header::{Header, KindSwitch};
use opb_app::ui::markdown::Markdown;
use opb_app::ui::rules_panel::RulesPanel;
use opb_core::Kind;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

const BROKEN: &str = include_str!("../../../examples/refund-triage.broken.yaml");

/// A fresh element in the page's body to mount one component into.
fn host() -> HtmlElement {
    let document = document();
    let element = document.create_element("div").expect("an element");
    document.body().expect("a body").append_child(&element).expect("appended");
    element.unchecked_into()
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).expect("a valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .collect()
}

fn one(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no {selector} in {}", root.inner_html()))
}

fn click(element: &Element) {
    element.unchecked_ref::<HtmlElement>().click();
}

/// The panel's actions, with `jump` on an entry's click and nothing else.
fn actions(jump: impl Fn(Jump) + Send + Sync + 'static) -> EntryActions {
    EntryActions {
        jump: Callback::new(jump),
        fix: Callback::new(|_| {}),
        fix_all: Callback::new(|()| {}),
        rule: Callback::new(|_| {}),
    }
}

fn report_of(text: &str) -> Option<Arc<Report>> {
    Some(Arc::new(checker::check(text, None)))
}

#[wasm_bindgen_test]
async fn the_panel_lists_each_diagnostic_with_stable_hooks() {
    let report = report_of(BROKEN);
    // In the panel's order: errors first.
    let expected: Vec<_> = report
        .as_ref()
        .map(|r| checker::listed(&r.located, false).into_iter().cloned().collect())
        .unwrap_or_default();
    assert!(expected.len() > 3, "the broken example has findings");
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <DiagnosticsPanel report=Signal::stored(report) actions=actions(|_| {}) /> }
    });
    let entries = all(&root, "li.diagnostic");
    assert_eq!(entries.len(), expected.len());
    for (entry, located) in entries.iter().zip(&expected) {
        assert_eq!(entry.get_attribute("data-code").as_deref(), Some(located.diagnostic.code));
        assert_eq!(
            entry.get_attribute("data-severity").as_deref(),
            Some(located.diagnostic.severity.as_str())
        );
        let link = one(entry, "a.rule-link");
        assert_eq!(link.get_attribute("href"), Some(format!("#rules/{}", located.diagnostic.code)));
        let position = one(entry, ".diagnostic-position").text_content().unwrap_or_default();
        assert_eq!(
            position,
            format!(
                "{}:{}",
                located.diagnostic.range.start.line, located.diagnostic.range.start.column
            )
        );
    }
}

#[wasm_bindgen_test]
async fn severity_filters_hide_and_show_entries() {
    let report = report_of(BROKEN);
    let errors = report.as_ref().map_or(0, |r| r.analysis.checked.counts.error);
    let total = report.as_ref().map_or(0, |r| r.located.len());
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <DiagnosticsPanel report=Signal::stored(report) actions=actions(|_| {}) /> }
    });
    let filter = one(&root, r#"button.filter[data-severity="error"]"#);
    assert_eq!(filter.text_content().unwrap_or_default(), format!("{errors} errors"));
    click(&filter);
    leptos::task::tick().await;
    assert_eq!(filter.get_attribute("aria-pressed").as_deref(), Some("false"));
    assert!(all(&root, r#"li[data-severity="error"]"#).is_empty());
    assert_eq!(all(&root, "li.diagnostic").len(), total - errors);
    click(&filter);
    leptos::task::tick().await;
    assert_eq!(all(&root, "li.diagnostic").len(), total);
}

#[wasm_bindgen_test]
async fn a_click_on_an_entry_jumps_to_its_utf16_range() {
    // The unknown step id follows non-ASCII text, so bytes and UTF-16 differ.
    let text = "{\"openplaybook\": \"1.6\", \"name\": \"Relance 😀 été\", \"steps\": [{\"id\": \"a\", \"kind\": \"gate\", \"next\": \"nulle-part\"}]}";
    let report = report_of(text);
    let target = report
        .as_ref()
        .and_then(|r| r.located.iter().find(|l| l.diagnostic.code == "PB213").cloned())
        .expect("PB213 for the unknown next");
    let jumps = RwSignal::new(Vec::<Jump>::new());
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <DiagnosticsPanel report=Signal::stored(report) actions=actions(move |jump| jumps.update(|j| j.push(jump))) /> }
    });
    click(&one(&root, r#"li[data-code="PB213"] button.diagnostic-main"#));
    assert_eq!(jumps.get_untracked(), vec![Jump { from: target.from, to: target.to }]);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let underlined = String::from_utf16_lossy(&utf16[target.from as usize..target.to as usize]);
    assert_eq!(underlined, "\"nulle-part\"");
}

#[wasm_bindgen_test]
async fn no_problems_says_so() {
    let report = report_of(include_str!("../../../examples/failed-charge-recovery.json"));
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <DiagnosticsPanel report=Signal::stored(report) actions=actions(|_| {}) /> }
    });
    assert!(all(&root, "li.diagnostic").is_empty());
    assert!(one(&root, ".all-clear")
        .text_content()
        .unwrap_or_default()
        .contains("No problems found"));
}

#[wasm_bindgen_test]
async fn the_header_shows_name_and_kind_and_leaves_the_counts_to_the_tab() {
    let report = report_of(BROKEN);
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        let choice = RwSignal::new(None::<Kind>);
        view! { <Header name="refund-triage.broken.yaml".to_owned() edited=false report=Signal::stored(report) kind_choice=choice /> }
    });
    assert_eq!(
        one(&root, r#"[data-testid="document-name"]"#).text_content().as_deref(),
        Some("refund-triage.broken.yaml")
    );
    let kind = one(&root, r#"[data-testid="kind"]"#);
    assert_eq!(kind.get_attribute("data-kind").as_deref(), Some("playbook"));
    assert!(kind.text_content().unwrap_or_default().contains("detected"));
    assert!(all(&root, ".count").is_empty(), "the Diagnostics tab counts the problems");
    assert_eq!(one(&root, ".kind-switch-label").text_content().as_deref(), Some("Read as"));
}

#[wasm_bindgen_test]
async fn the_list_shows_errors_first_and_line_order_follows_the_text() {
    let report = report_of(BROKEN);
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <DiagnosticsPanel report=Signal::stored(report) actions=actions(|_| {}) /> }
    });
    let rank = |li: &Element| match li.get_attribute("data-severity").as_deref() {
        Some("error") => 0,
        Some("warning") => 1,
        _ => 2,
    };
    let ranks: Vec<u8> = all(&root, "li.diagnostic").iter().map(rank).collect();
    assert!(ranks.is_sorted(), "errors, then warnings, then info: {ranks:?}");
    click(&one(&root, r#"[data-testid="line-order"]"#));
    leptos::task::tick().await;
    let in_lines: Vec<u8> = all(&root, "li.diagnostic").iter().map(rank).collect();
    assert!(!in_lines.is_sorted(), "the text's order mixes the severities: {in_lines:?}");
    assert_eq!(in_lines.len(), ranks.len());
}

#[wasm_bindgen_test]
async fn the_kind_switch_sets_the_choice() {
    let choice = RwSignal::new(None::<Kind>);
    let root = host();
    let _mounted =
        leptos::mount::mount_to(root.clone(), move || view! { <KindSwitch choice=choice /> });
    click(&one(&root, r#"[data-kind="plugin-manifest"]"#));
    assert_eq!(choice.get_untracked(), Some(Kind::PluginManifest));
    leptos::task::tick().await;
    assert_eq!(
        one(&root, r#"[data-kind="plugin-manifest"]"#).get_attribute("aria-checked").as_deref(),
        Some("true")
    );
    assert_eq!(
        one(&root, r#"[data-kind="auto"]"#).get_attribute("aria-checked").as_deref(),
        Some("false")
    );
    click(&one(&root, r#"[data-kind="auto"]"#));
    assert_eq!(choice.get_untracked(), None);
}

#[wasm_bindgen_test]
async fn a_rule_page_renders_the_registry_documentation() {
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), || {
        view! { <RulesPanel selected=Signal::stored(Some("PB213".to_owned())) /> }
    });
    let page = one(&root, "article.rule-page");
    assert_eq!(page.get_attribute("data-rule").as_deref(), Some("PB213"));
    let rule = opb_core::rule("PB213").expect("PB213 is registered");
    let text = page.text_content().unwrap_or_default();
    assert!(text.contains(rule.name));
    assert!(!all(&page, ".markdown pre code").is_empty(), "the example is a code block");
}

#[wasm_bindgen_test]
async fn the_rule_index_lists_every_rule() {
    let root = host();
    let _mounted = leptos::mount::mount_to(
        root.clone(),
        || view! { <RulesPanel selected=Signal::stored(None::<String>) /> },
    );
    assert_eq!(all(&root, "a.rule-row").len(), opb_core::rules().count());
}

#[wasm_bindgen_test]
async fn markdown_never_becomes_html() {
    // Raw HTML reaches the tree as text (src/markdown/parse.rs tests that);
    // text nodes render as text: a rule's tree over a source whose every
    // text is markup.
    fn sources(tree: &[Md], ranges: &mut Vec<(usize, usize)>) {
        for node in tree {
            match *node {
                Md::Source(start, end) => ranges.push((start.into(), end.into())),
                Md::Element(..) => sources(node.children(), ranges),
                Md::Text(_) => {}
            }
        }
    }
    let rule = opb_core::rule("IN001").expect("IN001 is registered");
    let tree = opb_app::markdown::documentation(rule).tree;
    let mut ranges = Vec::new();
    sources(tree, &mut ranges);
    let markup = "<img src=x onerror=f()><script>f()</script>";
    let mut source = vec![b' '; ranges.iter().map(|(_, end)| *end).max().unwrap_or(0)];
    for (start, end) in ranges {
        for (byte, text) in source[start..end].iter_mut().zip(markup.bytes().cycle()) {
            *byte = text;
        }
    }
    let source = String::from_utf8(source).expect("the markup is ASCII");
    let root = host();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        let documentation = Documentation { source, tree };
        view! { <Markdown documentation=documentation /> }
    });
    assert!(all(&root, "img").is_empty());
    assert!(all(&root, "script").is_empty());
    assert_eq!(all(&root, "h3").len(), 1);
    assert!(root.text_content().unwrap_or_default().contains(markup));
}
