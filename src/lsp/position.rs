//! LSP positions: a line from 0 and a character in the negotiated unit
//! (UTF-8 bytes when the client offers them, else UTF-16 code units, LSP's
//! default), to and from the core's byte offsets.

use lsp_types::{InitializeParams, Position, PositionEncodingKind, Range};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client lists it, which saves a conversion.
    pub fn negotiate(params: &InitializeParams) -> Encoding {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref())
            .unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// Where each line of a text starts, in bytes.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        Lines { starts }
    }

    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let offset = floor_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let character = text[start..offset].chars().map(|c| encoding.width(c)).sum::<usize>();
        Position { line: to_u32(line), character: to_u32(character) }
    }

    pub fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
        Range {
            start: self.position(text, start, encoding),
            end: self.position(text, end, encoding),
        }
    }

    /// The byte offset of a position; past a line's end, that end; past the
    /// last line, the text's end.
    pub fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return text.len() };
        let end = self.starts.get(position.line as usize + 1).map_or(text.len(), |next| next - 1);
        let mut units = 0;
        for (at, c) in text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + at;
            }
            units += encoding.width(c);
        }
        end
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_the_negotiated_units_both_ways() {
        let text = "a: é😀x\nb: 1\r\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x, Encoding::Utf16), Position { line: 0, character: 6 });
        assert_eq!(lines.position(text, x, Encoding::Utf8), Position { line: 0, character: 9 });
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(lines.offset(text, lines.position(text, x, encoding), encoding), x);
        }
        assert_eq!(
            lines.position(text, text.find('b').unwrap(), Encoding::Utf16),
            Position { line: 1, character: 0 }
        );
        assert_eq!(
            lines.offset(text, Position { line: 0, character: 99 }, Encoding::Utf16),
            text.find('\n').unwrap()
        );
        assert_eq!(
            lines.offset(text, Position { line: 9, character: 0 }, Encoding::Utf16),
            text.len()
        );
        assert_eq!(
            lines.position(text, 4, Encoding::Utf16),
            Position { line: 0, character: 3 },
            "inside é: its start"
        );
    }
}
