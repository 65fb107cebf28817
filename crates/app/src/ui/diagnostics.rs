//! The diagnostics panel: counts and severity filters, then one entry per
//! diagnostic, errors first (or in the text's order, as the reader
//! chooses), that moves the editor to its range and links to its rule.

use crate::checker::{self, Fix, Located, Report};
use crate::format::plural;
use leptos::prelude::*;
use opb_core::Severity;
use opb_render::words::code_spans;
use std::sync::Arc;

/// At most this many entries are listed; the counts still cover them all.
pub const LIST_LIMIT: usize = 500;

/// A range of the editor's text, in UTF-16 offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    pub from: u32,
    pub to: u32,
}

pub const SEVERITIES: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];

pub fn count_of(report: &Report, severity: Severity) -> usize {
    let counts = &report.analysis.checked.counts;
    match severity {
        Severity::Error => counts.error,
        Severity::Warning => counts.warning,
        Severity::Info => counts.info,
    }
}

/// The severity icon: a shape as well as a colour, so it reads without colour.
#[component]
pub fn SeverityIcon(severity: Severity) -> impl IntoView {
    let class = format!("severity-icon {}", severity.as_str());
    match severity {
        Severity::Error => view! {
            <svg class=class viewBox="0 0 16 16" aria-hidden="true">
                <circle cx="8" cy="8" r="7" />
                <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" />
            </svg>
        }
        .into_any(),
        Severity::Warning => view! {
            <svg class=class viewBox="0 0 16 16" aria-hidden="true">
                <path d="M8 1.5l7 12.5H1z" />
                <path d="M8 6v3.5M8 11.6v.4" />
            </svg>
        }
        .into_any(),
        Severity::Info => view! {
            <svg class=class viewBox="0 0 16 16" aria-hidden="true">
                <circle cx="8" cy="8" r="7" />
                <path d="M8 7.2v4.3M8 4.6v.4" />
            </svg>
        }
        .into_any(),
    }
}

/// What an entry's controls do: `jump` receives the range of a clicked
/// entry, `fix` an entry's certain fix, `fix_all` a press of "Fix all
/// certain", `rule` the range of the entry whose rule link was followed.
#[derive(Clone, Copy)]
pub struct EntryActions {
    pub jump: Callback<Jump>,
    pub fix: Callback<Fix>,
    pub fix_all: Callback<()>,
    pub rule: Callback<Jump>,
}

