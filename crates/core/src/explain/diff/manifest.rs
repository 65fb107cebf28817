//! Two plugin manifests compared: each tool (how it runs, where, its
//! approvals and annotations, its environment and headers), then the
//! plugin's connections, secrets, egress and flows.

use super::{keyed, Change, Detail, FromTo, Impact, Section, Subject};
use crate::explain::manifest::{
    Annotations, ApprovalExplain, FunctionExplain, ManifestExplain, ManifestToolExplain,
    RunsExplain,
};
use crate::views::compare::list_change;

pub(super) fn diff(old: &ManifestExplain, new: &ManifestExplain) -> Vec<Change> {
    let mut changes = Vec::new();
    if old.plugin.version != new.plugin.version {
        changes.push(Change {
            subject: Subject::document(),
            impact: Impact::Neutral,
            detail: Detail::Version(FromTo {
                from: old.plugin.version.clone(),
                to: new.plugin.version.clone(),
            }),
        });
    }
    if old.egress != new.egress {
        changes.push(Change {
            subject: Subject::document(),
            impact: if new.egress { Impact::Widens } else { Impact::Narrows },
            detail: Detail::Egress(FromTo { from: old.egress, to: new.egress }),
        });
    }
    for (id, before, after) in keyed(&old.tools, &new.tools, |t| t.id.as_deref()) {
        let subject = Subject::of(Section::Tool, id);
        match (before, after) {
            (None, Some(tool)) => {
                changes.push(Change {
                    subject,
                    impact: Impact::Widens,
                    detail: Detail::ManifestToolAdded { runs: runs(&tool.runs) },
                });
            }
            (Some(tool), None) => {
                changes.push(Change {
                    subject,
                    impact: Impact::Narrows,
                    detail: Detail::ManifestToolRemoved { runs: runs(&tool.runs) },
                });
            }
            (Some(before), Some(after)) => tool_changes(&subject, before, after, &mut changes),
            (None, None) => {}
        }
    }
    plugin_changes(old, new, &mut changes);
    changes
}

fn strs(values: &[String]) -> Vec<&str> {
    values.iter().map(String::as_str).collect()
}

/// How a tool runs, in a few words.
fn runs(runs: &RunsExplain) -> String {
    match runs {
        RunsExplain::Command { command } => format!("command {}", command.join(" ")),
        RunsExplain::Package { spec, .. } => format!("package {spec}"),
        RunsExplain::Remote { url, .. } => format!("remote server {url}"),
        RunsExplain::Flow { flow, .. } => format!("flow {flow}"),
        RunsExplain::Unknown => "nothing says how".to_owned(),
    }
}

fn connection(runs: &RunsExplain) -> Option<String> {
    match runs {
        RunsExplain::Remote { connection, .. } => connection.clone(),
        _ => None,
    }
}

/// The approval policy apart from `requires_approval`, which is compared
/// function by function.
fn same_policy(a: &ApprovalExplain, b: &ApprovalExplain) -> bool {
    a.deciders == b.deciders
        && a.deadline == b.deadline
        && a.escalation == b.escalation
        && a.edit == b.edit
        && a.confirm == b.confirm
        && a.four_eyes == b.four_eyes
}

