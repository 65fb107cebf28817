//! The step graph as one standalone SVG: the playground's layout, shapes
//! and colours (its stylesheet `style/graph.css`, embedded), the texts as
//! text, a title and description for assistive technology, and each step's
//! hover text as its `<title>`. No script, no event handler, no reference
//! outside the file: it can be served as an image, inlined into a page or
//! printed.
//!
//! Every text comes from the core's explain view, which the core builds from
//! the document with its credentials masked.

use crate::drawing::{Geometry, Marks, N};
use crate::scene::{
    mark_classes, translate, Arrowhead, ErrorMark, Listing, Node, Outline, Scene, Tag, Text,
    UnsupervisedMark, ARROWHEAD, ARROWHEADS,
};
use crate::xml::escape;
use crate::Theme;
use opb_core::explain::layout::{Fidelity, Notice, TooDense};
use opb_core::explain::PlaybookExplain;
use opb_core::pause;
use std::fmt::Write;
use std::future::Future;

/// The graph's stylesheet, as the playground links it.
pub(crate) const GRAPH_CSS: &str = include_str!("../../../style/graph.css");

/// What a drawing outside the playground needs beside `style/graph.css`:
/// a font of its own, its background, and, inlined into a narrower column,
/// shrinking to fit it.
pub(crate) const DRAWING_CSS: &str = "svg.graph{font-family:ui-sans-serif,system-ui,sans-serif;max-width:100%;height:auto}svg.graph .graph-background{fill:var(--graph-bg)}";

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
    let said = layout.fidelity.notice().filter(|_| notice == NoticeIn::Drawing);
    let scene = Scene::new(&geometry, &layout, said);
    let mut out = String::with_capacity(4096 + 1024 * steps);
    drawing(&mut out, explain, &scene, &Marks::of(explain), theme, &style);
    Ok((named(&out), layout.fidelity))
}

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

