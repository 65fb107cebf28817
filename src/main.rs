//! `opb`: check, explain, compare, convert, format and draw OpenPlaybook documents
//! and Orchestrator Zero plugin manifests from the command line.
//!
//! A thin shell over `opb_core`: it reads files, calls the core, and renders
//! what comes back. It never checks anything itself, so the CLI and the
//! playground always agree on a document.

mod args;
mod check;
mod config;
mod convert;
mod diff;
mod escape;
mod explain;
mod input;
mod lsp;
mod output;
mod render;
mod rules;
mod schema;
mod style;

use args::{Cli, Command};
use clap::Parser;
use output::Output;
use std::process::ExitCode;

/// How a run ended; the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No errors (warnings and infos allowed): 0.
    Clean,
    /// At least one error was reported, or `opb diff --fail-on` found what
    /// it fails on: 1.
    Errors,
    /// opb could not do what was asked: 2.
    Failed,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut output = Output::new(cli.color);
    let status = match &cli.command {
        Command::Check(args) => check::run(args, &mut output),
        Command::Rules(args) => rules::run(args, &mut output),
        Command::Explain(args) => explain::run(args, &mut output),
        Command::Diff(args) => diff::run(args, &mut output),
        Command::Convert(args) => convert::convert(args, &mut output),
        Command::Fmt(args) => convert::fmt(args, &mut output),
        Command::Render(args) => render::run(args, &mut output),
        Command::Schema(args) => schema::run(args, &mut output),
        Command::Config(args) => config::run(args, &mut output),
        Command::Lsp(_) => lsp::run(&mut output),
    };
    let status = if output.write_failed() { Status::Failed } else { status };
    ExitCode::from(match status {
        Status::Clean => 0,
        Status::Errors => 1,
        Status::Failed => 2,
    })
}
