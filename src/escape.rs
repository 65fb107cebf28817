//! Document text and file names, as a terminal or a CI log may be shown
//! them: what a document says never becomes a control sequence or a
//! workflow command.
//!
//! Every human output path (`opb check`'s messages, labels, source lines
//! and file names, `opb explain`, `opb diff`, `opb rules`, error messages)
//! passes what it did not write itself through [`line`] or [`source`].
//! They write every C0 and C1 control character, DEL, line and paragraph
//! separator and bidirectional control as a visible escape in Rust's
//! notation: `\n`, `\r`, `\t`, else `\u{…}` with the code point in hex
//! (`\u{1b}` for ESC, `\u{9b}` for the one-character CSI, `\u{202e}` for
//! RIGHT-TO-LEFT OVERRIDE). annotate-snippets' `normalize_untrusted_str`
//! misses the C1 controls (which a terminal reads as ESC sequences) and
//! keeps line breaks, hence this module.
//!
//! GitHub Actions reads its runner's log for workflow commands: a line that
//! starts with `::` (after spaces) or holds `##[`. [`workflow_safe`] escapes
//! both in a human output, however the line came to start so (a file name,
//! a wrapped paragraph).

use std::borrow::Cow;
use std::fmt::Write;

/// One line of untrusted text: every character [`is_escaped`] names is
/// written as its escape, line breaks and tabs too.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, |_, _| false)
}

/// Source lines, as annotate-snippets lays them out: as [`line`], except
/// that line breaks (`\n`, and `\r` before one) and tabs stay, since the
/// renderer breaks and aligns on them.
pub fn source(text: &str) -> Cow<'_, str> {
    escape(text, |c, next| c == '\n' || c == '\t' || (c == '\r' && next == Some('\n')))
}

/// Whether `c` is shown as an escape: a control character, a line or
/// paragraph separator, or a bidirectional control (embeddings, overrides,
/// isolates and the marks), each of which can move, hide or reorder what a
/// terminal shows.
pub fn is_escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

fn escape(text: &str, keep: impl Fn(char, Option<char>) -> bool) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !is_escaped(c) || keep(c, chars.peek().copied()) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

/// `output` (a human report, styled or not) with no line GitHub Actions
/// would run as a workflow command: a `:` that would start a line's text
/// (past its indentation and the styles opb adds) with `::` and the second
/// `#` of `##[` are written as escapes. opb itself writes neither in a
/// human report, so only a document's text or a file name is changed. A
/// line that starts with `:::` (annotate-snippets' mark of a second place)
/// stays: the runner would read a command name starting with `:`, which
/// none has.
pub fn workflow_safe(output: &str) -> Cow<'_, str> {
    if !output.contains("::") && !output.contains("##[") {
        return Cow::Borrowed(output);
    }
    let mut out = String::with_capacity(output.len() + 16);
    for line in output.split_inclusive('\n') {
        let start = text_start(line);
        let text = &line[start..];
        let line = if text.starts_with("::") && !text.starts_with(":::") {
            Cow::Owned(format!("{}\\u{{3a}}{}", &line[..start], &line[start + 1..]))
        } else {
            Cow::Borrowed(line)
        };
        out.push_str(&line.replace("##[", "#\\u{23}["));
    }
    Cow::Owned(out)
}

/// Where a line's text starts: past spaces, tabs and SGR sequences
/// (`ESC [ … m`), which a stream strips when colour is off.
fn text_start(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut at = 0;
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t') => at += 1,
            Some(0x1b) if bytes.get(at + 1) == Some(&b'[') => {
                let end = bytes[at + 2..].iter().position(|b| !matches!(b, b'0'..=b'9' | b';'));
                match end.map(|n| at + 2 + n) {
                    Some(m) if bytes[m] == b'm' => at = m + 1,
                    _ => return at,
                }
            }
            _ => return at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_breaks_and_bidi_become_visible_escapes() {
        assert_eq!(
            line("a\u{1b}[31mb\u{9b}2Jc\u{9d}0;x\u{9c}\u{85}d\n::e\r\tf\u{202e}g\u{2066}\u{7f}\u{2028}"),
            "a\\u{1b}[31mb\\u{9b}2Jc\\u{9d}0;x\\u{9c}\\u{85}d\\n::e\\r\\tf\\u{202e}g\\u{2066}\\u{7f}\\u{2028}"
        );
        assert!(matches!(line("café 😀 `x` <b>"), Cow::Borrowed(_)));
    }

    #[test]
    fn source_keeps_its_line_breaks_and_tabs() {
        assert_eq!(source("a\r\n\tb\rc\u{9b}\n"), "a\r\n\tb\\rc\\u{9b}\n");
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        let styled = "\u{1b}[1m::error file=a::b\u{1b}[0m: 1 error\n    ::add-mask::x\nkept :: here ##[group]x\n  ::: a.yaml:2:1\n";
        assert_eq!(
            workflow_safe(styled),
            "\u{1b}[1m\\u{3a}:error file=a::b\u{1b}[0m: 1 error\n    \\u{3a}:add-mask::x\nkept :: here #\\u{23}[group]x\n  ::: a.yaml:2:1\n"
        );
        assert!(matches!(workflow_safe("a: b\n"), Cow::Borrowed(_)));
    }
}
