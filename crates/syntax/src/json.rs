//! Strict JSON, read with `jsonc-parser` with every lax option off. With the
//! `fast-json` feature most texts are read first by the faster `json_strict`
//! reader; this path reads the rest and words every error.

use crate::limits::{too_deep, too_many_nodes, Limits};
use crate::pointer::Ptr;
use crate::problem::Problem;
use crate::text::Span;
use crate::tree::{CompactString, Member, Node, Number, Object, Value};
use crate::unclosed::{open_in_json, relocate, Open};
use crate::{duplicate_keys, Parsed};
use jsonc_parser::errors::ParseErrorKind;
use jsonc_parser::{ast, CollectOptions, CommentCollectionStrategy, ParseOptions};

fn strict_options() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

pub(super) fn parse(text: &str, limits: &Limits) -> Parsed {
    // A byte-order mark is not JSON, but editors write one; skip it so the
    // offsets still point into the original text.
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    #[cfg(feature = "fast-json")]
    if let Some(parsed) = crate::json_strict::read(text, bom, limits) {
        return parsed;
    }
    read_with_jsonc(text, bom, limits)
}

/// Reads with jsonc-parser: what the strict reader leaves, and every error.
pub(super) fn read_with_jsonc(text: &str, bom: usize, limits: &Limits) -> Parsed {
    let collect = CollectOptions { comments: CommentCollectionStrategy::Off, tokens: false };
    let result = match jsonc_parser::parse_to_ast(&text[bom..], &collect, &strict_options()) {
        Ok(result) => result,
        Err(error) => {
            let start = bom + error.range().start;
            let end = bom + error.range().end;
            let problem = if matches!(error.kind(), ParseErrorKind::NestingDepthExceeded) {
                too_deep(start, limits)
            } else {
                // jsonc-parser spans an unterminated collection or string
                // from its opening to where the text ends.
                let (open, stop) = match error.kind() {
                    ParseErrorKind::UnterminatedArray | ParseErrorKind::UnterminatedObject => {
                        (Some(Open::Bracket(start)), Span::empty(end))
                    }
                    _ => match open_in_json(text, bom, start) {
                        Some(Open::Quote(at)) if at == start => {
                            (Some(Open::Quote(at)), Span::empty(end))
                        }
                        open => (open, Span::new(start, end)),
                    },
                };
                relocate(text, "JSON", &error.kind().to_string(), stop, open)
            };
            return Parsed { root: None, problems: vec![problem] };
        }
    };
    if let Some(problem) = beyond_the_rfc(text, bom) {
        return Parsed { root: None, problems: vec![problem] };
    }
    let Some(value) = result.value else {
        return Parsed {
            root: None,
            problems: vec![Problem::syntax(
                "The text is empty: expected a JSON object.",
                Span::empty(0),
            )],
        };
    };
    let mut builder = Builder { bom, limits, problems: Vec::new(), nodes: 0 };
    match builder.convert(value, &Ptr::root(), 0) {
        Ok(root) => Parsed { root: Some(root), problems: builder.problems },
        Err(limit) => Parsed { root: None, problems: vec![limit] },
    }
}

/// IN001 for what jsonc-parser lets through and RFC 8259 forbids, in a
/// text it read: a raw control character inside a string (section 7: "the
/// characters that MUST be escaped ... the control characters (U+0000
/// through U+001F)"), and whitespace between tokens other than space, tab,
/// line feed and carriage return (section 2), such as a form feed. The text
/// parsed, so its strings are closed and its escapes whole.
fn beyond_the_rfc(text: &str, from: usize) -> Option<Problem> {
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in text[from..].char_indices().map(|(at, c)| (from + at, c)) {
        let fault = if in_string {
            match c {
                _ if escaped => {
                    escaped = false;
                    None
                }
                '\\' => {
                    escaped = true;
                    None
                }
                '"' => {
                    in_string = false;
                    None
                }
                '\u{0}'..='\u{1f}' => Some(format!(
                    "a raw control character (U+{:04X}) inside a string; write it escaped, as {}",
                    u32::from(c),
                    escape_of(c)
                )),
                _ => None,
            }
        } else {
            match c {
                '"' => {
                    in_string = true;
                    None
                }
                ' ' | '\t' | '\n' | '\r' => None,
                _ if c.is_whitespace() || c.is_control() => {
                    Some(format!("U+{:04X} between values is not JSON whitespace (only space, tab, line feed and carriage return are); remove it", u32::from(c)))
                }
                _ => None,
            }
        };
        if let Some(fault) = fault {
            let position = crate::text::LineIndex::new(text).position(at);
            return Some(Problem::syntax(
                format!(
                    "Invalid JSON: {fault} (line {}, column {}).",
                    position.line, position.column
                ),
                Span::new(at, at + c.len_utf8()),
            ));
        }
    }
    None
}

