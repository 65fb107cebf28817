//! The risk paths of a playbook, from the core (`opb_core::risk_paths`): each
//! walk from the start to an end, grouped by the highest risk it reaches,
//! with whether a gate stands before every step that acts. Paths on which
//! no person decides before a step that may move money or write to
//! customers are flagged, the step and its class named. The words are the
//! renderer's (`opb explain --paths`), from the core's risk words. The
//! graph sits above the list; choosing a path picks it out there and dims
//! the rest.

use super::graph::GraphView;
use super::on_path::OnPath;
use super::parts::RiskBadge;
use super::{stale_note, Panels, ViewKind};
use crate::route::Route;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use opb_core::explain::paths::{Ending, RiskPath, RiskPaths, Stop};
use opb_core::prose::capitalise;
use opb_core::spec::{risk_label, RISK_CLASSES};
use opb_render::explain::paths::{acting, terms, unsupervised, verdict};
use std::collections::HashSet;
use std::sync::Arc;

/// The risk paths of the shown playbook, walked once per check and shared by
/// the tab and the panel, and the path the reader chose (by its steps, so
/// the choice survives edits that keep the path).
#[derive(Clone, Copy)]
pub struct RiskPathsState {
    panels: Panels,
    paths: RwSignal<Option<Arc<RiskPaths>>>,
    chosen: RwSignal<Option<Vec<String>>>,
}

impl RiskPathsState {
    /// The paths are walked in a task of their own after each check, not in
    /// the check's: the diagnostics and the graph a key changes are shown
    /// first (on 1,000 steps the walk takes about 8 ms of the time a
    /// keystroke has to be answered in), and a run of checks walks only the
    /// last one's paths.
    pub fn new(panels: Panels) -> RiskPathsState {
        let paths = RwSignal::new(None);
        let walk = StoredValue::new_local(None::<Timeout>);
        Effect::new(move |_| {
            panels.readable.track();
            walk.set_value(Some(Timeout::new(0, move || {
                let walked = panels.readable.try_with_untracked(|r| {
                    r.as_deref().and_then(|r| opb_core::risk_paths(&r.analysis)).map(Arc::new)
                });
                if let Some(walked) = walked {
                    paths.try_set(walked);
                }
            })));
        });
        RiskPathsState { panels, paths, chosen: RwSignal::new(None) }
    }

    /// The chosen path, when the current paths still hold it.
    fn on_path(&self) -> Option<Arc<OnPath>> {
        let chosen = self.chosen.get()?;
        self.paths.with(|p| {
            p.as_deref()?
                .paths
                .iter()
                .find(|path| path.steps == chosen)
                .map(|path| Arc::new(OnPath::of(path)))
        })
    }
}

/// The "Risk paths" tab, for playbooks: the count of flagged paths, or of
/// all paths when none is flagged; none while the text cannot be read.
#[component]
pub fn RiskPathsTab(state: RiskPathsState, #[prop(into)] route: Signal<Route>) -> impl IntoView {
    let counts = move || {
        if state.panels.stale() {
            return None;
        }
        state.paths.with(|p| p.as_deref().map(|p| (p.flagged_paths(), p.paths.len())))
    };
    move || {
        (state.panels.kind() == Some(ViewKind::Playbook)).then(|| {
            view! {
                <a role="tab" href="#paths" data-testid="tab-paths" aria-selected=move || (route.get() == Route::Paths).to_string()>
                    "Risk paths"
                    {move || counts().map(|(flagged, all)| if flagged > 0 {
                        view! { <span class="tab-count flagged" title="Flagged paths: no person decides before a step on them">{flagged}</span> }.into_any()
                    } else {
                        view! { <span class="tab-count">{all}</span> }.into_any()
                    })}
                </a>
            }
        })
    }
}

