//! `--format json`: one document for programs.
//!
//! `{"version":1,"files":[{"path","role","kind","diagnostics":[…]}]}`; each
//! diagnostic is the core's `Diagnostic` as it serializes. A file that
//! could not be read is an entry too, after the others, with an `error`
//! (`message`, `reason`), no kind or syntax and no diagnostics, so a
//! program reading the report never loses a file. `version` changes only
//! when a field is removed or changes meaning; fields may be added.

use super::{CheckedFile, Role};
use crate::input::{Cause, Unreadable};
use opb_core::{Counts, Diagnostic, Kind, Suppressed, Syntax};
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
    /// The syntax read; null for a file that could not be read.
    syntax: Option<Syntax>,
    counts: Counts,
    diagnostics: &'a [Diagnostic],
    /// The findings accepted with a reason: each a diagnostic with its
    /// `suppression` (`kind`, `justification`). Left out when none.
    #[serde(skip_serializing_if = "<[Suppressed]>::is_empty")]
    suppressed: &'a [Suppressed],
    /// Why the file could not be read; absent for a file that was.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ReadError>,
}

#[derive(Serialize)]
struct ReadError {
    /// What stderr says: "cannot read x.json: no such file; check the path".
    message: String,
    /// `not-found`, `permission-denied`, `is-a-directory`, `utf16`,
    /// `not-utf8`, `not-a-file` or `io`.
    reason: Cause,
}

pub fn render(files: &[CheckedFile], unreadable: &[Unreadable]) -> String {
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
                syntax: Some(f.checked.syntax),
                counts: f.checked.counts,
                diagnostics: &f.checked.diagnostics,
                suppressed: &f.checked.suppressed,
                error: None,
            })
            .chain(unreadable.iter().map(|u| File {
                path: &u.name,
                role: "document",
                kind: None,
                syntax: None,
                counts: Counts::default(),
                diagnostics: &[],
                suppressed: &[],
                error: Some(ReadError { message: u.to_string(), reason: u.cause }),
            }))
            .collect(),
    };
    super::to_json(&report)
}
