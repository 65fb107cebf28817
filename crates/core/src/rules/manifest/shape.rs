//! The shape of a manifest: IN004 for a value of the wrong type and IN007
//! for a field opb does not know, at every level the seed and DOCUMENTS.md
//! §2 describe. Fields whose type a PM rule names in its own words (`mcp`,
//! `timeout`, `container` limits, `approval.edit`, …) are typed `Any` here
//! and checked there, so one value gets one finding. An `env` or `headers`
//! value may be a number or a boolean: it is read as its text (`PORT: 8080`),
//! as a YAML reader that fills a map of strings reads it.

use crate::diagnostics::{At, Report};
use crate::rules::{Field, Ty, check_fields, expect, expect_objects};
use crate::views::objects;
use crate::rules::input::IN004;
use opb_syntax::{Node, Ptr, Value};
use std::fmt::Display;

const TOP: &[Field] = &[
    Field::new("name", Ty::String),
    Field::new("version", Ty::Any),
    Field::new("description", Ty::String),
    Field::new("tools", Ty::Array),
    Field::new("skills", Ty::Array),
    Field::new("flows", Ty::Array),
    Field::new("connections", Ty::Array),
    Field::new("requires", Ty::Object),
    Field::new("optional_secrets", Ty::Array),
    Field::new("egress", Ty::Any),
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
    Field::new("id", Ty::String),
    Field::new("mcp", Ty::Any),
    Field::new("package", Ty::String),
    Field::new("container", Ty::Object),
    Field::new("isolation", Ty::String),
    Field::new("url", Ty::String),
    Field::new("connection", Ty::String),
    Field::new("functions", Ty::Object),
    Field::new("headers", Ty::Object),
    Field::new("affinity", Ty::String),
    Field::new("requires_approval", Ty::StringArray),
    Field::new("manual", Ty::StringArray),
    Field::new("approval", Ty::Object),
    Field::new("env", Ty::Object),
    Field::new("timeout", Ty::Any),
    Field::new("sandbox", Ty::String),
    Field::new("secret_arguments", Ty::Object),
    Field::new("flow", Ty::String),
    Field::new("limits", Ty::Object),
    Field::new("labels", Ty::Object),
    Field::new("results", Ty::Object),
    Field::new("uses_model", Ty::Object),
];

const CONTAINER: &[Field] = &[Field::new("memory_mb", Ty::Any), Field::new("cpus", Ty::Any), Field::new("pids", Ty::Any)];

const LIMITS: &[Field] = &[Field::new("memory_mb", Ty::Number), Field::new("pids", Ty::Number), Field::new("cpus", Ty::Number)];

const FUNCTION: &[Field] = &[
    Field::new("annotations", Ty::Object),
    Field::new("output_schema", Ty::Any),
    Field::new("usage", Ty::Object),
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
    Field::new("deciders", Ty::Object),
    Field::new("not_starter", Ty::Any),
];

const ESCALATION_STEP: &[Field] = &[Field::new("at", Ty::Any), Field::new("to", Ty::Any)];

const DECIDERS: &[Field] = &[
    Field::new("role", Ty::String),
    Field::new("teams", Ty::StringArray),
    Field::new("people", Ty::StringArray),
    Field::new("keys", Ty::StringArray),
];

const LABELS: &[Field] = &[Field::new("source", Ty::Any), Field::new("untrusted", Ty::Any)];

const RESULTS: &[Field] = &[Field::new("fit", Ty::Bool)];

const USES_MODEL: &[Field] = &[Field::new("purpose", Ty::String)];

pub(super) fn check(root: &Node, report: &mut Report) {
    let top = Ptr::root();
    check_fields(report, root, &top, TOP, "the manifest");
    if let Some(requires) = root.get("requires") {
        check_fields(report, requires, &top.key("requires"), REQUIRES, "`requires`");
        name_list(report, requires.get("secrets"), &top.key("requires").key("secrets"), "`requires.secrets`");
    }
    name_list(report, root.get("skills"), &top.key("skills"), "`skills`");
    name_list(report, root.get("optional_secrets"), &top.key("optional_secrets"), "`optional_secrets`");
    for (ptr, flow) in items(report, root.get("flows"), &top.key("flows"), "Each flow") {
        check_fields(report, flow, &ptr, FLOW, &Label { kind: "flow", node: flow, ptr: &ptr });
        for (step_ptr, step) in items(report, flow.get("steps"), &ptr.key("steps"), "Each step of a flow") {
            if let Some(tool) = step.get("tool").filter(|t| !t.is_null()) {
                expect(report, tool, &step_ptr.key("tool"), Ty::String, "A flow step's `tool`");
            }
        }
    }
    for (ptr, connection) in items(report, root.get("connections"), &top.key("connections"), "Each connection") {
        let what = Label { kind: "connection", node: connection, ptr: &ptr };
        check_fields(report, connection, &ptr, CONNECTION, &what);
        name_list(report, connection.get("params"), &ptr.key("params"), &format_args!("`params` of {what}"));
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
                        format!("`{key}.{}` of {what} must be a string, not {}.", member.key, member.value.type_name()),
                    );
                }
            }
        }
    }
    if let Some(functions) = tool.get("functions").and_then(Node::as_object) {
        for member in functions.unique_members() {
            let function_ptr = ptr.key("functions").key(&member.key);
            let function = FunctionLabel { name: &member.key, tool: &what };
            if member.value.is_null() || !expect(report, &member.value, &function_ptr, Ty::Object, &format_args!("The overrides of {function}")) {
                continue;
            }
            check_fields(report, &member.value, &function_ptr, FUNCTION, &function);
            if let Some(usage) = member.value.get("usage") {
                check_fields(report, usage, &function_ptr.key("usage"), USAGE, &format_args!("`usage` of {function}"));
            }
        }
    }
    if let Some(approval) = tool.get("approval") {
        let approval_ptr = ptr.key("approval");
        if let Some(deciders) = approval.get("deciders") {
            check_fields(report, deciders, &approval_ptr.key("deciders"), DECIDERS, &format_args!("`approval.deciders` of {what}"));
        }
        if let Some(escalation) = approval.get("escalation") {
            let escalation_ptr = approval_ptr.key("escalation");
            if matches!(escalation.value, Value::Number(_) | Value::Object(_)) {
                report.push(
                    &IN004,
                    &escalation_ptr,
                    At::Value(escalation),
                    format!("`approval.escalation` of {what} must be `off` or a list of steps, not {}.", escalation.type_name()),
                );
            }
            for (step_ptr, step) in items(report, Some(escalation), &escalation_ptr, "Each escalation step") {
                check_fields(report, step, &step_ptr, ESCALATION_STEP, &format_args!("an escalation step of {what}"));
            }
        }
    }
}

/// The object items of a list, with IN004 for each item that is not an
/// object. `each` starts the message ("Each tool").
fn items<'n>(report: &mut Report, list: Option<&'n Node>, ptr: &Ptr, each: &str) -> impl Iterator<Item = (Ptr, &'n Node)> {
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
