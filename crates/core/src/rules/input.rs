//! IN: rules about the input itself, for both kinds. The reader's problems
//! are reported as IN001, IN004 (a collection as a key), IN005 and IN006
//! ([`problem_finding`]); kind detection reports IN002 and IN003; the shape
//! checks of each kind IN004 and IN007.

use crate::diagnostics::{documented, At, Finding, Group, Report, Rule, Severity};
use opb_syntax::{Kind, Node, Problem, ProblemKind, Ptr};

pub static IN001: Rule = Rule {
    code: "IN001",
    name: "parse-error",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("The text is not valid JSON or YAML; the range points at the parser's position, or at the opening of a bracket or quote that is never closed."),
    source: documented!("Both formats are data: an OpenPlaybook document is JSON (or the same data as YAML) and a plugin manifest is YAML (DOCUMENTS.md §1, §2). JSON is read strictly: no comments, trailing commas or single quotes."),
    fix: documented!("Correct the syntax at the position shown. A bracket or quote that is never closed is shown where it opened, with where the parser stopped as a second place. For JSON, check for a missing comma or quote, or a trailing comma; for YAML, check indentation and unclosed brackets or quotes."),
    example: documented!("{\"steps\": [\n  {\"id\": \"a\",}\n]}"),
};

pub static IN002: Rule = Rule {
    code: "IN002",
    name: "root-not-object",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("The top-level value is not an object (JSON) or mapping (YAML)."),
    source: documented!("Both documents are objects at the top: the OpenPlaybook envelope and the manifest's top-level keys (DOCUMENTS.md §1, §2)."),
    fix: documented!("Make the document one object: `{ \"openplaybook\": \"1.6\", \"steps\": [...] }`, or a YAML mapping of `key: value` lines."),
    example: documented!("[\"steps\", \"tools\"]"),
};

pub static IN003: Rule = Rule {
    code: "IN003",
    name: "kind-undetected",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("The document is neither a playbook nor a plugin manifest by the detection rules, and no kind was given."),
    source: documented!("\"A top-level `openplaybook`, `steps` or `requires` key means a playbook; a top-level `tools` list whose entries have `id` (rather than `name` + `source`), or `flows`/`skills`, means a plugin manifest. The user can always override the detection.\" (DOCUMENTS.md §3)"),
    fix: documented!("Add the key that says what the document is (`openplaybook: \"1.6\"` for a playbook, a `tools` list with `id`s for a manifest), or choose the kind explicitly (`--kind playbook|plugin`, or the kind switch in the playground)."),
    example: documented!("name: something\nversion: 1"),
};

pub static IN004: Rule = Rule {
    code: "IN004",
    name: "wrong-type",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("A field the seeds type (string, boolean, array, object, enum) has a value of another type; the message names the expected type."),
    source: documented!("The seeds type every field they define, e.g. \"name string · required\", \"requiresApproval boolean\", \"permissions array · required\" (seed 000) and \"`mcp` string[]\", \"`headers` map\" (seed 003)."),
    fix: documented!("Write the value with the type the message names: quote a string, use `true`/`false` for a boolean, `[...]` for a list, `{...}` for an object."),
    example: documented!("steps:\n  - id: a\n    kind: agent\n    allowedTools: customer.get   # should be a list"),
};

pub static IN005: Rule = Rule {
    code: "IN005",
    name: "duplicate-key",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("The same key appears twice in one object or mapping (JSON and YAML both)."),
    source: documented!("JSON parsers disagree on which duplicate wins and YAML forbids them (YAML 1.2 §3.2.1.1, \"the content of a mapping node is an unordered set of key/value node pairs, with the restriction that each of the keys is unique\"); a duplicate can hide a value from a reviewer. The project never merges them silently."),
    fix: documented!("Keep one of the two entries. The validator reads the first; the second is the one underlined."),
    example: documented!("{\"id\": \"a\", \"kind\": \"agent\", \"kind\": \"gate\"}"),
};

pub static IN006: Rule = Rule {
    code: "IN006",
    name: "too-large",
    severity: Severity::Error,
    group: Group::Input,
    summary: documented!("The input is over one of the documented limits (size, nesting depth, line length, YAML alias expansion, number of steps or tools); nothing else is reported."),
    source: documented!("Every input is hostile until parsed: a validator in a reader's browser must answer, never hang or run out of memory. The limits are listed in the README and in docs/limits.md."),
    fix: documented!("Split the document, or remove the deep nesting or alias chain the message names. The limits are far above any real playbook or manifest."),
    example: documented!("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n# ... and so on: a \"billion laughs\""),
};

pub static IN007: Rule = Rule {
    code: "IN007",
    name: "unknown-field",
    severity: Severity::Info,
    group: Group::Input,
    summary: documented!("A field the project does not know. It is kept and shown, never dropped."),
    source: documented!("\"Be a generous reader … Unknown fields are kept and shown, never dropped and never an error.\" (DOCUMENTS.md)"),
    fix: documented!("Nothing, if the field is meant for another tool. Check its spelling if it was meant to be one of the format's fields (the message suggests the closest known one)."),
    example: documented!("steps:\n  - id: a\n    kind: agent\n    allowedtools: [customer.get]   # allowedTools"),
};

/// IN008 (an unused suppression) is reported where suppressions are read.
pub static RULES: &[&Rule] =
    &[&IN001, &IN002, &IN003, &IN004, &IN005, &IN006, &IN007, &super::suppressions::IN008];

/// The input rule a reader's problem is reported under.
pub(crate) fn problem_finding(problem: Problem) -> Finding {
    let rule = match problem.kind {
        ProblemKind::Syntax => &IN001,
        ProblemKind::KeyNotScalar => &IN004,
        ProblemKind::DuplicateKey => &IN005,
        ProblemKind::Limit => &IN006,
    };
    Finding {
        rule,
        message: problem.message,
        pointer: problem.pointer,
        span: problem.span,
        related: problem.related,
        fix: None,
    }
}

/// IN002 and IN003: whether the root is an object of a known kind, so the
/// kind's rules can run.
pub(crate) fn check_root(root: &Node, kind: Option<Kind>, report: &mut Report) -> bool {
    if root.as_object().is_none() {
        report.push(
            &IN002,
            &Ptr::root(),
            At::Value(root),
            format!("The document must be an object (a JSON object or YAML mapping) at the top, not {}.", root.type_name()),
        );
        return false;
    }
    if kind.is_none() {
        report.push(
            &IN003,
            &Ptr::root(),
            At::Missing(root),
            "This is neither an OpenPlaybook document (no `openplaybook`, `steps` or `requires`) nor a plugin manifest (no `tools` with `id`s, no `flows` or `skills`). Add the key that says which, or choose the kind explicitly.",
        );
        return false;
    }
    true
}

/// IN006 for a top-level list (`steps`, `tools`) longer than `limit`;
/// nothing else is then checked. Shared by both kinds; `document` names the
/// kind ("playbook") and `advice` ends the message.
pub(crate) fn over_count_limit(
    root: &Node,
    key: &str,
    limit: usize,
    document: &str,
    advice: &str,
    report: &mut Report,
) -> bool {
    let Some(node) = root.get(key) else { return false };
    let Some(items) = node.as_array() else { return false };
    if items.len() <= limit {
        return false;
    }
    report.push(
        &IN006,
        &Ptr::root().key(key),
        At::Value(node),
        format!("The {document} has {} {key}; the limit is {limit}. {advice}", items.len()),
    );
    true
}
