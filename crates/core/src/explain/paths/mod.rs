//! Risk paths: what each way through a playbook can do, and whether a person
//! decides before the steps that change things.
//!
//! Two answers, from the explain view (so `analyze` stays linear and the
//! walk runs only when a reader asks for it):
//!
//! - [`StepRisk`], one per step the start reaches, needs no enumeration: the
//!   most consequential risk class some step before it may reach, whether
//!   every path to it passes a gate (the boundary's gate dominance, reused),
//!   and a shortest gate-free route to it when there is one. Linear in the
//!   graph's size, always complete.
//! - [`RiskPath`], one per walk from the start to a step without outgoing
//!   edges (an end, or a dead end whose `next` names no step) that follows
//!   each back edge at most once. A back edge is one the graph marks as
//!   closing a cycle (`GraphEdge::back`); the other edges form no cycle, so
//!   every walk is finite, each cycle is walked round at most once per walk,
//!   and a walk that goes round is a path of its own beside the one that
//!   does not. Walks are listed in rounds: first those that go round no
//!   cycle, then those that go round one, and so on. The number of such walks can be exponential in the number of
//!   steps, so the walk stops at [`PathLimits`] and says so
//!   ([`RiskPaths::complete`]); the per-step summary stays complete.
//!
//! A step "acts" when it allows an embedded tool that may change something:
//! `sideEffecting: true`, `requiresApproval: true`, or side effects left
//! undeclared on a tool whose risk class is not `read`. A path is
//! *unsupervised* for a class (money, or writing to customers) when a step
//! on it allows a tool of that class that asks for no approval, and no gate
//! comes before that step on that path: the path is then *flagged*. Which
//! steps can be so is the rules' walk (PB220, PB221, read from
//! [`StepBoundary::unsupervised`]), so the flagged paths and those findings
//! name the same steps.

mod steps;
mod walk;

use super::boundary::{Resolution, StepBoundary};
use super::PlaybookExplain;
use crate::rules::playbook::unsupervised;
use crate::views::spec;
use foldhash::{HashMap, HashMapExt};
use serde::Serialize;

/// How far the walk over paths may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PathLimits {
    /// Most paths listed.
    pub max_paths: usize,
    /// Most steps in all the listed paths together: a walk round many
    /// cycles of a large playbook can be far longer than the playbook.
    pub max_listed_steps: usize,
    /// Most edges followed in all, including those of walks that led to no
    /// end: what keeps a dense or cyclic graph answering in milliseconds.
    pub max_edge_walks: usize,
}

impl Default for PathLimits {
    fn default() -> Self {
        PathLimits { max_paths: 200, max_listed_steps: 100_000, max_edge_walks: 200_000 }
    }
}

/// Which limit stopped the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// `max_paths` paths were found and there were more.
    MaxPaths,
    /// The next path would have taken the listed steps over
    /// `max_listed_steps`.
    MaxListedSteps,
    /// `max_edge_walks` edges were followed.
    MaxEdgeWalks,
}

/// The risk paths of a playbook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskPaths {
    /// The step the playbook starts at, when it names one that exists.
    pub start: Option<String>,
    /// The walks from the start to an end, most consequential first:
    /// flagged paths, then by highest risk class, then those with steps that
    /// act without a gate before them, then those that do not loop before
    /// those that do; otherwise in the order found.
    pub paths: Vec<RiskPath>,
    /// Whether `paths` lists every walk; false when a limit stopped it.
    pub complete: bool,
    /// The limit that stopped the walk, when one did.
    pub stopped_by: Option<Stop>,
    /// The limits the walk ran under.
    pub limits: PathLimits,
    /// Per step the start reaches, in document order: needs no enumeration,
    /// so it is complete even when `paths` is not.
    pub steps: Vec<StepRisk>,
}

/// How a path stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// At a step without `next`: the playbook ends there.
    End,
    /// At a step whose `next` names no existing step (see `opb check`).
    DeadEnd,
}