/// How a control character is written escaped in a JSON string.
fn escape_of(c: char) -> String {
    match c {
        '\t' => "`\\t`".to_owned(),
        '\n' => "`\\n`".to_owned(),
        '\r' => "`\\r`".to_owned(),
        '\u{8}' => "`\\b`".to_owned(),
        '\u{c}' => "`\\f`".to_owned(),
        _ => format!("`\\u{:04x}`", u32::from(c)),
    }
}

struct Builder<'l> {
    bom: usize,
    limits: &'l Limits,
    problems: Vec<Problem>,
    nodes: usize,
}

impl Builder<'_> {
    fn span(&self, range: jsonc_parser::common::Range) -> Span {
        Span::new(self.bom + range.start, self.bom + range.end)
    }

    /// Converts one value; `Err` carries the IN006 problem that stops parsing.
    fn convert(&mut self, value: ast::Value<'_>, ptr: &Ptr, depth: usize) -> Result<Node, Problem> {
        self.nodes += 1;
        let span = self.span(value_range(&value));
        if self.nodes > self.limits.max_nodes {
            return Err(too_many_nodes(span.start, self.limits));
        }
        // Depth counts arrays and objects (the root is level 1), as the YAML
        // reader does, so the same data hits the limit at the same place.
        let collection = matches!(value, ast::Value::Array(_) | ast::Value::Object(_));
        if collection && depth >= self.limits.max_depth {
            return Err(too_deep(span.start, self.limits));
        }
        let value = match value {
            ast::Value::StringLit(s) => Value::String(s.value.into()),
            ast::Value::NumberLit(n) => Value::Number(Number {
                raw: n.value.to_owned(),
                value: n.value.parse().unwrap_or(f64::NAN),
            }),
            ast::Value::BooleanLit(b) => Value::Bool(b.value),
            ast::Value::NullKeyword(_) => Value::Null,
            ast::Value::Array(array) => {
                let mut items = Vec::with_capacity(array.elements.len());
                for (i, element) in array.elements.into_iter().enumerate() {
                    items.push(self.convert(element, &ptr.index(i), depth + 1)?);
                }
                Value::Array(items)
            }
            ast::Value::Object(object) => Value::Object(self.object(object, ptr, depth)?),
        };
        Ok(Node { span, value })
    }

    fn object(
        &mut self,
        object: ast::Object<'_>,
        ptr: &Ptr,
        depth: usize,
    ) -> Result<Object, Problem> {
        let mut members = Vec::with_capacity(object.properties.len());
        for prop in object.properties {
            let (key, key_range): (CompactString, _) = match prop.name {
                ast::ObjectPropName::String(s) => (s.value.into(), s.range),
                ast::ObjectPropName::Word(w) => (w.value.into(), w.range),
            };
            let key_span = self.span(key_range);
            let value = self.convert(prop.value, &ptr.key(&key), depth + 1)?;
            members.push(Member { key, key_span, value });
        }
        self.problems.extend(duplicate_keys(&members, || ptr.clone()));
        Ok(Object { members })
    }
}

fn value_range(value: &ast::Value<'_>) -> jsonc_parser::common::Range {
    match value {
        ast::Value::StringLit(v) => v.range,
        ast::Value::NumberLit(v) => v.range,
        ast::Value::BooleanLit(v) => v.range,
        ast::Value::NullKeyword(v) => v.range,
        ast::Value::Array(v) => v.range,
        ast::Value::Object(v) => v.range,
    }
}
