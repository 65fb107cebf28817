//! PM2xx: what runs a tool (seed 003: `mcp`, `package`, `url`, `flow`,
//! `container`).

use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::Combinations;
use crate::views::manifest::package::{
    Ecosystem, Package, PackageError, BINARY_FORM, NPM_FORM, OCI_FORM, PYPI_FORM,
};
use crate::views::manifest::{ManifestToolView, ManifestView};
use opb_syntax::{Member, Node, Value};

pub static PM201: Rule = Rule {
    code: "PM201",
    name: "kind-not-exactly-one",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("A tool that sets none of `mcp`, `package`, `url` and `flow`, more than one of `mcp`, `package` and `url` (a `package` may also set `mcp`), or a `flow` tool that sets any of them. The last of the clashing fields is underlined."),
    source: documented!("\"Set exactly one of `mcp` (your own code), `package` or `url`; `package` may also set `mcp` to name the command to run. A flow tool sets `flow` instead, and none of them.\" (seed 003, `tools[]`)"),
    fix: documented!("Keep the one field that says how the tool runs; move a second server into a tool of its own."),
    example: documented!("tools:\n  - id: acme_helper\n    mcp: [node, server.js]\n    url: https://helper.example.com/mcp"),
};

pub static PM202: Rule = Rule {
    code: "PM202",
    name: "mcp-not-command",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("`mcp` is not a non-empty list of non-empty strings (the command and its arguments)."),
    source: documented!("\"`mcp` string[]: The command that starts the MCP server over stdio.\" (seed 003, `mcp`)"),
    fix: documented!("Write the command as a list, one argument an entry: `mcp: [python, -m, acme.server]`, not `mcp: python -m acme.server`."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: python -m acme.server"),
};

pub static PM203: Rule = Rule {
    code: "PM203",
    name: "package-scheme",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("`package` is not `pypi:<name>[==<version>]`, `npm:<name>[@<version>]`, `oci:<registry>/<repository>@sha256:<digest>` or `binary:<url>`. A PyPI requirement other than `==<version>` (`>=1.0`, `~=1.2`, `==1.*`) is a range and is refused here too, as the seed refuses npm ranges; extras (`name[cli]`) are not part of the seed's form."),
    source: documented!("\"An existing MCP server: `pypi:<name>[==<version>]`, `npm:<name>[@<version>]`, `oci:<registry>/<repository>@sha256:<digest>` or `binary:<url>`.\" (seed 003, `package`)"),
    fix: documented!("Write the package with its scheme and name: `pypi:mcp-server-fetch==2025.4.7`, `npm:@acme/server@1.2.3`."),
    example: documented!("tools:\n  - id: acme_fetch\n    package: pip:mcp-server-fetch"),
};

pub static PM204: Rule = Rule {
    code: "PM204",
    name: "package-unpinned",
    severity: Severity::Warning,
    group: Group::ManifestRuns,
    summary: documented!("A `pypi:` or `npm:` package without a version."),
    source: documented!("\"Unpinned PyPI and npm packages are a warning; the edge pins them at install time.\" (seed 003, `package`)"),
    fix: documented!("Name the version you tested: `pypi:mcp-server-fetch==2025.4.7`, `npm:@acme/server@1.2.3`."),
    example: documented!("tools:\n  - id: acme_fetch\n    package: pypi:mcp-server-fetch"),
};

pub static PM205: Rule = Rule {
    code: "PM205",
    name: "package-npm-range",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("An npm package whose version is a range or tag (`@^1.2`, `@~1`, `@latest`, `@>=1`, `@1.x`, a partial `@1.2`) rather than one exact `MAJOR.MINOR.PATCH[-pre][+build]` version (npm's own `v1.2.3` counts as exact)."),
    source: documented!("\"An npm range or tag (`@^1.2`, `@latest`) is an error: name one version, or none.\" (seed 003, `package`)"),
    fix: documented!("Name one exact version (`npm:@acme/server@1.2.3`), or none and let the edge pin it."),
    example: documented!("tools:\n  - id: acme_fetch\n    package: npm:@acme/fetch@latest"),
};

pub static PM206: Rule = Rule {
    code: "PM206",
    name: "package-oci-digest",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("An `oci:` image without `@sha256:` and 64 lowercase hex digits (a tag such as `:latest` is not a digest)."),
    source: documented!("\"An `oci:` image must name its digest\" (seed 003, `package`)."),
    fix: documented!("Pin the image by digest: `docker buildx imagetools inspect <image>:<tag>` prints it; write `oci:ghcr.io/acme/scanner@sha256:<64 hex digits>`."),
    example: documented!("tools:\n  - id: acme_box\n    package: oci:ghcr.io/acme/box:latest"),
};

pub static PM207: Rule = Rule {
    code: "PM207",
    name: "package-binary",
    severity: Severity::Warning,
    group: Group::ManifestRuns,
    summary: documented!("A `binary:` package, which nodes do not run yet."),
    source: documented!("\"`binary:` is not run yet.\" (seed 003, `package`)"),
    fix: documented!("Ship the server as a PyPI or npm package, an OCI image, or the plugin's own `mcp` command."),
    example: documented!("tools:\n  - id: acme_tool\n    package: binary:https://example.com/acme-tool"),
};

pub static PM208: Rule = Rule {
    code: "PM208",
    name: "container-not-oci",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("`container` on a tool that is not an `oci:` package."),
    source: documented!("\"`container`: For an `oci:` tool only\" (seed 003, `container`)."),
    fix: documented!(
        "Remove `container`; a local tool's limits are its `limits` (`memory_mb`, `pids`, `cpus`)."
    ),
    example: documented!(
        "tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    container: {memory_mb: 512}"
    ),
};

pub static PM209: Rule = Rule {
    code: "PM209",
    name: "container-limits",
    severity: Severity::Error,
    group: Group::ManifestRuns,
    summary: documented!("`container.memory_mb`, `cpus` or `pids` is not a positive number (`memory_mb` and `pids` whole numbers)."),
    source: documented!("\"`memory_mb` (default 512), `cpus` (default 1) and `pids` (default 256), the container's limits\" (seed 003, `container`)."),
    fix: documented!("Write each limit as a positive number, or leave it out for the default: `container: {memory_mb: 1024, cpus: 2, pids: 256}`."),
    example: documented!("tools:\n  - id: acme_box\n    package: oci:ghcr.io/acme/box@sha256:…\n    container: {memory_mb: 0, cpus: two}"),
};

/// What may run a tool, as PM201 checks it: one of `mcp`, `package` and
/// `url`, or `package` with the `mcp` command it runs, or `flow` alone.
pub(super) const RUNS: Combinations = Combinations {
    fields: &["mcp", "package", "url", "flow"],
    allowed: &[&["mcp"], &["package"], &["package", "mcp"], &["url"], &["flow"]],
};

pub static RULES: &[&Rule] =
    &[&PM201, &PM202, &PM203, &PM204, &PM205, &PM206, &PM207, &PM208, &PM209];

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    for tool in &view.tools {
        check_kinds(tool, report);
        if let Some(mcp) = tool.get("mcp") {
            check_mcp(tool, mcp, report);
        }
        check_package(tool, report);
        check_container(tool, report);
    }
}

