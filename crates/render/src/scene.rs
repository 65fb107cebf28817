//! The drawn graph as data: where every shape and text of a laid-out step
//! graph goes, and what each says. The standalone SVG ([`crate::svg`])
//! writes it as markup and the playground builds its view from it, adding
//! only what is interactive (selection, the camera, a risk path picked
//! out), so the two drawings cannot drift apart.
//!
//! Lengths are in the layout's units, which the drawings use as pixels;
//! each shape's texts and parts are placed relative to its own top-left
//! corner, which is where the shape is moved to (`translate(x,y)`).

use crate::drawing::{
    self, diamond, edge_lines, label, path_data, risk_bar, text_width, Font, Geometry, Look, Marks,
    BAR, CORNER, ID_PX, N, PADDING,
};
use opb_core::explain::layout::{GraphLayout, NodeBox, TooDense};
use opb_core::explain::Graph;
use std::borrow::Cow;

/// The height of the band above a drawing that holds its notice.
const NOTICE_BAND: f64 = 30.0;
/// The notice's text size.
const NOTICE_PX: f64 = 13.0;
/// A listed step's text size, and the height of its line.
const LIST_PX: f64 = 12.0;
const LIST_LINE: f64 = 20.0;

/// The arrowheads edges end in, each an id and a class; every one has the
/// shape and size of [`ARROWHEAD`].
pub const ARROWHEADS: [(&str, &str); 2] = [("arrow", "arrow"), ("arrow-back", "arrow back")];

/// An arrowhead's outline, its view box, the point of it that sits on the
/// edge's end, and its size in the edge's stroke widths.
pub struct Arrowhead {
    /// SVG path data of the outline.
    pub path: &'static str,
    /// The marker's `viewBox`.
    pub view_box: &'static str,
    /// The point on the edge's end (`refX`, `refY`).
    pub tip: (f64, f64),
    /// Its width and height (`markerWidth`, `markerHeight`).
    pub size: f64,
}

/// Every arrowhead of the drawing.
pub const ARROWHEAD: Arrowhead =
    Arrowhead { path: "M0 1 L10 5 L0 9 Z", view_box: "0 0 10 10", tip: (9.0, 5.0), size: 7.0 };

/// The transform that moves a shape to (`x`, `y`), its top-left corner.
pub fn translate(x: f64, y: f64) -> String {
    format!("translate({},{})", N(x), N(y))
}

/// A text and where it is set: its anchor, as the stylesheet aligns it.
#[derive(Debug, Clone, PartialEq)]
pub struct Text<'a> {
    /// Left or centre, as its class says.
    pub x: f64,
    /// Its baseline or middle, as its class says.
    pub y: f64,
    /// What it says.
    pub text: Cow<'a, str>,
}

/// A rounded box with a text in it: an edge's label, a Start or End
/// marker, a risk badge.
#[derive(Debug, Clone, PartialEq)]
pub struct Tag<'a> {
    /// Its left edge.
    pub x: f64,
    /// Its top edge.
    pub y: f64,
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// Its corners' radius.
    pub corner: f64,
    /// Its text, placed in the box.
    pub text: Text<'a>,
}

impl<'a> Tag<'a> {
    /// A tag of `width` and `height` at (`x`, `y`), `text` at its centre.
    fn centred(
        x: f64,
        y: f64,
        (width, height): (f64, f64),
        corner: f64,
        text: Cow<'a, str>,
    ) -> Tag<'a> {
        let text = Text { x: width / 2.0, y: height / 2.0, text };
        Tag { x, y, width, height, corner, text }
    }
}

/// An edge between two steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge<'a> {
    /// The step it leaves.
    pub from: &'a str,
    /// The step it leads to.
    pub to: &'a str,
    /// Its branch label, whole.
    pub label: Option<&'a str>,
    /// Whether it leads back to an earlier step.
    pub back: bool,
    /// SVG path data of its line.
    pub path: String,
    /// Its label as drawn, fitted, on the line.
    pub tag: Option<Tag<'a>>,
}

