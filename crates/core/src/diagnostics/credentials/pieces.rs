//! Parts of a credential quoted apart from it. A rule that reads a
//! credential as something else (a duration, a unit, a path) may quote a
//! piece of it next to the credential's preview: every run of [`PIECE`]
//! bytes of a credential is kept in a sorted list, each window of a text
//! looked up in it, and where runs occur the part they cover is hidden
//! whole.
//!
//! A list of eight-byte words, not an automaton of the runs: a value of n
//! bytes has n - 7 runs, and for a document with a thousand credentials
//! an automaton of them has hundreds of thousands of states, which cost
//! nearly twice the rest of its analysis to build and walk. Before a
//! window is looked up, a table of the pairs of bytes the values hold
//! clears it: a run's seven pairs must all be there, and in most text one
//! is missing, so the search skips past it.

use super::hide_past_shown;
use opb_syntax::text::Span;
use std::borrow::Cow;

/// The shortest run of a credential's bytes hidden where it occurs apart
/// from the whole credential. Shorter runs are common in words and names
/// (`Basic `, `server`, `https:`) and would be cut everywhere; at this
/// length a run of a token is its own. Eight bytes are one `u64`.
const PIECE: usize = 8;

/// The runs of some credentials' bytes, and the pairs of bytes in them.
/// A sorted list, not a hash set, for the wasm's size: a lookup comes only
/// after the pairs' table has cleared the window.
pub(crate) struct Pieces {
    /// Sorted.
    runs: Vec<u64>,
    /// One bit for each pair of bytes, set when a value holds it.
    pairs: Box<[u64; 1024]>,
}

/// A run's eight bytes as one word (folded, so no length check can fail).
fn word(run: &[u8]) -> u64 {
    run.iter().fold(0, |word, &byte| word << 8 | u64::from(byte))
}

/// The bit of the pair `a`, `b` in [`Pieces::pairs`]: its slot (below
/// 1024, so indexing needs no check) and mask.
fn pair(a: u8, b: u8) -> (usize, u64) {
    (usize::from(a) << 2 | usize::from(b) >> 6, 1 << (b & 63))
}

impl Pieces {
    /// The runs of `values`; none when no value is as long as a run.
    pub(crate) fn of(values: &[&str]) -> Option<Pieces> {
        let long: Vec<&[u8]> =
            values.iter().map(|value| value.as_bytes()).filter(|v| v.len() >= PIECE).collect();
        if long.is_empty() {
            return None;
        }
        let mut pieces = Pieces { runs: Vec::new(), pairs: Box::new([0; 1024]) };
        for bytes in long {
            pieces.runs.extend(bytes.windows(PIECE).map(word));
            for two in bytes.windows(2) {
                let (slot, bit) = pair(two[0], two[1]);
                pieces.pairs[slot] |= bit;
            }
        }
        // A run two values share is there twice, which a binary search
        // does not mind.
        opb_syntax::order::sort(&mut pieces.runs);
        Some(pieces)
    }

    /// Where parts of the credentials occur in `text`: every window that
    /// is a run, widened to whole characters, with those that overlap or
    /// touch joined, so a part longer than one run is covered whole.
    /// Sorted.
    pub(crate) fn spans(&self, text: &str) -> Vec<Span> {
        let bytes = text.as_bytes();
        let held = |i: usize| {
            let (slot, bit) = pair(bytes[i], bytes[i + 1]);
            self.pairs[slot] & bit != 0
        };
        let mut found = Vec::new();
        // The window ending at `end` is looked up only when the values hold
        // all seven of its pairs. They are read from its end back: where one
        // is not held, no window holding it can be a run, and the next
        // window that might be starts after it (in most text, seven bytes
        // on).
        let mut end = PIECE - 1;
        while end < bytes.len() {
            let at = end + 1 - PIECE;
            if let Some(missing) = (at..end).rev().find(|&i| !held(i)) {
                end = missing + PIECE;
                continue;
            }
            if self.runs.binary_search(&word(&bytes[at..=end])).is_ok() {
                let start = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                let end = (end + 1..=text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(text.len());
                found.push(Span::new(start, end));
            }
            end += 1;
        }
        // In the order they start, as the windows are.
        merged(found)
    }

    /// `text` with each part of a credential in it replaced by `…`: for
    /// a message or a label.
    pub(crate) fn cut<'t>(&self, text: Cow<'t, str>) -> Cow<'t, str> {
        self.rewrite(text, &mut |out, _| out.push('…'))
    }

    /// `text` with each part of a credential in it hidden past its first
    /// four characters, offsets kept (see [`hide_past_shown`]): for source
    /// lines.
    pub(crate) fn hide<'t>(&self, text: Cow<'t, str>) -> Cow<'t, str> {
        self.rewrite(text, &mut hide_past_shown)
    }

    /// `text` with each part of a credential in it written by `write`;
    /// `text` itself when it holds none.
    fn rewrite<'t>(
        &self,
        text: Cow<'t, str>,
        write: &mut dyn FnMut(&mut String, &str),
    ) -> Cow<'t, str> {
        let spans = self.spans(&text);
        if spans.is_empty() {
            return text;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for span in spans {
            out.push_str(&text[at..span.start]);
            write(&mut out, &text[span.start..span.end]);
            at = span.end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }
}

/// `spans`, sorted, with those that overlap or touch joined.
pub(crate) fn merged(spans: Vec<Span>) -> Vec<Span> {
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::{merged, Pieces, PIECE};
    use opb_syntax::text::Span;

    /// Every window of `text` that is a run of a value, merged: what
    /// [`Pieces::spans`] finds with its table and its skips.
    fn every_window(values: &[&str], text: &str) -> Vec<Span> {
        let runs: Vec<&[u8]> =
            values.iter().flat_map(|value| value.as_bytes().windows(PIECE)).collect();
        let windows = text.as_bytes().windows(PIECE).enumerate();
        merged(
            windows
                .filter(|(_, window)| runs.contains(window))
                .map(|(at, _)| Span::new(at, at + PIECE))
                .collect(),
        )
    }

    #[test]
    fn the_skips_find_every_window_that_is_a_run() {
        let values = ["abcabdabcaabbd", "ddccbbaadd", "bcabdabcaab"];
        let pieces = Pieces::of(&values).unwrap();
        // Texts of a small alphabet, so runs, near misses and held pairs
        // are common: a linear congruential sequence, the same each run.
        let mut state: u32 = 7;
        for _ in 0..2000 {
            let len = (state >> 8) as usize % 40;
            let text: String = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ['a', 'b', 'c', 'd'][(state >> 16) as usize % 4]
                })
                .collect();
            assert_eq!(pieces.spans(&text), every_window(&values, &text), "{text}");
        }
    }

    #[test]
    fn a_piece_is_widened_to_whole_characters() {
        let pieces = Pieces::of(&["é1234567"]).unwrap();
        // The run `\xa91234567` starts inside `é`, so the part hidden does.
        assert_eq!(pieces.spans("xé1234567y"), [Span::new(1, 10)]);
        assert!(Pieces::of(&["short"]).is_none());
    }
}
