//! The syntax layer of opb: JSON and YAML read into one tree that knows the
//! source span of every key and value, positions in the text, JSON pointers,
//! the input limits, and telling a playbook from a plugin manifest.
//!
//! It knows no rule: what it cannot read it returns as [`Problem`]s, plain
//! data the core reports under its rules. The converter and the share links
//! build on this crate alone.
//!
//! Architecture invariant: parsing never fails as a whole. It returns the tree
//! it could build (or none) plus the problems met along the way.

#![warn(missing_docs)]

mod detect;
mod json;
#[cfg(feature = "fast-json")]
mod json_strict;
mod limits;
pub mod order;
pub mod pause;
mod pointer;
mod problem;
pub mod text;
mod tree;
mod unclosed;
mod yaml;

pub use detect::{detect, Kind};
pub use limits::Limits;
pub use pointer::{item_pointer, Ptr};
pub use problem::{Note, Problem, ProblemKind};
pub use tree::{CompactString, JsonType, Member, Node, Number, Object, Value};

use serde::Serialize;
use std::future::Future;

/// The concrete syntax a text is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// JSON (RFC 8259), read strictly: no comments, no trailing commas.
    Json,
    /// YAML 1.2.
    Yaml,
}

impl Syntax {
    /// Guesses the syntax from the text: JSON when the first meaningful
    /// character opens an object or array, YAML otherwise (YAML comments,
    /// `key: value` lines, `---`).
    pub fn sniff(text: &str) -> Syntax {
        let first = text.trim_start_matches('\u{feff}').trim_start().chars().next();
        match first {
            Some('{') | Some('[') => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }

    /// The syntax a file name implies, if its extension says.
    pub fn from_path(path: &str) -> Option<Syntax> {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".json") {
            Some(Syntax::Json)
        } else if lower.ends_with(".yaml") || lower.ends_with(".yml") {
            Some(Syntax::Yaml)
        } else {
            None
        }
    }
}

/// What parsing produced: the tree (absent when the text could not be read at
/// all) and the problems made along the way.
#[derive(Debug)]
pub struct Parsed {
    /// The document's top value; none when nothing could be read (a syntax
    /// error before the first value, an empty text, a limit).
    pub root: Option<Node>,
    /// Everything the reader could not read, in the order met; empty for a
    /// clean text.
    pub problems: Vec<Problem>,
}

/// Parses `text` as `syntax` under `limits`.
pub fn parse(text: &str, syntax: Syntax, limits: &Limits) -> Parsed {
    crate::pause::at_once(parse_pausing(text, syntax, limits, &mut crate::pause::never))
}

/// Parses as [`parse`] does, asking `pause` now and then whether to pause
/// (see [`crate::pause`]): a YAML text is read in runs of events between
/// which the caller's future, if it gives one, is awaited.
pub async fn parse_pausing<W: Future<Output = ()>>(
    text: &str,
    syntax: Syntax,
    limits: &Limits,
    pause: &mut impl FnMut() -> Option<W>,
) -> Parsed {
    if text.len() > limits.max_bytes {
        let size = u64::try_from(text.len()).ok();
        return Parsed { root: None, problems: vec![limits.input_too_large(size)] };
    }
    if let Some(problem) = limits::check_line_length(text, limits) {
        return Parsed { root: None, problems: vec![problem] };
    }
    match syntax {
        Syntax::Json => json::parse(text, limits),
        Syntax::Yaml => yaml::parse(text, limits, pause).await,
    }
}

/// IN005 for every key of `members` that an earlier member already has. The
/// tree keeps both; lookups read the first. `ptr` names the object; it is
/// built only when a key repeats, which few objects have.
fn duplicate_keys(members: &[Member], ptr: impl FnOnce() -> crate::pointer::Ptr) -> Vec<Problem> {
    let mut problems = Vec::new();
    if Object::unique_of(members).count() == members.len() {
        return problems;
    }
    let ptr = ptr();
    let mut firsts = Object::unique_of(members).peekable();
    for member in members {
        if firsts.next_if(|first| std::ptr::eq(*first, member)).is_some() {
            continue;
        }
        problems.push(Problem {
            kind: ProblemKind::DuplicateKey,
            message: format!(
                "The key `{}` appears twice in this object; the first is read and this one is ignored.",
                member.key
            ),
            pointer: ptr.key(&member.key).into_string(),
            span: member.key_span,
            related: None,
        });
    }
    problems
}

#[cfg(test)]
mod tests;
