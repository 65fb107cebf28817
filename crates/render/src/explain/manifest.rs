//! A plugin manifest explained: per tool what runs, where, within which
//! limits and who approves its calls (defaults marked), then the flows,
//! connections, secrets and skills with what uses them.

use super::{Page, Tone};
use crate::words::{list, problems};
use opb_core::explain::manifest::{
    Defaulted, FlowExplain, FunctionExplain, ManifestConnectionExplain, ManifestSecretExplain,
    ManifestToolExplain, Placement, ResourcesExplain, RunsExplain, SkillExplain,
};
use opb_core::explain::manifest::{Ecosystem, ManifestExplain};
use opb_core::prose::capitalise;

/// Width of the field labels of a tool.
const LABEL: usize = 12;

/// Writes `opb explain`'s account of a plugin manifest read from `name` on `page`.
pub fn render(name: &str, explain: &ManifestExplain, page: &mut dyn Page) {
    let plugin = &explain.plugin;
    let title = match (&plugin.name, &plugin.version) {
        (Some(plugin_name), Some(version)) => format!("{plugin_name} {version}"),
        (Some(plugin_name), None) => plugin_name.clone(),
        (None, _) => name.to_owned(),
    };
    page.styled_line(0, Tone::Emphasis, &title, "");
    let egress =
        if explain.egress { "declares egress: it reaches outside" } else { "declares no egress" };
    page.paragraph(
        0,
        &format!("An Orchestrator Zero plugin manifest, from {name}. The plugin {egress}."),
    );
    if let Some(description) = &plugin.description {
        page.paragraph(0, description);
    }
    page.blank();
    page.heading("Tools: what each one runs, where, and who approves its calls");
    if explain.tools.is_empty() {
        page.paragraph(2, "The manifest declares no tools.");
    }
    for tool in &explain.tools {
        page.blank();
        self::tool(tool, page);
    }
    section(page, "Flows", &explain.flows, flow);
    section(page, "Connections", &explain.connections, connection);
    section(page, "Secrets (names only, never values)", &explain.secrets, secret);
    section(page, "Skills", &explain.skills, skill);
}

/// A section that is left out when it has nothing to show.
fn section<T>(page: &mut dyn Page, title: &str, items: &[T], item: fn(&T, &mut dyn Page)) {
    if items.is_empty() {
        return;
    }
    page.blank();
    page.heading(title);
    for entry in items {
        item(entry, page);
    }
}

fn tool(tool: &ManifestToolExplain, page: &mut dyn Page) {
    let id = tool.id.clone().unwrap_or_else(|| format!("tool {} (no id)", tool.index + 1));
    page.styled_line(2, Tone::Emphasis, &id, "");
    page.field(4, "Runs", LABEL, &runs(&tool.runs));
    if let Some(placement) = &tool.placement {
        page.field(4, "Where", LABEL, &placement_text(placement));
    }
    if let Some(resources) = &tool.resources {
        page.field(4, "Resources", LABEL, &resources_text(resources));
    }
    if let Some(timeout) = &tool.timeout {
        page.field(
            4,
            "Timeout",
            LABEL,
            &format!("{} per call{}", timeout.value.text, defaulted(timeout)),
        );
    }
    page.field(4, "Approval", LABEL, &tool.approval.summary);
    if !tool.functions.is_empty() {
        let functions: Vec<String> = tool.functions.iter().map(function).collect();
        page.field(4, "Functions", LABEL, &functions.join("; "));
    }
    if !tool.env.is_empty() {
        page.field(4, "Environment", LABEL, &format!("{} (values not shown)", tool.env.join(", ")));
    }
    if !tool.headers.is_empty() {
        let headers: Vec<String> = tool
            .headers
            .iter()
            .map(|header| match header.secrets.as_slice() {
                [] => format!("{} (a literal value)", header.name),
                secrets => format!("{} (from secret {})", header.name, list(secrets)),
            })
            .collect();
        page.field(4, "Headers", LABEL, &headers.join(", "));
    }
    if !tool.manual.is_empty() {
        page.field(4, "Manual", LABEL, &list(&tool.manual));
    }
    if let Some(purpose) = &tool.uses_model {
        page.field(4, "Uses a model", LABEL, purpose);
    }
    if let Some(labels) = &tool.labels {
        let source = labels
            .source
            .as_deref()
            .map(|s| format!("source {s}"))
            .unwrap_or_else(|| "no source".to_owned());
        let trust = if labels.untrusted { "untrusted" } else { "trusted" };
        page.field(4, "Labels", LABEL, &format!("{source}, {trust}"));
    }
    if tool.results_fit {
        page.field(4, "Results", LABEL, "fitted to the model's context (results.fit)");
    }
    if let Some(problems) = problems(tool.counts) {
        page.field(4, "Problems", LABEL, &format!("{problems} into this tool (see `opb check`)."));
    }
}

