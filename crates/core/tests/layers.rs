//! The core's layers point down: every path a module of `src/` names
//! (`crate::…`, `super::…`) leads to its own layer or one below it. And no
//! crate of the workspace has a module cycle: two modules that each name
//! the other (directly or round a ring) are one piece split in two files.
//!
//! syntax (the `opb-syntax` crate) → diagnostics → views → rules → schema → explain → assist →
//! the façade in `lib.rs`. Test code may call the façade: it tests it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
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

/// Where a path starts: the crate root, or `n` modules up (`super::` n times).
#[derive(Clone, Copy)]
enum Start {
    Crate,
    Super(usize),
}

/// Every path `text` names that starts with `crate::` or `super::`, as
/// written after that start, with the line it starts on. A group names each
/// of its paths: `crate::{a, b::{c, d}}` names `a`, `b::c` and `b::d`;
/// `self` in a group names the group's own path.
fn named_paths(text: &str) -> Vec<(Start, Vec<String>, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let boundary = at == 0 || !is_ident(bytes[at - 1]);
        let rest = &bytes[at..];
        let start = if boundary && rest.starts_with(b"crate::") {
            at += "crate::".len();
            Start::Crate
        } else if boundary && rest.starts_with(b"super::") {
            let mut ups = 0;
            while bytes[at..].starts_with(b"super::") {
                ups += 1;
                at += "super::".len();
            }
            Start::Super(ups)
        } else {
            at += 1;
            continue;
        };
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let mut paths = Vec::new();
        at = use_tree(bytes, at, Vec::new(), &mut paths);
        found.extend(paths.into_iter().map(|path| (start, path, line)));
    }
    found
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Reads a path or a `{…}` group from `at` after `prefix`, pushing each
/// path it names to `out`; returns where it ends.
fn use_tree(
    bytes: &[u8],
    mut at: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let skip_blanks = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    };
    loop {
        at = skip_blanks(at);
        if bytes.get(at) == Some(&b'{') {
            at += 1;
            loop {
                at = skip_blanks(at);
                match bytes.get(at) {
                    None => return at,
                    Some(b'}') => return at + 1,
                    Some(b',') => at += 1,
                    Some(_) => {
                        let before = at;
                        at = use_tree(bytes, at, prefix.clone(), out);
                        if at == before {
                            at += 1;
                        }
                    }
                }
            }
        }
        let word_end = at + bytes[at..].iter().take_while(|&&b| is_ident(b)).count();
        let word = String::from_utf8_lossy(&bytes[at..word_end]).into_owned();
        if word.is_empty() || word == "self" {
            out.push(prefix);
            return word_end;
        }
        prefix.push(word);
        at = word_end;
        if bytes[at..].starts_with(b"::") {
            at += 2;
        } else {
            out.push(prefix);
            return at;
        }
    }
}

/// Every path `text` names that starts with `crate` or `super`, resolved to
/// the module it leads into (its first segments), with the line it is on.
/// `crate::{a, b::c}` names `a` and `b`.
fn named_modules(text: &str, module: &[String]) -> Vec<(Vec<String>, usize)> {
    named_paths(text)
        .into_iter()
        .filter_map(|(start, path, line)| {
            let mut target = base(start, module);
            target.push(path.into_iter().next()?);
            Some((target, line))
        })
        .collect()
}

/// The module a path's start names, seen from `module`.
fn base(start: Start, module: &[String]) -> Vec<String> {
    match start {
        Start::Crate => Vec::new(),
        Start::Super(ups) => module[..module.len().saturating_sub(ups)].to_vec(),
    }
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

/// A crate's module graph between siblings: a path from inside module `a`
/// into module `b`, where neither holds the other, is an edge between the
/// children of their deepest common module that hold them, kept with the
/// first place (`file:line`) that makes it. A module and the modules inside
/// it are one unit: a child naming its parent's items is no cycle. A path
/// leads into the deepest module it names (`crate::rules::drift::DR001`
/// into `rules::drift`); `files` are `(path under src, text)`.
fn sibling_edges(files: &[(PathBuf, String)]) -> BTreeMap<(String, String), String> {
    // A file's module and every module holding it.
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .flat_map(|(relative, _)| {
            let module = module_of(relative);
            (0..=module.len()).map(move |len| module[..len].to_vec())
        })
        .collect();
    let mut edges = BTreeMap::new();
    for (relative, text) in files {
        let module = module_of(relative);
        for (start, path, line) in named_paths(&code(text)) {
            let mut target = base(start, &module);
            let known = (0..=path.len())
                .rev()
                .map(|len| [target.as_slice(), &path[..len]].concat())
                .find(|candidate| modules.contains(candidate));
            target = known.unwrap_or(target);
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == module.len() || common == target.len() {
                continue;
            }
            let from = module[..=common].join("::");
            let to = target[..=common].join("::");
            edges.entry((from, to)).or_insert_with(|| format!("{}:{line}", relative.display()));
        }
    }
    edges
}

/// Each cycle of `edges`, once (from its smallest module), as its modules
/// in order with the place that makes each step.
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<String> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
    }
    let mut found = Vec::new();
    for &start in next.keys() {
        // The shortest way back to `start`, through modules after it only.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut closing = None;
        while let Some(module) = queue.pop_front() {
            for &to in next.get(module).into_iter().flatten() {
                if to == start {
                    closing = Some(module);
                    break;
                }
                if to > start && !came_from.contains_key(to) {
                    came_from.insert(to, module);
                    queue.push_back(to);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let Some(mut module) = closing else { continue };
        let mut ring = vec![start];
        while module != start {
            ring.push(module);
            module = came_from[module];
        }
        ring[1..].reverse();
        ring.push(start);
        let steps: Vec<String> = ring
            .windows(2)
            .map(|pair| {
                let place = &edges[&(pair[0].to_owned(), pair[1].to_owned())];
                format!("{} → {} ({place})", pair[0], pair[1])
            })
            .collect();
        found.push(steps.join(", "));
    }
    found
}

/// The source folders of the workspace's crates: the root package's `src/`
/// (the CLI) and each `crates/*/src`.
fn workspace_sources() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut sources = vec![("opb-cli".to_owned(), root.join("src"))];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/ is readable").flatten() {
        let src = entry.path().join("src");
        if src.is_dir() {
            sources.push((entry.file_name().to_string_lossy().into_owned(), src));
        }
    }
    sources.sort();
    sources
}

