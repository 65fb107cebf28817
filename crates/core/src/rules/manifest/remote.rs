//! PM3xx: remote tools (seed 003: `url`, `connection`, `functions`,
//! `headers`, `affinity`).

use super::{known_names, shown};
use crate::diagnostics::prose::capitalise;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::manifest::url::HttpUrl;
use crate::views::manifest::values::{
    is_argument_pointer, is_env_name, json_size, secret_references,
};
use crate::views::manifest::{ManifestToolView, ManifestView};
use crate::views::spec::one_of;
use opb_syntax::{Member, Node};

/// The seed's limits: functions per tool, headers per tool, bytes of an
/// output schema (64 KB).
const MAX_FUNCTIONS: usize = 256;
const MAX_HEADERS: usize = 16;
const MAX_OUTPUT_SCHEMA_BYTES: usize = 64 * 1024;

const ANNOTATIONS: &[&str] = &["readOnlyHint", "destructiveHint", "openWorldHint"];
pub(super) const AFFINITIES: &[&str] = &["node", "any"];

/// Each `affinity`, in seed 003's words.
pub(super) fn affinity_meaning(affinity: &str) -> Option<&'static str> {
    Some(match affinity {
        "node" => "The default: runs on the job's home node.",
        "any" => "Runs on any node that has the plugin.",
        _ => return None,
    })
}

pub static PM301: Rule = Rule {
    code: "PM301",
    name: "url-insecure",
    severity: Severity::Warning,
    group: Group::ManifestRemote,
    summary: documented!("A remote tool's `url` starts with `http://`."),
    source: documented!("\"A remote MCP server over Streamable HTTP. `http://` is a warning; use `https://`.\" (seed 003, `url`)"),
    fix: documented!("Serve the MCP endpoint over TLS and write `https://`."),
    example: documented!("tools:\n  - id: acme_search\n    url: http://search.example.com/mcp"),
};

pub static PM302: Rule = Rule {
    code: "PM302",
    name: "url-invalid",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("`url` is not an `http(s)://` URL with a host; or its host is a `{params.<name>}` template that is not https, is not the whole host, is followed by a non-literal path, is on a tool without a `connection`, names a param its connection does not list, or is on a connection without steps."),
    source: documented!("\"The tool's `url` may then be `https://{params.<name>}/<path>`, its host (and port) from a param of the connection, https only, its path literal, on a connection with steps (which record the host when it is connected)\" (seed 003, `connection`). A template on a connection without steps is refused too, since nothing would record the host (a project reading of that sentence)."),
    fix: documented!("Write the server's address (`https://search.example.com/mcp`), or for a host that differs per installation `https://{params.host}/mcp` with `host` among the `params` of the tool's `connection`, a connection with steps."),
    example: documented!("connections:\n  - {name: crm, tools: [acme_crm], params: [host], steps: [connect]}\ntools:\n  - id: acme_crm\n    url: http://{params.region}/mcp\n    connection: crm"),
};

