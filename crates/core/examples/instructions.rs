//! One `analyze`, or one bare `serde_json` parse, of a generated document,
//! for counting instructions under valgrind's callgrind: on a shared machine
//! wall-clock times move with the other work on it, instruction counts do
//! not. `scripts/bench-report.sh` runs it as
//! `valgrind --tool=callgrind --toggle-collect='instructions::run_*'
//! target/release/examples/instructions playbook 1000 analyze`.

#[path = "../benches/generate.rs"]
mod generate;

use opb_core::{analyze, Options, Syntax};
use std::hint::black_box;
use std::process::ExitCode;

/// What callgrind counts: the call and dropping what it returns, as the
/// criterion benchmark times them.
#[inline(never)]
fn run_analyze(text: &str, options: &Options) {
    drop(black_box(analyze(black_box(text), options)));
}

#[inline(never)]
fn run_serde_json(text: &str) {
    drop(black_box(serde_json::from_str::<serde_json::Value>(black_box(text))));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(size), Some(what)) = (args.first(), args.get(1).and_then(|s| s.parse().ok()), args.get(2)) else {
        eprintln!("usage: instructions playbook|manifest SIZE analyze|serde_json");
        return ExitCode::from(2);
    };
    let text = match kind.as_str() {
        "playbook" => generate::playbook(size),
        "manifest" => generate::manifest(size),
        _ => {
            eprintln!("the document is a playbook or a manifest, not {kind}");
            return ExitCode::from(2);
        }
    };
    match what.as_str() {
        "analyze" => run_analyze(&text, &Options { syntax: Some(Syntax::Json), ..Options::default() }),
        "serde_json" => run_serde_json(&text),
        _ => {
            eprintln!("measure analyze or serde_json, not {what}");
            return ExitCode::from(2);
        }
    }
    println!("{}", text.len());
    ExitCode::SUCCESS
}
