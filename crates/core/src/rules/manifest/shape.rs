//! The shape of a manifest: IN004 for a value of the wrong type and IN007
//! for a field opb does not know, at every level the seed and DOCUMENTS.md
//! §2 describe. Fields whose type a PM rule names in its own words (`mcp`,
//! `timeout`, `container` limits, `approval.edit`, …) are typed `Any` here
//! and checked there, so one value gets one finding. An `env` or `headers`
//! value may be a number or a boolean: it is read as its text (`PORT: 8080`),
//! as a YAML reader that fills a map of strings reads it.

use super::approvals::{role_meaning, ROLES};
use super::process::{isolation_meaning, sandbox_meaning, ISOLATIONS, SANDBOXES};
use super::remote::{affinity_meaning, AFFINITIES};
use super::runs::RUNS;
use crate::diagnostics::{At, Report};
use crate::rules::input::IN004;
use crate::rules::playbook::SCHEMA_KEY;
use crate::rules::{check_fields, expect, expect_objects, Field, Holds, Ty};
use crate::views::objects;
use opb_syntax::{Node, Ptr, Value};
use std::fmt::Display;

pub(crate) const TOP: &[Field] = &[
    Field::new("$schema", Ty::String).doc(SCHEMA_KEY),
    Field::new("name", Ty::String).doc("plugin name, e.g. `acme-github`"),
    Field::new("version", Ty::Any),
    Field::new("description", Ty::String),
    Field::new("tools", Ty::Array).holds(Holds::Items(TOOL)).combinations(RUNS).doc("list of tool declarations (the seed)"),
    Field::new("skills", Ty::Array).doc("list of names, or of objects with `name`"),
    Field::new("flows", Ty::Array).holds(Holds::Items(FLOW)).doc("list of objects with `name`, `description`, `input_schema`, `output_schema`, optional `steps` (each may name a `tool` as `<id>.<function>`)"),
    Field::new("connections", Ty::Array).holds(Holds::Items(CONNECTION)).doc("list of objects with `name`, `tools` (tool ids or `<tool>.<function>` / `<tool>.*`), optional `params` (names) and `steps`"),
    Field::new("requires", Ty::Object).holds(Holds::Object(REQUIRES)).doc("object with `secrets` (list of names)"),
    Field::new("optional_secrets", Ty::Array).doc("list of names"),
    Field::new("egress", Ty::Any).doc("anything non-empty means the plugin reaches out"),
    Field::new("agents", Ty::Any),
    Field::new("policy", Ty::Any),
];

const REQUIRES: &[Field] = &[Field::new("secrets", Ty::Array), Field::new("inject", Ty::Any)];

const FLOW: &[Field] = &[
    Field::new("name", Ty::String),
    Field::new("description", Ty::String),
    Field::new("input_schema", Ty::Object),
    Field::new("output_schema", Ty::Object),
    Field::new("steps", Ty::Array),
];

const CONNECTION: &[Field] = &[
    Field::new("name", Ty::String),
    Field::new("tools", Ty::StringArray),
    Field::new("params", Ty::Array),
    Field::new("steps", Ty::Any),
];

