//! The step graph as one standalone SVG: the playground's layout, shapes
//! and colours (its stylesheet `style/graph.css`, embedded), the texts as
//! text, a title and description for assistive technology, and each step's
//! hover text as its `<title>`. No script, no event handler, no reference
//! outside the file: it can be served as an image, inlined into a page or
//! printed.
//!
//! Every text comes from the core's explain view, which the core builds from
//! the document with its credentials masked.

use crate::drawing::{
    dense_notice, diamond, edge_lines, label, path_data, risk_bar, text_width, Font, Geometry,
    Look, Marks, BAR, CORNER, ID_PX, PADDING,
};
use crate::xml::escape;
use crate::Theme;
use opb_core::explain::layout::{EdgeRoute, Fidelity, GraphLayout, NodeBox, Notice, TooDense};
use opb_core::explain::PlaybookExplain;
use opb_core::pause;
use std::fmt::Write;
use std::future::Future;

/// The graph's stylesheet, as the playground links it.
const GRAPH_CSS: &str = include_str!("../../../style/graph.css");

/// What cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotDrawn {
    /// The playbook has no step with an id.
    NoSteps,
    /// More steps than a diagram can show ([`crate::drawing::MAX_DRAWN_STEPS`]).
    TooManySteps(usize),
    /// Too many edges crossing ranks to lay out within the layout's budget:
    /// the steps and their edges are listed instead ([`graph`],
    /// [`crate::figure`]).
    TooDense(TooDense),
}

impl std::fmt::Display for NotDrawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotDrawn::NoSteps => {
                f.write_str("the playbook has no step with an id, so there is no graph to draw")
            }
            NotDrawn::TooManySteps(count) => write!(
                f,
                "the playbook has {count} steps, more than the {} a diagram can show",
                crate::drawing::MAX_DRAWN_STEPS
            ),
            NotDrawn::TooDense(dense) => dense.fmt(f),
        }
    }
}

/// The step graph of `explain` as a standalone SVG document in `theme`.
/// The ids it defines (its arrowheads, title and description) start with
/// `opb-` and a digest of what is drawn, so drawings of several documents,
/// or of one in both themes, can share a page. A simplified drawing says so
/// above itself; a graph too dense to draw is listed instead, step by step.
pub fn graph(explain: &PlaybookExplain, theme: Theme) -> Result<String, NotDrawn> {
    let drawn = drawn(explain, Some(theme), write_stylesheet, NoticeIn::Drawing, pause::never);
    match pause::at_once(drawn) {
        Ok((svg, _)) => Ok(svg),
        Err(NotDrawn::TooDense(dense)) => Ok(listed(explain, &dense, theme)),
        Err(why) => Err(why),
    }
}

/// Writes the graph's stylesheet for a drawing of its own.
pub(crate) fn write_stylesheet(out: &mut String) {
    write!(out, "<style>{}</style>", stylesheet()).ok();
}

/// Where a simplified drawing's notice is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoticeIn {
    /// In the drawing, above the graph: a standalone SVG has nowhere else.
    Drawing,
    /// On the page, beside the drawing, which may be shown scaled down.
    Page,
}

/// The drawing and its fidelity, standalone in `theme` or, without one, for
/// a page; `style` writes its stylesheet, if it has one. Generic over
/// `style`, so the drawing for pages is compiled apart and a build that
/// draws only for pages (the viewer's wasm) links no stylesheet. `pause`
/// is asked during the layout ([`opb_core::pause`]).
pub(crate) async fn drawn<W: Future<Output = ()>>(
    explain: &PlaybookExplain,
    theme: Option<Theme>,
    style: impl Fn(&mut String),
    notice: NoticeIn,
    pause: impl FnMut() -> Option<W>,
) -> Result<(String, Fidelity), NotDrawn> {
    let steps = explain.graph.nodes.len();
    let geometry = Geometry::of(explain).ok_or(NotDrawn::TooManySteps(steps))?;
    if geometry.nodes.is_empty() {
        return Err(NotDrawn::NoSteps);
    }
    let layout = geometry.lay_out_pausing(pause).await.map_err(NotDrawn::TooDense)?;
    let marks = Marks::of(explain);
    let mut out = String::with_capacity(4096 + 1024 * steps);
    let said = layout.fidelity.notice().filter(|_| notice == NoticeIn::Drawing);
    let parts = Parts { explain, geometry: &geometry, layout: &layout, marks: &marks };
    drawing(&mut out, &parts, said, theme, &style);
    Ok((named(&out), layout.fidelity))
}

