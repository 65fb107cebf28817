//! YAML 1.2, read event by event with `saphyr-parser` (through
//! `opb-yaml-events`) into the document tree.
//!
//! Building the tree ourselves (rather than through a loader) is what lets us
//! keep every key's span, report duplicate keys, and stop alias expansion
//! before it allocates: each anchor's size is known when an alias copies it.

use crate::limits::{too_deep, too_large, too_many_nodes, Limits};
use crate::pointer::Ptr;
use crate::problem::{Problem, ProblemKind};
use crate::text::{CharOffsets, Span};
use crate::tree::{CompactString, Member, Node, Number, Object, Value};
use crate::unclosed::{relocate, Open};
use crate::{duplicate_keys, pause, Parsed};
use foldhash::{HashMap, HashMapExt};
use opb_yaml_events::{Event, Events, ScalarStyle, Tag};
use std::future::Future;

/// Reads `text`, asking `pause` every [`pause::EVERY_EVENTS`] events
/// whether to pause first.
pub(super) async fn parse<W: Future<Output = ()>>(
    text: &str,
    limits: &Limits,
    pause: &mut impl FnMut() -> Option<W>,
) -> Parsed {
    // YAML 1.2 allows a byte-order mark at the start of the stream (5.2);
    // the scanner would read it as content, so it reads after it, and the
    // offsets count from it.
    let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut builder = Builder {
        text,
        bom,
        offsets: CharOffsets::new(&text[bom..]),
        limits,
        frames: Vec::new(),
        anchors: HashMap::new(),
        root: None,
        documents: 0,
        nodes: 0,
        alias_nodes: 0,
        problems: Vec::new(),
    };
    let mut events = Events::new(&text[bom..]);
    let mut read = 0usize;
    while let Some(event) = events.next() {
        if read % pause::EVERY_EVENTS == pause::EVERY_EVENTS - 1 {
            pause::ask(pause).await;
        }
        read += 1;
        let step = match event {
            Ok((event, span)) => builder.event(event, builder.span(span)),
            Err(error) if error.info() == "recursion limit exceeded" => {
                Err(too_deep(builder.byte_offset(error.marker().index()), limits))
            }
            Err(error) => {
                let stop = builder.byte_offset(error.marker().index());
                let open = match events.unclosed_opening() {
                    Some(opening) => Some(Open::Quote(builder.byte_offset(opening.index()))),
                    None => builder.open_bracket().map(Open::Bracket),
                };
                Err(relocate(
                    text,
                    "YAML",
                    error.info(),
                    Span::new(stop, next_char_end(text, stop)),
                    open,
                ))
            }
        };
        if let Err(stop) = step {
            return Parsed { root: None, problems: vec![stop] };
        }
        if builder.documents > 1 {
            break;
        }
    }
    match builder.root {
        Some(complete) => Parsed { root: Some(complete.node), problems: builder.problems },
        None => Parsed {
            root: None,
            problems: vec![Problem::syntax(
                "The text is empty: expected a YAML mapping.",
                Span::empty(0),
            )],
        },
    }
}

