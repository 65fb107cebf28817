//! Generic shape checks shared by both kinds: a field's type (IN004) and
//! fields the project does not know (IN007).

use super::input::{IN004, IN007};
use crate::diagnostics::{At, Report};
use opb_syntax::{Node, Ptr, Value};
use std::fmt::Display;

/// The type a field is declared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A string.
    String,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// An array of any items.
    Array,
    /// An array whose items must all be strings.
    StringArray,
    /// An object.
    Object,
    /// A value of any type (the seed says "unknown", or the project shows it only).
    Any,
}

impl Ty {
    /// The type in words, for messages: "an array of strings".
    pub fn describe(self) -> &'static str {
        match self {
            Ty::String => "a string",
            Ty::Bool => "a boolean (true or false)",
            Ty::Number => "a number",
            Ty::Array => "an array",
            Ty::StringArray => "an array of strings",
            Ty::Object => "an object",
            Ty::Any => "any value",
        }
    }

    /// The JSON Schema type name (`"array"` for both arrays); none for
    /// any value.
    pub fn json_type(self) -> Option<&'static str> {
        match self {
            Ty::String => Some("string"),
            Ty::Bool => Some("boolean"),
            Ty::Number => Some("number"),
            Ty::Array | Ty::StringArray => Some("array"),
            Ty::Object => Some("object"),
            Ty::Any => None,
        }
    }

    /// Whether `node` has this type, items included: what [`expect`]
    /// reports nothing for.
    fn is_met_by(self, node: &Node) -> bool {
        self.accepts(node)
            && (self != Ty::StringArray
                || node.as_array().unwrap_or_default().iter().all(|item| item.as_str().is_some()))
    }

    fn accepts(self, node: &Node) -> bool {
        matches!(
            (self, &node.value),
            (Ty::Any, _)
                | (Ty::String, Value::String(_))
                | (Ty::Bool, Value::Bool(_))
                | (Ty::Number, Value::Number(_))
                | (Ty::Array | Ty::StringArray, Value::Array(_))
                | (Ty::Object, Value::Object(_))
        )
    }
}

/// A field an object may have: its name and type, which the shape checks
/// read, and what the JSON Schemas ([`crate::schema`]) and the editors say of
/// it, read from the same table so that neither can drift from the checks.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The key.
    pub name: &'static str,
    /// The type its value must have.
    pub ty: Ty,
    /// The seed's (or DOCUMENTS.md's) sentence about it, in Markdown; empty
    /// where neither says anything.
    pub doc: &'static str,
    /// A rule reports the document when the field is absent, null or blank.
    pub required: bool,
    /// The values a rule accepts, when the seed enumerates them.
    pub values: Option<Values>,
    /// What the value holds, when it is a container opb checks inside.
    pub holds: Holds,
    /// Which of its objects' fields go together, when a rule holds each
    /// object it holds to one of a few combinations.
    pub combinations: Option<Combinations>,
}

/// The combinations of some fields an object may set, as a seed states them
/// and a rule checks them: it sets (to something other than null) exactly
/// the fields of one combination and none of the others named.
#[derive(Debug, Clone, Copy)]
pub struct Combinations {
    /// Every field the combinations name.
    pub fields: &'static [&'static str],
    /// The fields set together, one list a combination.
    pub allowed: &'static [&'static [&'static str]],
}

/// An enumeration: its values, and what each means.
#[derive(Debug, Clone, Copy)]
pub struct Values {
    /// The values, in the seed's order.
    pub values: &'static [&'static str],
    /// One sentence for a value, for completion and hover.
    pub meaning: fn(&str) -> Option<&'static str>,
    /// Whether a rule reports a value not among them as an error; an open
    /// enumeration only suggests its values (step kinds: another kind is an
    /// info).
    pub closed: bool,
}

/// What a container field holds, for the schemas: the fields of an object
/// value, of each item of a list, or of each value of a map.
#[derive(Debug, Clone, Copy)]
pub enum Holds {
    /// Nothing opb checks field by field.
    Nothing,
    /// An object with these fields (and no others).
    Object(&'static [Field]),
    /// A list whose items are objects with these fields.
    Items(&'static [Field]),
    /// A map whose values are objects with these fields.
    Map(&'static [Field]),
    /// A map whose values are scalars, read as their text (`env`, `headers`).
    Scalars,
}

impl Field {
    /// A field of type `ty`, with nothing more said.
    pub const fn new(name: &'static str, ty: Ty) -> Field {
        Field {
            name,
            ty,
            doc: "",
            required: false,
            values: None,
            holds: Holds::Nothing,
            combinations: None,
        }
    }

    /// The sentences are documentation: a build without the
    /// `documentation` feature (the viewer's) links none of them.
    pub(crate) const fn doc(self, doc: &'static str) -> Field {
        #[cfg(not(feature = "documentation"))]
        let doc = {
            let _ = doc;
            ""
        };
        Field { doc, ..self }
    }

    pub(crate) const fn required(self) -> Field {
        Field { required: true, ..self }
    }

    pub(crate) const fn one_of(
        self,
        values: &'static [&'static str],
        meaning: fn(&str) -> Option<&'static str>,
    ) -> Field {
        Field {
            values: Some(Values { values, meaning: documented_meaning(meaning), closed: true }),
            ..self
        }
    }

    pub(crate) const fn suggests(
        self,
        values: &'static [&'static str],
        meaning: fn(&str) -> Option<&'static str>,
    ) -> Field {
        Field {
            values: Some(Values { values, meaning: documented_meaning(meaning), closed: false }),
            ..self
        }
    }

    pub(crate) const fn holds(self, holds: Holds) -> Field {
        Field { holds, ..self }
    }

    /// Each object the field holds sets exactly one of `combinations`.
    pub(crate) const fn combinations(self, combinations: Combinations) -> Field {
        Field { combinations: Some(combinations), ..self }
    }

    /// The fields of what this field holds: an object's, an item's or a map
    /// value's.
    pub fn children(&self) -> &'static [Field] {
        match self.holds {
            Holds::Object(fields) | Holds::Items(fields) | Holds::Map(fields) => fields,
            Holds::Nothing | Holds::Scalars => &[],
        }
    }
}