impl Edge<'_> {
    /// Its classes.
    pub fn class(&self) -> &'static str {
        if self.back {
            "edge back"
        } else {
            "edge"
        }
    }

    /// The id of the arrowhead it ends in ([`ARROWHEADS`]).
    pub fn arrowhead(&self) -> &'static str {
        ARROWHEADS[usize::from(self.back)].0
    }
}

/// A Start or End marker and the edge that joins it to its step.
#[derive(Debug, Clone, PartialEq)]
pub struct Terminal<'a> {
    /// `start` or `end`.
    pub which: &'static str,
    /// The step it starts or ends at.
    pub step: &'a str,
    /// SVG path data of its edge, which ends in the first arrowhead.
    pub path: String,
    /// The marker.
    pub tag: Tag<'a>,
}

/// A step's outline.
#[derive(Debug, Clone, PartialEq)]
pub enum Outline {
    /// Its box, with corners of this radius.
    Rect(f64),
    /// SVG path data (a gate's diamond).
    Path(String),
}

/// The coloured bar on an agent step's left edge.
#[derive(Debug, Clone, PartialEq)]
pub struct RiskBar<'a> {
    /// The step's highest risk class, as the badge names it.
    pub risk: &'a str,
    /// SVG path data.
    pub path: String,
}

/// An agent step's risk badge.
#[derive(Debug, Clone, PartialEq)]
pub struct RiskBadge<'a> {
    /// Its risk class ([`drawing::Badge::risk`]).
    pub risk: &'a str,
    /// Whether some of the step's tools have a risk class and others not.
    pub partly_unknown: bool,
    /// The badge.
    pub tag: Tag<'a>,
}

impl RiskBadge<'_> {
    /// Its classes.
    pub fn class(&self) -> &'static str {
        if self.partly_unknown {
            "risk-badge partly-unknown"
        } else {
            "risk-badge"
        }
    }
}

/// How many errors a step has, drawn on its top-right corner.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorMark {
    /// Its centre, across.
    pub x: f64,
    /// Its centre, down.
    pub y: f64,
    /// Its circle's radius.
    pub radius: f64,
    /// The count, `9+` past nine.
    pub text: &'static str,
}

impl ErrorMark {
    /// The mark on a step `width` wide that has `errors`; none without one.
    pub fn on(width: f64, errors: usize) -> Option<ErrorMark> {
        let counts = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "9+"];
        let text = counts.get(errors.checked_sub(1)?.min(9))?;
        Some(ErrorMark { x: width - 7.0, y: -7.0, radius: 10.0, text })
    }
}

/// The mark on a step PB220 or PB221 reports, drawn on its top-left
/// corner: a warning triangle with `!` in it, so it reads by its shape and
/// not by colour alone, and named in words for assistive technology.
#[derive(Debug, Clone, PartialEq)]
pub struct UnsupervisedMark<'m> {
    /// Its centre, across.
    pub x: f64,
    /// Its centre, down.
    pub y: f64,
    /// SVG path data of the triangle, about its centre.
    pub path: &'static str,
    /// What it shows inside the triangle.
    pub text: Text<'static>,
    /// What it means, in the core's words
    /// ([`opb_core::explain::boundary::StepBoundary::no_person_decides`]).
    pub label: &'m str,
}

/// The triangle of [`UnsupervisedMark`], about its centre: a hair wider
/// than the error mark's circle, so the two read as different marks.
pub const WARNING_TRIANGLE: &str = "M0 -12 L12 9 L-12 9 Z";

