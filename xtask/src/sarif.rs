//! opb's SARIF read by a real consumer: Microsoft's SARIF multitool
//! validates it with the SARIF rules and GitHub's ingestion rules
//! (--rule-kind Gh;Sarif), for every example, rule fixture and input
//! fixture (unclosed brackets and quotes carry related locations), for a
//! run that found nothing, and for a run with a file that cannot be read.
//! Any error or warning fails. Needs `scripts/setup.sh test` (the
//! multitool) and a built `opb` (target/debug/opb, or $OPB).

use std::fs::File;

use crate::shell::{cmd, output, run, Result, TempDir};

const MULTITOOL: &str =
    "tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool";

/// Counts the validation log's results, printing each (node reads the JSON).
const FINDINGS: &str = r#"
const runs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs;
const results = runs.flatMap((run) => run.results ?? []);
for (const r of results) console.error(`  ${r.ruleId} ${r.level ?? "warning"}: ${JSON.stringify(r.message)}`);
console.log(results.length);
"#;

fn files_in(folder: &str, suffixes: &[&str]) -> Result<Vec<String>> {
    let mut files: Vec<String> = std::fs::read_dir(folder)
        .map_err(|e| format!("{folder}: {e}"))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| suffixes.is_empty() || suffixes.iter().any(|s| name.ends_with(s)))
        .map(|name| format!("{folder}/{name}"))
        .collect();
    files.sort();
    Ok(files)
}

pub fn check_sarif(_: &[String]) -> Result {
    let opb = std::env::var("OPB").unwrap_or_else(|_| "target/debug/opb".into());
    let work = TempDir::new("sarif")?;
    let example = "examples/failed-charge-recovery.json".to_string();
    let runs = [
        ("examples", files_in("examples", &[".json", ".yaml"])?),
        ("fixtures", files_in("crates/core/tests/fixtures/rules", &[])?),
        ("input", files_in("crates/core/tests/fixtures/input", &[])?),
        ("clean", vec![example.clone()]),
        ("unreadable", vec![example, "does-not-exist.json".into()]),
    ];
    let mut failed = false;
    for (name, files) in runs {
        let log = work.path().join(format!("{name}.sarif"));
        let out = File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let status = cmd(&opb, ["check", "--format", "sarif"])
            .args(&files)
            .stdout(out)
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("{opb}: {e}"))?;
        // opb exits 1 when it found errors and 2 for an unreadable file:
        // both are what these runs are for.
        if status.code().is_none_or(|code| code > 2) {
            return Err(format!("opb check --format sarif ({name}) failed ({status})"));
        }
        let validation = work.path().join(format!("{name}.sarif.validation"));
        run(cmd(MULTITOOL, ["validate", "--rule-kind", "Gh;Sarif", "--output"])
            .arg(&validation)
            .arg(&log)
            .stdout(std::process::Stdio::null()))?;
        let count = output(cmd("node", ["-e", FINDINGS]).arg(&validation))?;
        let count = count.trim();
        println!("{name}.sarif: {count} findings from the SARIF multitool");
        failed |= count != "0";
    }
    if failed {
        Err("the SARIF multitool found problems".into())
    } else {
        Ok(())
    }
}
