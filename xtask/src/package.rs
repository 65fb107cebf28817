//! What opb ships besides the playground: the <opb-viewer> npm package,
//! opb's PyPI wheel and its pre-commit mirror.

use std::path::{Path, PathBuf};

use crate::shell::{cmd, output, read, root, run, workspace_version, write, Result};

pub fn version(_: &[String]) -> Result {
    println!("{}", workspace_version()?);
    Ok(())
}

/// `package` builds both; `package viewer [DIST]` or `package wheel` one.
pub fn package(args: &[String]) -> Result {
    match args.first().map(String::as_str) {
        None => {
            viewer(None)?;
            wheel()
        }
        Some("viewer") => viewer(args.get(1).map(Path::new)),
        Some("wheel") => wheel(),
        Some(other) => Err(format!("no package {other:?}: viewer or wheel")),
    }
}

/// The <opb-viewer> element as an npm package a docs site installs: writes
/// target/npm/opb-viewer-<version>.tgz (npm pack) holding the element
/// (js/opb-viewer.js, without a playground to link to), the viewer's wasm
/// and loader (js/build-viewer.mjs), its stylesheet, its types
/// (js/package/opb-viewer.d.ts), the Markdown plugins that render a fence
/// at a site's build (markdown-it and remark, on the viewer's `fragment`
/// build in Node, with their types), a README for docs authors
/// (js/package/README.md) and the licences, at the workspace's version.
/// With BUILD (a release build, dist/), its viewer wasm is packed rather
/// than built again. Prints the tarball's path.
fn viewer(build: Option<&Path>) -> Result {
    let version = workspace_version()?;
    let npm = root().join("target/npm");
    let stage = npm.join("opb-viewer");
    let _ = std::fs::remove_dir_all(&stage);
    std::fs::create_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    let mut build_viewer = cmd("node", ["js/build-viewer.mjs"]);
    build_viewer.arg(&stage).arg("");
    if let Some(build) = build {
        let built = build.canonicalize().map_err(|e| format!("{}: {e}", build.display()))?;
        build_viewer.env("OPB_VIEWER_BUILT", built);
    }
    output(&mut build_viewer)?;
    for file in [
        "js/package/opb-viewer.d.ts",
        "js/package/markdown-it.d.ts",
        "js/package/remark.d.ts",
        "js/package/README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ] {
        let name = Path::new(file).file_name().expect("a file name");
        std::fs::copy(file, stage.join(name)).map_err(|e| format!("{file}: {e}"))?;
    }
    let mut cores: Vec<String> = std::fs::read_dir(&stage)
        .map_err(|e| format!("{}: {e}", stage.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| {
            name.starts_with("opb-viewer-core-") || name.starts_with("opb-fragment-core-")
        })
        .collect();
    cores.sort();
    let files: Vec<String> = [
        "opb-viewer.js",
        "opb-viewer.css",
        "opb-viewer.d.ts",
        "fragment.mjs",
        "markdown-it.mjs",
        "markdown-it.d.ts",
        "remark.mjs",
        "remark.d.ts",
    ]
    .into_iter()
    .map(String::from)
    .chain(cores)
    .chain(["README.md", "LICENSE-MIT", "LICENSE-APACHE"].map(String::from))
    .map(|name| format!("    \"{name}\""))
    .collect();
    // Importing the module defines the element, and the plugins' renderer
    // loads its wasm: a bundler must keep both (sideEffects).
    let manifest = format!(
        r#"{{
  "name": "opb-viewer",
  "version": "{version}",
  "description": "The opb viewer as a custom element, and Markdown plugins that draw a fence at build time: what an OpenPlaybook playbook or an Orchestrator Zero plugin manifest can do, on a docs page",
  "license": "MIT OR Apache-2.0",
  "type": "module",
  "exports": {{
    ".": {{
      "types": "./opb-viewer.d.ts",
      "default": "./opb-viewer.js"
    }},
    "./opb-viewer.css": "./opb-viewer.css",
    "./markdown-it": {{
      "types": "./markdown-it.d.ts",
      "default": "./markdown-it.mjs"
    }},
    "./remark": {{
      "types": "./remark.d.ts",
      "default": "./remark.mjs"
    }}
  }},
  "types": "./opb-viewer.d.ts",
  "sideEffects": [
    "./opb-viewer.js",
    "./fragment.mjs"
  ],
  "files": [
{}
  ],
  "keywords": [
    "openplaybook",
    "web-component",
    "custom-element",
    "docs",
    "markdown-it-plugin",
    "remark-plugin"
  ]
}}
"#,
        files.join(",\n")
    );
    write(stage.join("package.json"), &manifest)?;
    run(cmd("npm", ["pack", "--silent", "--pack-destination"])
        .arg(&npm)
        .arg(&stage)
        .stdout(std::process::Stdio::null()))?;
    let tarball = npm.join(format!("opb-viewer-{version}.tgz"));
    if !tarball.is_file() {
        return Err(format!("npm pack wrote no {}", tarball.display()));
    }
    println!("{}", tarball.display());
    Ok(())
}

