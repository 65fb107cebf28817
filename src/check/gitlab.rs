//! `--format gitlab`: GitLab's Code Quality report, the JSON array of
//! issues a merge request's widget and diff show (every GitLab tier reads
//! it as an `artifacts:reports:codequality`):
//!
//! ```json
//! [{"description": "…", "check_name": "PB213", "fingerprint": "…", "severity": "critical",
//!   "location": {"path": "playbook.yaml", "lines": {"begin": 6}}}]
//! ```
//!
//! The fingerprint identifies a finding across runs (GitLab tells new from
//! fixed ones by it): a SHA-256 of the file's path, the code, the JSON
//! pointer and, for a repeated one, its count; not the line, so an edit
//! above a finding keeps its fingerprint. A file that could not be read is
//! an issue of its own, at line 1.

use super::CheckedFile;
use crate::input::Unreadable;
use opb_core::Severity;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

pub fn render(files: &[CheckedFile], unreadable: &[Unreadable]) -> String {
    let mut issues = Vec::new();
    let mut seen: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for file in files {
        for d in &file.checked.diagnostics {
            let count = seen.entry((&file.input.name, d.code, &d.pointer)).or_default();
            *count += 1;
            issues.push(Issue {
                description: format!("{} {}: {}", d.code, d.name, d.message),
                check_name: d.code,
                fingerprint: fingerprint(&[&file.input.name, d.code, &d.pointer], *count),
                severity: severity(d.severity),
                location: Location {
                    path: &file.input.name,
                    lines: Lines { begin: d.range.start.line.max(1) },
                },
            });
        }
    }
    for error in unreadable {
        issues.push(Issue {
            description: error.to_string(),
            check_name: "opb",
            fingerprint: fingerprint(&[&error.name, "unreadable"], 1),
            severity: "blocker",
            location: Location { path: &error.name, lines: Lines { begin: 1 } },
        });
    }
    super::to_json(&issues)
}

/// GitLab's severities: an error fails the check (`critical`), a warning
/// is `minor`, an info `info`.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The hex SHA-256 of the parts and the count, each part ended by a NUL so
/// no two lists of parts run together alike.
fn fingerprint(parts: &[&str], count: usize) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.update(count.to_string().as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