fn check_kinds(tool: &ManifestToolView<'_>, report: &mut Report) {
    let set: Vec<&Member> = ["mcp", "package", "url"]
        .into_iter()
        .filter_map(|key| tool.member(key))
        .filter(|m| !m.value.is_null())
        .collect();
    let names = |members: &[&Member]| {
        members.iter().map(|m| format!("`{}`", m.key)).collect::<Vec<_>>().join(" and ")
    };
    if tool.get("flow").is_some() {
        for member in &set {
            report.push(
                &PM201,
                &tool.ptr.key(&member.key),
                At::Key(member),
                format!("Flow {} sets `{}`; a flow tool sets `flow` and none of `mcp`, `package` or `url`.", tool.label(), member.key),
            );
        }
        return;
    }
    let clash = set.len() > 1 && set.iter().any(|m| m.key == "url");
    if set.is_empty() {
        report.push(
            &PM201,
            &tool.ptr,
            At::Missing(tool.node),
            format!("{} says nothing about how it runs; set exactly one of `mcp` (your own code), `package` or `url`, or `flow` for a flow tool.", capitalise(tool.label())),
        );
    } else if clash {
        let Some(last) = set.iter().max_by_key(|m| m.key_span.start) else { return };
        report.push(
            &PM201,
            &tool.ptr.key(&last.key),
            At::Key(last),
            format!("{} sets {}; set exactly one of `mcp`, `package` or `url` (a `package` may also set `mcp` to name its command).", capitalise(tool.label()), names(&set)),
        );
    }
}

