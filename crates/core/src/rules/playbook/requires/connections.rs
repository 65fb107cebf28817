//! PB401–PB409: provider connections, `manifest.requiredConnectors`, and the
//! connector tools the steps allow.

use super::missing_at;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::{check_fields, is_blank, Field, Ty};
use crate::views::playbook::{ConnectionView, PlaybookView};
use crate::views::requires::{ConnectorRef, CrossCheck, UnknownCapability};
use crate::views::spec::{auth_meaning, one_of, provider_meaning, AUTH_KINDS, PROVIDERS};
use foldhash::{HashMap, HashMapExt, HashSet};
use opb_syntax::Ptr;

pub static PB401: Rule = Rule {
    code: "PB401",
    name: "requires-missing",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("The playbook has no `requires` block, or the block has no `connections` list."),
    source: documented!("\"The envelope's requires block is the machine-readable statement of what a harness must satisfy before the playbook can run\"; its `connections` is \"array · required\" (seed 000, The requires declaration)."),
    fix: documented!("Add `requires` with a `connections` list: one entry per member of `manifest.requiredConnectors`, or `[]` when the playbook needs no provider."),
    example: documented!("{\n  \"openplaybook\": \"1.6\",\n  \"steps\": [ ... ]\n}"),
};

pub static PB402: Rule = Rule {
    code: "PB402",
    name: "connection-field-missing",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A connection has no `provider` or no `authKind`; one finding per missing field."),
    source: documented!("\"connections[].provider enum · required\" and \"connections[].authKind enum · required\" (seed 000, The requires declaration)."),
    fix: documented!("Say which connector the connection is for (`provider: stripe`) and how it authenticates (`authKind: oauth`, `api_token` or `aggregator_link`)."),
    example: documented!("requires:\n  connections:\n    - provider: stripe     # no authKind"),
};

pub static PB403: Rule = Rule {
    code: "PB403",
    name: "connection-enum-invalid",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A connection's `provider` or `authKind` is not one of the values the seed lists; the message lists them."),
    source: documented!("`connections[].provider` is an enum of the seed's connectors (stripe, github, vercel, …) and `connections[].authKind` an enum of \"oauth api_token aggregator_link\" (seed 000, The requires declaration)."),
    fix: documented!("Use one of the listed values; check the spelling (`stripe`, not `Stripe`)."),
    example: documented!("requires:\n  connections:\n    - provider: stripe\n      authKind: password   # oauth, api_token or aggregator_link"),
};

pub static PB404: Rule = Rule {
    code: "PB404",
    name: "connection-duplicate",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("Two connections are for the same provider; the second is reported."),
    source: documented!("`connections` is \"one entry per manifest.requiredConnectors member\" (seed 000, The requires declaration): one connection per provider."),
    fix: documented!("Merge the two entries into one: one `authKind`, and the union of their `scopes` and `capabilities`."),
    example: documented!("requires:\n  connections:\n    - {provider: stripe, authKind: oauth}\n    - {provider: stripe, authKind: api_token}"),
};

pub static PB405: Rule = Rule {
    code: "PB405",
    name: "connection-not-required",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A connection's provider is not a member of `manifest.requiredConnectors`."),
    source: documented!("`connections` is \"The machine-readable credential declaration — one entry per manifest.requiredConnectors member\" (seed 000, The requires declaration)."),
    fix: documented!("Add the provider to `manifest.requiredConnectors` if the playbook needs it, or remove the connection if it does not."),
    example: documented!("manifest:\n  requiredConnectors: [stripe]\nrequires:\n  connections:\n    - {provider: stripe, authKind: oauth}\n    - {provider: slack, authKind: oauth}   # not required"),
};

pub static PB406: Rule = Rule {
    code: "PB406",
    name: "required-connector-unconnected",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A member of `manifest.requiredConnectors` has no connection in `requires.connections`."),
    source: documented!("`connections` is \"one entry per manifest.requiredConnectors member\" (seed 000, The requires declaration)."),
    fix: documented!("Add a connection for the provider, with its `authKind`, or remove it from `manifest.requiredConnectors` if the playbook does not need it."),
    example: documented!("manifest:\n  requiredConnectors: [stripe, linear]\nrequires:\n  connections:\n    - {provider: stripe, authKind: oauth}   # no linear connection"),
};

