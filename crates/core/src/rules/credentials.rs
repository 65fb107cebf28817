//! SEC001: credentials written into a document (both kinds).
//!
//! Every string value and every key is looked at, wherever it is: a
//! credential in a description, a schema example, a branch label or a
//! header's name is as leaked as one in a header's value. The shapes live
//! in [`crate::diagnostics::credentials`], shared with PB411. Each credential
//! found is flagged for masking ([`Report::flag_credential`]), so it is cut
//! wherever else it occurs.

use super::manifest::PM312;
use super::playbook::PB411;
use crate::diagnostics::credentials::{
    credential_parts, find_credential, high_entropy_run, high_entropy_runs, may_hold_credential,
    preview,
};
use crate::diagnostics::{documented, At, Diagnostic, Group, Report, Rule, Severity};
use opb_syntax::{Node, Ptr, Value};

pub static SEC001: Rule = Rule {
    code: "SEC001",
    name: "credential-in-document",
    severity: Severity::Error,
    group: Group::Credentials,
    summary: documented!("A string in the document looks like a credential value: a known token prefix, a private key, a bearer token, a JWT, or a long high-entropy string in a field named like a secret. The message shows only its first 4 characters."),
    source: documented!("\"Names and purposes only; never credentials.\" (seed 000, the requires declaration) and \"A header that carries a credential must take it from a secret\" (seed 003, `headers`)."),
    fix: documented!("Remove the value from the document and revoke it: it has been shared with everyone who saw the document. Declare the secret by name (`requires.secrets` with a `purpose` in a playbook, `requires.secrets` and `${NAME}` in a manifest's headers) and let the runtime supply the value."),
    example: documented!("requires:\n  secrets:\n    - name: STRIPE_KEY\n      purpose: sk_live_51H…   # a live key, not a purpose"),
};

pub static RULES: &[&Rule] = &[&SEC001];

/// Rules that report a credential-shaped string more specifically than
/// SEC001: an MCP server name that is auth material (PB411), a manifest
/// header with a credential literal (PM312).
const MORE_SPECIFIC: [&Rule; 2] = [&PB411, &PM312];

/// Where a more specific rule has reported a credential, sorted: there
/// SEC001 stays silent. Read once, so a document of many findings is not
/// searched again for each string.
fn reported_more_specifically(report: &Report) -> Vec<String> {
    let mut pointers: Vec<String> =
        MORE_SPECIFIC.iter().flat_map(|rule| report.pointers_of(rule)).map(str::to_owned).collect();
    opb_syntax::order::sort(&mut pointers);
    pointers
}

/// Whether a diagnostic reports a credential written into the document:
/// SEC001's, or a more specific rule's in its stead. The explain view masks
/// what these found, and a shell asks before such a document leaves the page.
pub(crate) fn is_credential_finding(diagnostic: &Diagnostic) -> bool {
    diagnostic.code == SEC001.code || MORE_SPECIFIC.iter().any(|rule| rule.code == diagnostic.code)
}

/// One step of the pointer to the value being looked at.
#[derive(Debug, Clone, Copy)]
enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

/// The field a string belongs to: the key of its member, or of the array
/// that holds it.
#[derive(Debug, Clone, Copy)]
enum Field<'a> {
    Member(&'a str),
    Entry(&'a str),
}

impl<'a> Field<'a> {
    fn key(self) -> &'a str {
        match self {
            Field::Member(key) | Field::Entry(key) => key,
        }
    }

    fn describe(self) -> String {
        match self {
            Field::Member(key) => format!("The value of `{key}`"),
            Field::Entry(key) => format!("An entry of `{key}`"),
        }
    }
}

/// A string SEC001 looks at: a value, or a key of an object, each in its
/// field (none at the top).
#[derive(Debug, Clone, Copy)]
enum Place<'a> {
    Value(Option<Field<'a>>),
    Key(Option<Field<'a>>),
}

impl<'a> Place<'a> {
    /// The field whose name says whether a random-looking string is a
    /// secret: the value's, or that of the object whose key it is.
    fn field(self) -> Option<Field<'a>> {
        match self {
            Place::Value(field) | Place::Key(field) => field,
        }
    }

    fn describe(self) -> String {
        match self {
            Place::Value(None) => "The document".to_owned(),
            Place::Value(Some(field)) => field.describe(),
            Place::Key(None) => "A top-level key".to_owned(),
            Place::Key(Some(Field::Member(key))) => format!("A key of `{key}`"),
            Place::Key(Some(Field::Entry(key))) => format!("A key of an entry of `{key}`"),
        }
    }
}

