//! A plugin manifest's tools as a table (how each runs, where, how its calls
//! are approved, within which limits, the seed's defaults marked), then its
//! flows, connections, secrets and skills with what uses them, and a detail
//! panel for the selected tool. Everything is the core's manifest explain.

use super::explain::{manifest_tool, tool_key};
use super::parts::{code_list, defaulted, item_diagnostics};
use super::selection::{Selection, Target};
use crate::checker::{Located, Report};
use crate::ui::diagnostics::{message, Jump};
use leptos::prelude::*;
use opb_core::explain::manifest::{
    Defaulted, ManifestExplain, ManifestToolExplain, ResourcesExplain, RunsExplain,
};
use opb_core::explain::Explain;
use std::sync::Arc;

/// Characters of a long version (an image digest) the table shows.
const DIGEST_SHOWN: usize = 19;

fn manifest(report: &Option<Arc<Report>>) -> Option<&ManifestExplain> {
    match report.as_deref()?.analysis.explain.as_ref()? {
        Explain::PluginManifest(m) => Some(m),
        Explain::Playbook(_) => None,
    }
}

#[component]
pub fn ManifestView(
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    selection: Selection,
    #[prop(into)] on_jump: Callback<Jump>,
) -> impl IntoView {
    let overview = move || {
        let report = report.get();
        let Some(m) = manifest(&report) else {
            return view! { <p class="panel-empty">"The manifest view is for plugin manifests that can be read."</p> }.into_any();
        };
        view! {
            <header class="manifest-header">
                <h3>{m.plugin.name.clone().unwrap_or_else(|| "Unnamed plugin".to_owned())}</h3>
                {m.plugin.version.clone().map(|v| view! { <span class="chip">{format!("version {v}")}</span> })}
                {if m.egress {
                    view! { <span class="chip warn" title="The plugin declares egress: it reaches outside">"reaches outside (egress)"</span> }.into_any()
                } else {
                    view! { <span class="chip">"no egress declared"</span> }.into_any()
                }}
            </header>
            {m.plugin.description.clone().map(|d| view! { <p class="document-description">{d}</p> })}
            <section>
                <h3>"Tools" <span class="count-pill">{m.tools.len()}</span></h3>
                {tools_table(m, selection)}
            </section>
            {flows(m)}
            {connections(m)}
            {secrets(m)}
            {skills(m)}
        }
        .into_any()
    };
    let detail = move || {
        let report = report.get();
        let m = manifest(&report)?;
        let Some(Target::ManifestTool(key)) = selection.get() else {
            return Some(view! {
                <section class="tool-panel empty"><p class="hint">"Select a tool in the table to see all the manifest says about it."</p></section>
            }
            .into_any());
        };
        let Some(tool) = manifest_tool(m, &key) else {
            return Some(view! {
                <section class="tool-panel empty"><p class="hint">{format!("The tool {key} is no longer in the manifest.")}</p></section>
            }
            .into_any());
        };
        let report = report.as_deref()?;
        Some(tool_detail(tool, report, on_jump).into_any())
    };
    view! {
        <div class="manifest-view">
            <div class="viewer-scroll manifest-overview" data-testid="manifest-view">{overview}</div>
            <div class="detail-scroll">{detail}</div>
        </div>
    }
}

