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
    match items {
        [] => String::new(),
        [only] => only.as_ref().to_owned(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} {last_word} {}", init.join(", "), last.as_ref())
        }
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
