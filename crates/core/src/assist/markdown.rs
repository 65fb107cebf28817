//! A document's text inside Markdown: shown as text, never as markup. An
//! editor renders hover Markdown in full (links, images, raw HTML), and so
//! does a pull-request comment (`opb diff --format markdown`), so a purpose
//! like `![](https://…)` or `<img src=…>` would make it fetch an image or
//! show a link the document chose.

use std::fmt::Write;

/// `text` as Markdown prose: every ASCII punctuation character
/// backslash-escaped (CommonMark takes each escaped one literally), so no
/// emphasis, link, image, autolink, HTML, entity or block marker can
/// start. Credentials are masked first, so escaping cannot hide one from
/// the masking.
pub fn text(text: &str) -> String {
    let text = crate::diagnostics::credentials::mask(text);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as a code span: fenced by more backticks than its longest run
/// of them, padded with a space where it starts or ends with one (or with
/// a space at both ends, which CommonMark would strip, or is empty), and
/// on one line, every control character a space (a line break inside a
/// code span could end its paragraph, or a table's row, and let what
/// follows be read as Markdown). Credentials are masked, as in [`text`].
pub fn code(text: &str) -> String {
    let text = crate::diagnostics::credentials::mask(text);
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = text.is_empty()
        || text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty());
    let pad = if pad { " " } else { "" };
    let mut out = String::with_capacity(text.len() + 2 * fence.len() + 2);
    let _ = write!(out, "{fence}{pad}{text}{pad}{fence}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_cannot_become_markup() {
        assert_eq!(
            text("a ![](https://x/y.png) <img src=z> *b* [c](d)"),
            r"a \!\[\]\(https\:\/\/x\/y\.png\) \<img src\=z\> \*b\* \[c\]\(d\)"
        );
        assert_eq!(text("café 😀"), "café 😀");
    }

    #[test]
    fn a_code_span_outlasts_the_backticks_inside() {
        assert_eq!(code("plain"), "`plain`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("a\n\n# b"), "`a  # b`");
        assert_eq!(code(" a "), "`  a  `");
        assert_eq!(code(""), "`  `");
        assert_eq!(code("a\tb\u{1b}"), "`a b `");
    }
}
