//! What an embedded tool definition must carry: a distinct name, the
//! required fields, enum values the seed lists, object schemas (PB301 to
//! PB304, PB310), and the type of each field (IN004, IN007).

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::playbook::steps::PB205;
use crate::rules::{check_fields, is_blank, Field, ItemName, Ty};
use crate::views::playbook::{mcp_name, McpName, ToolView};
use crate::views::spec::{
    one_of, provider_meaning, risk_meaning, scope_meaning, source_meaning, PROVIDERS, RISK_CLASSES,
    SCOPES, SOURCES,
};
use foldhash::HashMap;

pub static PB301: Rule = Rule {
    code: "PB301",
    name: "tool-name-missing",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool has no `name` (or an empty one): no step can allow it and no reader can tell which tool it defines."),
    source: documented!("Embedded tool definitions: \"name string · required\" (seed 000)."),
    fix: documented!("Give the tool the name steps use in `allowedTools`, e.g. `name: charge.history`."),
    example: documented!("tools:\n  - source: primitive\n    description: Read one customer's profile."),
};

pub static PB302: Rule = Rule {
    code: "PB302",
    name: "tool-name-duplicate",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("Two embedded tools have the same `name`; the second is reported. A name on `allowedTools` resolves to the first."),
    source: documented!("\"A name resolves against the document's own embedded tools array\" (seed 000): one name, one definition."),
    fix: documented!("Remove the second definition, or rename it if it is another tool (and the steps that allow it)."),
    example: documented!("tools:\n  - {name: customer.get, source: primitive, …}\n  - {name: customer.get, source: connector, …}"),
};

pub static PB303: Rule = Rule {
    code: "PB303",
    name: "tool-field-missing",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool lacks a required field: `source`, `description`, `permissions`, `inputSchema` or `outputSchema`; one finding per missing field."),
    source: documented!("Embedded tool definitions: \"source enum · required\", \"description string · required\", \"permissions array · required\", \"inputSchema object · required\", \"outputSchema object · required\" (seed 000); \"so a foreign reader can explain what the playbook does without any registry\"."),
    fix: documented!("Add the field: where the tool comes from (`source`), what it does (`description`), the permissions it needs (`permissions`, `[]` for none) and its input and output JSON Schemas (`{\"type\": \"object\"}` at least)."),
    example: documented!("tools:\n  - name: customer.get\n    source: primitive\n    description: Read one customer's profile.\n    # no permissions, inputSchema, outputSchema"),
};

pub static PB304: Rule = Rule {
    code: "PB304",
    name: "enum-invalid",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool's `source`, `riskClass`, `connectorType` or `scope` is not one of the seed's values; the message lists them."),
    source: documented!("Embedded tool definitions: `source` \"primitive connector mcp\", `riskClass` \"read internal customer_comms money\", `connectorType` the seed's connectors (stripe, github, …), `scope` \"app workspace\" (seed 000)."),
    fix: documented!("Use one of the listed values; check the spelling and case (`customer_comms`, not `customer-comms`)."),
    example: documented!("tools:\n  - name: email.send\n    riskClass: write   # read, internal, customer_comms or money"),
};

pub static PB310: Rule = Rule {
    code: "PB310",
    name: "schema-not-object",
    severity: Severity::Error,
    group: Group::PlaybookTools,
    summary: documented!("An embedded tool's `inputSchema` or `outputSchema` is not an object."),
    source: documented!("Embedded tool definitions: \"inputSchema object · required\", \"outputSchema object · required\" (seed 000)."),
    fix: documented!("Write the schema as a JSON Schema object, e.g. `{\"type\": \"object\"}`, not a string naming a type."),
    example: documented!("tools:\n  - name: notes.read\n    inputSchema: {type: object}\n    outputSchema: \"object\"   # a string, not a schema"),
};

/// The fields of an embedded tool as seed 000 types them. The schemas are
/// `Any` here because PB310 reports a schema of the wrong type.
pub(crate) const TOOL_FIELDS: &[Field] = &[
    Field::new("name", Ty::String).required().doc(NAMES),
    Field::new("source", Ty::String).required().one_of(SOURCES, source_meaning).doc(NAMES),
    Field::new("description", Ty::String).required(),
    Field::new("permissions", Ty::StringArray).required(),
    Field::new("inputSchema", Ty::Any).required(),
    Field::new("outputSchema", Ty::Any).required(),
    Field::new("harnessInputSchema", Ty::Any),
    Field::new("harnessOutputSchema", Ty::Any),
    Field::new("dataScopeResources", Ty::StringArray),
    Field::new("dataScopeWrites", Ty::StringArray),
    Field::new("requiresApproval", Ty::Bool).doc(SIDE_EFFECTS),
    Field::new("riskClass", Ty::String).one_of(RISK_CLASSES, risk_meaning),
    Field::new("sideEffecting", Ty::Bool).doc(SIDE_EFFECTS),
    Field::new("connectorType", Ty::String).one_of(PROVIDERS, provider_meaning),
    Field::new("scope", Ty::String).one_of(SCOPES, scope_meaning),
];

