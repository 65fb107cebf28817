//! `--format json`: one document for programs.
//!
//! `{"version":1,"files":[{"path","role","kind","diagnostics":[…]}]}`; each
//! diagnostic is the core's `Diagnostic` as it serializes. `version` changes
//! only when a field is removed or changes meaning; fields may be added.

use super::{CheckedFile, Role};
use opb_core::{Counts, Diagnostic, Kind, Syntax};
use serde::Serialize;

const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    files: Vec<File<'a>>,
}

#[derive(Serialize)]
struct File<'a> {
    path: &'a str,
    /// `document`, or `registry` for the file given with `--registry`.
    role: &'static str,
    /// `playbook`, `plugin-manifest`, or null when the kind is not known.
    kind: Option<Kind>,
    syntax: Syntax,
    counts: Counts,
    diagnostics: &'a [Diagnostic],
}

pub fn render(files: &[CheckedFile]) -> String {
    let report = Report {
        version: FORMAT_VERSION,
        files: files
            .iter()
            .map(|f| File {
                path: &f.input.name,
                role: match f.role {
                    Role::Document => "document",
                    Role::Registry { .. } => "registry",
                },
                kind: f.checked.kind,
                syntax: f.checked.syntax,
                counts: f.checked.counts,
                diagnostics: &f.checked.diagnostics,
            })
            .collect(),
    };
    super::to_json(&report)
}
