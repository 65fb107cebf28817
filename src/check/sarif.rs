//! `--format sarif`: SARIF 2.1.0, as GitHub code scanning accepts it.
//!
//! A typed subset of the format, written with serde: what opb emits is
//! small, and the tests validate it against the official OASIS schema.
//!
//! Columns are 1-based and count Unicode code points (`columnKind:
//! unicodeCodePoints`): the core counts characters, and that is what a
//! reader of the file counts too. Each result carries its JSON pointer as a
//! logical location and in `properties.pointer`. A finding accepted with a
//! reason is a result too, with `suppressions` (`inSource` for a comment,
//! `external` for the settings) and the reason as `justification`, which
//! code scanning shows as dismissed.

use super::CheckedFile;
use crate::input::Unreadable;
use opb_core::{Diagnostic, Group, Rule, Severity, SuppressionKind};
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::Serialize;
use std::path::Path;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

pub fn render(files: &[CheckedFile], unreadable: &[Unreadable]) -> String {
    let rules = reported_rules(files);
    let results = files
        .iter()
        .flat_map(|file| {
            let reported = file.checked.diagnostics.iter().map(|d| (d, None));
            let suppressed =
                file.checked.suppressed.iter().map(|s| (&s.diagnostic, Some(&s.suppression)));
            reported.chain(suppressed).map(move |(d, suppression)| (file, d, suppression))
        })
        .map(|(file, d, suppression)| {
            let mut result = result(&file.input.name, d, &rules);
            result.suppressions = suppression
                .map(|s| {
                    vec![SarifSuppression {
                        kind: match s.kind {
                            SuppressionKind::InSource => "inSource",
                            SuppressionKind::External => "external",
                        },
                        justification: s.justification.clone(),
                    }]
                })
                .unwrap_or_default();
            result
        })
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "opb",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: env!("CARGO_PKG_REPOSITORY"),
                    rules: rules.iter().map(|rule| descriptor(rule)).collect(),
                },
            },
            invocations: [Invocation {
                execution_successful: unreadable.is_empty(),
                tool_execution_notifications: unreadable.iter().map(notification).collect(),
            }],
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    super::to_json(&log)
}

/// Every rule some file reported, once, in catalogue order.
fn reported_rules(files: &[CheckedFile]) -> Vec<&'static Rule> {
    opb_core::rules()
        .filter(|rule| {
            files.iter().any(|f| {
                let suppressed = f.checked.suppressed.iter().map(|s| &s.diagnostic);
                f.checked.diagnostics.iter().chain(suppressed).any(|d| d.code == rule.code)
            })
        })
        .collect()
}

fn descriptor(rule: &'static Rule) -> ReportingDescriptor {
    ReportingDescriptor {
        id: rule.code,
        name: rule.name,
        short_description: Text { text: rule.summary.to_owned() },
        full_description: Text { text: format!("{} Enforces: {}", rule.summary, rule.source) },
        help: Help {
            text: format!(
                "{}\n\nEnforces: {}\n\nFix: {}\n\nExample of what it reports:\n{}",
                rule.summary,
                rule.source,
                rule.fix,
                rule.example.trim_end()
            ),
            markdown: rule.documentation(),
        },
        default_configuration: Configuration { level: level(rule.severity) },
        properties: RuleProperties { tags: tags(rule) },
    }
}

/// `opb`, the rule's group as the core names it, and `security` for the
/// credential rules, which code scanning lists as security alerts.
fn tags(rule: &Rule) -> Vec<String> {
    let mut tags = vec!["opb".to_owned()];
    if let Ok(serde_json::Value::String(group)) = serde_json::to_value(rule.group) {
        tags.push(group);
    }
    if rule.group == Group::Credentials {
        tags.push("security".to_owned());
    }
    tags
}