fn runs_cell(runs: &RunsExplain, full: bool) -> AnyView {
    match runs {
        RunsExplain::Command { command } => view! {
            <span class="runs-kind">"its own command"</span>
            <code class="runs-what">{command.join(" ")}</code>
        }
        .into_any(),
        RunsExplain::Package { spec, ecosystem, name, version, pinned, .. } => {
            let what = match (ecosystem, name) {
                (Some(e), Some(_)) => format!("{} package", e.as_str()),
                _ => "package".to_owned(),
            };
            let shown = name.clone().unwrap_or_else(|| spec.clone());
            // An image digest is 71 characters: its start tells it apart.
            let version = version.as_deref().map(|v| match v.char_indices().nth(DIGEST_SHOWN).filter(|_| !full) {
                Some((cut, _)) => format!(" {}…", &v[..cut]),
                None => format!(" {v}"),
            });
            view! {
                <span class="runs-kind">{what}</span>
                <code class="runs-what" title=spec.clone()>{shown}{version}</code>
                {if *pinned {
                    view! { <span class="flag yes" title="One exact version (or image digest)">"pinned"</span> }.into_any()
                } else {
                    view! { <span class="flag warn" title="Not one exact version: what runs may change">"not pinned"</span> }.into_any()
                }}
            }
            .into_any()
        }
        RunsExplain::Remote { url, secure, connection, .. } => view! {
            <span class="runs-kind">"remote server"</span>
            <code class="runs-what">{url.clone()}</code>
            {(!secure).then(|| view! { <span class="flag warn">"not https"</span> })}
            {connection.clone().map(|c| view! { <span class="runs-note">"connection " <code>{c}</code></span> })}
        }
        .into_any(),
        RunsExplain::Flow { flow, found, .. } => view! {
            <span class="runs-kind">"flow"</span>
            <code class="runs-what">{flow.clone()}</code>
            {(!found).then(|| view! { <span class="flag warn">"no such flow"</span> })}
        }
        .into_any(),
        RunsExplain::Unknown => view! { <span class="none">"not said"</span> }.into_any(),
    }
}

/// A value as set, or the seed's default, set in grey italics in the table
/// (whose note says so); the detail panel says "default" in words.
fn compact(text: String, default: bool) -> impl IntoView {
    view! { <span class="value" class:is-default=default title=default.then_some("Not set: the seed's default")>{text}</span> }
}

fn where_cell(tool: &ManifestToolExplain) -> AnyView {
    let Some(p) = &tool.placement else {
        return view! { <span class="runs-note">"the plugin's pool (a flow)"</span> }.into_any();
    };
    view! {
        <div class="where-line">{p.isolation.clone().map_or_else(|| "no isolation".to_owned(), |i| format!("isolation {i}"))}</div>
        {p.sandbox.clone().map(|s| view! { <div class="where-line">{format!("sandbox {s}")}</div> })}
        <div class="where-line">"affinity " {compact(p.affinity.value.clone(), p.affinity.default)}</div>
    }
    .into_any()
}

fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        value.to_string()
    }
}

fn limits_cell(tool: &ManifestToolExplain) -> AnyView {
    let resources = tool.resources.as_ref().map(|r| {
        let item = |d: &Defaulted<f64>, unit: &str| compact(format!("{} {unit}", number(d.value)), d.default);
        view! {
            <div class="where-line">{item(&r.memory_mb, "MiB")}", " {item(&r.cpus, "cpu")}", " {item(&r.pids, "pids")}</div>
            {(!r.applies).then(|| view! { <div class="runs-note">"not applied with this sandbox"</div> })}
        }
    });
    view! {
        {tool.timeout.as_ref().map(|t| view! { <div class="where-line">"timeout " {compact(t.value.text.clone(), t.default)}</div> })}
        {resources}
        {(tool.timeout.is_none() && tool.resources.is_none()).then(|| view! { <span class="none">"none apply"</span> })}
    }
    .into_any()
}

/// The functions a tool always asks about, without the tool's own prefix.
fn asked(tool: &ManifestToolExplain, key: &str) -> Vec<String> {
    let prefix = format!("{key}.");
    tool.approval
        .always_asks
        .iter()
        .map(|f| f.strip_prefix(&prefix).unwrap_or(f).to_owned())
        .collect()
}

fn approval_cell(tool: &ManifestToolExplain, key: &str) -> AnyView {
    let a = &tool.approval;
    view! {
        {if a.always_asks.is_empty() {
            view! { <div>"by policy"</div> }.into_any()
        } else {
            view! { <div>"always asks: " {code_list(&asked(tool, key), "")}</div> }.into_any()
        }}
        <div class="where-line">"within " {compact(a.deadline.value.text.clone(), a.deadline.default)}</div>
        {a.four_eyes.then(|| view! { <div class="where-line">"four eyes"</div> })}
    }
    .into_any()
}

