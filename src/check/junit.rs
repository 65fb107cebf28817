//! `--format junit`: JUnit XML, which Jenkins, GitLab, CircleCI and Azure
//! Pipelines show in their test tabs: one test suite, one test case a file
//! checked (its path the name), and in it a `<failure>` for each finding
//! (its code the type, its severity and message the message); a file that
//! could not be read is a test case with an `<error>`. Checked against the
//! JUnit schema Jenkins reads (`vendor/junit-xsd`) in the tests.

use super::CheckedFile;
use crate::input::Unreadable;
use opb_core::Diagnostic;
use opb_render::xml::escape;
use std::fmt::Write;

pub fn render(files: &[CheckedFile], unreadable: &[Unreadable]) -> String {
    let failing = files.iter().filter(|f| !f.checked.diagnostics.is_empty()).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    writeln!(
        out,
        "  <testsuite name=\"opb check\" tests=\"{}\" failures=\"{failing}\" errors=\"{}\">",
        files.len() + unreadable.len(),
        unreadable.len(),
    )
    .ok();
    for file in files {
        let name = escape(&file.input.name);
        write!(out, "    <testcase name=\"{name}\" classname=\"{name}\"").ok();
        if file.checked.diagnostics.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        for d in &file.checked.diagnostics {
            writeln!(
                out,
                "      <failure message=\"{}: {}\" type=\"{}\">{}</failure>",
                d.severity,
                escape(&d.message),
                d.code,
                escape(&finding(&file.input.name, d)),
            )
            .ok();
        }
        out.push_str("    </testcase>\n");
    }
    for error in unreadable {
        let name = escape(&error.name);
        writeln!(
            out,
            "    <testcase name=\"{name}\" classname=\"{name}\">\n      <error message=\"{}\" type=\"unreadable\"/>\n    </testcase>",
            escape(&error.to_string()),
        )
        .ok();
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// `path:line:column: severity CODE name: message (pointer)`, as a line of
/// a log.
fn finding(path: &str, d: &Diagnostic) -> String {
    format!(
        "{path}:{}:{}: {} {} {}: {} ({})",
        d.range.start.line,
        d.range.start.column,
        d.severity,
        d.code,
        d.name,
        d.message,
        if d.pointer.is_empty() { "/" } else { &d.pointer },
    )
}
