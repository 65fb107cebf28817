//! Values a manifest writes in a small language of its own: Go durations,
//! escalation points (fractions and percentages), JSON pointers, environment
//! variable names, and the size of a value as JSON.
//!
//! The Go duration parser is our own: `go-parse-duration` (the one port on
//! crates.io) panics on `1µs` and misreads its overflow bound, and
//! `humantime` reads another language (`2d`, `1 hour`, no `1.5h`).

use opb_syntax::{Node, Value};

/// One nanosecond, second, minute and hour, in nanoseconds.
const NANOSECOND: i128 = 1;
const MICROSECOND: i128 = 1_000;
const MILLISECOND: i128 = 1_000_000;
pub const SECOND: i128 = 1_000_000_000;
pub const MINUTE: i128 = 60 * SECOND;
pub const HOUR: i128 = 60 * MINUTE;

/// Why a text is not a Go duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DurationError {
    Empty,
    /// A number without a unit, such as `300`.
    MissingUnit,
    /// A unit Go does not know, such as `d` or `hours`.
    UnknownUnit(String),
    /// Something that is not a number where one is due.
    Malformed,
    /// More than Go's `time.Duration` holds (about 292 years).
    OutOfRange,
}

impl std::fmt::Display for DurationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DurationError::Empty => f.write_str("it is empty"),
            DurationError::MissingUnit => f.write_str("a number needs a unit (`s`, `m` or `h`)"),
            DurationError::UnknownUnit(unit) => {
                write!(f, "`{unit}` is not a unit; use `ns`, `us`, `ms`, `s`, `m` or `h` (no days: `48h`)")
            }
            DurationError::Malformed => {
                f.write_str("it is not numbers with units, such as `90s`, `35m` or `1h30m`")
            }
            DurationError::OutOfRange => f.write_str("it is longer than a duration can be"),
        }
    }
}

/// Parses a duration as Go's `time.ParseDuration` does: an optional sign,
/// then one or more decimal numbers (with an optional fraction) each with a
/// unit (`ns`, `us`/`µs`, `ms`, `s`, `m`, `h`), such as `90s`, `1.5h` or
/// `1h30m`; `0` alone is zero. Returns nanoseconds.
pub fn parse_go_duration(text: &str) -> Result<i128, DurationError> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(if text.is_empty() { DurationError::Empty } else { DurationError::Malformed });
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let digits_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let (whole, after_whole) = rest.split_at(digits_end);
        let (fraction, after_number) = match after_whole.strip_prefix('.') {
            Some(after_dot) => {
                let end = after_dot.find(|c: char| !c.is_ascii_digit()).unwrap_or(after_dot.len());
                after_dot.split_at(end)
            }
            None => ("", after_whole),
        };
        if whole.is_empty() && fraction.is_empty() {
            return Err(DurationError::Malformed);
        }
        let unit_end = after_number
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(after_number.len());
        let (unit, after_unit) = after_number.split_at(unit_end);
        if unit.is_empty() {
            return Err(DurationError::MissingUnit);
        }
        let scale = match unit {
            "ns" => NANOSECOND,
            "us" | "µs" | "μs" => MICROSECOND,
            "ms" => MILLISECOND,
            "s" => SECOND,
            "m" => MINUTE,
            "h" => HOUR,
            other => return Err(DurationError::UnknownUnit(other.to_owned())),
        };
        total = total
            .checked_add(component(whole, fraction, scale)?)
            .ok_or(DurationError::OutOfRange)?;
        if total > i128::from(i64::MAX) {
            return Err(DurationError::OutOfRange);
        }
        rest = after_unit;
    }
    Ok(if negative { -total } else { total })
}

