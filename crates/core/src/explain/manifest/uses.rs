//! The plugin's flows, connections, secrets and skills, each with what
//! uses it. Each "used by" list comes from one pass over the tools, so the
//! view stays linear in the manifest's size.

use super::{text, ManifestToolExplain};
use crate::views::manifest::{ManifestView, Runs};
use foldhash::{HashMap, HashMapExt};
use opb_syntax::Node;
use serde::Serialize;

/// One of the plugin's flows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlowExplain {
    /// `name`, when it is a string.
    pub name: Option<String>,
    /// RFC 6901 pointer to the entry.
    pub pointer: String,
    /// `description`: what a flow tool exposing it says it does.
    pub description: Option<String>,
    /// Whether `input_schema` is an object (a flow tool needs one).
    pub input_schema: bool,
    /// Whether `output_schema` is an object.
    pub output_schema: bool,
    /// Flow tools that expose it.
    pub exposed_by: Vec<String>,
    /// The `tool` of each step, as written.
    pub step_tools: Vec<String>,
}

/// One of the plugin's `connections`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestConnectionExplain {
    /// `name`, when it is a string.
    pub name: Option<String>,
    /// RFC 6901 pointer to the entry.
    pub pointer: String,
    /// Its `tools`, as written.
    pub tools: Vec<String>,
    /// The names of its `params` (a remote tool's `{params.<name>}` host
    /// comes from one).
    pub params: Vec<String>,
    /// Whether it has `steps`, which record such a host when it is connected.
    pub has_steps: bool,
    /// Remote tools whose `connection` it is.
    pub used_by: Vec<String>,
}

/// A secret the plugin takes: a name, never a value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestSecretExplain {
    /// The secret's name.
    pub name: String,
    /// RFC 6901 pointer to the entry.
    pub pointer: String,
    /// `requires.secrets` (true) or `optional_secrets` (false).
    pub required: bool,
    /// The headers whose `${NAME}` takes it.
    pub used_by: Vec<SecretUse>,
}

/// A header of a tool that takes a secret.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SecretUse {
    /// The tool's id (`tools/<index>` for one without).
    pub tool: String,
    /// The header's name.
    pub header: String,
}

/// One of the plugin's skills.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillExplain {
    /// The skill's name.
    pub name: String,
    /// Tools whose `manual` lists it.
    pub manual_of: Vec<String>,
}

/// The flows, connections, secrets and skills of a manifest.
pub(super) struct Uses {
    pub flows: Vec<FlowExplain>,
    pub connections: Vec<ManifestConnectionExplain>,
    pub secrets: Vec<ManifestSecretExplain>,
    pub skills: Vec<SkillExplain>,
}

/// The flows, connections, secrets and skills of `view`, each with the
/// tools (explained as `tools`) that use it.
pub(super) fn of(view: &ManifestView<'_>, tools: &[ManifestToolExplain]) -> Uses {
    let mut exposing: HashMap<&str, Vec<String>> = HashMap::new();
    let mut connected: HashMap<&str, Vec<String>> = HashMap::new();
    let mut manual_of: HashMap<&str, Vec<String>> = HashMap::new();
    let mut secret_uses: HashMap<String, Vec<SecretUse>> = HashMap::new();
    for (tool, explained) in view.tools.iter().zip(tools) {
        let label = tool.id.map_or_else(|| format!("tools/{}", tool.index), str::to_owned);
        if let Runs::Flow(flow) = tool.runs {
            exposing.entry(flow).or_default().push(label.clone());
        }
        if let Some(connection) = tool.str("connection") {
            connected.entry(connection).or_default().push(label.clone());
        }
        for skill in tool
            .get("manual")
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
        {
            if let Some(skill) = view.own_reference(skill) {
                manual_of.entry(skill).or_default().push(label.clone());
            }
        }
        for header in &explained.headers {
            for secret in &header.secrets {
                secret_uses
                    .entry(secret.clone())
                    .or_default()
                    .push(SecretUse { tool: label.clone(), header: header.name.clone() });
            }
        }
    }
    let used = |map: &HashMap<&str, Vec<String>>, name: Option<&str>| {
        name.and_then(|n| map.get(n)).cloned().unwrap_or_default()
    };
    let flows = view
        .flows
        .iter()
        .map(|flow| FlowExplain {
            name: flow.name.map(str::to_owned),
            pointer: flow.ptr.as_str().to_owned(),
            description: text(flow.node.get("description")),
            input_schema: flow.node.get("input_schema").is_some_and(|s| s.as_object().is_some()),
            output_schema: flow.node.get("output_schema").is_some_and(|s| s.as_object().is_some()),
            exposed_by: used(&exposing, flow.name),
            step_tools: flow.step_tools.iter().map(|s| s.name.to_owned()).collect(),
        })
        .collect();
    let connections = view
        .connections
        .iter()
        .map(|connection| ManifestConnectionExplain {
            name: connection.name.map(str::to_owned),
            pointer: connection.ptr.as_str().to_owned(),
            tools: connection.tools.iter().map(|t| t.name.to_owned()).collect(),
            params: connection.params.iter().map(|p| p.name.to_owned()).collect(),
            has_steps: connection.has_steps,
            used_by: used(&connected, connection.name),
        })
        .collect();
    let secrets = view
        .secrets
        .iter()
        .map(|s| (s, true))
        .chain(view.optional_secrets.iter().map(|s| (s, false)))
        .map(|(secret, required)| ManifestSecretExplain {
            name: secret.name.to_owned(),
            pointer: secret.ptr.as_str().to_owned(),
            required,
            used_by: secret_uses.get(secret.name).cloned().unwrap_or_default(),
        })
        .collect();
    let skills = view
        .skills
        .iter()
        .map(|skill| SkillExplain {
            name: skill.name.to_owned(),
            manual_of: used(&manual_of, Some(skill.name)),
        })
        .collect();
    Uses { flows, connections, secrets, skills }
}
