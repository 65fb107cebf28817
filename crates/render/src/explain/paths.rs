//! A playbook's risk paths, riskiest first, then the steps that may change
//! something, with the gates before them: `opb explain --paths` and the
//! viewer's Risk paths tab.

use super::playbook::side_effects;
use super::{Page, Tone};
use crate::words::{list, plural};
use foldhash::HashSet;
use opb_core::explain::boundary::supervised_classes;
use opb_core::explain::paths::{
    ActingTool, Ending, RiskPath, RiskPaths, Routes, StepRisk, Stop, UnsupervisedStep,
};
use opb_core::explain::PlaybookExplain;
use opb_core::spec::{risk_label, risk_words};

/// Width of the field labels.
const LABEL: usize = 12;
/// A path longer than this many steps shows its two ends only.
const LONGEST_SHOWN: usize = 40;
/// Steps shown at each end of a long path.
const ENDS_SHOWN: usize = 15;

/// What a step may do that a person should decide before, in the core's
/// words: "move money or write to customers".
fn supervised_acts() -> String {
    let acts: Vec<&str> =
        supervised_classes().map(|class| risk_words(class).map_or(class, |w| w.act)).collect();
    or_list(&acts)
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[&str]) -> String {
    let mut out = String::new();
    opb_core::prose::write_list(&mut out, items, "or", |out, item| out.push_str(item));
    out
}

/// What the marks of a path mean ([`verdict`]), said once above the list.
pub fn terms() -> String {
    let acts = supervised_acts();
    format!("No person decides: a step on the path may {acts}, and no gate comes before it on that path (PB220, PB221). A person decides first: a gate comes before every step on the path that changes something. Acts before any gate: a step changes something before the path's first gate, but a person decides before every step on it that may {acts}.")
}

/// What a path's verdict says: "No person decides", "A person decides
/// first" or "Acts before any gate" ([`terms`]).
pub fn verdict(path: &RiskPath) -> &'static str {
    if path.flagged {
        "No person decides"
    } else if path.gated {
        "A person decides first"
    } else {
        "Acts before any gate"
    }
}

/// A step of a path that no person decides before, in words: "no person
/// decides before refund, which may move money with refund.create".
pub fn unsupervised(step: &UnsupervisedStep) -> String {
    let act = risk_words(&step.risk_class).map_or(step.risk_class.as_str(), |w| w.act);
    format!("no person decides before {}, which may {act} with {}", step.step, list(&step.tools))
}

/// Writes the risk paths of the playbook read from `name` on `page`.
pub fn render(name: &str, explain: &PlaybookExplain, paths: &RiskPaths, page: &mut dyn Page) {
    let title = match (&explain.document.name, &explain.document.id) {
        (Some(title), Some(id)) => format!("{title} ({id})"),
        (Some(title), None) => title.clone(),
        (None, Some(id)) => id.clone(),
        (None, None) => name.to_owned(),
    };
    let from = if title == name { String::new() } else { format!(", from {name}") };
    page.styled_line(0, Tone::Emphasis, &format!("Risk paths of {title}"), &from);
    page.blank();
    let gates: HashSet<&str> = explain
        .graph
        .nodes
        .iter()
        .filter(|n| n.kind.as_deref() == Some("gate"))
        .map(|n| n.id.as_str())
        .collect();
    page.paragraph(0, &overview(paths));
    page.blank();
    page.paragraph(0, &terms());
    for (number, path) in paths.paths.iter().enumerate() {
        page.blank();
        self::path(number + 1, path, &gates, page);
    }
    page.blank();
    steps(paths, page);
}

fn overview(paths: &RiskPaths) -> String {
    let Some(start) = &paths.start else {
        return "The playbook names no step to start at (see `opb check`), so no path can be walked.".to_owned();
    };
    if paths.paths.is_empty() {
        return format!(
            "No path from {start} reaches a step that ends the playbook (see `opb check`)."
        );
    }
    let count = plural(paths.paths.len(), "path", "paths");
    let mut text = match paths.stopped_by {
        None => format!("{count} from {start} to an end, riskiest first."),
        Some(stop) => format!(
            "The first {count} from {start} to an end, riskiest first: {}",
            stopped(stop, &paths.limits)
        ),
    };
    let flagged = paths.flagged_paths();
    if flagged > 0 {
        text.push_str(&format!(
            " On {} no person decides before a step that may {}.",
            plural(flagged, "path", "paths"),
            supervised_acts()
        ));
    }
    text
}

fn stopped(stop: Stop, limits: &opb_core::explain::paths::PathLimits) -> String {
    let limit = match stop {
        Stop::MaxPaths => format!("the walk stops at {} paths", limits.max_paths),
        Stop::MaxListedSteps => {
            format!("the walk stops at {} steps listed in all", limits.max_listed_steps)
        }
        Stop::MaxEdgeWalks => {
            format!("the walk stops after following {} edges", limits.max_edge_walks)
        }
    };
    format!("{limit}, and more paths exist. The steps below are summarised from the whole graph.")
}

