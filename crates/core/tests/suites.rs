//! The public JSON parsing suite: Nicolas Seriot's JSONTestSuite (RFC 8259),
//! vendored in `tests/data/JSONTestSuite` with its licence and the commit it
//! was taken from, read as `opb check` reads a file.
//!
//! - `y_`: accepted (the text reads to a tree, whatever the rules say of it).
//! - `n_`: rejected. A file that is not UTF-8 is refused before the core
//!   sees it (the CLI says so and exits 2); any other gets IN001 at a place
//!   inside the file, or IN006 where a limit is reached before the syntax
//!   error (a nesting deeper than the limit allows is not read on).
//! - `i_`: either is allowed; what opb does is the list below, the decision
//!   `docs/spec-decisions.md` records.

use opb_core::{check, Options, Syntax};
use std::path::Path;

/// How opb answers a file of the suite.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Not UTF-8: the CLI refuses to read it.
    NotText,
    /// Read to a tree.
    Accepted,
    /// IN001 or IN006, starting at this byte offset.
    Rejected { code: &'static str, offset: usize },
}

fn outcome(bytes: &[u8]) -> Outcome {
    let Ok(text) = std::str::from_utf8(bytes) else { return Outcome::NotText };
    let checked = check(text, &Options { syntax: Some(Syntax::Json), ..Options::default() });
    match checked.diagnostics.iter().find(|d| d.code == "IN001" || d.code == "IN006") {
        Some(d) => Outcome::Rejected { code: d.code, offset: d.range.start.offset },
        None => Outcome::Accepted,
    }
}

/// Every file of the suite with its name, in name order.
fn files() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/JSONTestSuite/test_parsing");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("the vendored JSONTestSuite")
        .flatten()
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).expect("a suite file"),
            )
        })
        .collect();
    files.sort();
    files
}

/// The `i_` files opb accepts; it rejects every other: numbers beyond what
/// a double holds are kept as written (the tree keeps every number's source
/// text), a byte-order mark is skipped, as editors write one; an escaped
/// lone surrogate is not text and is refused (IN001), as is a text not in
/// UTF-8, and 500 nested arrays pass the nesting limit (IN006).
const IMPLEMENTATION_DEFINED_ACCEPTED: &[&str] = &[
    "i_number_double_huge_neg_exp.json",
    "i_number_huge_exp.json",
    "i_number_neg_int_huge_exp.json",
    "i_number_pos_double_huge_exp.json",
    "i_number_real_neg_overflow.json",
    "i_number_real_pos_overflow.json",
    "i_number_real_underflow.json",
    "i_number_too_big_neg_int.json",
    "i_number_too_big_pos_int.json",
    "i_number_very_big_negative_int.json",
    "i_structure_UTF-8_BOM_empty_object.json",
];

#[test]
fn every_valid_file_is_accepted() {
    let refused: Vec<String> = files()
        .into_iter()
        .filter(|(name, _)| name.starts_with("y_"))
        .filter_map(|(name, bytes)| match outcome(&bytes) {
            Outcome::Accepted => None,
            other => Some(format!("{name}: {other:?}")),
        })
        .collect();
    assert!(refused.is_empty(), "valid JSON refused:\n{}", refused.join("\n"));
    assert_eq!(files().iter().filter(|(name, _)| name.starts_with("y_")).count(), 95);
}

#[test]
fn every_invalid_file_is_rejected_inside_the_file() {
    let mut by_limit = Vec::new();
    let accepted: Vec<String> = files()
        .into_iter()
        .filter(|(name, _)| name.starts_with("n_"))
        .filter_map(|(name, bytes)| match outcome(&bytes) {
            Outcome::NotText => None,
            Outcome::Rejected { code, offset } if offset <= bytes.len() => {
                if code == "IN006" {
                    by_limit.push(name);
                }
                None
            }
            other => Some(format!("{name}: {other:?}")),
        })
        .collect();
    assert!(accepted.is_empty(), "invalid JSON not rejected in the file:\n{}", accepted.join("\n"));
    assert_eq!(
        by_limit,
        ["n_structure_100000_opening_arrays.json", "n_structure_open_array_object.json"],
        "only nestings past the depth limit stop at it"
    );
    assert_eq!(files().iter().filter(|(name, _)| name.starts_with("n_")).count(), 188);
}

#[test]
fn implementation_defined_files_are_read_as_documented() {
    let accepted: Vec<String> = files()
        .into_iter()
        .filter(|(name, bytes)| name.starts_with("i_") && outcome(bytes) == Outcome::Accepted)
        .map(|(name, _)| name)
        .collect();
    assert_eq!(accepted, IMPLEMENTATION_DEFINED_ACCEPTED);
}

#[test]
fn a_raw_control_character_or_a_form_feed_is_pointed_at() {
    for (text, at) in [
        ("[\"a\tb\"]", 3),
        ("{\"k\": \"line\nbreak\"}", 11),
        ("[1,\u{c}2]", 3),
        ("{\u{a0}\"a\": 1}", 1),
    ] {
        assert_eq!(
            outcome(text.as_bytes()),
            Outcome::Rejected { code: "IN001", offset: at },
            "{text:?}"
        );
    }
    let checked =
        check("[\"a\tb\"]", &Options { syntax: Some(Syntax::Json), ..Options::default() });
    assert_eq!(checked.diagnostics[0].message, "Invalid JSON: a raw control character (U+0009) inside a string; write it escaped, as `\\t` (line 1, column 4).");
    assert_eq!(outcome(b"[\"a\\tb\"]"), Outcome::Accepted, "an escaped tab is JSON");
}
