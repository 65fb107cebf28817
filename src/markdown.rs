//! Rule documentation is Markdown (`opb_core::Rule::documentation`). It is
//! read here into a small tree of elements (from pulldown-cmark's events) that
//! the UI renders as elements, never as HTML text: raw HTML in the source
//! stays literal text.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};

/// A Markdown document as a tree of the few elements documentation uses.
#[derive(Debug, Clone, PartialEq)]
pub enum Md {
    Text(String),
    Element(El, Vec<Md>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum El {
    /// A heading, already shifted below the page's own headings (h3–h6).
    Heading(u8),
    Paragraph,
    Strong,
    Emphasis,
    Code,
    CodeBlock,
    List { ordered: bool },
    Item,
    Quote,
    /// Anything else (tables, footnotes): kept as a plain container.
    Other,
}

/// Parses Markdown into a tree.
pub fn parse(source: &str) -> Vec<Md> {
    let mut stack: Vec<(El, Vec<Md>)> = vec![(El::Other, Vec::new())];
    for event in Parser::new(source) {
        match event {
            Event::Start(tag) => stack.push((element(&tag), Vec::new())),
            Event::End(_) if stack.len() > 1 => {
                if let Some((el, children)) = stack.pop() {
                    push(&mut stack, Md::Element(el, children));
                }
            }
            Event::Code(code) => push(&mut stack, Md::Element(El::Code, vec![Md::Text(code.into_string())])),
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => push(&mut stack, Md::Text(text.into_string())),
            Event::SoftBreak => push(&mut stack, Md::Text(" ".into())),
            Event::HardBreak | Event::Rule => push(&mut stack, Md::Text("\n".into())),
            _ => {}
        }
    }
    while stack.len() > 1 {
        if let Some((el, children)) = stack.pop() {
            push(&mut stack, Md::Element(el, children));
        }
    }
    stack.pop().map(|(_, children)| children).unwrap_or_default()
}

fn push(stack: &mut [(El, Vec<Md>)], md: Md) {
    if let Some((_, children)) = stack.last_mut() {
        children.push(md);
    }
}

fn element(tag: &Tag<'_>) -> El {
    match tag {
        Tag::Heading { level, .. } => El::Heading(match level {
            HeadingLevel::H1 => 3,
            HeadingLevel::H2 => 4,
            HeadingLevel::H3 => 5,
            _ => 6,
        }),
        Tag::Paragraph => El::Paragraph,
        Tag::Strong => El::Strong,
        Tag::Emphasis => El::Emphasis,
        Tag::CodeBlock(_) => El::CodeBlock,
        Tag::List(start) => El::List { ordered: start.is_some() },
        Tag::Item => El::Item,
        Tag::BlockQuote(_) => El::Quote,
        _ => El::Other,
    }
}

/// A diagnostic message split at its backtick code spans, as
/// `(is_code, text)` pieces. Messages are plain text that quotes names and
/// values in backticks; nothing else in them is markup. An unpaired backtick
/// stays literal.
pub fn code_spans(message: &str) -> Vec<(bool, String)> {
    let parts: Vec<&str> = message.split('`').collect();
    let paired = if parts.len() % 2 == 1 { parts.len() } else { parts.len() - 1 };
    let mut pieces: Vec<(bool, String)> = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        if i >= paired {
            let literal = format!("`{part}");
            match pieces.last_mut() {
                Some((false, text)) => text.push_str(&literal),
                _ => pieces.push((false, literal)),
            }
        } else if i % 2 == 1 {
            pieces.push((true, (*part).to_owned()));
        } else if !part.is_empty() {
            pieces.push((false, (*part).to_owned()));
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documentation_becomes_a_tree() {
        let tree = parse("# PB1 name (error)\n\nWhen `x` is **bad**.\n\n```\nsteps: []\n```\n");
        assert_eq!(
            tree,
            vec![
                Md::Element(El::Heading(3), vec![Md::Text("PB1 name (error)".into())]),
                Md::Element(
                    El::Paragraph,
                    vec![
                        Md::Text("When ".into()),
                        Md::Element(El::Code, vec![Md::Text("x".into())]),
                        Md::Text(" is ".into()),
                        Md::Element(El::Strong, vec![Md::Text("bad".into())]),
                        Md::Text(".".into()),
                    ]
                ),
                Md::Element(El::CodeBlock, vec![Md::Text("steps: []\n".into())]),
            ]
        );
    }

    #[test]
    fn html_stays_text() {
        let tree = parse("<script>alert(1)</script>\n\nand <b>bold</b>");
        let text = format!("{tree:?}");
        assert!(text.contains("<script>alert(1)</script>"), "{text}");
        assert!(text.contains("<b>"), "{text}");
    }

    #[test]
    fn messages_split_at_code_spans() {
        let code = |s: &str| (true, s.to_owned());
        let text = |s: &str| (false, s.to_owned());
        assert_eq!(
            code_spans("The step `a` names `b`."),
            vec![text("The step "), code("a"), text(" names "), code("b"), text(".")]
        );
        assert_eq!(code_spans("`x`"), vec![code("x")]);
        assert_eq!(code_spans("no code"), vec![text("no code")]);
        assert_eq!(code_spans("one ` tick"), vec![text("one ` tick")]);
        assert_eq!(code_spans("`a` and ` b"), vec![code("a"), text(" and ` b")]);
        assert_eq!(code_spans("` b"), vec![text("` b")]);
    }
}
