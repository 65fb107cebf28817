//! Explain text for a terminal: headings, labelled fields with wrapped
//! values, and short lists, at a fixed width so the output is the same
//! everywhere.
//!
//! Every text that may come from the document passes through
//! [`escape::line`], so control characters, line breaks and bidi overrides
//! in a document cannot restyle or reorder the terminal or start a line.

use crate::escape;
use crate::style;
use anstyle::Style;
use opb_render::explain::{Page, Tone};

/// Lines are wrapped to this many columns.
const WIDTH: usize = 100;

#[derive(Default)]
pub struct TerminalPage {
    out: String,
}

impl TerminalPage {
    pub fn finish(self) -> String {
        self.out
    }

    /// `head rest`, with `head` styled: the first line of an item.
    pub fn styled(&mut self, indent: usize, head_style: Style, head: &str, rest: &str) {
        let head = escape::line(head);
        let rest = escape::line(rest);
        self.out.push_str(&" ".repeat(indent));
        self.out.push_str(&format!("{}{head}{}", head_style.render(), head_style.render_reset()));
        self.out.push_str(&rest);
        self.out.push('\n');
    }

    /// A bullet, wrapped under its text, styled as a whole.
    pub fn styled_bullet(&mut self, indent: usize, bullet_style: Style, text: &str) {
        let text = escape::line(text);
        let options = textwrap::Options::new(WIDTH.saturating_sub(indent + 2).max(20));
        for (i, line) in textwrap::wrap(&text, options).iter().enumerate() {
            let mark = if i == 0 { "- " } else { "  " };
            self.out.push_str(&format!(
                "{}{mark}{}{line}{}\n",
                " ".repeat(indent),
                bullet_style.render(),
                bullet_style.render_reset()
            ));
        }
    }
}

/// The terminal's style for a tone.
fn style_of(tone: Tone) -> Style {
    match tone {
        Tone::Emphasis => style::EMPHASIS,
        Tone::Label => style::LABEL,
        Tone::Missing => style::MISSING,
        Tone::Odd => style::ODD,
    }
}

impl Page for TerminalPage {
    fn blank(&mut self) {
        self.out.push('\n');
    }

    fn heading(&mut self, title: &str) {
        self.styled(0, style::HEADING, title, "");
    }

    fn styled_line(&mut self, indent: usize, tone: Tone, head: &str, rest: &str) {
        self.styled(indent, style_of(tone), head, rest);
    }

    fn field_hanging(
        &mut self,
        indent: usize,
        label: &str,
        label_width: usize,
        value: &str,
        hang: usize,
    ) {
        let lead = indent + label_width + 2;
        let value = escape::line(value);
        let continuation = " ".repeat(hang);
        let options = textwrap::Options::new(WIDTH.saturating_sub(lead).max(20))
            .subsequent_indent(&continuation);
        for (i, line) in textwrap::wrap(&value, options).iter().enumerate() {
            if i == 0 {
                let label = if label.is_empty() { String::new() } else { format!("{label}:") };
                self.out.push_str(&format!(
                    "{}{}{label:<width$}{} {line}\n",
                    " ".repeat(indent),
                    style::LABEL.render(),
                    style::LABEL.render_reset(),
                    width = label_width + 1,
                ));
            } else {
                self.out.push_str(&format!("{}{line}\n", " ".repeat(lead)));
            }
        }
    }

    fn paragraph(&mut self, indent: usize, text: &str) {
        let text = escape::line(text);
        let options = textwrap::Options::new(WIDTH.saturating_sub(indent).max(20));
        for line in textwrap::wrap(&text, options) {
            self.out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
        }
    }

    fn bullet(&mut self, indent: usize, tone: Tone, text: &str) {
        self.styled_bullet(indent, style_of(tone), text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_text_cannot_restyle_the_terminal() {
        let mut page = TerminalPage::default();
        page.paragraph(0, "evil \u{1b}[31mred\u{202e}");
        assert!(!page.finish().contains('\u{1b}'));
    }
}