fn runs(runs: &RunsExplain) -> String {
    match runs {
        RunsExplain::Command { command } => {
            format!("its own code, in the plugin's environment: {}", command.join(" "))
        }
        RunsExplain::Package { spec, ecosystem, name, version, pinned, command } => {
            let what = match ecosystem {
                Some(Ecosystem::Pypi) => "the PyPI package",
                Some(Ecosystem::Npm) => "the npm package",
                Some(Ecosystem::Oci) => "the container image",
                Some(Ecosystem::Binary) => "the binary",
                None => "the package",
            };
            let mut text = match (name, version) {
                (Some(name), Some(version)) => format!("{what} {name}, version {version}"),
                (Some(name), None) => format!("{what} {name}, no version"),
                _ => format!("{what} {spec}"),
            };
            text.push_str(if *pinned {
                " (pinned)"
            } else {
                " (not pinned: what runs may change)"
            });
            if !command.is_empty() {
                text.push_str(&format!(", command {}", command.join(" ")));
            }
            text
        }
        RunsExplain::Remote { url, secure, connection, host_param } => {
            let mut text = format!("a remote MCP server at {url}");
            if !secure {
                text.push_str(" (plain HTTP: not encrypted)");
            }
            if let Some(connection) = connection {
                text.push_str(&format!(", through connection {connection}"));
            }
            if let Some(param) = host_param {
                text.push_str(&format!(", its host from the connection's {param} param"));
            }
            text
        }
        RunsExplain::Flow { flow, function, found: true } => {
            format!("the plugin's flow {flow}, as function {function}")
        }
        RunsExplain::Flow { flow, found: false, .. } => {
            format!("flow {flow}, which the plugin does not define")
        }
        RunsExplain::Unknown => "not known: none of mcp, package, url or flow says".to_owned(),
    }
}

fn placement_text(placement: &Placement) -> String {
    let mut parts = vec![match placement.affinity.value.as_str() {
        "node" => format!("the job's home node{}", defaulted(&placement.affinity)),
        "any" => "any node that has the plugin".to_owned(),
        other => format!("affinity {other}, unknown"),
    }];
    if let Some(isolation) = &placement.isolation {
        parts.push(format!("isolated by {isolation}"));
    }
    if let Some(sandbox) = &placement.sandbox {
        parts.push(format!("sandbox {sandbox}"));
    }
    if let Some(label) = &placement.node_label {
        parts.push(format!("needs a node labelled {label}"));
    }
    if placement.needs_container_runtime {
        parts.push("needs Docker or Podman on the node".to_owned());
    }
    if placement.needs_exemption {
        parts.push("waits for an operator's exemption on a tier-1 node".to_owned());
    }
    parts.join("; ")
}

