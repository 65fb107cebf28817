//! The trust banner: shown first when a document arrives by a link or an
//! embed, it says in one glance what the document can do. Every fact comes
//! from the core's [`opb_core::trust_summary`].

use crate::checker::Report;
use crate::format::kind_label;
use leptos::prelude::*;
use opb_core::explain::trust::{ClassReach, Gate, ManifestReach, Needed, PlaybookReach, Reach, ReachingStep, TrustSummary};
use std::sync::Arc;

/// How many names a list shows before "and N more".
const SHOWN: usize = 6;

fn class_label(class: &str) -> &str {
    match class {
        "money" => "money",
        "customer_comms" => "customer communications",
        "internal" => "internal systems",
        "read" => "read only",
        other => other,
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Names as code, the first few of them, and how many more.
fn names(list: &[String]) -> impl IntoView {
    let more = list.len().saturating_sub(SHOWN);
    let shown = list
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, name)| view! { {(i > 0).then_some(", ")}<code>{name.clone()}</code> })
        .collect_view();
    view! { {shown}{(more > 0).then(|| format!(" and {more} more"))} }
}

fn needed(label: &'static str, list: &[Needed]) -> Option<impl IntoView> {
    if list.is_empty() {
        return None;
    }
    let more = list.len().saturating_sub(SHOWN);
    let items = list
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, need)| {
            view! {
                {(i > 0).then_some(", ")}
                <code>{need.name.clone()}</code>
                {(!need.declared).then(|| view! { <span class="trust-undeclared">" (not declared)"</span> })}
            }
        })
        .collect_view();
    Some(view! {
        <span class="trust-need"><span class="trust-need-label">{label}</span>" " {items}{(more > 0).then(|| format!(" and {more} more"))}</span>
    })
}

fn gate_text(step: &ReachingStep) -> impl IntoView {
    match &step.gate {
        Gate::Always { gates } if gates.is_empty() => view! { <span class="trust-gated">"a gate comes first"</span> }.into_any(),
        Gate::Always { gates } => view! { <span class="trust-gated">"after gate " {names(gates)}</span> }.into_any(),
        Gate::Open { route, length } => {
            let cut = *length > route.len();
            view! {
                <span class="trust-open">
                    "reached with no gate on the way: "
                    {cut.then_some("… → ")}
                    {route.iter().enumerate().map(|(i, s)| view! { {(i > 0).then_some(" → ")}<code>{s.clone()}</code> }).collect_view()}
                </span>
            }
            .into_any()
        }
        Gate::Unreachable => view! { <span class="trust-muted">"never reached from the start"</span> }.into_any(),
    }
}

fn class_fact(reach: &ClassReach) -> impl IntoView {
    let more = reach.steps.len().saturating_sub(SHOWN);
    let open = reach.steps.iter().any(|s| matches!(s.gate, Gate::Open { .. }));
    let steps = reach
        .steps
        .iter()
        .take(SHOWN)
        .map(|step| {
            let verb = if step.acts { "acts with" } else { "may call" };
            view! {
                <li>
                    "Step " <code>{step.step.clone()}</code> " " {verb} " " {names(&step.tools)} ": " {gate_text(step)}
                </li>
            }
        })
        .collect_view();
    view! {
        <li class="trust-fact" class:warn=open data-fact=reach.risk_class.clone()>
            <span class="trust-fact-title">{format!("Reaches {}", class_label(&reach.risk_class))}</span>
            <ul class="trust-steps">{steps}</ul>
            {(more > 0).then(|| view! { <p class="trust-muted">{format!("and {} more", plural(more, "step", "steps"))}</p> })}
        </li>
    }
}

fn playbook_facts(reach: &PlaybookReach) -> impl IntoView {
    let chips = if reach.risk_classes.is_empty() {
        view! { <span class="trust-muted">"no tool with a stated risk"</span> }.into_any()
    } else {
        reach
            .risk_classes
            .iter()
            .map(|class| view! { <span class="risk-chip" data-risk=class.clone()>{class_label(class).to_owned()}</span> })
            .collect_view()
            .into_any()
    };
    view! {
        <li class="trust-fact" data-fact="risk-classes">
            <span class="trust-fact-title">"Risk classes"</span>
            <span class="risk-chips">{chips}</span>
        </li>
        {reach.warned.iter().map(class_fact).collect_view()}
        {(!reach.unknown_risk_tools.is_empty()).then(|| view! {
            <li class="trust-fact" data-fact="unknown-risk">
                <span class="trust-fact-title">"Risk not stated"</span>
                <span>{names(&reach.unknown_risk_tools)} ": only the runtime's registry says what they can do."</span>
            </li>
        })}
    }
}