/// One walk from the start to an end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskPath {
    /// The step ids in the order walked; a step on a cycle appears again
    /// when the walk goes round it.
    pub steps: Vec<String>,
    /// Whether its last step ends the playbook or names no step.
    pub ending: Ending,
    /// Whether the walk goes round a cycle (some step appears twice).
    pub loops: bool,
    /// The most consequential risk class a step on it may reach.
    pub highest_risk_class: Option<String>,
    /// Its rank in [`crate::spec::RISK_CLASSES`] (0 is `read`).
    pub highest_risk_rank: Option<usize>,
    /// Whether some step on it allows a tool whose risk is not known (not
    /// embedded, or without a valid `riskClass`).
    pub risk_partly_unknown: bool,
    /// Whether a gate stands before every step on it that acts.
    pub gated: bool,
    /// The steps that act with no gate before them on this path, each once.
    pub ungated: Vec<UngatedStep>,
    /// For each class a person should decide before (money, then writing to
    /// customers), the steps on this path that reach it with no gate before
    /// them, each once, in walking order.
    pub unsupervised: Vec<UnsupervisedStep>,
    /// Whether `unsupervised` names a step: the path may move money or
    /// write to customers with no person deciding.
    pub flagged: bool,
}

/// A step that may move money or write to customers, with no gate before it
/// on a path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnsupervisedStep {
    /// `money` or `customer_comms`.
    pub risk_class: String,
    /// The step's id.
    pub step: String,
    /// Its first position on the path (0 is the start).
    pub position: usize,
    /// Its tools of that class that ask for no approval.
    pub tools: Vec<String>,
}

/// A step that acts with no gate before it on a path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UngatedStep {
    /// The step's id.
    pub step: String,
    /// Its first position on the path (0 is the start).
    pub position: usize,
    /// The tools it may act with.
    pub tools: Vec<ActingTool>,
}

/// An embedded tool that may change something.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActingTool {
    /// The tool's name, as embedded.
    pub name: String,
    /// `riskClass`, when it is one of the seed's values.
    pub risk_class: Option<String>,
    /// `sideEffecting`; absent when undeclared.
    pub side_effecting: Option<bool>,
    /// Whether a person approves each call (`requiresApproval: true`).
    pub requires_approval: bool,
}

/// One step the start reaches, summarised without walking paths.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepRisk {
    /// The step's id.
    pub step: String,
    /// `kind` as written.
    pub kind: Option<String>,
    /// The most consequential risk class of its own tools.
    pub risk_class: Option<String>,
    /// `risk_class`'s rank in [`crate::spec::RISK_CLASSES`] (0 is `read`).
    pub risk_rank: Option<usize>,
    /// The most consequential risk class a step that can run before it (on
    /// some path from the start) may reach; on a cycle this includes the
    /// cycle's steps and the step itself.
    pub highest_risk_before_class: Option<String>,
    /// `highest_risk_before_class`'s rank in [`crate::spec::RISK_CLASSES`].
    pub highest_risk_before_rank: Option<usize>,
    /// Whether some step that can run before it allows a tool whose risk is
    /// not known: the real highest risk before it may be higher.
    pub risk_before_partly_unknown: bool,
    /// Whether every path from the start to it passes a gate (the step
    /// itself may be the gate).
    pub behind_gate: bool,
    /// The tools it may act with; empty when it acts with none.
    pub acting_tools: Vec<ActingTool>,
    /// Whether it may move money or write to customers with no person
    /// deciding: PB220 or PB221 reports it ([`StepBoundary::unsupervised`]).
    pub flagged: bool,
    /// When a path reaches it without passing a gate: the step before it on
    /// a shortest such route (none for the start). Follow it back with
    /// [`RiskPaths::routes`].
    pub ungated_previous: Option<String>,
    /// When a path reaches it without passing a gate: how many steps come
    /// before it on a shortest such route (0 for the start).
    pub ungated_distance: Option<usize>,
}