pub(super) const TOOL: &[Field] = &[
    Field::new("id", Ty::String).required().doc("Lowercase letters, digits, dashes and underscores, unique in the plugin and in the tenant, and never `__`, which separates a tool from its function in the names models see (`<tool>__<function>`)."),
    Field::new("mcp", Ty::Any).doc("The command that starts the MCP server over stdio. Without `package`, it runs in the plugin's own environment, and `python` means that environment's Python. With `package`, it runs in the package's environment."),
    Field::new("package", Ty::String).doc("An existing MCP server: `pypi:<name>[==<version>]`, `npm:<name>[@<version>]`, `oci:<registry>/<repository>@sha256:<digest>` or `binary:<url>`. Unpinned PyPI and npm packages are a warning; the edge pins them at install time. An npm range or tag (`@^1.2`, `@latest`) is an error: name one version, or none. Every PyPI and npm package is also pinned by the hashes of its files, with every package it depends on, which nodes check when they install it ([pinning and hashes](https://docs.oz0.ai/build/plugins/packages#pinning-and-hashes)). An `oci:` image must name its digest, and runs on nodes with Docker or Podman ([container images](https://docs.oz0.ai/build/plugins/container-images)). `binary:` is not run yet."),
    Field::new("container", Ty::Object).holds(Holds::Object(CONTAINER)).doc("For an `oci:` tool only: `memory_mb` (default 512), `cpus` (default 1) and `pids` (default 256), the container's limits."),
    Field::new("isolation", Ty::String).one_of(ISOLATIONS, isolation_meaning).doc("For an `oci:` tool: `gvisor` runs its container under gVisor's `runsc`, only on nodes labelled `isolation.gvisor=ready`, and never without it; the plugin's agents that call it require that label ([Sandbox tier 2](https://docs.oz0.ai/fleet/sandbox-tier-2))."),
    Field::new("url", Ty::String).doc("A remote MCP server over Streamable HTTP. `http://` is a warning; use `https://`."),
    Field::new("connection", Ty::String).doc("A remote tool's (`url`) connection, one of this plugin's `connections` that lists the tool: each call carries the token the edge mints for it in its own session's `Authorization` header, never in `_meta`, and the server is listed with a token of it."),
    Field::new("functions", Ty::Object).holds(Holds::Map(FUNCTION)).doc("Overrides of a remote tool's functions, by the name its server lists each under (at most 256): `annotations` (`readOnlyHint`, `destructiveHint`, `openWorldHint`; they set what the server does not say and tighten what it says, and loosen only in an `ai.oz0` listing of OZ's own index), `output_schema` (an object schema of at most 64 KB, which the node validates structured results against and cards are drawn from), `usage` (`service`, `unit`, `units`, `cost_usd`: what each successful call spends) and `ai_label` (a JSON pointer such as `/body` to the string argument the tenant's AI label goes at the start of)."),
    Field::new("headers", Ty::Object).holds(Holds::Scalars).doc("Headers a remote tool (`url`) sends with every request, such as `Authorization: \"Bearer ${SEARCH_TOKEN}\"`. Each `${NAME}` is a secret in `requires.secrets`, filled in on the node. A header that carries a credential must take it from a secret; at most 16 headers. Under a [credential binding](https://docs.oz0.ai/admin/credential-injection#remote-tools) of that secret the node sends its placeholder, and its credential proxy puts the value on, on the bound host only. See [headers of a remote server](https://docs.oz0.ai/build/parts/tools#headers-of-a-remote-server)."),
    Field::new("affinity", Ty::String).one_of(AFFINITIES, affinity_meaning).doc("`node` (default): runs on the job's home node. `any`: runs on any node that has the plugin."),
    Field::new("requires_approval", Ty::StringArray).doc("This tool's functions that a person must decide every time, as `<id>.<function>` (or `<plugin>/<id>.<function>` with this plugin's own name): every call to one waits for a decision ([Approvals](https://docs.oz0.ai/agents/approvals)), whatever the tenant's tool policy says short of refusing it, and the install screen shows it as \"Ask, set by the plugin\", with no switch."),
    Field::new("manual", Ty::StringArray).doc("Skills of this plugin that say how to use the tool's functions well, by name or as `<plugin>/<skill>` with this plugin's own name: each one of the plugin's skills, listed once, at most 8. Another plugin's skill is refused (\"a tool's manual is its own plugin's skills\"). An agent granted any of the tool's functions gets them ([A tool's manual](https://docs.oz0.ai/build/parts/skills#a-tools-manual))."),
    Field::new("approval", Ty::Object).holds(Holds::Object(APPROVAL)).doc("How this tool's calls are approved, when a person decides them: under `requires_approval`, the plugin's [`policy`](https://docs.oz0.ai/reference/plugin-manifest/sets-policy#policy), or the tenant's own rules ([Approvals](https://docs.oz0.ai/agents/approvals))."),
    Field::new("env", Ty::Object).holds(Holds::Scalars).doc("Extra environment variables for the tool's process. Keys must be environment variable names, and not the dynamic loader's (`LD_*`, `DYLD_*`, `GLIBC_TUNABLES`, `GCONV_PATH`), `PATH` or the node's own (`OZ0_*`), which lint refuses and a node leaves out. `OPENAI_BASE_URL` and `ANTHROPIC_BASE_URL` may name a provider's public URL, never the node's loopback. An `oci:` tool's variables reach its container by a file; a value with a line break cannot, so under a name its container runtime reads on the host (`DOCKER_HOST`, `CONTAINERS_*`, `HOME`, `XDG_*` and the like) it is refused."),
    Field::new("timeout", Ty::Any).doc("How long one call of the tool may run, such as `35m`: five minutes unless set, two hours at most. A call that runs longer fails."),
    Field::new("sandbox", Ty::String).one_of(SANDBOXES, sandbox_meaning).doc("`own` for a tool that runs what it is given in a [sandbox](https://docs.oz0.ai/concepts/security/sandbox-tiers#sandboxes) of its own, as pr-reviewer's `run_tests` runs a pull request's tests. In a job an outside event started, whose tools run in a sandbox of the job's, such a tool's calls run in the plugin's own server on the job's tier-1 home node instead, since a sandbox cannot start another."),
    Field::new("secret_arguments", Ty::Object).doc("The arguments of the tool's functions a model may write a `{{secret:NAME}}` placeholder into, by function, as JSON pointers (`run: [/env/API_KEY]`), at most 16 per function. A tenant admin binds a secret to one (`oz0 tenant credential bind <tenant> NAME --function <id>.<function> --argument <pointer>`); the node fills the value in inside the call and scrubs it from the result ([Credential injection](https://docs.oz0.ai/admin/credential-injection#secrets-in-a-models-arguments))."),
    Field::new("flow", Ty::String).doc("A flow tool: the name of one of this plugin's flows, which the tool exposes as its one function, `<id>.<flow>`. An agent that lists the function decides whether to call it; its flow runs as a child job, each step through its own gates."),
    Field::new("limits", Ty::Object).holds(Holds::Object(LIMITS)).doc("For a local tool (`mcp`, or a PyPI or npm `package`): what its server may use of a node in its plugin sandbox, `memory_mb` (at least 16), `pids` (processes and threads, at least 8) and `cpus` (0.01 or more)."),
    Field::new("labels", Ty::Object).holds(Holds::Object(LABELS)).doc("What the tool's results are labelled when they say nothing in their `_meta` ([taint and labels](https://docs.oz0.ai/govern/taint-and-labels)): `source`, the system its results come from (an unlabelled result then gets the tenant's default level, never the lowest), and `untrusted: true` for a tool whose results hold outside text although it stays inside the tenant, such as a mailbox. A result may say more in `_meta` under `oz0/labels` ([building tools](https://docs.oz0.ai/build/parts/tools/policy#labels))."),
    Field::new("results", Ty::Object).holds(Holds::Object(RESULTS)),
    Field::new("uses_model", Ty::Object).holds(Holds::Object(USES_MODEL)),
];

