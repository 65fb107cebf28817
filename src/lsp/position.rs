//! LSP positions: a line from 0 and a character in the negotiated unit
//! (UTF-8 bytes when the client offers them, else UTF-16 code units, LSP's
//! default), to and from the core's byte offsets, through the syntax
//! layer's line index (the one the core places its diagnostics with).

use lsp_types::{Position, Range};
use opb_core::text::{LineIndex, Unit};

/// The unit the client and the server agreed on: UTF-8 when the client
/// lists it, which saves a conversion. Read from the raw `initialize`
/// parameters, so a client that sends them malformed still gets UTF-16.
pub fn negotiate(params: &serde_json::Value) -> Unit {
    let offered = params.pointer("/capabilities/general/positionEncodings");
    match offered.and_then(|o| o.as_array()) {
        Some(offered) if offered.iter().any(|e| e == "utf-8") => Unit::Utf8,
        _ => Unit::Utf16,
    }
}

/// The LSP ranges of many byte ranges of one text, in one sweep over it.
pub fn ranges(index: &LineIndex<'_>, spans: &[(usize, usize)], unit: Unit) -> Vec<Range> {
    let offsets: Vec<usize> =
        spans.iter().flat_map(|&(start, end)| [start, end.max(start)]).collect();
    let positions = index.positions_in(&offsets, unit);
    positions
        .chunks_exact(2)
        .map(|pair| Range { start: position(&pair[0]), end: position(&pair[1]) })
        .collect()
}

/// The byte offset of an LSP position.
pub fn offset(index: &LineIndex<'_>, at: Position, unit: Unit) -> usize {
    index.offset_in(at.line as usize, at.character as usize, unit)
}

fn position(at: &opb_core::text::Position) -> Position {
    Position { line: to_u32(at.line - 1), character: to_u32(at.column - 1) }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn positions_count_the_negotiated_units_both_ways() {
        let text = "a: é😀x\nb: 1\r\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let at = |unit| ranges(&index, &[(x, x)], unit)[0].start;
        assert_eq!(at(Unit::Utf16), Position { line: 0, character: 6 });
        assert_eq!(at(Unit::Utf8), Position { line: 0, character: 9 });
        for unit in [Unit::Utf8, Unit::Utf16] {
            assert_eq!(offset(&index, at(unit), unit), x);
        }
        assert_eq!(
            ranges(&index, &[(4, 4)], Unit::Utf16)[0].start,
            Position { line: 0, character: 3 },
            "inside é: its start"
        );
    }

    #[test]
    fn utf8_only_when_offered() {
        let offered =
            json!({ "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] } } });
        assert_eq!(negotiate(&offered), Unit::Utf8);
        assert_eq!(negotiate(&json!({ "capabilities": {} })), Unit::Utf16);
        assert_eq!(negotiate(&json!("not an object")), Unit::Utf16);
    }
}
