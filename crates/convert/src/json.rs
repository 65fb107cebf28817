//! The tree written as JSON, numbers as written wherever JSON allows them.

use crate::ConvertError;
use opb_syntax::{Node, Number, Ptr, Value};
use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

pub(crate) fn write(root: &Node) -> Result<String, ConvertError> {
    check_numbers(root, &Ptr::root())?;
    let mut text = serde_json::to_string_pretty(&JsonNode(root))
        .map_err(|error| ConvertError::Unreadable { message: error.to_string() })?;
    text.push('\n');
    Ok(text)
}

/// Finds the first number JSON cannot write, before anything is written.
fn check_numbers(node: &Node, ptr: &Ptr) -> Result<(), ConvertError> {
    match &node.value {
        Value::Number(n) if json_number(n).is_none() => Err(ConvertError::NotRepresentable {
            pointer: ptr.as_str().to_owned(),
            raw: n.raw.clone(),
        }),
        Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, item)| check_numbers(item, &ptr.index(i)))
        }
        Value::Object(object) => {
            object.members.iter().try_for_each(|m| check_numbers(&m.value, &ptr.key(&m.key)))
        }
        _ => Ok(()),
    }
}

/// The JSON text of a number: as written when that is valid JSON (every JSON
/// source, most YAML), otherwise the same value in JSON's notation (YAML's
/// `0x1F`, `+1`, `.5`). `None` for infinities and NaN.
fn json_number(number: &Number) -> Option<String> {
    if is_json_number(&number.raw) {
        return Some(number.raw.clone());
    }
    let value = number.value;
    if !value.is_finite() {
        return None;
    }
    // Below 2^53 every whole number is exact in an f64, so it prints as an integer.
    if value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0 {
        return Some(format!("{}", value as i64));
    }
    // Debug prints the shortest text that reads back as the same f64, and
    // always in a form JSON accepts (`0.5`, `1e300`).
    Some(format!("{value:?}"))
}

/// RFC 8259's number: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

struct JsonNode<'a>(&'a Node);

impl Serialize for JsonNode<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0.value {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::String(s) => serializer.serialize_str(s),
            Value::Number(n) => {
                let text = json_number(n)
                    .ok_or_else(|| S::Error::custom(format!("`{}` has no JSON form", n.raw)))?;
                RawValue::from_string(text).map_err(S::Error::custom)?.serialize(serializer)
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&JsonNode(item))?;
                }
                seq.end()
            }
            // Duplicate keys are written twice: JSON can hold them, and the
            // checks report them (IN005) without this layer dropping one.
            Value::Object(object) => {
                let mut map = serializer.serialize_map(Some(object.members.len()))?;
                for member in &object.members {
                    map.serialize_entry(member.key.as_str(), &JsonNode(&member.value))?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_follow_rfc_8259() {
        for valid in ["0", "-0", "12", "0.50", "1e3", "1E+3", "-2.5e-7"] {
            assert!(is_json_number(valid), "{valid}");
        }
        for invalid in ["", "-", "+1", ".5", "1.", "01", "0x1F", "1e", ".inf", "1_000"] {
            assert!(!is_json_number(invalid), "{invalid}");
        }
    }

    #[test]
    fn yaml_only_notations_become_the_same_value() {
        let number = |raw: &str, value: f64| Number { raw: raw.to_owned(), value };
        assert_eq!(json_number(&number("0x1F", 31.0)).as_deref(), Some("31"));
        assert_eq!(json_number(&number("+1", 1.0)).as_deref(), Some("1"));
        assert_eq!(json_number(&number(".5", 0.5)).as_deref(), Some("0.5"));
        assert_eq!(json_number(&number("1e400", f64::INFINITY)).as_deref(), Some("1e400"));
        assert_eq!(json_number(&number("-.inf", f64::NEG_INFINITY)), None);
        assert_eq!(json_number(&number(".nan", f64::NAN)), None);
    }
}
