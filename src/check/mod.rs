//! `opb check`: read each file, hand it to the core, render what it found.
//! With `--registry`, the registry is read once, listed first with its own
//! problems, and handed to the core with every document.

mod baseline;
mod discover;
mod fix;
mod github;
mod gitlab;
mod human;
mod json;
mod junit;
mod sarif;

use crate::args::{CheckArgs, CheckFormat};
use crate::config::Configs;
use crate::input::{self, Input, Unreadable};
use crate::output::Output;
use crate::Status;
use opb_core::{Checked, Counts, Limits, Masking, Options, Registry, RuleSettings};
use opb_render::words::plural;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a file is to the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A document to check.
    Document,
    /// The registry the documents' tools are compared with, and how many
    /// tool names it defines.
    Registry { tools: usize },
}

/// One file and what the core found in it.
pub struct CheckedFile {
    pub input: Input,
    pub checked: Checked,
    pub role: Role,
}

/// What all files together came to.
#[derive(Debug, Default)]
pub struct Totals {
    pub counts: Counts,
    /// Files read and checked.
    pub files: usize,
    /// Files that could not be read.
    pub unreadable: usize,
    /// Findings accepted with a reason, not counted in `counts`.
    pub suppressed: usize,
}

pub fn run(args: &CheckArgs, output: &mut Output) -> Status {
    if args.paths.iter().chain(&args.registry).filter(|p| p.as_os_str() == "-").count() > 1 {
        output.error("standard input (`-`) can be named only once; name the other files by path");
        return Status::Failed;
    }
    let mut configs = Configs::new((&args.settings).into());
    let here = [PathBuf::from(".")];
    let paths = if args.paths.is_empty() { &here[..] } else { &args.paths[..] };
    let (chosen, mut unreadable) = discover::discover(paths, &mut |path| configs.chooses(path));
    // Each file's rules and registry, from the settings that apply to it;
    // standard input has those of the current folder.
    let applying: Vec<(RuleSettings, Option<PathBuf>)> = chosen
        .iter()
        .map(|chosen| {
            let (rules, registry) = configs.applying(&chosen.path);
            (rules, args.registry.clone().or(registry))
        })
        .collect();
    if !configs.errors.is_empty() {
        for error in &configs.errors {
            output.error(error);
        }
        return Status::Failed;
    }
    let mut files = Vec::new();
    let mut registries: Vec<(PathBuf, Arc<Registry>)> = Vec::new();
    for path in applying.iter().filter_map(|(_, registry)| registry.as_ref()) {
        if registries.iter().any(|(read, _)| read == path) {
            continue;
        }
        match read_registry(path, &args.read) {
            Ok((file, registry)) => {
                files.push(file);
                registries.push((path.clone(), registry));
            }
            Err(error) => {
                // Checking without the registry asked for would pass off
                // documents as compared: nothing is checked.
                output.error(format_args!("the registry: {error}"));
                return Status::Failed;
            }
        }
    }
    let registry_of = |path: &Option<PathBuf>| {
        let path = path.as_ref()?;
        registries.iter().find(|(read, _)| read == path).map(|(_, registry)| registry.clone())
    };
    // Checked on every core; collected in the order chosen, so the report
    // is the same on every run.
    let fixing = args.fix || args.diff;
    let checked: Vec<Result<(CheckedFile, Option<fix::Outcome>), Unreadable>> = chosen
        .par_iter()
        .zip(&applying)
        .map(|(chosen, (rules, registry))| {
            let mut input = input::read(&chosen.path, &args.read)?;
            let options = Options {
                kind: args.read.kind.map(Into::into),
                registry: registry_of(registry),
                rules: rules.clone(),
                ..Options::default()
            };
            let (checked, outcome) = if fixing {
                let stdin = chosen.path.as_os_str() == "-";
                let (checked, outcome) = fix::fix(&mut input, options, args.fix, stdin);
                (checked, Some(outcome))
            } else {
                (input.check(options), None)
            };
            Ok((CheckedFile { input, checked, role: Role::Document }, outcome))
        })
        .collect();
    let mut outcomes = Vec::new();
    for result in checked {
        match result {
            Ok((file, outcome)) => {
                files.push(file);
                outcomes.extend(outcome);
            }
            Err(error) => unreadable.push(error),
        }
    }
    if args.diff {
        for error in &unreadable {
            output.error(error);
        }
        let diff: String = outcomes.iter().map(|o| o.diff.as_str()).collect();
        output.print(&diff);
        return if !unreadable.is_empty() {
            Status::Failed
        } else if diff.is_empty() {
            Status::Clean
        } else {
            Status::Errors
        };
    }
    if args.fix {
        let unwritten: Vec<&String> =
            outcomes.iter().filter_map(|o| o.unwritten.as_ref()).collect();
        for why in &unwritten {
            output.error(why);
        }
        let fixed: usize = outcomes.iter().filter(|o| o.unwritten.is_none()).map(|o| o.fixed).sum();
        let changed =
            outcomes.iter().filter(|o| o.unwritten.is_none() && !o.diff.is_empty()).count();
        output.note(format_args!(
            "fixed {} in {}",
            plural(fixed, "finding", "findings"),
            plural(changed, "file", "files")
        ));
        if !unwritten.is_empty() {
            return Status::Failed;
        }
    }
    if let Some(path) = &args.baseline {
        match baseline::Baseline::read(path) {
            Ok(baseline) => {
                let applied = baseline.apply(&mut files);
                if applied.stale > 0 {
                    output.note(format_args!(
                        "the baseline {}: {} of its {} no longer {}; `--write-baseline` writes it anew",
                        path.display(),
                        applied.stale,
                        plural(applied.entries, "entry", "entries"),
                        if applied.stale == 1 { "occurs" } else { "occur" },
                    ));
                }
            }
            Err(why) => {
                output.error(why);
                return Status::Failed;
            }
        }
    }
    if let Some(path) = &args.write_baseline {
        match baseline::write(path, &files) {
            Ok(count) => output.note(format_args!(
                "wrote {} to the baseline {}",
                plural(count, "finding", "findings"),
                path.display()
            )),
            Err(why) => {
                output.error(why);
                return Status::Failed;
            }
        }
    }
    let totals = totals(&files, unreadable.len());
    for error in &unreadable {
        output.error(error);
    }
    let rendered = match args.format {
        CheckFormat::Human => {
            output.print_for_people(&human::render(&files, &totals));
            return status(&unreadable, &totals);
        }
        CheckFormat::Json => json::render(&files, &unreadable),
        CheckFormat::Sarif => sarif::render(&files, &unreadable),
        CheckFormat::Github => github::render(&files, &unreadable),
        CheckFormat::Gitlab => gitlab::render(&files, &unreadable),
        CheckFormat::Junit => junit::render(&files, &unreadable),
    };
    output.print(&rendered);
    status(&unreadable, &totals)
}

