//! Positions in the source text.
//!
//! The core counts in bytes internally; diagnostics also carry 1-based lines
//! and columns counted in characters (Unicode scalar values), which is what a
//! terminal user reads. Editors that count UTF-16 units convert at their own
//! boundary from the byte offsets.

use serde::Serialize;

/// A half-open byte range `[start, end)` into the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset just past the last byte; equal to `start` for an empty
    /// span.
    pub end: usize,
}

impl Span {
    /// The bytes from `start` up to, not including, `end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The empty span at `at`: a place in the text, not a stretch of it.
    pub const fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }

    /// How many bytes it covers.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether it covers no byte.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The smallest span holding both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A point in the text: 1-based line, 1-based column in characters, and the
/// byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Position {
    /// The line, counting from 1.
    pub line: usize,
    /// The column in characters (Unicode scalar values), counting from 1.
    pub column: usize,
    /// The byte offset into the text, always on a character boundary.
    pub offset: usize,
}

/// A range as diagnostics carry it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Range {
    /// Where the range begins.
    pub start: Position,
    /// Where it ends, exclusive; equal to `start` for an empty range.
    pub end: Position,
}

/// What a column counts: characters (what the core reports and a terminal
/// user reads), or the code units of an editor's encoding (LSP's UTF-16 by
/// default, or UTF-8 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Unicode scalar values.
    Char,
    /// UTF-8 code units: bytes.
    Utf8,
    /// UTF-16 code units: two for a character outside the BMP.
    Utf16,
}

impl Unit {
    /// How many units `text` is.
    pub fn count(self, text: &str) -> usize {
        match self {
            Unit::Utf8 => text.len(),
            // A character is one unit, or two from four UTF-8 bytes on; the
            // byte counts come from a word-at-a-time scan.
            Unit::Char => text.chars().count(),
            Unit::Utf16 => text.chars().count() + text.bytes().filter(|&b| b >= 0xF0).count(),
        }
    }

    /// How many units of `text` come before each of `offsets` (bytes), in
    /// the same order and one sweep: an editor's offsets into a whole
    /// text. An offset inside a character counts as its start; one past
    /// the end as the end.
    pub fn counts_before(self, text: &str, offsets: &[usize]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        crate::order::sort_by_key(&mut order, |&i| offsets[i]);
        let mut out = vec![0; offsets.len()];
        let (mut at, mut count) = (0, 0);
        for i in order {
            let offset = floor_char_boundary(text, offsets[i]);
            count += self.count(&text[at..offset]);
            at = offset;
            out[i] = count;
        }
        out
    }

    /// The byte offset `units` units into `text`: inside a character (half
    /// a UTF-16 pair), its start; past the end, the end.
    pub fn offset_of(self, text: &str, units: usize) -> usize {
        if text.as_bytes().get(..units).is_some_and(<[u8]>::is_ascii) {
            return units;
        }
        let mut seen = 0;
        for (at, c) in text.char_indices() {
            seen += self.width(c);
            if seen > units {
                return at;
            }
        }
        text.len()
    }

    fn width(self, c: char) -> usize {
        match self {
            Unit::Char => 1,
            Unit::Utf8 => c.len_utf8(),
            Unit::Utf16 => c.len_utf16(),
        }
    }
}

