//! The Markdown of the core's completion and hover texts, read at run time
//! into a tree: paragraphs, `- ` lists, `**strong**`, code spans, and
//! `[links](…)` as their text. Nothing else is markup: the texts quote the
//! document, which the core escapes (a backslash before each punctuation
//! character, code spans fenced by as many backticks as they need).

use super::El;

/// A node of the tree: text, or an element holding nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Text(String),
    Element(El, Vec<Node>),
}

/// Reads a completion's or a hover's Markdown.
pub fn read(text: &str) -> Vec<Node> {
    let mut out = Vec::new();
    for block in blocks(text) {
        // At most one of them is open: a list item closes a paragraph, a
        // line of text a list.
        let mut paragraph: Option<Vec<Node>> = None;
        let mut list: Option<Vec<Node>> = None;
        for line in block.split('\n') {
            if let Some(item) = line.strip_prefix("- ") {
                close(&mut out, El::Paragraph, paragraph.take());
                list.get_or_insert_with(Vec::new).push(Node::Element(El::Item, inline(item)));
            } else {
                close(&mut out, El::List { ordered: false }, list.take());
                let continued = paragraph.is_some();
                let lines = paragraph.get_or_insert_with(Vec::new);
                if continued {
                    push_text(lines, " ");
                }
                for node in inline(line) {
                    match node {
                        Node::Text(text) => push_text(lines, &text),
                        element => lines.push(element),
                    }
                }
            }
        }
        close(&mut out, El::Paragraph, paragraph);
        close(&mut out, El::List { ordered: false }, list);
    }
    out
}

fn close(out: &mut Vec<Node>, el: El, children: Option<Vec<Node>>) {
    if let Some(children) = children {
        out.push(Node::Element(el, children));
    }
}

/// The text's blocks: the stretches between runs of two or more line
/// breaks.
fn blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\n\n") {
        blocks.push(&rest[..at]);
        rest = rest[at..].trim_start_matches('\n');
    }
    blocks.push(rest);
    blocks
}

fn push_text(nodes: &mut Vec<Node>, text: &str) {
    match nodes.last_mut() {
        Some(Node::Text(last)) => last.push_str(text),
        _ => nodes.push(Node::Text(text.to_owned())),
    }
}

fn is_escapable(c: char) -> bool {
    c.is_ascii_punctuation()
}

/// A line's inline markup.
fn inline(text: &str) -> Vec<Node> {
    let mut out = Vec::new();
    // The strong text open, which takes what follows until it closes.
    let mut strong: Option<Vec<Node>> = None;
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let rest = &text[at..];
        let here = strong.as_mut().unwrap_or(&mut out);
        if let Some(escaped) = rest.strip_prefix('\\').and_then(|r| r.chars().next()) {
            if is_escapable(escaped) {
                push_text(here, &rest[1..2]);
                at += 2;
                continue;
            }
        }
        if c == '`' {
            let fence = rest.len() - rest.trim_start_matches('`').len();
            match closing_fence(rest, fence) {
                Some(end) => {
                    let body = &rest[fence..end];
                    let padded = body.starts_with(' ') && body.ends_with(' ');
                    let body = if padded && !body.trim().is_empty() {
                        &body[1..body.len() - 1]
                    } else {
                        body
                    };
                    here.push(Node::Element(El::Code, vec![Node::Text(body.to_owned())]));
                    at += end + fence;
                }
                None => {
                    push_text(here, &rest[..fence]);
                    at += fence;
                }
            }
        } else if rest.starts_with("**") {
            match strong.take() {
                Some(children) => out.push(Node::Element(El::Strong, children)),
                None => strong = Some(Vec::new()),
            }
            at += 2;
        } else if let Some((shown, length)) = link(rest) {
            push_text(here, &shown);
            at += length;
        } else {
            push_text(here, &rest[..c.len_utf8()]);
            at += c.len_utf8();
        }
    }
    close(&mut out, El::Strong, strong);
    out
}

/// Where the code span opened by `fence` backticks at the start of `rest`
/// closes: at the next run of exactly as many.
fn closing_fence(rest: &str, fence: usize) -> Option<usize> {
    let mut at = fence;
    while let Some(start) = rest[at..].find('`').map(|i| at + i) {
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        if run == fence {
            return Some(start);
        }
        at = start + run;
    }
    None
}

/// A link at the start of `rest` (`[text](target)`): its text, escapes
/// resolved, and how many bytes it takes.
fn link(rest: &str) -> Option<(String, usize)> {
    let mut chars = rest.strip_prefix('[')?.char_indices();
    let mut shown = String::new();
    let close = loop {
        match chars.next()? {
            (at, ']') => break at + 1,
            (_, '\\') => {
                let (_, next) = chars.next()?;
                if !is_escapable(next) {
                    shown.push('\\');
                }
                shown.push(next);
            }
            (_, c) => shown.push(c),
        }
    };
    let target = rest[close + 1..].strip_prefix('(')?;
    let end = target.find(')')?;
    Some((shown, close + 2 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Node {
        Node::Text(s.to_owned())
    }

    fn el(el: El, children: Vec<Node>) -> Node {
        Node::Element(el, children)
    }

    fn code(s: &str) -> Node {
        el(El::Code, vec![text(s)])
    }

    #[test]
    fn paragraphs_and_lists() {
        let list = El::List { ordered: false };
        assert_eq!(
            read("One\nline.\n\n\n- a\n- b\nafter\n\nlast"),
            vec![
                el(El::Paragraph, vec![text("One line.")]),
                el(list, vec![el(El::Item, vec![text("a")]), el(El::Item, vec![text("b")])]),
                el(El::Paragraph, vec![text("after")]),
                el(El::Paragraph, vec![text("last")]),
            ]
        );
    }

    #[test]
    fn strong_code_and_links() {
        assert_eq!(
            read("**Kind:** `agent` and [the spec](https://x/(y) here"),
            vec![el(
                El::Paragraph,
                vec![
                    el(El::Strong, vec![text("Kind:")]),
                    text(" "),
                    code("agent"),
                    text(" and the spec here"),
                ]
            )]
        );
        assert_eq!(
            read("**open `x`"),
            vec![el(El::Paragraph, vec![el(El::Strong, vec![text("open "), code("x")])])]
        );
    }

    #[test]
    fn code_spans_close_at_a_fence_of_their_length() {
        assert_eq!(read("`` a`b ``")[0], el(El::Paragraph, vec![code("a`b")]));
        assert_eq!(read("`` ` `` x")[0], el(El::Paragraph, vec![code("`"), text(" x")]));
        assert_eq!(read("``a```b``")[0], el(El::Paragraph, vec![code("a```b")]));
        assert_eq!(read("` `")[0], el(El::Paragraph, vec![code(" ")]));
        assert_eq!(read("`open")[0], el(El::Paragraph, vec![text("`open")]));
    }

    #[test]
    fn escapes_are_text() {
        assert_eq!(
            read(r"\*\*not strong\*\* \[x\](y) a\b é😀")[0],
            el(El::Paragraph, vec![text(r"**not strong** [x](y) a\b é😀")])
        );
        assert_eq!(read(r"[a\]b \c](t)")[0], el(El::Paragraph, vec![text(r"a]b \c")]));
    }
}
