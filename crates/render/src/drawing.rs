//! The step graph as opb draws it, in the playground and in `opb render`:
//! what each node shows and how big that makes it, split into the part that
//! decides the layout (compared as a whole, so the playground lays out again
//! only when it changes) and the marks drawn over it (errors, unreachable,
//! cycles, no person deciding). The layout itself is the core's; [`crate::scene`] places every
//! shape and text of the laid-out graph.

use foldhash::{HashMap, HashSet};
use opb_core::explain::boundary::StepBoundary;
use opb_core::explain::layout::{self, GraphLayout, NodeSpec, Shape, Size, Spacing, TooDense};
use opb_core::explain::{Graph, PlaybookExplain};
use opb_core::CompactString;
use std::fmt::Write;
use std::future::Future;

/// Graphs with more steps than this are not drawn: the browser would spend
/// seconds on the SVG, and nobody reads a diagram that large.
pub const MAX_DRAWN_STEPS: usize = 2_000;

/// An agent step's box height.
pub(crate) const AGENT_HEIGHT: f64 = 58.0;
/// A gate's diamond height.
pub(crate) const GATE_HEIGHT: f64 = 84.0;
/// The box height of a step of another kind.
pub(crate) const OTHER_HEIGHT: f64 = 52.0;
/// The Start and End markers' size.
pub(crate) const TERMINAL: Size = Size::new(58.0, 24.0);
const LABEL_HEIGHT: f64 = 20.0;

/// Step ids are set in the monospace font, 12.5 px, whose glyphs are 0.6 em wide.
pub(crate) const ID_PX: f64 = 12.5;
/// Second lines, in the sans font.
pub(crate) const SUB_PX: f64 = 12.0;
/// A risk badge's text size.
pub(crate) const BADGE_PX: f64 = 10.5;
/// A branch label's text size.
pub(crate) const LABEL_PX: f64 = 11.5;
/// Space between a box's edge and its texts.
pub(crate) const PADDING: f64 = 14.0;
/// The coloured bar on an agent step's left edge.
pub(crate) const BAR: f64 = 5.0;
/// The corner radius of a step's box.
pub(crate) const CORNER: f64 = 10.0;

const AGENT_WIDTH: (f64, f64) = (176.0, 300.0);
const GATE_WIDTH: (f64, f64) = (150.0, 230.0);
const LABEL_MAX: f64 = 150.0;

/// How wide `text` is set in the monospace font at `px`.
fn mono_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.6
}

/// An estimate of how wide `text` is set in the sans font at `px`: close
/// enough to size boxes, which keep some room to spare.
fn sans_width(text: &str, px: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'I' | 'f' | 't' | 'r'
            | ' ' => 0.3,
            'm' | 'w' | 'M' | 'W' => 0.86,
            'A'..='Z' => 0.68,
            '0'..='9' => 0.6,
            _ => 0.56,
        })
        .sum();
    em * px
}

#[derive(Clone, Copy, PartialEq, Eq)]
/// The two typefaces the graph sets its texts in.
pub(crate) enum Font {
    /// Step ids.
    Mono,
    /// Everything else.
    Sans,
}

/// How wide `text` is set in `font` at `px`, as boxes are sized.
pub(crate) fn text_width(text: &str, px: f64, font: Font) -> f64 {
    match font {
        Font::Mono => mono_width(text, px),
        Font::Sans => sans_width(text, px),
    }
}

/// `text` cut with an ellipsis to fit `max` pixels, and its width.
pub(crate) fn fit(text: &str, max: f64, px: f64, font: Font) -> (String, f64) {
    let width = text_width(text, px, font);
    if width <= max {
        return (text.to_owned(), width);
    }
    let mut cut = String::new();
    for c in text.chars() {
        cut.push(c);
        if text_width(&cut, px, font) + text_width("…", px, font) > max {
            cut.pop();
            break;
        }
    }
    cut.push('…');
    let width = text_width(&cut, px, font);
    (cut, width)
}

/// The badge an agent step carries: its highest risk class, and whether
/// some of its tools' risk is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// `read`, `internal`, `customer_comms`, `money`, `unknown` (only tools
    /// of unknown risk) or `none` (no tool at all).
    pub risk: String,
    /// What the badge says, e.g. `MONEY +?`.
    pub text: String,
    /// Whether some of the step's tools have a risk class and others not.
    pub partly_unknown: bool,
}

