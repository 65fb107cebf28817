//! Parses every rule's documentation (Markdown, written from the core's static
//! rule table) into a tree of elements once, at build time, so the wasm
//! carries the trees as static data instead of a Markdown parser, which
//! would weigh on the download.
//! Writes `$OUT_DIR/documentation.rs`: one expression, a slice of
//! `(code, &[Md])` in catalogue order, which `src/markdown.rs` includes. The
//! trees' text nodes are byte ranges of the rule's Markdown, which the app
//! writes again at run time from the same rule table.

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

/// Every rule's documentation tree, as the source of one expression.
fn documentation() -> Result<String, fmt::Error> {
    let mut out = String::from("&[\n");
    for rule in opb_core::rules() {
        write!(out, "({:?}, ", rule.code)?;
        write_nodes(&parse::parse(&rule.documentation()), &mut out)?;
        out.push_str("),\n");
    }
    out.push_str("]\n");
    Ok(out)
}

/// Writes `nodes` as a `&[Md]` expression. Strings and elements go through
/// `Debug`, which writes them as Rust literals and constructors.
fn write_nodes(nodes: &[Node], out: &mut String) -> fmt::Result {
    out.push_str("&[");
    for node in nodes {
        match node {
            Node::Source(start, end) => write!(out, "Md::Source({start}, {end}),")?,
            Node::Text(text) => write!(out, "Md::Text({text:?}),")?,
            Node::Element(el, children) => {
                write!(out, "Md::Element(El::{el:?}, ")?;
                write_nodes(children, out)?;
                out.push_str("),");
            }
        }
    }
    out.push(']');
    Ok(())
}
