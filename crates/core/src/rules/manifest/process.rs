//! PM5xx: the tool's process and sandbox (seed 003: `env`, `isolation`,
//! `sandbox`, `limits`, `timeout`). A flow tool sets none of these fields
//! (PM604), so its values are not checked here as well.

use super::shown;
use crate::diagnostics::prose::and_list;
use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::manifest::url::{is_loopback_host, HttpUrl};
use crate::views::manifest::values::{is_env_name, parse_go_duration, HOUR};
use crate::views::manifest::{ManifestToolView, ManifestView, Runs};
use crate::views::spec::one_of;
use opb_syntax::{Member, Node};

/// The seed's bounds: a call runs two hours at most; a local server's
/// limits are at least 16 MB, 8 processes and 0.01 CPU.
const MAX_TIMEOUT: i128 = 2 * HOUR;
const MIN_MEMORY_MB: f64 = 16.0;
const MIN_PIDS: f64 = 8.0;
const MIN_CPUS: f64 = 0.01;

pub(super) const ISOLATIONS: &[&str] = &["gvisor", "microvm"];
pub(super) const SANDBOXES: &[&str] = &["own", "host"];

/// Each `isolation`, in seed 003's words.
pub(super) fn isolation_meaning(isolation: &str) -> Option<&'static str> {
    Some(match isolation {
        "gvisor" => "Runs the tool's container, or its command's server, under gVisor's `runsc`, only on nodes labelled for it.",
        "microvm" => "Boots its image in a virtual machine of its own, experimental, only on nodes labelled `isolation.microvm=ready`.",
        _ => return None,
    })
}

/// Each `sandbox`, in seed 003's words.
pub(super) fn sandbox_meaning(sandbox: &str) -> Option<&'static str> {
    Some(match sandbox {
        "own" => "A tool that runs what it is given in a sandbox of its own; its server runs outside any sandbox as the node's user.",
        "host" => "A local tool that must see the node itself, its processes, mounts or services; it runs as the node's user.",
        _ => return None,
    })
}
const BASE_URL_NAMES: &[&str] = &["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"];

