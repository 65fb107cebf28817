//! The viewer's markup: what `<opb-viewer>` and the embed page show of a
//! document, written here once as HTML (escaped, no script, no event
//! handler, no style attribute), so a host page's Content-Security-Policy
//! needs nothing for it beyond the viewer's stylesheet.
//!
//! The trust summary first ([`crate::glance`]), then one panel per tab:
//! for a playbook its graph with every step's boundary beneath it, its
//! embedded tools, the `requires` cross-check, the risk paths and the
//! problems; for a plugin manifest its tools and the problems. The script
//! of the page (`js/opb-viewer.js`) switches tabs and links the graph's
//! steps to their boundaries; without it every panel's content is there.
//! Each panel carries its tab's name (`data-label`), which heads it on paper,
//! where every panel is printed and the tab row is not (style/viewer.css).

use crate::html::{diagnostics, HtmlPage};
use crate::words::plural;
use crate::xml::escape;
use opb_core::explain::boundary::by_risk;
use opb_core::explain::manifest::ManifestExplain;
use opb_core::explain::paths::RiskPaths;
use opb_core::explain::{Explain, PlaybookExplain};
use opb_core::{pause, Analysis};
use std::fmt::Write;
use std::future::Future;

/// What a view says of a text it could not read as either kind.
pub(crate) const UNREAD: &str = "opb could not read this as a playbook or a plugin manifest.";

/// A tab of the viewer: its id (what `<opb-viewer tab="…">` names) and
/// label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tab {
    /// `graph`, `tools`, `requires`, `paths`, `manifest` or `diagnostics`.
    pub id: &'static str,
    /// What the tab says.
    pub label: String,
}

/// The viewer's markup for the document read from `name`, analysed as
/// `analysis`, and its tabs in order (the first is shown first).
pub fn view(name: &str, analysis: &Analysis) -> (String, Vec<Tab>) {
    pause::at_once(view_pausing(name, analysis, pause::never))
}

