//! `--fix` and `--diff`: the core's certain fixes ([`opb_core::fix`], the
//! edits an editor's quick fixes make) applied to each file, which
//! `--fix` writes back and `--diff` prints as a unified diff (`similar`)
//! without changing anything. Only the bytes a fix replaces change: the
//! rest of the file, comments and formatting, is kept as it was.

use crate::input::Input;
use opb_core::{Checked, Options};
use similar::TextDiff;

/// What fixing one file came to.
pub struct Outcome {
    /// How many findings were fixed.
    pub fixed: usize,
    /// The unified diff of the change; empty when nothing changed.
    pub diff: String,
    /// Why the fixed text could not be written (`--fix`).
    pub unwritten: Option<String>,
}

/// Fixes `input` as `options` say; with `write`, writes the fixed text to
/// the file and makes it the input's. Returns what checking the result
/// finds. Standard input and an input over the size limit are not fixed.
pub fn fix(input: &mut Input, options: Options, write: bool, stdin: bool) -> (Checked, Outcome) {
    if stdin || input.too_large.is_some() {
        let outcome = Outcome { fixed: 0, diff: String::new(), unwritten: None };
        return (input.check(options), outcome);
    }
    let options = Options { syntax: input.syntax, ..options };
    let fixed = opb_core::fix(&input.text, &options);
    let mut outcome = Outcome { fixed: fixed.fixed.len(), diff: String::new(), unwritten: None };
    if fixed.text == input.text {
        return (fixed.checked, outcome);
    }
    outcome.diff = TextDiff::from_lines(&input.text, &fixed.text)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{}", input.name), &format!("b/{}", input.name))
        .to_string();
    if !write {
        // `--diff` shows the change and reports nothing else.
        return (fixed.checked, outcome);
    }
    if let Err(error) = std::fs::write(&input.name, &fixed.text) {
        outcome.unwritten = Some(format!("cannot write {}: {error}", input.name));
        // What is reported is the file as it still is.
        return (input.check(options), outcome);
    }
    input.text = fixed.text;
    (fixed.checked, outcome)
}