/// `whole.fraction` of `scale` nanoseconds, the fraction truncated to whole
/// nanoseconds as Go truncates it.
fn component(whole: &str, fraction: &str, scale: i128) -> Result<i128, DurationError> {
    let whole_value = if whole.is_empty() {
        0
    } else {
        // More digits than an i64 holds is out of range whatever the unit.
        whole.parse::<i64>().map_err(|_| DurationError::OutOfRange)?
    };
    let mut value = i128::from(whole_value).checked_mul(scale).ok_or(DurationError::OutOfRange)?;
    let mut divisor: i128 = 1;
    let mut numerator: i128 = 0;
    // Beyond 18 digits a fraction no longer changes a whole nanosecond count.
    for digit in fraction.bytes().take(18) {
        numerator = numerator * 10 + i128::from(digit - b'0');
        divisor *= 10;
    }
    value += numerator * scale / divisor;
    Ok(value)
}

/// A point on an escalation ladder as written: a number (`0.5`), or a
/// string holding a percentage (`"90%"`) or a fraction (`"0.5"`). Returns
/// the fraction, or `None` when the value is neither.
pub fn read_fraction(node: &Node) -> Option<f64> {
    match &node.value {
        Value::Number(n) => Some(n.value),
        Value::String(s) => {
            let s = s.trim();
            match s.strip_suffix('%') {
                Some(percent) => decimal(percent.trim_end()).map(|p| p / 100.0),
                None => decimal(s),
            }
        }
        _ => None,
    }
}

/// A plain decimal number: digits with at most one point, nothing else.
fn decimal(s: &str) -> Option<f64> {
    let plain = !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().filter(|&b| b == b'.').count() <= 1
        && s.bytes().any(|b| b.is_ascii_digit());
    if plain {
        s.parse().ok()
    } else {
        None
    }
}