/// Maps byte offsets to lines and columns. Built once per text, O(n).
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset at which each line starts; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text`, in one pass.
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(newlines(text.as_bytes()).map(|i| i + 1));
        LineIndex { text, line_starts }
    }

    /// The text indexed.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// How many lines the text has: one more than its line breaks, so an
    /// empty text has one.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The position of a byte offset. An offset inside a multi-byte character
    /// or past the end is moved back to the nearest character boundary, so
    /// every range the core reports lies on character boundaries.
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor_char_boundary(self.text, offset);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        Position { line: line + 1, column, offset }
    }

    /// The positions of a span's ends; an end before the start is read as
    /// the start.
    pub fn range(&self, span: Span) -> Range {
        let start = self.position(span.start);
        let end = self.position(span.end.max(span.start));
        Range { start, end }
    }

    /// The positions of many offsets in one sweep over the text: O(n + k log k)
    /// for k offsets, where calling [`LineIndex::position`] for each would
    /// recount a long line's characters every time.
    pub fn positions(&self, offsets: &[usize]) -> Vec<Position> {
        self.positions_in(offsets, Unit::Char)
    }

    /// [`LineIndex::positions`] with columns counted in `unit` (still from
    /// 1): one sweep, so an editor's positions for every diagnostic of a
    /// long line cost one pass over it.
    pub fn positions_in(&self, offsets: &[usize], unit: Unit) -> Vec<Position> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        crate::order::sort_by_key(&mut order, |&i| offsets[i]);
        let mut out = vec![Position { line: 1, column: 1, offset: 0 }; offsets.len()];
        let (mut line, mut at, mut column) = (0, 0, 1);
        for i in order {
            let offset = floor_char_boundary(self.text, offsets[i]);
            let offset_line = self.line_starts.partition_point(|&s| s <= offset) - 1;
            if offset_line != line {
                line = offset_line;
                at = self.line_starts[line];
                column = 1;
            }
            column += unit.count(&self.text[at..offset]);
            at = offset;
            out[i] = Position { line: line + 1, column, offset };
        }
        out
    }

    /// The byte offset of a 0-based line and a 0-based column in `unit`,
    /// as an editor sends a place: past a line's end, that end (before its
    /// line break); past the last line, the text's end; inside a character
    /// (half a UTF-16 pair), its start.
    pub fn offset_in(&self, line: usize, column: usize, unit: Unit) -> usize {
        let Some(&start) = self.line_starts.get(line) else { return self.text.len() };
        let end = self.line_starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        start + unit.offset_of(&self.text[start..end], column)
    }

    /// The byte offset of a 1-based line and a 0-based character column, as
    /// some parsers report them. Out-of-range values are clamped.
    pub fn offset_of(&self, line: usize, char_column: usize) -> usize {
        let line = line.clamp(1, self.line_starts.len()) - 1;
        let start = self.line_starts[line];
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.text.len());
        let line_text = &self.text[start..end];
        match line_text.char_indices().nth(char_column) {
            Some((i, _)) => start + i,
            None => end,
        }
    }

    /// The byte span of the line holding `offset`, without its line break.
    pub fn line_span(&self, offset: usize) -> Span {
        let offset = floor_char_boundary(self.text, offset);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let mut end = self.line_starts.get(line + 1).copied().unwrap_or(self.text.len());
        while end > start && matches!(self.text.as_bytes()[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Span::new(start, end)
    }
}

/// The offsets of the line breaks (`\n`) in `bytes`. Every check scans the
/// whole text for them (the line index, the line-length limit); byte by byte
/// that was a tenth of a check's instructions, so memchr's word-at-a-time
/// search does it.
pub(crate) fn newlines(bytes: &[u8]) -> memchr::Memchr<'_> {
    memchr::memchr_iter(b'\n', bytes)
}

/// The largest character boundary at or before `offset`, clamped to the text.
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Converts the character indices some parsers report into byte offsets, in
/// O(1) per lookup after an O(n) setup (a checkpoint every 64 characters).
pub(crate) struct CharOffsets<'a> {
    text: &'a str,
    ascii: bool,
    checkpoints: Vec<usize>,
}

const CHECKPOINT_EVERY: usize = 64;

impl<'a> CharOffsets<'a> {
    pub fn new(text: &'a str) -> Self {
        let ascii = text.is_ascii();
        let checkpoints = if ascii {
            Vec::new()
        } else {
            text.char_indices().step_by(CHECKPOINT_EVERY).map(|(i, _)| i).collect()
        };
        CharOffsets { text, ascii, checkpoints }
    }

    pub fn byte_offset(&self, char_index: usize) -> usize {
        if self.ascii {
            return char_index.min(self.text.len());
        }
        let Some(&base) = self.checkpoints.get(char_index / CHECKPOINT_EVERY) else {
            return self.text.len();
        };
        let rest = char_index % CHECKPOINT_EVERY;
        match self.text[base..].char_indices().nth(rest) {
            Some((i, _)) => base + i,
            None => self.text.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_not_bytes() {
        let text = "ab\nçé x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(x), Position { line: 2, column: 4, offset: x });
        assert_eq!(index.position(0), Position { line: 1, column: 1, offset: 0 });
        assert_eq!(index.position(text.len()).line, 3);
    }

    #[test]
    fn the_sweep_agrees_with_single_positions() {
        let text = "ab\nçé x\n😀 y z\n";
        let index = LineIndex::new(text);
        let offsets: Vec<usize> = (0..=text.len()).rev().collect();
        let swept = index.positions(&offsets);
        for (offset, position) in offsets.iter().zip(swept) {
            assert_eq!(index.position(*offset), position, "offset {offset}");
        }
    }

    #[test]
    fn editor_units_both_ways() {
        let text = "a: é😀x\nb: 1\r\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let b = text.find('b').unwrap();
        let column = |unit| index.positions_in(&[x], unit)[0].column - 1;
        assert_eq!((column(Unit::Char), column(Unit::Utf16), column(Unit::Utf8)), (5, 6, 9));
        for unit in [Unit::Char, Unit::Utf8, Unit::Utf16] {
            assert_eq!(index.offset_in(0, column(unit), unit), x);
            assert_eq!(
                index.positions_in(&[b], unit)[0],
                Position { line: 2, column: 1, offset: b }
            );
        }
        assert_eq!(index.offset_in(0, 99, Unit::Utf16), text.find('\n').unwrap());
        assert_eq!(index.offset_in(9, 0, Unit::Utf16), text.len());
        let emoji = text.find('😀').unwrap();
        assert_eq!(index.offset_in(0, 5, Unit::Utf16), emoji, "inside 😀: its start");
        assert_eq!(Unit::Utf16.count("é😀x"), 4);
    }

    #[test]
    fn offsets_into_the_whole_text_both_ways() {
        let text = "a: \"é😀\"\nb: ✓x\n";
        let boundaries: Vec<usize> =
            text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let expected: Vec<usize> =
            boundaries.iter().map(|&b| text[..b].encode_utf16().count()).collect();
        assert_eq!(Unit::Utf16.counts_before(text, &boundaries), expected);
        for (&byte, &units) in boundaries.iter().zip(&expected) {
            assert_eq!(Unit::Utf16.offset_of(text, units), byte, "{byte}");
            assert_eq!(Unit::Utf8.offset_of(text, byte), byte, "{byte}");
        }
        // Inside the emoji's surrogate pair, and past the end.
        let emoji = text.find('😀').unwrap();
        assert_eq!(Unit::Utf16.offset_of(text, text[..emoji].encode_utf16().count() + 1), emoji);
        assert_eq!(Unit::Utf16.offset_of(text, 999), text.len());
        assert_eq!(Unit::Utf16.offset_of("abc", 2), 2);
        // The callers' order kept; inside a character its start; past the
        // end, the end.
        assert_eq!(Unit::Utf16.counts_before("😀😀", &[8, 0, 4, 99, 5]), vec![4, 0, 2, 4, 2]);
        assert_eq!(Unit::Utf16.counts_before("abc", &[2, 99]), vec![2, 3]);
    }

    #[test]
    fn newlines_are_every_line_break() {
        let text: String = (0..301)
            .map(|i| {
                if i % 7 == 0 || i == 63 || i == 299 {
                    '\n'
                } else if i % 5 == 0 {
                    'é'
                } else if i % 3 == 0 {
                    '\u{b}'
                } else {
                    '\u{8a}'
                }
            })
            .collect();
        let expected: Vec<usize> =
            text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
        assert_eq!(newlines(text.as_bytes()).collect::<Vec<_>>(), expected);
        assert_eq!(newlines(b"").count(), 0);
    }

    #[test]
    fn offsets_inside_a_character_move_to_its_start() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(1).offset, 0);
    }

    #[test]
    fn char_offsets_match_char_indices() {
        let text: String = "aé😀\n".repeat(100);
        let offsets = CharOffsets::new(&text);
        for (n, (i, _)) in text.char_indices().enumerate() {
            assert_eq!(offsets.byte_offset(n), i);
        }
        assert_eq!(offsets.byte_offset(text.chars().count()), text.len());
    }

    #[test]
    fn line_span_excludes_the_break() {
        let text = "one\r\ntwo";
        let index = LineIndex::new(text);
        assert_eq!(index.line_span(1), Span::new(0, 3));
        assert_eq!(index.line_span(6), Span::new(5, 8));
    }
}