pub static PB407: Rule = Rule {
    code: "PB407",
    name: "capability-unknown",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A connection's `capabilities` names no embedded tool, or a tool that is not this provider's: its `connectorType` is another provider, or it is not a connector tool."),
    source: documented!("\"connections[].capabilities array — Embedded tool names this playbook uses from this provider.\" (seed 000, The requires declaration)"),
    fix: documented!("List only the names of embedded tools whose `connectorType` is this connection's provider; add the tool's definition to `tools` if it is missing, or move the name to its provider's connection."),
    example: documented!("requires:\n  connections:\n    - provider: stripe\n      authKind: oauth\n      capabilities: [email.send]   # a resend tool"),
};

pub static PB408: Rule = Rule {
    code: "PB408",
    name: "capability-unlisted",
    severity: Severity::Warning,
    group: Group::PlaybookRequires,
    summary: documented!("A step allows an embedded connector tool, but its provider's connection does not list it in `capabilities`."),
    source: documented!("\"connections[].capabilities array — Embedded tool names this playbook uses from this provider.\" (seed 000, The requires declaration)"),
    fix: documented!("Add the tool's name to the `capabilities` of its provider's connection, so a harness knows before the run what the playbook uses."),
    example: documented!("requires:\n  connections:\n    - {provider: stripe, authKind: oauth, capabilities: []}\ntools:\n  - {name: charge.history, source: connector, connectorType: stripe, …}\nsteps:\n  - {id: look, kind: agent, allowedTools: [charge.history]}"),
};

pub static PB409: Rule = Rule {
    code: "PB409",
    name: "connector-unconnected",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A step allows an embedded connector tool whose `connectorType` has no connection in `requires.connections` (and is not in `manifest.requiredConnectors`, where PB406 reports it)."),
    source: documented!("The requires block \"is the machine-readable statement of what a harness must satisfy before the playbook can run: provider connections, …\" (seed 000, The requires declaration)."),
    fix: documented!("Add the provider to `manifest.requiredConnectors` and a connection for it to `requires.connections`, or stop allowing the tool."),
    example: documented!("requires:\n  connections: []\ntools:\n  - {name: issue.create, source: connector, connectorType: linear, …}\nsteps:\n  - {id: file, kind: agent, allowedTools: [issue.create]}"),
};

pub(super) const CONNECTION_FIELDS: &[Field] = &[
    Field::new("provider", Ty::String)
        .required()
        .one_of(PROVIDERS, provider_meaning)
        .doc("The connector this connection is for."),
    Field::new("authKind", Ty::String)
        .required()
        .one_of(AUTH_KINDS, auth_meaning)
        .doc("How this connector authenticates."),
    Field::new("scopes", Ty::StringArray)
        .doc("Best-effort OAuth scopes to request; [] where the provider has no scopes concept."),
    Field::new("capabilities", Ty::StringArray)
        .doc("Embedded tool names this playbook uses from this provider."),
];

pub(super) fn check(view: &PlaybookView<'_>, check: &CrossCheck<'_, '_>, report: &mut Report) {
    if !check_present(view, report) {
        return;
    }
    let mut first_by_provider: HashMap<&str, &ConnectionView<'_>> = HashMap::new();
    for connection in &view.requires.connections {
        let what = describe(connection);
        check_fields(report, connection.node, &connection.ptr, CONNECTION_FIELDS, &what);
        check_fields_present(connection, &what, report);
        check_enums(connection, &what, report);
        let Some(provider) = connection.provider.filter(|p| PROVIDERS.contains(p)) else {
            continue;
        };
        match first_by_provider.get(provider) {
            Some(first) => report_duplicate(connection, first, provider, report),
            None => {
                first_by_provider.insert(provider, connection);
            }
        }
    }
    for &connection in &check.connections_not_required {
        // A second connection for a provider is PB404's.
        let first = connection.provider.and_then(|p| check.connection(p));
        if first.is_some_and(|first| std::ptr::eq(first, connection)) {
            report_not_required(view, connection, report);
        }
    }
    check_required_connected(view, check, report);
    for unknown in &check.capabilities_unknown {
        report_unknown_capability(unknown, report);
    }
    for reference in &check.capabilities_unlisted {
        report_unlisted(reference, report);
    }
    let required: HashSet<&str> = view.required_connectors.iter().map(|r| r.name).collect();
    for reference in &check.connectors_unconnected {
        // A required provider without a connection is PB406's, reported once.
        if !required.contains(reference.provider) {
            report_unconnected(reference, report);
        }
    }
}

