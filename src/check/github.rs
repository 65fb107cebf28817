//! `--format github`: GitHub Actions workflow commands, one per diagnostic,
//! which the runner shows as annotations on the files of a pull request:
//!
//! ```text
//! ::error file=playbook.yaml,line=6,col=11,endLine=6,endColumn=18,title=PB213 next-unknown::`next` of step …
//! ```
//!
//! `::warning` and `::notice` for the other severities, and an `::error`
//! naming each file that could not be read. Lines and columns count from 1,
//! columns in characters, as the core reports them; a diagnostic with
//! nothing to underline (a limit, an empty document) names the file alone.
//! Escaped as the runner reads them (actions/toolkit's `command.ts`): `%`,
//! CR and LF everywhere, and `:` and `,` in a property's value too, so a
//! message or a file name cannot end the command or start another. Before
//! that, the other control characters and the bidirectional controls are
//! written as visible escapes, as on a terminal ([`crate::escape`]): the
//! log and the annotations show text, never reorder it.

use super::CheckedFile;
use crate::input::Unreadable;
use opb_core::{Diagnostic, Severity};
use std::fmt::Write;

pub fn render(files: &[CheckedFile], unreadable: &[Unreadable]) -> String {
    let mut out = String::new();
    for error in unreadable {
        writeln!(out, "::error file={},title=opb::{}", property(&error.name), data(&error.reason))
            .ok();
    }
    for file in files {
        for d in &file.checked.diagnostics {
            annotation(&mut out, &file.input.name, d);
        }
    }
    out
}

fn annotation(out: &mut String, name: &str, d: &Diagnostic) {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    write!(out, "::{command} file={}", property(name)).ok();
    let (start, end) = (d.range.start, d.range.end);
    if start.line > 0 {
        write!(
            out,
            ",line={},col={},endLine={},endColumn={}",
            start.line,
            start.column,
            end.line.max(start.line),
            end.column
        )
        .ok();
    }
    writeln!(out, ",title={}::{}", property(&format!("{} {}", d.code, d.name)), data(&d.message))
        .ok();
}

/// A command's message: controls and bidirectional controls but line
/// breaks shown as escapes, then `%`, CR and LF escaped.
fn data(text: &str) -> String {
    crate::escape::source(text).replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property's value: as a message, and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_would_end_a_command_is_escaped() {
        assert_eq!(data("50% done\r\nnext::line"), "50%25 done%0D%0Anext::line");
        assert_eq!(property("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
        assert_eq!(data("safe\u{202e}txt.exe\u{9b}"), "safe\\u{202e}txt.exe\\u{9b}");
    }
}