fn manifest_facts(reach: &ManifestReach) -> impl IntoView {
    let mut how = Vec::new();
    if !reach.remote_servers.is_empty() {
        how.push(plural(reach.remote_servers.len(), "remote server", "remote servers"));
    }
    if !reach.packages.is_empty() {
        how.push(plural(reach.packages.len(), "package", "packages"));
    }
    if reach.commands > 0 {
        how.push(plural(reach.commands, "local command", "local commands"));
    }
    let runs = format!("{}{}", plural(reach.tools, "tool", "tools"), if how.is_empty() { String::new() } else { format!(": {}", how.join(", ")) });
    view! {
        <li class="trust-fact" data-fact="tools">
            <span class="trust-fact-title">"Runs"</span>
            <span>{runs}</span>
        </li>
        {(!reach.remote_servers.is_empty()).then(|| view! {
            <li class="trust-fact" data-fact="remote">
                <span class="trust-fact-title">"Calls"</span>
                <span>{names(&reach.remote_servers)}</span>
            </li>
        })}
        {(!reach.packages.is_empty()).then(|| view! {
            <li class="trust-fact" data-fact="packages">
                <span class="trust-fact-title">"Installs"</span>
                <span>{names(&reach.packages)}</span>
            </li>
        })}
        <li class="trust-fact" class:warn=reach.egress data-fact="egress">
            <span class="trust-fact-title">"Outside"</span>
            <span>{if reach.egress { "declares egress: its tools reach outside the plugin" } else { "declares no egress" }}</span>
        </li>
        {(!reach.always_asks.is_empty()).then(|| view! {
            <li class="trust-fact" data-fact="approval">
                <span class="trust-fact-title">"A person approves"</span>
                <span>{names(&reach.always_asks)}</span>
            </li>
        })}
    }
}

fn summary_view(summary: TrustSummary) -> impl IntoView {
    let counts = summary.counts;
    let requires: Vec<_> = [
        needed("Secrets", &summary.secrets),
        needed("Connections", &summary.connections),
        needed("MCP servers", &summary.mcp_servers),
    ]
    .into_iter()
    .flatten()
    .collect();
    let facts = match &summary.reach {
        Reach::Playbook(reach) => playbook_facts(reach).into_any(),
        Reach::PluginManifest(reach) => manifest_facts(reach).into_any(),
    };
    let problems = format!(
        "{}, {}",
        plural(counts.error, "error", "errors"),
        plural(counts.warning, "warning", "warnings")
    );
    view! {
        <p class="trust-heading">
            <span class="trust-kind">{format!("{} ", kind_label(summary.kind))}</span>
            {summary.title.map(|t| view! { <span class="trust-title">{format!("“{t}”")}</span> })}
            <span class="trust-counts" class:bad={counts.error > 0} data-testid="trust-counts">{problems}</span>
        </p>
        <ul class="trust-facts">
            {facts}
            <li class="trust-fact" data-fact="requires">
                <span class="trust-fact-title">"Requires"</span>
                {if requires.is_empty() {
                    view! { <span class="trust-muted">"no secrets, connections or servers"</span> }.into_any()
                } else {
                    view! { <span class="trust-needs">{requires.collect_view()}</span> }.into_any()
                }}
            </li>
            {(summary.credentials > 0).then(|| view! {
                // The alert is inside the item: a list holds items only.
                <li class="trust-fact danger" data-fact="credentials">
                    <span class="trust-fact-title">"Credentials"</span>
                    <span role="alert">{format!(
                        "{} written into the document (SEC001). Anyone who has it can use {}: revoke {}.",
                        plural(summary.credentials, "value looks like a credential", "values look like credentials"),
                        if summary.credentials == 1 { "it" } else { "them" },
                        if summary.credentials == 1 { "it" } else { "them" },
                    )}</span>
                </li>
            })}
        </ul>
    }
}

/// The banner for the checked document. `on_dismiss`, when given, adds a
/// close button.
#[component]
pub fn TrustBanner(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    #[prop(optional, into)] on_dismiss: Option<Callback<()>>,
) -> impl IntoView {
    let summary = Memo::new(move |_| report.with(|r| r.as_ref().and_then(|r| opb_core::trust_summary(&r.analysis))));
    view! {
        <section class="trust-banner" data-testid="trust-banner" aria-labelledby="trust-banner-title">
            <div class="trust-top">
                <svg class="trust-icon" viewBox="0 0 24 24" aria-hidden="true">
                    <path d="M12 2.5l8 3v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" />
                    <path d="M8.5 12l2.5 2.5 4.5-5" />
                </svg>
                <h2 id="trust-banner-title">"What this document can do"</h2>
                {on_dismiss.map(|dismiss| view! {
                    <button class="icon-button trust-dismiss" aria-label="Dismiss the summary" title="Dismiss" on:click=move |_| dismiss.run(())>"×"</button>
                })}
            </div>
            {move || match summary.get() {
                Some(summary) => summary_view(summary).into_any(),
                None => view! {
                    <p class="trust-muted">{move || if report.with(Option::is_none) { "Checking…" } else { "It could not be read as a playbook or a plugin manifest: see the diagnostics." }}</p>
                }.into_any(),
            }}
        </section>
    }
}