/// How messages name a connection: by its provider, or by its place.
fn describe(connection: &ConnectionView<'_>) -> String {
    match connection.provider {
        Some(provider) if PROVIDERS.contains(&provider) => format!("the `{provider}` connection"),
        _ => format!("`requires.connections[{}]`", connection.index),
    }
}

/// PB401. Returns whether there is a `connections` list to check.
fn check_present(view: &PlaybookView<'_>, report: &mut Report) -> bool {
    let requires_ptr = Ptr::root().key("requires");
    let needed = needed_connectors(view);
    match view.requires.node {
        None => {
            report.push(
                &PB401,
                &Ptr::root(),
                At::Missing(view.root),
                format!("The playbook has no `requires` block: a harness cannot tell what it must provide before the run. Add `requires` with a `connections` list{needed}."),
            );
            false
        }
        Some(node) if node.is_null() => {
            report.push(
                &PB401,
                &requires_ptr,
                At::Value(node),
                format!("`requires` is null: a harness cannot tell what it must provide before the run. Make it an object with a `connections` list{needed}."),
            );
            false
        }
        Some(node) if node.as_object().is_none() => false,
        Some(node) => match view.requires.connections_node {
            None => {
                report.push(
                    &PB401,
                    &requires_ptr,
                    At::Missing(node),
                    format!("`requires` has no `connections` list, which the seed requires. Add one{needed}."),
                );
                false
            }
            Some(connections) if connections.is_null() => {
                report.push(
                    &PB401,
                    &requires_ptr.key("connections"),
                    At::Value(connections),
                    format!("`requires.connections` is null; it must be a list{needed}."),
                );
                false
            }
            Some(connections) => connections.as_array().is_some(),
        },
    }
}

/// The required connectors as a message lists them: "`a`, `b` and `c`".
fn required_list(view: &PlaybookView<'_>) -> String {
    let names: Vec<&str> = view.required_connectors.iter().map(|r| r.name).collect();
    one_of(&names).replace(" or ", " and ")
}

/// For PB401's message: what the connections list should hold.
fn needed_connectors(view: &PlaybookView<'_>) -> String {
    if view.required_connectors.is_empty() {
        " (`[]` when the playbook needs no provider)".to_owned()
    } else {
        format!(", one entry for each of {} (`manifest.requiredConnectors`)", required_list(view))
    }
}

/// PB402, one finding per missing field.
fn check_fields_present(connection: &ConnectionView<'_>, what: &str, report: &mut Report) {
    for (field, says) in
        [("provider", "which connector it is for"), ("authKind", "how it authenticates")]
    {
        if is_blank(connection.node.get(field)) {
            let (ptr, at) = missing_at(connection.node, &connection.ptr, field);
            report.push(&PB402, &ptr, at, format!("There is no `{field}` in {what}: say {says}."));
        }
    }
}

/// PB403 for a string `provider` or `authKind` outside the seed's values.
fn check_enums(connection: &ConnectionView<'_>, what: &str, report: &mut Report) {
    for (field, value, accepted) in [
        ("provider", connection.provider, PROVIDERS),
        ("authKind", connection.auth_kind, AUTH_KINDS),
    ] {
        let Some(value) = value.filter(|v| !v.trim().is_empty() && !accepted.contains(v)) else {
            continue;
        };
        let Some(node) = connection.node.get(field) else { continue };
        report.push(
            &PB403,
            &connection.ptr.key(field),
            At::Value(node),
            format!(
                "The `{field}` of {what} is `{value}`, which is not one the seed lists: use {}.",
                one_of(accepted)
            ),
        );
    }
}

/// PB404, at the second connection's provider.
fn report_duplicate(
    connection: &ConnectionView<'_>,
    first: &ConnectionView<'_>,
    provider: &str,
    report: &mut Report,
) {
    let Some(node) = connection.node.get("provider") else { return };
    report.push(
        &PB404,
        &connection.ptr.key("provider"),
        At::Value(node),
        format!(
            "`requires.connections[{}]` is a second connection for `{provider}` (the first is `requires.connections[{}]`); a provider has one connection. Merge the two.",
            connection.index, first.index
        ),
    );
}

