//! The fuzz targets (fuzz/, a workspace of its own): their corpora seeded
//! from the examples and fixtures, and a smoke run of each.

use std::path::{Path, PathBuf};

use crate::shell::{cmd, output, run, succeeds, Result};

const TARGETS: [&str; 5] = ["check_json", "check_yaml", "check_detect", "explain", "share_decode"];

/// Runs every fuzz target (or the one named) briefly from the seeded
/// corpora: a smoke run that the targets build and find no crash, hang or
/// leak in their first seconds. Each runs SECONDS (FUZZ_SECONDS, else 20)
/// one after the other, so the total is bounded (under two minutes after
/// the build for all five). The long runs docs/fuzzing.md records are this
/// with 720 seconds. A crash stops the run and leaves its input in
/// fuzz/artifacts/<target>/ (run the target's binary on that file, or
/// `cargo +nightly fuzz run <target> <file>`, to reproduce it).
pub fn fuzz(args: &[String]) -> Result {
    // `fuzz 30` runs every target 30 s; `fuzz check_yaml [30]` one target.
    let (chosen, seconds) = match args {
        [first, ..] if first.parse::<u64>().is_ok() => (None, Some(first.clone())),
        [target, rest @ ..] => (Some(target), rest.first().cloned()),
        [] => (None, None),
    };
    let seconds = match seconds.or_else(|| std::env::var("FUZZ_SECONDS").ok()) {
        Some(s) => s.parse::<u64>().map_err(|_| format!("SECONDS must be a number, not {s:?}"))?,
        None => 20,
    };
    if !succeeds(&mut cmd("cargo", ["+nightly", "--version"])) {
        return Err(
            "the fuzz targets need a nightly toolchain (scripts/setup.sh test installs it)".into(),
        );
    }
    seed_corpora()?;
    let fuzz = Path::new("fuzz");
    // No sanitizer: everything fuzzed is safe Rust, and without
    // AddressSanitizer a target runs three to four times as many inputs.
    // Debug assertions (and overflow checks) stay on; docs/fuzzing.md says
    // more.
    run(cmd("cargo", ["+nightly", "fuzz", "build", "--sanitizer", "none"]).current_dir(fuzz))?;
    // The built binaries run directly: `cargo fuzz run` would build again.
    let host = output(&mut cmd("rustc", ["+nightly", "-vV"]))?
        .lines()
        .find_map(|line| line.strip_prefix("host: ").map(str::to_string))
        .ok_or("rustc +nightly -vV names no host")?;
    let bin = PathBuf::from(format!("target/{host}/release"));
    let listed = output(cmd("cargo", ["+nightly", "fuzz", "list"]).current_dir(fuzz))?;
    let targets: Vec<&str> = listed.lines().filter(|t| chosen.is_none_or(|c| c == t)).collect();
    if targets.is_empty() {
        return Err(format!(
            "no fuzz target {:?} (cargo +nightly fuzz list: {})",
            chosen,
            listed.replace('\n', " ")
        ));
    }
    let logs = fuzz.join("target/smoke-logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    for target in targets {
        let log = format!("target/smoke-logs/{target}.log");
        let artifacts = format!("artifacts/{target}/");
        std::fs::create_dir_all(fuzz.join(&artifacts)).map_err(|e| format!("{artifacts}: {e}"))?;
        let file = std::fs::File::create(fuzz.join(&log)).map_err(|e| format!("{log}: {e}"))?;
        let err = file.try_clone().map_err(|e| format!("{log}: {e}"))?;
        // -timeout: one input running 10 s is a hang; -rss_limit_mb: a
        // runaway allocation is a crash, not a slow machine.
        let status = cmd(bin.join(target).to_str().unwrap_or(target), [format!("corpus/{target}")])
            .arg(format!("-artifact_prefix={artifacts}"))
            .arg(format!("-max_total_time={seconds}"))
            .args(["-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"])
            .current_dir(fuzz)
            .stdout(file)
            .stderr(err)
            .status()
            .map_err(|e| format!("{target}: {e}"))?;
        let text = std::fs::read_to_string(fuzz.join(&log)).unwrap_or_default();
        if !status.success() {
            let lines: Vec<&str> = text.lines().collect();
            eprintln!("{}", lines[lines.len().saturating_sub(40)..].join("\n"));
            return Err(format!("{target} failed (full log: fuzz/{log})"));
        }
        let runs = text
            .lines()
            .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
            .unwrap_or("?")
            .trim();
        let coverage = text
            .rsplit("cov: ")
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("?");
        println!("fuzz smoke: {target:<13} {runs:>8} executions in {seconds}s, cov: {coverage}, no crash");
    }
    Ok(())
}

/// Seeds the corpora (fuzz/corpus/<target>/, git-ignored) and prints how
/// many files each holds.
pub fn seed(_: &[String]) -> Result {
    seed_corpora()?;
    for target in TARGETS {
        let count =
            std::fs::read_dir(corpus(target)).map_err(|e| format!("{target}: {e}"))?.count();
        println!("fuzz/corpus/{target:<13} {count:>4} files");
    }
    Ok(())
}

fn corpus(target: &str) -> PathBuf {
    Path::new("fuzz/corpus").join(target)
}

/// The examples and the core's fixtures: the documents themselves for the
/// check and explain targets, and share links of them (both schemes) for
/// share_decode. Idempotent: seeds keep their names, so a second run
/// rewrites the same files and leaves what the fuzzer added alone.
fn seed_corpora() -> Result {
    let mut seeds = Vec::new();
    for folder in
        ["examples", "crates/core/tests/fixtures/examples", "crates/core/tests/fixtures/rules"]
    {
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .map_err(|e| format!("{folder}: {e}"))?
            .filter_map(|entry| entry.ok())
            .filter(|entry| entry.path().is_file())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .map(|name| format!("{folder}/{name}"))
            .collect();
        files.sort();
        seeds.extend(files);
    }
    for target in TARGETS {
        std::fs::create_dir_all(corpus(target)).map_err(|e| format!("{target}: {e}"))?;
    }
    for file in &seeds {
        let name = format!("seed-{}", file.replace('/', "_"));
        // JSON is YAML too (flow style), so the YAML reader gets every seed.
        let json = file.ends_with(".json");
        for target in ["check_json", "check_yaml", "check_detect", "explain"] {
            if target != "check_json" || json {
                std::fs::copy(file, corpus(target).join(&name))
                    .map_err(|e| format!("{file}: {e}"))?;
            }
        }
    }
    run(cmd("node", ["xtask/helpers/share-seeds.mjs"]).arg(corpus("share_decode")).args(&seeds))
}
