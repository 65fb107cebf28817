//! Running the tools the commands are made of: from the repository's root,
//! with node_modules/.bin on PATH, each failure said with the command line.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository's root: the folder above xtask/.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

/// Runs from the root, with the npm packages' commands (Trunk's wasm-opt
/// and esbuild, playwright's) on PATH.
pub fn in_root() -> Result {
    let root = root();
    std::env::set_current_dir(&root)
        .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
    let bin = root.join("node_modules/.bin");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let joined = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path)))
        .map_err(|e| format!("PATH: {e}"))?;
    std::env::set_var("PATH", joined);
    Ok(())
}

/// A step's heading, as the test command prints each.
pub fn step(title: &str) {
    eprintln!("\n\x1b[1m== {title}\x1b[0m");
}

/// A command from its program and arguments.
pub fn cmd<I, S>(program: &str, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(program);
    command.args(args);
    command
}

/// Trunk with ARGS, its wasm built with the dependencies' source paths
/// made relative to their registry's index. The panic messages compiled into the
/// wasm name the file they come from, and a dependency's file is under
/// CARGO_HOME: without the remapping the playground's bytes would grow with
/// the length of that folder's path, and differ between two machines.
/// (The `<opb-viewer>` build, js/build-viewer.mjs, remaps the same way.)
pub fn trunk<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = cmd("trunk", args);
    let home = std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo")
    });
    let key = "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS";
    let mut flags = std::env::var(key).unwrap_or_default();
    let registry = home.join("registry/src");
    let mut indexes: Vec<PathBuf> = std::fs::read_dir(&registry)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    indexes.sort();
    for index in indexes {
        flags.push_str(&format!(" --remap-path-prefix={}/=", index.display()));
    }
    command.env(key, flags.trim_start());
    command
}

/// `cargo` with ARGS, split at spaces.
pub fn cargo(args: &str) -> Command {
    cmd("cargo", args.split_whitespace())
}

fn shown(command: &Command) -> String {
    let mut line = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        line.push(' ');
        line.push_str(&arg.to_string_lossy());
    }
    line
}

/// Runs COMMAND, its output to the terminal; fails unless it exits 0.
pub fn run(command: &mut Command) -> Result {
    let status =
        command.status().map_err(|e| format!("`{}` did not start: {e}", shown(command)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", shown(command)))
    }
}

/// Runs COMMAND and returns its standard output; fails unless it exits 0.
pub fn output(command: &mut Command) -> Result<String> {
    let out = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("`{}` did not start: {e}", shown(command)))?;
    if !out.status.success() {
        return Err(format!("`{}` failed ({})", shown(command), out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("`{}` printed no UTF-8: {e}", shown(command)))
}

/// Whether COMMAND runs and exits 0, its output discarded.
pub fn succeeds(command: &mut Command) -> bool {
    command.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// A folder of its own under the system's temporary folder, removed when
/// dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Result<Self> {
        let path = std::env::temp_dir().join(format!("opb-xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot make {}: {e}", path.display()))?;
        Ok(Self(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The workspace's version: `version` in Cargo.toml's [workspace.package].
pub fn workspace_version() -> Result<String> {
    let manifest = read("Cargo.toml")?;
    let mut in_table = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
        } else if let Some(value) = line.strip_prefix("version = \"").filter(|_| in_table) {
            return Ok(value.trim_end_matches('"').to_string());
        }
    }
    Err("no version in Cargo.toml's [workspace.package]".into())
}

pub fn read(path: impl AsRef<Path>) -> Result<String> {
    std::fs::read_to_string(path.as_ref())
        .map_err(|e| format!("cannot read {}: {e}", path.as_ref().display()))
}

pub fn write(path: impl AsRef<Path>, text: &str) -> Result {
    std::fs::write(path.as_ref(), text)
        .map_err(|e| format!("cannot write {}: {e}", path.as_ref().display()))
}
