//! The test command (`ci`), the checks for every change (`check`), the
//! browser's end-to-end tests, and the first run of a new user.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use crate::shell::{cargo, cmd, output, root, run, step, trunk, Result, TempDir};
use crate::{fuzz, package, sarif, size, supply_chain};

/// The test command: a new user's first run in a fresh clone ahead of every
/// other build, then what testing adds (scripts/setup.sh test), the supply
/// chain, the core for wasm32, the playground's release build and its byte
/// budgets, its component tests in headless Chromium (wasm-bindgen-test)
/// and its end-to-end tests against the release build (playwright-core),
/// formatting, clippy and the core's rustdoc with warnings denied, opb's
/// SARIF through Microsoft's SARIF multitool, the <opb-viewer> npm
/// package, opb's PyPI wheel, a MkDocs site built with the wheel's plugin
/// and VitePress and Astro sites with the package and its Markdown plugins,
/// read in Chromium, the wheel installed and run with no Rust on PATH (opb,
/// `python -m opb`, `opb lsp`, the GitHub Action's steps), the editors and
/// CI tools, each fuzz target briefly, and last
/// every Rust test of the workspace, so that the output ends with cargo's
/// summary.
pub fn ci(_: &[String]) -> Result {
    // Every build here starts from nothing on CI, where incremental
    // compilation's caches would only take disk (several GB) and time.
    std::env::set_var("CARGO_INCREMENTAL", "0");
    enough_disk()?;

    step("a new user's first run: scripts/run.sh --check in a fresh clone, empty cargo registry (cargo xtask fresh-clone)");
    fresh_clone(&[])?;

    run(&mut cmd("scripts/setup.sh", ["test"]))?;

    step("supply chain: licences, bans, sources, advisories (cargo deny), npm audit (cargo xtask supply-chain)");
    supply_chain::supply_chain(&[])?;

    step("the core builds for wasm32-unknown-unknown on its own");
    run(&mut cargo("build --quiet -p opb-core --target wasm32-unknown-unknown"))?;

    release_build()?;

    step("component tests in headless Chromium (wasm-bindgen-test)");
    let component_tests =
        "test -p opb-app --target wasm32-unknown-unknown --features web --test web";
    // The test runner stops ChromeDriver without ending its session, so
    // Chromium's profile (some 65 MB) is left in the temporary folder:
    // target/tmp keeps it where `cargo clean` removes it.
    let temp = root().join("target/tmp");
    std::fs::create_dir_all(&temp).map_err(|e| format!("{}: {e}", temp.display()))?;
    run(cargo(component_tests).env("CHROMEDRIVER", "/usr/bin/chromedriver").env("TMPDIR", &temp))?;

    step("end-to-end tests against the release build (tests/e2e, screenshots in tests/e2e/screenshots)");
    run(&mut cmd("node", ["--test", "tests/e2e/"]))?;

    engines(&[])?;

    formatting()?;
    clippy()?;

    step("the core's API documentation builds without a warning (cargo doc)");
    let doc =
        "doc --quiet --no-deps -p opb-syntax -p opb-core -p opb-render -p opb-share -p opb-viewer";
    run(cargo(doc).env("RUSTDOCFLAGS", "-D warnings"))?;

    step("opb's SARIF read by Microsoft's SARIF multitool, GitHub's ingestion rules (cargo xtask check-sarif)");
    run(&mut cargo("build --quiet -p opb-cli"))?;
    sarif::check_sarif(&[])?;

    step("the <opb-viewer> npm package (cargo xtask package viewer dist, from the release build)");
    package::package(&["viewer".into(), "dist".into()])?;

    // One wheel, built here, serves the MkDocs site's plugin and the
    // packaging and pre-commit tests after it.
    step("opb's PyPI wheel, built by maturin (cargo xtask package wheel)");
    package::package(&["wheel".into()])?;

    step("docs sites as their authors build them: a MkDocs site with the wheel's plugin (installed without Rust), VitePress and Astro sites with the package (the element, opb's fences drawn by its markdown-it and remark plugins), the HTML report, in Chromium (tests/docs-sites)");
    run(&mut cmd("node", ["--test", "tests/docs-sites/"]))?;

    step("opb's PyPI wheel installed by pip and run without Rust, the GitHub Action's steps too (tests/packaging)");
    run(&mut cmd("node", ["--test", "tests/packaging/"]))?;

    step("editors and CI: the JSON Schemas read by check-jsonschema and yaml-language-server, opb lsp in Neovim, the pre-commit hooks, the mirror's from the wheel (tests/editors)");
    run(&mut cmd("node", ["--test", "tests/editors/"]))?;

    step("fuzz smoke runs (cargo xtask fuzz, each target briefly)");
    fuzz::fuzz(&[])?;

    step("the viewer's reading of links and of host messages, and its banner alone (cargo test -p opb-viewer --features embed,glance)");
    run(&mut cargo("test --quiet -p opb-viewer --features embed,glance"))?;

    rust_tests()
}

