//! English as opb's sentences write it: lists (`a, b and c`) and a
//! capital to start a sentence with. One wording for the rules' messages,
//! the explain view's summaries and the renderers (`opb_core::prose`).

/// "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    write_list(&mut out, items, "and", |out, item| out.push_str(item.as_ref()));
    out
}

/// `a`, `a and b`, `a, b and c` written into `out`, each item by `item`: for
/// sentences built in one buffer, from any iterator, so a filtered list
/// needs no vector of its own.
pub fn write_list<T>(
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

/// "Tool `x`" from "tool `x`", for the start of a sentence. Takes what
/// names the subject as `Display`, and writes it capitalised straight into
/// the message: no copy of the name is made (PB219 writes thousands). Only
/// an ASCII letter is upper-cased: every sentence opb starts begins with
/// its own English word, and Unicode's case tables would weigh on the wasm.
pub fn capitalise<T: std::fmt::Display>(text: T) -> Capitalised<T> {
    Capitalised(text)
}

/// What [`capitalise`] returns: its text, first character upper-cased.
pub struct Capitalised<T>(T);

impl<T: std::fmt::Display> std::fmt::Display for Capitalised<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// Passes text on, upper-casing the first character of the first
        /// piece that has one.
        struct FirstUpper<'f, 'g> {
            out: &'f mut std::fmt::Formatter<'g>,
            done: bool,
        }
        impl std::fmt::Write for FirstUpper<'_, '_> {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                let mut chars = s.chars();
                match chars.next() {
                    Some(first) if !self.done => {
                        self.done = true;
                        self.out.write_char(first.to_ascii_uppercase())?;
                        self.out.write_str(chars.as_str())
                    }
                    _ => self.out.write_str(s),
                }
            }
        }
        std::fmt::write(&mut FirstUpper { out: f, done: false }, format_args!("{}", self.0))
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

    #[test]
    fn capitalise_upper_cases_only_the_first_character_written() {
        use super::capitalise;
        assert_eq!(capitalise("step `send`").to_string(), "Step `send`");
        assert_eq!(capitalise(format_args!("{}{}", "", "étape")).to_string(), "étape");
        assert_eq!(capitalise("").to_string(), "");
    }
}
