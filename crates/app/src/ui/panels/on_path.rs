//! One risk path as the graph picks it out: its steps and edges, where it
//! starts, and where it ends. The risk paths panel (`risk_paths.rs`) makes
//! it from the path the reader chose, and the graph (`graph.rs`) reads it.
//! It lives apart from both: the panel draws the graph, so were it the
//! panel's, the two modules would import each other.

use opb_core::explain::paths::{Ending, RiskPath};
use std::collections::HashSet;

/// The steps and edges of one path, for the graph to pick out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnPath {
    steps: HashSet<String>,
    edges: HashSet<(String, String)>,
    first: Option<String>,
    /// The last step, when the path ends there (not at a dead end).
    end: Option<String>,
}

impl OnPath {
    pub fn of(path: &RiskPath) -> OnPath {
        OnPath {
            steps: path.steps.iter().cloned().collect(),
            edges: path
                .steps
                .windows(2)
                .filter_map(|pair| match pair {
                    [from, to] => Some((from.clone(), to.clone())),
                    _ => None,
                })
                .collect(),
            first: path.steps.first().cloned(),
            end: path.steps.last().filter(|_| path.ending == Ending::End).cloned(),
        }
    }

    pub fn has_step(&self, id: &str) -> bool {
        self.steps.contains(id)
    }

    pub fn has_edge(&self, from: &str, to: &str) -> bool {
        self.edges.contains(&(from.to_owned(), to.to_owned()))
    }

    pub fn starts_at(&self, id: &str) -> bool {
        self.first.as_deref() == Some(id)
    }

    pub fn ends_at(&self, id: &str) -> bool {
        self.end.as_deref() == Some(id)
    }
}
