//! `opb diff OLD NEW`: what changed between two versions of a document in
//! what it may do. The core compares the two explain views; this module
//! reads the files and renders the changes for people, programs or a
//! pull-request comment.

mod human;
mod markdown;

use crate::args::{DiffArgs, DiffFormat, FailOn};
use crate::input::{self, Input};
use crate::output::Output;
use crate::Status;
use opb_core::explain::diff::{words, Diff, Impact};
use opb_core::{Analysis, Options};
use serde::Serialize;

/// The two versions, as named on the command line.
pub struct Versions<'a> {
    pub old: &'a str,
    pub new: &'a str,
}

pub fn run(args: &DiffArgs, output: &mut Output) -> Status {
    if args.old.as_os_str() == "-" && args.new.as_os_str() == "-" {
        output.error("standard input (`-`) can be named only once; name the other files by path");
        return Status::Failed;
    }
    let read = |path| -> Result<(Input, Analysis), String> {
        let input = input::read(path, &args.read).map_err(|e| e.to_string())?;
        let analysis =
            input.analyze(Options { kind: args.read.kind.map(Into::into), ..Options::default() });
        Ok((input, analysis))
    };
    let ((old, old_analysis), (new, new_analysis)) = match (read(&args.old), read(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            for error in [old.err(), new.err()].into_iter().flatten() {
                output.error(error);
            }
            return Status::Failed;
        }
    };
    let diff = match opb_core::diff(&old_analysis, &new_analysis) {
        Ok(diff) => diff,
        Err(error) => {
            output.error(format_args!("cannot compare {} with {}: {error}", old.name, new.name));
            return Status::Failed;
        }
    };
    let versions = Versions { old: &old.name, new: &new.name };
    match args.format {
        DiffFormat::Human => output.print_for_people(&human::render(&versions, &diff)),
        DiffFormat::Json => output.print(&json(&versions, &diff)),
        DiffFormat::Markdown => output.print(&markdown::render(&versions, &diff)),
    }
    let fails = match args.fail_on {
        FailOn::Never => false,
        FailOn::Widened => diff.changes.iter().any(|c| c.impact == Impact::Widens),
        FailOn::Any => !diff.is_empty(),
    };
    if fails {
        Status::Errors
    } else {
        Status::Clean
    }
}

/// `{"version":1,"old","new","kind","changes","summary"}`: the core's diff
/// with the two names. `version` changes only when a field is removed or
/// changes meaning.
fn json(versions: &Versions<'_>, diff: &Diff) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        version: u32,
        old: &'a str,
        new: &'a str,
        #[serde(flatten)]
        diff: &'a Diff,
    }
    crate::check::to_json(&Report { version: 1, old: versions.old, new: versions.new, diff })
}