/// Writes `scene`, its ids starting with [`IDS`] for [`named`] to replace.
fn drawing(
    out: &mut String,
    explain: &PlaybookExplain,
    scene: &Scene<'_>,
    marks: &[Marks],
    theme: Option<Theme>,
    style: &impl Fn(&mut String),
) {
    let ids = IDS;
    let notice = scene.notice.as_ref();
    open(out, explain, (scene.width, scene.height), notice.map(|n| &*n.text), theme, style);
    if let Some(notice) = notice {
        out.push_str(r#"<text class="graph-notice""#);
        text(out, notice);
        write!(out, r#"<g transform="{}">"#, translate(0.0, scene.top)).ok();
    }
    out.push_str("<defs>");
    let Arrowhead { path, view_box, tip: (x, y), size } = ARROWHEAD;
    for (id, class) in ARROWHEADS {
        write!(
            out,
            r#"<marker id="{ids}{id}" class="{class}" viewBox="{view_box}" refX="{}" refY="{}" markerWidth="{}" markerHeight="{}" orient="auto-start-reverse"><path d="{path}"/></marker>"#,
            N(x), N(y), N(size), N(size)
        )
        .ok();
    }
    out.push_str(r#"</defs><g class="edges">"#);
    for edge in scene.edges() {
        write!(
            out,
            r#"<g class="{}"><path d="{}" marker-end="url(#{ids}{})"/>"#,
            edge.class(),
            edge.path,
            edge.arrowhead()
        )
        .ok();
        if let Some(label) = &edge.tag {
            out.push_str(r#"<g class="edge-label""#);
            tag(out, label);
        }
        out.push_str("</g>");
    }
    out.push_str(r#"</g><g class="terminals">"#);
    for terminal in scene.terminals() {
        write!(
            out,
            r#"<g class="edge terminal-edge"><path d="{}" marker-end="url(#{ids}{})"/></g>"#,
            terminal.path, ARROWHEADS[0].0
        )
        .ok();
        write!(out, r#"<g class="terminal" data-terminal="{}""#, terminal.which).ok();
        tag(out, &terminal.tag);
    }
    out.push_str(r#"</g><g class="nodes">"#);
    for (node, mark) in scene.nodes().zip(marks) {
        node_svg(out, &node, mark);
    }
    out.push_str("</g>");
    if notice.is_some() {
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
}

/// Writes a text's position, what it says and its end tag, after its start
/// tag's name and attributes.
fn text(out: &mut String, text: &Text<'_>) {
    write!(out, r#" x="{}" y="{}">{}</text>"#, N(text.x), N(text.y), escape(&text.text)).ok();
}

/// Writes a tag after its group's start tag and attributes: the group
/// moved to the tag's place, its box and its text.
fn tag(out: &mut String, tag: &Tag<'_>) {
    write!(
        out,
        r#" transform="{}"><rect width="{}" height="{}" rx="{}"/><text"#,
        translate(tag.x, tag.y),
        N(tag.width),
        N(tag.height),
        N(tag.corner)
    )
    .ok();
    text(out, &tag.text);
    out.push_str("</g>");
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
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="graph"{theme} width="{w:.0}" height="{h:.0}" viewBox="0 0 {} {}" role="img" aria-labelledby="{ids}title {ids}desc">"#,
        N(w),
        N(h)
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
    write!(out, r#"<rect class="graph-background" width="{}" height="{}"/>"#, N(w), N(h)).ok();
}

/// A standalone SVG in place of a graph too dense to draw ([`Listing`]).
fn listed(explain: &PlaybookExplain, dense: &TooDense, theme: Theme) -> String {
    let listing = Listing::new(&explain.graph, dense);
    let mut out = String::with_capacity(4096 + 80 * listing.lines.len());
    let size = (listing.width, listing.height);
    open(&mut out, explain, size, Some(&*listing.notice.text), Some(theme), &write_stylesheet);
    out.push_str(r#"<text class="graph-notice""#);
    text(&mut out, &listing.notice);
    out.push_str(r#"<g class="graph-list">"#);
    for line in &listing.lines {
        out.push_str("<text");
        text(&mut out, line);
    }
    out.push_str("</g></svg>\n");
    named(&out)
}

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
    for step in &explain.steps {
        if let (Some(id), Some(words)) = (&step.id, step.no_person_decides()) {
            write!(text, " {words}: {id}.").ok();
        }
    }
    text
}

/// The graph's stylesheet for a drawing of its own: the playground's
/// custom properties set on the drawing rather than on the page, so an SVG
/// inlined into a page neither reads nor changes the page's, and without
/// comments or indentation.
fn stylesheet() -> String {
    let css = uncommented(GRAPH_CSS)
        .replace(r#":root[data-theme="dark"]"#, r#"svg.graph[data-theme="dark"]"#)
        .replace(":root", "svg.graph");
    let css = own_properties_only(&css);
    let mut out = String::from(DRAWING_CSS);
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
    // On paper, light whatever the theme: a dark report or drawing prints
    // on white.
    if let Some(print) = crate::light_when_printed(&out, "svg.graph", r#"svg.graph[data-theme]"#) {
        out.push_str(&print);
    }
    out
}

/// `css` without its comments.
pub(crate) fn uncommented(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// `css` with each `var(--name, fallback)` whose property the stylesheet
/// does not set itself (the page's accent, error colour and fonts) replaced
/// by its fallback: a drawing reads nothing from the page it is put in.
pub(crate) fn own_properties_only(css: &str) -> String {
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

fn node_svg(out: &mut String, node: &Node<'_>, mark: &Marks) {
    let mut class = String::from("node");
    for name in mark_classes(mark) {
        class.push(' ');
        class.push_str(name);
    }
    write!(
        out,
        r#"<g class="{class}" data-kind="{}" data-step-id="{}" transform="{}"><title>{}</title>"#,
        node.kind,
        escape(node.id),
        translate(node.x, node.y),
        escape(&mark.title)
    )
    .ok();
    match &node.outline {
        Outline::Rect(corner) => write!(
            out,
            r#"<rect class="node-shape" width="{}" height="{}" rx="{}"/>"#,
            N(node.width),
            N(node.height),
            N(*corner)
        ),
        Outline::Path(path) => write!(out, r#"<path class="node-shape" d="{path}"/>"#),
    }
    .ok();
    if let Some(bar) = &node.bar {
        write!(
            out,
            r#"<path class="risk-bar" data-risk="{}" d="{}"/>"#,
            escape(bar.risk),
            bar.path
        )
        .ok();
    }
    for (class, shown) in &node.texts {
        write!(out, r#"<text class="{class}""#).ok();
        text(out, shown);
    }
    if let Some(badge) = &node.badge {
        write!(out, r#"<g class="{}" data-risk="{}""#, badge.class(), escape(badge.risk)).ok();
        tag(out, &badge.tag);
    }
    if let Some(mark) = ErrorMark::on(node.width, mark.errors) {
        error_mark(out, &mark);
    }
    if let Some(mark) = UnsupervisedMark::on(mark) {
        unsupervised_mark(out, &mark, true);
    }
    out.push_str("</g>");
}

/// Writes a step's error count ([`ErrorMark`]).
pub(crate) fn error_mark(out: &mut String, mark: &ErrorMark) {
    write!(
        out,
        r#"<g class="error-mark" transform="{}"><circle r="{}"/><text>{}</text></g>"#,
        translate(mark.x, mark.y),
        N(mark.radius),
        mark.text
    )
    .ok();
}

/// Writes the mark of a step no person decides before
/// ([`UnsupervisedMark`]), with its words as its `<title>` when `titled`.
pub(crate) fn unsupervised_mark(out: &mut String, mark: &UnsupervisedMark<'_>, titled: bool) {
    write!(out, r#"<g class="unsupervised-mark" transform="{}">"#, translate(mark.x, mark.y)).ok();
    if titled {
        write!(out, "<title>{}</title>", escape(mark.label)).ok();
    }
    write!(out, r#"<path d="{}"/><text"#, mark.path).ok();
    text(out, &mark.text);
    out.push_str("</g>");
}