enum Visit<'a> {
    Node {
        node: &'a Node,
        token: Option<Token<'a>>,
        field: Option<Field<'a>>,
    },
    /// Leaves the container entered last: its token comes off the path.
    Leave,
}

/// Looks at every string value and every key of the document for
/// credential shapes. Iterative, so no nesting depth the limits allow can
/// exhaust the stack.
pub(crate) fn check(root: &Node, report: &mut Report) {
    let specific = reported_more_specifically(report);
    let mut path: Vec<Token<'_>> = Vec::new();
    let mut stack = vec![Visit::Node { node: root, token: None, field: None }];
    while let Some(visit) = stack.pop() {
        let (node, token, field) = match visit {
            Visit::Leave => {
                path.pop();
                continue;
            }
            Visit::Node { node, token, field } => (node, token, field),
        };
        match &node.value {
            Value::String(text) => {
                if let Some(message) = suspicion(text, Place::Value(field)) {
                    let ptr = pointer(&path, token);
                    if specific.binary_search_by(|p| p.as_str().cmp(ptr.as_str())).is_err() {
                        report.push(&SEC001, &ptr, At::Value(node), message);
                        flag(text, Place::Value(field), report);
                    }
                }
            }
            Value::Array(items) => {
                enter(&mut path, &mut stack, token);
                let field = field.map(|f| Field::Entry(f.key()));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Visit::Node { node: item, token: Some(Token::Index(i)), field });
                }
            }
            Value::Object(object) => {
                enter(&mut path, &mut stack, token);
                // Every member, duplicates too: a second value is still in the text.
                for member in object.members.iter().rev() {
                    // A key is named by the object's field; its finding
                    // points at its member and underlines the key (the
                    // value, when it holds a credential too, is a finding
                    // of its own).
                    if let Some(message) = suspicion(&member.key, Place::Key(field)) {
                        let ptr = pointer(&path, None).key(&member.key);
                        report.push(&SEC001, &ptr, At::Key(member), message);
                        flag(&member.key, Place::Key(field), report);
                    }
                    stack.push(Visit::Node {
                        node: &member.value,
                        token: Some(Token::Key(&member.key)),
                        field: Some(Field::Member(&member.key)),
                    });
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    report.credentials_read();
}

/// Flags every credential in a text SEC001 reported: each of a known
/// shape, and in a field named like a secret each high-entropy run.
fn flag(text: &str, place: Place<'_>, report: &mut Report) {
    for part in credential_parts(text) {
        report.flag_credential(part);
    }
    if place.field().is_some_and(|f| named_like_a_secret(f.key())) {
        for run in high_entropy_runs(text) {
            report.flag_credential(run);
        }
    }
}

fn enter<'a>(path: &mut Vec<Token<'a>>, stack: &mut Vec<Visit<'a>>, token: Option<Token<'a>>) {
    if let Some(token) = token {
        path.push(token);
        stack.push(Visit::Leave);
    }
}

fn pointer(path: &[Token<'_>], last: Option<Token<'_>>) -> Ptr {
    path.iter().chain(last.as_ref()).fold(Ptr::root(), |ptr, token| match token {
        Token::Key(key) => ptr.key(key),
        Token::Index(i) => ptr.index(*i),
    })
}

/// The message for a string (a value or a key) that looks like a
/// credential, or `None`.
fn suspicion(text: &str, place: Place<'_>) -> Option<String> {
    // Nearly every string is cleared here, in one cheap pass.
    if !may_hold_credential(text) {
        return None;
    }
    if let Some(credential) = find_credential(text) {
        return Some(format!(
            "{} holds what looks like {} (`{}`). A document is read by everyone it is shared with: it names credentials, never carries them. Remove the value, revoke it, and declare a secret by name instead.",
            place.describe(),
            credential.kind,
            preview(credential.text)
        ));
    }
    // The field's name first: testing it reads a short key, where looking
    // for the run reads the whole string (a digest, a package name).
    place.field().filter(|f| named_like_a_secret(f.key()))?;
    let run = high_entropy_run(text)?;
    Some(format!(
        "{} holds a long random-looking string (`{}`), the shape of a credential in a field named like one. A document names credentials, never carries them. Remove the value, revoke it if it is real, and declare a secret by name instead.",
        place.describe(),
        preview(run)
    ))
}

/// Whether a field's name says it holds a secret: it contains `token`,
/// `secret`, `password`, `passwd`, `apikey`, `credential` or `privatekey`, or
/// is `value`, ignoring case, `_` and `-` (`api_key`, `X-Api-Key`,
/// `clientSecret`).
fn named_like_a_secret(key: &str) -> bool {
    const WORDS: &[&str] =
        &["token", "secret", "password", "passwd", "apikey", "credential", "privatekey"];
    let normalized: String =
        key.chars().filter(|c| !matches!(c, '_' | '-')).map(|c| c.to_ascii_lowercase()).collect();
    normalized == "value" || WORDS.iter().any(|word| normalized.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use opb_syntax::{parse, Limits, Syntax};

    fn findings(yaml: &str) -> Vec<(String, String)> {
        let parsed = parse(yaml, Syntax::Yaml, &Limits::default());
        let mut report = Report::new();
        check(parsed.root.as_ref().unwrap(), &mut report);
        report.into_findings().into_iter().map(|f| (f.pointer, f.message)).collect()
    }

    #[test]
    fn field_names_like_secrets() {
        for key in [
            "token",
            "apiKey",
            "api_key",
            "X-Api-Key",
            "clientSecret",
            "PASSWORD",
            "value",
            "refresh-token",
        ] {
            assert!(named_like_a_secret(key), "{key}");
        }
        for key in ["name", "purpose", "values", "keyword", "description", "monkey"] {
            assert!(!named_like_a_secret(key), "{key}");
        }
    }

    #[test]
    fn credentials_are_found_at_any_depth_and_never_echoed() {
        let found = findings(
            "a:\n  - b: {c: [x, \"token sk_live_51HqLyjWDarjtT1zdp7dcXYZ\"]}\nclientSecret: Xk9fQ2mZr7LpT4vB8nWc\nname: Xk9fQ2mZr7LpT4vB8nWc\n",
        );
        let pointers: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(pointers, ["/a/0/b/c/1", "/clientSecret"]);
        assert!(found[0].1.contains("`sk_l…`"), "{}", found[0].1);
        assert!(found[0].1.contains("An entry of `c`"), "{}", found[0].1);
        assert!(found[1].1.contains("`Xk9f…`"), "{}", found[1].1);
        for (_, message) in &found {
            assert!(!message.contains("sk_live") && !message.contains("Xk9fQ"), "{message}");
        }
    }

    #[test]
    fn pointers_escape_keys() {
        let found = findings("\"a/b\": {\"m~n\": AKIAIOSFODNN7EXAMPLE}\n");
        assert_eq!(found[0].0, "/a~1b/m~0n");
    }

    fn codes(text: &str) -> Vec<(&'static str, String)> {
        let checked = crate::check(text, &crate::Options::default());
        checked.diagnostics.into_iter().map(|d| (d.code, d.pointer)).collect()
    }

    #[test]
    fn a_more_specific_finding_silences_sec001_on_its_string_only() {
        let manifest = "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    headers:\n      Authorization: \"Bearer abcdef0123456789abcdef0123456789\"\n      X-Trace: \"Bearer abcdef0123456789abcdef0123456789\"\n";
        let found = codes(manifest);
        let at = "/tools/0/headers/Authorization".to_owned();
        assert!(found.contains(&("PM312", at.clone())), "{found:?}");
        assert!(!found.contains(&("SEC001", at)), "{found:?}");
        assert!(found.contains(&("SEC001", "/tools/0/headers/X-Trace".to_owned())), "{found:?}");

        let playbook = "openplaybook: \"1.6\"\nrequires:\n  connections: []\n  mcpServers:\n    - name: ghp_16C7e42F292c6912E7710c838347Ae178B4a\nsteps:\n  - {id: a, kind: gate}\n";
        let found = codes(playbook);
        let at = "/requires/mcpServers/0/name".to_owned();
        assert!(found.contains(&("PB411", at.clone())), "{found:?}");
        assert!(!found.contains(&("SEC001", at)), "{found:?}");
    }

    #[test]
    fn a_root_string_is_looked_at() {
        let found = findings("ghp_16C7e42F292c6912E7710c838347Ae178B4a\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "");
    }
}
