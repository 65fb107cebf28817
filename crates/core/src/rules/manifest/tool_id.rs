//! PM1xx: a tool's `id` (seed 003, `id`).

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use crate::views::manifest::ManifestView;
use foldhash::{HashMap, HashMapExt};

pub static PM101: Rule = Rule {
    code: "PM101",
    name: "tool-id-missing",
    severity: Severity::Error,
    group: Group::ManifestToolId,
    summary: documented!("A tool without an `id`, or with an empty one."),
    source: documented!("\"`id` string · required\" (seed 003, `tools[]`): models, policies and the audit see a function as `<id>.<function>`."),
    fix: documented!("Give the tool an id that starts with the plugin's name, dashes as underscores: `id: acme_github`."),
    example: documented!("name: acme-github\ntools:\n  - mcp: [python, -m, server]   # no id"),
};

pub static PM102: Rule = Rule {
    code: "PM102",
    name: "tool-id-charset",
    severity: Severity::Error,
    group: Group::ManifestToolId,
    summary: documented!("An `id` with a character other than lowercase letters, digits, `-` and `_`."),
    source: documented!("\"Lowercase letters, digits, dashes and underscores\" (seed 003, `id`)."),
    fix: documented!("Lowercase the id and replace every other character with `_`: `Acme.Fetch` becomes `acme_fetch`."),
    example: documented!("tools:\n  - id: Acme.Fetch\n    mcp: [node, server.js]"),
};

pub static PM103: Rule = Rule {
    code: "PM103",
    name: "tool-id-double-underscore",
    severity: Severity::Error,
    group: Group::ManifestToolId,
    summary: documented!("An `id` that contains `__`."),
    source: documented!("\"… and never `__`, which separates a tool from its function in the names models see (`<tool>__<function>`)\" (seed 003, `id`)."),
    fix: documented!("Use a single underscore: `acme__fetch` becomes `acme_fetch`."),
    example: documented!("tools:\n  - id: acme__fetch\n    mcp: [node, server.js]"),
};

pub static PM104: Rule = Rule {
    code: "PM104",
    name: "tool-id-duplicate",
    severity: Severity::Error,
    group: Group::ManifestToolId,
    summary: documented!("Two tools of the plugin share an `id`; the second is underlined."),
    source: documented!("\"… unique in the plugin and in the tenant\" (seed 003, `id`). Uniqueness in the tenant needs the tenant (`plugin preview` and the install check it); the linter checks the plugin."),
    fix: documented!("Rename one of the two tools, or merge them if they are the same server."),
    example: documented!("tools:\n  - {id: acme_fetch, mcp: [node, a.js]}\n  - {id: acme_fetch, mcp: [node, b.js]}"),
};

pub static PM105: Rule = Rule {
    code: "PM105",
    name: "tool-id-prefix",
    severity: Severity::Warning,
    group: Group::ManifestToolId,
    summary: documented!("An `id` that does not start with the plugin's name (dashes as underscores) or with the name's first dash-separated segment. The prefix must be the whole id or be followed by `_` or `-`: `acmex_fetch` does not start with `acme`, since it would clash with a plugin `acmex`. Not checked without a plugin `name`, nor on an id another PM1xx rule already refuses."),
    source: documented!("\"Start it with the plugin's name, dashes as underscores, or with the name's first dash-separated segment (`acme_github` and `acme_fetch` in `acme-github`), so it cannot clash with another plugin's\" (seed 003, `id`)."),
    fix: documented!("Rename the tool with the plugin's prefix: in plugin `acme-github`, `fetch` becomes `acme_fetch` or `acme_github_fetch`."),
    example: documented!("name: acme-github\ntools:\n  - id: fetch\n    mcp: [node, server.js]"),
};

pub static PM106: Rule = Rule {
    code: "PM106",
    name: "tool-id-reserved",
    severity: Severity::Error,
    group: Group::ManifestToolId,
    summary: documented!("An `id` that starts with `oz0_` (or is `oz0`), the prefix reserved for Orchestrator Zero's verified plugins; `oz0-` only looks like it (PM107)."),
    source: documented!("\"`oz0_` is reserved for Orchestrator Zero's verified plugins\" (seed 003, `id`). Ids may hold dashes, so `oz0-` claims the same prefix and is refused alike (a project decision)."),
    fix: documented!("Start the id with your plugin's name instead: `oz0_helper` in plugin `shady-tools` becomes `shady_helper`."),
    example: documented!("name: shady-tools\ntools:\n  - id: oz0_helper\n    mcp: [node, server.js]"),
};

pub static PM107: Rule = Rule {
    code: "PM107",
    name: "tool-id-lookalike",
    severity: Severity::Warning,
    group: Group::ManifestToolId,
    summary: documented!("An `id` whose prefix only looks like the reserved `oz0_`: `ozo_`, `0z0_`, `0zo_`, `o2o_` and every other mix of `o`/`0` and `z`/`2` in those three places, and `oz0-` with a hyphen; a look-alike is never PM106."),
    source: documented!("\"… and lint warns of a name that only looks like it (`ozo_`, `0z0_`)\" (seed 003, `id`)."),
    fix: documented!("Start the id with your plugin's name, so no reader takes the tool for one of Orchestrator Zero's own."),
    example: documented!("tools:\n  - id: ozo_helper\n    mcp: [node, server.js]"),
};