/// What a cold run of the test command leaves on the disk, measured with
/// `df` during one: 7.5 GiB, of which target/ 5.7, fuzz/target 0.4, the
/// cargo registry 0.4 and node_modules 0.2.
const COLD_RUN_BYTES: u64 = 8 << 30;
/// What its first step writes at most, in the temporary folder: a fresh
/// clone with its own cargo registry and build, 1.4 GiB measured, removed
/// before the other builds begin.
const FRESH_CLONE_BYTES: u64 = 2 << 30;

/// Stops the test command at once, saying why, where the disk cannot hold
/// what it writes: a full disk would stop it minutes later with a
/// compiler's input/output error instead.
fn enough_disk() -> Result {
    let target = root().join("target");
    let temp = std::env::temp_dir();
    // Where the workspace was built before (opb, the command-line tool, is
    // in target/debug after `cargo test`), builds are redone in place and
    // write little; target/debug alone holds only this xtask.
    let build = if target.join("debug/opb").is_file() { 0 } else { COLD_RUN_BYTES };
    let (target_fs, target_free) = filesystem(&target)?;
    let (temp_fs, temp_free) = filesystem(&temp)?;
    // The fresh clone is gone before the builds grow: on one filesystem
    // the larger of the two is needed, not their sum.
    let needs = if target_fs == temp_fs {
        vec![(target_fs, target_free, build.max(FRESH_CLONE_BYTES))]
    } else {
        vec![(target_fs, target_free, build), (temp_fs, temp_free, FRESH_CLONE_BYTES)]
    };
    let gb = |bytes: u64| format!("{:.1} GiB", bytes as f64 / f64::from(1 << 30));
    for (fs, free, need) in needs.into_iter().filter(|&(_, _, need)| need > 0) {
        eprintln!("disk: {} free on {fs}, about {} to be written there", gb(free), gb(need));
        if free < need {
            return Err(format!(
                "not enough disk: {} free on {fs}, and the test command writes about {} there \
                 (a cold run about {} in all, most of it its build in {}; its first step's fresh \
                 clone about {} in {}, until that step ends). Free space there; TMPDIR \
                 moves the fresh clone to another disk.",
                gb(free),
                gb(need),
                gb(COLD_RUN_BYTES),
                target.display(),
                gb(FRESH_CLONE_BYTES),
                temp.display(),
            ));
        }
    }
    Ok(())
}

