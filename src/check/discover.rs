//! Which files `opb check` reads: each path named, and in each directory
//! named the files a walk finds that the settings choose.
//!
//! The walk is the `ignore` crate's, the one ripgrep and ruff use: it skips
//! what `.gitignore`, `.ignore` and git's global excludes leave out, and
//! hidden files and directories. A file named on the command line is always
//! read, whatever the settings say.

use crate::input::{Cause, Unreadable};
use std::path::{Path, PathBuf};

/// A file to read, in the order reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The path to read, as named or as the walk found it.
    pub path: PathBuf,
    /// Named on the command line (or standard input), not found by a walk.
    pub named: bool,
}

/// The files under `paths`: a directory's as `chooses` says, sorted by path
/// within it; a file (or `-`) as named. A directory that cannot be walked
/// in part is reported, and the rest still read.
pub fn discover(
    paths: &[PathBuf],
    chooses: &mut dyn FnMut(&Path) -> bool,
) -> (Vec<Chosen>, Vec<Unreadable>) {
    let mut chosen = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            let mut found = Vec::new();
            for entry in ignore::WalkBuilder::new(path).build() {
                match entry {
                    Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                        let found_path = shown(entry.path());
                        if chooses(&found_path) {
                            found.push(found_path);
                        }
                    }
                    Ok(_) => {}
                    Err(error) => unreadable.push(walk_error(path, &error)),
                }
            }
            found.sort();
            chosen.extend(found.into_iter().map(|path| Chosen { path, named: false }));
        } else {
            chosen.push(Chosen { path: path.clone(), named: true });
        }
    }
    (chosen, unreadable)
}

/// A path found under `.` without its `./`, as people write it.
fn shown(path: &Path) -> PathBuf {
    path.strip_prefix(".").map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

fn walk_error(root: &Path, error: &ignore::Error) -> Unreadable {
    Unreadable {
        name: root.display().to_string(),
        reason: format!("part of it could not be walked: {error}"),
        cause: Cause::Io,
    }
}
