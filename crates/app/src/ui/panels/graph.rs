//! The step graph: an SVG drawn with Leptos elements from the core's
//! layout. Zoom with the wheel or the buttons, pan by dragging, fit to the
//! view; Tab reaches each step, Enter selects it, Escape clears.

use super::camera::{Camera, ViewBox};
use super::explain::playbook_step;
use super::on_path::OnPath;
use super::selection::{Selection, Target};
use crate::checker::Report;
use leptos::ev::{KeyboardEvent, MouseEvent, PointerEvent, WheelEvent};
use leptos::prelude::*;
use opb_core::explain::layout::{Notice, Point};
use opb_core::explain::{Explain, PlaybookExplain};
use opb_render::drawing::{self, Geometry, Marks};
use opb_render::scene::{
    self, translate, ErrorMark, Outline, Scene, Tag, Text, UnsupervisedMark, ARROWHEAD, ARROWHEADS,
};
use opb_render::{figure, legend};
use std::collections::HashSet;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The zoom the view keeps within, in screen pixels per layout unit.
const MIN_SCALE: f64 = 0.05;
const MAX_SCALE: f64 = 3.0;
/// A first view never shrinks the graph below this: a long playbook opens
/// readable at its start rather than as a thumbnail.
const FIRST_VIEW_SCALE: f64 = 0.6;
/// A press that moves less than this many pixels is a click, not a drag.
const DRAG_THRESHOLD: f64 = 4.0;
const BUTTON_ZOOM: f64 = 1.25;

/// A drag in progress.
#[derive(Clone, Copy)]
struct Drag {
    pointer: i32,
    from: (f64, f64),
    view: ViewBox,
    moved: bool,
}

fn playbook(report: &Option<Arc<Report>>) -> Option<&PlaybookExplain> {
    match report.as_deref()?.analysis.explain.as_ref()? {
        Explain::Playbook(explain) => Some(explain),
        Explain::PluginManifest(_) => None,
    }
}

