//! The completion context in block YAML, read from the lines around the
//! cursor by their indentation: the line being typed (a half-typed key, an
//! empty value after `key: `) does not parse, so the tree cannot say where
//! it is. The object is found by walking up to the keys and `- ` items that
//! hold the cursor's column, as a reader finds it.

use super::context::{is_word, word_end, Context, Slot};

/// One line of block YAML: its `- ` markers and where its content starts.
struct Line<'t> {
    /// Where the line starts in the text.
    start: usize,
    /// Where the line's columns count from (after a byte order mark).
    origin: usize,
    /// The line, without its line break.
    text: &'t str,
    /// The columns of the `- ` markers the line starts with.
    dashes: Vec<usize>,
    /// The column the content after the indentation and markers starts at.
    column: usize,
}

impl<'t> Line<'t> {
    /// The line that starts at `start`.
    fn at(text: &'t str, start: usize) -> Line<'t> {
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let mut line = &text[start..end];
        line = line.strip_suffix('\r').unwrap_or(line);
        let mut origin = start;
        if start == 0 {
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                origin += line.len() - rest.len();
                line = rest;
            }
        }
        let mut column = spaces(line, 0);
        let mut dashes = Vec::new();
        while line[column..].starts_with('-')
            && line[column + 1..].chars().next().is_none_or(|c| c == ' ')
        {
            dashes.push(column);
            if column + 1 == line.len() {
                // A `-` ending the line: its item's content is on the next
                // lines, and nothing is typed on this one after it.
                column += 2;
                break;
            }
            column = spaces(line, column + 1);
        }
        Line { start, origin, text: line, dashes, column }
    }

    /// The content after the indentation and markers.
    fn content(&self) -> &'t str {
        self.text.get(self.column..).unwrap_or_default()
    }

    /// Nothing but spaces or a comment: no structure.
    fn is_blank(&self) -> bool {
        self.dashes.is_empty() && (self.content().is_empty() || self.content().starts_with('#'))
    }

    /// The leftmost column the line has something at.
    fn left(&self) -> usize {
        self.dashes.first().copied().unwrap_or(self.column)
    }

    /// A document marker (`---`, `...`): nothing above it holds the cursor.
    fn is_document_marker(&self) -> bool {
        self.dashes.is_empty()
            && self.column == 0
            && (self.text.starts_with("---") || self.text.starts_with("..."))
    }

    /// The key the content starts with, and whether its value is below it
    /// (nothing, a comment, an anchor or a tag after the `:`).
    fn key(&self) -> Option<(String, bool)> {
        let content = self.content();
        let (name, after) = split_key(content)?;
        let value = content[after..].trim();
        Some((name, value.is_empty() || value.starts_with(['#', '&', '!'])))
    }
}

fn spaces(line: &str, from: usize) -> usize {
    from + line[from..].len() - line[from..].trim_start_matches(' ').len()
}

/// A key at the start of `content` (plain or quoted) and where its value
/// starts, just past the `:`.
fn split_key(content: &str) -> Option<(String, usize)> {
    let first = content.chars().next()?;
    let (name, rest) = match first {
        '"' | '\'' => {
            let close = closing_quote(content, first)?;
            (content[1..close].to_owned(), close + 1)
        }
        c if "[]{}#&*!|>%@`,?:".contains(c) => return None,
        _ => {
            let mut from = 0;
            let colon = loop {
                let at = from + content[from..].find(':')?;
                if content[at + 1..].chars().next().is_none_or(|c| c == ' ' || c == '\t') {
                    break at;
                }
                from = at + 1;
            };
            let name = content[..colon].trim_end();
            if name.contains(" #") {
                return None;
            }
            return Some((name.to_owned(), colon + 1));
        }
    };
    let after = rest + content[rest..].len() - content[rest..].trim_start_matches(' ').len();
    let tail = content[after..].strip_prefix(':')?;
    tail.chars().next().is_none_or(|c| c == ' ' || c == '\t').then_some((name, after + 1))
}

/// The index of the quote closing the one `content` starts with.
fn closing_quote(content: &str, quote: char) -> Option<usize> {
    let mut chars = content.char_indices().skip(1).peekable();
    while let Some((at, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            if quote == '\'' && chars.peek().is_some_and(|&(_, next)| next == '\'') {
                chars.next();
                continue;
            }
            return Some(at);
        }
    }
    None
}

/// The lines above the line starting at `start`, nearest first.
fn lines_above(text: &str, start: usize) -> impl Iterator<Item = Line<'_>> {
    let mut end = start;
    std::iter::from_fn(move || {
        if end == 0 {
            return None;
        }
        let before = &text[..end - 1];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        end = line_start;
        Some(Line::at(text, line_start))
    })
}

/// The lines below the line starting at `start`, nearest first.
fn lines_below(text: &str, start: usize) -> impl Iterator<Item = Line<'_>> {
    let mut next = text[start..].find('\n').map(|i| start + i + 1);
    std::iter::from_fn(move || {
        let line_start = next?;
        next = text[line_start..].find('\n').map(|i| line_start + i + 1);
        Some(Line::at(text, line_start))
    })
}