impl<'m> UnsupervisedMark<'m> {
    /// The mark of a step with `marks`; none when a person decides before
    /// it, or it cannot act on money or customers.
    pub fn on(marks: &'m Marks) -> Option<UnsupervisedMark<'m>> {
        let label = marks.unsupervised.as_deref()?;
        Some(UnsupervisedMark::with(label))
    }

    /// The mark placed at its own origin's corner, saying `label`: for a
    /// step, and for the legend.
    pub fn with(label: &'m str) -> UnsupervisedMark<'m> {
        UnsupervisedMark {
            x: 9.0,
            y: -6.0,
            path: WARNING_TRIANGLE,
            text: Text { x: 0.0, y: 2.5, text: Cow::Borrowed("!") },
            label,
        }
    }
}

/// A step as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    /// The step's id, whole.
    pub id: &'a str,
    /// `agent`, `gate` or `other`.
    pub kind: &'static str,
    /// Its left edge.
    pub x: f64,
    /// Its top edge.
    pub y: f64,
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// Its outline.
    pub outline: Outline,
    /// An agent step's risk bar.
    pub bar: Option<RiskBar<'a>>,
    /// Its two texts in reading order, each with its classes.
    pub texts: [(&'static str, Text<'a>); 2],
    /// An agent step's risk badge.
    pub badge: Option<RiskBadge<'a>>,
}

impl<'a> Node<'a> {
    fn of(node: &'a drawing::Node, b: &NodeBox) -> Node<'a> {
        let (w, h) = (b.width, b.height);
        let text = |class, x, y, text: &'a str| (class, Text { x, y, text: text.into() });
        let mut drawn = Node {
            id: &node.id,
            kind: "other",
            x: b.x,
            y: b.y,
            width: w,
            height: h,
            outline: Outline::Rect(CORNER),
            bar: None,
            texts: [
                text("node-title", PADDING, 22.0, &node.id),
                text("node-sub", PADDING, 40.0, ""),
            ],
            badge: None,
        };
        match &node.look {
            Look::Agent { title, agent, badge } => {
                let width = badge.width();
                let x = BAR + PADDING;
                drawn.kind = "agent";
                drawn.bar = Some(RiskBar { risk: &badge.risk, path: risk_bar(h) });
                drawn.texts =
                    [text("node-title", x, 24.0, title), text("node-sub", x, 43.0, agent)];
                let label = Text { x: width / 2.0, y: 9.5, text: badge.text.as_str().into() };
                drawn.badge = Some(RiskBadge {
                    risk: &badge.risk,
                    partly_unknown: badge.partly_unknown,
                    tag: Tag {
                        x: w - PADDING - width,
                        y: 11.0,
                        width,
                        height: 18.0,
                        corner: 9.0,
                        text: label,
                    },
                });
            }
            Look::Gate { title } => {
                drawn.kind = "gate";
                drawn.outline = Outline::Path(diamond(w, h));
                drawn.texts = [
                    text("node-caption", w / 2.0, h / 2.0 - 10.0, "GATE"),
                    text("node-title centered", w / 2.0, h / 2.0 + ID_PX * 0.55, title),
                ];
            }
            Look::Other { title, caption } => {
                drawn.texts[0].1.text = title.as_str().into();
                drawn.texts[1].1.text = caption.as_str().into();
            }
        }
        drawn
    }

    /// What it shows, in words, each part once: the start of its
    /// accessible name, so that speech input users can say what they see.
    pub fn words(&self) -> String {
        let texts = self.texts.iter().map(|(_, t)| &*t.text);
        let badge = self.badge.as_ref().map(|b| &*b.tag.text.text);
        // A gate's caption reads as one with its id: "GATE refund".
        let separator = if self.kind == "gate" { " " } else { ", " };
        texts.chain(badge).collect::<Vec<_>>().join(separator)
    }
}

/// The classes a step's marks add to its own (`node`): whether it is
/// unreachable, whether it is in a cycle.
pub fn mark_classes(marks: &Marks) -> impl Iterator<Item = &'static str> {
    [(marks.unreachable, "unreachable"), (marks.in_cycle, "cyclic")]
        .into_iter()
        .filter_map(|(on, class)| on.then_some(class))
}

/// A laid-out graph as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene<'a> {
    /// The drawing's width: its view box runs from 0 to it.
    pub width: f64,
    /// The drawing's height.
    pub height: f64,
    /// A notice set in a band above the graph, when there is one.
    pub notice: Option<Text<'a>>,
    /// How far down the graph is moved: the notice's band.
    pub top: f64,
    geometry: &'a Geometry,
    layout: &'a GraphLayout,
}

