//! Document transformations shared by the CLI and the playground:
//! pretty-printing, and converting between JSON and YAML without losing data.
//!
//! Everything works from the core's tree ([`opb_syntax::parse`]), so a
//! conversion reads the text exactly as the checks do: keys stay in source
//! order and numbers stay as written. What the target syntax cannot hold is
//! refused with a [`ConvertError`] rather than silently dropped; YAML
//! comments, which no tree keeps, are counted in [`Converted::comments_dropped`]
//! so the caller can say so.

mod comments;
mod json;
mod yaml;

use opb_syntax::{Limits, Node, Syntax};

/// A converted text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    pub text: String,
    pub syntax: Syntax,
    /// How many YAML comments the source had; the output keeps none.
    pub comments_dropped: usize,
}

impl Converted {
    /// What the conversion did not keep, as a sentence for the reader: the
    /// playground's notice and the CLI's note say it in these words.
    pub fn comments_note(&self) -> Option<String> {
        match self.comments_dropped {
            0 => None,
            1 => Some("Its one comment was not kept".to_owned()),
            n => Some(format!("Its {n} comments were not kept")),
        }
    }
}

/// Why a text could not be converted. Each message names what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvertError {
    /// The text does not parse; `message` is the parser's diagnostic.
    Unreadable { message: String },
    /// An object repeats a key, which YAML forbids and a YAML mapping cannot
    /// hold twice.
    DuplicateKey { pointer: String, key: String },
    /// A number JSON cannot write (`.inf`, `.nan`).
    NotRepresentable { pointer: String, raw: String },
    /// A key longer, as YAML writes it, than the 1024 characters YAML
    /// allows a key written before its `:`.
    KeyTooLong { pointer: String, length: usize },
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvertError::Unreadable { message } => {
                write!(f, "The document cannot be read, so it cannot be rewritten: {message}")
            }
            ConvertError::DuplicateKey { pointer, key } => write!(
                f,
                "The key `{key}` appears twice in {}; YAML cannot hold both values. Remove or rename one first.",
                object_at(pointer)
            ),
            ConvertError::NotRepresentable { pointer, raw } => write!(
                f,
                "The number `{raw}` at `{pointer}` has no JSON form. Write it as a string or a finite number first."
            ),
            ConvertError::KeyTooLong { pointer, length } => write!(
                f,
                "A key in {} is {length} characters long as YAML writes it; YAML reads a key of at most 1024. Shorten the key first.",
                object_at(pointer)
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

fn object_at(pointer: &str) -> String {
    if pointer.is_empty() {
        "the top-level object".to_owned()
    } else {
        format!("the object at `{pointer}`")
    }
}

/// Rewrites `text` (written in `from`) as `to`, indented the canonical way:
/// two spaces, one member per line, YAML multi-line strings as literal blocks.
/// `from == to` pretty-prints.
pub fn convert(
    text: &str,
    from: Syntax,
    to: Syntax,
    limits: &Limits,
) -> Result<Converted, ConvertError> {
    let root = read(text, from, limits)?;
    let text_out = match to {
        Syntax::Json => json::write(&root)?,
        Syntax::Yaml => yaml::write(&root)?,
    };
    let comments_dropped = match from {
        Syntax::Yaml => comments::count(text, &root),
        Syntax::Json => 0,
    };
    Ok(Converted { text: text_out, syntax: to, comments_dropped })
}

/// Pretty-prints `text` in its own syntax.
pub fn pretty(text: &str, syntax: Syntax, limits: &Limits) -> Result<Converted, ConvertError> {
    convert(text, syntax, syntax, limits)
}

fn read(text: &str, syntax: Syntax, limits: &Limits) -> Result<Node, ConvertError> {
    let parsed = opb_syntax::parse(text, syntax, limits);
    parsed.root.ok_or_else(|| ConvertError::Unreadable {
        message: parsed
            .problems
            .into_iter()
            .next()
            .map(|problem| problem.message)
            .unwrap_or_else(|| "the text holds no document.".to_owned()),
    })
}
