//! The editor's text, kept in Rust by applying each of the editor's edits.
//!
//! A check needs the whole text in Rust. Copying it out of the editor costs
//! about 4 ms a megabyte in Chromium (a string crosses into the wasm one
//! UTF-16 unit at a time), 20 to 30 ms a key in a 5 MB document; applying a
//! key's edit to a copy kept here costs a move of the text's tail, so a key
//! in a large document is still answered within a frame.
//! The copy checks itself against the editor's length after every edit and
//! gives up at the first disagreement, after which the text is copied again.

/// One edit, in the coordinates of the text before the transaction that
/// made it: the UTF-16 range `from..to` replaced by `inserted`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub from: usize,
    pub to: usize,
    pub inserted: String,
}

/// A copy of the editor's text that follows its edits.
#[derive(Debug, Clone)]
pub struct Mirror {
    text: String,
    /// The text's length in UTF-16 units, the editor's unit.
    units: usize,
    /// Whether the text is known to be ASCII, where a UTF-16 offset is the
    /// byte offset. Stays false once a non-ASCII edit is made (deleting the
    /// last non-ASCII character does not make it true again): only slower.
    ascii: bool,
}

impl Mirror {
    pub fn new(text: String) -> Self {
        Mirror { units: utf16_len(&text), ascii: text.is_ascii(), text }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Applies one transaction's changes, sorted and not overlapping, each in
    /// the coordinates of the text before the transaction (as CodeMirror's
    /// `ChangeSet.iterChanges` gives them). Returns whether the result has
    /// `length` UTF-16 units, the editor's length after the transaction;
    /// false also when a change does not fit the text (an offset past its
    /// end or inside a character), after which the mirror must be dropped.
    #[must_use]
    pub fn apply(&mut self, changes: &[Change], length: usize) -> bool {
        // From the last to the first: a change leaves the offsets before it
        // where they were.
        for change in changes.iter().rev() {
            let (Some(from), Some(to)) =
                (self.byte_offset(change.from), self.byte_offset(change.to))
            else {
                return false;
            };
            let Some(kept) = self.units.checked_sub(change.to.saturating_sub(change.from)) else {
                return false;
            };
            if from > to {
                return false;
            }
            self.text.replace_range(from..to, &change.inserted);
            self.units = kept + utf16_len(&change.inserted);
            self.ascii &= change.inserted.is_ascii();
        }
        self.units == length
    }

    /// The byte offset of a UTF-16 offset, if it falls between characters.
    fn byte_offset(&self, units: usize) -> Option<usize> {
        if self.ascii {
            return (units <= self.text.len()).then_some(units);
        }
        let mut seen = 0;
        for (at, c) in self.text.char_indices() {
            if seen >= units {
                return (seen == units).then_some(at);
            }
            seen += c.len_utf16();
        }
        (seen == units).then_some(self.text.len())
    }
}

fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(from: usize, to: usize, inserted: &str) -> Change {
        Change { from, to, inserted: inserted.to_owned() }
    }

    fn units(text: &str) -> usize {
        text.encode_utf16().count()
    }

    #[test]
    fn a_typed_character_and_a_deletion_follow_the_editor() {
        let mut mirror = Mirror::new("{\"name\": \"a\"}".to_owned());
        assert!(mirror.apply(&[change(11, 11, "b")], 14));
        assert_eq!(mirror.text(), "{\"name\": \"ab\"}");
        assert!(mirror.apply(&[change(10, 12, "")], 12));
        assert_eq!(mirror.text(), "{\"name\": \"\"}");
    }

    #[test]
    fn several_changes_of_one_transaction_use_the_offsets_before_it() {
        // CodeMirror's multi-cursor typing: one character at each cursor.
        let mut mirror = Mirror::new("abc\ndef\nghi".to_owned());
        assert!(mirror.apply(&[change(0, 0, "1"), change(4, 5, "2"), change(8, 11, "")], 9));
        assert_eq!(mirror.text(), "1abc\n2ef\n");
    }

    #[test]
    fn offsets_count_utf16_units_in_a_non_ascii_text() {
        let before = "é😀x";
        let mut mirror = Mirror::new(before.to_owned());
        // é is one unit, 😀 two: "x" starts at unit 3 (byte 6).
        let after = "é😀yx!";
        assert!(mirror.apply(&[change(3, 3, "y"), change(4, 4, "!")], units(after)));
        assert_eq!(mirror.text(), after);
        assert!(mirror.apply(&[change(1, 3, "ü")], units("éüyx!")));
        assert_eq!(mirror.text(), "éüyx!");
    }

    #[test]
    fn an_offset_inside_a_character_or_past_the_end_is_refused() {
        let mut mirror = Mirror::new("😀".to_owned());
        assert!(
            !mirror.clone().apply(&[change(1, 1, "x")], 3),
            "unit 1 is inside the surrogate pair"
        );
        assert!(!mirror.clone().apply(&[change(3, 3, "x")], 3), "past the end");
        let mut ascii = Mirror::new("ab".to_owned());
        assert!(!ascii.apply(&[change(1, 5, "")], 1));
        assert!(mirror.apply(&[change(2, 2, "x")], 3));
        assert_eq!(mirror.text(), "😀x");
    }

    #[test]
    fn a_length_other_than_the_editors_says_the_copy_is_lost() {
        let mut mirror = Mirror::new("abc".to_owned());
        assert!(!mirror.apply(&[change(3, 3, "d")], 5));
    }

    #[test]
    fn replacing_the_whole_text_follows_it() {
        let mut mirror = Mirror::new("old".to_owned());
        assert!(mirror.apply(&[change(0, 3, "ñew text")], 8));
        assert_eq!(mirror.text(), "ñew text");
        assert!(mirror.apply(&[change(0, 1, "n")], 8));
        assert_eq!(mirror.text(), "new text");
    }
}