impl Badge {
    /// The badge of an agent step's boundary.
    pub fn of(step: &StepBoundary) -> Badge {
        let risk = match (&step.highest_risk_class, step.risk_partly_unknown) {
            (Some(class), _) => class.to_string(),
            (None, true) => "unknown".to_owned(),
            (None, false) => "none".to_owned(),
        };
        let mut text = risk_word(&risk).to_ascii_uppercase();
        let partly_unknown = step.highest_risk_class.is_some() && step.risk_partly_unknown;
        if partly_unknown {
            text.push_str(" +?");
        }
        Badge { risk, text, partly_unknown }
    }

    /// How wide the badge is drawn.
    pub fn width(&self) -> f64 {
        sans_width(&self.text, BADGE_PX) * 1.12 + 14.0
    }
}

/// A badge's risk ([`Badge::risk`]) in one word or two, as badges and
/// chips say it: the core's short word for a class
/// ([`opb_core::spec::RiskWords::short`]), `unknown`, or `no tools`.
pub fn risk_word(risk: &str) -> &str {
    match risk {
        "none" => "no tools",
        other => opb_core::spec::risk_words(other).map_or(other, |words| words.short),
    }
}

/// What one node shows, fitted to its box.
#[derive(Debug, Clone, PartialEq)]
pub enum Look {
    /// An agent step: its id, its agent and its risk badge.
    Agent {
        /// The step id, fitted.
        title: String,
        /// `agent <name>`, fitted.
        agent: String,
        /// The highest risk class of its tools.
        badge: Badge,
    },
    /// A gate: its id.
    Gate {
        /// The step id, fitted.
        title: String,
    },
    /// A step of another kind, or none: `caption` says which.
    Other {
        /// The step id, fitted.
        title: String,
        /// Its kind, or that it has none.
        caption: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
/// One step as drawn.
pub struct Node {
    /// The step's id, whole.
    pub id: String,
    /// What its box shows.
    pub look: Look,
    /// Its box's size.
    pub size: Size,
}

impl Node {
    fn of(id: &str, step: Option<&StepBoundary>) -> Node {
        let kind = step.and_then(|s| s.kind.as_deref());
        match kind {
            Some("gate") => {
                let (title, width) = fit(id, GATE_WIDTH.1 * 0.56, ID_PX, Font::Mono);
                let size =
                    Size::new((width / 0.56 + 8.0).clamp(GATE_WIDTH.0, GATE_WIDTH.1), GATE_HEIGHT);
                Node { id: id.to_owned(), look: Look::Gate { title }, size }
            }
            Some("agent") => {
                let badge = step.map_or_else(
                    || Badge {
                        risk: "none".into(),
                        text: "NO TOOLS".into(),
                        partly_unknown: false,
                    },
                    Badge::of,
                );
                let inner = AGENT_WIDTH.1 - 2.0 * PADDING - BAR;
                let (title, title_width) = fit(id, inner - badge.width() - 10.0, ID_PX, Font::Mono);
                let agent_text = match step.and_then(|s| s.agent.as_deref()) {
                    Some(agent) => format!("agent {agent}"),
                    None => "no agent named".to_owned(),
                };
                let (agent, agent_width) = fit(&agent_text, inner, SUB_PX, Font::Sans);
                let content = (title_width + 10.0 + badge.width()).max(agent_width);
                let size = Size::new(
                    (content + 2.0 * PADDING + BAR).clamp(AGENT_WIDTH.0, AGENT_WIDTH.1),
                    AGENT_HEIGHT,
                );
                Node { id: id.to_owned(), look: Look::Agent { title, agent, badge }, size }
            }
            other => {
                let inner = AGENT_WIDTH.1 - 2.0 * PADDING;
                let (title, title_width) = fit(id, inner, ID_PX, Font::Mono);
                let caption_text = match other {
                    Some(kind) => format!("kind “{kind}”"),
                    None => "no kind".to_owned(),
                };
                let (caption, caption_width) = fit(&caption_text, inner, SUB_PX, Font::Sans);
                let width = (title_width.max(caption_width) + 2.0 * PADDING)
                    .clamp(AGENT_WIDTH.0 - 30.0, AGENT_WIDTH.1);
                Node {
                    id: id.to_owned(),
                    look: Look::Other { title, caption },
                    size: Size::new(width, OTHER_HEIGHT),
                }
            }
        }
    }

    fn spec(&self) -> NodeSpec {
        let shape = match self.look {
            Look::Gate { .. } => Shape::Diamond,
            _ => Shape::Rect,
        };
        NodeSpec { size: self.size, shape }
    }
}

/// A branch label as drawn, and its box size.
pub(crate) fn label(text: &str) -> (String, Size) {
    let (fitted, width) = fit(text, LABEL_MAX, LABEL_PX, Font::Sans);
    (fitted, Size::new(width + 16.0, LABEL_HEIGHT))
}

/// Everything that decides the layout: the graph and each node's look.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// The step graph.
    pub graph: Graph,
    /// Each of its nodes as drawn, in its order.
    pub nodes: Vec<Node>,
}

impl Geometry {
    /// The geometry of a playbook's graph; none when it has too many steps
    /// to draw.
    pub fn of(explain: &PlaybookExplain) -> Option<Geometry> {
        if explain.graph.nodes.len() > MAX_DRAWN_STEPS {
            return None;
        }
        let steps: HashMap<usize, &StepBoundary> =
            explain.steps.iter().map(|s| (s.index, s)).collect();
        let nodes = explain
            .graph
            .nodes
            .iter()
            .map(|n| Node::of(&n.id, steps.get(&n.step).copied()))
            .collect();
        Some(Geometry { graph: explain.graph.clone(), nodes })
    }

