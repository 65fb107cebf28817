//! A bracket or quote that is never closed is reported where it opened.
//!
//! A parser notices a missing `]` only where the text stops making sense,
//! often lines later (rustc's "unclosed delimiter" shows the same thing).
//! The person looks for the bracket they forgot, so the problem points at
//! the opening and keeps the parser's position as a [`Note`].
//!
//! A bracket still open where reading stopped counts as never closed when
//! the text after the stop cannot be its content: the text ends, a closing
//! bracket of the other kind comes, or the next token is on a later line
//! indented no deeper than the bracket's own line, where the parent's
//! content goes on. A quote is never closed when the scanner says so
//! (YAML), or when a JSON string meets the end of its line, which RFC 8259
//! does not allow inside one.

use crate::problem::{Note, Problem};
use crate::text::{LineIndex, Span};

/// What was open where reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Open {
    /// A `[` or `{` at this byte offset.
    Bracket(usize),
    /// A string's opening quote at this byte offset, certainly unclosed.
    Quote(usize),
}

/// IN001 for a `language` text the parser stopped reading at `stop`, saying
/// `parser` (its own words): at the opening of what `open` names when that
/// never closed, with the parser's position as the note; else at `stop`.
pub(crate) fn relocate(
    text: &str,
    language: &str,
    parser: &str,
    stop: Span,
    open: Option<Open>,
) -> Problem {
    let index = LineIndex::new(text);
    let position = index.position(stop.start);
    let unclosed = match open {
        Some(Open::Quote(at)) => Some(at),
        Some(Open::Bracket(at)) if never_closed(text, &index, at, stop.start) => Some(at),
        _ => None,
    };
    let Some(at) = unclosed.filter(|at| *at != stop.start) else {
        return Problem::syntax(
            format!(
                "Invalid {language}: {parser} (line {}, column {}).",
                position.line, position.column
            ),
            stop,
        );
    };
    let opening = text[at..].chars().next().map_or("", |c| &text[at..at + c.len_utf8()]);
    let subject = match open {
        Some(Open::Quote(_)) => format!("the string this `{opening}` opens"),
        _ => format!("this `{opening}`"),
    };
    let opened = index.position(at);
    let mut problem = Problem::syntax(
        format!(
            "Invalid {language}: {subject} is never closed (line {}, column {}); reading stopped at line {}, column {}: {parser}.",
            opened.line, opened.column, position.line, position.column
        ),
        Span::new(at, at + opening.len()),
    );
    problem.related =
        Some(Note { message: format!("Reading stopped here: {parser}."), span: stop });
    problem
}

/// Whether the bracket at `open` cannot be closed by the text from `stop`
/// on (see the module's documentation).
fn never_closed(text: &str, index: &LineIndex<'_>, open: usize, stop: usize) -> bool {
    let Some((at, next)) = text[stop..].char_indices().find(|(_, c)| !c.is_whitespace()) else {
        return true;
    };
    let at = stop + at;
    let bracket = text.as_bytes()[open];
    if matches!((bracket, next), (b'[', '}') | (b'{', ']')) {
        return true;
    }
    let (line_of_open, line_of_next) = (index.position(open).line, index.position(at).line);
    line_of_next > line_of_open && indentation(text, at) <= indentation(text, open)
}

/// How many spaces and tabs begin the line that holds `at`.
fn indentation(text: &str, at: usize) -> usize {
    let start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    text[start..].bytes().take_while(|b| matches!(b, b' ' | b'\t')).count()
}

/// What a JSON text leaves open at `stop`: the innermost bracket, or a
/// string that began before `stop` and met the end of its line (or `stop`)
/// unclosed. `from` skips a byte-order mark.
pub(crate) fn open_in_json(text: &str, from: usize, stop: usize) -> Option<Open> {
    let mut brackets = Vec::new();
    let mut string: Option<usize> = None;
    let mut escaped = false;
    for (at, c) in text[from..].char_indices().map(|(i, c)| (from + i, c)) {
        if let Some(opening) = string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => string = None,
                '\n' | '\r' => return Some(Open::Quote(opening)),
                _ => {}
            }
            continue;
        }
        // A string may open where reading stopped: jsonc-parser stops at
        // the opening quote of one it finds unterminated.
        if at > stop || (at == stop && c != '"') {
            break;
        }
        match c {
            '"' => string = Some(at),
            '[' | '{' => brackets.push(at),
            ']' | '}' => {
                brackets.pop();
            }
            _ => {}
        }
    }
    match string {
        Some(opening) => Some(Open::Quote(opening)),
        None => brackets.last().map(|at| Open::Bracket(*at)),
    }
}