impl<'a> Scene<'a> {
    /// `geometry` as `layout` places it, with `notice` in a band above the
    /// graph when given (a drawing that has nowhere else to say it).
    pub fn new(
        geometry: &'a Geometry,
        layout: &'a GraphLayout,
        notice: Option<&'a str>,
    ) -> Scene<'a> {
        let top = if notice.is_some() { NOTICE_BAND } else { 0.0 };
        let notice_width =
            notice.map_or(0.0, |text| text_width(text, NOTICE_PX, Font::Sans) + 2.0 * PADDING);
        Scene {
            width: layout.width.max(notice_width),
            height: layout.height + top,
            notice: notice.map(|text| Text { x: PADDING, y: top / 2.0, text: text.into() }),
            top,
            geometry,
            layout,
        }
    }

    /// The edges between steps that have a route, in the graph's order.
    pub fn edges(&self) -> impl Iterator<Item = Edge<'a>> {
        (self.geometry.graph.edges.iter().zip(&self.layout.edges))
            .filter(|(_, route)| !route.points.is_empty())
            .map(|(edge, route)| Edge {
                from: &edge.from,
                to: &edge.to,
                label: edge.label.as_deref(),
                back: edge.back,
                path: path_data(route),
                tag: edge.label.as_deref().zip(route.label).map(|(text, at)| {
                    let (text, size) = label(text);
                    let (x, y) = (at.x - size.width / 2.0, at.y - size.height / 2.0);
                    Tag::centred(x, y, (size.width, size.height), 6.0, text.into())
                }),
            })
    }

    /// The Start marker, then the End markers.
    pub fn terminals(&self) -> impl Iterator<Item = Terminal<'a>> {
        (self.layout.start.iter().map(|t| (t, "start", "Start")))
            .chain(self.layout.ends.iter().map(|t| (t, "end", "End")))
            .map(|(terminal, which, text)| {
                let b = terminal.at;
                Terminal {
                    which,
                    step: &terminal.step,
                    path: path_data(&terminal.edge),
                    tag: Tag::centred(b.x, b.y, (b.width, b.height), b.height / 2.0, text.into()),
                }
            })
    }

    /// The steps, in the graph's order.
    pub fn nodes(&self) -> impl Iterator<Item = Node<'a>> {
        self.geometry.nodes.iter().zip(&self.layout.nodes).map(|(n, b)| Node::of(n, b))
    }
}

/// A graph too dense to draw, as a standalone drawing shows it instead:
/// the notice, then each step and its edges, a line each ([`edge_lines`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The drawing's width.
    pub width: f64,
    /// The drawing's height.
    pub height: f64,
    /// Why the graph is listed ([`drawing::dense_notice`]).
    pub notice: Text<'static>,
    /// One line a step.
    pub lines: Vec<Text<'static>>,
}

impl Listing {
    /// `graph`, which `dense` says is too dense to draw, listed.
    pub fn new(graph: &Graph, dense: &TooDense) -> Listing {
        let notice = drawing::dense_notice(dense);
        let lines = edge_lines(graph);
        let widest = std::iter::once(text_width(&notice, NOTICE_PX, Font::Sans))
            .chain(lines.iter().map(|line| text_width(line, LIST_PX, Font::Sans)))
            .fold(0.0, f64::max);
        Listing {
            width: widest + 2.0 * PADDING,
            height: NOTICE_BAND + LIST_LINE * lines.len() as f64 + PADDING,
            notice: Text { x: PADDING, y: NOTICE_BAND / 2.0, text: notice.into() },
            lines: (lines.into_iter().enumerate())
                .map(|(i, text)| Text {
                    x: PADDING,
                    y: NOTICE_BAND + LIST_LINE * (i as f64 + 0.5),
                    text: text.into(),
                })
                .collect(),
        }
    }
}