/// Whether a text is an RFC 6901 JSON pointer into a value: `/` then
/// tokens, where `~` only escapes (`~0`, `~1`). The whole document (`""`)
/// is not an argument, so it does not count.
pub fn is_argument_pointer(text: &str) -> bool {
    let Some(tokens) = text.strip_prefix('/') else { return false };
    let mut chars = tokens.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

/// Whether a text is an environment variable name: a letter or underscore,
/// then letters, digits and underscores.
pub fn is_env_name(text: &str) -> bool {
    let mut bytes = text.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The text of each `${…}` in a header value, in order: the secret names
/// it refers to (or what stands there instead of a name).
pub fn secret_references(text: &str) -> Vec<&str> {
    let mut references = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        references.push(&after[..end]);
        rest = &after[end + 1..];
    }
    references
}

/// The size in bytes of a value written as compact JSON, as a node sends it:
/// strings escaped as JSON escapes them, numbers as written, and each key
/// once (a duplicate key is reported on its own and not sent).
pub fn json_size(node: &Node) -> usize {
    match &node.value {
        Value::Null => 4,
        Value::Bool(b) => {
            if *b {
                4
            } else {
                5
            }
        }
        Value::Number(n) => n.raw.len(),
        Value::String(s) => json_string_size(s),
        Value::Array(items) => {
            2 + items.iter().map(json_size).sum::<usize>() + items.len().saturating_sub(1)
        }
        Value::Object(object) => {
            let members: Vec<_> = object.unique_members().collect();
            2 + members
                .iter()
                .map(|m| json_string_size(&m.key) + 1 + json_size(&m.value))
                .sum::<usize>()
                + members.len().saturating_sub(1)
        }
    }
}

fn json_string_size(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_read_as_go_reads_them() {
        assert_eq!(parse_go_duration("90s"), Ok(90 * SECOND));
        assert_eq!(parse_go_duration("35m"), Ok(35 * MINUTE));
        assert_eq!(parse_go_duration("1h30m"), Ok(90 * MINUTE));
        assert_eq!(parse_go_duration("720h"), Ok(720 * HOUR));
        assert_eq!(parse_go_duration("1.5h"), Ok(90 * MINUTE));
        assert_eq!(parse_go_duration(".5s"), Ok(SECOND / 2));
        assert_eq!(parse_go_duration("1.s"), Ok(SECOND));
        assert_eq!(parse_go_duration("300ms"), Ok(300 * MILLISECOND));
        assert_eq!(parse_go_duration("1µs"), Ok(MICROSECOND));
        assert_eq!(parse_go_duration("1μs"), Ok(MICROSECOND));
        assert_eq!(parse_go_duration("2h0m0.000000001s"), Ok(2 * HOUR + 1));
        assert_eq!(parse_go_duration("0"), Ok(0));
        assert_eq!(parse_go_duration("-1m"), Ok(-MINUTE));
        assert_eq!(parse_go_duration("+1m"), Ok(MINUTE));
    }

    #[test]
    fn what_go_refuses_is_refused() {
        assert_eq!(parse_go_duration(""), Err(DurationError::Empty));
        assert_eq!(parse_go_duration("300"), Err(DurationError::MissingUnit));
        assert_eq!(parse_go_duration("2d"), Err(DurationError::UnknownUnit("d".into())));
        assert_eq!(parse_go_duration("1 h"), Err(DurationError::UnknownUnit(" h".into())));
        assert_eq!(parse_go_duration("h"), Err(DurationError::Malformed));
        assert_eq!(parse_go_duration(".s"), Err(DurationError::Malformed));
        assert_eq!(parse_go_duration("-"), Err(DurationError::Malformed));
        assert_eq!(parse_go_duration("3000000h"), Err(DurationError::OutOfRange));
        assert_eq!(parse_go_duration("99999999999999999999s"), Err(DurationError::OutOfRange));
    }

    fn node(value: Value) -> Node {
        Node::new(opb_syntax::text::Span::empty(0), value)
    }

    fn number(raw: &str) -> Node {
        node(Value::Number(opb_syntax::Number { raw: raw.into(), value: raw.parse().unwrap() }))
    }

    #[test]
    fn escalation_points_are_fractions_or_percentages() {
        assert_eq!(read_fraction(&number("0.5")), Some(0.5));
        assert_eq!(read_fraction(&node(Value::String("90%".into()))), Some(0.9));
        assert_eq!(read_fraction(&node(Value::String("12.5 %".into()))), Some(0.125));
        assert_eq!(read_fraction(&node(Value::String("0.25".into()))), Some(0.25));
        assert_eq!(read_fraction(&node(Value::String("half".into()))), None);
        assert_eq!(read_fraction(&node(Value::String("-5%".into()))), None);
        assert_eq!(read_fraction(&node(Value::Bool(true))), None);
    }

    #[test]
    fn pointers_and_env_names() {
        assert!(is_argument_pointer("/body"));
        assert!(is_argument_pointer("/env/API_KEY"));
        assert!(is_argument_pointer("/a~1b/c~0d"));
        assert!(!is_argument_pointer("body"));
        assert!(!is_argument_pointer(""));
        assert!(!is_argument_pointer("/a~2"));
        assert!(!is_argument_pointer("/a~"));
        assert!(is_env_name("FETCH_USER_AGENT"));
        assert!(is_env_name("_x1"));
        assert!(!is_env_name("1X"));
        assert!(!is_env_name("A-B"));
        assert!(!is_env_name(""));
    }

    #[test]
    fn header_secret_references() {
        assert_eq!(secret_references("Bearer ${SEARCH_TOKEN}"), ["SEARCH_TOKEN"]);
        assert_eq!(secret_references("${A}:${B}"), ["A", "B"]);
        assert_eq!(secret_references("${}x${C"), [""]);
        assert!(secret_references("Bearer $TOKEN").is_empty());
    }

    #[test]
    fn json_size_is_the_compact_serialisation() {
        let text = "{\"type\": \"object\", \"properties\": {\"a\\\"b\": {\"type\": [\"string\", null]}, \"n\": 1.5, \"t\": true, \"nl\": \"x\\ny\\u0001é\"}}";
        let parsed =
            opb_syntax::parse(text, opb_syntax::Syntax::Json, &opb_syntax::Limits::default());
        let root = parsed.root.unwrap();
        let compact =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(text).unwrap())
                .unwrap();
        assert_eq!(json_size(&root), compact.len());
    }
}