const CONTAINER: &[Field] =
    &[Field::new("memory_mb", Ty::Any), Field::new("cpus", Ty::Any), Field::new("pids", Ty::Any)];

const LIMITS: &[Field] = &[
    Field::new("memory_mb", Ty::Number),
    Field::new("pids", Ty::Number),
    Field::new("cpus", Ty::Number),
];

const FUNCTION: &[Field] = &[
    Field::new("annotations", Ty::Object),
    Field::new("output_schema", Ty::Any),
    Field::new("usage", Ty::Object).holds(Holds::Object(USAGE)),
    Field::new("ai_label", Ty::Any),
];

const USAGE: &[Field] = &[
    Field::new("service", Ty::String),
    Field::new("unit", Ty::String),
    Field::new("units", Ty::Number),
    Field::new("cost_usd", Ty::Number),
];

const APPROVAL: &[Field] = &[
    Field::new("deadline", Ty::Any),
    Field::new("escalation", Ty::Any),
    Field::new("escalation_reason", Ty::String),
    Field::new("edit", Ty::Any),
    Field::new("confirm", Ty::Any),
    Field::new("deciders", Ty::Object).holds(Holds::Object(DECIDERS)).doc("Who may decide the approvals of this tool's calls: `role` (`operator`, the default, or `admin`), `teams` (teams of the tenant, by name, at most 16) and `people` (accounts, as `user:<name>`, at most 32) and `keys` (the tenant's API keys that may decide, by key ID, at most 8: a tenant's own plugin's integration; no other key decides an approval). A decider holds at least the role and, when teams or people are named, is one of the people or in one of the teams. The edge enforces it on every decision ([Who decides](https://docs.oz0.ai/agents/approvals/configure#who-decides))."),
    Field::new("not_starter", Ty::Any).doc("`true` refuses the job's starter as the one who approves (four eyes); they may still deny."),
];

