//! One `analyze`, or one bare `serde_json` parse, of a generated document,
//! for counting instructions under valgrind's callgrind: on a shared machine
//! wall-clock times move with the other work on it, instruction counts do
//! not. `cargo xtask bench core` runs it as
//! `valgrind --tool=callgrind --toggle-collect='instructions::run_*'
//! target/release/examples/instructions playbook 1000 analyze`.
//!
//! `instructions playbook 10000 paired [ROUNDS]` times both instead, back
//! to back in each round, so that the two times of a round see the same
//! load on the machine, and prints the median time of each and the median
//! of the rounds' ratios.

#[path = "../benches/generate.rs"]
mod generate;

use opb_core::{analyze, Options, Syntax};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

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

/// Seconds `run` takes.
fn timed(run: impl FnOnce()) -> f64 {
    let start = Instant::now();
    run();
    start.elapsed().as_secs_f64()
}

/// The median of `values`, which it sorts.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times `rounds` rounds of one `analyze` then one serde_json parse, and
/// prints the median of each (in milliseconds) and of the ratios.
fn paired(text: &str, options: &Options, rounds: usize) {
    let (mut ours, mut serde, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let analyzed = timed(|| run_analyze(text, options));
        let parsed = timed(|| run_serde_json(text));
        ours.push(analyzed * 1e3);
        serde.push(parsed * 1e3);
        ratios.push(analyzed / parsed);
    }
    println!("{:.2} {:.2} {:.3}", median(&mut ours), median(&mut serde), median(&mut ratios));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(size), Some(what)) =
        (args.first(), args.get(1).and_then(|s| s.parse().ok()), args.get(2))
    else {
        eprintln!(
            "usage: instructions playbook|leaky|manifest SIZE analyze|serde_json|paired [ROUNDS]"
        );
        return ExitCode::from(2);
    };
    let text = match kind.as_str() {
        "playbook" => generate::playbook(size),
        "leaky" => generate::leaky_playbook(size),
        "manifest" => generate::manifest(size),
        _ => {
            eprintln!("the document is a playbook, a leaky playbook or a manifest, not {kind}");
            return ExitCode::from(2);
        }
    };
    let options = Options { syntax: Some(Syntax::Json), ..Options::default() };
    match what.as_str() {
        "analyze" => run_analyze(&text, &options),
        "serde_json" => run_serde_json(&text),
        "paired" => {
            let Some(rounds) = args.get(3).map_or(Some(41), |r| r.parse().ok().filter(|&r| r > 0))
            else {
                eprintln!("ROUNDS is a whole number above 0");
                return ExitCode::from(2);
            };
            paired(&text, &options, rounds);
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("measure analyze, serde_json or both paired, not {what}");
            return ExitCode::from(2);
        }
    }
    println!("{}", text.len());
    ExitCode::SUCCESS
}