fn resources_text(resources: &ResourcesExplain) -> String {
    let cpus = if resources.cpus.value == 1.0 { "CPU" } else { "CPUs" };
    let text = format!(
        "{}: {} MiB memory{}, {} {cpus}{}, {} processes{}",
        if resources.field == "container" { "container" } else { "sandbox limits" },
        resources.memory_mb.value,
        defaulted(&resources.memory_mb),
        resources.cpus.value,
        defaulted(&resources.cpus),
        resources.pids.value,
        defaulted(&resources.pids),
    );
    if resources.applies {
        text
    } else {
        format!("{text}; they do not apply with this sandbox")
    }
}

fn function(function: &FunctionExplain) -> String {
    let mut notes = Vec::new();
    if function.always_asks {
        notes.push("a person approves every call".to_owned());
    }
    let hints = &function.annotations;
    for (hint, name) in [
        (hints.read_only_hint, "read-only"),
        (hints.destructive_hint, "destructive"),
        (hints.open_world_hint, "open-world"),
    ] {
        if let Some(value) = hint {
            notes.push(format!("{}{name}", if value { "" } else { "not " }));
        }
    }
    if !function.secret_arguments.is_empty() {
        notes.push(format!("secret arguments {}", list(&function.secret_arguments)));
    }
    if notes.is_empty() {
        function.name.clone()
    } else {
        format!("{} ({})", function.name, notes.join(", "))
    }
}

/// ` (default)` when the manifest leaves the value unset.
fn defaulted<T>(value: &Defaulted<T>) -> &'static str {
    if value.default {
        " (default)"
    } else {
        ""
    }
}

fn flow(flow: &FlowExplain, page: &mut dyn Page) {
    let name = flow.name.as_deref().unwrap_or("(no name)");
    let description = flow.description.as_deref().unwrap_or("no description");
    page.styled_line(2, Tone::Emphasis, name, &format!(": {description}"));
    let schemas = match (flow.input_schema, flow.output_schema) {
        (true, true) => "input and output schemas",
        (true, false) => "an input schema, no output schema",
        (false, true) => "an output schema, no input schema",
        (false, false) => "no schemas",
    };
    let exposed =
        if flow.exposed_by.is_empty() { "no tool".to_owned() } else { list(&flow.exposed_by) };
    page.paragraph(
        4,
        &format!(
            "Has {schemas}; exposed by {exposed}; its steps call {}.",
            steps_call(&flow.step_tools)
        ),
    );
}

fn steps_call(tools: &[String]) -> String {
    if tools.is_empty() {
        "no tool".to_owned()
    } else {
        list(tools)
    }
}

fn connection(connection: &ManifestConnectionExplain, page: &mut dyn Page) {
    let name = connection.name.as_deref().unwrap_or("(no name)");
    page.styled_line(2, Tone::Emphasis, name, &format!(": covers {}", list(&connection.tools)));
    let mut facts = vec![format!(
        "used by {}",
        if connection.used_by.is_empty() {
            "no tool".to_owned()
        } else {
            list(&connection.used_by)
        }
    )];
    if !connection.params.is_empty() {
        facts.push(format!("params {}", list(&connection.params)));
    }
    if connection.has_steps {
        facts.push("has steps".to_owned());
    }
    page.paragraph(4, &format!("{}.", capitalise(facts.join("; "))));
}

fn secret(secret: &ManifestSecretExplain, page: &mut dyn Page) {
    let required = if secret.required { "required" } else { "optional" };
    let used: Vec<String> =
        secret.used_by.iter().map(|u| format!("{} header of {}", u.header, u.tool)).collect();
    let used = if used.is_empty() {
        "no header takes it".to_owned()
    } else {
        format!("the {}", list(&used))
    };
    page.styled_line(2, Tone::Emphasis, &secret.name, &format!(" ({required}): {used}"));
}

fn skill(skill: &SkillExplain, page: &mut dyn Page) {
    let manual = if skill.manual_of.is_empty() {
        "no tool's manual".to_owned()
    } else {
        format!("the manual of {}", list(&skill.manual_of))
    };
    page.styled_line(2, Tone::Emphasis, &skill.name, &format!(": {manual}"));
}