fn result(path: &str, d: &Diagnostic, rules: &[&'static Rule]) -> SarifResult {
    SarifResult {
        rule_id: d.code,
        rule_index: rules.iter().position(|rule| rule.code == d.code),
        level: level(d.severity),
        message: Text { text: d.message.clone() },
        locations: [Location {
            id: None,
            message: None,
            physical_location: Some(PhysicalLocation {
                artifact_location: artifact(path),
                region: Some(region(&d.range)),
            }),
            logical_locations: vec![LogicalLocation {
                fully_qualified_name: d.pointer.clone(),
                kind: "element",
            }],
        }],
        related_locations: d
            .related
            .iter()
            .enumerate()
            .map(|(id, related)| Location {
                id: Some(id),
                message: Some(Text { text: related.message.clone() }),
                physical_location: Some(PhysicalLocation {
                    artifact_location: artifact(path),
                    region: Some(region(&related.range)),
                }),
                logical_locations: Vec::new(),
            })
            .collect(),
        properties: ResultProperties { pointer: d.pointer.clone() },
        suppressions: Vec::new(),
    }
}

fn region(range: &opb_core::text::Range) -> Region {
    Region {
        start_line: range.start.line,
        start_column: range.start.column,
        end_line: range.end.line,
        end_column: range.end.column,
    }
}

fn notification(error: &Unreadable) -> Notification {
    Notification {
        level: "error",
        message: Text { text: error.to_string() },
        locations: vec![Location {
            id: None,
            message: None,
            physical_location: Some(PhysicalLocation {
                artifact_location: artifact(&error.name),
                region: None,
            }),
            logical_locations: Vec::new(),
        }],
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Characters a path keeps only percent-encoded in a URI reference.
const URI_ESCAPED: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A path as code scanning wants it: relative to the directory opb runs in
/// (the repository root, in CI), else an absolute `file://` URI.
fn artifact(path: &str) -> ArtifactLocation {
    let as_path = Path::new(path);
    let relative = if as_path.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| as_path.strip_prefix(cwd).ok().map(Path::to_path_buf))
    } else {
        Some(as_path.to_path_buf())
    };
    match relative {
        Some(relative) => {
            let slashed = relative.to_string_lossy().replace('\\', "/");
            let trimmed = slashed.trim_start_matches("./");
            ArtifactLocation { uri: encode(trimmed), uri_base_id: Some("%SRCROOT%") }
        }
        None => {
            let slashed = path.replace('\\', "/");
            let rooted = if slashed.starts_with('/') { slashed } else { format!("/{slashed}") };
            ArtifactLocation { uri: format!("file://{}", encode(&rooted)), uri_base_id: None }
        }
    }
}

fn encode(path: &str) -> String {
    utf8_percent_encode(path, URI_ESCAPED).to_string()
}

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    invocations: [Invocation; 1],
    column_kind: &'static str,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Text,
    full_description: Text,
    help: Help,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    /// Where else the result concerns (the parser's stop for an unclosed
    /// bracket or quote).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    properties: ResultProperties,
    /// Why the result is not reported, when it was accepted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<SarifSuppression>,
}

#[derive(Serialize)]
struct SarifSuppression {
    kind: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    /// A related location's id, unique within its result.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    physical_location: Option<PhysicalLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct ResultProperties {
    pointer: String,
}

#[cfg(test)]
mod tests {
    use super::artifact;

    #[test]
    fn relative_paths_stay_relative_and_are_encoded() {
        let location = artifact("./docs/my playbook#1.yaml");
        assert_eq!(location.uri, "docs/my%20playbook%231.yaml");
        assert_eq!(location.uri_base_id, Some("%SRCROOT%"));
    }

    #[test]
    fn stdin_gets_a_valid_uri() {
        assert_eq!(artifact("<stdin>").uri, "%3Cstdin%3E");
    }

    #[test]
    fn paths_outside_the_working_directory_become_file_uris() {
        let location = artifact("/nonexistent-root/x.json");
        assert_eq!(location.uri, "file:///nonexistent-root/x.json");
        assert_eq!(location.uri_base_id, None);
    }
}
