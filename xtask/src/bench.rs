//! The benchmarks behind docs/performance.md and docs/limits.md. None
//! asserts a time; each prints its figures (tables in the page's format)
//! and says how it measured.

use crate::shell::{cmd, run, Result};

/// Each benchmark: its name, the program that runs it, and what it
/// measures.
const BENCHMARKS: &[(&str, &str, &str)] = &[
    ("core", "xtask/helpers/bench-report.sh", "the core natively: analyze vs serde_json, scaling, graph layout (criterion, callgrind) [--no-run]"),
    ("dense", "xtask/helpers/bench-dense.sh", "`opb render` of dense playbooks: what the layout's budget drew, time, peak memory [RUNS]"),
    ("browser", "xtask/browser/bench-browser.mjs", "the playground in Chromium: load and typing, per document [KEYS [DOCUMENT...]]"),
    ("link", "xtask/browser/bench-link.mjs", "a share link's first view on a throttled phone: bytes, banner, graph [RUNS] [--fast]"),
    ("viewer", "xtask/browser/bench-viewer.mjs", "<opb-viewer> on a docs page, cold, on a throttled phone [RUNS] [--fast]"),
    ("profile", "xtask/browser/profile-browser.mjs", "where the playground's time goes while someone types (CPU profile) [DOCUMENT [KEYS [ROWS]]]"),
    ("limits", "xtask/browser/limits-browser.mjs", "how fast the playground refuses a document past each input limit"),
];

/// `bench [NAME] [ARGS...]`: the browser ones read the release build
/// (dist/, or OPB_DIST), which `cargo xtask e2e` or `trunk build --release
/// --offline` makes.
pub fn bench(args: &[String]) -> Result {
    let (name, rest) = match args.split_first() {
        Some((name, rest)) => (name.as_str(), rest),
        None => ("core", &[][..]),
    };
    let Some((_, program, _)) = BENCHMARKS.iter().find(|(n, ..)| *n == name) else {
        let mut list = String::new();
        for (name, _, what) in BENCHMARKS {
            list.push_str(&format!("\n  {name:<8} {what}"));
        }
        return Err(format!("no benchmark {name:?}; they are:{list}"));
    };
    if program.ends_with(".mjs") {
        run(cmd("node", [program]).args(rest))
    } else {
        run(&mut cmd(program, rest))
    }
}
