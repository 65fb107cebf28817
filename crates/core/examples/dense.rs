//! Prints a dense playbook (`benches/dense.rs`): `dense STEPS BRANCHES`.
//! `cargo xtask bench dense` renders such documents with `opb render` and
//! measures the time and memory it takes.

#[path = "../benches/dense.rs"]
mod dense;

use std::process::ExitCode;

fn main() -> ExitCode {
    let numbers: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [steps, branches] = numbers[..] else {
        eprintln!("usage: dense STEPS BRANCHES");
        return ExitCode::FAILURE;
    };
    print!("{}", dense::playbook(steps, branches));
    ExitCode::SUCCESS
}
