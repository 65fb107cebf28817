//! The completion context in JSON, from a scan of the tokens before the
//! cursor: the brackets open there, each object's keys so far and whether
//! a key or a value comes next. The text being typed need not parse (a
//! string not yet closed, a missing comma, no closing brackets yet). The
//! keys after the cursor, up to the end of its object, are scanned too.

use super::context::{word_end, Context, Slot};

/// A token of JSON text, as tolerantly as typing needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Open {
        object: bool,
    },
    Close,
    Colon,
    Comma,
    /// A string: its bytes, quotes included, and whether it was closed (an
    /// unclosed one ends at its line's end).
    String {
        closed: bool,
    },
    /// Anything else between separators: a number, a literal, a bare word.
    Word,
}

/// The token at or after `at`, with its bytes.
fn token(text: &str, at: usize) -> Option<(Token, usize, usize)> {
    let bytes = text.as_bytes();
    let start = at + bytes.get(at..)?.iter().position(|b| !b.is_ascii_whitespace())?;
    let one = |token| Some((token, start, start + 1));
    match bytes[start] {
        b'{' => one(Token::Open { object: true }),
        b'[' => one(Token::Open { object: false }),
        b'}' | b']' => one(Token::Close),
        b':' => one(Token::Colon),
        b',' => one(Token::Comma),
        b'"' => {
            let mut i = start + 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return Some((Token::String { closed: true }, start, i + 1)),
                    b'\n' => break,
                    _ => i += 1,
                }
            }
            let end = i.min(bytes.len());
            let end = if bytes[..end].ends_with(b"\r") { end - 1 } else { end };
            Some((Token::String { closed: false }, start, end))
        }
        _ => {
            let len = bytes[start..]
                .iter()
                .position(|b| b.is_ascii_whitespace() || b"{}[]:,\"".contains(b))
                .unwrap_or(bytes.len() - start);
            Some((Token::Word, start, start + len))
        }
    }
}

/// What comes next in an open object or array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Key,
    Colon,
    Value,
    Comma,
}

/// An open object or array.
#[derive(Debug, Clone)]
struct Frame {
    object: bool,
    /// Its pointer token in the container it is in.
    token: Option<String>,
    next: Next,
    /// The current member's key (objects).
    key: Option<String>,
    /// The keys seen (objects).
    keys: Vec<String>,
    /// The current item's index (arrays).
    index: usize,
}

impl Frame {
    fn new(object: bool, token: Option<String>) -> Frame {
        Frame {
            object,
            token,
            next: if object { Next::Key } else { Next::Value },
            key: None,
            keys: Vec::new(),
            index: 0,
        }
    }
}

/// Moves the open frames past one token.
fn step(frames: &mut Vec<Frame>, token: Token, raw: &str) {
    match token {
        Token::Open { object } => {
            let token = frames.last_mut().map(|parent| {
                parent.next = Next::Comma;
                if parent.object {
                    parent.key.clone().unwrap_or_default()
                } else {
                    parent.index.to_string()
                }
            });
            frames.push(Frame::new(object, token));
        }
        Token::Close => {
            frames.pop();
        }
        Token::Colon => {
            if let Some(frame) = frames.last_mut().filter(|f| f.object && f.next == Next::Colon) {
                frame.next = Next::Value;
            }
        }
        Token::Comma => {
            if let Some(frame) = frames.last_mut() {
                if frame.object {
                    frame.next = Next::Key;
                    frame.key = None;
                } else {
                    frame.index += 1;
                    frame.next = Next::Value;
                }
            }
        }
        Token::String { .. } | Token::Word => {
            if let Some(frame) = frames.last_mut() {
                // A key after a value with no comma between: one being typed.
                if frame.object && matches!(frame.next, Next::Key | Next::Comma) {
                    let key = unquote(raw).to_owned();
                    frame.keys.push(key.clone());
                    frame.key = Some(key);
                    frame.next = Next::Colon;
                } else {
                    frame.next = Next::Comma;
                }
            }
        }
    }
}

fn unquote(raw: &str) -> &str {
    let inner = raw.strip_prefix('"').unwrap_or(raw);
    inner.strip_suffix('"').unwrap_or(inner)
}

/// The completion context at `offset` (a character boundary) of a JSON
/// text; `None` outside an object's key or value.
pub(super) fn context(text: &str, offset: usize) -> Option<Context> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut at = 0;
    // The token the cursor is in or at the end of, if any.
    let mut word = None;
    while let Some((token, start, end)) = token(text, at) {
        if start >= offset {
            break;
        }
        match token {
            Token::String { closed } if offset < end || (!closed && offset == end) => {
                word = Some((token, start, end));
                break;
            }
            // Right after a string's closing quote: nothing to complete.
            Token::String { .. } if offset == end => return None,
            Token::Word if offset <= end => {
                word = Some((token, start, end));
                break;
            }
            _ => {}
        }
        step(&mut frames, token, &text[start..end]);
        at = end;
    }
    let frame = frames.last()?;
    if !frame.object {
        return None;
    }
    let tokens: Vec<String> = frames.iter().filter_map(|f| f.token.clone()).collect();
    let (from, to, quote, closed, resume) = match word {
        Some((Token::String { closed }, start, end)) => {
            let to = if closed { end - 1 } else { word_end(text, offset) };
            (start + 1, to, Some('"'), closed, end)
        }
        Some((_, start, end)) => (start, end, None, false, end),
        None => (offset, offset, None, false, offset),
    };
    let slot = match frame.next {
        // After a value with no comma yet, only a key already begun.
        Next::Comma if word.is_none() => return None,
        Next::Key | Next::Comma => Slot::Key { present: Vec::new() },
        Next::Value => Slot::Value { key: frame.key.clone()? },
        Next::Colon => return None,
    };
    let mut context = Context::new(tokens, slot, from, to);
    context.quote = quote;
    context.closed = closed;
    if let Slot::Key { present } = &mut context.slot {
        context.has_colon = text[resume..].trim_start().starts_with(':');
        let mut rest = vec![frame.clone()];
        if word.is_some() {
            // The key being typed is the member's, not one the object has.
            rest[0].next = Next::Colon;
        }
        *present = keys_after(text, resume, rest);
    }
    Some(context)
}

/// The keys of the object `frames` holds, those it had before `at` and
/// those after it up to its end.
fn keys_after(text: &str, mut at: usize, mut frames: Vec<Frame>) -> Vec<String> {
    while let Some((token, start, end)) = token(text, at) {
        if token == Token::Close && frames.len() == 1 {
            break;
        }
        step(&mut frames, token, &text[start..end]);
        at = end;
    }
    frames.into_iter().next().map(|f| f.keys).unwrap_or_default()
}
