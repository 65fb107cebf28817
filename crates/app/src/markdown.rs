//! Rule documentation is Markdown (`opb_core::Rule::documentation`), fixed
//! when the app is built: the build script (`build.rs`, with
//! `src/markdown/parse.rs`) parses each rule's into a tree of elements and
//! writes the trees here as static data, which the UI renders as elements,
//! never as HTML text (raw HTML in the source stays literal text). The
//! completion and hover texts, made at run time, are a smaller Markdown,
//! read here too ([`assist`]); diagnostic messages only mark code spans
//! (`opb_render::words::code_spans`).

pub mod assist;
mod element;
#[cfg(test)]
mod parse;

pub use element::El;
use opb_core::Rule;

/// A node of a Markdown document, a tree of the few elements documentation
/// uses. Its positions are `u16` into the build's static arrays, which keeps
/// the trees a small part of the download.
#[derive(Debug, PartialEq)]
pub enum Md {
    /// Text written as is in the source: its bytes `start..end` there.
    Source(u16, u16),
    /// Text the source does not hold as such (an escape or entity resolved,
    /// a line break): its index among the build's texts.
    Text(u16),
    /// An element and its children: `count` nodes from `first` on.
    Element(El, u16, u16),
}

impl Md {
    /// The node's text, for a text node.
    pub fn text<'a>(&self, source: &'a str) -> Option<&'a str> {
        match *self {
            Md::Source(start, end) => source.get(usize::from(start)..usize::from(end)),
            Md::Text(index) => TEXTS.get(usize::from(index)).copied(),
            Md::Element(..) => None,
        }
    }

    /// The node's children, for an element.
    pub fn children(&self) -> &'static [Md] {
        match *self {
            Md::Element(_, first, count) => nodes(first, count),
            Md::Source(..) | Md::Text(_) => &[],
        }
    }
}

/// `count` nodes from `first` on.
fn nodes(first: u16, count: u16) -> &'static [Md] {
    let first = usize::from(first);
    NODES.get(first..first + usize::from(count)).unwrap_or_default()
}

// The build's NODES, TEXTS and TREES (`(code, first, count)` of each rule's
// top-level nodes, in catalogue order).
include!(concat!(env!("OUT_DIR"), "/documentation.rs"));

/// A rule's documentation: its Markdown source, and the tree parsed from it
/// when the app was built, whose text nodes point into the source.
pub struct Documentation {
    pub source: String,
    pub tree: &'static [Md],
}

/// The rule's documentation. Its tree is empty for a rule the build did not
/// see, which cannot happen: both come from the core's rule table.
pub fn documentation(rule: &Rule) -> Documentation {
    let tree = TREES
        .iter()
        .find(|(code, ..)| *code == rule.code)
        .map_or(&[][..], |(_, first, count)| nodes(*first, *count));
    Documentation { source: rule.documentation(), tree }
}

#[cfg(test)]
mod tests {
    use super::parse::{parse, resolve, Node};
    use super::*;

    fn owned(tree: &[Md]) -> Vec<Node> {
        tree.iter()
            .map(|md| match md {
                Md::Source(start, end) => Node::Source((*start).into(), (*end).into()),
                Md::Text(_) => Node::Text(md.text("").unwrap_or_default().to_owned()),
                Md::Element(el, ..) => Node::Element(*el, owned(md.children())),
            })
            .collect()
    }

    #[test]
    fn every_rule_has_its_documentation_as_parsed() {
        assert_eq!(TREES.len(), opb_core::rules().count());
        for rule in opb_core::rules() {
            let documentation = documentation(rule);
            assert_eq!(owned(documentation.tree), parse(&documentation.source), "{}", rule.code);
        }
    }

    #[test]
    fn rule_documentation_is_a_tree() {
        let rule = opb_core::rule("IN001").expect("IN001 is registered");
        let documentation = documentation(rule);
        let tree = resolve(&owned(documentation.tree), &documentation.source);
        let text = |s: &str| Node::Text(s.to_owned());
        assert_eq!(
            tree.first(),
            Some(&Node::Element(El::Heading(3), vec![text("IN001 parse-error (error)")]))
        );
        assert!(tree.contains(&Node::Element(
            El::Paragraph,
            vec![Node::Element(El::Strong, vec![text("Fix:")]), text(&format!(" {}", rule.fix))]
        )));
        let example = format!("{}\n", rule.example.trim_end());
        assert_eq!(tree.last(), Some(&Node::Element(El::CodeBlock, vec![text(&example)])));
    }

    #[test]
    fn text_nodes_read_the_source() {
        let source = "abc";
        assert_eq!(Md::Source(1, 3).text(source), Some("bc"));
        assert_eq!(Md::Source(2, 4).text(source), None);
        for (index, text) in TEXTS.iter().enumerate() {
            assert_eq!(Md::Text(u16::try_from(index).unwrap()).text(source), Some(*text));
        }
        assert_eq!(Md::Text(u16::try_from(TEXTS.len()).unwrap()).text(source), None);
        assert_eq!(Md::Element(El::Code, 0, 0).text(source), None);
    }
}
