//! The walk over paths: every walk from the start to a step without
//! outgoing edges that follows each back edge at most once, depth first in
//! document order, in rounds by the number of back edges followed, and
//! iterative so a 10,000-step chain cannot exhaust the stack.

use super::{
    class_of, higher, Ending, Net, PathLimits, RiskPath, Stop, UngatedStep, UnsupervisedStep,
};
use crate::rules::playbook::unsupervised::SUPERVISED_CLASSES;
use opb_syntax::order;
use std::cmp::Reverse;

pub(super) struct Walked {
    pub paths: Vec<RiskPath>,
    pub stopped_by: Option<Stop>,
}

/// Nodes from which some step without outgoing edges can be reached: the
/// walk never enters a node that cannot lead to an end.
fn can_finish(net: &Net<'_>) -> Vec<bool> {
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); net.ids.len()];
    for (from, edges) in net.out.iter().enumerate() {
        for &(_, to) in edges {
            incoming[to].push(from);
        }
    }
    let mut finishes: Vec<bool> = net.out.iter().map(Vec::is_empty).collect();
    let mut stack: Vec<usize> = (0..net.ids.len()).filter(|&n| finishes[n]).collect();
    while let Some(node) = stack.pop() {
        for &from in &incoming[node] {
            if !finishes[from] {
                finishes[from] = true;
                stack.push(from);
            }
        }
    }
    finishes
}

pub(super) fn walk(net: &Net<'_>, limits: &PathLimits) -> Walked {
    let mut walked = Walked { paths: Vec::new(), stopped_by: None };
    let Some(start) = net.start else { return walked };
    let mut search = Search {
        net,
        limits,
        finishes: can_finish(net),
        found: Vec::new(),
        listed_steps: 0,
        edge_walks: 0,
    };
    if !search.finishes[start] {
        return walked;
    }
    // Round r lists the walks that go round exactly r back edges, so the
    // plain paths come first and each loop adds a round; the rounds end
    // when no walk was held back by the round's count.
    let mut round = 0;
    loop {
        match search.round(start, round) {
            Ok(false) => break,
            Ok(true) => round += 1,
            Err(stop) => {
                walked.stopped_by = Some(stop);
                break;
            }
        }
    }
    let mut seen = vec![usize::MAX; net.ids.len()];
    walked.paths = search
        .found
        .iter()
        .enumerate()
        .map(|(number, path)| describe(net, path, number, &mut seen))
        .collect();
    // Most consequential first, a walk round a cycle after the one that
    // does not; the sort is stable, so ties keep the order found.
    order::sort_by_key(&mut walked.paths, |p| {
        (Reverse(p.flagged), Reverse(p.highest_risk_rank), Reverse(!p.gated), p.loops)
    });
    walked
}

struct Search<'n, 'e> {
    net: &'n Net<'e>,
    limits: &'n PathLimits,
    finishes: Vec<bool>,
    found: Vec<Vec<usize>>,
    listed_steps: usize,
    edge_walks: usize,
}

impl Search<'_, '_> {
    /// Lists the walks from `start` that follow exactly `back_edges` back
    /// edges, each at most once. Says whether some walk wanted one more.
    fn round(&mut self, start: usize, back_edges: usize) -> Result<bool, Stop> {
        let net = self.net;
        let mut used = vec![false; net.edge_count];
        let mut used_count = 0;
        let mut held_back = false;
        // The current walk: its nodes, the next edge to try at each, and the
        // edge that entered each node after the first.
        let mut nodes = vec![start];
        let mut cursors = vec![0usize];
        let mut entered_by: Vec<usize> = Vec::new();
        if net.out[start].is_empty() && back_edges == 0 {
            self.record(&nodes)?;
        }
        'walk: while let (Some(&node), Some(cursor)) = (nodes.last(), cursors.last_mut()) {
            let edges = &net.out[node];
            while let Some(&(edge, target)) = edges.get(*cursor) {
                *cursor += 1;
                if used[edge] || !self.finishes[target] {
                    continue;
                }
                if net.back[edge] {
                    if used_count == back_edges {
                        held_back = true;
                        continue;
                    }
                    used[edge] = true;
                    used_count += 1;
                }
                self.edge_walks += 1;
                if self.edge_walks > self.limits.max_edge_walks {
                    return Err(Stop::MaxEdgeWalks);
                }
                entered_by.push(edge);
                nodes.push(target);
                cursors.push(0);
                if net.out[target].is_empty() && used_count == back_edges {
                    self.record(&nodes)?;
                }
                continue 'walk;
            }
            nodes.pop();
            cursors.pop();
            if let Some(edge) = entered_by.pop() {
                if used[edge] {
                    used[edge] = false;
                    used_count -= 1;
                }
            }
        }
        Ok(held_back)
    }

    fn record(&mut self, nodes: &[usize]) -> Result<(), Stop> {
        if self.found.len() == self.limits.max_paths {
            return Err(Stop::MaxPaths);
        }
        if self.listed_steps + nodes.len() > self.limits.max_listed_steps {
            return Err(Stop::MaxListedSteps);
        }
        self.listed_steps += nodes.len();
        self.found.push(nodes.to_vec());
        Ok(())
    }
}

/// What one walk can do. `seen` marks nodes with the path's number, so
/// telling a revisit costs nothing per path beyond its length.
fn describe(net: &Net<'_>, path: &[usize], number: usize, seen: &mut [usize]) -> RiskPath {
    let mut loops = false;
    let mut rank = None;
    let mut risk_partly_unknown = false;
    let mut ungated: Vec<UngatedStep> = Vec::new();
    let mut unsupervised: Vec<UnsupervisedStep> = Vec::new();
    let mut gate_passed = false;
    for (position, &node) in path.iter().enumerate() {
        let first_visit = seen[node] != number;
        seen[node] = number;
        loops |= !first_visit;
        let profile = &net.profiles[node];
        rank = higher(rank, profile.rank);
        risk_partly_unknown |= profile.risk_partly_unknown;
        if !gate_passed && first_visit && !profile.acting.is_empty() {
            ungated.push(UngatedStep {
                step: net.ids[node].to_owned(),
                position,
                tools: profile.acting.clone(),
            });
        }
        if !gate_passed && first_visit {
            for (class, _) in SUPERVISED_CLASSES {
                let tools: Vec<String> = profile
                    .step
                    .unsupervised
                    .iter()
                    .filter(|t| t.risk_class == class)
                    .map(|t| t.name.clone())
                    .collect();
                if !tools.is_empty() {
                    unsupervised.push(UnsupervisedStep {
                        risk_class: class.to_owned(),
                        step: net.ids[node].to_owned(),
                        position,
                        tools,
                    });
                }
            }
        }
        gate_passed |= profile.is_gate;
    }
    let last = path.last().copied().unwrap_or_default();
    RiskPath {
        steps: path.iter().map(|&n| net.ids[n].to_owned()).collect(),
        ending: if net.ends.get(last).copied().unwrap_or_default() {
            Ending::End
        } else {
            Ending::DeadEnd
        },
        loops,
        highest_risk_class: class_of(rank),
        highest_risk_rank: rank,
        risk_partly_unknown,
        gated: ungated.is_empty(),
        ungated,
        flagged: !unsupervised.is_empty(),
        unsupervised: by_class(unsupervised),
    }
}

/// Money first, then writing to customers; each in walking order.
fn by_class(mut steps: Vec<UnsupervisedStep>) -> Vec<UnsupervisedStep> {
    order::sort_by_key(&mut steps, |s| {
        SUPERVISED_CLASSES.iter().position(|(c, _)| *c == s.risk_class)
    });
    steps
}