#[test]
fn no_crate_of_the_workspace_has_a_module_cycle() {
    let sources = workspace_sources();
    assert!(sources.len() >= 9, "{} crates found", sources.len());
    let mut problems = Vec::new();
    for (krate, src) in &sources {
        let mut paths = Vec::new();
        rust_files(src, &mut paths);
        let files: Vec<(PathBuf, String)> = paths
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).expect("a source file is readable");
                (path.strip_prefix(src).expect("under src").to_owned(), text)
            })
            .collect();
        problems
            .extend(cycles(&sibling_edges(&files)).into_iter().map(|c| format!("{krate}: {c}")));
    }
    assert!(problems.is_empty(), "module cycles:\n{}", problems.join("\n"));
}

#[test]
fn a_module_cycle_is_found() {
    let files = |sources: &[(&str, &str)]| -> Vec<(PathBuf, String)> {
        sources.iter().map(|(path, text)| (PathBuf::from(path), (*text).to_owned())).collect()
    };
    // The drift rules read the registry, which read its entries with drift's.
    let drift_and_registry = files(&[
        ("lib.rs", "pub mod rules;\npub use rules::registry::Registry;"),
        ("rules/mod.rs", "pub mod drift;\npub mod registry;"),
        ("rules/drift/mod.rs", "mod shape;\nuse crate::rules::registry::{Registry, RegistryTool};"),
        ("rules/drift/shape.rs", "use super::listed;"),
        ("rules/registry.rs", "use crate::diagnostics::Report;\nuse crate::rules::drift;"),
    ]);
    assert_eq!(
        cycles(&sibling_edges(&drift_and_registry)),
        ["rules::drift → rules::registry (rules/drift/mod.rs:2), rules::registry → rules::drift (rules/registry.rs:2)"]
    );
    // Round a ring of three, through a group and a `super::super` path.
    let ring = files(&[
        ("a.rs", "use crate::{b::B, x};"),
        ("b/mod.rs", "fn f() { crate::c::g() }"),
        ("c/d.rs", "use super::super::a::{self, A};"),
    ]);
    assert_eq!(
        cycles(&sibling_edges(&ring)),
        ["a → b (a.rs:1), b → c (b/mod.rs:1), c → a (c/d.rs:1)"]
    );
    // A parent and its children, both ways, and the registry inside drift.
    let nested = files(&[
        (
            "rules/drift/mod.rs",
            "mod registry;\nuse registry::Registry;\nuse super::drift::registry::Tool;",
        ),
        ("rules/drift/registry.rs", "use super::shape::entries;\nuse super::listed;"),
        ("rules/drift/shape.rs", "use crate::rules::input::IN006;"),
        ("rules/input.rs", ""),
        ("lib.rs", "use crate::rules::drift::registry;"),
    ]);
    assert!(cycles(&sibling_edges(&nested)).is_empty(), "{:?}", sibling_edges(&nested));
}

/// The converter and the share links read documents with the syntax layer
/// alone; the syntax layer knows no rule; the graph layout (opb-layout)
/// knows no playbook: of our crates it uses the syntax layer's sorts and
/// pauses only.
#[test]
fn the_syntax_layer_stands_alone() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["syntax", "convert", "share", "layout"] {
        let manifest = std::fs::read_to_string(crates.join(krate).join("Cargo.toml"))
            .expect("a crate manifest");
        let ours: Vec<&str> = manifest
            .lines()
            .filter_map(|line| line.trim().split([' ', '=']).next())
            .filter(|name| name.starts_with("opb-") && *name != "opb-syntax")
            .filter(|name| !(*name == "opb-yaml-events" && krate == "syntax"))
            .collect();
        assert!(ours.is_empty(), "crates/{krate} depends on {ours:?}");
    }
}