fn tools_table(m: &ManifestExplain, selection: Selection) -> AnyView {
    if m.tools.is_empty() {
        return view! { <p class="none-declared">"The manifest declares no tools."</p> }.into_any();
    }
    let rows = m
        .tools
        .iter()
        .map(|tool| {
            let key = tool_key(tool);
            let target = Target::ManifestTool(key.clone());
            let selected = {
                let target = target.clone();
                move || selection.is(&target)
            };
            let counts = tool.counts;
            view! {
                <tr data-tool=key.clone() class:selected=selected on:click=move |_| selection.choose(Some(target.clone()))>
                    <td>
                        <button class="tool-name link-button" title=format!("{key}: show its details and its definition in the editor")>{key.clone()}</button>
                        {(counts.error > 0).then(|| view! { <span class="resolution invalid">{format!("{} error{}", counts.error, if counts.error == 1 { "" } else { "s" })}</span> })}
                        {(counts.warning > 0).then(|| view! { <span class="resolution registry">{format!("{} warning{}", counts.warning, if counts.warning == 1 { "" } else { "s" })}</span> })}
                    </td>
                    <td>{runs_cell(&tool.runs, false)}</td>
                    <td>{where_cell(tool)}</td>
                    <td>{approval_cell(tool, &key)}</td>
                    <td>{limits_cell(tool)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="manifest-table" data-testid="manifest-tools">
                <thead>
                    <tr><th scope="col">"Tool"</th><th scope="col">"Runs"</th><th scope="col">"Where"</th><th scope="col">"Approval"</th><th scope="col">"Limits"</th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="panel-note-inline">"Values in " <span class="value is-default">"grey italics"</span> " are not set in the manifest: they are the defaults the tool declarations reference gives."</p>
    }
    .into_any()
}

fn tool_links(names: &[String]) -> AnyView {
    code_list(names, "none")
}

fn flows(m: &ManifestExplain) -> Option<impl IntoView> {
    (!m.flows.is_empty()).then(|| {
        let rows = m
            .flows
            .iter()
            .map(|f| {
                view! {
                    <tr data-flow=f.name.clone()>
                        <td><code>{f.name.clone().unwrap_or_else(|| "(no name)".to_owned())}</code></td>
                        <td>{f.description.clone().unwrap_or_default()}</td>
                        <td>{tool_links(&f.exposed_by)}</td>
                        <td>{code_list(&f.step_tools, "none")}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section>
                <h3>"Flows" <span class="count-pill">{m.flows.len()}</span></h3>
                <div class="table-scroll">
                    <table class="requires-table" data-testid="manifest-flows">
                        <thead><tr><th scope="col">"Flow"</th><th scope="col">"What it does"</th><th scope="col">"Exposed by"</th><th scope="col">"Its steps call"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        }
    })
}

fn connections(m: &ManifestExplain) -> Option<impl IntoView> {
    (!m.connections.is_empty()).then(|| {
        let rows = m
            .connections
            .iter()
            .map(|c| {
                view! {
                    <tr data-connection=c.name.clone()>
                        <td><code>{c.name.clone().unwrap_or_else(|| "(no name)".to_owned())}</code></td>
                        <td>{code_list(&c.tools, "none")}</td>
                        <td>{code_list(&c.params, "none")}</td>
                        <td>{tool_links(&c.used_by)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section>
                <h3>"Connections" <span class="count-pill">{m.connections.len()}</span></h3>
                <div class="table-scroll">
                    <table class="requires-table" data-testid="manifest-connections">
                        <thead><tr><th scope="col">"Connection"</th><th scope="col">"Tools"</th><th scope="col">"Params"</th><th scope="col">"Used by"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        }
    })
}

fn secrets(m: &ManifestExplain) -> Option<impl IntoView> {
    (!m.secrets.is_empty()).then(|| {
        let rows = m
            .secrets
            .iter()
            .map(|s| {
                let uses = s
                    .used_by
                    .iter()
                    .map(|u| view! { <li><code>{u.tool.clone()}</code>" header " <code>{u.header.clone()}</code></li> })
                    .collect_view();
                view! {
                    <tr data-secret=s.name.clone()>
                        <td><code>{s.name.clone()}</code></td>
                        <td>{if s.required { "required" } else { "optional" }}</td>
                        <td>{if s.used_by.is_empty() { view! { <span class="none">"nothing the manifest shows"</span> }.into_any() } else { view! { <ul class="uses">{uses}</ul> }.into_any() }}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section>
                <h3>"Secrets" <span class="count-pill">{m.secrets.len()}</span></h3>
                <div class="table-scroll">
                    <table class="requires-table" data-testid="manifest-secrets">
                        <thead><tr><th scope="col">"Name"</th><th scope="col">"Needed"</th><th scope="col">"Used by"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <p class="panel-note-inline">"Names only: the manifest never shows a secret's value."</p>
            </section>
        }
    })
}

fn skills(m: &ManifestExplain) -> Option<impl IntoView> {
    (!m.skills.is_empty()).then(|| {
        let rows = m
            .skills
            .iter()
            .map(|s| view! { <tr><td><code>{s.name.clone()}</code></td><td>{tool_links(&s.manual_of)}</td></tr> })
            .collect_view();
        view! {
            <section>
                <h3>"Skills" <span class="count-pill">{m.skills.len()}</span></h3>
                <div class="table-scroll">
                    <table class="requires-table">
                        <thead><tr><th scope="col">"Skill"</th><th scope="col">"Manual of"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        }
    })
}

fn resources_detail(r: &ResourcesExplain) -> impl IntoView {
    let item = |label: &'static str, d: &Defaulted<f64>, unit: &'static str| {
        view! { <div class="where-line">{label} " " {defaulted(format!("{} {unit}", number(d.value)), d.default)}</div> }
    };
    view! {
        {item("memory", &r.memory_mb, "MiB")}
        {item("cpus", &r.cpus, "")}
        {item("pids", &r.pids, "")}
        {(!r.applies).then(|| view! { <div class="runs-note">"not applied with this sandbox"</div> })}
    }
}

/// Everything the manifest says about one tool.
fn tool_detail(
    tool: &ManifestToolExplain,
    report: &Report,
    on_jump: Callback<Jump>,
) -> impl IntoView {
    let key = tool_key(tool);
    let a = &tool.approval;
    let diagnostics: Vec<&Located> = report
        .located
        .iter()
        .filter(|l| {
            report.analysis.anchors.item(&l.diagnostic.pointer) == Some(tool.pointer.as_str())
        })
        .collect();
    let placement = tool.placement.as_ref().map(|p| {
        view! {
            <dt>"Runs where"</dt>
            <dd>
                <div class="where-line">"isolation " {p.isolation.clone().unwrap_or_else(|| "none".to_owned())}</div>
                <div class="where-line">"sandbox " {p.sandbox.clone().unwrap_or_else(|| "none".to_owned())}</div>
                <div class="where-line">"affinity " {defaulted(p.affinity.value.clone(), p.affinity.default)}</div>
                {p.node_label.clone().map(|l| view! { <div class="where-line">"needs nodes labelled " <code>{l}</code></div> })}
                {p.needs_container_runtime.then(|| view! { <div class="where-line">"needs Docker or Podman on the node"</div> })}
                {p.needs_exemption.then(|| view! { <div class="where-line">"on a tier-1 node, waits for the operator's exemption"</div> })}
            </dd>
        }
    });
    let deciders = {
        let d = &a.deciders;
        view! {
            <div class="where-line">"role " {defaulted(d.role.value.clone(), d.role.default)}</div>
            {(!d.teams.is_empty()).then(|| view! { <div class="where-line">"teams " {code_list(&d.teams, "")}</div> })}
            {(!d.people.is_empty()).then(|| view! { <div class="where-line">"people " {code_list(&d.people, "")}</div> })}
            {(!d.keys.is_empty()).then(|| view! { <div class="where-line">"API keys " {code_list(&d.keys, "")}</div> })}
        }
    };
    let escalation = if a.escalation.off {
        view! { <span>"off" {a.escalation.reason.clone().map(|r| format!(": {r}"))}</span> }
            .into_any()
    } else {
        let steps: Vec<String> =
            a.escalation.steps.iter().map(|s| format!("{} at {}", s.to, s.at_text)).collect();
        view! { {defaulted(steps.join(", "), a.escalation.default)} }.into_any()
    };
    let functions = tool
        .functions
        .iter()
        .map(|f| {
            let hints = [
                ("read-only", f.annotations.read_only_hint),
                ("destructive", f.annotations.destructive_hint),
                ("open world", f.annotations.open_world_hint),
            ];
            let hints = hints
                .iter()
                .filter_map(|(name, value)| value.map(|v| format!("{name}: {}", if v { "yes" } else { "no" })))
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <li>
                    <code>{format!("{key}.{}", f.name)}</code>
                    {f.always_asks.then(|| view! { <span class="flag warn">"always asks"</span> })}
                    {(!hints.is_empty()).then(|| view! { <span class="runs-note">{hints}</span> })}
                    {f.usage.as_ref().map(|u| view! {
                        <span class="runs-note">{format!(
                            "usage: {} {} of {}{}",
                            u.units.map_or_else(String::new, |n| n.to_string()),
                            u.unit.clone().unwrap_or_default(),
                            u.service.clone().unwrap_or_default(),
                            u.cost_usd.map_or_else(String::new, |c| format!(", ${c} each")),
                        )}</span>
                    })}
                    {(!f.secret_arguments.is_empty()).then(|| view! { <span class="runs-note">"secret arguments " {code_list(&f.secret_arguments, "")}</span> })}
                </li>
            }
        })
        .collect_view();
    let diagnostics_view = item_diagnostics(&diagnostics, on_jump);
    view! {
        <section class="tool-panel" data-testid="tool-panel" data-tool=key.clone() aria-label=format!("Tool {key}")>
            <header class="step-header"><h3 class="step-id">{key.clone()}</h3></header>
            <p class="step-summary">{message(&a.summary)}</p>
            <dl class="step-links">
                <dt>"Runs"</dt><dd>{runs_cell(&tool.runs, true)}</dd>
                {placement}
                <dt>"Timeout"</dt>
                <dd>{tool.timeout.as_ref().map_or_else(|| view! { <span class="none">"none: a flow"</span> }.into_any(), |t| defaulted(t.value.text.clone(), t.default).into_any())}</dd>
                {tool.resources.as_ref().map(|r| view! { <dt>{format!("Limits ({})", r.field)}</dt><dd>{resources_detail(r)}</dd> })}
                <dt>"Deciders"</dt><dd>{deciders}</dd>
                <dt>"Escalation"</dt><dd>{escalation}</dd>
                <dt>"Edit arguments"</dt><dd>{defaulted(if a.edit.value { "allowed".to_owned() } else { "not allowed".to_owned() }, a.edit.default)}</dd>
                {a.confirm.clone().map(|c| view! { <dt>"Confirm by typing"</dt><dd><code>{c}</code></dd> })}
                {(!tool.env.is_empty()).then(|| view! { <dt>"Environment"</dt><dd>{code_list(&tool.env, "")}</dd> })}
                {(!tool.headers.is_empty()).then(|| view! {
                    <dt>"Headers"</dt>
                    <dd>{tool.headers.iter().map(|h| view! {
                        <div class="where-line"><code>{h.name.clone()}</code>{(!h.secrets.is_empty()).then(|| view! { " takes " {code_list(&h.secrets, "")} })}</div>
                    }).collect_view()}</dd>
                })}
                {(!tool.manual.is_empty()).then(|| view! { <dt>"Manual"</dt><dd>{code_list(&tool.manual, "")}</dd> })}
                {tool.uses_model.clone().map(|u| view! { <dt>"Calls a model"</dt><dd>{u}</dd> })}
                {tool.labels.as_ref().map(|l| view! {
                    <dt>"Labels"</dt>
                    <dd>{l.source.clone().unwrap_or_default()}{l.untrusted.then_some(" (untrusted)")}</dd>
                })}
                {tool.results_fit.then(|| view! { <dt>"Results"</dt><dd>"fitted to the model's context"</dd> })}
            </dl>
            {(!tool.functions.is_empty()).then(|| view! { <h4>"Functions it says something about"</h4><ul class="uses">{functions}</ul> })}
            {diagnostics_view}
        </section>
    }
}