/// The panel: the graph with the chosen path, and the paths by risk.
#[component]
pub fn RiskPathsPanel(state: RiskPathsState) -> impl IntoView {
    let panels = state.panels;
    let on_path = Memo::new(move |_| state.on_path());
    let list = move || {
        let Some(paths) = state.paths.get() else {
            return view! { <p class="panel-empty">"Risk paths are for playbooks that can be read."</p> }.into_any();
        };
        path_list(&paths, state).into_any()
    };
    move || {
        match panels.kind() {
        Some(ViewKind::Playbook) => view! {
            <div class="viewer-panel">
                {move || stale_note(panels)}
                <div class="graph-tab paths-tab" data-testid="risk-paths" class:path-shown=move || on_path.with(Option::is_some)>
                    <GraphView report=panels.readable selection=panels.selection path=on_path />
                    <div class="paths-scroll">{list}</div>
                </div>
            </div>
        }
        .into_any(),
        _ => view! { <p class="panel-empty">"Risk paths are for playbooks: this document is not one that could be read."</p> }.into_any(),
    }
    }
}

/// The sections of the list: flagged paths first (headed by their
/// verdict, "No person decides"), then the rest by their highest risk
/// class, most consequential first.
fn sections(paths: &RiskPaths) -> Vec<(String, Vec<(usize, &RiskPath)>)> {
    let numbered: Vec<(usize, &RiskPath)> = paths.paths.iter().enumerate().collect();
    let mut sections = Vec::new();
    let flagged: Vec<_> = numbered.iter().copied().filter(|(_, p)| p.flagged).collect();
    if !flagged.is_empty() {
        sections.push((verdict(flagged[0].1).to_owned(), flagged));
    }
    for class in RISK_CLASSES.iter().rev().map(|c| Some(*c)).chain([None]) {
        let these: Vec<_> = numbered
            .iter()
            .copied()
            .filter(|(_, p)| !p.flagged && p.highest_risk_class.as_deref() == class)
            .collect();
        if !these.is_empty() {
            let title = match class {
                Some(class) => format!("Highest risk: {}", risk_label(class).unwrap_or(class)),
                None => "No known risk".to_owned(),
            };
            sections.push((title, these));
        }
    }
    sections
}

fn summary(paths: &RiskPaths) -> String {
    let count = paths.paths.len();
    let start = paths.start.as_deref().unwrap_or("the start");
    let listed = match count {
        1 => format!("1 path from {start} to an end"),
        n => format!("{n} paths from {start} to an end"),
    };
    let flagged = match paths.flagged_paths() {
        0 => "None is flagged.".to_owned(),
        1 => "1 is flagged.".to_owned(),
        n => format!("{n} are flagged."),
    };
    format!("{listed}, riskiest first. {flagged} Each loop is walked once.")
}

fn stopped(paths: &RiskPaths) -> Option<String> {
    let limits = paths.limits;
    let why = match paths.stopped_by? {
        Stop::MaxPaths => format!("the first {} paths are listed", limits.max_paths),
        Stop::MaxListedSteps => {
            format!("the paths listed hold {} steps at most", limits.max_listed_steps)
        }
        Stop::MaxEdgeWalks => format!("the walk follows {} edges at most", limits.max_edge_walks),
    };
    Some(format!("There are more paths than shown: {why}."))
}

fn path_list(paths: &RiskPaths, state: RiskPathsState) -> impl IntoView {
    if paths.start.is_none() {
        return view! { <p class="panel-empty">"This playbook names no start step that exists, so there is no path to walk."</p> }.into_any();
    }
    if paths.paths.is_empty() {
        return view! { <p class="panel-empty">"No path from the start reaches an end: every walk goes round a loop with no way out."</p> }.into_any();
    }
    let gates: HashSet<&str> = paths
        .steps
        .iter()
        .filter(|s| s.kind.as_deref() == Some("gate"))
        .map(|s| s.step.as_str())
        .collect();
    let acting: HashSet<&str> = paths
        .steps
        .iter()
        .filter(|s| !s.acting_tools.is_empty())
        .map(|s| s.step.as_str())
        .collect();
    let kinds = Kinds { gates: &gates, acting: &acting };
    let sections = sections(paths)
        .into_iter()
        .map(|(title, members)| {
            let items = members
                .into_iter()
                .map(|(i, path)| path_item(i, path, &kinds, state))
                .collect_view();
            view! {
                <section class="paths-section">
                    <h3>{title}</h3>
                    <ol class="paths">{items}</ol>
                </section>
            }
        })
        .collect_view();
    let chosen = move || state.chosen.with(Option::is_some);
    view! {
        <div class="paths-panel">
            <div class="paths-summary">
                <p data-testid="paths-summary">{summary(paths)}</p>
                <p class="paths-terms" data-testid="paths-terms">{terms()}</p>
                {stopped(paths).map(|text| view! { <p class="paths-stopped" role="status">{text}</p> })}
                <button class="button" data-testid="paths-clear" disabled=move || !chosen() on:click=move |_| state.chosen.set(None)>"Show all"</button>
            </div>
            {sections}
        </div>
    }
    .into_any()
}