fn status(unreadable: &[Unreadable], totals: &Totals) -> Status {
    if !unreadable.is_empty() {
        Status::Failed
    } else if totals.counts.error > 0 {
        Status::Errors
    } else {
        Status::Clean
    }
}

/// Reads the registry at `path`: the registry, and itself as a checked
/// file; why not, in a sentence.
fn read_registry(
    path: &Path,
    args: &crate::args::ReadArgs,
) -> Result<(CheckedFile, Arc<Registry>), String> {
    let input = input::read(path, args).map_err(|error| error.to_string())?;
    let text = input.whole_text().map_err(|why| format!("{}: {why}", input.name))?;
    let registry = Arc::new(Registry::read(text, input.syntax, &Limits::default()));
    Ok((registry_file(input, &registry), registry))
}

/// The registry as a checked file: its own diagnostics, no kind. The
/// credential rules do not read a registry, so its lines are masked by the
/// shapes of credentials ([`Masking`]'s default).
fn registry_file(input: Input, registry: &Registry) -> CheckedFile {
    let checked = Checked {
        kind: None,
        kind_detected: false,
        syntax: registry.syntax,
        diagnostics: registry.diagnostics.clone(),
        counts: registry.counts,
        suppressed: Vec::new(),
        masking: Masking::default(),
    };
    CheckedFile { input, checked, role: Role::Registry { tools: registry.len() } }
}

fn totals(files: &[CheckedFile], unreadable: usize) -> Totals {
    let mut totals = Totals { unreadable, files: files.len(), ..Totals::default() };
    for file in files {
        totals.counts.error += file.checked.counts.error;
        totals.counts.warning += file.checked.counts.warning;
        totals.counts.info += file.checked.counts.info;
        totals.suppressed += file.checked.suppressed.len();
    }
    totals
}

/// Pretty JSON with a final newline.
pub fn to_json(value: &impl serde::Serialize) -> String {
    // The output types are plain structs with string keys: serializing them
    // cannot fail.
    let mut json = serde_json::to_string_pretty(value).expect("output types serialize");
    json.push('\n');
    json
}
