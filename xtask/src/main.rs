//! `cargo xtask`: the developer's commands. `cargo xtask help` lists them;
//! CONTRIBUTING.md says when to run which.

mod bench;
mod ci;
mod fuzz;
mod package;
mod sarif;
mod shell;
mod size;
mod supply_chain;

use std::process::ExitCode;

use shell::Result;

/// Each command: its name, its arguments, what it does (one line), and the
/// function that runs it.
type Run = fn(&[String]) -> Result;
const COMMANDS: &[(&str, &str, &str, Run)] = &[
    ("ci", "", "the test command (scripts/test.sh, CI): every step below, in order, ending with cargo's test summary", ci::ci),
    ("check", "", "for every change: formatting, clippy (native, viewer embed, app for wasm32) and the Rust tests", ci::check),
    ("e2e", "[FILE-FILTER]", "release build, its byte budgets, then the end-to-end tests (those whose file name contains FILE-FILTER)", ci::e2e),
    ("engines", "", "the core flows in Firefox ESR and WebKitGTK (tests/engines) against dist/ as built; builds nothing", ci::engines),
    ("e2e-under-load", "[RUNS [FILE...]]", "end-to-end files run RUNS times (10) with the CPU slowed 4x and every core busy; builds nothing", ci::e2e_under_load),
    ("check-size", "[DIST]", "the release build's download sizes against their byte budgets (dist/ unless given)", size::check_size),
    ("fuzz", "[TARGET] [SECONDS]", "seeds the corpora, builds the fuzz targets and runs each (or TARGET) for SECONDS (20)", fuzz::fuzz),
    ("fuzz-seed", "", "seeds fuzz/corpus/<target>/ from the examples and the core's fixtures", fuzz::seed),
    ("bench", "[NAME [ARGS...]]", "the benchmarks of docs/performance.md and docs/limits.md: core (default), dense, browser, link, viewer, profile, limits", bench::bench),
    ("package", "[viewer|wheel] [DIST]", "the <opb-viewer> npm package (from DIST's viewer when given) and opb's PyPI wheel", package::package),
    ("pre-commit-mirror", "DIR", "writes opb's pre-commit mirror (a hook repository installing opb from PyPI) into DIR", package::pre_commit_mirror),
    ("supply-chain", "", "cargo deny (licences, bans, sources, advisories) of both lockfiles, npm audit", supply_chain::supply_chain),
    ("check-sarif", "", "opb's SARIF read by Microsoft's SARIF multitool with GitHub's ingestion rules (needs target/debug/opb)", sarif::check_sarif),
    ("fresh-clone", "", "README's run command (scripts/run.sh --check) in a fresh clone of HEAD with an empty cargo registry", ci::fresh_clone),
    ("sync-shared", "[SHARED]", "refreshes spec/, examples/ and the RustSec copy from ../shared (or SHARED)", ci::sync_shared),
    ("version", "", "prints the workspace's version (Cargo.toml's [workspace.package])", package::version),
    ("help", "", "this list", help),
];

fn help(_: &[String]) -> Result {
    println!("cargo xtask COMMAND [ARGS...]\n");
    for (name, args, what, _) in COMMANDS {
        let usage = if args.is_empty() { (*name).to_string() } else { format!("{name} {args}") };
        println!("  {usage:<34} {what}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, rest) = match args.split_first() {
        Some((name, _)) if name == "--help" || name == "-h" => ("help", &[][..]),
        Some((name, rest)) => (name.as_str(), rest),
        None => ("help", &[][..]),
    };
    let Some((_, _, _, run)) = COMMANDS.iter().find(|(command, ..)| *command == name) else {
        eprintln!("xtask: no command {name:?}");
        let _ = help(&[]);
        return ExitCode::from(2);
    };
    if let Err(error) = shell::in_root().and_then(|()| run(rest)) {
        eprintln!("xtask {name}: {error}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use crate::shell::{read, root};

    /// Trunk.toml names the wasm-opt Trunk must find, package.json the
    /// binaryen npm installs: Trunk offline refuses a wasm-opt of another
    /// version, so the two name one.
    #[test]
    fn trunk_runs_the_wasm_opt_npm_installs() {
        let trunk = read(root().join("Trunk.toml")).unwrap();
        let wanted = trunk
            .lines()
            .find_map(|l| l.strip_prefix("wasm_opt = \"version_"))
            .unwrap()
            .trim_end_matches('"');
        let package = read(root().join("package.json")).unwrap();
        let binaryen =
            package.lines().find_map(|l| l.trim().strip_prefix("\"binaryen\": \"")).unwrap();
        assert_eq!(binaryen.split('.').next(), Some(wanted), "package.json's binaryen {binaryen}");
    }
}
