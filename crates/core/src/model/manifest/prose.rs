//! Lists as sentences say them, for messages and the explain view's
//! summaries.

/// "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "and")
}

/// "a", "a or b", "a, b or c".
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "or")
}

fn joined<S: AsRef<str>>(items: &[S], last_word: &str) -> String {
    let mut out = String::new();
    write_list(&mut out, items, last_word, |out, item| out.push_str(item.as_ref()));
    out
}

/// `a`, `a and b`, `a, b and c` written into `out`, each item by `item`: for
/// sentences built in one buffer.
pub(crate) fn write_list<T>(out: &mut String, items: &[T], conjunction: &str, mut item: impl FnMut(&mut String, &T)) {
    let last = items.len().saturating_sub(1);
    for (i, value) in items.iter().enumerate() {
        if i > 0 {
            if i == last {
                out.push(' ');
                out.push_str(conjunction);
                out.push(' ');
            } else {
                out.push_str(", ");
            }
        }
        item(out, value);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_read_naturally() {
        assert_eq!(super::and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(super::or_list(&["a", "b"]), "a or b");
        assert_eq!(super::and_list(&["a"]), "a");
        assert_eq!(super::and_list::<&str>(&[]), "");
    }
}
