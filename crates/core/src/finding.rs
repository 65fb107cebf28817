//! What rules report, before positions are computed.

use crate::parse::{CompactString, Member, Node};
use crate::rules::Rule;
use crate::text::Span;

/// One rule's finding: the rule, a specific message, an RFC 6901 pointer and
/// the byte span to underline.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: &'static Rule,
    pub message: String,
    pub pointer: String,
    pub span: Span,
}

/// An RFC 6901 JSON pointer, built one token at a time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Ptr(String);

impl Ptr {
    pub fn root() -> Ptr {
        Ptr(String::new())
    }

    /// The pointer to member `key` of the object this one points at.
    pub fn key(&self, key: &str) -> Ptr {
        let mut ptr = Ptr(String::with_capacity(self.0.len() + key.len() + 1));
        ptr.0.push_str(&self.0);
        ptr.push_token(key);
        ptr
    }

    /// Appends `/` and `key`, escaped.
    fn push_token(&mut self, key: &str) {
        let s = &mut self.0;
        s.push('/');
        let mut rest = key;
        while let Some(at) = rest.bytes().position(|b| b == b'~' || b == b'/') {
            let (plain, special) = rest.split_at(at);
            s.push_str(plain);
            s.push_str(if special.starts_with('~') { "~0" } else { "~1" });
            rest = &special[1..];
        }
        s.push_str(rest);
    }

    /// The pointer to item `index` of the array this one points at.
    pub fn index(&self, index: usize) -> Ptr {
        Ptr(item_pointer(&self.0, index).into_string())
    }

    /// The pointer to item `index` of this one's member `key`, in one
    /// allocation: `ptr.key(key).index(index)` makes two.
    pub fn key_index(&self, key: &str, index: usize) -> Ptr {
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(index);
        let mut ptr = Ptr(String::with_capacity(self.0.len() + key.len() + 2 + digits.len()));
        ptr.0.push_str(&self.0);
        ptr.push_token(key);
        ptr.0.push('/');
        ptr.0.push_str(digits);
        ptr
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Ptr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The pointer to item `index` of the array `list` points at. Sized for the
/// digits up front: a copy of the parent and a push would allocate twice
/// (and a short pointer is not allocated at all).
pub(crate) fn item_pointer(list: &str, index: usize) -> CompactString {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(index);
    let mut pointer = CompactString::with_capacity(list.len() + 1 + digits.len());
    pointer.push_str(list);
    pointer.push('/');
    pointer.push_str(digits);
    pointer
}

/// Where a finding points. The pointer convention: the offending value; for
/// a missing field, the object that lacks it.
#[derive(Debug, Clone, Copy)]
pub enum At<'a> {
    /// The value itself is wrong: underline the value.
    Value(&'a Node),
    /// The key is the problem (a duplicate, an unknown field): underline it.
    Key(&'a Member),
    /// A field is missing from this object: underline the object's head.
    Missing(&'a Node),
}

impl At<'_> {
    pub fn span(self) -> Span {
        match self {
            At::Value(node) => node.span,
            At::Key(member) => member.key_span,
            At::Missing(node) => node.head_span(),
        }
    }
}

/// Collects findings as rules run.
#[derive(Debug, Default)]
pub struct Report {
    findings: Vec<Finding>,
}

impl Report {
    pub fn new() -> Self {
        Report::default()
    }

    pub fn push(&mut self, rule: &'static Rule, pointer: &Ptr, at: At<'_>, message: impl Into<String>) {
        self.findings.push(Finding {
            rule,
            message: message.into(),
            pointer: pointer.as_str().to_owned(),
            span: at.span(),
        });
    }

    pub fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.findings.extend(findings);
    }

    pub fn has(&self, rule: &'static Rule) -> bool {
        self.findings.iter().any(|f| std::ptr::eq(f.rule, rule))
    }

    /// Whether `rule` has reported something at `pointer`: lets a general
    /// rule stay silent where a more specific one has spoken.
    pub fn has_at(&self, rule: &'static Rule, pointer: &str) -> bool {
        self.findings.iter().any(|f| std::ptr::eq(f.rule, rule) && f.pointer == pointer)
    }

    pub fn retain(&mut self, keep: impl FnMut(&Finding) -> bool) {
        self.findings.retain(keep);
    }

    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }
}

#[cfg(test)]
mod tests {
    use super::Ptr;

    #[test]
    fn pointer_tokens_are_escaped() {
        let p = Ptr::root().key("a/b").key("m~n").index(3);
        assert_eq!(p.as_str(), "/a~1b/m~0n/3");
        assert_eq!(Ptr::root().key("a/b").key_index("m~n", 3), p);
    }

    #[test]
    fn indexes_are_written_in_decimal() {
        for index in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(Ptr::root().key("steps").index(index).as_str(), format!("/steps/{index}"));
        }
    }
}
