//! Lists as sentences say them, for messages and the explain view's
//! summaries.

/// "a", "a and b", "a, b and c".
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    write_list(&mut out, items, "and", |out, item| out.push_str(item.as_ref()));
    out
}

/// `a`, `a and b`, `a, b and c` written into `out`, each item by `item`: for
/// sentences built in one buffer, from any iterator, so a filtered list
/// needs no vector of its own.
pub(crate) fn write_list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    conjunction: &str,
    mut item: impl FnMut(&mut String, T),
) {
    let mut items = items.into_iter().peekable();
    let mut first = true;
    while let Some(value) = items.next() {
        if !first {
            if items.peek().is_none() {
                out.push(' ');
                out.push_str(conjunction);
                out.push(' ');
            } else {
                out.push_str(", ");
            }
        }
        first = false;
        item(out, value);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_read_naturally() {
        assert_eq!(super::and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(super::and_list(&["a", "b"]), "a and b");
        assert_eq!(super::and_list(&["a"]), "a");
        assert_eq!(super::and_list::<&str>(&[]), "");
    }
}
