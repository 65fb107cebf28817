//! `opb convert` and `opb fmt`: the playground's Convert and Format buttons
//! on the command line, through the same `opb-convert` calls, so a file
//! reads the same wherever it was rewritten.

use crate::args::{ConvertArgs, FmtArgs, ReadArgs};
use crate::input::{self, Input};
use crate::output::Output;
use crate::Status;
use opb_convert::Converted;
use opb_core::{Limits, Syntax};
use std::path::Path;

pub fn convert(args: &ConvertArgs, output: &mut Output) -> Status {
    let Some(input) = read(&args.path, &args.stdin_name, output) else { return Status::Failed };
    let Some(converted) = rewrite(&input, args.to.into(), output) else { return Status::Failed };
    note_comments(&input, &converted, output);
    match &args.output {
        None => {
            output.print(&converted.text);
            Status::Clean
        }
        Some(path) => write(path, &converted.text, output),
    }
}

pub fn fmt(args: &FmtArgs, output: &mut Output) -> Status {
    if args.write && args.paths.iter().any(|p| p.as_os_str() == "-") {
        output.error("--write rewrites files; standard input (`-`) has none to rewrite");
        return Status::Failed;
    }
    let mut status = Status::Clean;
    for path in &args.paths {
        let Some(input) = read(path, &args.stdin_name, output) else {
            status = Status::Failed;
            continue;
        };
        let syntax = syntax_of(&input);
        let Some(formatted) = rewrite(&input, syntax, output) else {
            status = Status::Failed;
            continue;
        };
        let unchanged = formatted.text == input.text;
        if args.check {
            if !unchanged {
                output.error(format_args!(
                    "{} is not formatted; `opb fmt --write {}` formats it",
                    input.name, input.name
                ));
                if status == Status::Clean {
                    status = Status::Errors;
                }
            }
        } else if args.write {
            if unchanged {
                continue;
            }
            if formatted.comments_dropped > 0 && !args.drop_comments {
                let note = formatted.comments_note().unwrap_or_default();
                output.error(format_args!(
                    "{}: {note}, so it was not rewritten; --drop-comments rewrites it all the same",
                    input.name
                ));
                status = Status::Failed;
                continue;
            }
            if write(path, &formatted.text, output) == Status::Failed {
                status = Status::Failed;
            }
        } else {
            note_comments(&input, &formatted, output);
            output.print(&formatted.text);
        }
    }
    status
}

/// Reads a text to rewrite: one over the size limit is refused, in the
/// core's words.
fn read(path: &Path, stdin_name: &Option<String>, output: &mut Output) -> Option<Input> {
    let args = ReadArgs { kind: None, stdin_name: stdin_name.clone() };
    let input = input::read(path, &args).map_err(|error| output.error(error)).ok()?;
    match input.whole_text() {
        Ok(_) => Some(input),
        Err(why) => {
            output.error(format_args!("{}: {why}", input.name));
            None
        }
    }
}

/// The syntax a file is written in: as its extension says, else as its text
/// looks.
fn syntax_of(input: &Input) -> Syntax {
    input.syntax.unwrap_or_else(|| Syntax::sniff(&input.text))
}

fn rewrite(input: &Input, to: Syntax, output: &mut Output) -> Option<Converted> {
    opb_convert::convert(&input.text, syntax_of(input), to, &Limits::default())
        .map_err(|error| output.error(format_args!("{}: {error}", input.name)))
        .ok()
}

fn note_comments(input: &Input, converted: &Converted, output: &mut Output) {
    if let Some(note) = converted.comments_note() {
        output.note(format_args!("{}: {note}.", input.name));
    }
}

pub fn write(path: &Path, text: &str, output: &mut Output) -> Status {
    match std::fs::write(path, text) {
        Ok(()) => Status::Clean,
        Err(error) => {
            output.error(format_args!("cannot write {}: {error}", path.display()));
            Status::Failed
        }
    }
}
