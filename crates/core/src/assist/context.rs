//! Where a completion goes: the object the cursor is in, whether a key or a
//! value is being typed there, and the word it replaces. Read from the text
//! around the cursor (`block.rs` for YAML, `json.rs`), which need not parse
//! while someone types; the parsed tree is the fallback.

use super::{holds, is_scalar};
use opb_syntax::{parse, Limits, Syntax, Value};

/// What the cursor is typing, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Context {
    /// The pointer tokens of the object the cursor is in.
    pub tokens: Vec<String>,
    pub slot: Slot,
    /// The bytes of the word a completion replaces (inside its quotes).
    pub from: usize,
    pub to: usize,
    /// The quote the word was opened with, if any.
    pub quote: Option<char>,
    /// Whether the word's closing quote is already there.
    pub closed: bool,
    /// Whether a `:` already follows a key (a key being edited, not added).
    pub has_colon: bool,
    /// YAML: the key's column, for the indentation of what it holds.
    pub column: usize,
    /// YAML: a value typed right after its key's `:` needs a space first.
    pub space: bool,
}

/// A key of the object, or the value of one of its keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Slot {
    /// A key; the object already has `present` (the one typed aside).
    Key { present: Vec<String> },
    /// The value of `key`.
    Value { key: String },
}

impl Context {
    pub fn new(tokens: Vec<String>, slot: Slot, from: usize, to: usize) -> Context {
        Context {
            tokens,
            slot,
            from,
            to,
            quote: None,
            closed: false,
            has_colon: false,
            column: 0,
            space: false,
        }
    }
}

/// Whether `c` may be part of a key or an enumeration value being typed.
pub(super) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$' | '/')
}

/// The end of the word that starts at `at` (its bytes of [`is_word`]).
pub(super) fn word_end(text: &str, at: usize) -> usize {
    at + text[at..].find(|c: char| !is_word(c)).unwrap_or(text.len() - at)
}

/// Texts longer than this are not parsed for a completion: a parse of the
/// whole text on a key would make typing in a large document slow, and the
/// text scans answer nearly everywhere.
const PARSED_AT_MOST: usize = 256 * 1024;

/// The context from the parsed document, where the text scans found none (a
/// YAML flow collection): the key or scalar under the cursor.
pub(super) fn parsed(text: &str, syntax: Syntax, offset: usize) -> Option<Context> {
    if text.len() > PARSED_AT_MOST {
        return None;
    }
    let root = parse(text, syntax, &Limits::default()).root?;
    let mut tokens = Vec::new();
    let mut node = &root;
    loop {
        let Value::Object(object) = &node.value else {
            let Value::Array(items) = &node.value else { return None };
            let (index, item) =
                items.iter().enumerate().find(|(_, item)| holds(item.span, offset))?;
            tokens.push(index.to_string());
            node = item;
            continue;
        };
        let present = || {
            object
                .members
                .iter()
                .filter(|m| !holds(m.key_span, offset))
                .map(|m| m.key.to_string())
                .collect()
        };
        if let Some(member) = object.members.iter().find(|m| holds(m.key_span, offset)) {
            let mut context = quoted(
                text,
                member.key_span.start,
                member.key_span.end,
                tokens,
                Slot::Key { present: present() },
            );
            context.has_colon = true;
            return Some(context);
        }
        let member = object.members.iter().find(|m| holds(m.value.span, offset))?;
        if is_scalar(&member.value) {
            let slot = Slot::Value { key: member.key.to_string() };
            return Some(quoted(
                text,
                member.value.span.start,
                member.value.span.end,
                tokens,
                slot,
            ));
        }
        tokens.push(member.key.to_string());
        node = &member.value;
    }
}

/// A context replacing the scalar `start..end`, inside its quotes if it has
/// them.
fn quoted(text: &str, start: usize, end: usize, tokens: Vec<String>, slot: Slot) -> Context {
    let raw = text.get(start..end).unwrap_or_default();
    match raw.chars().next().filter(|c| matches!(c, '"' | '\'')) {
        Some(quote) => {
            let closed = raw.len() > 1 && raw.ends_with(quote);
            let mut context =
                Context::new(tokens, slot, start + 1, if closed { end - 1 } else { end });
            context.quote = Some(quote);
            context.closed = closed;
            context
        }
        None => Context::new(tokens, slot, start, end),
    }
}
