//! Markdown read into a tree of [`El`]ements from pulldown-cmark's events.
//! The build script runs it over every rule's documentation (`build.rs`
//! includes this file by path); the app compiles it only for its tests, so
//! pulldown-cmark is not in the wasm. Raw HTML in the source becomes text.

use super::El;
use pulldown_cmark::{CowStr, Event, HeadingLevel, Parser, Tag};

/// A Markdown document as an owned tree. Text written as is in the source is
/// kept as its place there, so the app, which has the source at run time,
/// does not carry each rule's text twice.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// The source's bytes `start..end`.
    Source(usize, usize),
    /// Text the source does not hold as such: an escape or entity resolved,
    /// a line break.
    Text(String),
    Element(El, Vec<Node>),
}

/// Parses Markdown into a tree.
pub fn parse(source: &str) -> Vec<Node> {
    let mut stack: Vec<(El, Vec<Node>)> = vec![(El::Other, Vec::new())];
    for event in Parser::new(source) {
        match event {
            Event::Start(tag) => stack.push((element(&tag), Vec::new())),
            Event::End(_) if stack.len() > 1 => {
                if let Some((el, children)) = stack.pop() {
                    push(&mut stack, Node::Element(el, children));
                }
            }
            Event::Code(code) => {
                push(&mut stack, Node::Element(El::Code, vec![text(source, code)]))
            }
            Event::Text(piece) | Event::Html(piece) | Event::InlineHtml(piece) => {
                push(&mut stack, text(source, piece))
            }
            Event::SoftBreak => push(&mut stack, Node::Text(" ".into())),
            Event::HardBreak | Event::Rule => push(&mut stack, Node::Text("\n".into())),
            _ => {}
        }
    }
    while stack.len() > 1 {
        if let Some((el, children)) = stack.pop() {
            push(&mut stack, Node::Element(el, children));
        }
    }
    stack.pop().map(|(_, children)| children).unwrap_or_default()
}

/// A piece of text: its place in the source when the parser lent it from
/// there.
fn text(source: &str, piece: CowStr<'_>) -> Node {
    if let CowStr::Borrowed(lent) = piece {
        let start = (lent.as_ptr() as usize).wrapping_sub(source.as_ptr() as usize);
        if start <= source.len() && lent.len() <= source.len() - start {
            return Node::Source(start, start + lent.len());
        }
    }
    Node::Text(piece.into_string())
}

fn push(stack: &mut [(El, Vec<Node>)], node: Node) {
    if let Some((_, children)) = stack.last_mut() {
        children.push(node);
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

/// The tree with every place in the source replaced by its text, to compare
/// trees by what they show.
#[cfg(test)]
pub fn resolve(tree: &[Node], source: &str) -> Vec<Node> {
    tree.iter()
        .map(|node| match node {
            Node::Source(start, end) => {
                Node::Text(source.get(*start..*end).unwrap_or("<outside the source>").to_owned())
            }
            Node::Text(text) => Node::Text(text.clone()),
            Node::Element(el, children) => Node::Element(*el, resolve(children, source)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Node {
        Node::Text(s.into())
    }

    fn shown(source: &str) -> Vec<Node> {
        resolve(&parse(source), source)
    }

    #[test]
    fn documentation_becomes_a_tree() {
        assert_eq!(
            shown("# PB1 name (error)\n\nWhen `x` is **bad**.\n\n```\nsteps: []\n```\n"),
            vec![
                Node::Element(El::Heading(3), vec![text("PB1 name (error)")]),
                Node::Element(
                    El::Paragraph,
                    vec![
                        text("When "),
                        Node::Element(El::Code, vec![text("x")]),
                        text(" is "),
                        Node::Element(El::Strong, vec![text("bad")]),
                        text("."),
                    ]
                ),
                Node::Element(El::CodeBlock, vec![text("steps: []\n")]),
            ]
        );
    }

    #[test]
    fn html_stays_text() {
        assert_eq!(
            shown("<script>alert(1)</script>\n\nand <b>bold</b>"),
            vec![
                Node::Element(El::Other, vec![text("<script>alert(1)</script>\n")]),
                Node::Element(
                    El::Paragraph,
                    vec![text("and "), text("<b>"), text("bold"), text("</b>")]
                ),
            ]
        );
    }

    #[test]
    fn text_as_written_is_a_place_in_the_source() {
        let source = "Use `id`,\nnot \\*id\\* &amp; co.";
        let tree = parse(source);
        let Some(Node::Element(El::Paragraph, children)) = tree.first() else {
            panic!("not a paragraph: {tree:?}");
        };
        assert_eq!(children.first(), Some(&Node::Source(0, 4)));
        assert_eq!(children.get(1), Some(&Node::Element(El::Code, vec![Node::Source(5, 7)])));
        assert!(children.contains(&Node::Text(" ".into())), "{children:?}");
        let shown: String = resolve(children, source)
            .iter()
            .map(|node| match node {
                Node::Text(text) => text.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(shown, "Use , not *id* & co.");
    }
}
