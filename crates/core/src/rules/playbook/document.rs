//! PB1xx: the document and its version, and the shape (IN004, IN007) of the top level.

use crate::diagnostics::prose::and_list;
use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::rules::input::IN004;
use crate::rules::playbook::requires::REQUIRES_FIELDS;
use crate::rules::playbook::steps::STEP_FIELDS;
use crate::rules::playbook::tools::TOOL_FIELDS;
use crate::rules::{check_fields, expect_objects, Field, Holds, Ty};
use crate::views::playbook::PlaybookView;
use crate::views::spec::CURRENT_VERSION;
use foldhash::{HashSet, HashSetExt};
use opb_syntax::{Node, Ptr, Value};

pub static PB101: Rule = Rule {
    code: "PB101",
    name: "version-assumed",
    severity: Severity::Info,
    group: Group::PlaybookDocument,
    summary: documented!("The document states no `openplaybook` version; it is checked as the current version, 1.6."),
    source: documented!("\"The version is the top-level string `openplaybook` (\"MAJOR.MINOR\"). Absent: treated as the current version, 1.6, and said so as an info.\" (DOCUMENTS.md §1)"),
    fix: documented!("Add the version the document was written for at the top: `\"openplaybook\": \"1.6\"`."),
    example: documented!("{\n  \"id\": \"failed-charge-recovery\",\n  \"steps\": [ ... ]\n}"),
};

pub static PB102: Rule = Rule {
    code: "PB102",
    name: "version-unsupported",
    severity: Severity::Warning,
    group: Group::PlaybookDocument,
    summary: documented!("`openplaybook` is not written MAJOR.MINOR (two whole numbers, no leading zeros), or names a version newer than 1.6, the latest opb knows. Either way the document is checked as 1.6."),
    source: documented!("\"The version is the top-level string `openplaybook` (\"MAJOR.MINOR\").\" (DOCUMENTS.md §1). A YAML author who writes `openplaybook: 1.6` gets a number, not a string; opb accepts it, because it reads the number as written and every YAML or JSON reader turns `1.6` back into the same version. It does not accept a number whose minor part ends in zero, such as `1.10`: a reader that loads it as a number sees 1.1, another version, so it must be quoted."),
    fix: documented!("Write the version as a quoted \"MAJOR.MINOR\" string, e.g. `\"openplaybook\": \"1.6\"`. For a newer version, check the document against that version's specification too: opb cannot check what came after 1.6."),
    example: documented!("openplaybook: 1.10   # a YAML number: read as 1.1 elsewhere; write \"1.10\""),
};

pub static PB103: Rule = Rule {
    code: "PB103",
    name: "pre16-mcp-or-secrets",
    severity: Severity::Warning,
    group: Group::PlaybookDocument,
    summary: documented!("The document's version is older than 1.6 but it declares MCP servers or secrets in `requires`, or a step allows an `mcp.` tool: features a pre-1.6 reader does not know."),
    source: documented!("`requires.mcpServers` and `requires.secrets` are \"[] on pre-1.6 documents\" (seed 000, The requires declaration); MCP tool names compose from those servers (\"mcp.<server>.<tool> where <server> is a logical name the document declares in requires.mcpServers\", seed 000)."),
    fix: documented!("Set `openplaybook` to \"1.6\" if the document is meant for 1.6, or remove the MCP servers, secrets and `mcp.` tools for an older reader."),
    example: documented!("openplaybook: \"1.5\"\nrequires:\n  connections: []\n  mcpServers:\n    - name: acme"),
};

pub static PB104: Rule = Rule {
    code: "PB104",
    name: "steps-missing",
    severity: Severity::Error,
    group: Group::PlaybookDocument,
    summary: documented!("The playbook has no `steps` list, or the list is empty: there is nothing to run."),
    source: documented!("A playbook is its steps: \"A step declares the tools it is allowed to call … That allow-list is the step's capability boundary\" (seed 000, Tools & capabilities); `steps[]` is the list of them (DOCUMENTS.md §1)."),
    fix: documented!("Add a `steps` list with at least one step, e.g. `{\"id\": \"recover\", \"kind\": \"agent\", \"agent\": \"lou\", \"purpose\": \"…\", \"allowedTools\": []}`."),
    example: documented!("{\n  \"openplaybook\": \"1.6\",\n  \"requires\": { \"connections\": [] },\n  \"steps\": []\n}"),
};

pub static RULES: &[&Rule] = &[&PB101, &PB102, &PB103, &PB104];