/// `path`: a risk path to pick out, the rest of the graph dimmed.
#[component]
pub fn GraphView(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    selection: Selection,
    #[prop(optional, into)] path: Option<Signal<Option<Arc<OnPath>>>>,
) -> impl IntoView {
    let path = path.unwrap_or_else(|| Signal::stored(None));
    let geometry = Memo::new(move |_| report.with(|r| playbook(r).and_then(Geometry::of)));
    let marks = Memo::new(move |_| report.with(|r| playbook(r).map(Marks::of).unwrap_or_default()));
    let laid_out =
        Memo::new(move |_| geometry.with(|g| g.as_ref().map(|g| g.lay_out().map(Arc::new))));
    let placed = Memo::new(move |_| laid_out.with(|l| l.clone().and_then(Result::ok)));
    // What the layout says of itself: that it simplified the drawing, or
    // that the graph is too dense to draw and is listed instead.
    let notice = Memo::new(move |_| {
        laid_out.with(|l| match l.as_ref()? {
            Ok(layout) => layout.fidelity.notice().map(str::to_owned),
            Err(dense) => Some(drawing::dense_notice(dense)),
        })
    });
    let listed = Memo::new(move |_| {
        let dense = laid_out.with(|l| matches!(l, Some(Err(_))));
        dense.then(|| report.with(|r| playbook(r).map(|p| figure::edge_list(&p.graph)))).flatten()
    });
    let steps = Memo::new(move |_| report.with(|r| playbook(r).map_or(0, |p| p.graph.nodes.len())));

    let camera = Camera::default();
    camera.watch_size();
    // Whether the reader has zoomed or panned since the view was last fitted:
    // until then a changed layout is fitted again.
    let moved_by_reader = StoredValue::new(false);
    let drag = StoredValue::new(None::<Drag>);
    let dragged = StoredValue::new(false);
    let shown_ids = StoredValue::new(HashSet::<String>::new());

    // `whole`: the whole graph, however small that makes it; otherwise a
    // first view that stays readable, starting at the top.
    let fit = move |whole: bool| {
        let Some(layout) = placed.get_untracked() else { return };
        moved_by_reader.set_value(false);
        let Some((_, _, cw, ch)) = camera.rect() else {
            camera.set(ViewBox { x: 0.0, y: 0.0, w: layout.width, h: layout.height });
            return;
        };
        let fits = (cw / layout.width).min(ch / layout.height).min(1.0);
        let scale = if whole { fits.max(MIN_SCALE) } else { fits.clamp(FIRST_VIEW_SCALE, 1.0) };
        let (w, h) = (cw / scale, ch / scale);
        let y = if h >= layout.height { (layout.height - h) / 2.0 } else { 0.0 };
        camera.set(ViewBox { x: (layout.width - w) / 2.0, y, w, h });
    };

    // A new layout keeps the reader's view, unless they have not moved it
    // or the document is another one (no step in common).
    Effect::new(move |_| {
        let ids: HashSet<String> =
            geometry.with(|g| g.iter().flat_map(|g| &g.nodes).map(|n| n.id.clone()).collect());
        placed.track();
        let unrelated = shown_ids.with_value(|shown| shown.is_disjoint(&ids));
        shown_ids.set_value(ids);
        if unrelated || !moved_by_reader.get_value() {
            request_animation_frame(move || fit(false));
        }
    });

    // A step selected elsewhere (a table row, a diagnostic) is brought into view.
    Effect::new(move |_| {
        let Some(Target::Step(id)) = selection.get() else { return };
        let target = placed.with_untracked(|p| {
            let index =
                geometry.with_untracked(|g| g.as_ref()?.nodes.iter().position(|n| n.id == id))?;
            p.as_ref()?.nodes.get(index).copied()
        });
        if let Some(node) = target {
            let vb = camera.current();
            if !vb.contains(&node) {
                let c = node.center();
                camera.set(ViewBox { x: c.x - vb.w / 2.0, y: c.y - vb.h / 2.0, ..vb });
            }
        }
    });

    // Zooms by `factor` around a drawing point (the view's centre by
    // default); `gesture` for a run of wheel steps.
    let zoom_at = move |at: Option<Point>, factor: f64, gesture: bool| {
        let Some((_, _, cw, ch)) = camera.rect() else { return };
        let vb = camera.current();
        let current = (cw / vb.w).min(ch / vb.h);
        let next = (current * factor).clamp(MIN_SCALE, MAX_SCALE);
        let k = current / next;
        let at = at.unwrap_or(Point { x: vb.x + vb.w / 2.0, y: vb.y + vb.h / 2.0 });
        moved_by_reader.set_value(true);
        let zoomed = ViewBox {
            x: at.x - (at.x - vb.x) * k,
            y: at.y - (at.y - vb.y) * k,
            w: vb.w * k,
            h: vb.h * k,
        };
        if gesture {
            camera.glide(zoomed, true);
        } else {
            camera.set(zoomed);
        }
    };

    let on_wheel = move |ev: WheelEvent| {
        ev.prevent_default();
        let lines = if ev.delta_mode() == 1 { 16.0 } else { 1.0 };
        let factor = (-ev.delta_y() * lines * 0.0015).exp();
        zoom_at(
            camera.to_drawing(f64::from(ev.client_x()), f64::from(ev.client_y())),
            factor,
            true,
        );
    };
    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        camera.commit();
        drag.set_value(Some(Drag {
            pointer: ev.pointer_id(),
            from: (f64::from(ev.client_x()), f64::from(ev.client_y())),
            view: camera.current(),
            moved: false,
        }));
    };
    let on_move = move |ev: PointerEvent| {
        let Some(mut d) = drag.get_value() else { return };
        let (dx, dy) = (f64::from(ev.client_x()) - d.from.0, f64::from(ev.client_y()) - d.from.1);
        if !d.moved {
            if dx.hypot(dy) < DRAG_THRESHOLD {
                return;
            }
            d.moved = true;
            // Captured only once it is a drag, so a click still reaches the node.
            if let Some(element) =
                ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let _ = element.set_pointer_capture(d.pointer);
            }
            drag.set_value(Some(d));
        }
        let Some((_, _, cw, ch)) = camera.rect() else { return };
        let s = (cw / d.view.w).min(ch / d.view.h);
        moved_by_reader.set_value(true);
        camera.glide(ViewBox { x: d.view.x - dx / s, y: d.view.y - dy / s, ..d.view }, false);
    };
    let on_up = move |ev: PointerEvent| {
        if let Some(d) = drag.get_value() {
            if d.moved {
                dragged.set_value(true);
                if let Some(element) =
                    ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                {
                    let _ = element.release_pointer_capture(d.pointer);
                }
            }
        }
        drag.set_value(None);
        camera.commit();
    };
    // A click on the empty canvas clears the selection; the end of a drag
    // is not a click.
    let on_canvas_click = move |_: MouseEvent| {
        if dragged.get_value() {
            dragged.set_value(false);
            return;
        }
        selection.choose(None);
    };
    let on_key = move |ev: KeyboardEvent| {
        match ev.key().as_str() {
            "Escape" => selection.choose(None),
            "+" | "=" => zoom_at(None, BUTTON_ZOOM, false),
            "-" | "_" => zoom_at(None, 1.0 / BUTTON_ZOOM, false),
            "0" => fit(true),
            _ => return,
        }
        ev.prevent_default();
    };

    let drawing = move || {
        let (Some(layout), Some(geometry)) = (placed.get(), geometry.get()) else {
            if listed.with(Option::is_some) {
                return ().into_any();
            }
            let count = steps.get();
            let text = if count > drawing::MAX_DRAWN_STEPS {
                format!("This playbook has {count} steps, more than the {} a diagram can show. The Tools and Requires tabs cover them all.", drawing::MAX_DRAWN_STEPS)
            } else {
                "There is no step graph to draw: this is not a playbook that could be read."
                    .to_owned()
            };
            return view! { <p class="panel-empty">{text}</p> }.into_any();
        };
        if geometry.nodes.is_empty() {
            return view! { <p class="panel-empty">"This playbook has no steps with an id, so there is nothing to draw."</p> }.into_any();
        }
        // The notice is shown above the canvas, not in the drawing.
        let scene = Scene::new(&geometry, &layout, None);
        scene_view(&scene, marks, selection, dragged, path).into_any()
    };
    view! {
        <div class="graph-view">
            <div class="graph-toolbar">
                <div class="graph-zoom" role="group" aria-label="Zoom">
                    <button class="icon-button" data-testid="zoom-out" title="Zoom out (−)" aria-label="Zoom out" on:click=move |_| zoom_at(None, 1.0 / BUTTON_ZOOM, false)>"−"</button>
                    <span class="zoom-level" data-testid="zoom-level">{move || format!("{:.0}%", camera.scale() * 100.0)}</span>
                    <button class="icon-button" data-testid="zoom-in" title="Zoom in (+)" aria-label="Zoom in" on:click=move |_| zoom_at(None, BUTTON_ZOOM, false)>"+"</button>
                    <button class="button fit-button" data-testid="fit" title="Fit the whole graph (0)" on:click=move |_| fit(true)>"Fit"</button>
                </div>
                <GraphLegend />
            </div>
            {move || notice.get().map(|text| view! {
                <p class="graph-notice" role="note" data-testid="graph-notice">{text}</p>
            })}
            // The list is the renderer's markup, every text in it escaped.
            {move || listed.get().map(|html| view! { <div class="graph-listed" inner_html=html></div> })}
            <div
                class="graph-canvas"
                hidden=move || listed.with(Option::is_some)
                data-testid="graph"
                node_ref=camera.canvas
                tabindex="0"
                role="group"
                aria-label="Step graph: drag to pan, scroll or press + and − to zoom, 0 to fit, Tab to each step"
                on:wheel=on_wheel
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_up
                on:keydown=on_key
                on:click=on_canvas_click
            >
                <svg
                    class="graph"
                    node_ref=camera.svg
                    width=move || camera.size.get().map(|(w, _)| w.to_string())
                    height=move || camera.size.get().map(|(_, h)| h.to_string())
                    viewBox=move || camera.view.get().attribute()
                    preserveAspectRatio="xMidYMid meet"
                    role="group"
                    aria-label="The playbook's steps and how they connect"
                >
                    // The arrowheads, and one for the edges of the selected step.
                    <defs>
                        {arrowhead(ARROWHEADS[0])}
                        {arrowhead(ARROWHEADS[1])}
                        {arrowhead(("arrow-related", "arrow related"))}
                    </defs>
                    {drawing}
                </svg>
            </div>
        </div>
    }
}