pub static PM303: Rule = Rule {
    code: "PM303",
    name: "connection-not-remote",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("`connection` on a tool without `url`."),
    source: documented!("\"`connection`: A remote tool's (`url`) connection\" (seed 003, `connection`)."),
    fix: documented!("Remove `connection`, or make the tool a remote one with `url`. A local tool reads its credentials from the plugin's secrets."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    connection: github"),
};

pub static PM304: Rule = Rule {
    code: "PM304",
    name: "connection-unknown",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("`connection` names no connection of the plugin, or one whose `tools` do not list the tool (by id, `<id>.*` or one of its functions)."),
    source: documented!("\"A remote tool's (`url`) connection, one of this plugin's `connections` that lists the tool\" (seed 003, `connection`)."),
    fix: documented!("Name one of the plugin's `connections`, and list the tool in that connection's `tools` (`acme_search` or `acme_search.*`)."),
    example: documented!("connections:\n  - {name: search, tools: [acme_other]}\ntools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    connection: search"),
};

pub static PM305: Rule = Rule {
    code: "PM305",
    name: "functions-not-remote",
    severity: Severity::Warning,
    group: Group::ManifestRemote,
    summary: documented!("`functions` on a tool without `url`."),
    source: documented!("\"`functions`: Overrides of a remote tool's functions, by the name its server lists each under\" (seed 003, `functions`)."),
    fix: documented!("Remove `functions`: a local server says its functions' annotations and schemas itself."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    functions:\n      fetch: {annotations: {readOnlyHint: true}}"),
};

pub static PM306: Rule = Rule {
    code: "PM306",
    name: "functions-too-many",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("More than 256 entries in `functions`; the first one over the limit is underlined."),
    source: documented!("\"Overrides of a remote tool's functions, by the name its server lists each under (at most 256)\" (seed 003, `functions`)."),
    fix: documented!("Override only the functions that need it, or split the server into tools of their own."),
    example: documented!("tools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    functions:\n      f1: {}\n      # … f257: {}"),
};

pub static PM307: Rule = Rule {
    code: "PM307",
    name: "function-annotation-invalid",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A function's `annotations` names a key other than `readOnlyHint`, `destructiveHint` and `openWorldHint`, or gives one a value that is not a boolean."),
    source: documented!("\"`annotations` (`readOnlyHint`, `destructiveHint`, `openWorldHint`; they set what the server does not say and tighten what it says …)\" (seed 003, `functions`)."),
    fix: documented!("Use the three hints with `true` or `false`: `annotations: {readOnlyHint: true}`."),
    example: documented!("functions:\n  search:\n    annotations: {readOnly: yes}"),
};

pub static PM308: Rule = Rule {
    code: "PM308",
    name: "function-output-schema",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A function's `output_schema` is not an object schema (a map with `type: object`), or is over 64 KB (65,536 bytes) written as compact JSON."),
    source: documented!("\"`output_schema` (an object schema of at most 64 KB, which the node validates structured results against and cards are drawn from)\" (seed 003, `functions`)."),
    fix: documented!("Describe the structured result as `{type: object, properties: {…}}`, and keep descriptions and enums short enough to stay under 64 KB."),
    example: documented!("functions:\n  search:\n    output_schema: {type: array}"),
};

pub static PM309: Rule = Rule {
    code: "PM309",
    name: "function-ai-label",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A function's `ai_label` is not a JSON pointer to an argument (`/` followed by tokens, `~` only as `~0` or `~1`). The empty pointer names all the arguments, not a string argument, and is refused."),
    source: documented!("\"`ai_label` (a JSON pointer such as `/body` to the string argument the tenant's AI label goes at the start of)\" (seed 003, `functions`)."),
    fix: documented!("Point at the string argument with a leading slash: `ai_label: /body`."),
    example: documented!("functions:\n  send:\n    ai_label: body"),
};

pub static PM310: Rule = Rule {
    code: "PM310",
    name: "headers-not-remote",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("`headers` on a tool without `url`."),
    source: documented!("\"`headers`: Headers a remote tool (`url`) sends with every request\" (seed 003, `headers`)."),
    fix: documented!("Remove `headers`; a local tool gets what it needs through `env` and the plugin's secrets."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    headers: {X-Team: acme}"),
};

pub static PM311: Rule = Rule {
    code: "PM311",
    name: "headers-too-many",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("More than 16 headers; the first one over the limit is underlined."),
    source: documented!("\"A header that carries a credential must take it from a secret; at most 16 headers.\" (seed 003, `headers`)"),
    fix: documented!("Send only the headers the server needs."),
    example: documented!("headers:\n  X-1: a\n  # … X-17: q"),
};

pub static PM312: Rule = Rule {
    code: "PM312",
    name: "header-credential-literal",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A header that carries a credential (`Authorization`, `Proxy-Authorization`, `Cookie`, or a name containing `token`, `key`, `secret` or `auth`, in any case) whose value has no `${NAME}`. An empty value carries nothing and is not reported. The message shows at most the value's first 4 characters; SEC001 leaves such a value to this rule."),
    source: documented!("\"Each `${NAME}` is a secret in `requires.secrets`, filled in on the node. A header that carries a credential must take it from a secret\" (seed 003, `headers`)."),
    fix: documented!("Revoke the credential (the manifest has been shared), declare a secret in `requires.secrets` and refer to it: `Authorization: \"Bearer ${SEARCH_TOKEN}\"`."),
    example: documented!("requires:\n  secrets: [SEARCH_TOKEN]\ntools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    headers:\n      Authorization: Bearer 0123456789abcdef"),
};

pub static PM313: Rule = Rule {
    code: "PM313",
    name: "header-secret-undeclared",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A header's `${NAME}` where `NAME` is not in `requires.secrets` (or is not a name at all). An optional secret does not count: a header needs its value."),
    source: documented!("\"Each `${NAME}` is a secret in `requires.secrets`, filled in on the node.\" (seed 003, `headers`)"),
    fix: documented!("Add the name to `requires.secrets`, or correct its spelling in the header."),
    example: documented!("requires:\n  secrets: [SEARCH_TOKEN]\ntools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    headers:\n      Authorization: \"Bearer ${SEARCH_TOKN}\""),
};

pub static PM314: Rule = Rule {
    code: "PM314",
    name: "affinity-invalid",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("`affinity` other than `node` or `any`."),
    source: documented!("\"`node` (default): runs on the job's home node. `any`: runs on any node that has the plugin.\" (seed 003, `affinity`)"),
    fix: documented!("Write `affinity: node` (the default) or `affinity: any`."),
    example: documented!("tools:\n  - id: acme_fetch\n    mcp: [node, server.js]\n    affinity: everywhere"),
};

pub static PM315: Rule = Rule {
    code: "PM315",
    name: "connection-own-authorization",
    severity: Severity::Error,
    group: Group::ManifestRemote,
    summary: documented!("A tool with `connection` that also sets an `Authorization` header (in any case)."),
    source: documented!("\"… each call carries the token the edge mints for it in its own session's `Authorization` header\" and \"It sends no `Authorization` header of its own\" (seed 003, `connection`)."),
    fix: documented!("Remove the `Authorization` header: the edge sends the connection's token."),
    example: documented!("tools:\n  - id: acme_crm\n    url: https://crm.example.com/mcp\n    connection: crm\n    headers:\n      Authorization: \"Bearer ${CRM_TOKEN}\""),
};

pub static RULES: &[&Rule] = &[
    &PM301, &PM302, &PM303, &PM304, &PM305, &PM306, &PM307, &PM308, &PM309, &PM310, &PM311, &PM312,
    &PM313, &PM314, &PM315,
];

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    for tool in &view.tools {
        check_url(view, tool, report);
        check_connection(view, tool, report);
        check_functions(tool, report);
        // A flow tool's `headers` and `affinity` are PM604's.
        if tool.is_flow() {
            continue;
        }
        check_headers(view, tool, report);
        if let Some(affinity) = tool.get("affinity") {
            if let Some(value) = affinity.as_str().filter(|a| !AFFINITIES.contains(a)) {
                report.push(
                    &PM314,
                    &tool.ptr.key("affinity"),
                    At::Value(affinity),
                    format!(
                        "`affinity` of {} is `{value}`; it is {}.",
                        tool.label(),
                        one_of(AFFINITIES)
                    ),
                );
            }
        }
    }
}

fn check_url(view: &ManifestView<'_>, tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(node) = tool.get("url") else { return };
    let Some(text) = node.as_str() else { return };
    let ptr = tool.ptr.key("url");
    let label = tool.label();
    let url = match HttpUrl::parse(text) {
        Ok(url) => url,
        Err(error) => {
            report.push(
                &PM302,
                &ptr,
                At::Value(node),
                format!("`url` `{text}` of {label} is not an http(s) URL: {error}."),
            );
            return;
        }
    };
    if !url.is_template() {
        if !url.literal_rest() {
            report.push(
                &PM302,
                &ptr,
                At::Value(node),
                format!("`url` `{text}` of {label} has braces in its path; only the host may be a template, `{{params.<name>}}`."),
            );
        } else if !url.secure {
            report.push(&PM301, &ptr, At::Value(node), format!("`url` of {label} is `http://`: calls and their results travel unencrypted; use `https://`."));
        }
        return;
    }
    let mut problems = Vec::new();
    if !url.secure {
        problems.push("a templated host is https only".to_owned());
    }
    let param = url.host_param().filter(|p| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
    });
    if param.is_none() {
        problems.push(format!("the host `{}` is not one whole `{{params.<name>}}`", url.host));
    }
    if !url.literal_rest() {
        problems.push("its path must be literal, with no `{…}`".to_owned());
    }
    match tool.get("connection").and_then(Node::as_str) {
        None => problems.push(
            "a templated host comes from a param of the tool's `connection`, and the tool has none"
                .to_owned(),
        ),
        Some(name) => {
            if let Some(connection) = view.connection(name) {
                if let Some(param) = param {
                    if !connection.params.iter().any(|p| p.name == param) {
                        problems.push(format!("connection `{name}` has no param `{param}`"));
                    }
                }
                if !connection.has_steps {
                    problems.push(format!(
                        "connection `{name}` has no steps to record the host when it is connected"
                    ));
                }
            }
        }
    }
    if !problems.is_empty() {
        report.push(
            &PM302,
            &ptr,
            At::Value(node),
            format!("`url` `{text}` of {label}: {}.", problems.join("; ")),
        );
    }
}

fn check_connection(view: &ManifestView<'_>, tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("connection").filter(|m| !m.value.is_null()) else { return };
    let ptr = tool.ptr.key("connection");
    if !tool.is_remote() {
        report.push(
            &PM303,
            &ptr,
            At::Key(member),
            format!("`connection` is for a remote tool (`url`), and {} is not one.", tool.label()),
        );
        return;
    }
    let Some(name) = member.value.as_str() else { return };
    match view.connection(name) {
        None => {
            let choices = known_names(
                view.connections.iter().filter_map(|c| c.name),
                "the plugin has no `connections`",
            );
            report.push(
                &PM304,
                &ptr,
                At::Value(&member.value),
                format!("`connection` of {} names `{name}`, which is not a connection of the plugin; {choices}.", tool.label()),
            );
        }
        Some(connection) => {
            if let Some(id) = tool.id.filter(|id| !view.lists(connection, id)) {
                report.push(
                    &PM304,
                    &ptr,
                    At::Value(&member.value),
                    format!("Connection `{name}` does not list tool `{id}`; add `{id}` (or `{id}.*`) to its `tools`."),
                );
            }
        }
    }
}

fn check_functions(tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("functions").filter(|m| !m.value.is_null()) else { return };
    let ptr = tool.ptr.key("functions");
    if !tool.is_remote() {
        report.push(
            &PM305,
            &ptr,
            At::Key(member),
            format!("`functions` overrides a remote tool's functions, and {} is not remote: its server says its functions itself.", tool.label()),
        );
    }
    let Some(functions) = member.value.as_object() else { return };
    let entries: Vec<&Member> = functions.unique_members().collect();
    if let Some(first_over) = entries.get(MAX_FUNCTIONS) {
        report.push(
            &PM306,
            &ptr.key(&first_over.key),
            At::Key(first_over),
            format!("{} overrides {} functions; at most {MAX_FUNCTIONS}. `{}` is the first over the limit.", capitalise(tool.label()), entries.len(), first_over.key),
        );
    }
    for function in entries {
        let function_ptr = ptr.key(&function.key);
        let what = format!("function `{}` of {}", function.key, tool.label());
        if let Some(annotations) = function.value.get("annotations").and_then(Node::as_object) {
            for annotation in annotations.unique_members() {
                let annotation_ptr = function_ptr.key("annotations").key(&annotation.key);
                if !ANNOTATIONS.contains(&annotation.key.as_str()) {
                    report.push(
                        &PM307,
                        &annotation_ptr,
                        At::Key(annotation),
                        format!(
                            "`{}` is not an annotation of {what}; the annotations are {}.",
                            annotation.key,
                            one_of(ANNOTATIONS)
                        ),
                    );
                } else if annotation.value.as_bool().is_none() {
                    report.push(
                        &PM307,
                        &annotation_ptr,
                        At::Value(&annotation.value),
                        format!(
                            "`{}` of {what} must be `true` or `false`, not {}.",
                            annotation.key,
                            shown(&annotation.value)
                        ),
                    );
                }
            }
        }
        if let Some(schema) = function.value.get("output_schema").filter(|s| !s.is_null()) {
            check_output_schema(schema, &function_ptr.key("output_schema"), &what, report);
        }
        if let Some(label) = function.value.get("ai_label").filter(|l| !l.is_null()) {
            if !label.as_str().is_some_and(is_argument_pointer) {
                report.push(
                    &PM309,
                    &function_ptr.key("ai_label"),
                    At::Value(label),
                    format!("`ai_label` of {what} is {}; it is a JSON pointer to a string argument, such as `/body`.", shown(label)),
                );
            }
        }
    }
}

fn check_output_schema(schema: &Node, ptr: &opb_syntax::Ptr, what: &str, report: &mut Report) {
    let Some(object) = schema.as_object() else {
        report.push(
            &PM308,
            ptr,
            At::Value(schema),
            format!(
                "`output_schema` of {what} must be an object schema, not {}.",
                schema.type_name()
            ),
        );
        return;
    };
    match object.get("type") {
        Some(ty) if ty.as_str() == Some("object") => {}
        Some(ty) => report.push(
            &PM308,
            &ptr.key("type"),
            At::Value(ty),
            format!("`output_schema` of {what} has `type` {}; a structured result is an object: `type: object`.", shown(ty)),
        ),
        None => report.push(
            &PM308,
            ptr,
            At::Missing(schema),
            format!("`output_schema` of {what} has no `type`; a structured result is an object schema: `type: object`."),
        ),
    }
    let size = json_size(schema);
    if size > MAX_OUTPUT_SCHEMA_BYTES {
        report.push(
            &PM308,
            ptr,
            At::Value(schema),
            format!("`output_schema` of {what} is {size} bytes as JSON; at most 64 KB ({MAX_OUTPUT_SCHEMA_BYTES} bytes)."),
        );
    }
}

fn check_headers(view: &ManifestView<'_>, tool: &ManifestToolView<'_>, report: &mut Report) {
    let Some(member) = tool.member("headers").filter(|m| !m.value.is_null()) else { return };
    let ptr = tool.ptr.key("headers");
    let label = tool.label();
    if !tool.is_remote() {
        report.push(
            &PM310,
            &ptr,
            At::Key(member),
            format!("`headers` are for a remote tool (`url`), and {label} is not one."),
        );
    }
    let Some(headers) = member.value.as_object() else { return };
    let entries: Vec<&Member> = headers.unique_members().collect();
    if let Some(first_over) = entries.get(MAX_HEADERS) {
        report.push(
            &PM311,
            &ptr.key(&first_over.key),
            At::Key(first_over),
            format!(
                "{} sets {} headers; at most {MAX_HEADERS}. `{}` is the first over the limit.",
                capitalise(label),
                entries.len(),
                first_over.key
            ),
        );
    }
    let has_connection = tool.get("connection").is_some();
    for header in entries {
        let header_ptr = ptr.key(&header.key);
        if has_connection && header.key.eq_ignore_ascii_case("authorization") {
            report.push(
                &PM315,
                &header_ptr,
                At::Key(header),
                format!("{} is on a connection, whose token the edge sends as `Authorization`; it sends no `Authorization` header of its own.", capitalise(label)),
            );
        }
        let Some(value) = header.value.scalar_text() else { continue };
        let references = secret_references(&value);
        if references.is_empty() && carries_credential(&header.key) && !value.trim().is_empty() {
            report.flag_credential(&value);
            report.push(
                &PM312,
                &header_ptr,
                At::Value(&header.value),
                format!(
                    "Header `{}` of {label} carries a credential written into the manifest (`{}…`); take it from a secret, `${{NAME}}` with `NAME` in `requires.secrets`.{}",
                    header.key,
                    value.chars().take(4).collect::<String>(),
                    unbraced_hint(&value)
                ),
            );
        }
        for name in references {
            if !is_env_name(name) {
                report.push(
                    &PM313,
                    &header_ptr,
                    At::Value(&header.value),
                    format!("Header `{}` of {label} refers to `${{{name}}}`, which is not a secret name (letters, digits and `_`).", header.key),
                );
            } else if !view.requires_secret(name) {
                let optional = if view.optional_secret(name) {
                    " It is an optional secret; a header needs one that is always there."
                } else {
                    ""
                };
                report.push(
                    &PM313,
                    &header_ptr,
                    At::Value(&header.value),
                    format!("Header `{}` of {label} uses `${{{name}}}`, which is not in `requires.secrets`.{optional}", header.key),
                );
            }
        }
    }
}

/// Whether a header's name says it carries a credential.
fn carries_credential(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(lower.as_str(), "authorization" | "proxy-authorization" | "cookie")
        || ["token", "key", "secret", "auth"].iter().any(|word| lower.contains(word))
}

/// A hint for `$NAME` written without braces, which is not filled in.
fn unbraced_hint(value: &str) -> &'static str {
    let unbraced = value
        .split('$')
        .skip(1)
        .any(|after| after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'));
    if unbraced {
        " `$NAME` without braces is not filled in: write `${NAME}`."
    } else {
        ""
    }
}
