//! What the fuzz targets share: the invariants the core's tests hold every
//! check to (one file, included from the core's tests), and the calls each
//! target makes.

#[path = "../../crates/core/tests/support/invariants.rs"]
pub mod invariants;

use opb_core::{analyze, check, Kind, Options, Syntax};
use std::borrow::Cow;

/// The text the core gets from fuzzer bytes. The CLI refuses a file that is
/// not UTF-8 before the core sees it, so invalid sequences are replaced
/// rather than skipped: every input still reaches the parsers.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// The kinds a reader can choose: detected, or forced either way.
pub const KINDS: [Option<Kind>; 3] = [None, Some(Kind::Playbook), Some(Kind::PluginManifest)];

/// Checks `text` and holds the result to the invariants.
pub fn check_holds(text: &str, syntax: Option<Syntax>, kind: Option<Kind>) {
    let options = Options { syntax, kind, ..Options::default() };
    let checked = check(text, &options);
    invariants::assert_checked(text, &options, &checked);
}

/// Analyses `text` (check and explain) and holds the result to the
/// invariants.
pub fn analyze_holds(text: &str, syntax: Option<Syntax>, kind: Option<Kind>) {
    let options = Options { syntax, kind, ..Options::default() };
    let analysis = analyze(text, &options);
    invariants::assert_analysis(text, &options, &analysis);
}