impl RiskPaths {
    /// How many listed paths are flagged.
    pub fn flagged_paths(&self) -> usize {
        self.paths.iter().filter(|p| p.flagged).count()
    }

    /// The steps indexed by id, to follow gate-free routes; build it once
    /// when following many.
    pub fn routes(&self) -> Routes<'_> {
        Routes { by_id: self.steps.iter().map(|s| (s.step.as_str(), s)).collect() }
    }

    /// A shortest route from the start to `step` that passes no gate, from
    /// the start; empty when every path to it passes a gate.
    pub fn ungated_route(&self, step: &str) -> Vec<&str> {
        self.routes().ungated(step)
    }
}

/// The per-step summary by id, for following `ungated_previous`.
pub struct Routes<'p> {
    by_id: HashMap<&'p str, &'p StepRisk>,
}

impl<'p> Routes<'p> {
    /// The last `at_most` steps of the shortest gate-free route to `step`,
    /// in walking order, ending with `step`; empty when every path to it
    /// passes a gate. Its full length is `ungated_distance + 1`.
    pub fn ungated_tail(&self, step: &str, at_most: usize) -> Vec<&'p str> {
        let Some(target) = self.by_id.get(step).filter(|s| !s.behind_gate) else {
            return Vec::new();
        };
        let mut route = vec![target.step.as_str()];
        let mut current = *target;
        // Each step has one predecessor on a breadth-first tree, so this
        // ends; the bound also guards a value edited by hand.
        while let Some(previous) =
            current.ungated_previous.as_deref().and_then(|p| self.by_id.get(p))
        {
            if route.len() >= at_most.min(self.by_id.len()) {
                break;
            }
            route.push(previous.step.as_str());
            current = previous;
        }
        route.reverse();
        route
    }

    /// The whole shortest gate-free route to `step`, from the start.
    pub fn ungated(&self, step: &str) -> Vec<&'p str> {
        self.ungated_tail(step, usize::MAX)
    }
}

/// What the walk needs to know about one node of the graph. A gate calls
/// no tool, so one that lists `allowedTools` (PB218) has no risk here.
#[derive(Debug)]
struct Profile<'e> {
    step: &'e StepBoundary,
    is_gate: bool,
    /// The highest risk rank of the tools it may call.
    rank: Option<usize>,
    risk_partly_unknown: bool,
    acting: Vec<ActingTool>,
}

impl<'e> Profile<'e> {
    fn new(step: &'e StepBoundary, is_gate: bool) -> Profile<'e> {
        if is_gate {
            return Profile {
                step,
                is_gate,
                rank: None,
                risk_partly_unknown: false,
                acting: Vec::new(),
            };
        }
        Profile {
            step,
            is_gate,
            rank: step.highest_risk_rank,
            risk_partly_unknown: step.risk_partly_unknown,
            acting: acting_tools(step),
        }
    }

    fn flagged(&self) -> bool {
        !self.step.unsupervised.is_empty()
    }
}

/// The graph of the explain view by node position, for walking.
struct Net<'e> {
    ids: Vec<&'e str>,
    profiles: Vec<Profile<'e>>,
    /// Outgoing edges of each node: (edge position, target node).
    out: Vec<Vec<(usize, usize)>>,
    /// Whether each edge, by position, closes a cycle.
    back: Vec<bool>,
    start: Option<usize>,
    ends: Vec<bool>,
    reachable: Vec<bool>,
    /// How the start reaches each node with no gate on the way (the rules'
    /// walk): the node before it on a shortest such route, and how many
    /// come before it.
    gate_free: Vec<Option<(Option<usize>, usize)>>,
    edge_count: usize,
}