const ESCALATION_STEP: &[Field] = &[Field::new("at", Ty::Any), Field::new("to", Ty::Any)];

const DECIDERS: &[Field] = &[
    Field::new("role", Ty::String).one_of(ROLES, role_meaning),
    Field::new("teams", Ty::StringArray),
    Field::new("people", Ty::StringArray),
    Field::new("keys", Ty::StringArray),
];

const LABELS: &[Field] = &[Field::new("source", Ty::Any), Field::new("untrusted", Ty::Any)];

const RESULTS: &[Field] = &[Field::new("fit", Ty::Bool).doc("`true` declares that the tool's functions whose input schema has an integer `budget` property beside a `view` of the views `stub`, `summary`, `section` and `full` follow the convention of [results that fit a budget](https://docs.oz0.ai/build/parts/tools/results-and-files#results-that-fit-a-budget): they take `view`, `budget` and `query`, and answer with the biggest view that fits and a fit note under `oz0/fit`.")];

const USES_MODEL: &[Field] = &[Field::new("purpose", Ty::String).doc("The tool's functions and hooks call a model, and why, in 1 to 200 characters. Each call then brings a key for the node's gateway path made for the call's job, in its MCP request's `_meta` under `oz0/model`; the model call is metered, budgeted and under the tenant's data rules like any model call of the job. An install needs the tenant's grant (`plugin install --accept-model`). Not on a remote or a flow tool ([Calling a model from a hook or a tool](https://docs.oz0.ai/build/parts/hooks#calling-a-model-from-a-hook-or-a-tool-uses_model)).")];

pub(super) fn check(root: &Node, report: &mut Report) {
    let top = Ptr::root();
    check_fields(report, root, &top, TOP, "the manifest");
    if let Some(requires) = root.get("requires") {
        check_fields(report, requires, &top.key("requires"), REQUIRES, "`requires`");
        name_list(
            report,
            requires.get("secrets"),
            &top.key("requires").key("secrets"),
            "`requires.secrets`",
        );
    }
    name_list(report, root.get("skills"), &top.key("skills"), "`skills`");
    name_list(
        report,
        root.get("optional_secrets"),
        &top.key("optional_secrets"),
        "`optional_secrets`",
    );
    for (ptr, flow) in items(report, root.get("flows"), &top.key("flows"), "Each flow") {
        check_fields(report, flow, &ptr, FLOW, &Label { kind: "flow", node: flow, ptr: &ptr });
        for (step_ptr, step) in
            items(report, flow.get("steps"), &ptr.key("steps"), "Each step of a flow")
        {
            if let Some(tool) = step.get("tool").filter(|t| !t.is_null()) {
                expect(report, tool, &step_ptr.key("tool"), Ty::String, "A flow step's `tool`");
            }
        }
    }
    for (ptr, connection) in
        items(report, root.get("connections"), &top.key("connections"), "Each connection")
    {
        let what = Label { kind: "connection", node: connection, ptr: &ptr };
        check_fields(report, connection, &ptr, CONNECTION, &what);
        name_list(
            report,
            connection.get("params"),
            &ptr.key("params"),
            &format_args!("`params` of {what}"),
        );
    }
    for (ptr, tool) in items(report, root.get("tools"), &top.key("tools"), "Each tool") {
        check_tool(report, tool, &ptr);
    }
}