fn tool_changes(
    subject: &Subject,
    before: &ManifestToolExplain,
    after: &ManifestToolExplain,
    changes: &mut Vec<Change>,
) {
    let mut push =
        |impact, detail| changes.push(Change { subject: subject.clone(), impact, detail });
    let (runs_before, runs_after) = (runs(&before.runs), runs(&after.runs));
    if runs_before != runs_after {
        push(Impact::Neutral, Detail::Runs(FromTo { from: runs_before, to: runs_after }));
    }
    let (connection_before, connection_after) = (connection(&before.runs), connection(&after.runs));
    if connection_before != connection_after {
        push(
            Impact::Neutral,
            Detail::ToolConnection(FromTo { from: connection_before, to: connection_after }),
        );
    }
    let placement = |tool: &ManifestToolExplain| {
        tool.placement
            .as_ref()
            .map(|p| (p.isolation.clone(), p.sandbox.clone()))
            .unwrap_or_default()
    };
    let ((isolation_before, sandbox_before), (isolation_after, sandbox_after)) =
        (placement(before), placement(after));
    if isolation_before != isolation_after {
        // Isolation confines a server: gaining it narrows, losing it widens.
        let impact = match (&isolation_before, &isolation_after) {
            (None, Some(_)) => Impact::Narrows,
            (Some(_), None) => Impact::Widens,
            _ => Impact::Neutral,
        };
        push(impact, Detail::Isolation(FromTo { from: isolation_before, to: isolation_after }));
    }
    if sandbox_before != sandbox_after {
        // `sandbox` set takes a server out of its plugin sandbox.
        let impact = match (&sandbox_before, &sandbox_after) {
            (None, Some(_)) => Impact::Widens,
            (Some(_), None) => Impact::Narrows,
            _ => Impact::Neutral,
        };
        push(impact, Detail::Sandbox(FromTo { from: sandbox_before, to: sandbox_after }));
    }
    if let Some(change) = list_change(
        Some(&strs(&before.approval.always_asks)),
        Some(&strs(&after.approval.always_asks)),
    ) {
        for function in change.added {
            push(Impact::Narrows, Detail::AlwaysAsksAdded { function });
        }
        for function in change.removed {
            push(Impact::Widens, Detail::AlwaysAsksRemoved { function });
        }
    }
    if !same_policy(&before.approval, &after.approval) {
        push(
            Impact::Neutral,
            Detail::ApprovalPolicy(FromTo {
                from: before.approval.summary.clone(),
                to: after.approval.summary.clone(),
            }),
        );
    }
    for (function, old_annotations, new_annotations) in
        annotation_pairs(&before.functions, &after.functions)
    {
        for (hint, from, to) in [
            ("readOnlyHint", old_annotations.read_only_hint, new_annotations.read_only_hint),
            ("destructiveHint", old_annotations.destructive_hint, new_annotations.destructive_hint),
            ("openWorldHint", old_annotations.open_world_hint, new_annotations.open_world_hint),
        ] {
            if from == to {
                continue;
            }
            // A read-only hint narrows; a destructive or open-world one widens.
            let widening_value = hint != "readOnlyHint";
            let impact = match (from == Some(true), to == Some(true)) {
                (false, true) if widening_value => Impact::Widens,
                (false, true) => Impact::Narrows,
                (true, false) if widening_value => Impact::Narrows,
                (true, false) => Impact::Widens,
                _ => Impact::Neutral,
            };
            push(
                impact,
                Detail::Annotation {
                    function: function.to_owned(),
                    hint,
                    values: FromTo { from, to },
                },
            );
        }
    }
    if let Some(change) = list_change(Some(&strs(&before.env)), Some(&strs(&after.env))) {
        change.added.into_iter().for_each(|name| push(Impact::Neutral, Detail::EnvAdded { name }));
        change
            .removed
            .into_iter()
            .for_each(|name| push(Impact::Neutral, Detail::EnvRemoved { name }));
    }
    let headers = |tool: &ManifestToolExplain| {
        tool.headers.iter().map(|h| h.name.clone()).collect::<Vec<_>>()
    };
    if let Some(change) = list_change(Some(&strs(&headers(before))), Some(&strs(&headers(after)))) {
        change
            .added
            .into_iter()
            .for_each(|name| push(Impact::Neutral, Detail::HeaderAdded { name }));
        change
            .removed
            .into_iter()
            .for_each(|name| push(Impact::Neutral, Detail::HeaderRemoved { name }));
    }
}

/// Each function in either version with its annotation overrides; a
/// function only one version lists overrides nothing in the other.
fn annotation_pairs<'f>(
    before: &'f [FunctionExplain],
    after: &'f [FunctionExplain],
) -> Vec<(&'f str, Annotations, Annotations)> {
    keyed(before, after, |f| Some(f.name.as_str()))
        .into_iter()
        .map(|(name, old, new)| {
            let annotations =
                |f: Option<&FunctionExplain>| f.map(|f| f.annotations.clone()).unwrap_or_default();
            (name, annotations(old), annotations(new))
        })
        .collect()
}

fn plugin_changes(old: &ManifestExplain, new: &ManifestExplain, changes: &mut Vec<Change>) {
    for (name, before, after) in keyed(&old.connections, &new.connections, |c| c.name.as_deref()) {
        let subject = Subject::of(Section::Connection, name);
        match (before, after) {
            (None, Some(c)) => changes.push(Change {
                subject,
                impact: Impact::Widens,
                detail: Detail::ManifestConnectionAdded { tools: c.tools.clone() },
            }),
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Narrows,
                detail: Detail::ManifestConnectionRemoved,
            }),
            (Some(before), Some(after)) => {
                if let Some(change) =
                    list_change(Some(&strs(&before.tools)), Some(&strs(&after.tools)))
                {
                    if !change.added.is_empty() {
                        let detail = Detail::ToolNamesAdded { tool_names: change.added };
                        changes.push(Change {
                            subject: subject.clone(),
                            impact: Impact::Widens,
                            detail,
                        });
                    }
                    if !change.removed.is_empty() {
                        let detail = Detail::ToolNamesRemoved { tool_names: change.removed };
                        changes.push(Change { subject, impact: Impact::Narrows, detail });
                    }
                }
            }
            (None, None) => {}
        }
    }
    for (name, before, after) in keyed(&old.secrets, &new.secrets, |s| Some(s.name.as_str())) {
        let subject = Subject::of(Section::Secret, name);
        match (before, after) {
            (None, Some(s)) => changes.push(Change {
                subject,
                impact: Impact::Widens,
                detail: Detail::SecretAdded { purpose: None, required: Some(s.required) },
            }),
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Narrows,
                detail: Detail::SecretRemoved,
            }),
            _ => {}
        }
    }
    for (name, before, after) in keyed(&old.flows, &new.flows, |f| f.name.as_deref()) {
        let subject = Subject::of(Section::Flow, name);
        match (before, after) {
            (None, Some(_)) => {
                changes.push(Change { subject, impact: Impact::Neutral, detail: Detail::FlowAdded })
            }
            (Some(_), None) => changes.push(Change {
                subject,
                impact: Impact::Neutral,
                detail: Detail::FlowRemoved,
            }),
            _ => {}
        }
    }
}
