//! Input limits: a text over one is not read, and the reader says which
//! ([`crate::ProblemKind::Limit`]). Each is far above any real playbook or
//! manifest and low enough that the browser tab answers in milliseconds.

use crate::problem::{Problem, ProblemKind};
use crate::text::{newlines, Span};

/// The limits a check runs under. [`Limits::default`] is what the CLI and the
/// playground use; the README lists the values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest input, in bytes.
    pub max_bytes: usize,
    /// Longest line, in bytes.
    pub max_line_bytes: usize,
    /// Deepest nesting of arrays and objects.
    pub max_depth: usize,
    /// Most values in the whole tree.
    pub max_nodes: usize,
    /// Most values that YAML aliases may copy into the tree, all aliases
    /// together: what stops a "billion laughs".
    pub max_alias_nodes: usize,
    /// Most steps in a playbook.
    pub max_steps: usize,
    /// Most tools in a playbook or manifest.
    pub max_tools: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024 * 1024,
            max_line_bytes: 4 * 1024 * 1024,
            max_depth: 128,
            max_nodes: 200_000,
            max_alias_nodes: 100_000,
            max_steps: 10_000,
            max_tools: 5_000,
        }
    }
}

pub(crate) fn too_large(span: Span, message: String) -> Problem {
    Problem { kind: ProblemKind::Limit, message, pointer: String::new(), span, related: None }
}

impl Limits {
    /// The problem of an input over the size limit. `size` is its length in
    /// bytes; none when only its first `max_bytes + 1` bytes were read (the
    /// CLI reads a stream no further), so all that is known is that it is
    /// larger than the limit.
    pub fn input_too_large(&self, size: Option<u64>) -> Problem {
        let found = match size {
            Some(size) => format!("{size} bytes"),
            None => format!("more than {} bytes", self.max_bytes),
        };
        too_large(
            Span::empty(0),
            format!(
                "The input is {found}; the input-size limit is {} bytes ({}). Split the document or remove what it does not need.",
                self.max_bytes,
                human_bytes(self.max_bytes)
            ),
        )
    }
}

pub(super) fn check_line_length(text: &str, limits: &Limits) -> Option<Problem> {
    let bytes = text.as_bytes();
    let max = limits.max_line_bytes;
    let mut start = 0;
    // Each line's length counts its line break. A line from `start` is too
    // long when the `max` bytes from there hold no line break and the text
    // goes on past them; otherwise reading jumps past the last line break
    // among them, so a text is read a window of `max` bytes at a time
    // rather than a line at a time (and not at all when it is shorter).
    while bytes.len() - start > max {
        let window = bytes.get(start..start + max).unwrap_or_default();
        if let Some(last) = memchr::memrchr(b'\n', window) {
            start += last + 1;
            continue;
        }
        let rest = bytes.get(start + max..).unwrap_or_default();
        let end = newlines(rest).next().map_or(bytes.len(), |at| start + max + at + 1);
        let length = end - start;
        return Some(too_large(
            Span::empty(start),
            format!(
                "A line is {length} bytes long; the line-length limit is {} bytes ({}). Pretty-print the document so it spans more lines.",
                limits.max_line_bytes,
                human_bytes(limits.max_line_bytes)
            ),
        ));
    }
    None
}

/// Reading stops at the first value past the limit, so what was found is
/// "more than the limit": counting on would mean reading on.
pub(super) fn too_deep(at: usize, limits: &Limits) -> Problem {
    too_large(
        Span::empty(at),
        format!(
            "The document nests more than {} levels deep here (reading stopped at this value, where level {} would begin); the nesting-depth limit is {}. Flatten the structure.",
            limits.max_depth,
            limits.max_depth + 1,
            limits.max_depth
        ),
    )
}

/// Like [`too_deep`], a count that stops one past the limit.
pub(super) fn too_many_nodes(at: usize, limits: &Limits) -> Problem {
    too_large(
        Span::empty(at),
        format!(
            "The document holds more than {} values (reading stopped at value {}, here); the limit on values is {}. Split the document.",
            limits.max_nodes,
            limits.max_nodes + 1,
            limits.max_nodes
        ),
    )
}

fn human_bytes(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 {
        format!("{} MiB", bytes / (1024 * 1024))
    } else if bytes >= 1024 && bytes % 1024 == 0 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}