/// The mount point of the filesystem PATH is on (its nearest existing
/// folder's), as `df -Pk` says, and the bytes free on it.
fn filesystem(path: &Path) -> Result<(String, u64)> {
    let existing = path.ancestors().find(|p| p.exists()).unwrap_or(Path::new("/"));
    let df = output(cmd("df", ["-Pk"]).arg(existing))?;
    // POSIX's format: a heading, then the filesystem's name, its size, used
    // and available KiB, the capacity, and the mount point (which may hold
    // spaces).
    let fields: Vec<&str> = df.lines().nth(1).unwrap_or_default().split_whitespace().collect();
    let parsed = match fields.as_slice() {
        [_, _, _, available, _, mount @ ..] if !mount.is_empty() => {
            available.parse::<u64>().ok().map(|kib| (mount.join(" "), kib << 10))
        }
        _ => None,
    };
    parsed.ok_or_else(|| format!("df -Pk {} printed no free space: {df:?}", existing.display()))
}

/// What every change must pass, in a few minutes on a warm build.
pub fn check(_: &[String]) -> Result {
    let started = Instant::now();
    formatting()?;
    clippy()?;
    rust_tests()?;
    eprintln!("cargo xtask check: passed in {} s", started.elapsed().as_secs());
    Ok(())
}

fn formatting() -> Result {
    step("formatting (cargo fmt --check, rustfmt.toml)");
    run(&mut cargo("fmt --all --check"))?;
    run(cargo("fmt --check").current_dir("fuzz"))?;
    // The fuzz targets are a workspace of their own, built on the path
    // crates: a crate added to the main workspace must reach its lockfile
    // too, or the supply-chain check (which reads it --locked) fails.
    step("the fuzz workspace's lockfile is current (cargo metadata --locked)");
    run(cargo("metadata --locked --offline --format-version 1")
        .current_dir("fuzz")
        .stdout(Stdio::null()))
}

fn clippy() -> Result {
    step("clippy, warnings denied (the workspace natively, the viewer's link, embed, banner and fragment builds, the app's interface for wasm32)");
    run(&mut cargo("clippy --quiet --workspace --all-targets -- -D warnings"))?;
    run(&mut cargo(
        "clippy --quiet -p opb-viewer --features embed,glance,fragment --all-targets -- -D warnings",
    ))?;
    run(&mut cargo(
        "clippy --quiet -p opb-viewer --no-default-features --features glance,link -- -D warnings",
    ))?;
    run(&mut cargo("clippy --quiet -p opb-app --features web --target wasm32-unknown-unknown --all-targets -- -D warnings"))
}

fn rust_tests() -> Result {
    step("cargo test --workspace");
    let mut test = cargo("test --workspace");
    // The spec and examples are copies of ../shared (cargo xtask
    // sync-shared), which a clone outside the workspace does not have:
    // there the comparison cannot run, and says so.
    if !root().join("../shared").is_dir() {
        eprintln!(
            "NOT CHECKED: the copies in spec/ and examples/ against ../shared (shared_copies_are_current): {} has no ../shared",
            root().display()
        );
        test.env("OPB_WITHOUT_SHARED", "1");
    }
    run(&mut test)
}

/// The playground's release build (Trunk, offline), then its byte budgets.
fn release_build() -> Result {
    step("release build of the playground (trunk build --release --offline)");
    run(&mut trunk(["build", "--release", "--offline"]))?;
    // Bytes are deterministic, so the budget is a hard check.
    step("download size of the playground (cargo xtask check-size)");
    size::check_size(&[])
}

/// The release build, its byte budgets, and the end-to-end tests (those
/// whose file name contains the filter, when one is given).
pub fn e2e(args: &[String]) -> Result {
    run(&mut cmd("scripts/setup.sh", ["browser"]))?;
    release_build()?;
    step("end-to-end tests against the release build (tests/e2e, screenshots in tests/e2e/screenshots)");
    let files = e2e_files(args.first().map(String::as_str))?;
    run(cmd("node", ["--test"]).args(files))
}