fn acting_tools(step: &StepBoundary) -> Vec<ActingTool> {
    let mut seen = foldhash::HashSet::default();
    step.tools
        .iter()
        .filter_map(|tool| match &tool.resolution {
            Resolution::Embedded { facts, .. } => {
                let name = facts.name.as_deref()?;
                let undeclared_write =
                    facts.side_effecting.is_none() && facts.risk_class.as_deref() != Some("read");
                let acts = facts.side_effecting == Some(true)
                    || facts.requires_approval == Some(true)
                    || undeclared_write;
                (acts && seen.insert(name)).then(|| ActingTool {
                    name: name.to_owned(),
                    risk_class: facts.risk_class.clone().filter(|c| spec::risk_rank(c).is_some()),
                    side_effecting: facts.side_effecting,
                    requires_approval: facts.requires_approval == Some(true),
                })
            }
            _ => None,
        })
        .collect()
}

impl<'e> Net<'e> {
    fn new(explain: &'e PlaybookExplain) -> Net<'e> {
        let graph = &explain.graph;
        let by_step: HashMap<usize, &StepBoundary> =
            explain.steps.iter().map(|s| (s.index, s)).collect();
        let reached = unsupervised::gate_free(graph);
        let mut ids = Vec::with_capacity(graph.nodes.len());
        let mut reached_at = Vec::with_capacity(graph.nodes.len());
        let mut profiles = Vec::with_capacity(graph.nodes.len());
        let mut position: HashMap<&str, usize> = HashMap::with_capacity(graph.nodes.len());
        for (at, node) in graph.nodes.iter().enumerate() {
            // Every graph node is a step of the view; a node without one
            // would be a bug upstream, and is left out rather than trusted.
            let Some(step) = by_step.get(&node.step) else { continue };
            position.insert(node.id.as_str(), ids.len());
            ids.push(node.id.as_str());
            reached_at.push(reached[at]);
            profiles.push(Profile::new(step, node.kind.as_deref() == Some("gate")));
        }
        let mut out = vec![Vec::new(); ids.len()];
        let mut back = Vec::with_capacity(graph.edges.len());
        for edge in &graph.edges {
            if let (Some(&from), Some(&to)) =
                (position.get(edge.from.as_str()), position.get(edge.to.as_str()))
            {
                out[from].push((back.len(), to));
                back.push(edge.back);
            }
        }
        let edge_count = back.len();
        let start = graph.start.as_deref().and_then(|s| position.get(s).copied());
        let mut ends = vec![false; ids.len()];
        for end in &graph.ends {
            if let Some(&at) = position.get(end.as_str()) {
                ends[at] = true;
            }
        }
        let mut reachable = vec![false; ids.len()];
        if let Some(start) = start {
            reachable[start] = true;
            let mut stack = vec![start];
            while let Some(node) = stack.pop() {
                for &(_, next) in &out[node] {
                    if !reachable[next] {
                        reachable[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
        // From graph positions to the net's own (the same unless a node
        // was left out above).
        let net_position = |at: usize| position.get(graph.nodes[at].id.as_str()).copied();
        let gate_free = reached_at
            .iter()
            .map(|r| r.map(|r| (r.previous.and_then(net_position), r.distance)))
            .collect();
        Net { ids, profiles, out, back, start, ends, reachable, gate_free, edge_count }
    }
}

/// The risk paths of a playbook's explain view, under `limits`.
pub(crate) fn build(explain: &PlaybookExplain, limits: &PathLimits) -> RiskPaths {
    let net = Net::new(explain);
    let walked = walk::walk(&net, limits);
    RiskPaths {
        start: net.start.map(|s| net.ids[s].to_owned()),
        paths: walked.paths,
        complete: walked.stopped_by.is_none(),
        stopped_by: walked.stopped_by,
        limits: *limits,
        steps: steps::summarize(&net),
    }
}

/// The most consequential of two risks, as (rank, class).
fn higher(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

fn class_of(rank: Option<usize>) -> Option<String> {
    rank.and_then(|r| spec::RISK_CLASSES.get(r)).map(|c| (*c).to_owned())
}

#[cfg(test)]
mod tests;
