//! The fast path for JSON: a strict RFC 8259 reader that builds the tree
//! directly, with the span of every key and value.
//!
//! It answers for text that is strict JSON, and for text that reaches the
//! value-count or nesting-depth limit before any syntax error: reading stops
//! there with IN006, as the YAML reader stops, rather than reading the rest
//! of a text that large again. For anything else (a syntax error, what
//! jsonc-parser tolerates beyond the RFC such as a raw tab in a string or a
//! Unicode blank between tokens) it answers `None` and the caller reads the
//! text with jsonc-parser, which words every error, and refuses what it
//! tolerates beyond the RFC (`json::beyond_the_rfc`). So the two paths differ
//! in speed, and in one order only: for a text past a limit with a syntax
//! error after that point, this reader reports the limit and jsonc-parser
//! the syntax error. A text this reader accepts reads to the same tree and
//! problems through jsonc-parser (`tests.rs` holds them to that).
//!
//! Why not jsonc-parser alone: its syntax tree, then our tree built from it,
//! cost about 2.5 times a bare `serde_json` parse of the same bytes, more
//! than the whole budget of a check. Why not a faster crate: jiter (strict,
//! builds for wasm32) tells where its cursor is, but not where a key starts
//! and ends, which every IN005 and IN007 underlines, and it needs a newer
//! Rust than the core's.

use crate::limits::{too_deep, too_many_nodes, Limits};
use crate::pointer::Ptr;
use crate::problem::Problem;
use crate::text::Span;
use crate::tree::{CompactString, Member, Node, Number, Object, Value};
use crate::{duplicate_keys, Parsed};

/// Past this depth the reader leaves the text to jsonc-parser, whatever the
/// limit: its recursion stays shallow, and jsonc-parser's own nesting limit
/// (512 levels) still answers for deeper texts.
const MAX_DEPTH: usize = 256;

/// Reads `text` from byte `from` (after a byte-order mark), or `None` when
/// jsonc-parser must read it.
pub(super) fn read(text: &str, from: usize, limits: &Limits) -> Option<Parsed> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: from,
        limits,
        max_depth: limits.max_depth.min(MAX_DEPTH),
        nodes: 0,
        path: Vec::new(),
        members: Vec::new(),
        items: Vec::new(),
        problems: Vec::new(),
        stop: None,
    };
    reader.skip_blanks();
    let root = reader.value(0);
    if let Some(stop) = reader.stop {
        return Some(Parsed { root: None, problems: vec![stop] });
    }
    let root = root?;
    reader.skip_blanks();
    (reader.at == reader.bytes.len())
        .then_some(Parsed { root: Some(root), problems: reader.problems })
}

/// One step from the root to the value being read: an array index, or the
/// offset of a key's opening quote (the key is decoded again only for the
/// pointer of a problem).
#[derive(Debug, Clone, Copy)]
enum Step {
    Index(usize),
    Key(usize),
}

struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    limits: &'t Limits,
    max_depth: usize,
    nodes: usize,
    path: Vec<Step>,
    /// Members and items of the collections being read, innermost last:
    /// each collection takes its own off the end, allocated once at its
    /// final size.
    members: Vec<Member>,
    items: Vec<Node>,
    problems: Vec<Problem>,
    /// The IN006 problem of a limit reached: reading stops there.
    stop: Option<Problem>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Reads the value at the cursor (blanks skipped). Nodes and depth count
    /// as the jsonc-parser path counts them: every value in pre-order, and
    /// arrays and objects by level, the root's being 0.
    fn value(&mut self, depth: usize) -> Option<Node> {
        let start = self.at;
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            self.stop = Some(too_many_nodes(start, self.limits));
            return None;
        }
        let value = match self.peek()? {
            b'"' => Value::String(self.string()?),
            b'{' | b'[' if depth >= self.limits.max_depth => {
                self.stop = Some(too_deep(start, self.limits));
                return None;
            }
            b'{' if depth < self.max_depth => Value::Object(self.object(depth)?),
            b'[' if depth < self.max_depth => Value::Array(self.array(depth)?),
            b't' => self.word("true", Value::Bool(true))?,
            b'f' => self.word("false", Value::Bool(false))?,
            b'n' => self.word("null", Value::Null)?,
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => return None,
        };
        Some(Node { span: Span::new(start, self.at), value })
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word.as_bytes()).then(|| {
            self.at = end;
            value
        })
    }

    fn object(&mut self, depth: usize) -> Option<Object> {
        self.at += 1;
        let first = self.members.len();
        self.skip_blanks();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(Object::default());
        }
        loop {
            self.skip_blanks();
            if self.peek()? != b'"' {
                return None;
            }
            let key_start = self.at;
            let key = self.string()?;
            let key_span = Span::new(key_start, self.at);
            self.skip_blanks();
            if self.peek()? != b':' {
                return None;
            }
            self.at += 1;
            self.skip_blanks();
            self.path.push(Step::Key(key_start));
            let value = self.value(depth + 1)?;
            self.path.pop();
            self.members.push(Member { key, key_span, value });
            self.skip_blanks();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => break,
                _ => return None,
            }
        }
        self.at += 1;
        let object = Object { members: self.members.drain(first..).collect() };
        let repeated = duplicate_keys(&object.members, || self.pointer());
        self.problems.extend(repeated);
        Some(object)
    }

    fn array(&mut self, depth: usize) -> Option<Vec<Node>> {
        self.at += 1;
        let first = self.items.len();
        self.skip_blanks();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Vec::new());
        }
        loop {
            self.skip_blanks();
            self.path.push(Step::Index(self.items.len() - first));
            let item = self.value(depth + 1)?;
            self.path.pop();
            self.items.push(item);
            self.skip_blanks();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => break,
                _ => return None,
            }
        }
        self.at += 1;
        Some(self.items.drain(first..).collect())
    }

    /// A string at the cursor, its escapes decoded. Raw control characters
    /// and unpaired surrogates are not strict JSON: `None`.
    fn string(&mut self) -> Option<CompactString> {
        let start = self.at + 1;
        let plain =
            self.bytes.get(start..)?.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let mut at = start + plain;
        if self.peek_at(at)? == b'"' {
            self.at = at + 1;
            return self.text.get(start..at).map(CompactString::new);
        }
        let mut out = String::with_capacity(plain + 16);
        out.push_str(self.text.get(start..at)?);
        loop {
            match self.peek_at(at)? {
                b'"' => {
                    self.at = at + 1;
                    return Some(out.into());
                }
                b'\\' => {
                    let escape = self.peek_at(at + 1)?;
                    at += 2;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{08}',
                        b'f' => '\u{0C}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape(&mut at)?,
                        _ => return None,
                    });
                }
                0..0x20 => return None,
                _ => {
                    let run = self
                        .bytes
                        .get(at..)?
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
                    out.push_str(self.text.get(at..at + run)?);
                    at += run;
                }
            }
        }
    }

    fn peek_at(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    /// The character of a `\u` escape whose four digits start at `at`: one
    /// code unit, or a surrogate pair written as two escapes.
    fn unicode_escape(&self, at: &mut usize) -> Option<char> {
        let unit = self.hex4(*at)?;
        *at += 4;
        match unit {
            0xD800..=0xDBFF => {
                if self.bytes.get(*at..*at + 2)? != b"\\u" {
                    return None;
                }
                let low = self.hex4(*at + 2)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return None;
                }
                *at += 6;
                char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            0xDC00..=0xDFFF => None,
            _ => char::from_u32(unit),
        }
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.text.get(at..at + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    }

    /// A number at the cursor: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let digits = |at: usize| {
            self.bytes
                .get(at..)
                .map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count())
        };
        let mut at = start + usize::from(self.peek_at(start) == Some(b'-'));
        at += match self.peek_at(at)? {
            b'0' => 1,
            b'1'..=b'9' => digits(at),
            _ => return None,
        };
        if self.peek_at(at) == Some(b'.') {
            let fraction = digits(at + 1);
            if fraction == 0 {
                return None;
            }
            at += 1 + fraction;
        }
        if let Some(b'e' | b'E') = self.peek_at(at) {
            at += 1;
            if let Some(b'+' | b'-') = self.peek_at(at) {
                at += 1;
            }
            let exponent = digits(at);
            if exponent == 0 {
                return None;
            }
            at += exponent;
        }
        let raw = self.text.get(start..at)?;
        self.at = at;
        Some(Number { raw: raw.to_owned(), value: raw.parse().unwrap_or(f64::NAN) })
    }

    /// The pointer to the value being read, for a problem.
    fn pointer(&self) -> Ptr {
        self.path.iter().fold(Ptr::root(), |ptr, step| match *step {
            Step::Index(i) => ptr.index(i),
            Step::Key(quote) => {
                let mut key = Reader {
                    at: quote,
                    path: Vec::new(),
                    members: Vec::new(),
                    items: Vec::new(),
                    problems: Vec::new(),
                    stop: None,
                    ..*self
                };
                ptr.key(&key.string().unwrap_or_default())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::json::read_with_jsonc;
    use crate::Limits;
    use std::path::Path;

    /// Whether the strict reader accepts `text`; when it does, jsonc-parser
    /// must read the same tree and problems from it.
    fn accepted(text: &str, limits: &Limits) -> bool {
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let Some(fast) = read(text, bom, limits) else { return false };
        let slow = read_with_jsonc(text, bom, limits);
        assert_eq!(fast.root, slow.root, "{text}");
        assert_eq!(fast.problems, slow.problems, "{text}");
        true
    }

    #[test]
    fn strict_json_reads_as_jsonc_parser_reads_it() {
        for text in [
            r#"{"a": [1, -0, 0.5, 1e5, 1E+5, -1.5e-3, 123456789012345678901234567890, 1e999], "b": {"c": null}}"#,
            r#"{"esc": "q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC \ud83d\ude00 \u0000", "plain": "héllo"}"#,
            r#"{"k\"ey": 1, "a/b": {"m~n": [true, false]}, "": ""}"#,
            "\u{feff}{\"bom\": [ ]}",
            " \t\r\n[ {} , [ ] , \"x\" ] \n",
            "\"a root string\"",
            "42",
            r#"{"a": 1, "b": {"c": 2, "c": 3}, "a": [{"x": 1, "x": 2}]}"#,
            r#"{"steps": [{"id": "a", "id": "b"}], "a/b": {"~": 1, "~": 2}, "k\u0041": {"z": 1, "z": 1}}"#,
        ] {
            assert!(accepted(text, &Limits::default()), "{text}");
        }
    }

    #[test]
    fn what_is_not_strict_json_is_left_to_jsonc_parser() {
        for text in [
            "",
            "  ",
            "{\"tab\": \"a\tb\"}",
            "{\"a\": 1} // comment",
            "{\"a\": 1,}",
            "[1,]",
            "{'a': 1}",
            "[01]",
            "[.5]",
            "[1.]",
            "[+1]",
            "[1e]",
            "[-]",
            "[NaN]",
            "[truex]",
            "[\"\\ud800\"]",
            "[\"\\udc00\"]",
            "[\"\\ud800\\u0041\"]",
            "[\"\\x41\"]",
            "[\"\\u12\"]",
            "{\u{a0}\"a\": 1}",
            "{\"a\" 1}",
            "{1: 2}",
            "[1] [2]",
            "[\"unterminated",
            "{\"a\": ",
        ] {
            assert!(!accepted(text, &Limits::default()), "{text:?}");
        }
    }

    #[test]
    fn limits_stop_the_read_with_the_finding_jsonc_parser_gives() {
        let limits = Limits { max_depth: 3, max_nodes: 5, ..Limits::default() };
        for text in
            ["[[[1]]]", "[[[[1]]]]", "[1, 2, 3, 4]", "[1, 2, 3, 4, 5]", "{\"a\": {\"b\": [{}]}}"]
        {
            assert!(accepted(text, &limits), "{text}");
        }
        let deep = Limits { max_depth: 10_000, ..Limits::default() };
        let nested = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert!(!accepted(&nested, &deep), "past its own depth the reader leaves the text");
    }

    #[test]
    fn a_limit_reached_before_a_syntax_error_is_what_is_reported() {
        let limits = Limits { max_nodes: 5, ..Limits::default() };
        let parsed = read("[1, 2, 3, 4, 5, }", 0, &limits).expect("the limit answers");
        assert!(parsed.root.is_none());
        assert_eq!(parsed.problems.len(), 1);
        assert_eq!(parsed.problems[0].kind, crate::ProblemKind::Limit);
        assert_eq!(parsed.problems[0].span.start, 13);
    }

    /// Every JSON file of the repository's fixtures and examples.
    #[test]
    fn every_fixture_and_example_reads_as_jsonc_parser_reads_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![
            root.join("../core/tests/fixtures"),
            root.join("../../examples"),
            root.join("../cli/tests"),
        ];
        let mut accepted_files = 0;
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for path in entries.flatten().map(|entry| entry.path()) {
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|ext| ext == "json") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    accepted_files += usize::from(accepted(&text, &Limits::default()));
                }
            }
        }
        assert!(accepted_files > 20, "{accepted_files} files read");
    }
}