/// opb's PyPI wheel (pyproject.toml), built by maturin from
/// tools/packaging (scripts/setup.sh test): the release build of the root
/// package's `opb`, stripped, with the Python package beside it (`python
/// -m opb`, the MkDocs plugin), into target/wheels, emptied first so the
/// wheel is the only one there (tests/docs-sites, tests/packaging and
/// tests/editors install it from there). Prints the wheel's size and its binary's, the figures
/// docs/performance.md records.
fn wheel() -> Result {
    let wheels = root().join("target/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(cmd("tools/packaging/.venv/bin/maturin", ["build", "--release", "--out"]).arg(&wheels))?;
    let built: Vec<PathBuf> = std::fs::read_dir(&wheels)
        .map_err(|e| format!("{}: {e}", wheels.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .collect();
    let [wheel] = built.as_slice() else {
        return Err(format!("expected one wheel in {}, found {}", wheels.display(), built.len()));
    };
    let sizes = r#"
import os, sys, zipfile
wheel = sys.argv[1]
with zipfile.ZipFile(wheel) as archive:
    binary = next(i for i in archive.infolist() if i.filename.endswith(".data/scripts/opb"))
print(f"{os.path.basename(wheel)}: {os.path.getsize(wheel):,} bytes; opb in it: {binary.file_size:,} bytes", file=sys.stderr)
"#;
    run(cmd("tools/packaging/.venv/bin/python", ["-c", sizes]).arg(wheel))
}

/// opb's pre-commit mirror: a hook repository whose `opb` hook installs
/// opb's wheel from PyPI, so a hook run needs no Rust. pre-commit installs
/// a python hook by `pip install .` of the hook's repository, which here
/// would compile opb with cargo (pyproject.toml is maturin's), so that hook
/// lives in a repository of its own, as ruff-pre-commit does for ruff. Its
/// package holds no code and requires `opb` at the workspace's version; its
/// hooks are this repository's, with the `opb` hook in the python language.
/// A release publishes the mirror as the `opb-pre-commit` repository.
/// Written into DIR (which must not exist) as a git repository with one
/// commit, tagged v<version>.
pub fn pre_commit_mirror(args: &[String]) -> Result {
    let [out] = args else {
        return Err("usage: cargo xtask pre-commit-mirror DIR".into());
    };
    let out = Path::new(out);
    if out.exists() {
        return Err(format!("{} exists", out.display()));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let version = workspace_version()?;

    write(
        out.join(".pre-commit-hooks.yaml"),
        &mirror_hooks(&read(root().join(".pre-commit-hooks.yaml"))?, &version)?,
    )?;
    write(
        out.join("pyproject.toml"),
        &format!(
            r#"[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "opb-pre-commit"
version = "{version}"
description = "pre-commit hooks of opb, installing opb from PyPI"
readme = "README.md"
license = "MIT OR Apache-2.0"
dependencies = ["opb=={version}"]

[tool.setuptools]
py-modules = []
"#
        ),
    )?;
    write(
        out.join("README.md"),
        &format!(
            r#"# opb-pre-commit

[pre-commit](https://pre-commit.com) hooks of opb, which checks
OpenPlaybook documents and Orchestrator Zero plugin manifests. The `opb`
hook installs opb's wheel from PyPI: no Rust is needed.

```yaml
repos:
  - repo: https://example.invalid/opb-pre-commit
    rev: v{version}
    hooks:
      - id: opb
```

The hooks check staged `*.opb.json`, `*.opb.yaml`, `*.opb.yml` and
`oz0-plugin.yaml` files and fail on an error, showing each finding in its
source. `opb-system` runs the `opb` on PATH instead.

Made from opb {version} by `cargo xtask pre-commit-mirror`.
"#
        ),
    )?;
    let git = |args: &[&str]| cmd("git", ["-C"]).arg(out).args(args).status();
    for step in [
        &["init", "--quiet"][..],
        &["add", "."],
        &[
            "-c",
            "user.name=opb release",
            "-c",
            "user.email=release@example.invalid",
            "commit",
            "--quiet",
            "-m",
            &format!("opb {version}"),
        ],
        &["tag", &format!("v{version}")],
    ] {
        let status = git(step).map_err(|e| format!("git: {e}"))?;
        if !status.success() {
            return Err(format!("git {} failed ({status})", step.join(" ")));
        }
    }
    Ok(())
}

/// The mirror's hooks: this repository's, without its opening comment (the
/// same files matched and the same entries), the one rust hook in python.
fn mirror_hooks(hooks: &str, version: &str) -> Result<String> {
    let mut text = format!(
        "# opb's pre-commit hooks. `opb` installs opb {version} from PyPI into\n\
         # pre-commit's environment for this repository; `opb-system` runs the opb on PATH.\n"
    );
    let body = hooks.lines().skip_while(|line| line.starts_with('#'));
    let mut python = 0;
    for line in body {
        if line == "  language: rust" {
            python += 1;
            text.push_str("  language: python\n");
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    if python != 1 || text.matches("\n  language: python\n").count() != 1 {
        return Err(
            ".pre-commit-hooks.yaml should hold exactly one hook in the rust language".into()
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::mirror_hooks;

    #[test]
    fn the_mirror_installs_the_rust_hook_from_pypi() {
        let hooks =
            "# ours\n# more\n- id: opb\n  language: rust\n- id: opb-system\n  language: system\n";
        let mirrored = mirror_hooks(hooks, "1.2.3").unwrap();
        assert!(
            mirrored.starts_with("# opb's pre-commit hooks. `opb` installs opb 1.2.3 from PyPI")
        );
        assert!(mirrored
            .ends_with("- id: opb\n  language: python\n- id: opb-system\n  language: system\n"));
        assert!(!mirrored.contains("# ours"));
        assert!(mirror_hooks("- id: a\n  language: system\n", "1").is_err());
    }
}
