//! Parses every rule's documentation (Markdown, written from the core's static
//! rule table) into a tree of elements once, at build time, so the wasm
//! carries the trees as static data instead of a Markdown parser, which
//! would weigh on the download.
//! Writes `$OUT_DIR/documentation.rs`, which `src/markdown.rs` includes:
//! every tree's nodes in one flat array (`NODES`), an element's children side
//! by side in it, the few texts the sources do not hold (`TEXTS`), and
//! `(code, first, count)` of each rule's top-level nodes in catalogue order
//! (`TREES`). Positions are `u16`, so a node is a few bytes rather than a
//! slice of pointers. The trees' text nodes are byte ranges of the rule's
//! Markdown, which the app writes again at run time from the same rule table.

#[path = "src/markdown/element.rs"]
mod element;
#[path = "src/markdown/parse.rs"]
mod parse;

use element::El;
use parse::Node;
use std::fmt::{self, Write as _};
use std::path::PathBuf;

fn main() {
    // The rule table reaches this script as a build-dependency: a change to
    // it rebuilds the script, which reruns it.
    for source in ["build.rs", "src/markdown/element.rs", "src/markdown/parse.rs"] {
        println!("cargo:rerun-if-changed={source}");
    }
    let source = documentation().expect("writing into a String does not fail");
    let dir = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .expect("cargo sets OUT_DIR for build scripts");
    let path = dir.join("documentation.rs");
    if let Err(error) = std::fs::write(&path, source) {
        panic!("cannot write {}: {error}", path.display());
    }
}

/// Every rule's documentation tree, as the source of the three statics.
fn documentation() -> Result<String, fmt::Error> {
    let mut flat = Flat::default();
    let mut trees = String::from("static TREES: &[(&str, u16, u16)] = &[\n");
    for rule in opb_core::rules() {
        let (first, count) = flat.place(&parse::parse(&rule.documentation()))?;
        writeln!(trees, "({:?}, {first}, {count}),", rule.code)?;
    }
    trees.push_str("];\n");
    let mut out = String::from("static NODES: &[Md] = &[\n");
    for node in &flat.nodes {
        writeln!(out, "{node},")?;
    }
    out.push_str("];\nstatic TEXTS: &[&str] = &[");
    for text in &flat.texts {
        write!(out, "{text:?},")?;
    }
    out.push_str("];\n");
    out.push_str(&trees);
    Ok(out)
}

/// The trees' nodes as `Md` constructors, and the texts they name.
#[derive(Default)]
struct Flat {
    nodes: Vec<String>,
    texts: Vec<String>,
}

impl Flat {
    /// Places `nodes` side by side, then each element's children after
    /// them; returns where they start and how many they are. Elements and
    /// texts go through `Debug`, which writes them as Rust constructors and
    /// literals.
    fn place(&mut self, nodes: &[Node]) -> Result<(u16, u16), fmt::Error> {
        let first = self.nodes.len();
        self.nodes.resize(first + nodes.len(), String::new());
        for (at, node) in nodes.iter().enumerate() {
            self.nodes[first + at] = match node {
                Node::Source(start, end) => {
                    format!("Md::Source({}, {})", small(*start)?, small(*end)?)
                }
                Node::Text(text) => {
                    let index = match self.texts.iter().position(|known| known == text) {
                        Some(index) => index,
                        None => {
                            self.texts.push(text.clone());
                            self.texts.len() - 1
                        }
                    };
                    format!("Md::Text({})", small(index)?)
                }
                Node::Element(el, children) => {
                    let (first, count) = self.place(children)?;
                    format!("Md::Element(El::{el:?}, {first}, {count})")
                }
            };
        }
        Ok((small(first)?, small(nodes.len())?))
    }
}

/// A position as the `u16` the app stores; the documentation is far below
/// 64 K nodes and each rule's far below 64 KB, and the build fails otherwise.
fn small(n: usize) -> Result<u16, fmt::Error> {
    u16::try_from(n).map_err(|_| fmt::Error)
}
