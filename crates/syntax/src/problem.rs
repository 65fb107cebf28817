//! What the reader could not read, as data: the core reports each problem
//! under the input rule of its kind (IN001, IN004, IN005, IN006).

use crate::text::Span;

/// One problem met while reading a text: its kind, a message for people, an
/// RFC 6901 pointer (empty when the problem is not inside a value) and the
/// byte span to underline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Which input rule the core reports it under.
    pub kind: ProblemKind,
    /// What went wrong and where, in a sentence for people.
    pub message: String,
    /// RFC 6901 pointer to the value it is about; empty when the problem is
    /// not inside a value (a syntax error, a limit).
    pub pointer: String,
    /// The bytes to underline; empty at the offset where reading stopped.
    pub span: Span,
    /// A second place the problem concerns: for a bracket or quote that is
    /// never closed, the problem is its opening and this is where the
    /// parser stopped.
    pub related: Option<Note>,
}

/// A place in the text a problem also concerns, with what happened there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// What happened there, in a sentence for people.
    pub message: String,
    /// The bytes to mark.
    pub span: Span,
}

impl Problem {
    /// A syntax problem (IN001) at `span`, not inside any value.
    pub(crate) fn syntax(message: impl Into<String>, span: Span) -> Problem {
        Problem {
            kind: ProblemKind::Syntax,
            message: message.into(),
            pointer: String::new(),
            span,
            related: None,
        }
    }
}

/// The kinds of problem the reader reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The text is not JSON or YAML (or is empty): nothing or only part of it
    /// could be read.
    Syntax,
    /// A YAML mapping key is a collection; it is read as its source text.
    KeyNotScalar,
    /// A key appears twice in one object; the first is read.
    DuplicateKey,
    /// A limit stopped the read: nothing is read.
    Limit,
}
