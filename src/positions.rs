//! Byte offsets (the core's unit) to UTF-16 code units (CodeMirror's unit).
//!
//! The conversion happens once per check, here, for every diagnostic range;
//! everything past this boundary speaks UTF-16.

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
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let converted = Utf16Offsets::new(text).convert(&boundaries);
        let expected: Vec<u32> = boundaries.iter().map(|&b| utf16_of(text, b)).collect();
        assert_eq!(converted, expected);
    }

    #[test]
    fn keeps_the_callers_order_and_clamps() {
        let text = "😀😀";
        assert_eq!(Utf16Offsets::new(text).convert(&[8, 0, 4, 99, 5]), vec![4, 0, 2, 4, 2]);
        assert_eq!(Utf16Offsets::new("abc").convert(&[2, 99]), vec![2, 3]);
    }
}