/// The top-level fields of a playbook. `openplaybook` is checked by
/// [`check_version`], which also accepts a number.
pub(crate) const TOP_LEVEL: &[Field] = &[
    Field::new("$schema", Ty::String).doc(SCHEMA_KEY),
    Field::new("openplaybook", Ty::Any)
        .doc("The version is the top-level string `openplaybook` (\"MAJOR.MINOR\"). Absent: treated as the current version, 1.6, and said so as an info."),
    Field::new("id", Ty::String).doc("`id`, `name`, `description` at the top are optional metadata."),
    Field::new("name", Ty::String).doc("`id`, `name`, `description` at the top are optional metadata."),
    Field::new("description", Ty::String).doc("`id`, `name`, `description` at the top are optional metadata."),
    Field::new("manifest", Ty::Object).holds(Holds::Object(MANIFEST)),
    Field::new("requires", Ty::Object).holds(Holds::Object(REQUIRES_FIELDS)).doc(
        "The envelope's requires block is the machine-readable statement of what a harness must satisfy before the playbook can run: provider connections, MCP servers by logical name, and named secrets. Names and purposes only; never credentials.",
    ),
    Field::new("tools", Ty::Array).holds(Holds::Items(TOOL_FIELDS)).doc(
        "A document carries the definitions of the tools it references in its tools array, so a foreign reader can explain what the playbook does without any registry.",
    ),
    Field::new("steps", Ty::Array).holds(Holds::Items(STEP_FIELDS)).doc(
        "A step declares the tools it is allowed to call; it never imports them. That allow-list is the step's capability boundary, and a conforming runtime honors it as one.",
    ),
    Field::new("start", Ty::String).doc("`start` names the first step; absent: the first step in `steps`."),
];

/// The `$schema` key either kind may carry: a hint for editors, which no
/// seed names, so the sentence is the project's.
pub(crate) const SCHEMA_KEY: &str = "The JSON Schema this document is written against (`opb schema` prints it), for editors; opb reads nothing else from it.";

const MANIFEST: &[Field] = &[Field::new("requiredConnectors", Ty::StringArray)
    .doc("`requires` with `connections` (required), `mcpServers`, `secrets`, and `manifest.requiredConnectors` (one connection per member).")];

pub(super) fn check(view: &PlaybookView<'_>, report: &mut Report) {
    let top = Ptr::root();
    check_fields(report, view.root, &top, TOP_LEVEL, "the playbook");
    if let Some(manifest) = view.root.get("manifest") {
        check_fields(report, manifest, &top.key("manifest"), MANIFEST, "`manifest`");
    }
    if let Some(start) = view.start.filter(|s| s.is_null()) {
        report.push(
            &IN004,
            &top.key("start"),
            At::Value(start),
            "`start` must be a string (the id of the first step), not null. Remove it to start at the first step.",
        );
    }
    let version = check_version(view, report);
    if let Some(version) = version {
        check_pre16(view, version, report);
    }
    check_steps_list(view.root, report);
}

/// How the document states its version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declared {
    /// A MAJOR.MINOR version, as a string or an unambiguous number.
    Version(u32, u32),
    /// A number whose minor part ends in zero (`1.10`): other readers load it
    /// as another version.
    AmbiguousNumber(u32, u32),
    /// Text that is not MAJOR.MINOR.
    Malformed,
}

/// Reads MAJOR.MINOR: two runs of ASCII digits, without leading zeros (so
/// `1.06` is not taken for 1.6).
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.split_once('.')?;
    Some((version_part(major)?, version_part(minor)?))
}

fn version_part(part: &str) -> Option<u32> {
    let digits = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let leading_zero = part.len() > 1 && part.starts_with('0');
    if digits && !leading_zero {
        part.parse().ok()
    } else {
        None
    }
}

/// Classifies a non-null `openplaybook` value; `None` for a type that can
/// hold no version at all (a boolean, a list, an object).
fn declared(node: &Node) -> Option<Declared> {
    match &node.value {
        Value::String(text) => {
            Some(parse_version(text).map_or(Declared::Malformed, |(a, b)| Declared::Version(a, b)))
        }
        Value::Number(number) => Some(match parse_version(&number.raw) {
            Some((major, minor)) if minor > 0 && minor % 10 == 0 => {
                Declared::AmbiguousNumber(major, minor)
            }
            Some((major, minor)) => Declared::Version(major, minor),
            None => Declared::Malformed,
        }),
        _ => None,
    }
}

