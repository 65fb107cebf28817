//! Supply-chain checks against the committed lockfiles
//! (docs/supply-chain.md):
//! - cargo deny: licences, bans and sources of Cargo.lock and
//!   fuzz/Cargo.lock (deny.toml), every workspace member's graph, always;
//! - cargo deny: advisories (vulnerabilities, unmaintained, unsound,
//!   yanked), against the RustSec database fetched when it can be, else
//!   against the copy in tests/data/rustsec-advisory-db (its date in
//!   COMMIT), always;
//! - npm audit --omit=dev on package-lock.json when the registry's audit
//!   endpoint answers.
//!
//! A check that cannot run fails, unless it is named in
//! SUPPLY_CHAIN_MAY_SKIP (space-separated): then it prints NOT CHECKED
//! with the reason and the run goes on. By default that is `npm-audit`
//! alone: the npm registry these machines reach refuses its bulk audit
//! endpoint (405), so no machine of ours could ever pass it.
//! SUPPLY_CHAIN_MAY_SKIP= (empty) makes every check required. Anything
//! found fails.

use crate::shell::{cmd, read, root, run, succeeds, write, Result, TempDir};

const MANIFESTS: [&str; 2] = ["Cargo.toml", "fuzz/Cargo.toml"];

fn say(what: &str) {
    eprintln!("supply chain: {what}");
}

fn lockfile(manifest: &str) -> String {
    manifest.replace("Cargo.toml", "Cargo.lock")
}

pub fn supply_chain(_: &[String]) -> Result {
    let may_skip = std::env::var("SUPPLY_CHAIN_MAY_SKIP").unwrap_or_else(|_| "npm-audit".into());
    let deny = |manifest: &str| {
        let mut command = cmd(
            "cargo",
            ["deny", "--manifest-path", manifest, "--workspace", "--all-features", "--locked"],
        );
        command.args(["--log-level", "error"]);
        command
    };

    for manifest in MANIFESTS {
        say(&format!("licences, bans and sources of {}", lockfile(manifest)));
        run(deny(manifest).args(["check", "bans", "licenses", "sources"]))?;
    }

    if succeeds(&mut cmd("cargo", ["deny", "--log-level", "off", "fetch", "db"])) {
        for manifest in MANIFESTS {
            say(&format!(
                "advisories and yanked crates of {} (the RustSec database as of today)",
                lockfile(manifest)
            ));
            run(deny(manifest).args(["check", "advisories"]))?;
        }
    } else {
        // The vendored database, where cargo-deny looks for the default one
        // (the folder name is its URL's hash); read offline, so the crates'
        // metadata is fetched first.
        let vendored = root().join("tests/data/rustsec-advisory-db");
        let commit = read(vendored.join("COMMIT"))?;
        let as_of = commit
            .split(' ')
            .nth(1)
            .and_then(|date| date.split('T').next())
            .unwrap_or("?")
            .to_string();
        let db = TempDir::new("advisory-db")?;
        let clone = db.path().join("advisory-db-3157b0e258782691");
        run(cmd("git", ["clone", "-q"]).arg(vendored.join("advisory-db.bundle")).arg(&clone))?;
        let config = read("deny.toml")?.replacen(
            "[advisories]",
            &format!(
                "[advisories]\ndb-path = \"{}\"\ndb-urls = [\"https://github.com/rustsec/advisory-db\"]",
                db.path().display()
            ),
            1,
        );
        let config_path = db.path().join("deny.toml");
        write(&config_path, &config)?;
        for manifest in MANIFESTS {
            say(&format!(
                "advisories and yanked crates of {} (the vendored RustSec database as of {as_of}: it cannot be fetched from this machine)",
                lockfile(manifest)
            ));
            run(&mut cmd("cargo", ["fetch", "--quiet", "--manifest-path", manifest, "--locked"]))?;
            run(cmd(
                "cargo",
                [
                    "deny",
                    "--offline",
                    "--manifest-path",
                    manifest,
                    "--workspace",
                    "--all-features",
                    "--locked",
                ],
            )
            .args(["--log-level", "error", "--config"])
            .arg(&config_path)
            .args(["check", "advisories"]))?;
        }
    }

    say("npm audit --omit=dev (package-lock.json)");
    let audit =
        cmd("npm", ["audit", "--omit=dev", "--json"]).output().map_err(|e| format!("npm: {e}"))?;
    let report = String::from_utf8_lossy(&audit.stdout);
    if audit.status.success() {
        say("npm: no known vulnerability in the production dependencies");
    } else if report.contains("\"vulnerabilities\"") {
        let _ = cmd("npm", ["audit", "--omit=dev"]).status();
        return Err("npm audit found vulnerabilities in the production dependencies".into());
    } else {
        let message = report
            .lines()
            .find(|line| line.trim_start().starts_with("\"message\""))
            .map(|line| line.trim().trim_end_matches(','))
            .unwrap_or_default();
        let why = format!("npm audit: the registry's audit endpoint did not answer ({message})");
        if !may_skip.split_whitespace().any(|name| name == "npm-audit") {
            return Err(format!("FAILED: {why} (npm-audit is not in SUPPLY_CHAIN_MAY_SKIP)"));
        }
        say(&format!("NOT CHECKED: {why} (SUPPLY_CHAIN_MAY_SKIP names npm-audit)"));
    }
    say("done");
    Ok(())
}