/// PB405, at the provider.
fn report_not_required(
    view: &PlaybookView<'_>,
    connection: &ConnectionView<'_>,
    report: &mut Report,
) {
    let (Some(provider), Some(node)) = (connection.provider, connection.node.get("provider"))
    else {
        return;
    };
    let listed = if view.required_connectors.is_empty() {
        "the playbook has no `manifest.requiredConnectors`".to_owned()
    } else {
        format!("`manifest.requiredConnectors` lists only {}", required_list(view))
    };
    report.push(
        &PB405,
        &connection.ptr.key("provider"),
        At::Value(node),
        format!("There is a connection for `{provider}`, but {listed}: connections are one per required connector. Add `{provider}` to `manifest.requiredConnectors`, or remove the connection."),
    );
}

/// PB406, at each required connector without a connection. A connection
/// whose provider is the same name in another case is PB403's.
fn check_required_connected(
    view: &PlaybookView<'_>,
    check: &CrossCheck<'_, '_>,
    report: &mut Report,
) {
    for required in &check.required_unconnected {
        let miscased = view.requires.connections.iter().any(|c| {
            c.provider
                .is_some_and(|p| !PROVIDERS.contains(&p) && p.eq_ignore_ascii_case(required.name))
        });
        if miscased {
            continue;
        }
        report.push(
            &PB406,
            &required.ptr(&Ptr::root().key("manifest").key("requiredConnectors")),
            At::Value(required.node),
            format!(
                "`{}` is in `manifest.requiredConnectors`, but `requires.connections` has no connection for it: a harness cannot know how it authenticates. Add `{{provider: {}, authKind: …}}`.",
                required.name, required.name
            ),
        );
    }
}

/// PB407, at the capability. A tool whose own `connectorType` is missing or
/// unknown is PB308's or PB304's, not reported again here.
fn report_unknown_capability(unknown: &UnknownCapability<'_, '_>, report: &mut Report) {
    let name = unknown.capability.name;
    let problem = match unknown.tool {
        None => format!("names `{name}`, which no embedded tool defines"),
        Some(tool) => match (tool.connector_type, tool.source) {
            (Some(other), _) if PROVIDERS.contains(&other) => {
                format!("names `{name}`, a tool of the `{other}` connector (its `connectorType`)")
            }
            (None, Some(source @ ("primitive" | "mcp"))) => {
                format!("names `{name}`, a `{source}` tool rather than a connector tool")
            }
            _ => return,
        },
    };
    let provider = unknown.connection.provider.unwrap_or_default();
    report.push(
        &PB407,
        &unknown.capability.ptr(&unknown.connection.ptr.key("capabilities")),
        At::Value(unknown.capability.node),
        format!("The `capabilities` of the `{provider}` connection {problem}: capabilities are the embedded tools the playbook uses from `{provider}`."),
    );
}

/// How messages name the step of a reference.
fn step_name(reference: &ConnectorRef<'_, '_>) -> String {
    let step = reference.at.step;
    step.id
        .map_or_else(|| format!("The step at `steps[{}]`", step.index), |id| format!("Step `{id}`"))
}

/// PB408, at the step's entry.
fn report_unlisted(reference: &ConnectorRef<'_, '_>, report: &mut Report) {
    let (entry, provider) = (reference.at.entry, reference.provider);
    report.push(
        &PB408,
        &reference.at.ptr(),
        At::Value(entry.node),
        format!(
            "{} allows `{}`, a `{provider}` connector tool, but the `{provider}` connection's `capabilities` does not list it. Add it there, so a harness knows what the playbook uses.",
            step_name(reference),
            entry.name
        ),
    );
}

/// PB409, at the step's entry.
fn report_unconnected(reference: &ConnectorRef<'_, '_>, report: &mut Report) {
    let (entry, provider) = (reference.at.entry, reference.provider);
    report.push(
        &PB409,
        &reference.at.ptr(),
        At::Value(entry.node),
        format!(
            "{} allows `{}`, a `{provider}` connector tool, but there is no `{provider}` connection: a harness cannot provide it. Add `{provider}` to `manifest.requiredConnectors` and a connection for it to `requires.connections`.",
            step_name(reference),
            entry.name
        ),
    );
}
