//! Text written into SVG and HTML.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` as XML character data or an attribute value: markup characters
/// escaped, and characters XML 1.0 cannot hold (C0 controls other than tab,
/// line feed and carriage return; U+FFFE, U+FFFF) as U+FFFD. A document's
/// step id may hold any of them.
pub fn escape(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        matches!(c, '&' | '<' | '>' | '"' | '\'' | '\u{fffe}' | '\u{ffff}')
            || (c < ' ' && !matches!(c, '\t' | '\n' | '\r'))
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if unsafe_char(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A document's name or value (a step id, a tool, a secret) as an HTML
/// code span: escaped, with a line-break opportunity (`<wbr>`) after each
/// `.`, `_` and `-` inside it. On a narrow screen `mcp.orders.lookup` or
/// `ACME_MCP_TOKEN` wraps between its parts, where a reader still reads
/// it, and the viewer's stylesheet forbids breaking it anywhere else.
pub fn code(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::with_capacity(escaped.len() + 16);
    out.push_str("<code>");
    let mut chars = escaped.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if matches!(c, '.' | '_' | '-') && chars.peek().is_some() {
            out.push_str("<wbr>");
        }
    }
    out.push_str("</code>");
    out
}

/// A sentence of the core's (a message, a verdict), escaped, its
/// backtick-quoted parts as code spans ([`code`]).
pub fn code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (is_code, piece) in crate::words::code_spans(text) {
        if is_code {
            out.push_str(&code(&piece));
        } else {
            write!(out, "{}", escape(&piece)).ok();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{code, code_spans, escape};

    #[test]
    fn markup_and_characters_xml_cannot_hold_are_replaced() {
        assert_eq!(escape("plain text"), "plain text");
        assert_eq!(escape("<script>&\"'"), "&lt;script&gt;&amp;&quot;&#39;");
        assert_eq!(escape("a\u{1}b\tc\u{ffff}"), "a\u{fffd}b\tc\u{fffd}");
    }

    #[test]
    fn identifiers_may_wrap_only_between_their_parts() {
        assert_eq!(code("mcp.orders.lookup"), "<code>mcp.<wbr>orders.<wbr>lookup</code>");
        assert_eq!(code("ACME_MCP_TOKEN"), "<code>ACME_<wbr>MCP_<wbr>TOKEN</code>");
        assert_eq!(code("refund-with-approval"), "<code>refund-<wbr>with-<wbr>approval</code>");
        assert_eq!(code("trailing."), "<code>trailing.</code>", "nothing to break before");
        assert_eq!(code("a<b>.c"), "<code>a&lt;b&gt;.<wbr>c</code>");
    }

    #[test]
    fn backticks_make_code_and_the_rest_is_escaped() {
        assert_eq!(code_spans("see `opb check` <now>"), "see <code>opb check</code> &lt;now&gt;");
        assert_eq!(code_spans("a `b"), "a `b");
        assert_eq!(code_spans("`<x>`"), "<code>&lt;x&gt;</code>");
        assert_eq!(code_spans("calls `refund.create`."), "calls <code>refund.<wbr>create</code>.");
    }
}