    /// The core's layout of the graph with these nodes, within its budget.
    pub fn lay_out(&self) -> Result<GraphLayout, TooDense> {
        opb_core::pause::at_once(self.lay_out_pausing(opb_core::pause::never))
    }

    /// Lays out as [`Geometry::lay_out`] does, asking `pause` now and then
    /// whether to pause ([`opb_core::pause`]).
    pub async fn lay_out_pausing<W: Future<Output = ()>>(
        &self,
        pause: impl FnMut() -> Option<W>,
    ) -> Result<GraphLayout, TooDense> {
        let specs: Vec<NodeSpec> = self.nodes.iter().map(Node::spec).collect();
        let spacing = Spacing::default();
        layout::playbook_pausing(
            &self.graph,
            &specs,
            |text| label(text).1,
            TERMINAL,
            &spacing,
            pause,
        )
        .await
    }
}

/// What a drawer says in place of a graph too dense to draw, before it
/// lists the steps and their edges ([`edge_lines`]).
pub fn dense_notice(dense: &TooDense) -> String {
    format!("{}: here are the steps and their edges as a list.", opb_core::prose::capitalise(dense))
}

/// Each step of `graph` with the steps its `next` leads to (and the
/// branches' labels), one line a step in document order: what a drawing
/// shows, without the drawing.
pub fn edge_lines(graph: &Graph) -> Vec<String> {
    // The graph lists its edges by source step, in the steps' order.
    let mut edges = graph.edges.iter().peekable();
    graph
        .nodes
        .iter()
        .map(|node| {
            let mut line = node.id.to_string();
            if graph.start.as_ref() == Some(&node.id) {
                line.push_str(" (start)");
            }
            let mut separator = " → ";
            while let Some(edge) = edges.next_if(|edge| edge.from == node.id) {
                line.push_str(separator);
                line.push_str(&edge.to);
                if let Some(label) = &edge.label {
                    line.push_str(&format!(" ({label})"));
                }
                separator = ", ";
            }
            if graph.ends.contains(&node.id) {
                line.push_str(": ends the playbook");
            }
            line
        })
        .collect()
}

/// What is drawn over a node, read from the explain view on every check.
#[derive(Debug, Clone, PartialEq)]
pub struct Marks {
    /// How many errors the step has.
    pub errors: usize,
    /// Whether no path from the start reaches it.
    pub unreachable: bool,
    /// Whether it is part of a cycle.
    pub in_cycle: bool,
    /// The node's tooltip: kind, agent, purpose and the core's summary.
    pub title: String,
    /// What the node's accessible name adds to the texts it shows (its id,
    /// agent, risk badge and error count): its kind, whether it is
    /// unreachable, and that no person decides before it. Empty when it
    /// adds nothing.
    pub label: String,
    /// When PB220 or PB221 reports the step, what its mark says
    /// ([`StepBoundary::no_person_decides`]).
    pub unsupervised: Option<String>,
}

impl Marks {
    /// Each node's marks, in the graph's order.
    pub fn of(explain: &PlaybookExplain) -> Vec<Marks> {
        let steps: HashMap<usize, &StepBoundary> =
            explain.steps.iter().map(|s| (s.index, s)).collect();
        let unreachable: HashSet<&str> =
            explain.graph.unreachable.iter().map(CompactString::as_str).collect();
        let cyclic: HashSet<&str> =
            explain.graph.cycles.iter().flatten().map(CompactString::as_str).collect();
        explain
            .graph
            .nodes
            .iter()
            .map(|node| {
                let step = steps.get(&node.step).copied();
                let kind = match step.and_then(|s| s.kind.as_deref()) {
                    Some("agent") => "agent step".to_owned(),
                    Some("gate") => "gate".to_owned(),
                    Some(kind) => format!("step of kind {kind}"),
                    None => "step without a kind".to_owned(),
                };
                let errors = step.map_or(0, |s| s.errors);
                let unreachable_here = unreachable.contains(node.id.as_str());
                // An agent's node says "agent" and a gate's "GATE" already.
                let shown = matches!(kind.as_str(), "gate" | "agent step");
                let said =
                    [(!shown).then_some(kind.as_str()), unreachable_here.then_some("unreachable")];
                let mut label = said.into_iter().flatten().collect::<Vec<_>>().join(", ");
                let unsupervised = step.and_then(StepBoundary::no_person_decides);
                if let Some(words) = &unsupervised {
                    if !label.is_empty() {
                        label.push_str(". ");
                    }
                    label.push_str(words);
                }
                let purpose = step
                    .and_then(|s| s.purpose.as_deref())
                    .map(|p| format!("\n{p}"))
                    .unwrap_or_default();
                let summary = step.map(|s| format!("\n\n{}", s.summary)).unwrap_or_default();
                let why = step
                    .and_then(StepBoundary::unsupervised_sentence)
                    .map(|s| format!("\n\n{s}"))
                    .unwrap_or_default();
                Marks {
                    errors,
                    unreachable: unreachable_here,
                    in_cycle: cyclic.contains(node.id.as_str()),
                    title: format!("{} ({kind}){purpose}{summary}{why}", node.id),
                    label,
                    unsupervised,
                }
            })
            .collect()
    }
}

/// SVG path data for a route: consecutive points joined by curves that
/// leave and arrive vertically (the core's routes bend only between ranks),
/// or one cubic for a self-loop.
pub(crate) fn path_data(route: &layout::EdgeRoute) -> String {
    let mut d = String::new();
    let Some(first) = route.points.first() else { return d };
    write!(d, "M{} {}", N(first.x), N(first.y)).ok();
    if route.self_loop {
        if let [_, a, b, c] = route.points[..] {
            write!(d, " C{} {} {} {} {} {}", N(a.x), N(a.y), N(b.x), N(b.y), N(c.x), N(c.y)).ok();
        }
        return d;
    }
    for pair in route.points.windows(2) {
        let [p, q] = pair else { continue };
        if (p.x - q.x).abs() < 0.05 {
            write!(d, " L{} {}", N(q.x), N(q.y)).ok();
        } else {
            let mid = N((p.y + q.y) / 2.0);
            write!(d, " C{} {mid} {} {mid} {} {}", N(p.x), N(q.x), N(q.x), N(q.y)).ok();
        }
    }
    d
}

/// Diamond outline inside a box.
pub(crate) fn diamond(width: f64, height: f64) -> String {
    let (w, h) = (N(width / 2.0), N(height / 2.0));
    format!("M{w} 0 L{} {h} L{w} {} L0 {h} Z", N(width), N(height))
}

/// The coloured bar along an agent step's left edge, inside its rounded
/// corners (radius `CORNER`): the part of the box left of `BAR`.
pub(crate) fn risk_bar(height: f64) -> String {
    let inset = CORNER - (CORNER * CORNER - (CORNER - BAR) * (CORNER - BAR)).sqrt();
    let (bar, corner) = (N(BAR), N(CORNER));
    format!(
        "M{bar} {} A{corner} {corner} 0 0 0 0 {corner} V{} A{corner} {corner} 0 0 0 {bar} {} Z",
        N(inset),
        N(height - CORNER),
        N(height - inset)
    )
}

/// A length as the drawings write it: to a tenth, without a zero tenth.
pub(crate) struct N(pub(crate) f64);

impl std::fmt::Display for N {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rounded = (self.0 * 10.0).round() / 10.0;
        match rounded.fract() == 0.0 {
            true => write!(f, "{rounded:.0}"),
            false => write!(f, "{rounded:.1}"),
        }
    }
}