/// The viewer's markup as [`view`] writes it, asking `pause` now and then
/// whether to pause ([`opb_core::pause`]): between its parts and while the
/// graph is laid out.
pub async fn view_pausing<W: Future<Output = ()>>(
    name: &str,
    analysis: &Analysis,
    mut pause: impl FnMut() -> Option<W>,
) -> (String, Vec<Tab>) {
    let mut out = String::with_capacity(32_768);
    out.push_str(r#"<div class="opb-view">"#);
    // Walked once, for the summary and the Risk paths tab.
    let paths = opb_core::risk_paths(analysis);
    pause::ask(&mut pause).await;
    banner(&mut out, analysis, paths.as_ref());
    let mut panels: Vec<(Tab, String)> = match &analysis.explain {
        Some(Explain::Playbook(explain)) => playbook(name, explain, paths.as_ref(), pause).await,
        Some(Explain::PluginManifest(explain)) => manifest(name, explain),
        None => vec![],
    };
    let counts = analysis.checked.counts;
    let problems = counts.error + counts.warning + counts.info;
    let mut body = String::new();
    if analysis.explain.is_none() {
        write!(body, r#"<p class="opb-unread">{UNREAD}</p>"#).ok();
    }
    diagnostics(&mut body, name, &analysis.checked.diagnostics);
    let label =
        if problems == 0 { "Problems".to_owned() } else { format!("Problems ({problems})") };
    panels.push((Tab { id: "diagnostics", label }, body));
    tabs(&mut out, &panels);
    out.push_str("</div>");
    (out, panels.into_iter().map(|(tab, _)| tab).collect())
}

/// The trust banner as the viewer shows it first: the trust summary
/// ([`crate::glance`]) in its section, headed for assistive technology.
/// `paths` is the document's risk paths, when it is a playbook; nothing is
/// written for a document that is neither kind.
pub fn banner(out: &mut String, analysis: &Analysis, paths: Option<&RiskPaths>) {
    if let Some(summary) = opb_core::trust_summary_with(analysis, paths) {
        // The document's name (masked by the core), for a page that shows
        // one document to take as its title: the reading view.
        let title = summary.title.as_deref().map(escape).unwrap_or_default();
        write!(
            out,
            r#"<section class="trust-banner" data-testid="trust-banner" data-title="{title}" aria-labelledby="opb-glance"><h2 id="opb-glance">What this document can do</h2>{}</section>"#,
            crate::glance::html(&summary)
        )
        .ok();
    }
}

fn tabs(out: &mut String, panels: &[(Tab, String)]) {
    out.push_str(r#"<div class="opb-tabs" role="tablist" aria-label="What to show">"#);
    for (i, (tab, _)) in panels.iter().enumerate() {
        let first = i == 0;
        write!(
            out,
            r#"<button type="button" role="tab" id="opb-tab-{id}" aria-controls="opb-panel-{id}" aria-selected="{first}" tabindex="{index}" data-tab="{id}" data-testid="tab-{id}">{}</button>"#,
            escape(&tab.label),
            id = tab.id,
            index = if first { 0 } else { -1 },
        )
        .ok();
    }
    out.push_str("</div>");
    for (i, (tab, body)) in panels.iter().enumerate() {
        write!(
            out,
            r#"<section class="opb-panel" role="tabpanel" id="opb-panel-{id}" aria-labelledby="opb-tab-{id}" data-tab="{id}" data-label="{}"{hidden}>{body}</section>"#,
            escape(&tab.label),
            id = tab.id,
            hidden = if i == 0 { "" } else { " hidden" },
        )
        .ok();
    }
}

/// The account's blocks by section: what comes before the first heading,
/// then each section's blocks (its heading first).
fn sections(blocks: Vec<String>) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head = Vec::new();
    let mut sections: Vec<Vec<String>> = Vec::new();
    for block in blocks {
        match sections.last_mut() {
            _ if block.starts_with("<h2") => sections.push(vec![block]),
            Some(section) => section.push(block),
            None => head.push(block),
        }
    }
    (head, sections)
}

async fn playbook<W: Future<Output = ()>>(
    name: &str,
    explain: &PlaybookExplain,
    paths: Option<&RiskPaths>,
    mut pause: impl FnMut() -> Option<W>,
) -> Vec<(Tab, String)> {
    let mut page = HtmlPage::default();
    crate::explain::playbook::render(name, explain, &mut page);
    pause::ask(&mut pause).await;
    let (_, mut sections) = sections(page.finish());
    // The account's sections: steps, embedded tools, requires, graph.
    let facts = sections.pop().unwrap_or_default();
    let requires = sections.pop().unwrap_or_default();
    // The account lists the tools in the document's order; the viewer's
    // tab lists them riskiest first, as the playground's table does.
    sections.pop();
    let mut tools = HtmlPage::default();
    crate::explain::playbook::tools(by_risk(&explain.tools), &mut tools);
    let tools = tools.finish();
    let steps = sections.pop().unwrap_or_default();

    let mut graph = crate::figure::for_viewer(explain, &mut pause).await;
    pause::ask(&mut pause).await;
    // Each step's boundary, in the graph's order, marked with its id so a
    // step chosen in the drawing leads to it.
    let mut ids = explain.steps.iter().map(|step| step.id.as_deref().unwrap_or_default());
    let mut open = false;
    for block in steps {
        if block.starts_with("<h3") {
            if open {
                graph.push_str("</article>");
            }
            write!(
                graph,
                r#"<article class="opb-step" data-step="{}">"#,
                escape(ids.next().unwrap_or_default())
            )
            .ok();
            open = true;
        }
        graph.push_str(&block);
    }
    if open {
        graph.push_str("</article>");
    }
    facts.iter().for_each(|block| graph.push_str(block));

    let count = explain.tools.len();
    let mut panels = vec![
        (Tab { id: "graph", label: "Graph".to_owned() }, graph),
        (Tab { id: "tools", label: format!("Tools ({count})") }, tools.concat()),
        (Tab { id: "requires", label: "Requires".to_owned() }, requires.concat()),
    ];
    if let Some(paths) = paths {
        let mut page = HtmlPage::default();
        crate::explain::paths::render(name, explain, paths, &mut page);
        // Its title is the viewer's own: the panel starts at its overview.
        let blocks: String = page.finish().into_iter().skip(1).collect();
        let flagged = paths.flagged_paths();
        let label = if flagged == 0 {
            "Risk paths".to_owned()
        } else {
            format!("Risk paths ({} flagged)", flagged)
        };
        panels.push((Tab { id: "paths", label }, blocks));
    }
    panels
}

fn manifest(name: &str, explain: &ManifestExplain) -> Vec<(Tab, String)> {
    let mut page = HtmlPage::default();
    crate::explain::manifest::render(name, explain, &mut page);
    let (head, sections) = sections(page.finish());
    // The opening says what the plugin is; its title is the banner's.
    let body: String = head.into_iter().skip(1).chain(sections.into_iter().flatten()).collect();
    vec![(Tab { id: "manifest", label: plural(explain.tools.len(), "tool", "tools") }, body)]
}

/// The `opb:result` message a host page is told after each check, as JSON:
/// `{type, kind, counts, diagnostics}`, each diagnostic with its code,
/// name, severity, message (masked by the core), pointer and range. The
/// viewer's element and the playground's embed page send it. Written here
/// rather than with serde_json, which would weigh more in the viewer's wasm
/// than the rest of this module.
pub fn result(analysis: &Analysis) -> String {
    let checked = &analysis.checked;
    let mut out = String::with_capacity(256 + 256 * checked.diagnostics.len());
    out.push_str(r#"{"type":"opb:result","kind":"#);
    match checked.kind {
        Some(kind) => string(&mut out, kind.as_str()),
        None => out.push_str("null"),
    }
    let counts = checked.counts;
    write!(
        out,
        r#","counts":{{"error":{},"warning":{},"info":{}}},"diagnostics":["#,
        counts.error, counts.warning, counts.info
    )
    .ok();
    for (i, d) in checked.diagnostics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"code":"#);
        string(&mut out, d.code);
        out.push_str(r#","name":"#);
        string(&mut out, d.name);
        out.push_str(r#","severity":"#);
        string(&mut out, d.severity.as_str());
        out.push_str(r#","message":"#);
        string(&mut out, &d.message);
        out.push_str(r#","pointer":"#);
        string(&mut out, &d.pointer);
        let (start, end) = (d.range.start, d.range.end);
        write!(
            out,
            r#","line":{},"column":{},"end_line":{},"end_column":{}}}"#,
            start.line, start.column, end.line, end.column
        )
        .ok();
    }
    out.push_str("]}");
    out
}

/// `text` as a JSON string.
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                write!(out, "\\u{:04x}", u32::from(c)).ok();
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
