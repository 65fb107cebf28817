//! One manifest tool as the explain view shows it: how it runs, where,
//! within which limits, the headers it sends and the functions the
//! manifest says something about.

use super::{approval, strings, text, ApprovalExplain, Defaulted, DurationValue};
use crate::diagnostics::Counts;
use crate::views::manifest::package::{Ecosystem, Package};
use crate::views::manifest::url::HttpUrl;
use crate::views::manifest::values::secret_references;
use crate::views::manifest::{ManifestToolView, ManifestView, Runs};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::{Node, Object};
use serde::Serialize;

/// "five minutes unless set" (seed 003, `timeout`).
const DEFAULT_TIMEOUT: &str = "5m";
/// An `oci:` tool's container: "`memory_mb` (default 512), `cpus` (default
/// 1) and `pids` (default 256)" (seed 003, `container`).
const CONTAINER_DEFAULTS: Resources = Resources { memory_mb: 512.0, cpus: 1.0, pids: 256.0 };
/// A local server in its plugin sandbox: "Unset, a server gets 1024 MiB,
/// 256 and one CPU" (seed 003, `limits`).
const SANDBOX_DEFAULTS: Resources = Resources { memory_mb: 1024.0, cpus: 1.0, pids: 256.0 };

struct Resources {
    memory_mb: f64,
    cpus: f64,
    pids: f64,
}

/// One manifest tool: how it runs, where, within which limits and how its
/// calls are approved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestToolExplain {
    /// `id`, when it is a string: its functions are `<id>.<function>`.
    pub id: Option<String>,
    /// Index in `tools`.
    pub index: usize,
    /// RFC 6901 pointer to the entry.
    pub pointer: String,
    /// How it runs: its own command, a package, a remote server or a flow.
    pub runs: RunsExplain,
    /// Where it runs; a flow tool's flow runs on its plugin's pool.
    pub placement: Option<Placement>,
    /// What its server may use: a container's limits, or the plugin
    /// sandbox's; none for a remote, flow or `binary:` tool.
    pub resources: Option<ResourcesExplain>,
    /// How long one call may run; none for a flow tool.
    pub timeout: Option<Defaulted<DurationValue>>,
    /// How its calls are approved, the seed's defaults filled in.
    pub approval: ApprovalExplain,
    /// Names of its extra environment variables (values are not shown).
    pub env: Vec<String>,
    /// The `headers` a remote tool sends, with the secrets each takes.
    pub headers: Vec<HeaderExplain>,
    /// The functions the manifest says something about: overrides in
    /// `functions`, those `requires_approval` or `secret_arguments` name, and
    /// a flow tool's one function.
    pub functions: Vec<FunctionExplain>,
    /// Skills of the plugin that say how to use it.
    pub manual: Vec<String>,
    /// `uses_model.purpose`: why its functions call a model.
    pub uses_model: Option<String>,
    /// `labels`, when it is an object: how its results are labelled.
    pub labels: Option<LabelsExplain>,
    /// `results.fit: true`.
    pub results_fit: bool,
    /// The diagnostics that point into this tool.
    pub counts: Counts,
}

/// How a tool runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "how", rename_all = "kebab-case")]
pub enum RunsExplain {
    /// `mcp` alone: its own code, in the plugin's environment.
    Command {
        /// `mcp`: the command and its arguments.
        command: Vec<String>,
    },
    /// A PyPI, npm, OCI or binary package.
    Package {
        /// `package` as written.
        spec: String,
        /// The ecosystem, when the spec reads.
        ecosystem: Option<Ecosystem>,
        /// What follows the scheme, up to the version, when the spec reads
        /// (a binary's URL).
        name: Option<String>,
        /// What follows `==` (PyPI), the last `@` (npm) or `@` (an image's
        /// digest); none when the spec gives none or does not read.
        version: Option<String>,
        /// One exact version (for an image, its digest).
        pinned: bool,
        /// `mcp` naming the command to run in the package's environment.
        command: Vec<String>,
    },
    /// A remote MCP server over Streamable HTTP.
    Remote {
        /// `url` as written.
        url: String,
        /// Whether the URL reads and is `https`.
        secure: bool,
        /// `connection`: the plugin connection whose token each call
        /// carries.
        connection: Option<String>,
        /// The connection param a `{params.<name>}` host comes from.
        host_param: Option<String>,
    },
    /// One of the plugin's flows, exposed as the tool's one function.
    Flow {
        /// `flow`: the flow's name.
        flow: String,
        /// The function it exposes, `<id>.<flow>`.
        function: String,
        /// Whether the plugin has a flow of that name.
        found: bool,
    },
    /// Nothing says how it runs.
    Unknown,
}

