//! Generic shape checks shared by both kinds: a field's type (IN004) and
//! fields the project does not know (IN007).

use super::input::{IN004, IN007};
use crate::diagnostics::{At, Report};
use opb_syntax::{Node, Ptr, Value};
use std::fmt::Display;

/// The type a field is declared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    String,
    Bool,
    Number,
    Array,
    /// An array whose items must all be strings.
    StringArray,
    Object,
    /// A value of any type (the seed says "unknown", or the project shows it only).
    Any,
}

impl Ty {
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

    /// Whether `node` has this type, items included: what [`expect`]
    /// reports nothing for.
    fn is_met_by(self, node: &Node) -> bool {
        self.accepts(node)
            && (self != Ty::StringArray || node.as_array().unwrap_or_default().iter().all(|item| item.as_str().is_some()))
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

/// A field an object may have, and its type.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
}

impl Field {
    pub const fn new(name: &'static str, ty: Ty) -> Field {
        Field { name, ty }
    }
}

/// Reports IN004 when `node` is not of type `ty`. Returns whether it is.
/// `what` names the field for the message, e.g. "`steps[2].agent`".
pub fn expect(report: &mut Report, node: &Node, ptr: &Ptr, ty: Ty, what: &(impl Display + ?Sized)) -> bool {
    if ty.accepts(node) {
        if ty == Ty::StringArray {
            let items = node.as_array().unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if item.as_str().is_none() {
                    report.push(
                        &IN004,
                        &ptr.index(i),
                        At::Value(item),
                        format!("Each entry of {what} must be a string; entry {i} is {}.", item.type_name()),
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
pub fn check_fields(report: &mut Report, node: &Node, ptr: &Ptr, fields: &[Field], what: &(impl Display + ?Sized)) {
    let Some(object) = node.as_object() else { return };
    // Most fields are right: the pointer and the message are built only for
    // a field that is reported.
    for member in object.unique_members() {
        match fields.iter().find(|f| f.name == member.key) {
            Some(field) => {
                if !member.value.is_null() && !field.ty.is_met_by(&member.value) {
                    expect(report, &member.value, &ptr.key(&member.key), field.ty, &format_args!("`{}` of {what}", field.name));
                }
            }
            None => {
                let hint = closest(&member.key, fields)
                    .map(|f| format!(" Did you mean `{f}`?"))
                    .unwrap_or_default();
                report.push(
                    &IN007,
                    &ptr.key(&member.key),
                    At::Key(member),
                    format!("`{}` is not a field of {what} that opb knows; it is kept and shown.{hint}", member.key),
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
pub(crate) fn expect_objects(report: &mut Report, list: Option<&Node>, ptr: &Ptr, each: impl Display, what: Option<&str>) {
    let Some(items) = list.and_then(Node::as_array) else { return };
    for (i, item) in items.iter().enumerate() {
        if item.as_object().is_none() {
            let what = what.map(|what| format!(" ({what})")).unwrap_or_default();
            report.push(&IN004, &ptr.index(i), At::Value(item), format!("{each} must be an object{what}; entry {i} is {}.", item.type_name()));
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
