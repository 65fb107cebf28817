//! The step graph as a page shows it (the viewer, the HTML report): the
//! drawing, headed by the layout's notice when it was simplified; the steps
//! and their edges as a list when the graph is too dense to draw within the
//! layout's budget; or why there is no drawing.
//!
//! The notices' words are the core's ([`opb_core::explain::layout`]) and
//! [`crate::drawing`]'s; the playground's graph view shows the same.

use crate::drawing::{dense_notice, edge_lines};
use crate::legend;
use crate::svg::{drawn, write_stylesheet, NotDrawn, NoticeIn};
use crate::xml::escape;
use crate::Theme;
use opb_core::explain::layout::Notice;
use opb_core::explain::{Graph, PlaybookExplain};
use opb_core::pause;
use opb_core::prose::capitalise;
use std::fmt::Write;
use std::future::Future;

/// The graph for the viewer, whose page links the graph's stylesheet: the
/// drawing in a `div` of class `opb-graph`, and its legend, closed. `pause` is asked during the
/// layout ([`opb_core::pause`]).
pub async fn for_viewer<W: Future<Output = ()>>(
    explain: &PlaybookExplain,
    pause: impl FnMut() -> Option<W>,
) -> String {
    on_page(explain, "opb-graph", pause).await
}

/// The graph for a fragment of a docs page ([`crate::fragment`]), whose
/// stylesheet gives it its colours: the drawing in a `div` of class
/// `graph`, and its legend, closed.
pub fn for_fragment(explain: &PlaybookExplain) -> String {
    pause::at_once(on_page(explain, "graph", pause::never))
}

/// The drawing without a stylesheet of its own, in a `div` of `class`,
/// and its legend, closed.
async fn on_page<W: Future<Output = ()>>(
    explain: &PlaybookExplain,
    class: &str,
    pause: impl FnMut() -> Option<W>,
) -> String {
    match drawn(explain, None, |_| {}, NoticeIn::Page, pause).await {
        Ok((svg, fidelity)) => framed(fidelity.notice(), class, &svg, legend::html(false, None)),
        Err(why) => undrawn(&explain.graph, &why),
    }
}

/// The graph for the HTML report: a standalone drawing in `theme`, in a
/// `div` of class `graph`, and its legend, open (a printed page cannot
/// open it).
pub fn for_report(explain: &PlaybookExplain, theme: Theme) -> String {
    let drawn = drawn(explain, Some(theme), write_stylesheet, NoticeIn::Page, pause::never);
    match pause::at_once(drawn) {
        Ok((svg, fidelity)) => {
            framed(fidelity.notice(), "graph", &svg, legend::html(true, Some(theme)))
        }
        Err(why) => undrawn(&explain.graph, &why),
    }
}

/// The drawing in a `div` of `class`, its notice above it and `legend`
/// (what its marks mean, [`legend::html`]) below.
fn framed(notice: Option<&str>, class: &str, svg: &str, legend: String) -> String {
    let mut out = notice.map(note).unwrap_or_default();
    write!(out, r#"<div class="{class}">{svg}</div>{legend}"#).ok();
    out
}

/// Why there is no drawing, with the list in its place when there are
/// steps to list.
fn undrawn(graph: &Graph, why: &NotDrawn) -> String {
    match why {
        NotDrawn::TooDense(dense) => {
            let mut out = note(&dense_notice(dense));
            out.push_str(&edge_list(graph));
            out
        }
        _ => format!("<p>{}.</p>", escape(&capitalise(why).to_string())),
    }
}

/// A notice about the drawing, as a page shows it.
fn note(text: &str) -> String {
    format!(
        r#"<p class="graph-notice" role="note" data-testid="graph-notice">{}</p>"#,
        escape(text)
    )
}

/// Every step of `graph` with the steps its `next` leads to, as an HTML
/// list ([`edge_lines`]).
pub fn edge_list(graph: &Graph) -> String {
    let mut out = String::from(r#"<ul class="graph-list" data-testid="graph-list">"#);
    for line in edge_lines(graph) {
        write!(out, "<li>{}</li>", escape(&line)).ok();
    }
    out.push_str("</ul>");
    out
}