/// A value's meaning is documentation too: without the `documentation`
/// feature, no value has one, and the meanings' texts are not linked.
const fn documented_meaning(
    meaning: fn(&str) -> Option<&'static str>,
) -> fn(&str) -> Option<&'static str> {
    #[cfg(not(feature = "documentation"))]
    let meaning = {
        let _ = meaning;
        (|_| None) as fn(&str) -> Option<&'static str>
    };
    meaning
}

/// Reports IN004 when `node` is not of type `ty`. Returns whether it is.
/// `what` names the field for the message, e.g. "`steps[2].agent`".
pub fn expect(
    report: &mut Report,
    node: &Node,
    ptr: &Ptr,
    ty: Ty,
    what: &(impl Display + ?Sized),
) -> bool {
    if ty.accepts(node) {
        if ty == Ty::StringArray {
            let items = node.as_array().unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if item.as_str().is_none() {
                    report.push(
                        &IN004,
                        &ptr.index(i),
                        At::Value(item),
                        format!(
                            "Each entry of {what} must be a string; entry {i} is {}.",
                            item.type_name()
                        ),
                    );
                }
            }
        }
        return true;
    }
    report.push(
        &IN004,
        ptr,
        At::Value(node),
        format!("{what} must be {}, not {}.", ty.describe(), node.type_name()),
    );
    false
}

/// Checks the declared fields of an object: IN004 for each one of the wrong
/// type, IN007 for each field not in `fields`. `what` names the object for
/// messages (e.g. "step `recover`"), written only into a message: callers
/// may pass `format_args!`, so nothing is formatted for a sound object. Null
/// values are left to the rules that know whether the field is optional.
pub fn check_fields(
    report: &mut Report,
    node: &Node,
    ptr: &Ptr,
    fields: &[Field],
    what: &(impl Display + ?Sized),
) {
    let Some(object) = node.as_object() else { return };
    // Most fields are right: the pointer and the message are built only for
    // a field that is reported.
    for member in object.unique_members() {
        match fields.iter().find(|f| f.name == member.key) {
            Some(field) => {
                if !member.value.is_null() && !field.ty.is_met_by(&member.value) {
                    expect(
                        report,
                        &member.value,
                        &ptr.key(&member.key),
                        field.ty,
                        &format_args!("`{}` of {what}", field.name),
                    );
                }
            }
            None => {
                let meant = closest(&member.key, fields);
                let hint = meant.map(|f| format!(" Did you mean `{f}`?")).unwrap_or_default();
                report.push_fixable(
                    &IN007,
                    &ptr.key(&member.key),
                    At::Key(member),
                    format!(
                        "`{}` is not a field of {what} that opb knows; it is kept and shown.{hint}",
                        member.key
                    ),
                    meant,
                );
            }
        }
    }
}

/// A known field name one small edit away (or differing only in case).
fn closest(key: &str, fields: &[Field]) -> Option<&'static str> {
    fields
        .iter()
        .map(|f| f.name)
        .filter(|name| name.eq_ignore_ascii_case(key) || edit_distance(name, key) <= 2)
        .min_by_key(|name| edit_distance(name, key))
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(cb));
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// IN004 for each entry of the list `list` (at `ptr`) that is not an object.
/// `each` starts the message ("Each entry of `steps`"); `what`, when given,
/// says what an entry is ("a step with an `id` and a `kind`").
pub(crate) fn expect_objects(
    report: &mut Report,
    list: Option<&Node>,
    ptr: &Ptr,
    each: impl Display,
    what: Option<&str>,
) {
    let Some(items) = list.and_then(Node::as_array) else { return };
    for (i, item) in items.iter().enumerate() {
        if item.as_object().is_none() {
            let what = what.map(|what| format!(" ({what})")).unwrap_or_default();
            report.push(
                &IN004,
                &ptr.index(i),
                At::Value(item),
                format!("{each} must be an object{what}; entry {i} is {}.", item.type_name()),
            );
        }
    }
}

/// A field that is absent or null.
pub(crate) fn is_absent(node: Option<&Node>) -> bool {
    node.is_none_or(Node::is_null)
}

/// A string field that is absent, null, or only blanks: "missing" for the
/// rules that require it. A value of another type is not blank: the shape
/// check reports it.
pub(crate) fn is_blank(node: Option<&Node>) -> bool {
    is_absent(node) || node.and_then(Node::as_str).is_some_and(|s| s.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_names() {
        let fields = [Field::new("allowedTools", Ty::StringArray), Field::new("agent", Ty::String)];
        assert_eq!(closest("allowedtools", &fields), Some("allowedTools"));
        assert_eq!(closest("agnt", &fields), Some("agent"));
        assert_eq!(closest("purpose", &fields), None);
    }
}