fn next_char_end(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// A finished value with its size, so aliases can be priced before copying.
#[derive(Clone)]
struct Complete {
    node: Node,
    count: usize,
    height: usize,
}

enum Frame {
    Sequence {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
        count: usize,
        height: usize,
    },
    Mapping {
        start: usize,
        anchor: usize,
        members: Vec<Member>,
        key: Option<(CompactString, Span)>,
        count: usize,
        height: usize,
    },
}

struct Builder<'t, 'l> {
    text: &'t str,
    /// The length of a leading byte-order mark (0 or 3): where the
    /// scanner's text starts.
    bom: usize,
    offsets: CharOffsets<'t>,
    limits: &'l Limits,
    frames: Vec<Frame>,
    anchors: HashMap<usize, Complete>,
    root: Option<Complete>,
    documents: usize,
    nodes: usize,
    alias_nodes: usize,
    problems: Vec<Problem>,
}

impl Builder<'_, '_> {
    fn span(&self, span: opb_yaml_events::Span) -> Span {
        Span::new(self.byte_offset(span.start.index()), self.byte_offset(span.end.index()))
    }

    /// The byte offset in the text of the scanner's character `index`.
    fn byte_offset(&self, index: usize) -> usize {
        self.bom + self.offsets.byte_offset(index)
    }

    /// The innermost open flow collection's `[` or `{`, if one is open.
    fn open_bracket(&self) -> Option<usize> {
        self.frames
            .iter()
            .rev()
            .map(|frame| match frame {
                Frame::Sequence { start, .. } | Frame::Mapping { start, .. } => *start,
            })
            .find(|start| matches!(self.text.as_bytes().get(*start), Some(b'[' | b'{')))
    }

    /// Whether the value being read is (part of) a mapping key: an open
    /// mapping is waiting for its key.
    fn building_key(&self) -> bool {
        waits_for_key(&self.frames)
    }

    /// The pointer of the value about to be placed, for problems on it.
    fn pointer(&self) -> Ptr {
        let mut ptr = Ptr::root();
        for frame in &self.frames {
            ptr = match frame {
                Frame::Sequence { items, .. } => ptr.index(items.len()),
                Frame::Mapping { key: Some((key, _)), .. } => ptr.key(key),
                Frame::Mapping { .. } => ptr,
            };
        }
        ptr
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), Problem> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    self.problems.push(Problem::syntax(
                        "A second YAML document starts here; opb reads one document per text, so the rest is ignored.",
                        Span::new(span.start, next_char_end(self.text, span.start).max(span.end)),
                    ));
                }
                Ok(())
            }
            Event::Scalar(value, style, anchor, tag) => {
                let span = match style {
                    ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted => {
                        quoted_span(self.text, span)
                    }
                    _ => span,
                };
                let value = resolve_scalar(&value, style, tag.as_deref());
                self.count_nodes(1, span.start)?;
                self.place(Complete { node: Node { span, value }, count: 1, height: 1 }, anchor)
            }
            Event::SequenceStart(anchor, _) => self.open(Frame::Sequence {
                start: span.start,
                anchor,
                items: Vec::new(),
                count: 1,
                height: 1,
            }),
            Event::MappingStart(anchor, _) => self.open(Frame::Mapping {
                start: span.start,
                anchor,
                members: Vec::new(),
                key: None,
                count: 1,
                height: 1,
            }),
            Event::SequenceEnd | Event::MappingEnd => self.close(span),
            Event::Alias(id) => self.alias(id, span),
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        }
    }

    fn open(&mut self, frame: Frame) -> Result<(), Problem> {
        let at = match &frame {
            Frame::Sequence { start, .. } | Frame::Mapping { start, .. } => *start,
        };
        self.count_nodes(1, at)?;
        if self.frames.len() >= self.limits.max_depth {
            return Err(too_deep(at, self.limits));
        }
        self.frames.push(frame);
        Ok(())
    }

    fn close(&mut self, end_span: Span) -> Result<(), Problem> {
        let Some(frame) = self.frames.pop() else { return Ok(()) };
        // Block collections end where their last value ends; flow ones at
        // their closing bracket, which the end event spans.
        let complete = match frame {
            Frame::Sequence { start, anchor, items, count, height } => {
                let end = closing_end(end_span, items.last().map(|n| n.span.end), start);
                (
                    Complete {
                        node: Node { span: Span::new(start, end), value: Value::Array(items) },
                        count,
                        height,
                    },
                    anchor,
                )
            }
            Frame::Mapping { start, anchor, members, key, count, height } => {
                let last =
                    members.last().map(|m| m.value.span.end).max(key.as_ref().map(|(_, s)| s.end));
                let end = closing_end(end_span, last, start);
                // A mapping used as a key (or inside one) has no pointer, and
                // IN004 already reports the key: its repeated keys are not
                // reported again.
                if !self.building_key() {
                    let repeated = duplicate_keys(&members, || self.pointer());
                    self.problems.extend(repeated);
                }
                let node =
                    Node { span: Span::new(start, end), value: Value::Object(Object { members }) };
                (Complete { node, count, height }, anchor)
            }
        };
        self.place(complete.0, complete.1)
    }

    fn alias(&mut self, id: usize, span: Span) -> Result<(), Problem> {
        let Some(anchored) = self.anchors.get(&id) else {
            // The read stops here and no document is built: like every
            // parse error, this one points at the root.
            return Err(Problem::syntax("This alias names no anchor defined before it.", span));
        };
        self.alias_nodes += anchored.count;
        if self.alias_nodes > self.limits.max_alias_nodes {
            return Err(too_large(
                span,
                format!(
                    "YAML aliases would copy more than {} values into the document ({} so far, at this alias); the limit is {}. This is the shape of a \"billion laughs\" document.",
                    self.limits.max_alias_nodes, self.alias_nodes, self.limits.max_alias_nodes
                ),
            ));
        }
        if self.frames.len() + anchored.height > self.limits.max_depth {
            return Err(too_deep(span.start, self.limits));
        }
        let mut copy = anchored.clone();
        copy.node.span = span;
        self.count_nodes(copy.count, span.start)?;
        self.place(copy, 0)
    }

    fn count_nodes(&mut self, n: usize, at: usize) -> Result<(), Problem> {
        self.nodes += n;
        if self.nodes > self.limits.max_nodes {
            return Err(too_many_nodes(at, self.limits));
        }
        Ok(())
    }

    /// Puts a finished value where it belongs: into the open collection, or
    /// as the root.
    fn place(&mut self, complete: Complete, anchor: usize) -> Result<(), Problem> {
        if anchor != 0 {
            self.anchors.insert(anchor, complete.clone());
        }
        // The pointer of a key IN004 reports, taken before the frame is
        // borrowed to place the key. A collection key inside a key is not
        // reported: the outer key has no pointer, and its IN004 covers it.
        let pointer = match self.frames.split_last() {
            Some((Frame::Mapping { key: None, .. }, outer))
                if is_collection(&complete.node) && !waits_for_key(outer) =>
            {
                Some(self.pointer())
            }
            _ => None,
        };
        match self.frames.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(complete);
                }
            }
            Some(Frame::Sequence { items, count, height, .. }) => {
                *count += complete.count;
                *height = (*height).max(complete.height + 1);
                items.push(complete.node);
            }
            Some(Frame::Mapping { members, key, count, height, .. }) => {
                *count += complete.count;
                *height = (*height).max(complete.height + 1);
                match key.take() {
                    Some((key, key_span)) => {
                        members.push(Member { key, key_span, value: complete.node })
                    }
                    None => {
                        let text = key_text(self.text, &complete.node);
                        if let Some(pointer) = pointer {
                            self.problems.push(Problem {
                                kind: ProblemKind::KeyNotScalar,
                                message: format!("A mapping key must be a plain value, not {}; it is read as the text `{text}`.", complete.node.type_name()),
                                pointer: pointer.key(&text).into_string(),
                                span: complete.node.span,
                                related: None,
                            });
                        }
                        *key = Some((text, complete.node.span));
                    }
                }
            }
        }
        Ok(())
    }
}

