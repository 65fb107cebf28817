//! What the reader could not read, as data: the core reports each problem
//! under the input rule of its kind (IN001, IN004, IN005, IN006).

use crate::text::Span;

/// One problem met while reading a text: its kind, a message for people, an
/// RFC 6901 pointer (empty when the problem is not inside a value) and the
/// byte span to underline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub message: String,
    pub pointer: String,
    pub span: Span,
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