/// Where a tool's server runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placement {
    /// `isolation` as written (`gvisor`, `microvm`).
    pub isolation: Option<String>,
    /// `sandbox` as written (`own`, `host`): the server runs outside its
    /// plugin's sandbox.
    pub sandbox: Option<String>,
    /// `node` (default): the job's home node; `any`: any node with the plugin.
    pub affinity: Defaulted<String>,
    /// The node label it needs (`isolation.gvisor=ready`, …).
    pub node_label: Option<String>,
    /// An `oci:` image runs on nodes with Docker or Podman (a microVM needs none).
    pub needs_container_runtime: bool,
    /// `sandbox` set: on a tier-1 node it waits for the operator's exemption.
    pub needs_exemption: bool,
}

/// What a tool's server may use of a node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResourcesExplain {
    /// `container` (an `oci:` image) or `limits` (a local server).
    pub field: &'static str,
    /// Memory, in MiB.
    pub memory_mb: Defaulted<f64>,
    /// CPUs; a fraction of one is allowed.
    pub cpus: Defaulted<f64>,
    /// Processes and threads.
    pub pids: Defaulted<f64>,
    /// False with `sandbox: host` or `own`, where `limits` do not apply.
    pub applies: bool,
}

/// A header a remote tool sends with every request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeaderExplain {
    /// The header's name.
    pub name: String,
    /// The `${NAME}` secrets its value takes (the value is not shown).
    pub secrets: Vec<String>,
}

/// A function of a tool that the manifest says something about.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionExplain {
    /// The function's name, as `<id>.<function>` would end.
    pub name: String,
    /// Its annotation overrides.
    pub annotations: Annotations,
    /// Whether it has an object `output_schema` (a flow tool's function, its
    /// flow's), which the node validates structured results against.
    pub output_schema: bool,
    /// `usage`: what each successful call spends.
    pub usage: Option<UsageExplain>,
    /// `ai_label`: a JSON pointer to the string argument the tenant's AI
    /// label goes at the start of.
    pub ai_label: Option<String>,
    /// Named in `requires_approval`.
    pub always_asks: bool,
    /// `secret_arguments` pointers of this function.
    pub secret_arguments: Vec<String>,
}

/// Annotation overrides; `None` where the manifest leaves the server's word.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// `readOnlyHint`: the function changes nothing.
    pub read_only_hint: Option<bool>,
    /// `destructiveHint`: it may delete or overwrite.
    pub destructive_hint: Option<bool>,
    /// `openWorldHint`: it reaches systems outside the tenant.
    pub open_world_hint: Option<bool>,
}

/// What each successful call of a function spends (`usage`), as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UsageExplain {
    /// The service it is spent on.
    pub service: Option<String>,
    /// The unit `units` counts in.
    pub unit: Option<String>,
    /// How many units a call spends.
    pub units: Option<f64>,
    /// What a call costs, in US dollars.
    pub cost_usd: Option<f64>,
}

/// How a tool's results are labelled when they say nothing in their
/// `_meta` (`labels`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelsExplain {
    /// `source`: the system its results come from.
    pub source: Option<String>,
    /// `untrusted: true`: its results hold outside text (a mailbox, say).
    pub untrusted: bool,
}