/// The core flows (the playground's example, typing, a draft through a
/// reload, a shared link's reading view and Edit, `<opb-viewer>` on a docs
/// page) in Firefox ESR and WebKitGTK, against dist/ (or OPB_DIST) as it
/// is: tests/e2e runs them in Chromium.
pub fn engines(_: &[String]) -> Result {
    step("the core flows in Firefox ESR and WebKitGTK against the release build (tests/engines, screenshots in tests/e2e/screenshots)");
    let dist = std::env::var("OPB_DIST").unwrap_or_else(|_| "dist".into());
    if !std::path::Path::new(&dist).join("index.html").is_file() {
        return Err(format!("no release build in {dist}/: cargo xtask e2e harness builds one"));
    }
    run(&mut cmd("node", ["--test", "tests/engines/"]))
}

/// tests/e2e's test files whose name contains FILTER (all without one).
fn e2e_files(filter: Option<&str>) -> Result<Vec<String>> {
    let entries = std::fs::read_dir("tests/e2e").map_err(|e| format!("tests/e2e: {e}"))?;
    let mut files: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs") && filter.is_none_or(|f| name.contains(f)))
        .map(|name| format!("tests/e2e/{name}"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no test file in tests/e2e matches {:?}", filter.unwrap_or_default()));
    }
    Ok(files)
}

/// End-to-end files run several times in a row as a slow phone or a loaded
/// machine runs them: every page's CPU slowed 4 times (OPB_CPU_SLOWDOWN,
/// which tests/e2e/harness.mjs reads) while one `yes` per core keeps the
/// machine busy. A timing-sensitive file (drafts, the reading view) is
/// called stable once it passes every run. It tests dist/ (or OPB_DIST) as
/// it is.
pub fn e2e_under_load(args: &[String]) -> Result {
    let runs: u32 = match args.first() {
        Some(n) => n.parse().map_err(|_| format!("RUNS must be a number, not {n:?}"))?,
        None => 10,
    };
    let files: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec!["tests/e2e/drafts.test.mjs".into(), "tests/e2e/reading.test.mjs".into()]
    };
    let slowdown = std::env::var("OPB_CPU_SLOWDOWN").unwrap_or_else(|_| "4".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    struct Load(Vec<Child>);
    impl Drop for Load {
        fn drop(&mut self) {
            for child in &mut self.0 {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
    let mut load = Load(Vec::new());
    for _ in 0..cores {
        let child =
            Command::new("yes").stdout(Stdio::null()).spawn().map_err(|e| format!("yes: {e}"))?;
        load.0.push(child);
    }

    // A failed run's whole log is kept to read afterwards, where `cargo
    // clean` removes it; the folder starts empty so no older log misleads.
    let logs = root().join("target/tmp/e2e-under-load");
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let mut passed = 0;
    for attempt in 1..=runs {
        let started = Instant::now();
        let out = cmd("node", ["--test"])
            .args(&files)
            .env("OPB_CPU_SLOWDOWN", &slowdown)
            .output()
            .map_err(|e| format!("node: {e}"))?;
        let seconds = started.elapsed().as_secs();
        if out.status.success() {
            passed += 1;
            println!("run {attempt}: passed ({seconds} s)");
        } else {
            let log = [out.stdout, out.stderr].concat();
            let log = String::from_utf8_lossy(&log);
            let path = logs.join(format!("run-{attempt}.log"));
            std::fs::write(&path, log.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!(
                "run {attempt}: FAILED ({seconds} s), log in {}; the failing tests:",
                path.display()
            );
            let failing = log.lines().filter(|line| {
                line.starts_with("not ok")
                    || line.starts_with("# pass")
                    || line.starts_with("# fail")
                    || line.contains("AssertionError")
                    || line.contains("Error:")
                    || line.trim_start().starts_with("error:")
                    || line.trim_start().starts_with("location:")
            });
            for line in failing.take(20) {
                println!("  {line}");
            }
        }
    }
    println!(
        "{passed} of {runs} runs passed ({}, CPU slowed {slowdown}x, {cores} busy processes beside)",
        files.join(" ")
    );
    if passed == runs {
        Ok(())
    } else {
        Err(format!("{} of {runs} runs failed", runs - passed))
    }
}

/// A new user's first run, on any machine: clones this repository's HEAD
/// into a temporary folder and runs README's run command there,
/// `scripts/run.sh --check`, with an empty CARGO_HOME, so that no crate,
/// folder or build output left by earlier work can hide a missing install
/// step. The tools already installed stay on PATH. What is not committed is
/// not tested.
pub fn fresh_clone(_: &[String]) -> Result {
    let work = TempDir::new("fresh-clone")?;
    let home = std::env::var_os("HOME").unwrap_or_default();
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map_or_else(|| Path::new(&home).join(".cargo"), Into::into)
        .join("bin");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(cargo_bin).chain(std::env::split_paths(&path)))
        .map_err(|e| format!("PATH: {e}"))?;
    let cargo_home = work.path().join("cargo-home");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let clone = work.path().join("opb");
    run(cmd("git", ["clone", "--quiet", "--no-hardlinks"]).arg(root()).arg(&clone))?;
    let head = output(cmd("git", ["rev-parse", "--short", "HEAD"]).current_dir(&clone))?;
    eprintln!(
        "fresh clone of {} in {}, CARGO_HOME={}, port {port}",
        head.trim(),
        clone.display(),
        cargo_home.display()
    );
    let started = Instant::now();
    run(cmd("scripts/run.sh", ["--check"])
        .current_dir(&clone)
        .env("PATH", path)
        .env("CARGO_HOME", &cargo_home)
        .env("PORT", port.to_string())
        .env_remove("CARGO_TARGET_DIR"))?;
    eprintln!("fresh-clone check: passed in {} s", started.elapsed().as_secs());
    Ok(())
}

/// Refreshes the repository's copies of the shared spec and examples, and
/// of the RustSec advisory database, from ../shared (or the folder given),
/// so that a clean clone (and CI) has them. The test
/// `shared_copies_are_current` fails when they drift.
pub fn sync_shared(args: &[String]) -> Result {
    let shared = args.first().map_or_else(|| root().join("../shared"), Into::into);
    let copies: [(&str, &str, Option<&[&str]>); 4] = [
        ("spec", "spec", Some(&["RULES.md", "DOCUMENTS.md"])),
        ("spec/seeds", "spec/seeds", None),
        ("examples", "examples", None),
        (
            "vendor/rustsec-advisory-db",
            "tests/data/rustsec-advisory-db",
            Some(&["advisory-db.bundle", "COMMIT", "LICENSE.txt"]),
        ),
    ];
    for (from, to, names) in copies {
        let from = shared.join(from);
        let names: Vec<String> = match names {
            Some(names) => names.iter().map(|n| (*n).to_string()).collect(),
            None => std::fs::read_dir(&from)
                .map_err(|e| format!("{}: {e}", from.display()))?
                .filter_map(|entry| entry.ok())
                .filter(|entry| entry.path().is_file())
                .filter_map(|entry| entry.file_name().into_string().ok())
                .collect(),
        };
        for name in names {
            let target = Path::new(to).join(&name);
            std::fs::copy(from.join(&name), &target)
                .map_err(|e| format!("{}: {e}", from.join(&name).display()))?;
            writable(&target)?;
        }
    }
    println!("synced from {}", shared.display());
    Ok(())
}

/// ../shared is read-only; the copies must not be.
fn writable(path: &Path) -> Result {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions =
        std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.permissions();
    permissions.set_mode(permissions.mode() | 0o200);
    std::fs::set_permissions(path, permissions).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::filesystem;
    use crate::shell::root;

    #[test]
    fn a_folder_not_made_yet_is_on_its_nearest_existing_folders_filesystem() {
        let (mount, free) = filesystem(&root()).unwrap();
        assert!(mount.starts_with('/'), "{mount}");
        assert!(free > 0);
        let (later, _) = filesystem(&root().join("target/not-made-yet/deps")).unwrap();
        assert_eq!(later, mount);
    }
}