pub static PM501: Rule = Rule {
    code: "PM501",
    name: "env-name-invalid",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("An `env` key that is not an environment variable name (a letter or `_`, then letters, digits and `_`)."),
    source: documented!("\"Extra environment variables for the tool's process. Keys must be environment variable names\" (seed 003, `env`)."),
    fix: documented!("Rename the key with letters, digits and underscores: `user-agent` becomes `USER_AGENT`."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    env:\n      user-agent: acme"),
};

pub static PM502: Rule = Rule {
    code: "PM502",
    name: "env-name-forbidden",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("An `env` key the node refuses: the dynamic loader's (`LD_*`, `DYLD_*`, `GLIBC_TUNABLES`, `GCONV_PATH`), `PATH`, or the node's own (`OZ0_*`). Names are compared as written, since environment names are case-sensitive."),
    source: documented!("\"Keys must be environment variable names, and not the dynamic loader's (`LD_*`, `DYLD_*`, `GLIBC_TUNABLES`, `GCONV_PATH`), `PATH` or the node's own (`OZ0_*`), which lint refuses and a node leaves out.\" (seed 003, `env`)"),
    fix: documented!("Remove the variable: a node leaves it out anyway. Configure the server through its own options or a variable of its own name."),
    example: documented!("env:\n  LD_PRELOAD: /tmp/hook.so"),
};

pub static PM503: Rule = Rule {
    code: "PM503",
    name: "env-base-url-loopback",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`OPENAI_BASE_URL` or `ANTHROPIC_BASE_URL` names the loopback in any form a resolver accepts (`localhost` and names under it, `127.0.0.0/8` in any IPv4 spelling: `127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`; `[::1]`, `[::ffff:127.0.0.1]`, `0.0.0.0`, `[::]`), with or without a scheme."),
    source: documented!("\"`OPENAI_BASE_URL` and `ANTHROPIC_BASE_URL` may name a provider's public URL, never the node's loopback.\" (seed 003, `env`)"),
    fix: documented!("Name the provider's public URL (`https://api.openai.com/v1`), or declare `uses_model` to call a model through the node's gateway."),
    example: documented!("env:\n  OPENAI_BASE_URL: http://127.0.0.1:8080/v1"),
};

pub static PM504: Rule = Rule {
    code: "PM504",
    name: "env-oci-multiline",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("An `oci:` tool's `env` value with a line break under a name its container runtime reads on the host: `DOCKER_*`, `CONTAINERS_*`, `REGISTRY_AUTH_FILE`, `HOME`, `TMPDIR` and `XDG_*` (the seed's four families, and what Docker and Podman read alike)."),
    source: documented!("\"An `oci:` tool's variables reach its container by a file; a value with a line break cannot, so under a name its container runtime reads on the host (`DOCKER_HOST`, `CONTAINERS_*`, `HOME`, `XDG_*` and the like) it is refused.\" (seed 003, `env`)"),
    fix: documented!("Put the value on one line, or pass it as a file the image reads."),
    example: documented!("tools:\n  - id: acme_box\n    package: oci:ghcr.io/acme/box@sha256:…\n    env:\n      HOME: \"/data\\n/other\""),
};

pub static PM505: Rule = Rule {
    code: "PM505",
    name: "isolation-invalid",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`isolation` is not `gvisor` or `microvm`; or `gvisor` on a remote tool or with `sandbox` set; or `microvm` on a tool that is not an `oci:` image."),
    source: documented!("\"For a command tool …, `gvisor` runs its server under the node's own rootless runsc …; not with `sandbox:` set, and not for a remote tool\" and \"`microvm` boots its image in a virtual machine of its own\" (seed 003, `isolation`)."),
    fix: documented!("Use `isolation: gvisor` on a local or `oci:` tool without `sandbox`, or `isolation: microvm` on an `oci:` image; a remote tool runs elsewhere and takes no isolation."),
    example: documented!("tools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    isolation: gvisor"),
};

pub static PM506: Rule = Rule {
    code: "PM506",
    name: "microvm-env-forbidden",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("A `microvm` tool's `env` key, or a secret of its plugin, named `PATH`, `HOME`, `TMPDIR`, a proxy's variable (any name ending `_PROXY`, any case: `HTTP_PROXY`, `FTP_PROXY`, `NO_PROXY`…), `LD_*`, `DYLD_*`, `SMOLVM_*` or `OZ0_VMENV_*`. An env key PM502 already refuses is left to it."),
    source: documented!("\"A `microvm` tool's `env` and its plugin's secrets cannot be named `PATH`, `HOME`, `TMPDIR`, a proxy's variable, or `LD_*`, `DYLD_*`, `SMOLVM_*` or `OZ0_VMENV_*`.\" (seed 003, `isolation`)"),
    fix: documented!("Rename the variable or secret (`HOME` to `ACME_HOME`); the VM sets these itself."),
    example: documented!("requires:\n  secrets: [HTTPS_PROXY]\ntools:\n  - id: acme_box\n    package: oci:ghcr.io/acme/box@sha256:…\n    isolation: microvm"),
};

pub static PM507: Rule = Rule {
    code: "PM507",
    name: "sandbox-invalid",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`sandbox` other than `own` or `host`."),
    source: documented!("\"`own` for a tool that runs what it is given in a sandbox of its own\" and \"`host` for a local tool that must see the node itself\" (seed 003, `sandbox`)."),
    fix: documented!("Write `sandbox: own` or `sandbox: host`, or leave `sandbox` out to run in the plugin sandbox."),
    example: documented!("tools:\n  - id: acme_runner\n    mcp: [node, runner.js]\n    sandbox: none"),
};

pub static PM508: Rule = Rule {
    code: "PM508",
    name: "sandbox-set",
    severity: Severity::Warning,
    group: Group::ManifestProcess,
    summary: documented!("`sandbox` is set (`own` or `host`): on a node with sandbox tier 1 the tool does not start until the node's operator exempts its plugin."),
    source: documented!("\"`plugin lint` warns. On a node with sandbox tier 1, where `--plugin-sandbox strict` is the default, such a tool does not start until the node's operator exempts its plugin (`oz0-node run --plugin-sandbox-exempt <plugin>`) … a line of a manifest never takes a tool out of the sandbox by itself.\" (seed 003, `sandbox`)"),
    fix: documented!("Keep it only when the tool truly needs it, and tell the node's operators to exempt the plugin."),
    example: documented!("tools:\n  - id: acme_health\n    mcp: [node, health.js]\n    sandbox: host"),
};

pub static PM509: Rule = Rule {
    code: "PM509",
    name: "sandbox-own-holds-something",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`sandbox: own` on a tool whose plugin holds something (`requires.secrets`, `optional_secrets`, `egress`, a connection that lists the tool), or on a tool that does not run its own `mcp` command (a `package`, a remote or a flow tool). The message lists every reason."),
    source: documented!("\"Only a plugin that holds nothing may say so: no `requires.secrets`, no `optional_secrets`, no connection that covers the tool, no `egress`, and its own `mcp` command; lint and installs refuse it otherwise\" (seed 003, `sandbox`)."),
    fix: documented!("Move the tool into a plugin of its own that holds no secrets, connections or egress, and run it with its own `mcp` command."),
    example: documented!("requires:\n  secrets: [GITHUB_TOKEN]\ntools:\n  - id: acme_runner\n    mcp: [node, runner.js]\n    sandbox: own"),
};

pub static PM510: Rule = Rule {
    code: "PM510",
    name: "limits-not-local",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`limits` on a remote tool or an `oci:` image; their values are then not judged (PM511), since they apply to nothing. A `binary:` package is not run yet (PM207), so its `limits` are let be."),
    source: documented!("\"`plugin lint` refuses it on a remote or OCI tool (an OCI tool has `container`)\" (seed 003, `limits`)."),
    fix: documented!("Remove `limits`; an `oci:` image's limits are its `container`, and a remote server's are its host's."),
    example: documented!("tools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    limits: {memory_mb: 512}"),
};

pub static PM511: Rule = Rule {
    code: "PM511",
    name: "limits-range",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`limits.memory_mb` under 16 or not whole, `limits.pids` under 8 or not whole, or `limits.cpus` under 0.01."),
    source: documented!("\"what its server may use of a node in its plugin sandbox, `memory_mb` (at least 16), `pids` (processes and threads, at least 8) and `cpus` (0.01 or more)\" (seed 003, `limits`)."),
    fix: documented!("Raise the limit to at least the minimum, or leave it out for the default (1024 MiB, 256 processes, one CPU)."),
    example: documented!("limits: {memory_mb: 8}"),
};

pub static PM512: Rule = Rule {
    code: "PM512",
    name: "limits-with-sandbox",
    severity: Severity::Warning,
    group: Group::ManifestProcess,
    summary: documented!("`limits` with `sandbox: host` or `sandbox: own`, where they do not apply."),
    source: documented!("\"… and warns that it does not apply with `sandbox: host` or `own`\" (seed 003, `limits`)."),
    fix: documented!("Remove `limits`: the tool's server runs outside the plugin sandbox that they limit."),
    example: documented!("tools:\n  - id: acme_health\n    mcp: [node, health.js]\n    sandbox: host\n    limits: {memory_mb: 256}"),
};

pub static PM513: Rule = Rule {
    code: "PM513",
    name: "timeout-range",
    severity: Severity::Error,
    group: Group::ManifestProcess,
    summary: documented!("`timeout` is not a Go duration (`90s`, `35m`, `1h30m`), is not more than zero, or is over 2h. A bare number has no unit and is refused."),
    source: documented!("\"How long one call of the tool may run, such as `35m`: five minutes unless set, two hours at most. A call that runs longer fails.\" (seed 003, `timeout`); durations are Go-style (DOCUMENTS.md §2)."),
    fix: documented!("Write a duration up to `2h`, such as `35m`, or leave `timeout` out for five minutes."),
    example: documented!("timeout: 3h"),
};

pub static RULES: &[&Rule] = &[
    &PM501, &PM502, &PM503, &PM504, &PM505, &PM506, &PM507, &PM508, &PM509, &PM510, &PM511, &PM512,
    &PM513,
];

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    let mut microvm_tools = Vec::new();
    for tool in view.tools.iter().filter(|t| !t.is_flow()) {
        let microvm = tool.str("isolation") == Some("microvm");
        if microvm {
            microvm_tools.push(tool.label());
        }
        check_env(tool, microvm, report);
        check_isolation(tool, report);
        check_sandbox(view, tool, report);
        check_limits(tool, report);
        if let Some(timeout) = tool.get("timeout") {
            check_timeout(tool, timeout, report);
        }
    }
    if microvm_tools.is_empty() {
        return;
    }
    for secret in view.all_secrets() {
        if let Some(why) = microvm_forbidden(secret.name) {
            report.push(
                &PM506,
                &secret.ptr,
                At::Value(secret.node),
                format!(
                    "Secret `{}` is {why}, a name a microVM sets itself, and {} runs in a microVM.",
                    secret.name,
                    microvm_tools.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
}

fn check_env(tool: &ManifestToolView<'_>, microvm: bool, report: &mut Report) {
    let Some(env) = tool.get("env").and_then(Node::as_object) else { return };
    let ptr = tool.ptr.key("env");
    let label = tool.label();
    for member in env.unique_members() {
        let name = member.key.as_str();
        let member_ptr = ptr.key(name);
        if !is_env_name(name) {
            report.push(
                &PM501,
                &member_ptr,
                At::Key(member),
                format!("`{name}` in `env` of {label} is not an environment variable name (a letter or `_`, then letters, digits and `_`)."),
            );
            continue;
        }
        if let Some(why) = loader_or_node_name(name) {
            report.push(
                &PM502,
                &member_ptr,
                At::Key(member),
                format!("`{name}` in `env` of {label} is {why}; lint refuses it and a node leaves it out."),
            );
            continue;
        }
        if microvm {
            if let Some(why) = microvm_forbidden(name) {
                report.push(
                    &PM506,
                    &member_ptr,
                    At::Key(member),
                    format!("`{name}` in `env` of {label} is {why}, a name a microVM sets itself."),
                );
            }
        }
        check_env_value(tool, member, &member_ptr, report);
    }
}

fn check_env_value(
    tool: &ManifestToolView<'_>,
    member: &Member,
    ptr: &opb_syntax::Ptr,
    report: &mut Report,
) {
    let Some(value) = member.value.scalar_text() else { return };
    let name = member.key.as_str();
    if BASE_URL_NAMES.contains(&name) && names_loopback(&value) {
        report.push(
            &PM503,
            ptr,
            At::Value(&member.value),
            format!("`{name}` of {} names the node's loopback (`{value}`); it may name a provider's public URL only.", tool.label()),
        );
    }
    if tool.is_oci() && value.contains(['\n', '\r']) && runtime_reads(name) {
        report.push(
            &PM504,
            ptr,
            At::Value(&member.value),
            format!("`{name}` of {} has a line break; an `oci:` tool's variables reach its container by a file, and the container runtime reads `{name}` on the host.", tool.label()),
        );
    }
}

/// Whether a base URL (with or without a scheme) points at the loopback.
fn names_loopback(value: &str) -> bool {
    let value = value.trim();
    match HttpUrl::parse(value) {
        Ok(url) => url.is_loopback(),
        Err(_) => {
            let authority = value.split(['/', '?', '#']).next().unwrap_or_default();
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            let host = if host.starts_with('[') {
                host.split_once(']').map_or(host, |(v6, _)| &host[..v6.len() + 1])
            } else {
                host.split(':').next().unwrap_or(host)
            };
            is_loopback_host(host)
        }
    }
}

/// Why the node refuses an env name everywhere, if it does.
fn loader_or_node_name(name: &str) -> Option<&'static str> {
    if name.starts_with("LD_")
        || name.starts_with("DYLD_")
        || name == "GLIBC_TUNABLES"
        || name == "GCONV_PATH"
    {
        Some("read by the dynamic loader")
    } else if name == "PATH" {
        Some("`PATH`, which the node sets")
    } else if name.starts_with("OZ0_") {
        Some("the node's own (`OZ0_*`)")
    } else {
        None
    }
}

/// Why a microVM refuses a name, if it does.
fn microvm_forbidden(name: &str) -> Option<&'static str> {
    let upper = name.to_ascii_uppercase();
    if upper.ends_with("_PROXY") {
        return Some("a proxy's variable");
    }
    match name {
        "PATH" | "HOME" | "TMPDIR" => Some("one of `PATH`, `HOME` and `TMPDIR`"),
        _ if ["LD_", "DYLD_"].iter().any(|p| name.starts_with(p)) => {
            Some("read by the dynamic loader")
        }
        _ if name.starts_with("SMOLVM_") => Some("the microVM runner's (`SMOLVM_*`)"),
        _ if name.starts_with("OZ0_VMENV_") => Some("the VM environment's own (`OZ0_VMENV_*`)"),
        _ => None,
    }
}

/// Names a container runtime reads on the host.
fn runtime_reads(name: &str) -> bool {
    ["DOCKER_", "CONTAINERS_", "XDG_"].iter().any(|p| name.starts_with(p))
        || matches!(name, "HOME" | "TMPDIR" | "REGISTRY_AUTH_FILE")
}

fn check_isolation(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(node) = tool.get("isolation") else { return };
    let Some(isolation) = node.as_str() else { return };
    let label = tool.label();
    let problem = match isolation {
        "gvisor" if tool.is_remote() => {
            Some(format!("{label} is remote: gVisor isolates a server the node runs"))
        }
        "gvisor" if tool.get("sandbox").is_some() => {
            Some(format!("{label} sets `sandbox`, and gVisor is not used with `sandbox`"))
        }
        "microvm" if !tool.is_oci() => {
            Some(format!("a microVM boots an `oci:` image, and {label} is not one"))
        }
        "gvisor" | "microvm" => None,
        other => Some(format!("`{other}` is not an isolation; it is {}", one_of(ISOLATIONS))),
    };
    if let Some(problem) = problem {
        report.push(
            &PM505,
            &tool.ptr.key("isolation"),
            At::Value(node),
            format!("`isolation: {isolation}`: {problem}."),
        );
    }
}

fn check_sandbox(view: &ManifestView<'_>, tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(node) = tool.get("sandbox") else { return };
    let Some(sandbox) = node.as_str() else { return };
    let ptr = tool.ptr.key("sandbox");
    let label = tool.label();
    if !SANDBOXES.contains(&sandbox) {
        report.push(
            &PM507,
            &ptr,
            At::Value(node),
            format!("`sandbox` of {label} is `{sandbox}`; it is {}.", one_of(SANDBOXES)),
        );
        return;
    }
    let outside = if sandbox == "own" {
        "starts sandboxes of its own and runs outside the plugin sandbox"
    } else {
        "runs as the node's user, outside the plugin sandbox"
    };
    report.push(
        &PM508,
        &ptr,
        At::Value(node),
        format!("{} {outside}: on a node with sandbox tier 1 it does not start until the node's operator exempts the plugin (`--plugin-sandbox-exempt`).", capitalise(label)),
    );
    if sandbox != "own" {
        return;
    }
    let plugin_holds: Vec<&str> = [
        (!view.secrets.is_empty(), "`requires.secrets`"),
        (!view.optional_secrets.is_empty(), "`optional_secrets`"),
        (view.egress.is_some(), "`egress`"),
    ]
    .into_iter()
    .filter_map(|(holds, what)| holds.then_some(what))
    .collect();
    let mut holds = Vec::new();
    if !plugin_holds.is_empty() {
        holds.push(format!("the plugin has {}", and_list(&plugin_holds)));
    }
    if let Some(id) = tool.id {
        let covering: Vec<String> = view
            .connections_covering(id)
            .filter_map(|c| c.name)
            .map(|n| format!("`{n}`"))
            .collect();
        if !covering.is_empty() {
            holds.push(format!("connection {} covers the tool", covering.join(", ")));
        }
    }
    let own_command = matches!(tool.runs, Runs::Command) && tool.get("package").is_none();
    if !own_command {
        holds.push("the tool does not run its own `mcp` command".to_owned());
    }
    if !holds.is_empty() {
        report.push(
            &PM509,
            &ptr,
            At::Value(node),
            format!(
                "`sandbox: own` is for a tool of a plugin that holds nothing, but {}.",
                holds.join("; ")
            ),
        );
    }
}

fn check_limits(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("limits").filter(|m| !m.value.is_null()) else { return };
    let ptr = tool.ptr.key("limits");
    let label = tool.label();
    if tool.is_remote() || tool.is_oci() {
        let instead = if tool.is_oci() {
            "an `oci:` image's limits are its `container`"
        } else {
            "a remote server runs on its own host"
        };
        report.push(
            &PM510,
            &ptr,
            At::Key(member),
            format!("`limits` are for a local tool, and {label} is not one: {instead}."),
        );
        return;
    }
    if let Some(sandbox) = tool.sandbox().filter(|s| SANDBOXES.contains(s)) {
        report.push(
            &PM512,
            &ptr,
            At::Key(member),
            format!("`limits` of {label} do not apply with `sandbox: {sandbox}`: they limit the plugin sandbox, which the tool runs outside."),
        );
    }
    let Some(limits) = member.value.as_object() else { return };
    for (key, minimum, whole) in
        [("memory_mb", MIN_MEMORY_MB, true), ("pids", MIN_PIDS, true), ("cpus", MIN_CPUS, false)]
    {
        let Some(value) = limits.get(key) else { continue };
        let Some(n) = value.as_f64() else { continue };
        let ok = n.is_finite() && n >= minimum && (!whole || n.fract() == 0.0);
        if !ok {
            let expected = if whole {
                format!("a whole number of at least {minimum}")
            } else {
                format!("{minimum} or more")
            };
            report.push(
                &PM511,
                &ptr.key(key),
                At::Value(value),
                format!("`limits.{key}` of {label} is {}; it is {expected}.", shown(value)),
            );
        }
    }
}

fn check_timeout(tool: &ManifestToolView<'_>, timeout: &Node, report: &mut Report) {
    let problem = match timeout.as_str() {
        None => format!(
            "must be a duration such as `35m`, not {}; a number has no unit",
            shown(timeout)
        ),
        Some(text) => match parse_go_duration(text) {
            Err(error) => format!("is `{text}`, which is not a duration: {error}"),
            Ok(nanos) if nanos <= 0 => format!("is `{text}`; a call needs more than no time"),
            Ok(nanos) if nanos > MAX_TIMEOUT => {
                format!("is `{text}`, longer than 2h, the longest a call may run")
            }
            Ok(_) => return,
        },
    };
    report.push(
        &PM513,
        &tool.ptr.key("timeout"),
        At::Value(timeout),
        format!("`timeout` of {} {problem}.", tool.label()),
    );
}