/// The explain view of one tool.
pub(super) fn explain(
    view: &ManifestView<'_>,
    tool: &ManifestToolView<'_>,
    counts: Counts,
) -> ManifestToolExplain {
    let runs = runs_explain(view, tool);
    let is_flow = tool.is_flow();
    ManifestToolExplain {
        id: tool.id.map(str::to_owned),
        index: tool.index,
        placement: (!is_flow).then(|| placement(tool)),
        resources: resources(tool),
        timeout: (!is_flow).then(|| match tool.get("timeout").and_then(Node::scalar_text) {
            Some(timeout) => Defaulted::set(DurationValue::of(&timeout)),
            None => Defaulted::default_value(DurationValue::of(DEFAULT_TIMEOUT)),
        }),
        approval: approval::explain(tool),
        env: tool
            .get("env")
            .and_then(Node::as_object)
            .map(|o| o.unique_members().map(|m| m.key.to_string()).collect())
            .unwrap_or_default(),
        headers: tool
            .get("headers")
            .and_then(Node::as_object)
            .map(|o| {
                o.unique_members()
                    .map(|m| HeaderExplain {
                        name: m.key.to_string(),
                        secrets: m
                            .value
                            .scalar_text()
                            .map(|v| secret_references(&v).into_iter().map(str::to_owned).collect())
                            .unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        functions: functions(view, tool),
        manual: strings(tool.get("manual")),
        uses_model: tool
            .get("uses_model")
            .and_then(|u| u.get("purpose"))
            .and_then(Node::as_str)
            .map(str::to_owned),
        labels: tool.get("labels").filter(|l| l.as_object().is_some()).map(|l| LabelsExplain {
            source: text(l.get("source")),
            untrusted: l.get("untrusted").and_then(Node::as_bool) == Some(true),
        }),
        results_fit: tool.get("results").and_then(|r| r.get("fit")).and_then(Node::as_bool)
            == Some(true),
        counts,
        pointer: tool.ptr.as_str().to_owned(),
        runs,
    }
}

fn runs_explain(view: &ManifestView<'_>, tool: &ManifestToolView<'_>) -> RunsExplain {
    let command = strings(tool.get("mcp"));
    match &tool.runs {
        Runs::Command => RunsExplain::Command { command },
        Runs::Package(parsed) => {
            let package = parsed.as_ref().ok();
            RunsExplain::Package {
                spec: tool.str("package").unwrap_or_default().to_owned(),
                ecosystem: package.map(|p| p.ecosystem),
                name: package.map(|p| p.name.to_owned()),
                version: package.and_then(|p| p.version).map(str::to_owned),
                pinned: package.is_some_and(Package::pinned),
                command,
            }
        }
        Runs::Remote(url) => RunsExplain::Remote {
            url: (*url).to_owned(),
            secure: HttpUrl::parse(url).is_ok_and(|u| u.secure),
            connection: tool.str("connection").map(str::to_owned),
            host_param: HttpUrl::parse(url).ok().and_then(|u| u.host_param()).map(str::to_owned),
        },
        Runs::Flow(flow) => RunsExplain::Flow {
            flow: (*flow).to_owned(),
            function: format!("{}.{flow}", tool.id.unwrap_or_default()),
            found: view.flow(flow).is_some(),
        },
        Runs::Unknown => RunsExplain::Unknown,
    }
}

fn placement(tool: &ManifestToolView<'_>) -> Placement {
    let isolation = tool.str("isolation");
    let sandbox = tool.sandbox();
    let node_label = match isolation {
        Some("gvisor") if tool.is_oci() => Some("isolation.gvisor=ready"),
        Some("gvisor") if !tool.is_remote() => Some("isolation.gvisor-sandbox=ready"),
        Some("microvm") => Some("isolation.microvm=ready"),
        _ => None,
    };
    Placement {
        isolation: isolation.map(str::to_owned),
        sandbox: sandbox.map(str::to_owned),
        affinity: match tool.str("affinity") {
            Some(affinity) => Defaulted::set(affinity.to_owned()),
            None => Defaulted::default_value("node".to_owned()),
        },
        node_label: node_label.map(str::to_owned),
        needs_container_runtime: tool.is_oci() && isolation != Some("microvm"),
        needs_exemption: sandbox.is_some(),
    }
}

fn resources(tool: &ManifestToolView<'_>) -> Option<ResourcesExplain> {
    let (field, defaults) = if tool.is_oci() {
        ("container", CONTAINER_DEFAULTS)
    } else if tool.is_local() {
        ("limits", SANDBOX_DEFAULTS)
    } else {
        return None;
    };
    let set = tool.get(field);
    let value = |key: &str, default: f64| match set.and_then(|s| s.get(key)).and_then(Node::as_f64)
    {
        Some(n) => Defaulted::set(n),
        None => Defaulted::default_value(default),
    };
    Some(ResourcesExplain {
        field,
        memory_mb: value("memory_mb", defaults.memory_mb),
        cpus: value("cpus", defaults.cpus),
        pids: value("pids", defaults.pids),
        applies: field == "container" || !matches!(tool.sandbox(), Some("host" | "own")),
    })
}

/// The functions the manifest says something about: overrides in
/// `functions`, and those named by `requires_approval` or
/// `secret_arguments`; a flow tool's one function.
fn functions(view: &ManifestView<'_>, tool: &ManifestToolView<'_>) -> Vec<FunctionExplain> {
    let mut names: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |name: &str| {
        if !name.is_empty() && seen.insert(name.to_owned()) {
            names.push(name.to_owned());
        }
    };
    // A flow tool's one function is its flow, whose result is the flow's.
    let flow_output_schema = match tool.runs {
        Runs::Flow(flow) => {
            add(flow);
            let has = view
                .flow(flow)
                .and_then(|f| f.node.get("output_schema"))
                .is_some_and(|s| s.as_object().is_some());
            Some((flow, has))
        }
        _ => None,
    };
    let overrides = tool.get("functions").and_then(Node::as_object);
    for member in overrides.iter().flat_map(|o| o.unique_members()) {
        add(&member.key);
    }
    let asked: Vec<String> = strings(tool.get("requires_approval"))
        .iter()
        .filter_map(|entry| view.own_reference(entry))
        .filter_map(|reference| reference.split_once('.'))
        .filter(|(id, _)| Some(*id) == tool.id)
        .map(|(_, function)| function.to_owned())
        .collect();
    for function in &asked {
        add(function);
    }
    let always_asks: HashSet<&str> = asked.iter().map(String::as_str).collect();
    let secret_arguments = tool.get("secret_arguments").and_then(Node::as_object);
    for member in secret_arguments.iter().flat_map(|o| o.unique_members()) {
        add(&member.key);
    }
    let override_of = by_key(overrides);
    let secret_arguments_of = by_key(secret_arguments);
    names
        .into_iter()
        .map(|name| {
            let over = override_of.get(name.as_str()).copied().filter(|f| f.as_object().is_some());
            let hint = |key: &str| {
                over.and_then(|f| f.get("annotations"))
                    .and_then(|a| a.get(key))
                    .and_then(Node::as_bool)
            };
            let usage = over.and_then(|f| f.get("usage")).filter(|u| u.as_object().is_some());
            FunctionExplain {
                annotations: Annotations {
                    read_only_hint: hint("readOnlyHint"),
                    destructive_hint: hint("destructiveHint"),
                    open_world_hint: hint("openWorldHint"),
                },
                output_schema: over
                    .and_then(|f| f.get("output_schema"))
                    .is_some_and(|s| s.as_object().is_some())
                    || flow_output_schema.is_some_and(|(flow, has)| flow == name && has),
                usage: usage.map(|u| UsageExplain {
                    service: text(u.get("service")),
                    unit: text(u.get("unit")),
                    units: u.get("units").and_then(Node::as_f64),
                    cost_usd: u.get("cost_usd").and_then(Node::as_f64),
                }),
                ai_label: text(over.and_then(|f| f.get("ai_label"))),
                always_asks: always_asks.contains(name.as_str()),
                secret_arguments: strings(secret_arguments_of.get(name.as_str()).copied()),
                name,
            }
        })
        .collect()
}

/// A map's values by key, the first of a repeated key winning, for lookups
/// in constant time.
fn by_key(object: Option<&Object>) -> HashMap<&str, &Node> {
    let mut values = HashMap::new();
    for member in object.iter().flat_map(|o| o.members.iter()) {
        values.entry(member.key.as_str()).or_insert(&member.value);
    }
    values
}
