//! Byte offsets (the core's unit) to UTF-16 code units (CodeMirror's unit).
//!
//! The conversion happens once per check, here, for every diagnostic range;
//! everything past this boundary speaks UTF-16. Completion and hover
//! (`src/assist.rs`) convert one place near the cursor, both ways.

/// Converts byte offsets of one text to UTF-16 offsets.
pub struct Utf16Offsets<'t> {
    text: &'t str,
    ascii: bool,
}

impl<'t> Utf16Offsets<'t> {
    pub fn new(text: &'t str) -> Self {
        Utf16Offsets { text, ascii: text.is_ascii() }
    }

    /// The UTF-16 offsets of `offsets` (bytes), in the same order. Offsets
    /// inside a character count as its start; offsets past the end as the
    /// end. One pass over the text for all of them.
    pub fn convert(&self, offsets: &[usize]) -> Vec<u32> {
        if self.ascii {
            return offsets.iter().map(|&o| saturate(o.min(self.text.len()))).collect();
        }
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_unstable_by_key(|&i| offsets[i]);
        let mut result = vec![0; offsets.len()];
        let mut chars = self.text.char_indices().peekable();
        let mut units = 0usize;
        for i in order {
            let target = offsets[i];
            while let Some(&(at, c)) = chars.peek() {
                if at + c.len_utf8() > target {
                    break;
                }
                units += c.len_utf16();
                chars.next();
            }
            result[i] = saturate(units);
        }
        result
    }
}

/// The UTF-16 offset of one byte offset, counting only the text before it:
/// for a place near the cursor, without a pass over the whole text.
pub fn utf16_of(text: &str, byte: usize) -> u32 {
    let before = &text.as_bytes()[..byte.min(text.len())];
    if before.is_ascii() {
        return saturate(before.len());
    }
    saturate(
        text.char_indices()
            .take_while(|&(at, c)| at + c.len_utf8() <= byte)
            .map(|(_, c)| c.len_utf16())
            .sum(),
    )
}

/// The byte offset of a UTF-16 offset (the editor's), clamped to the text;
/// an offset inside a character counts as its start.
pub fn byte_of(text: &str, units: u32) -> usize {
    let units = units as usize;
    if text.as_bytes().get(..units).is_some_and(<[u8]>::is_ascii) {
        return units;
    }
    let mut seen = 0;
    for (at, c) in text.char_indices() {
        seen += c.len_utf16();
        if seen > units {
            return at;
        }
    }
    text.len()
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16_of(text: &str, byte: usize) -> u32 {
        saturate(text[..byte].encode_utf16().count())
    }

    #[test]
    fn agrees_with_encode_utf16_at_every_boundary() {
        let text = "a: \"é😀\"\nb: ✓x\n";
        let boundaries: Vec<usize> =
            text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let converted = Utf16Offsets::new(text).convert(&boundaries);
        let expected: Vec<u32> = boundaries.iter().map(|&b| utf16_of(text, b)).collect();
        assert_eq!(converted, expected);
    }

    #[test]
    fn one_offset_converts_both_ways() {
        let text = "a: \"é😀\"\nb: ✓x\n";
        for (byte, _) in text.char_indices().chain([(text.len(), ' ')]) {
            assert_eq!(utf16_of(text, byte), super::utf16_of(text, byte), "{byte}");
            assert_eq!(byte_of(text, utf16_of(text, byte)), byte, "{byte}");
        }
        // Inside the emoji's surrogate pair, and past the end.
        let emoji = text.find('😀').unwrap();
        assert_eq!(byte_of(text, utf16_of(text, emoji) + 1), emoji);
        assert_eq!(byte_of(text, 999), text.len());
        assert_eq!(super::utf16_of(text, 999), utf16_of(text, text.len()));
        assert_eq!(byte_of("abc", 2), 2);
    }

    #[test]
    fn keeps_the_callers_order_and_clamps() {
        let text = "😀😀";
        assert_eq!(Utf16Offsets::new(text).convert(&[8, 0, 4, 99, 5]), vec![4, 0, 2, 4, 2]);
        assert_eq!(Utf16Offsets::new("abc").convert(&[2, 99]), vec![2, 3]);
    }
}
