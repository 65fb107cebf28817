//! Completion and hover text for the editor: the core's
//! (`opb_core::assist`), at the editor's UTF-16 offsets. The app words and
//! checks nothing here; it converts the place both ways.

use crate::checker::saturate;
use opb_core::assist::Completion;
use opb_core::text::{floor_char_boundary, Unit};
use opb_core::{Analysis, Kind, Syntax};

/// What to offer at a place: the items, and the UTF-16 range of the word
/// they replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub from: u32,
    pub to: u32,
    pub items: Vec<Completion>,
}

/// The byte offset of the editor's offset `at`.
fn byte_of(text: &str, at: u32) -> usize {
    Unit::Utf16.offset_of(text, at as usize)
}

/// The editor's offset of a byte offset, counting only the text before it:
/// a place near the cursor, without a pass over the whole text.
fn utf16_of(text: &str, byte: usize) -> u32 {
    saturate(Unit::Utf16.count(&text[..floor_char_boundary(text, byte)]))
}

/// The completions at UTF-16 offset `at` of `text`, read as `kind` in
/// `syntax`. Reads only the text around the place: no check runs.
pub fn complete(text: &str, kind: Kind, syntax: Syntax, at: u32) -> Option<Offered> {
    let found = opb_core::assist::complete(kind, syntax, text, byte_of(text, at))?;
    Some(Offered {
        from: utf16_of(text, found.from),
        to: utf16_of(text, found.to),
        items: found.items,
    })
}

/// What a hover over UTF-16 offset `at` shows: Markdown, and the UTF-16
/// range it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tip {
    pub markdown: String,
    pub from: u32,
    pub to: u32,
}

/// The hover text at `at` of `text`, which `analysis` was made from.
pub fn hover(analysis: &Analysis, text: &str, at: u32) -> Option<Tip> {
    let hover = analysis.hover(text, byte_of(text, at))?;
    Some(Tip {
        markdown: hover.markdown,
        from: utf16_of(text, hover.span.start),
        to: utf16_of(text, hover.span.end),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use opb_core::{analyze, Options};

    #[test]
    fn completions_come_in_utf16_offsets() {
        let text = "name: \"é😀\"\nste";
        let offered =
            complete(text, Kind::Playbook, Syntax::Yaml, text.encode_utf16().count() as u32)
                .expect("completions");
        let start = "name: \"é😀\"\n".encode_utf16().count() as u32;
        assert_eq!((offered.from, offered.to), (start, start + 3));
        assert!(offered.items.iter().any(|i| i.label == "steps"));
    }

    #[test]
    fn hover_comes_in_utf16_offsets() {
        let text = "name: \"é😀\"\nsteps:\n  - id: look\n    kind: agent\n";
        let analysis = analyze(text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() });
        let id = text.find("look").unwrap();
        let at = text[..id].encode_utf16().count() as u32;
        let tip = hover(&analysis, text, at + 1).expect("a hover");
        assert!(tip.markdown.starts_with("**Step `look`**"), "{}", tip.markdown);
        assert_eq!((tip.from, tip.to), (at, at + 4));
    }
}
