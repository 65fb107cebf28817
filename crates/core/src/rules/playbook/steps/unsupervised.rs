//! What a playbook may do with no person deciding (PB220, PB221): the walk
//! from the start that stops at every `gate` step, and the tools whose risk
//! class needs a person before them.
//!
//! The explain layer's risk paths read this walk and this test of a tool,
//! so a step the rules flag is a step the risk paths call unsupervised.

use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, Group, Rule, Severity};
use crate::rules::ItemName;
use crate::views::graph::Graph;
use crate::views::playbook::StepView;
use crate::views::spec::risk_words;
use foldhash::{HashMap, HashMapExt};
use std::collections::VecDeque;

pub static PB220: Rule = Rule {
    code: "PB220",
    name: "money-unsupervised",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step allows an embedded tool whose `riskClass` is `money` and that does not declare `requiresApproval: true`, and the start reaches the step without passing a `gate` step: the playbook may move money with no person deciding."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate.\" (seed 000); a `gate` step is an approval gate, a person decides before the playbook goes on (DOCUMENTS.md §1)."),
    fix: documented!("Put a `gate` step before the step on every way into it, or declare `requiresApproval: true` on the tool so a person approves each call."),
    example: documented!("steps:\n  - id: quick_refund     # the start: no gate before it\n    kind: agent\n    allowedTools: [refund.create]   # riskClass: money"),
};

pub static PB221: Rule = Rule {
    code: "PB221",
    name: "customer-comms-unsupervised",
    severity: Severity::Warning,
    group: Group::PlaybookSteps,
    summary: documented!("An agent step allows an embedded tool whose `riskClass` is `customer_comms` and that does not declare `requiresApproval: true`, and the start reaches the step without passing a `gate` step: the playbook may write to customers with no person deciding."),
    source: documented!("\"Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate.\" (seed 000); a `gate` step is an approval gate, a person decides before the playbook goes on (DOCUMENTS.md §1)."),
    fix: documented!("Put a `gate` step before the step on every way into it, or declare `requiresApproval: true` on the tool so a person approves each call."),
    example: documented!("steps:\n  - id: notify           # the start: no gate before it\n    kind: agent\n    allowedTools: [email.send]   # riskClass: customer_comms"),
};

/// The risk classes a person should decide before, most consequential
/// first, each with the rule that reports a step reaching it unsupervised.
pub const SUPERVISED_CLASSES: [(&str, &Rule); 2] = [("money", &PB220), ("customer_comms", &PB221)];

/// The class of a tool a person should decide before and does not: its
/// `riskClass` is one of [`SUPERVISED_CLASSES`] and it does not declare
/// `requiresApproval: true`. `None` for any other tool.
pub fn unsupervised_class(
    risk_class: Option<&str>,
    requires_approval: Option<bool>,
) -> Option<&'static str> {
    let class = risk_class?;
    let (class, _) = SUPERVISED_CLASSES.iter().find(|(c, _)| *c == class)?;
    (requires_approval != Some(true)).then_some(*class)
}

/// How the start reaches a graph node without passing a gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reached {
    /// The node before it on a shortest such route, by position in
    /// `graph.nodes`; none for the start.
    pub previous: Option<usize>,
    /// How many nodes come before it on that route (0 for the start).
    pub distance: usize,
}

/// The walk from the start along `next` edges that passes no `gate` step:
/// breadth first, so each node keeps a shortest such route. A gate is
/// reached but not walked through, so a gate start covers everything after
/// it. By position in `graph.nodes`; `None` where every route passes a gate
/// or none reaches.
pub fn gate_free(graph: &Graph) -> Vec<Option<Reached>> {
    let mut reached: Vec<Option<Reached>> = vec![None; graph.nodes.len()];
    let position: HashMap<&str, usize> =
        graph.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let Some(&start) = graph.start.as_deref().and_then(|s| position.get(s)) else {
        return reached;
    };
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for edge in &graph.edges {
        if let (Some(&from), Some(&to)) =
            (position.get(edge.from.as_str()), position.get(edge.to.as_str()))
        {
            out[from].push(to);
        }
    }
    reached[start] = Some(Reached { previous: None, distance: 0 });
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        if graph.nodes[node].kind.as_deref() == Some("gate") {
            continue;
        }
        let distance = reached[node].map_or(0, |r| r.distance) + 1;
        for &next in &out[node] {
            if reached[next].is_none() {
                reached[next] = Some(Reached { previous: Some(node), distance });
                queue.push_back(next);
            }
        }
    }
    reached
}

/// The shortest gate-free route to the node at `node`, from the start, as
/// positions in `graph.nodes`; empty when there is none.
pub fn route(reached: &[Option<Reached>], node: usize) -> Vec<usize> {
    let mut route = Vec::new();
    let mut current = Some(node);
    while let Some(at) = current {
        let Some(how) = reached.get(at).copied().flatten() else { break };
        route.push(at);
        // Each node has one predecessor on a breadth-first tree and a
        // shorter distance, so this ends.
        current = how.previous;
    }
    route.reverse();
    route
}

/// The gate-free routes of a playbook's steps, by step index, for the
/// rules' messages.
pub(super) struct Unsupervised<'g> {
    graph: &'g Graph,
    reached: Vec<Option<Reached>>,
    /// Step index → position in `graph.nodes`.
    node_of: HashMap<usize, usize>,
}

/// How many step ids a message's route names before it cuts the start.
const ROUTE_SHOWN: usize = 6;

impl<'g> Unsupervised<'g> {
    pub(super) fn new(graph: &'g Graph) -> Self {
        let mut node_of = HashMap::with_capacity(graph.nodes.len());
        for (position, node) in graph.nodes.iter().enumerate() {
            node_of.insert(node.step, position);
        }
        Unsupervised { graph, reached: gate_free(graph), node_of }
    }

    /// PB220's or PB221's finding for a name on an agent step's
    /// `allowedTools`, when its embedded tool needs a person and the start
    /// reaches the step without a gate.
    pub(super) fn finding(
        &self,
        step: &StepView<'_>,
        name: &str,
        risk_class: Option<&str>,
        requires_approval: Option<bool>,
        what: ItemName<'_>,
    ) -> Option<(&'static Rule, String)> {
        if step.kind != Some("agent") {
            return None;
        }
        let class = unsupervised_class(risk_class, requires_approval)?;
        let (_, rule) = SUPERVISED_CLASSES.iter().find(|(c, _)| *c == class)?;
        let node = *self.node_of.get(&step.index)?;
        let route = route(&self.reached, node);
        if route.is_empty() {
            return None;
        }
        let ids: Vec<String> =
            route.iter().map(|&n| format!("`{}`", self.graph.nodes[n].id)).collect();
        let shown = if ids.len() > ROUTE_SHOWN {
            format!("{} → … → {}", ids[0], ids[ids.len() - (ROUTE_SHOWN - 1)..].join(" → "))
        } else {
            ids.join(" → ")
        };
        let how = if ids.len() == 1 {
            "the playbook starts there, with no `gate` step before it".to_owned()
        } else {
            format!("the playbook can reach it with no `gate` step on the way: {shown}")
        };
        let words = risk_words(class)?;
        Some((
            rule,
            format!(
                "{} may call `{name}` ({}), which does not declare `requiresApproval: true`, and {how}. The playbook may {} with no person deciding: put a `gate` step before it on every way in, or declare `requiresApproval: true` on the tool.",
                capitalise(what),
                words.label,
                words.act,
            ),
        ))
    }
}
