//! Counting the comments of a YAML text, which no tree keeps.
//!
//! A `#` starts a comment when it begins the text or follows a space, a tab
//! or a line break, and lies outside every scalar (a `#` inside a string or a
//! block scalar is text). The tree knows the span of every key and scalar, so
//! those are the places where `#` is text.

use opb_syntax::{Node, Value};

pub(crate) fn count(text: &str, root: &Node) -> usize {
    let mut scalars = Vec::new();
    collect_scalar_spans(root, &mut scalars);
    let scalars = disjoint(scalars);
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| {
            b == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r'))
        })
        .filter(|&(i, _)| !inside(&scalars, i))
        .count()
}

fn collect_scalar_spans(node: &Node, spans: &mut Vec<(usize, usize)>) {
    match &node.value {
        Value::Array(items) => items.iter().for_each(|item| collect_scalar_spans(item, spans)),
        Value::Object(object) => {
            for member in &object.members {
                spans.push((member.key_span.start, member.key_span.end));
                collect_scalar_spans(&member.value, spans);
            }
        }
        _ => spans.push((node.span.start, node.span.end)),
    }
}

/// The spans sorted and merged where they overlap (an alias repeats the
/// spans of its anchor), so at most one can hold a given offset.
fn disjoint(mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Whether `offset` lies in one of the disjoint, sorted `spans`.
fn inside(spans: &[(usize, usize)], offset: usize) -> bool {
    let after = spans.partition_point(|&(start, _)| start <= offset);
    after > 0 && spans.get(after - 1).is_some_and(|&(_, end)| offset < end)
}
