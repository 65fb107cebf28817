//! `opb explain`'s account of a document, written once for every page it
//! appears on: the terminal (the CLI's text layout) and the HTML report
//! ([`crate::html`]). Each writes the same headings, fields and lists
//! through [`Page`], in the same words.

pub mod manifest;
pub mod paths;
pub mod playbook;

/// How a line's lead or a bullet stands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// An item's name: a step, a tool, a connection.
    Emphasis,
    /// A group's name within a section.
    Label,
    /// Something the document needs and lacks.
    Missing,
    /// Something declared and not used, or at odds with the rest.
    Odd,
}

/// Where an explanation is written. Indents and label widths are a text
/// layout's; a page that lays out by structure may ignore them.
pub trait Page {
    /// A section's title.
    fn heading(&mut self, title: &str);
    /// `head rest`, with `head` in `tone`: the first line of an item.
    fn styled_line(&mut self, indent: usize, tone: Tone, head: &str, rest: &str);
    /// `Label: value`; an empty label continues the field above.
    fn field(&mut self, indent: usize, label: &str, label_width: usize, value: &str) {
        self.field_hanging(indent, label, label_width, value, 0);
    }
    /// A field whose wrapped lines hang `hang` columns further in, so a
    /// value laid out in columns keeps its second column.
    fn field_hanging(
        &mut self,
        indent: usize,
        label: &str,
        label_width: usize,
        value: &str,
        hang: usize,
    );
    /// A plain paragraph.
    fn paragraph(&mut self, indent: usize, text: &str);
    /// One entry of a list, in `tone`.
    fn bullet(&mut self, indent: usize, tone: Tone, text: &str);
    /// A break between items.
    fn blank(&mut self);
}