/// What every mark of the graph means: the renderer's legend, which the
/// viewer and the report show too. Its markup holds no document text.
#[component]
fn GraphLegend() -> impl IntoView {
    view! { <div class="graph-legend-menu" inner_html=legend::html(false, None)></div> }
}

/// The nodes, edges and terminals of one drawing.
fn scene_view(
    scene: &Scene<'_>,
    marks: Memo<Vec<Marks>>,
    selection: Selection,
    dragged: StoredValue<bool>,
    path: Signal<Option<Arc<OnPath>>>,
) -> impl IntoView {
    // Whether a shown path has the item (`Some(true)`), lacks it (dimmed) or
    // no path is shown.
    let on = move |has: Box<dyn Fn(&OnPath) -> bool + Send + Sync>| {
        let has: Arc<dyn Fn(&OnPath) -> bool + Send + Sync> = has.into();
        let lacks = has.clone();
        (
            move || path.with(|p| p.as_deref().is_some_and(|p| has(p))),
            move || path.with(|p| p.as_deref().is_some_and(|p| !lacks(p))),
        )
    };
    let edges = scene
        .edges()
        .map(|edge| {
            let (from, to) = (edge.from.to_owned(), edge.to.to_owned());
            let related = move || selection.with(|t| matches!(t, Some(Target::Step(id)) if *id == from || *id == to));
            let marker = format!("url(#opb-{})", edge.arrowhead());
            let (on_path, off_path) = {
                let (from, to) = (edge.from.to_owned(), edge.to.to_owned());
                on(Box::new(move |p| p.has_edge(&from, &to)))
            };
            let related_for_marker = related.clone();
            view! {
                <g
                    class=edge.class()
                    class:related=related
                    class:on-path=on_path
                    class:off-path=off_path
                    data-from=edge.from.to_owned()
                    data-to=edge.to.to_owned()
                    data-label=edge.label.map(str::to_owned)
                    data-back=edge.back.to_string()
                >
                    <path d=edge.path.clone() marker-end=move || if related_for_marker() { RELATED_MARKER.to_owned() } else { marker.clone() } />
                    {edge.tag.as_ref().map(|label| tag_view("edge-label", label))}
                </g>
            }
        })
        .collect_view();

    let terminals = scene
        .terminals()
        .map(|terminal| {
            let which = terminal.which;
            let (on_path, off_path) = {
                let step = terminal.step.to_owned();
                on(Box::new(move |p| if which == "start" { p.starts_at(&step) } else { p.ends_at(&step) }))
            };
            let tag = &terminal.tag;
            view! {
                <g class="edge terminal-edge" class:on-path=on_path.clone() class:off-path=off_path.clone()><path d=terminal.path.clone() marker-end=format!("url(#opb-{})", ARROWHEADS[0].0) /></g>
                <g class="terminal" class:on-path=on_path class:off-path=off_path data-terminal=which data-step=terminal.step.to_owned() transform=translate(tag.x, tag.y)>
                    <rect width=tag.width height=tag.height rx=tag.corner />
                    {text_view(&tag.text)}
                </g>
            }
        })
        .collect_view();

    let nodes = scene
        .nodes()
        .enumerate()
        .map(|(i, node)| {
            let id = node.id.to_owned();
            let shown = on(Box::new(move |p| p.has_step(&id)));
            node_view(i, &node, marks, selection, dragged, shown)
        })
        .collect_view();

    view! {
        <g class="edges">{edges}</g>
        <g class="terminals">{terminals}</g>
        <g class="nodes">{nodes}</g>
    }
}

