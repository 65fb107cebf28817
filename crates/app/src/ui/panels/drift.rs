//! The Tools panel's registry column: each embedded tool's drift from the
//! registry the reader loaded (`ui/registry.rs`), from the check's DR
//! findings.

use super::selection::{of_pointer, Target};
use crate::checker::{Located, Report};
use leptos::prelude::*;
use std::collections::HashMap;

/// The registry findings (DR rules) of a check, by the embedded tool they
/// are about.
pub fn drift_by_tool(report: &Report) -> HashMap<String, Vec<&Located>> {
    let mut by_tool: HashMap<String, Vec<&Located>> = HashMap::new();
    for located in report.located.iter().filter(|l| l.diagnostic.code.starts_with("DR")) {
        if let Some(Target::Tool(name)) = of_pointer(report, &located.diagnostic.pointer) {
            by_tool.entry(name).or_default().push(located);
        }
    }
    by_tool
}

/// A tool's drift from the registry, one badge per finding: the rule's name
/// in words, its message as the tooltip; "matches" when there is none.
#[component]
pub fn DriftCell(findings: Vec<Located>) -> impl IntoView {
    if findings.is_empty() {
        return view! { <span class="drift-badge agrees">"matches the registry"</span> }.into_any();
    }
    let badges = findings
        .into_iter()
        .map(|l| {
            let d = l.diagnostic;
            let words = match d.name {
                "registry-tool-missing" => "missing from the registry".to_owned(),
                name => name.replace('-', " "),
            };
            view! {
                <span class="drift-badge" data-code=d.code data-severity=d.severity.as_str() title=format!("{} {}: {}", d.code, d.name, d.message)>
                    {words}
                </span>
            }
        })
        .collect_view();
    view! { <span class="drift-badges">{badges}</span> }.into_any()
}

/// The line above the Tools table: which registry the tools are compared
/// with, and how many findings.
#[component]
pub fn RegistryNote(name: String, warnings: usize, infos: usize) -> impl IntoView {
    let counts = match (warnings, infos) {
        (0, 0) => "every embedded tool matches it".to_owned(),
        (w, i) => format!(
            "{w} warning{}, {i} info{}",
            if w == 1 { "" } else { "s" },
            if i == 1 { "" } else { "s" }
        ),
    };
    view! {
        <p class="registry-note" data-testid="registry-note">
            "Compared with the registry " <strong>{name}</strong> ": " {counts} "."
        </p>
    }
}