/// The completion context at `offset` (a character boundary) of a YAML
/// text; `None` where the cursor types neither a key nor a plain value of
/// block YAML (a comment, a flow collection, a block scalar's text).
pub(super) fn context(text: &str, offset: usize) -> Option<Context> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = Line::at(text, line_start);
    let cursor = offset.checked_sub(line.origin)?;
    if cursor < line.column || cursor > line.text.len() {
        return None;
    }
    let typed = &line.text[line.column..cursor];
    let after_cursor = word_end(line.text, cursor);
    if let Some((key, after)) = split_key(typed) {
        let value = typed[after..].trim_start_matches(' ');
        let (quote, word) = match value.chars().next() {
            Some(q @ ('"' | '\'')) => (Some(q), &value[1..]),
            _ => (None, value),
        };
        if !word.chars().all(is_word) {
            return None;
        }
        let tokens = mapping(text, &line, line.column, None)?;
        let mut context = Context::new(
            tokens,
            Slot::Value { key },
            offset - word.len(),
            line.origin + after_cursor,
        );
        context.quote = quote;
        context.closed = quote.is_some_and(|q| line.text[after_cursor..].starts_with(q));
        context.space = after == typed.len();
        return Some(context);
    }
    let (quote, word) = match typed.chars().next() {
        Some(q @ ('"' | '\'')) => (Some(q), &typed[1..]),
        _ => (None, typed),
    };
    if !word.chars().all(is_word) {
        return None;
    }
    let mut present = Vec::new();
    let tokens = mapping(text, &line, line.column, Some(&mut present))?;
    present.extend(keys_below(text, line_start, line.column));
    let mut context = Context::new(
        tokens,
        Slot::Key { present },
        offset - word.len(),
        line.origin + after_cursor,
    );
    let mut rest = &line.text[after_cursor..];
    context.quote = quote;
    if let Some(q) = quote {
        context.closed = rest.starts_with(q);
        rest = rest.strip_prefix(q).unwrap_or(rest);
    }
    context.has_colon = rest.trim_start_matches(' ').starts_with(':');
    context.column = line.column;
    Some(context)
}

/// Whether the cursor at `offset` is inside a flow collection opened on its
/// line (`{provider: stripe, authKind: ‸}`), which only the parsed text
/// can place.
pub(super) fn in_flow(text: &str, offset: usize) -> bool {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..offset].contains(['{', '['])
}

/// The tokens of the mapping holding a key at `column` of `line`; with
/// `siblings`, the keys of that mapping above it are collected there.
fn mapping(
    text: &str,
    line: &Line<'_>,
    column: usize,
    mut siblings: Option<&mut Vec<String>>,
) -> Option<Vec<String>> {
    if line.column == column && !line.dashes.is_empty() {
        // The key starts an item: `- key: …`.
        return item(text, line, line.dashes.len() - 1);
    }
    for above in lines_above(text, line.start) {
        if above.is_blank() {
            continue;
        }
        if above.is_document_marker() {
            return Some(Vec::new());
        }
        if above.left() > column || (above.left() == column && above.column != column) {
            // Inside a sibling's value (a sequence at the mapping's column
            // belongs to the key above it).
            continue;
        }
        let key = above.key();
        if above.column == column {
            if let (Some(siblings), Some((name, _))) = (siblings.as_deref_mut(), &key) {
                siblings.push(name.clone());
            }
            if above.dashes.is_empty() {
                continue;
            }
            // The mapping is an item that starts on this line.
            return item(text, &above, above.dashes.len() - 1);
        }
        // Something to the left: the key whose value the mapping is.
        let (name, below) = key?;
        if !below || above.column > column {
            return None;
        }
        let mut tokens = mapping(text, &above, above.column, None)?;
        tokens.push(name);
        return Some(tokens);
    }
    Some(Vec::new())
}

/// The tokens of the item that starts on `line` at its `dash`-th marker.
fn item(text: &str, line: &Line<'_>, dash: usize) -> Option<Vec<String>> {
    if dash > 0 {
        // `- - …`: the first item of a list that is itself an item.
        let mut tokens = item(text, line, dash - 1)?;
        tokens.push("0".to_owned());
        return Some(tokens);
    }
    let column = line.dashes[0];
    let mut index = 0usize;
    for above in lines_above(text, line.start) {
        if above.is_blank() {
            continue;
        }
        if above.is_document_marker() {
            return Some(vec![index.to_string()]);
        }
        if above.dashes.first() == Some(&column) {
            index += 1;
            continue;
        }
        if above.left() > column {
            continue;
        }
        // The key whose value the list is, at the list's column or left of it.
        let (name, below) = above.key()?;
        if !below || above.column > column {
            return None;
        }
        let mut tokens = mapping(text, &above, above.column, None)?;
        tokens.push(name);
        tokens.push(index.to_string());
        return Some(tokens);
    }
    Some(vec![index.to_string()])
}

/// The keys at `column` below the line starting at `start`, up to the end
/// of the mapping (a line left of it, or the next item at its column).
fn keys_below(text: &str, start: usize, column: usize) -> Vec<String> {
    let mut keys = Vec::new();
    for below in lines_below(text, start) {
        if below.is_blank() {
            continue;
        }
        if below.is_document_marker()
            || below.left() < column
            || (below.column == column && !below.dashes.is_empty())
        {
            break;
        }
        if below.column == column && below.dashes.is_empty() {
            if let Some((name, _)) = below.key() {
                keys.push(name);
            }
        }
    }
    keys
}
