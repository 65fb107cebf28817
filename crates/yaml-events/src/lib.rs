//! The events of saphyr-parser's YAML parser over a string.
//!
//! A crate of its own for one reason: the parser is generic over its input,
//! so its code is generated in the crate that names the input type. Naming
//! it here, behind a function that is not generic, puts the scanner's code
//! in this crate, which the playground's size-optimised wasm profile builds
//! for speed (`[profile.wasm-release.package.opb-yaml-events]` in the
//! workspace's Cargo.toml): at opt-level "z" the scanner reads a 5 MB YAML
//! document in about 200 ms in Chromium, where it must leave typing in such
//! a document responsive (no keystroke may hold the page for more than
//! 100 ms).

pub use saphyr_parser::{Event, Marker, ScalarStyle, ScanError, Span, Tag};
use saphyr_parser::{Parser, StrInput};

/// The events of a YAML text, each with its span, then at most one error.
pub struct Events<'input>(Parser<'input, StrInput<'input>>);

impl<'input> Events<'input> {
    pub fn new(text: &'input str) -> Self {
        Events(Parser::new_from_str(text))
    }

    /// After an error that a quoted scalar never closed, where it opened;
    /// the error's marker is where scanning stopped.
    pub fn unclosed_opening(&self) -> Option<Marker> {
        self.0.unclosed_opening()
    }
}

impl<'input> Iterator for Events<'input> {
    type Item = Result<(Event<'input>, Span), ScanError>;

    // Kept out of line, so link-time optimisation does not move the scanner
    // into a caller built for size.
    #[inline(never)]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapping_gives_its_events_with_spans_then_ends() {
        let events: Vec<_> = Events::new("a: 1\n")
            .map(|e| e.map(|(event, span)| (event, span.start.index())))
            .collect();
        assert!(matches!(events.first(), Some(Ok((Event::StreamStart, 0)))));
        assert!(events
            .iter()
            .any(|e| matches!(e, Ok((Event::Scalar(value, ..), 3)) if value == "1")));
        assert!(matches!(events.last(), Some(Ok((Event::StreamEnd, _)))));
    }

    #[test]
    fn an_unclosed_quoted_scalar_says_where_it_opened_and_where_scanning_stopped() {
        let mut events = Events::new("a: \"abc\nb: 1\n");
        let error = events.by_ref().find_map(Result::err).expect("an unclosed quote is an error");
        assert_eq!((error.marker().line(), error.marker().col()), (2, 0));
        let opening = events.unclosed_opening().expect("the opening is known");
        assert_eq!((opening.line(), opening.col()), (1, 3));
        assert!(Events::new("a: [1\n").find_map(Result::err).is_some());
    }

    #[test]
    fn a_scan_error_is_reported_with_its_place() {
        let error = Events::new("a: [1, 2\n")
            .find_map(Result::err)
            .expect("an unclosed sequence is an error");
        assert_eq!(error.marker().line(), 2);
    }
}
