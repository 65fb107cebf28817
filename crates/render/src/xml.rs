//! Text written into SVG and HTML.

use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_characters_xml_cannot_hold_are_replaced() {
        assert_eq!(escape("plain text"), "plain text");
        assert_eq!(escape("<script>&\"'"), "&lt;script&gt;&amp;&quot;&#39;");
        assert_eq!(escape("a\u{1}b\tc\u{ffff}"), "a\u{fffd}b\tc\u{fffd}");
    }
}