/// An arrowhead ([`ARROWHEAD`]) of `id` and `class`.
fn arrowhead((id, class): (&str, &'static str)) -> impl IntoView {
    let (x, y) = ARROWHEAD.tip;
    let size = ARROWHEAD.size;
    view! {
        <marker id=format!("opb-{id}") class=class viewBox=ARROWHEAD.view_box refX=x refY=y markerWidth=size markerHeight=size orient="auto-start-reverse">
            <path d=ARROWHEAD.path />
        </marker>
    }
}

/// The arrowhead of an edge that leaves or reaches the selected step.
const RELATED_MARKER: &str = "url(#opb-arrow-related)";

fn text_view(text: &Text<'_>) -> impl IntoView {
    view! { <text x=text.x y=text.y>{text.text.to_string()}</text> }
}

/// A tag ([`Tag`]) in a group of `class`.
fn tag_view(class: &'static str, tag: &Tag<'_>) -> impl IntoView {
    view! {
        <g class=class transform=translate(tag.x, tag.y)>
            <rect width=tag.width height=tag.height rx=tag.corner />
            {text_view(&tag.text)}
        </g>
    }
}

fn node_view(
    i: usize,
    node: &scene::Node<'_>,
    marks: Memo<Vec<Marks>>,
    selection: Selection,
    dragged: StoredValue<bool>,
    (on_path, off_path): (
        impl Fn() -> bool + Send + Sync + 'static,
        impl Fn() -> bool + Send + Sync + 'static,
    ),
) -> impl IntoView {
    let target = Target::Step(node.id.to_owned());
    let selected = {
        let target = target.clone();
        move || selection.is(&target)
    };
    let mark = move |f: fn(&Marks) -> bool| move || marks.with(|m| m.get(i).is_some_and(f));
    let choose = {
        let target = target.clone();
        move || selection.choose(Some(target.clone()))
    };
    let on_click = {
        let choose = choose.clone();
        move |ev: MouseEvent| {
            ev.stop_propagation();
            if dragged.get_value() {
                dragged.set_value(false);
                return;
            }
            choose();
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        if matches!(ev.key().as_str(), "Enter" | " ") {
            ev.prevent_default();
            ev.stop_propagation();
            choose();
        }
    };
    let outline = match &node.outline {
        Outline::Rect(corner) => {
            view! { <rect class="node-shape" width=node.width height=node.height rx=*corner /> }
                .into_any()
        }
        Outline::Path(d) => view! { <path class="node-shape" d=d.clone() /> }.into_any(),
    };
    let bar = node.bar.as_ref().map(|bar| {
        view! { <path class="risk-bar" data-risk=bar.risk.to_owned() d=bar.path.clone() /> }
    });
    // Spaces between the node's texts (SVG draws none of them) keep its
    // words apart for assistive technology.
    let [(first_class, first), (second_class, second)] = &node.texts;
    let texts = view! {
        <text class=*first_class x=first.x y=first.y>{first.text.to_string()}</text>
        " "
        <text class=*second_class x=second.x y=second.y>{second.text.to_string()}</text>
    };
    let badge = node.badge.as_ref().map(|badge| {
        let tag = &badge.tag;
        view! {
            <g class=badge.class() data-risk=badge.risk.to_owned() transform=translate(tag.x, tag.y)>
                <rect width=tag.width height=tag.height rx=tag.corner />
                {text_view(&tag.text)}
            </g>
        }
    });
    // The accessible name is the text the node shows, so speech input
    // users can say what they see (WCAG 2.5.3), each part once: its texts,
    // its error count, then what it does not show (its kind).
    let shown = node.words();
    let label = move || {
        marks.with(|m| {
            m.get(i)
                .map(|m| {
                    let errors = match m.errors {
                        0 => String::new(),
                        1 => ", 1 error".to_owned(),
                        n => format!(", {n} errors"),
                    };
                    let rest =
                        if m.label.is_empty() { String::new() } else { format!(". {}", m.label) };
                    format!("{shown}{errors}{rest}")
                })
                .unwrap_or_default()
        })
    };
    let title = move || marks.with(|m| m.get(i).map(|m| m.title.clone()).unwrap_or_default());
    let errors = move || marks.with(|m| m.get(i).map_or(0, |m| m.errors));
    let width = node.width;
    let error_mark = move || {
        let count = errors();
        ErrorMark::on(width, count).map(|mark| {
            view! {
                <g class="error-mark" data-errors=count transform=translate(mark.x, mark.y)>
                    <circle r=mark.radius />
                    <text>{mark.text}</text>
                </g>
            }
        })
    };
    // Drawn as the standalone SVG draws it: its words are the node's
    // accessible name already, and its title the hover text.
    let unsupervised_mark = move || {
        marks.with(|m| {
            let mark = UnsupervisedMark::on(m.get(i)?)?;
            let label = mark.label.to_owned();
            Some(view! {
                <g class="unsupervised-mark" data-testid="unsupervised-mark" transform=translate(mark.x, mark.y)>
                    <title>{label}</title>
                    <path d=mark.path />
                    {text_view(&mark.text)}
                </g>
            })
        })
    };
    view! {
        <g
            class="node"
            class:selected=selected.clone()
            class:unreachable=mark(|m| m.unreachable)
            class:cyclic=mark(|m| m.in_cycle)
            class:on-path=on_path
            class:off-path=off_path
            data-step-id=node.id.to_owned()
            data-kind=node.kind
            transform=translate(node.x, node.y)
            tabindex="0"
            role="button"
            aria-label=label
            aria-pressed=move || selected().to_string()
            on:click=on_click
            on:keydown=on_key
        >
            <title>{title}</title>
            {outline}
            {bar}
            {texts}
            " "
            {badge}
            " "
            {error_mark}
            {unsupervised_mark}
        </g>
    }
}

/// The selected step's boundary, for the panel below the graph.
pub fn selected_step(
    report: &Option<Arc<Report>>,
    selection: &Option<Target>,
) -> Option<opb_core::explain::boundary::StepBoundary> {
    let (Some(Target::Step(id)), Some(explain)) = (selection, playbook(report)) else {
        return None;
    };
    playbook_step(explain, id).cloned()
}
