//! Documents that are hard on positions (`fixtures/input`): where a
//! bracket or quote never closed, a byte-order mark, tabs as separation.
//! Every position is asserted exactly, as a person would look for it.

use opb_core::{check, Diagnostic, Options};
use std::path::Path;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/input").join(name);
    std::fs::read_to_string(path).unwrap()
}

fn diagnostics(name: &str) -> Vec<Diagnostic> {
    let options = Options { syntax: opb_core::Syntax::from_path(name), ..Options::default() };
    check(&read(name), &options).diagnostics
}

/// `(line, column)` of a range's start and end.
type Place = ((usize, usize), (usize, usize));

fn place(range: &opb_core::text::Range) -> Place {
    ((range.start.line, range.start.column), (range.end.line, range.end.column))
}

#[test]
fn an_unclosed_bracket_or_quote_is_reported_at_its_opening_with_the_parsers_stop_related() {
    // (fixture, the opening's line, its column, what opened, where the parser stopped)
    let cases = [
        ("unclosed-bracket.json", 92, 23, "[", (93, 13)),
        ("unclosed-string.json", 105, 18, "\"", (106, 8)),
        ("unclosed-flow.oz0-plugin.yaml", 23, 14, "[", (25, 5)),
        ("unclosed-quote.yaml", 144, 14, "\"", (145, 5)),
    ];
    for (name, line, column, opened, stopped) in cases {
        let text = read(name);
        let found = diagnostics(name);
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        let d = &found[0];
        assert_eq!(d.code, "IN001", "{name}");
        assert_eq!(place(&d.range), ((line, column), (line, column + 1)), "{name}: {}", d.message);
        assert_eq!(&text[d.range.start.offset..d.range.end.offset], opened, "{name}");
        assert!(
            d.message.contains(&format!(
                "(line {line}, column {column}); reading stopped at line {}, column {}",
                stopped.0, stopped.1
            )),
            "{name}: {}",
            d.message
        );
        let [related] = d.related.as_slice() else {
            panic!("{name}: one related place, got {:#?}", d.related)
        };
        assert_eq!((related.range.start.line, related.range.start.column), stopped, "{name}");
        assert!(
            related.message.starts_with("Reading stopped here: "),
            "{name}: {}",
            related.message
        );
    }
}

#[test]
fn a_byte_order_mark_is_no_part_of_the_first_key() {
    let found = diagnostics("byte-order-mark.yaml");
    let codes: Vec<_> = found.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["PB102"], "{found:#?}");
    // Line 2 holds `openplaybook: "1.7x"`: the value starts at column 15.
    assert_eq!(place(&found[0].range), ((2, 15), (2, 21)));
}

#[test]
fn tabs_after_keys_read_as_the_spaces_they_separate_like() {
    let tabbed = read("tab-separated.yaml");
    assert!(tabbed.matches(":\t").count() > 50, "the fixture separates with tabs");
    let spaced = tabbed.replace(":\t", ": ");
    let options = Options { syntax: Some(opb_core::Syntax::Yaml), ..Options::default() };
    let (tabbed, spaced) = (check(&tabbed, &options), check(&spaced, &options));
    assert_eq!(tabbed.kind, Some(opb_core::Kind::Playbook));
    assert_eq!(tabbed.diagnostics, spaced.diagnostics);
    assert!(tabbed.diagnostics.is_empty(), "{:#?}", tabbed.diagnostics);
}
