//! The core's layers point down: every path a module of `src/` names
//! (`crate::…`, `super::…`) leads to its own layer or one below it.
//!
//! syntax (the `opb-syntax` crate) → diagnostics → views → rules → schema → explain → assist →
//! the façade in `lib.rs`. Test code may call the façade: it tests it.

use std::path::{Path, PathBuf};

/// The layers, lowest first; `lib.rs` (the crate root) is above them all.
const LAYERS: &[&str] = &["diagnostics", "views", "rules", "schema", "explain", "assist"];
const FACADE: usize = LAYERS.len();

/// The layer of a module path (from the crate root): its first segment's.
fn layer_of(module: &[String]) -> Option<usize> {
    match module.first() {
        None => Some(FACADE),
        Some(first) => LAYERS.iter().position(|layer| layer == first),
    }
}

/// The module path of a file under `src/`: `views/manifest/mod.rs` is
/// `views::manifest`, `lib.rs` the root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> =
        relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if let Some(last) = segments.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            segments.push(stem.to_owned());
        }
    }
    segments
}

/// The code of a file without comments and without its inline test module
/// (the `#[cfg(test)] mod tests { … }` a file with unit tests ends with).
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod tests {").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path `text` names that starts with `crate` or `super`, resolved to
/// the module it leads into (its first segments), with the line it is on.
/// `crate::{a, b::c}` names `a` and `b`.
fn named_modules(text: &str, module: &[String]) -> Vec<(Vec<String>, usize)> {
    let mut found = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(['c', 's']) {
            let (before, from) = rest.split_at(at);
            let boundary = before.chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let (base, after) = if boundary && from.starts_with("crate::") {
                (Vec::new(), &from["crate::".len()..])
            } else if boundary && from.starts_with("super::") {
                let mut base = module.to_vec();
                let mut after = from;
                while let Some(next) = after.strip_prefix("super::") {
                    base.pop();
                    after = next;
                }
                (base, after)
            } else {
                rest = &from[1..];
                continue;
            };
            let firsts: Vec<String> = match after.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(|item| item.trim().split("::").next().unwrap_or_default().to_owned())
                    .filter(|item| !item.is_empty() && item != "self")
                    .collect(),
                None => vec![after
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_owned()],
            };
            for first in firsts {
                let mut target = base.clone();
                target.push(first);
                found.push((target, line_index + 1));
            }
            rest = after;
        }
    }
    found
}

/// The upward imports of one file: `(line, what it names, its layer)`.
fn upward(relative: &Path, text: &str) -> Vec<String> {
    let module = module_of(relative);
    let Some(own) = layer_of(&module) else {
        return vec![format!(
            "{}: a top-level module of no layer; add it to LAYERS",
            relative.display()
        )];
    };
    named_modules(&code(text), &module)
        .into_iter()
        .filter_map(|(target, line)| {
            // A crate-root item that is not a layer is the façade's.
            let layer = layer_of(&target).unwrap_or(FACADE);
            (layer > own).then(|| {
                format!(
                    "{}:{line}: `{}` is in a higher layer",
                    relative.display(),
                    target.join("::")
                )
            })
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

#[test]
fn every_import_inside_the_core_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "{} files found", files.len());
    let problems: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).expect("a source file is readable");
            upward(path.strip_prefix(&src).expect("under src"), &text)
        })
        .collect();
    assert!(problems.is_empty(), "imports that point up:\n{}", problems.join("\n"));
}

#[test]
fn an_upward_import_is_found() {
    let views = Path::new("views/graph.rs");
    assert_eq!(
        upward(views, "use crate::rules::input::IN001;\n"),
        ["views/graph.rs:1: `rules` is in a higher layer"]
    );
    assert_eq!(
        upward(views, "use crate::{diagnostics::Rule, explain::Explain};"),
        ["views/graph.rs:1: `explain` is in a higher layer"]
    );
    assert_eq!(
        upward(views, "let o = crate::Options::default();"),
        ["views/graph.rs:1: `Options` is in a higher layer"]
    );
    assert_eq!(
        upward(Path::new("views/manifest/mod.rs"), "use super::super::rules::Rule;"),
        ["views/manifest/mod.rs:1: `rules` is in a higher layer"]
    );
    assert!(upward(views, "use super::playbook::PlaybookView;\nuse crate::diagnostics::Report;")
        .is_empty());
    assert!(upward(views, "// crate::explain is mentioned in a comment\n").is_empty());
    assert!(upward(views, "#[cfg(test)]\nmod tests {\n    use crate::check;\n}").is_empty());
    assert_eq!(
        upward(views, "#[cfg(test)]\nmod tests;\nuse crate::Options;").len(),
        1,
        "code after a test module's declaration is read"
    );
    assert!(upward(Path::new("lib.rs"), "use crate::explain::Explain;").is_empty());
    assert_eq!(
        upward(Path::new("model/x.rs"), "").len(),
        1,
        "a module outside the layers is reported"
    );
}

/// The converter and the share links read documents with the syntax layer
/// alone; the syntax layer knows no rule.
#[test]
fn the_syntax_layer_stands_alone() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (krate, forbidden) in
        [("syntax", "opb-core"), ("convert", "opb-core"), ("share", "opb-core")]
    {
        let manifest = std::fs::read_to_string(crates.join(krate).join("Cargo.toml"))
            .expect("a crate manifest");
        assert!(!manifest.contains(forbidden), "crates/{krate} depends on {forbidden}");
    }
}