/// What a drawing is made of.
struct Parts<'a> {
    explain: &'a PlaybookExplain,
    geometry: &'a Geometry,
    layout: &'a GraphLayout,
    marks: &'a [Marks],
}

/// The height of the band above a drawing that holds its notice.
const NOTICE_BAND: f64 = 30.0;
/// The notice's text size.
const NOTICE_PX: f64 = 13.0;

/// `svg` with its ids' prefix ([`IDS`]) replaced by `opb-` and a digest of
/// the whole.
fn named(svg: &str) -> String {
    svg.replace('\0', &format!("opb-{:08x}-", digest(svg)))
}

/// FNV-1a, folded to 32 bits: ids that differ between drawings.
fn digest(text: &str) -> u32 {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash ^ (hash >> 32)) as u32
}

/// Writes the drawing, its ids starting with [`IDS`] for [`named`] to replace;
/// `notice`, when given, in a band above the graph.
fn drawing(
    out: &mut String,
    parts: &Parts<'_>,
    notice: Option<&str>,
    theme: Option<Theme>,
    style: &impl Fn(&mut String),
) {
    let Parts { explain, geometry, layout, marks } = *parts;
    let ids = IDS;
    let band = if notice.is_some() { NOTICE_BAND } else { 0.0 };
    let notice_width =
        notice.map_or(0.0, |text| text_width(text, NOTICE_PX, Font::Sans) + 2.0 * PADDING);
    let size = (layout.width.max(notice_width), layout.height + band);
    open(out, explain, size, notice, theme, style);
    if let Some(text) = notice {
        write!(
            out,
            r#"<text class="graph-notice" x="{PADDING}" y="{:.1}">{}</text><g transform="translate(0,{band:.1})">"#,
            band / 2.0,
            escape(text)
        )
        .ok();
    }
    out.push_str("<defs>");
    for (id, class) in [("arrow", "arrow"), ("arrow-back", "arrow back")] {
        write!(
            out,
            r#"<marker id="{ids}{id}" class="{class}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 1 L10 5 L0 9 Z"/></marker>"#
        )
        .ok();
    }
    out.push_str("</defs>");
    edges(out, geometry, layout, ids);
    terminals(out, layout, ids);
    out.push_str(r#"<g class="nodes">"#);
    for ((node, b), mark) in geometry.nodes.iter().zip(&layout.nodes).zip(marks) {
        node_svg(out, node, b, mark);
    }
    out.push_str("</g>");
    if notice.is_some() {
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
}

/// NUL where the ids' prefix goes: escaped text never holds one, so the
/// prefix, a digest of the whole, replaces exactly those ([`named`]).
const IDS: &str = "\0";

/// Opens an SVG of `size` (width and height): its title, its description
/// (with `notice`, when there is one), its stylesheet and background.
fn open(
    out: &mut String,
    explain: &PlaybookExplain,
    (w, h): (f64, f64),
    notice: Option<&str>,
    theme: Option<Theme>,
    style: &impl Fn(&mut String),
) {
    let ids = IDS;
    let theme = theme.map(|theme| format!(r#" data-theme="{}""#, theme.name())).unwrap_or_default();
    write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="graph"{theme} width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" role="img" aria-labelledby="{ids}title {ids}desc">"#,
    )
    .ok();
    write!(out, r#"<title id="{ids}title">{}</title>"#, escape(&title(explain))).ok();
    let notice = notice.map(|text| format!(" {text}")).unwrap_or_default();
    write!(
        out,
        r#"<desc id="{ids}desc">{}{}</desc>"#,
        escape(&description(explain)),
        escape(&notice)
    )
    .ok();
    style(out);
    write!(out, r#"<rect class="graph-background" width="{w:.1}" height="{h:.1}"/>"#).ok();
}

/// A standalone SVG in place of a graph too dense to draw: the notice, then
/// each step and its edges, a line each ([`edge_lines`]).
fn listed(explain: &PlaybookExplain, dense: &TooDense, theme: Theme) -> String {
    let notice = dense_notice(dense);
    let lines = edge_lines(&explain.graph);
    let widest = std::iter::once(text_width(&notice, NOTICE_PX, Font::Sans))
        .chain(lines.iter().map(|line| text_width(line, LIST_PX, Font::Sans)))
        .fold(0.0, f64::max);
    let size = (widest + 2.0 * PADDING, NOTICE_BAND + LIST_LINE * lines.len() as f64 + PADDING);
    let mut out = String::with_capacity(4096 + 80 * lines.len());
    open(&mut out, explain, size, Some(&notice), Some(theme), &write_stylesheet);
    write!(
        out,
        r#"<text class="graph-notice" x="{PADDING}" y="{:.1}">{}</text><g class="graph-list">"#,
        NOTICE_BAND / 2.0,
        escape(&notice)
    )
    .ok();
    for (i, line) in lines.iter().enumerate() {
        let y = NOTICE_BAND + LIST_LINE * (i as f64 + 0.5);
        write!(out, r#"<text x="{PADDING}" y="{y:.1}">{}</text>"#, escape(line)).ok();
    }
    out.push_str("</g></svg>\n");
    named(&out)
}

/// A listed step's text size, and the height of its line.
const LIST_PX: f64 = 12.0;
const LIST_LINE: f64 = 20.0;

/// The drawing's title: the playbook's name or id.
fn title(explain: &PlaybookExplain) -> String {
    let document = &explain.document;
    match document.name.as_deref().or(document.id.as_deref()) {
        Some(name) => format!("Step graph of {name}"),
        None => "Step graph of a playbook".to_owned(),
    }
}

/// The drawing described in words: its steps and where it starts.
fn description(explain: &PlaybookExplain) -> String {
    let graph = &explain.graph;
    let steps = graph.nodes.iter().map(|n| n.id.as_str()).collect::<Vec<_>>().join(", ");
    let mut text = format!("{} steps: {steps}.", graph.nodes.len());
    match &graph.start {
        Some(start) => write!(text, " It starts at {start}.").ok(),
        None => write!(text, " It names no start step.").ok(),
    };
    if !graph.unreachable.is_empty() {
        let unreachable =
            graph.unreachable.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
        write!(text, " Not reachable from the start: {unreachable}.").ok();
    }
    text
}

/// The graph's stylesheet for a drawing of its own: the playground's
/// custom properties set on the drawing rather than on the page, so an SVG
/// inlined into a page neither reads nor changes the page's, and without
/// comments or indentation.
fn stylesheet() -> String {
    let mut css = String::with_capacity(GRAPH_CSS.len());
    let mut rest = GRAPH_CSS;
    while let Some(start) = rest.find("/*") {
        css.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    css.push_str(rest);
    let css = css
        .replace(r#":root[data-theme="dark"]"#, r#"svg.graph[data-theme="dark"]"#)
        .replace(":root", "svg.graph");
    let css = own_properties_only(&css);
    // Inlined into a narrower column, the drawing shrinks to fit it.
    let mut out = String::from("svg.graph{font-family:ui-sans-serif,system-ui,sans-serif;max-width:100%;height:auto}svg.graph .graph-background{fill:var(--graph-bg)}");
    for line in css.lines().map(str::trim).filter(|l| !l.is_empty()) {
        out.push_str(line);
    }
    // `auto` draws in the dark palette when the reader's system prefers it.
    if let Some(auto) = crate::dark_when_preferred(
        &out,
        r#"svg.graph[data-theme="dark"]"#,
        r#"svg.graph[data-theme="auto"]"#,
    ) {
        out.push_str(&auto);
    }
    out
}

/// `css` with each `var(--name, fallback)` whose property the stylesheet
/// does not set itself (the page's accent, error colour and fonts) replaced
/// by its fallback: a drawing reads nothing from the page it is put in.
fn own_properties_only(css: &str) -> String {
    let own = |name: &str| css.contains(&format!("{name}:"));
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("var(--") {
        out.push_str(&rest[..at]);
        let call = &rest[at..];
        // The call ends at the parenthesis that closes it: a fallback may
        // hold calls of its own (`rgba(…)`).
        let mut depth = 0usize;
        let end = call
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                c == ')' && depth == 0
            })
            .map_or(call.len(), |(i, _)| i + 1);
        let inner = &call["var(".len()..(end - 1).max("var(".len())];
        match inner.split_once(',') {
            Some((name, fallback)) if !own(name.trim()) => out.push_str(fallback.trim()),
            _ => out.push_str(&call[..end]),
        }
        rest = &call[end..];
    }
    out.push_str(rest);
    out
}

fn edges(out: &mut String, geometry: &Geometry, layout: &GraphLayout, ids: &str) {
    out.push_str(r#"<g class="edges">"#);
    for (edge, route) in
        geometry.graph.edges.iter().zip(&layout.edges).filter(|(_, r)| !r.points.is_empty())
    {
        let (class, marker) =
            if edge.back { ("edge back", "arrow-back") } else { ("edge", "arrow") };
        write!(
            out,
            r#"<g class="{class}"><path d="{}" marker-end="url(#{ids}{marker})"/>"#,
            path_data(route)
        )
        .ok();
        if let (Some(text), Some(at)) = (edge.label.as_deref(), route.label) {
            let (text, size) = label(text);
            write!(
                out,
                r#"<g class="edge-label" transform="translate({:.1},{:.1})"><rect width="{:.1}" height="{:.1}" rx="6"/><text x="{:.1}" y="{:.1}">{}</text></g>"#,
                at.x - size.width / 2.0,
                at.y - size.height / 2.0,
                size.width,
                size.height,
                size.width / 2.0,
                size.height / 2.0,
                escape(&text)
            )
            .ok();
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

fn terminals(out: &mut String, layout: &GraphLayout, ids: &str) {
    out.push_str(r#"<g class="terminals">"#);
    let all = layout
        .start
        .iter()
        .map(|t| (t, "start", "Start"))
        .chain(layout.ends.iter().map(|t| (t, "end", "End")));
    for (terminal, which, text) in all {
        let b = terminal.at;
        terminal_edge(out, &terminal.edge, ids);
        write!(
            out,
            r#"<g class="terminal" data-terminal="{which}" transform="translate({:.1},{:.1})"><rect width="{:.1}" height="{:.1}" rx="{:.1}"/><text x="{:.1}" y="{:.1}">{text}</text></g>"#,
            b.x,
            b.y,
            b.width,
            b.height,
            b.height / 2.0,
            b.width / 2.0,
            b.height / 2.0
        )
        .ok();
    }
    out.push_str("</g>");
}

fn terminal_edge(out: &mut String, route: &EdgeRoute, ids: &str) {
    write!(
        out,
        r#"<g class="edge terminal-edge"><path d="{}" marker-end="url(#{ids}arrow)"/></g>"#,
        path_data(route)
    )
    .ok();
}

fn node_svg(out: &mut String, node: &crate::drawing::Node, b: &NodeBox, mark: &Marks) {
    let (w, h) = (b.width, b.height);
    let kind = match node.look {
        Look::Agent { .. } => "agent",
        Look::Gate { .. } => "gate",
        Look::Other { .. } => "other",
    };
    let mut class = String::from("node");
    for (on, name) in [(mark.unreachable, " unreachable"), (mark.in_cycle, " cyclic")] {
        if on {
            class.push_str(name);
        }
    }
    write!(
        out,
        r#"<g class="{class}" data-kind="{kind}" data-step-id="{}" transform="translate({:.1},{:.1})"><title>{}</title>"#,
        escape(&node.id),
        b.x,
        b.y,
        escape(&mark.title)
    )
    .ok();
    match &node.look {
        Look::Agent { title, agent, badge } => {
            let badge_w = badge.width();
            let badge_class =
                if badge.partly_unknown { "risk-badge partly-unknown" } else { "risk-badge" };
            let risk = escape(&badge.risk);
            write!(
                out,
                r#"<rect class="node-shape" width="{w:.1}" height="{h:.1}" rx="{CORNER}"/><path class="risk-bar" data-risk="{risk}" d="{}"/><text class="node-title" x="{x}" y="24">{}</text><text class="node-sub" x="{x}" y="43">{}</text><g class="{badge_class}" data-risk="{risk}" transform="translate({:.1},11)"><rect width="{badge_w:.1}" height="18" rx="9"/><text x="{:.1}" y="9.5">{}</text></g>"#,
                risk_bar(h),
                escape(title),
                escape(agent),
                w - PADDING - badge_w,
                badge_w / 2.0,
                escape(&badge.text),
                x = BAR + PADDING,
            )
            .ok();
        }
        Look::Gate { title } => {
            write!(
                out,
                r#"<path class="node-shape" d="{}"/><text class="node-caption" x="{:.1}" y="{:.1}">GATE</text><text class="node-title centered" x="{:.1}" y="{:.1}">{}</text>"#,
                diamond(w, h),
                w / 2.0,
                h / 2.0 - 10.0,
                w / 2.0,
                h / 2.0 + ID_PX * 0.55,
                escape(title)
            )
            .ok();
        }
        Look::Other { title, caption } => {
            write!(
                out,
                r#"<rect class="node-shape" width="{w:.1}" height="{h:.1}" rx="{CORNER}"/><text class="node-title" x="{PADDING}" y="22">{}</text><text class="node-sub" x="{PADDING}" y="40">{}</text>"#,
                escape(title),
                escape(caption)
            )
            .ok();
        }
    }
    if mark.errors > 0 {
        let count = if mark.errors > 9 { "9+".to_owned() } else { mark.errors.to_string() };
        write!(out, r#"<g class="error-mark" transform="translate({:.1},-7)"><circle r="10"/><text>{count}</text></g>"#, w - 7.0).ok();
    }
    out.push_str("</g>");
}