/// Seed 000 on the names of tools.
const NAMES: &str = "Three naming families cover the surface:";

/// Seed 000 on `sideEffecting` and `requiresApproval`.
const SIDE_EFFECTS: &str = "Read tools declare sideEffecting: false and never require approval; write tools declare their side effects and may require an approval gate.";

/// The required fields besides `name`, and what each says.
const REQUIRED: &[(&str, &str)] = &[
    ("source", "where the tool comes from: `primitive`, `connector` or `mcp`"),
    ("description", "what the tool does, in a sentence a reviewer can judge"),
    ("permissions", "the permissions it needs (`[]` for none)"),
    ("inputSchema", "the JSON Schema of its input (`{\"type\": \"object\"}` at least)"),
    ("outputSchema", "the JSON Schema of its output (`{\"type\": \"object\"}` at least)"),
];

const ENUMS: &[(&str, &[&str])] = &[
    ("source", SOURCES),
    ("riskClass", RISK_CLASSES),
    ("connectorType", PROVIDERS),
    ("scope", SCOPES),
];

/// Checks one tool's definition. Returns whether it has a name of its own
/// (present and not a duplicate), for the rules that look the name up.
pub(super) fn check<'a>(
    tool: &ToolView<'a>,
    what: ItemName<'_>,
    first_with_name: &mut HashMap<&'a str, usize>,
    report: &mut Report,
) -> bool {
    check_fields(report, tool.node, &tool.ptr, TOOL_FIELDS, &format_args!("the {what}"));
    check_required(tool, what, report);
    check_enums(tool, what, report);
    check_schemas(tool, what, report);
    check_name(tool, first_with_name, report)
}

/// PB301, PB302, and PB205 for a malformed `mcp.` name.
fn check_name<'a>(
    tool: &ToolView<'a>,
    first_with_name: &mut HashMap<&'a str, usize>,
    report: &mut Report,
) -> bool {
    let node = tool.node.get("name");
    if is_blank(node) {
        let (ptr, at) = match node {
            Some(value) => (tool.ptr.key("name"), At::Value(value)),
            None => (tool.ptr.clone(), At::Missing(tool.node)),
        };
        report.push(
            &PB301,
            &ptr,
            at,
            format!("The tool at `tools[{}]` has no `name`: no step can allow it. Give it the name steps use in `allowedTools`.", tool.index),
        );
        return false;
    }
    let (Some(name), Some(node)) = (tool.name, node) else { return false };
    let ptr = tool.ptr.key("name");
    if let Some(&first) = first_with_name.get(name) {
        report.push(
            &PB302,
            &ptr,
            At::Value(node),
            format!("`{name}` is already the name of `tools[{first}]`; `allowedTools` resolves it to the first. Remove this definition or rename it."),
        );
        return false;
    }
    first_with_name.insert(name, tool.index);
    if mcp_name(name) == McpName::Malformed {
        report.push(
            &PB205,
            &ptr,
            At::Value(node),
            format!("The tool name `{name}` starts with `mcp.` but is not `mcp.<server>.<tool>` with both parts non-empty, e.g. `mcp.acme.search_orders`."),
        );
    }
    true
}

/// PB303, one finding per missing field; at a null or blank value when
/// there is one, else at the tool.
fn check_required(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    for (field, says) in REQUIRED {
        let node = tool.node.get(field);
        if !is_blank(node) {
            continue;
        }
        let (ptr, at, how) = match node {
            Some(value) => (
                tool.ptr.key(field),
                At::Value(value),
                if value.is_null() { "is null" } else { "is empty" },
            ),
            None => (tool.ptr.clone(), At::Missing(tool.node), "is missing"),
        };
        report.push(
            &PB303,
            &ptr,
            at,
            format!("`{field}` of the {what} {how}; it is required: say {says}."),
        );
    }
}

/// PB304 for a string outside the seed's values. A blank `source` is
/// PB303's; a value of another type is IN004's.
fn check_enums(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    for (field, accepted) in ENUMS {
        let Some(node) = tool.node.get(field) else { continue };
        let Some(value) = node.as_str() else { continue };
        if accepted.contains(&value) || (*field == "source" && value.trim().is_empty()) {
            continue;
        }
        report.push(
            &PB304,
            &tool.ptr.key(field),
            At::Value(node),
            format!(
                "`{field}` of the {what} is `{value}`, which is not one the seed lists: use {}.",
                one_of(accepted)
            ),
        );
    }
}

/// PB310 for a present schema that is not an object (null is PB303's).
fn check_schemas(tool: &ToolView<'_>, what: ItemName<'_>, report: &mut Report) {
    for field in ["inputSchema", "outputSchema"] {
        let Some(node) = tool.node.get(field) else { continue };
        if node.is_null() || node.as_object().is_some() {
            continue;
        }
        report.push(
            &PB310,
            &tool.ptr.key(field),
            At::Value(node),
            format!("`{field}` of the {what} must be a JSON Schema object, not {}: write at least `{{\"type\": \"object\"}}`.", node.type_name()),
        );
    }
}