fn check_mcp(tool: &ManifestToolView<'_>, mcp: &Node, report: &mut Report) {
    let ptr = tool.ptr.key("mcp");
    let Some(items) = mcp.as_array() else {
        let hint = match mcp.as_str() {
            Some(command) => format!(
                " Write it as a list, one argument an entry: `[{}]`.",
                command.split_whitespace().collect::<Vec<_>>().join(", ")
            ),
            None => String::new(),
        };
        report.push(
            &PM202,
            &ptr,
            At::Value(mcp),
            format!("`mcp` of {} must be a list of strings (the command and its arguments), not {}.{hint}", tool.label(), mcp.type_name()),
        );
        return;
    };
    if items.is_empty() {
        report.push(
            &PM202,
            &ptr,
            At::Value(mcp),
            format!(
                "`mcp` of {} is an empty list; name the command that starts the server.",
                tool.label()
            ),
        );
    }
    for (i, item) in items.iter().enumerate() {
        let problem = match &item.value {
            Value::String(s) if s.is_empty() => "an empty string".to_owned(),
            Value::String(_) => continue,
            _ => item.type_name().to_owned(),
        };
        report.push(
            &PM202,
            &ptr.index(i),
            At::Value(item),
            format!("Entry {i} of `mcp` of {} is {problem}; each entry is one non-empty argument of the command.", tool.label()),
        );
    }
}

fn check_package(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(node) = tool.get("package") else { return };
    let Some(text) = node.as_str() else { return };
    let ptr = tool.ptr.key("package");
    let label = tool.label();
    match Package::parse(text) {
        Err(PackageError::Scheme) => report.push(
            &PM203,
            &ptr,
            At::Value(node),
            format!("`package` `{text}` of {label} has no known scheme; write {PYPI_FORM}, {NPM_FORM}, {OCI_FORM} or {BINARY_FORM}."),
        ),
        Err(PackageError::Form(form)) => report.push(
            &PM203,
            &ptr,
            At::Value(node),
            format!("`package` `{text}` of {label} is not of the form {form}."),
        ),
        Err(PackageError::PypiRange(requirement)) => report.push(
            &PM203,
            &ptr,
            At::Value(node),
            format!("`package` `{text}` of {label} asks for `{requirement}`, a range; name one version with `==<version>`, or none."),
        ),
        Err(PackageError::OciDigest) => report.push(
            &PM206,
            &ptr,
            At::Value(node),
            format!("Image `{text}` of {label} does not name its digest; write {OCI_FORM} with the 64 hex digits of its SHA-256."),
        ),
        Ok(package) => match package.ecosystem {
            Ecosystem::Npm if package.npm_range().is_some() => report.push(
                &PM205,
                &ptr,
                At::Value(node),
                format!(
                    "`package` `{text}` of {label} asks for `{}`, a range or tag; name one exact version (`@1.2.3`), or none.",
                    package.version.unwrap_or_default()
                ),
            ),
            Ecosystem::Pypi | Ecosystem::Npm if package.version.is_none() => {
                let pin = if package.ecosystem == Ecosystem::Pypi { "==<version>" } else { "@<version>" };
                report.push(
                    &PM204,
                    &ptr,
                    At::Value(node),
                    format!("`package` `{text}` of {label} names no version; the edge pins it at install time, so what runs is not what you tested. Pin it: `{text}{pin}`."),
                );
            }
            Ecosystem::Binary => report.push(
                &PM207,
                &ptr,
                At::Value(node),
                format!("`package` `{text}` of {label} is a `binary:` package, which nodes do not run yet."),
            ),
            _ => {}
        },
    }
}

fn check_container(tool: &ManifestToolView<'_>, report: &mut Report) {
    // A flow tool's `container` is PM604's.
    if tool.is_flow() {
        return;
    }
    let Some(member) = tool.member("container").filter(|m| !m.value.is_null()) else { return };
    let ptr = tool.ptr.key("container");
    if !tool.is_oci() {
        report.push(
            &PM208,
            &ptr,
            At::Key(member),
            format!("`container` is for an `oci:` tool only, and {} is not one; a local tool's limits are `limits`.", tool.label()),
        );
    }
    let Some(container) = member.value.as_object() else { return };
    for (key, whole) in [("memory_mb", true), ("cpus", false), ("pids", true)] {
        let Some(value) = container.get(key).filter(|v| !v.is_null()) else { continue };
        let ok = value
            .as_f64()
            .is_some_and(|n| n.is_finite() && n > 0.0 && (!whole || n.fract() == 0.0));
        if !ok {
            let expected = if whole { "a positive whole number" } else { "a positive number" };
            let shown = value
                .scalar_text()
                .map(|t| format!("`{t}`"))
                .unwrap_or_else(|| value.type_name().to_owned());
            report.push(
                &PM209,
                &ptr.key(key),
                At::Value(value),
                format!("`container.{key}` of {} must be {expected}, not {shown}.", tool.label()),
            );
        }
    }
}