fn check_tool(report: &mut Report, tool: &Node, ptr: &Ptr) {
    let what = Label { kind: "tool", node: tool, ptr };
    check_fields(report, tool, ptr, TOOL, &what);
    let nested: [(&str, &[Field]); 6] = [
        ("container", CONTAINER),
        ("limits", LIMITS),
        ("labels", LABELS),
        ("results", RESULTS),
        ("uses_model", USES_MODEL),
        ("approval", APPROVAL),
    ];
    for (key, fields) in nested {
        if let Some(node) = tool.get(key) {
            check_fields(report, node, &ptr.key(key), fields, &format_args!("`{key}` of {what}"));
        }
    }
    for key in ["env", "headers"] {
        if let Some(map) = tool.get(key).and_then(Node::as_object) {
            for member in map.unique_members() {
                if matches!(member.value.value, Value::Array(_) | Value::Object(_)) {
                    report.push(
                        &IN004,
                        &ptr.key(key).key(&member.key),
                        At::Value(&member.value),
                        format!(
                            "`{key}.{}` of {what} must be a string, not {}.",
                            member.key,
                            member.value.type_name()
                        ),
                    );
                }
            }
        }
    }
    if let Some(functions) = tool.get("functions").and_then(Node::as_object) {
        for member in functions.unique_members() {
            let function_ptr = ptr.key("functions").key(&member.key);
            let function = FunctionLabel { name: &member.key, tool: &what };
            if member.value.is_null()
                || !expect(
                    report,
                    &member.value,
                    &function_ptr,
                    Ty::Object,
                    &format_args!("The overrides of {function}"),
                )
            {
                continue;
            }
            check_fields(report, &member.value, &function_ptr, FUNCTION, &function);
            if let Some(usage) = member.value.get("usage") {
                check_fields(
                    report,
                    usage,
                    &function_ptr.key("usage"),
                    USAGE,
                    &format_args!("`usage` of {function}"),
                );
            }
        }
    }
    if let Some(approval) = tool.get("approval") {
        let approval_ptr = ptr.key("approval");
        if let Some(deciders) = approval.get("deciders") {
            check_fields(
                report,
                deciders,
                &approval_ptr.key("deciders"),
                DECIDERS,
                &format_args!("`approval.deciders` of {what}"),
            );
        }
        if let Some(escalation) = approval.get("escalation") {
            let escalation_ptr = approval_ptr.key("escalation");
            if matches!(escalation.value, Value::Number(_) | Value::Object(_)) {
                report.push(
                    &IN004,
                    &escalation_ptr,
                    At::Value(escalation),
                    format!(
                        "`approval.escalation` of {what} must be `off` or a list of steps, not {}.",
                        escalation.type_name()
                    ),
                );
            }
            for (step_ptr, step) in
                items(report, Some(escalation), &escalation_ptr, "Each escalation step")
            {
                check_fields(
                    report,
                    step,
                    &step_ptr,
                    ESCALATION_STEP,
                    &format_args!("an escalation step of {what}"),
                );
            }
        }
    }
}

/// The object items of a list, with IN004 for each item that is not an
/// object. `each` starts the message ("Each tool").
fn items<'n>(
    report: &mut Report,
    list: Option<&'n Node>,
    ptr: &Ptr,
    each: &str,
) -> impl Iterator<Item = (Ptr, &'n Node)> {
    expect_objects(report, list, ptr, each, None);
    objects(list, ptr).map(|(_, ptr, item)| (ptr, item))
}

/// A list of names: each entry a string, or an object with a string `name`.
fn name_list(report: &mut Report, list: Option<&Node>, ptr: &Ptr, what: &(impl Display + ?Sized)) {
    let Some(items) = list.and_then(Node::as_array) else { return };
    for (i, item) in items.iter().enumerate() {
        let item_ptr = ptr.index(i);
        match &item.value {
            Value::String(_) => {}
            Value::Object(object) => match object.get("name") {
                Some(name) if name.as_str().is_some() => {}
                Some(name) => {
                    expect(report, name, &item_ptr.key("name"), Ty::String, &format_args!("The `name` of entry {i} of {what}"));
                }
                None => report.push(
                    &IN004,
                    &item_ptr,
                    At::Missing(item),
                    format!("Entry {i} of {what} is an object without `name`; write the name, or `{{name: …}}`."),
                ),
            },
            _ => report.push(
                &IN004,
                &item_ptr,
                At::Value(item),
                format!("Each entry of {what} must be a name (a string) or an object with `name`; entry {i} is {}.", item.type_name()),
            ),
        }
    }
}

/// How messages name a flow, connection or tool: "tool `triage`" by its
/// name (a tool's `id`), else by its place. Written only into a message.
struct Label<'n> {
    kind: &'static str,
    node: &'n Node,
    ptr: &'n Ptr,
}

impl Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.node.get("id").or_else(|| self.node.get("name")).and_then(Node::as_str) {
            Some(name) if !name.is_empty() => write!(f, "{} `{name}`", self.kind),
            _ => write!(f, "{} at `{}`", self.kind, self.ptr),
        }
    }
}

/// "function `search` of tool `acme`".
struct FunctionLabel<'n> {
    name: &'n str,
    tool: &'n Label<'n>,
}

impl Display for FunctionLabel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function `{}` of {}", self.name, self.tool)
    }
}