fn path(number: usize, path: &RiskPath, gates: &HashSet<&str>, page: &mut dyn Page) {
    let head_style = match (path.flagged, path.gated) {
        (true, _) => Tone::Missing,
        (false, true) => Tone::Emphasis,
        (false, false) => Tone::Odd,
    };
    let label = path.highest_risk_class.as_deref().map(|c| risk_label(c).unwrap_or(c));
    let risk = match (label, path.risk_partly_unknown) {
        (Some(class), false) => format!("{class} at most"),
        (Some(class), true) => format!("{class} at least; some tools' risk is not known"),
        (None, true) => "risk not known: no tool on it declares a risk class".to_owned(),
        (None, false) => "no tool on it declares a risk".to_owned(),
    };
    let mut notes = vec![risk];
    if path.loops {
        notes.push("goes round a cycle once".to_owned());
    }
    if path.ending == Ending::DeadEnd {
        notes.push("stops where a next names no step".to_owned());
    }
    page.styled_line(
        2,
        head_style,
        &format!("{number}. {}", verdict(path)),
        &format!(" ({})", notes.join("; ")),
    );
    page.field(4, "Steps", LABEL, &walk(&path.steps, gates));
    for step in &path.unsupervised {
        page.field(4, "Risk", LABEL, &unsupervised(step));
    }
    for ungated in &path.ungated {
        let tools: Vec<String> = ungated.tools.iter().map(acting).collect();
        page.field(
            4,
            "No gate",
            LABEL,
            &format!("before {}, which may act with {}", ungated.step, list(&tools)),
        );
    }
}

/// `a → review (gate) → b`, the middle left out of a long path.
fn walk(steps: &[String], gates: &HashSet<&str>) -> String {
    let named =
        |id: &String| if gates.contains(id.as_str()) { format!("{id} (gate)") } else { id.clone() };
    if steps.len() <= LONGEST_SHOWN {
        return steps.iter().map(named).collect::<Vec<_>>().join(" → ");
    }
    let head: Vec<String> = steps.iter().take(ENDS_SHOWN).map(named).collect();
    let tail: Vec<String> = steps.iter().skip(steps.len() - ENDS_SHOWN).map(named).collect();
    let left_out = steps.len() - 2 * ENDS_SHOWN;
    format!(
        "{} → … {left_out} more {} … → {}",
        head.join(" → "),
        if left_out == 1 { "step" } else { "steps" },
        tail.join(" → ")
    )
}

/// `refund.create (moves money, changes data)`.
pub fn acting(tool: &ActingTool) -> String {
    let mut traits = vec![tool
        .risk_class
        .as_deref()
        .map_or_else(|| "risk not declared".to_owned(), |c| risk_label(c).unwrap_or(c).to_owned())];
    traits.push(side_effects(tool.side_effecting).to_owned());
    if tool.requires_approval {
        traits.push("a person approves each call".to_owned());
    }
    format!("{} ({})", tool.name, traits.join(", "))
}

fn steps(paths: &RiskPaths, page: &mut dyn Page) {
    page.heading("Steps that may change something");
    let acting: Vec<&StepRisk> =
        paths.steps.iter().filter(|s| !s.acting_tools.is_empty()).collect();
    if acting.is_empty() {
        page.paragraph(
            2,
            "None: no step the start reaches allows a tool that may change data or needs approval.",
        );
    }
    let routes = paths.routes();
    for step in &acting {
        page.blank();
        self::step(paths, &routes, step, page);
    }
    let others = paths.steps.len() - acting.len();
    if others > 0 {
        page.blank();
        page.paragraph(
            2,
            &format!(
                "{} the start reaches may change nothing.",
                plural(others, "other step", "other steps")
            ),
        );
    }
}

/// The shortest gate-free route to a step; for a long one, the start and
/// the last steps, read back from the step so the cost stays bounded.
fn ungated_route(paths: &RiskPaths, routes: &Routes<'_>, step: &StepRisk) -> String {
    let length = step.ungated_distance.map_or(0, |d| d + 1);
    if length <= LONGEST_SHOWN {
        return routes.ungated(&step.step).join(" → ");
    }
    let tail = routes.ungated_tail(&step.step, ENDS_SHOWN);
    let start = paths.start.as_deref().unwrap_or_default();
    let left_out = length - ENDS_SHOWN - 1;
    format!("{start} → … {left_out} more steps … → {}", tail.join(" → "))
}

fn step(paths: &RiskPaths, routes: &Routes<'_>, step: &StepRisk, page: &mut dyn Page) {
    let (head_style, rest) =
        if step.flagged { (Tone::Missing, "  no person decides") } else { (Tone::Emphasis, "") };
    page.styled_line(2, head_style, &step.step, rest);
    let tools: Vec<String> = step.acting_tools.iter().map(acting).collect();
    page.field(4, "May act with", LABEL, &list(&tools));
    let gate = if step.behind_gate {
        "every path to it passes a gate".to_owned()
    } else {
        format!("none on some path: {}", ungated_route(paths, routes, step))
    };
    page.field(4, "Gate", LABEL, &gate);
    let label = step.highest_risk_before_class.as_deref().map(|c| risk_label(c).unwrap_or(c));
    let before = match (label, step.risk_before_partly_unknown) {
        (Some(class), false) => class.to_owned(),
        (Some(class), true) => format!("{class} at least; some tools' risk is not known"),
        (None, true) => "not known".to_owned(),
        (None, false) => "nothing that declares a risk".to_owned(),
    };
    page.field(4, "Risk before", LABEL, &before);
}