/// PB101, PB102 and the type of `openplaybook`. Returns the version when the
/// document states a usable one at or below the current version.
fn check_version(view: &PlaybookView<'_>, report: &mut Report) -> Option<(u32, u32)> {
    let ptr = Ptr::root().key("openplaybook");
    let (current_major, current_minor) = CURRENT_VERSION;
    let node = match view.version {
        None => {
            report.push(
                &PB101,
                &Ptr::root(),
                At::Missing(view.root),
                format!(
                    "The document states no `openplaybook` version; it is checked as {current_major}.{current_minor}, the current version. Add `openplaybook: \"{current_major}.{current_minor}\"` at the top."
                ),
            );
            return None;
        }
        Some(node) if node.is_null() => {
            report.push(
                &PB101,
                &ptr,
                At::Value(node),
                format!("`openplaybook` is null; the document is checked as {current_major}.{current_minor}, the current version. Write the version, e.g. \"{current_major}.{current_minor}\"."),
            );
            return None;
        }
        Some(node) => node,
    };
    let Some(declared) = declared(node) else {
        report.push(
            &IN004,
            &ptr,
            At::Value(node),
            format!("`openplaybook` must be a string such as \"{current_major}.{current_minor}\" (MAJOR.MINOR), not {}.", node.type_name()),
        );
        return None;
    };
    let text = node.scalar_text().unwrap_or_default();
    match declared {
        Declared::Malformed => {
            report.push(
                &PB102,
                &ptr,
                At::Value(node),
                format!("`openplaybook` is `{text}`, which is not a MAJOR.MINOR version such as \"{current_major}.{current_minor}\"; the document is checked as {current_major}.{current_minor}."),
            );
            None
        }
        Declared::AmbiguousNumber(major, minor) => {
            report.push(
                &PB102,
                &ptr,
                At::Value(node),
                format!("`openplaybook` is the number {text}, which other readers load as {}; quote it: \"{major}.{minor}\".", trim_number(&text)),
            );
            None
        }
        Declared::Version(major, minor) if (major, minor) > CURRENT_VERSION => {
            report.push(
                &PB102,
                &ptr,
                At::Value(node),
                format!("`openplaybook` is {major}.{minor}, newer than {current_major}.{current_minor}, the latest version opb knows; the document is checked as {current_major}.{current_minor}, and what came later may be reported as unknown."),
            );
            None
        }
        Declared::Version(major, minor) => Some((major, minor)),
    }
}

/// A decimal number as a float reader prints it: `1.10` is `1.1`.
fn trim_number(text: &str) -> &str {
    text.trim_end_matches('0').trim_end_matches('.')
}

/// MCP tools named in a PB103 message, at most.
const LISTED_TOOLS: usize = 3;

/// PB103: what 1.6 introduced, in a document older than 1.6.
fn check_pre16(view: &PlaybookView<'_>, (major, minor): (u32, u32), report: &mut Report) {
    if (major, minor) >= CURRENT_VERSION {
        return;
    }
    let mut used = Vec::new();
    let requires = &view.requires;
    for (field, node) in
        [("mcpServers", requires.mcp_servers_node), ("secrets", requires.secrets_node)]
    {
        if node.and_then(Node::as_array).is_some_and(|items| !items.is_empty()) {
            used.push(format!("`requires.{field}`"));
        }
    }
    let mut seen = HashSet::new();
    let mcp_tools: Vec<&str> = view
        .steps
        .iter()
        .flat_map(|s| &s.allowed_tools)
        .map(|n| n.name)
        .filter(|name| name.starts_with("mcp.") && seen.insert(*name))
        .collect();
    if !mcp_tools.is_empty() {
        let mut names: Vec<String> =
            mcp_tools.iter().take(LISTED_TOOLS).map(|n| format!("`{n}`")).collect();
        if mcp_tools.len() > LISTED_TOOLS {
            names.push(format!("{} more", mcp_tools.len() - LISTED_TOOLS));
        }
        used.push(format!(
            "the MCP tool{} {}",
            if mcp_tools.len() == 1 { "" } else { "s" },
            and_list(&names)
        ));
    }
    if used.is_empty() {
        return;
    }
    let Some(node) = view.version else { return };
    let (current_major, current_minor) = CURRENT_VERSION;
    report.push(
        &PB103,
        &Ptr::root().key("openplaybook"),
        At::Value(node),
        format!(
            "The document is version {major}.{minor}, but has {}: MCP servers and secrets came in {current_major}.{current_minor}, and are [] before it. Set `openplaybook` to \"{current_major}.{current_minor}\", or remove them.",
            and_list(&used)
        ),
    );
}

