//! A baseline: the findings a repository had when it adopted opb, so that
//! a check reports only new ones. `--write-baseline FILE` records every
//! finding as its file, code and JSON pointer (not its line, so an edit
//! above a finding keeps it matched); `--baseline FILE` accepts each
//! finding it records, once per entry, as suppressed (kept in the reports
//! with the baseline named as the reason), and counts the entries that no
//! longer occur. Paths are relative to the baseline's folder, so the check
//! may run from anywhere in the repository.

use super::CheckedFile;
use opb_core::{Counts, Suppressed, Suppression, SuppressionKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    code: String,
    pointer: String,
}

/// A baseline read, with how many of its entries matched a finding.
pub struct Baseline {
    path: PathBuf,
    folder: PathBuf,
    /// Each entry and how many times it may still match.
    entries: BTreeMap<Entry, usize>,
}

/// What applying a baseline came to.
pub struct Applied {
    /// Entries in the baseline.
    pub entries: usize,
    /// Entries that matched no finding.
    pub stale: usize,
}

/// `path` as the baseline at `folder` names it: relative, with `/`.
fn key(folder: &Path, name: &str) -> String {
    let absolute = real(Path::new(name));
    let relative = absolute.strip_prefix(folder).map_or(absolute.as_path(), |p| p);
    relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The folder of the baseline at `path`, which may not exist yet.
fn folder_of(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    real(absolute.parent().unwrap_or(Path::new("/")))
}

/// `path` with links and `..` resolved, when it exists; else absolute.
fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Writes every finding of `files` to the baseline at `path`.
pub fn write(path: &Path, files: &[CheckedFile]) -> Result<usize, String> {
    let folder = folder_of(path);
    let mut findings: Vec<Entry> = files
        .iter()
        .flat_map(|file| {
            let name = key(&folder, &file.input.name);
            file.checked.diagnostics.iter().map(move |d| Entry {
                path: name.clone(),
                code: d.code.to_owned(),
                pointer: d.pointer.clone(),
            })
        })
        .collect();
    findings.sort();
    let count = findings.len();
    let text = super::to_json(&File { version: FORMAT_VERSION, findings });
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(count)
}

impl Baseline {
    /// Reads the baseline at `path`; why not, in a sentence.
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let shown = path.display();
        let text = crate::input::read_text(path)
            .map_err(|why| format!("cannot read the baseline {shown}: {why}"))?;
        let file: File = serde_json::from_str(&text).map_err(|e| {
            format!("the baseline {shown} is not one `opb check --write-baseline` writes: {e}")
        })?;
        if file.version != FORMAT_VERSION {
            return Err(format!(
                "the baseline {shown} is of version {}; this opb reads version {FORMAT_VERSION}: write it again",
                file.version
            ));
        }
        let mut entries = BTreeMap::new();
        for entry in file.findings {
            *entries.entry(entry).or_default() += 1;
        }
        Ok(Baseline { path: path.to_path_buf(), folder: folder_of(path), entries })
    }

    /// Moves each finding the baseline records to the file's suppressed
    /// findings, and counts what is left of the baseline.
    pub fn apply(mut self, files: &mut [CheckedFile]) -> Applied {
        let entries = self.entries.values().sum();
        let justification = format!("in the baseline {}", self.path.display());
        for file in files.iter_mut() {
            let name = key(&self.folder, &file.input.name);
            let diagnostics = std::mem::take(&mut file.checked.diagnostics);
            for d in diagnostics {
                let entry = Entry {
                    path: name.clone(),
                    code: d.code.to_owned(),
                    pointer: d.pointer.clone(),
                };
                match self.entries.get_mut(&entry).filter(|left| **left > 0) {
                    Some(left) => {
                        *left -= 1;
                        let suppression = Suppression {
                            kind: SuppressionKind::External,
                            justification: justification.clone(),
                        };
                        file.checked.suppressed.push(Suppressed { diagnostic: d, suppression });
                    }
                    None => file.checked.diagnostics.push(d),
                }
            }
            file.checked.counts = Counts::of(&file.checked.diagnostics);
        }
        Applied { entries, stale: self.entries.values().sum() }
    }
}
