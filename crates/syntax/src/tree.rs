//! The document tree shared by both syntaxes.

use crate::text::Span;
/// The tree's strings: keys and short values (up to 24 bytes natively, 12
/// in wasm) are held in place, without an allocation of their own; nearly
/// every key is one of the spec's short field names.
pub use compact_str::CompactString;

/// A value with the span of its source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The bytes of the value's source text; a collection's covers all of
    /// it.
    pub span: Span,
    /// What the text reads as.
    pub value: Value,
}

/// The six types a JSON value has, for any reader's values (this tree's,
/// or serde_json's in the share links' host messages): one wording of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array (a sequence).
    Array,
    /// An object (a mapping).
    Object,
}

impl JsonType {
    /// The type's name as messages say it, with its article: `an object`.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "an array",
            JsonType::Object => "an object",
        }
    }
}

/// A value of the data model JSON and YAML share.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null` (YAML: also `~` and an empty value).
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, with its source text.
    Number(Number),
    /// A string, unescaped.
    String(CompactString),
    /// A sequence, items in source order.
    Array(Vec<Node>),
    /// A mapping, members in source order, repeated keys kept.
    Object(Object),
}

/// A number as written, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The source text of the number, e.g. `0.50` or `1e3`.
    pub raw: String,
    /// The number as a double; a whole number past 2^53 may be rounded, which
    /// is why `raw` is kept.
    pub value: f64,
}

impl Number {
    /// Whether the value is a whole number (`2`, `2.0`, `2e3`).
    pub fn is_integer(&self) -> bool {
        self.value.is_finite() && self.value.fract() == 0.0
    }
}

/// An object's members in source order. Duplicate keys are kept (and
/// reported as IN005); lookups see the first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// Every member as written, duplicates included.
    pub members: Vec<Member>,
}

/// One `key: value` of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, unescaped; a YAML key that is a collection is its source
    /// text (and reported).
    pub key: CompactString,
    /// The bytes of the key as written: where a diagnostic about the key
    /// itself points.
    pub key_span: Span,
    /// The member's value.
    pub value: Node,
}

impl Object {
    /// The value of the first member named `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.member(key).map(|m| &m.value)
    }

    /// The first member named `key`, with its key's span.
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.key == key)
    }

    /// Whether some member is named `key`.
    pub fn contains(&self, key: &str) -> bool {
        self.member(key).is_some()
    }

    /// Whether the object has no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// How many members it has, duplicates counted.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// The first occurrence of each key, in source order.
    pub fn unique_members(&self) -> impl Iterator<Item = &Member> {
        Object::unique_of(&self.members)
    }

    /// The first occurrence of each key among `members`, in source order.
    pub(super) fn unique_of(members: &[Member]) -> impl Iterator<Item = &Member> {
        // Most objects have a few members: comparing with the ones before is
        // cheaper than hashing every key.
        const SMALL: usize = 12;
        let mut seen = foldhash::HashSet::default();
        members
            .iter()
            .enumerate()
            .filter(move |&(i, member)| match members.len() {
                0..=SMALL => !members[..i].iter().any(|earlier| earlier.key == member.key),
                _ => seen.insert(member.key.as_str()),
            })
            .map(|(_, member)| member)
    }
}

impl Node {
    /// A node of `value` read from the bytes of `span`.
    pub fn new(span: Span, value: Value) -> Self {
        Node { span, value }
    }

    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number with its source text, when the value is one.
    pub fn as_number(&self) -> Option<&Number> {
        match &self.value {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number's value, when the value is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(|n| n.value)
    }

    /// The items, when the value is an array.
    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, when the value is an object.
    pub fn as_object(&self) -> Option<&Object> {
        match &self.value {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Whether the value is null.
    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// Shorthand for `as_object().and_then(|o| o.get(key))`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_object().and_then(|o| o.get(key))
    }

    /// A short name of the value's type, as messages say it.
    pub fn type_name(&self) -> &'static str {
        let json_type = match self.value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        };
        json_type.name()
    }

    /// The value a scalar would have as text: a string itself, a number as
    /// written, a boolean as `true`/`false`. Collections and null have none.
    pub fn scalar_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        match &self.value {
            Value::String(s) => Some(s.as_str().into()),
            Value::Number(n) => Some(n.raw.as_str().into()),
            Value::Bool(b) => Some(if *b { "true" } else { "false" }.into()),
            _ => None,
        }
    }

    /// The node at an RFC 6901 pointer below this one.
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut node = self;
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Object(o) => o.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The number of nodes in this subtree, this one included.
    pub fn count(&self) -> usize {
        1 + match &self.value {
            Value::Array(items) => items.iter().map(Node::count).sum(),
            Value::Object(o) => o.members.iter().map(|m| m.value.count()).sum(),
            _ => 0,
        }
    }

    /// Where a diagnostic about a missing field of this object points: the
    /// object's first line (up to its first key), so a caret lands where a
    /// reader looks for the field rather than underlining the whole object.
    pub fn head_span(&self) -> Span {
        match &self.value {
            Value::Object(o) => match o.members.first() {
                Some(first) if first.key_span.start >= self.span.start => {
                    Span::new(self.span.start, first.key_span.end)
                }
                _ => self.span,
            },
            _ => self.span,
        }
    }
}
