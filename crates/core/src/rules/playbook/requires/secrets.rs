//! PB417 and PB418: the named secrets a playbook's bindings reference.

use super::missing_at;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::{check_fields, is_blank, Field, Ty};
use crate::views::playbook::{PlaybookView, SecretView};
use foldhash::{HashMap, HashMapExt};

pub static PB417: Rule = Rule {
    code: "PB417",
    name: "secret-field-missing",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("A secret has no `name` or no `purpose`; one finding per missing field."),
    source: documented!("\"secrets[].name string · required — The named secret this playbook's bindings reference — the name only, never a value.\" and \"secrets[].purpose string · required — Human-readable reason the secret is needed (e.g. auth for MCP server \"acme\").\" (seed 000, The requires declaration)"),
    fix: documented!("Give every secret the name its bindings use and a one-line reason a reviewer can judge, e.g. `purpose: auth for MCP server \"acme\"`."),
    example: documented!("requires:\n  secrets:\n    - name: STRIPE_KEY   # no purpose"),
};

pub static PB418: Rule = Rule {
    code: "PB418",
    name: "secret-duplicate",
    severity: Severity::Error,
    group: Group::PlaybookRequires,
    summary: documented!("Two secrets have the same `name`; the second is reported."),
    source: documented!("\"secrets[].name — The named secret this playbook's bindings reference\" (seed 000, The requires declaration): a name refers to one secret, with one purpose."),
    fix: documented!("Keep one entry per secret; if the two purposes differ, write both reasons in one `purpose`."),
    example: documented!("requires:\n  secrets:\n    - {name: ACME_MCP_TOKEN, purpose: auth for MCP server \"acme\"}\n    - {name: ACME_MCP_TOKEN, purpose: the same token again}"),
};

pub(super) const SECRET_FIELDS: &[Field] = &[
    Field::new("name", Ty::String)
        .required()
        .doc("The named secret this playbook's bindings reference — the name only, never a value."),
    Field::new("purpose", Ty::String)
        .required()
        .doc("Human-readable reason the secret is needed (e.g. auth for MCP server \"acme\")."),
];

pub(super) fn check(view: &PlaybookView<'_>, report: &mut Report) {
    let mut first_with: HashMap<&str, usize> = HashMap::new();
    for secret in &view.requires.secrets {
        let what = match secret.name {
            Some(name) if !name.trim().is_empty() => format!("the secret `{name}`"),
            _ => format!("`requires.secrets[{}]`", secret.index),
        };
        check_fields(report, secret.node, &secret.ptr, SECRET_FIELDS, &what);
        check_present(secret, &what, report);
        let Some(name) = secret.name.filter(|n| !n.trim().is_empty()) else { continue };
        match first_with.get(name) {
            Some(&first) => report_duplicate(secret, name, first, report),
            None => {
                first_with.insert(name, secret.index);
            }
        }
    }
}

/// PB417, one finding per missing field.
fn check_present(secret: &SecretView<'_>, what: &str, report: &mut Report) {
    for (field, says) in [
        ("name", "say the name its bindings reference"),
        ("purpose", "say why the playbook needs it, e.g. auth for MCP server \"acme\""),
    ] {
        if is_blank(secret.node.get(field)) {
            let (ptr, at) = missing_at(secret.node, &secret.ptr, field);
            report.push(&PB417, &ptr, at, format!("There is no `{field}` in {what}: {says}."));
        }
    }
}

/// PB418, at the second secret's name.
fn report_duplicate(secret: &SecretView<'_>, name: &str, first: usize, report: &mut Report) {
    let Some(node) = secret.node.get("name") else { return };
    report.push(
        &PB418,
        &secret.ptr.key("name"),
        At::Value(node),
        format!("The secret `{name}` is declared twice (first at `requires.secrets[{first}]`). Keep one entry, with one purpose."),
    );
}