/// The panel. `line_order` lists the entries in the text's order rather
/// than errors first (the app keeps it, so it outlives the panel; by
/// default the panel's own).
#[component]
pub fn DiagnosticsPanel(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    actions: EntryActions,
    #[prop(optional)] line_order: RwSignal<bool>,
) -> impl IntoView {
    let hidden = RwSignal::new(Vec::<Severity>::new());
    let toggle = move |severity: Severity| {
        hidden.update(|h| match h.iter().position(|&s| s == severity) {
            Some(i) => {
                h.remove(i);
            }
            None => h.push(severity),
        })
    };
    let filters = SEVERITIES.map(|severity| {
        let count = move || report.with(|r| r.as_deref().map_or(0, |r| count_of(r, severity)));
        view! {
            <button
                class="filter"
                data-severity=severity.as_str()
                aria-pressed=move || (!hidden.with(|h| h.contains(&severity))).to_string()
                title=format!("Show or hide {}", plural(severity, 2).trim_start_matches("2 "))
                on:click=move |_| toggle(severity)
            >
                <SeverityIcon severity=severity />
                <span class="filter-label">{move || plural(severity, count())}</span>
            </button>
        }
    });
    let list = move || {
        let Some(report) = report.get() else {
            return view! { <p class="panel-empty">"Checking…"</p> }.into_any();
        };
        if report.located.is_empty() {
            return view! {
                <div class="panel-empty all-clear">
                    <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" /><path d="M7.5 12.5l3 3 6-6.5" /></svg>
                    <p class="all-clear-title">"No problems found"</p>
                    <p>"The document passes every rule opb checks."</p>
                </div>
            }
            .into_any();
        }
        let hidden_now = hidden.get();
        let visible: Vec<&Located> = checker::listed(&report.located, line_order.get())
            .into_iter()
            .filter(|l| !hidden_now.contains(&l.diagnostic.severity))
            .collect();
        if visible.is_empty() {
            return view! {
                <p class="panel-empty">{format!("All {} diagnostics are hidden by the filters above.", report.located.len())}</p>
            }
            .into_any();
        }
        let overflow = visible.len().saturating_sub(LIST_LIMIT);
        let entries = visible
            .into_iter()
            .take(LIST_LIMIT)
            .map(|located| entry(located, actions))
            .collect_view();
        view! {
            <ul class="diagnostic-list" aria-label="Diagnostics">{entries}</ul>
            {(overflow > 0).then(|| view! {
                <p class="panel-note">{format!("{overflow} more not listed. Fix the ones above first: they often cause the rest.")}</p>
            })}
        }
        .into_any()
    };
    let fixable = move || {
        report.with(|r| {
            r.as_ref().map_or(0, |r| r.located.iter().filter(|l| l.fix.is_some()).count())
        })
    };
    let fix_all = move || {
        (fixable() > 0).then(|| {
            view! {
                <button
                    class="button fix-all"
                    data-testid="fix-all"
                    title="Apply every fix opb is certain of, as one change that Ctrl+Z undoes"
                    on:click=move |_| actions.fix_all.run(())
                >
                    {move || format!("Fix all certain ({})", fixable())}
                </button>
            }
        })
    };
    view! {
        <div class="diagnostics-panel">
            <div class="filters-bar">
                <div class="filters" role="group" aria-label="Filter by severity">{filters}</div>
                {fix_all}
                <button
                    class="line-order"
                    data-testid="line-order"
                    aria-pressed=move || line_order.get().to_string()
                    title="List the diagnostics in the text's order rather than errors first"
                    on:click=move |_| line_order.update(|on| *on = !*on)
                >
                    "Line order"
                </button>
            </div>
            <div class="panel-scroll">{list}</div>
        </div>
    }
}

fn entry(located: &Located, actions: EntryActions) -> impl IntoView {
    let d = &located.diagnostic;
    let jump = Jump { from: located.from, to: located.to };
    let position = format!("{}:{}", d.range.start.line, d.range.start.column);
    let where_ = if d.pointer.is_empty() { "document root".to_owned() } else { d.pointer.clone() };
    view! {
        <li class="diagnostic" data-code=d.code data-severity=d.severity.as_str()>
            <button
                class="diagnostic-main"
                title=format!("Show line {} in the editor", d.range.start.line)
                on:click=move |_| actions.jump.run(jump)
            >
                <SeverityIcon severity=d.severity />
                <span class="diagnostic-message">{message(&d.message)}</span>
                <span class="diagnostic-position">{position}</span>
            </button>
            <div class="diagnostic-meta">
                <a
                    class="rule-link"
                    href=format!("#rules/{}", d.code)
                    title="Read the rule's documentation"
                    on:click=move |_| actions.rule.run(jump)
                >
                    <span class="rule-code">{d.code}</span>
                    <span class="rule-name">{d.name}</span>
                </a>
                <span class="diagnostic-pointer" title="JSON pointer">{where_}</span>
                {located.fix.clone().map(|fix| {
                    let label = format!("Change to `{}`", fix.text);
                    view! {
                        <button
                            class="button fix-button"
                            data-testid="fix"
                            title="Apply the fix opb is certain of; Ctrl+Z undoes it"
                            on:click=move |_| actions.fix.run(fix.clone())
                        >
                            {message(&label)}
                        </button>
                    }
                })}
            </div>
        </li>
    }
}

/// A message with its backtick-quoted names and values set as code.
pub fn message(text: &str) -> Vec<AnyView> {
    code_spans(text)
        .into_iter()
        .map(
            |(is_code, piece)| {
                if is_code {
                    view! { <code>{piece}</code> }.into_any()
                } else {
                    piece.into_any()
                }
            },
        )
        .collect()
}