/// saphyr-parser's span of a quoted scalar runs on over the spaces and any
/// comment after the closing quote; end it at the closing quote.
fn quoted_span(text: &str, span: Span) -> Span {
    let bytes = text.as_bytes();
    let Some(&quote) = bytes.get(span.start) else { return span };
    if quote != b'"' && quote != b'\'' {
        return span;
    }
    let mut i = span.start + 1;
    while i < span.end.min(bytes.len()) {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return Span::new(span.start, i + 1),
            _ => i += 1,
        }
    }
    span
}

fn closing_end(end_event: Span, last_child_end: Option<usize>, start: usize) -> usize {
    if !end_event.is_empty() {
        end_event.end
    } else {
        last_child_end.unwrap_or(start).max(start)
    }
}

/// Whether one of `frames` is an open mapping waiting for its key.
fn waits_for_key(frames: &[Frame]) -> bool {
    frames.iter().any(|frame| matches!(frame, Frame::Mapping { key: None, .. }))
}

fn is_collection(node: &Node) -> bool {
    matches!(node.value, Value::Array(_) | Value::Object(_))
}

/// The text a key is read as: a scalar's value as written, a collection's
/// source (shortened).
fn key_text(text: &str, node: &Node) -> CompactString {
    match node.scalar_text() {
        Some(s) => s.into(),
        None if node.is_null() => "null".into(),
        None => text[node.span.start..node.span.end].chars().take(40).collect(),
    }
}

/// Resolves a scalar by YAML 1.2's core schema: plain `null`/`~`/empty,
/// `true`/`false`, integers (decimal, `0o`, `0x`) and floats are typed; every
/// quoted or block scalar, and every other plain one, is a string, as is a
/// scalar with the non-specific tag `!` (YAML 1.2, 6.9.1: "`!` ... forces
/// the node to be interpreted as ... a string").
fn resolve_scalar(value: &str, style: ScalarStyle, tag: Option<&Tag>) -> Value {
    if tag.is_some_and(|t| t.handle.is_empty() && t.suffix == "!") {
        return Value::String(value.into());
    }
    if let Some(tag) = tag.filter(|t| t.is_yaml_core_schema() || t.handle == "!!") {
        match tag.suffix.as_str() {
            "str" => return Value::String(value.into()),
            "null" => return Value::Null,
            "bool" | "int" | "float" => return resolve_plain(value),
            _ => {}
        }
    }
    if style != ScalarStyle::Plain {
        return Value::String(value.into());
    }
    resolve_plain(value)
}

fn resolve_plain(value: &str) -> Value {
    match value {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return number(value, f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return number(value, f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return number(value, f64::NAN),
        _ => {}
    }
    if let Some(octal) = value.strip_prefix("0o") {
        if let Ok(n) = i64::from_str_radix(octal, 8) {
            return number(value, n as f64);
        }
    }
    if let Some(hex) = value.strip_prefix("0x") {
        if let Ok(n) = i64::from_str_radix(hex, 16) {
            return number(value, n as f64);
        }
    }
    if is_core_number(value) {
        if let Ok(n) = value.parse::<f64>() {
            return number(value, n);
        }
    }
    Value::String(value.into())
}

fn number(raw: &str, value: f64) -> Value {
    Value::Number(Number { raw: raw.to_owned(), value })
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's
/// int and float forms.
fn is_core_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - frac_start;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}