/// PB104, and IN004 for items of `steps` that are not objects.
fn check_steps_list(root: &Node, report: &mut Report) {
    let ptr = Ptr::root().key("steps");
    match root.get("steps") {
        None => report.push(
            &PB104,
            &Ptr::root(),
            At::Missing(root),
            "The playbook has no `steps`: there is nothing to run. Add a `steps` list.",
        ),
        Some(node) if node.is_null() => report.push(
            &PB104,
            &ptr,
            At::Value(node),
            "`steps` is null: there is nothing to run. Make it a list of steps.",
        ),
        Some(node) => match node.as_array() {
            Some([]) => report.push(
                &PB104,
                &ptr,
                At::Value(node),
                "`steps` is empty: there is nothing to run. Add at least one step.",
            ),
            Some(_) => expect_objects(
                report,
                Some(node),
                &ptr,
                "Each entry of `steps`",
                Some("a step with an `id` and a `kind`"),
            ),
            // Another type is IN004, reported by the top-level shape check.
            None => {}
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opb_syntax::{parse, Limits, Syntax};

    /// The findings of the top level for a YAML playbook, as `CODE pointer`.
    fn found(yaml: &str) -> Vec<String> {
        let options = crate::Options { syntax: Some(Syntax::Yaml), ..crate::Options::default() };
        crate::check(yaml, &options)
            .diagnostics
            .iter()
            .filter(|d| {
                ["IN004", "IN007", "PB101", "PB102", "PB103", "PB104", "PB214"].contains(&d.code)
            })
            .map(|d| format!("{} {}", d.code, d.pointer))
            .collect()
    }

    #[test]
    fn the_version_is_a_string_a_number_or_nothing() {
        let steps = "steps: [{id: a, kind: gate}]\n";
        assert_eq!(found(&format!("openplaybook: \"1.6\"\n{steps}")), Vec::<String>::new());
        assert_eq!(found(&format!("openplaybook: 1.6\n{steps}")), Vec::<String>::new());
        assert_eq!(found(&format!("openplaybook: 1.7\n{steps}")), ["PB102 /openplaybook"]);
        assert_eq!(found(&format!("openplaybook: true\n{steps}")), ["IN004 /openplaybook"]);
        assert_eq!(found(&format!("openplaybook: null\n{steps}")), ["PB101 /openplaybook"]);
        assert_eq!(found(steps), ["PB101 "]);
    }

    #[test]
    fn steps_must_be_a_non_empty_list_of_objects() {
        let top = "openplaybook: \"1.6\"\n";
        assert_eq!(found(top), ["PB104 "]);
        assert_eq!(found(&format!("{top}steps: []\nstart: a\n")), ["PB104 /steps"]);
        assert_eq!(found(&format!("{top}steps: null\n")), ["PB104 /steps"]);
        assert_eq!(found(&format!("{top}steps: {{a: 1}}\n")), ["IN004 /steps"]);
        assert_eq!(found(&format!("{top}steps: [a, {{id: b, kind: gate}}]\n")), ["IN004 /steps/0"]);
    }

    #[test]
    fn the_top_level_and_manifest_are_typed() {
        let yaml = "openplaybook: \"1.6\"\nname: [x]\nstart: null\nmanifest: {requiredConnectors: [stripe, 3], owner: x}\nauthor: me\nsteps: [{id: a, kind: gate}]\n";
        assert_eq!(
            found(yaml),
            [
                "IN004 /name",
                "IN004 /start",
                "IN004 /manifest/requiredConnectors/1",
                "IN007 /manifest/owner",
                "IN007 /author"
            ]
        );
    }

    fn version_of(yaml: &str) -> Option<Declared> {
        let root = parse(yaml, Syntax::Yaml, &Limits::default()).root.expect("a tree");
        root.get("openplaybook").and_then(declared)
    }

    #[test]
    fn versions_are_two_whole_numbers_without_leading_zeros() {
        assert_eq!(parse_version("1.6"), Some((1, 6)));
        assert_eq!(parse_version("2.0"), Some((2, 0)));
        assert_eq!(parse_version("1.10"), Some((1, 10)));
        for bad in [
            "1",
            "1.6.0",
            "v1.6",
            "1.",
            ".6",
            "+1.6",
            "1.+6",
            "01.6",
            "1.06",
            "1.6 ",
            "1,6",
            "",
            "99999999999.1",
        ] {
            assert_eq!(parse_version(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_yaml_number_is_read_as_written() {
        assert_eq!(version_of("openplaybook: 1.6"), Some(Declared::Version(1, 6)));
        assert_eq!(version_of("openplaybook: \"1.6\""), Some(Declared::Version(1, 6)));
        assert_eq!(version_of("openplaybook: 2.0"), Some(Declared::Version(2, 0)));
        assert_eq!(version_of("openplaybook: 1.10"), Some(Declared::AmbiguousNumber(1, 10)));
        assert_eq!(version_of("openplaybook: \"1.10\""), Some(Declared::Version(1, 10)));
        assert_eq!(version_of("openplaybook: 2"), Some(Declared::Malformed));
        assert_eq!(version_of("openplaybook: 1.6e0"), Some(Declared::Malformed));
        assert_eq!(version_of("openplaybook: true"), None);
        assert_eq!(version_of("openplaybook: [1, 6]"), None);
    }

    #[test]
    fn a_float_reader_drops_trailing_zeros() {
        assert_eq!(trim_number("1.10"), "1.1");
        assert_eq!(trim_number("2.00"), "2");
    }
}