pub static RULES: &[&Rule] = &[&PM101, &PM102, &PM103, &PM104, &PM105, &PM106, &PM107];

const RESERVED: &str = "oz0";

pub(super) fn check(view: &ManifestView<'_>, report: &mut Report) {
    let mut first_of: HashMap<&str, usize> = HashMap::new();
    for tool in &view.tools {
        let Some(member) = tool.member("id").filter(|m| !m.value.is_null()) else {
            report.push(
                &PM101,
                &tool.ptr,
                At::Missing(tool.node),
                format!("Tool {} has no `id`.", tool.index),
            );
            continue;
        };
        let node = &member.value;
        let id_ptr = tool.ptr.key("id");
        let Some(id) = node.as_str() else { continue };
        if id.is_empty() {
            report.push(
                &PM101,
                &id_ptr,
                At::Value(node),
                format!("Tool {} has an empty `id`.", tool.index),
            );
            continue;
        }
        let bad: String =
            unique_chars(id.chars().filter(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-' | '_')));
        if !bad.is_empty() {
            report.push(
                &PM102,
                &id_ptr,
                At::Value(node),
                format!("Tool id `{id}` has characters other than lowercase letters, digits, `-` and `_`: {bad}."),
            );
        }
        if id.contains("__") {
            report.push(
                &PM103,
                &id_ptr,
                At::Value(node),
                format!("Tool id `{id}` contains `__`, which separates a tool from its function in the names models see (`<tool>__<function>`)."),
            );
        }
        if let Some(&first) = first_of.get(id) {
            report.push(
                &PM104,
                &id_ptr,
                At::Value(node),
                format!("Tool id `{id}` is already the id of tool {first}; each tool's id is unique in the plugin."),
            );
        } else {
            first_of.insert(id, tool.index);
        }
        let lower = id.to_ascii_lowercase();
        let prefix = lower.get(..3).unwrap_or_default();
        let after_prefix = lower.get(3..).unwrap_or_default();
        if prefix == RESERVED && (after_prefix.is_empty() || after_prefix.starts_with('_')) {
            report.push(
                &PM106,
                &id_ptr,
                At::Value(node),
                format!("Tool id `{id}` starts with `oz0_`, which is reserved for Orchestrator Zero's verified plugins."),
            );
        } else if (prefix == RESERVED || looks_like_reserved(prefix))
            && after_prefix.starts_with(['_', '-'])
        {
            report.push(
                &PM107,
                &id_ptr,
                At::Value(node),
                format!("Tool id `{id}` starts with `{}`, which only looks like the reserved `oz0_`; readers may take it for one of Orchestrator Zero's verified tools.", id.get(..4).unwrap_or(id)),
            );
        } else if bad.is_empty() {
            check_prefix(view, id, &id_ptr, node, report);
        }
    }
}

fn check_prefix(
    view: &ManifestView<'_>,
    id: &str,
    ptr: &opb_syntax::Ptr,
    node: &opb_syntax::Node,
    report: &mut Report,
) {
    let Some(name) = view.name else { return };
    let full = name.replace('-', "_");
    let segment = name.split('-').next().unwrap_or(name);
    let starts = |prefix: &str| {
        id.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with(['_', '-']))
    };
    if !starts(&full) && !starts(segment) {
        // The prefixes spell the name with `_` for `-`, a form redaction
        // cannot recognise: a name that is a credential is not spelled out.
        let choices = if crate::diagnostics::credentials::redact(name) != name {
            "the plugin's name and `_`".to_owned()
        } else if full == segment {
            format!("`{full}_`")
        } else {
            format!("`{full}_` or `{segment}_`")
        };
        report.push(
            &PM105,
            ptr,
            At::Value(node),
            format!("Tool id `{id}` does not start with plugin `{name}`'s name; start it with {choices} so it cannot clash with another plugin's tool."),
        );
    }
}

/// `o`/`0` and `z`/`2` mixed in the three places of `oz0`, other than
/// `oz0` itself.
fn looks_like_reserved(prefix: &str) -> bool {
    let b = prefix.as_bytes();
    b.len() == 3
        && matches!(b[0], b'o' | b'0')
        && matches!(b[1], b'z' | b'2')
        && matches!(b[2], b'o' | b'0')
        && prefix != RESERVED
}

/// "`A`, `.`" for the distinct characters, in order of first appearance.
fn unique_chars(chars: impl Iterator<Item = char>) -> String {
    let mut seen = Vec::new();
    for c in chars {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.iter().map(|c| format!("`{}`", c.escape_debug())).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn lookalikes() {
        for p in ["ozo", "0z0", "0zo", "o2o", "o20", "02o"] {
            assert!(super::looks_like_reserved(p), "{p}");
        }
        for p in ["oz0", "abc", "oz", "ozz"] {
            assert!(!super::looks_like_reserved(p), "{p}");
        }
    }
}