/// Which steps are gates, and which act (may call a tool that changes
/// something), from the core's per-step summary.
struct Kinds<'p> {
    gates: &'p HashSet<&'p str>,
    acting: &'p HashSet<&'p str>,
}

fn path_item(
    index: usize,
    path: &RiskPath,
    kinds: &Kinds<'_>,
    state: RiskPathsState,
) -> impl IntoView {
    let steps = path.steps.clone();
    let is_chosen = {
        let steps = steps.clone();
        move || state.chosen.with(|c| c.as_ref() == Some(&steps))
    };
    let toggle = {
        let is_chosen = is_chosen.clone();
        move |_| state.chosen.set((!is_chosen()).then(|| steps.clone()))
    };
    let status = match (path.flagged, path.gated) {
        (true, _) => "flagged",
        (false, true) => "gated",
        (false, false) => "ungated",
    };
    let last = path.steps.len().saturating_sub(1);
    let chain = path
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let gate = kinds.gates.contains(step.as_str());
            let ungated = path.ungated.iter().any(|u| u.position == i);
            view! {
                <span class="path-step" class:gate=gate class:ungated=ungated>{step.clone()}{gate.then_some(" (gate)")}</span>
                {(i < last).then_some(view! { <span class="path-arrow" aria-hidden="true">" → "</span> })}
            }
        })
        .collect_view();
    let ending = (path.ending == Ending::DeadEnd)
        .then_some(view! { <span class="path-note">"ends where a next names no step"</span> });
    // Per class a person should decide before, the steps that reach it
    // with none deciding, in the core's words.
    let unsupervised = path
        .unsupervised
        .iter()
        .map(|step| {
            view! {
                <span class="path-unsupervised" data-risk=step.risk_class.clone() data-step=step.step.clone()>
                    {capitalise(unsupervised(step)).to_string()}"."
                </span>
            }
        })
        .collect_view();
    let ungated = path
        .ungated
        .iter()
        .map(|u| {
            let tools = u.tools.iter().map(acting).collect::<Vec<_>>().join("; ");
            view! {
                <span class="path-ungated">"No gate before " <code>{u.step.clone()}</code> ", which may act with " {tools}</span>
            }
        })
        .collect_view();
    let gated_note = path.gated.then(|| {
        let acts = path.steps.iter().any(|s| kinds.acting.contains(s.as_str()));
        view! { <span class="path-note">{if acts { "A gate stands before every step that acts." } else { "No step on it acts: it only reads." }}</span> }
    });
    view! {
        <li>
            <button
                class="path-card"
                data-testid="risk-path"
                data-path-index=index
                data-flagged=path.flagged.to_string()
                data-gated=path.gated.to_string()
                data-risk=path.highest_risk_class.clone()
                data-steps=path.steps.join(" ")
                class:chosen=is_chosen.clone()
                aria-pressed=move || is_chosen().to_string()
                title="Pick this path out in the graph"
                on:click=toggle
            >
                <span class="path-head">
                    <span class="path-number">{format!("{}.", index + 1)}</span>
                    <span class="path-status" data-status=status>{verdict(path)}</span>
                    {match path.highest_risk_class.clone() {
                        Some(risk) => view! { <RiskBadge risk=Some(risk) partly_unknown=path.risk_partly_unknown /> }.into_any(),
                        None if path.risk_partly_unknown => view! { <RiskBadge risk=None /> }.into_any(),
                        None => view! { <span class="path-tag">"no tools"</span> }.into_any(),
                    }}
                    {path.loops.then_some(view! { <span class="path-tag">"goes round a loop"</span> })}
                </span>
                <span class="path-chain">{chain}</span>
                {unsupervised}
                {ungated}
                {gated_note}
                {ending}
            </button>
        </li>
    }
}
