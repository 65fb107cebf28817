//! The graph layout of a playbook's step graph: the steps and their edges
//! with a start marker and end markers (`playbook.rs`), laid out by
//! opb-layout (`crates/layout`, the generic engine, re-exported here so the
//! drawers take everything from one place), and what a reader is told of a
//! simplified drawing.

mod playbook;

pub use opb_layout::{
    layout, layout_pausing, EdgeRoute, EdgeSpec, Fidelity, Layout, NodeBox, NodeSpec, Point, Shape,
    Size, Spacing, TooDense, BUDGET, DRAWN_EDGE,
};
pub use playbook::{playbook, playbook_pausing, GraphLayout, Terminal};

/// What a drawer shows beside a drawing, by its [`Fidelity`]: the words are
/// about steps, so they are the core's, not the engine's.
pub trait Notice {
    /// What to show beside a drawing of this fidelity, to say it is
    /// simplified and why; nothing for an exact one.
    fn notice(self) -> Option<&'static str>;
}

impl Notice for Fidelity {
    fn notice(self) -> Option<&'static str> {
        match self {
            Fidelity::Exact => None,
            Fidelity::Simplified => Some(
                "Simplified drawing: too many edges cross several ranks to route each one around the steps, so they are drawn straight and may pass behind steps.",
            ),
        }
    }
}
