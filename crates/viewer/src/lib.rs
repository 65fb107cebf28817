//! The viewer docs sites embed (`<opb-viewer>` and the embed page): a
//! document in, the viewer's markup ([`opb_render::viewer`]) and the
//! result a host page is told (`opb-result`, `opb:result`) out. The core
//! and the renderer do the rest; the script of the page only shows it.
//!
//! Built on its own (scripts/build-viewer.sh), without the playground's
//! editor, compare mode, registry or rule documentation, so a docs page
//! downloads a fraction of the playground.

#[cfg(feature = "embed")]
mod embed;
#[cfg(feature = "link")]
mod link;

use opb_core::{Kind, Options, Syntax};
use wasm_bindgen::prelude::*;

/// What the viewer shows of a document, and what it tells the host page.
#[wasm_bindgen]
pub struct Viewed {
    html: String,
    tabs: String,
    result: String,
}

#[wasm_bindgen]
impl Viewed {
    /// The viewer's markup, escaped and free of script.
    #[wasm_bindgen(getter)]
    pub fn html(&self) -> String {
        self.html.clone()
    }

    /// The tabs' ids, in order, separated by spaces.
    #[wasm_bindgen(getter)]
    pub fn tabs(&self) -> String {
        self.tabs.clone()
    }

    /// The `opb:result` message as JSON: the kind, the counts and every
    /// diagnostic (messages masked by the core).
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.result.clone()
    }
}

/// Checks and explains `text`, read as `kind` (`playbook` or
/// `plugin-manifest`; detected when absent or unknown) from a file called
/// `name`, whose extension, when it has one, says the syntax.
#[wasm_bindgen]
pub fn view(text: &str, kind: Option<String>, name: &str) -> Viewed {
    let options = Options {
        kind: kind.as_deref().and_then(Kind::parse),
        syntax: Syntax::from_path(name),
        ..Options::default()
    };
    let analysis = opb_core::analyze(text, &options);
    let (html, tabs) = opb_render::viewer::view(name, &analysis);
    let tabs = tabs.iter().map(|tab| tab.id).collect::<Vec<_>>().join(" ");
    Viewed { html, tabs, result: opb_render::viewer::result(&analysis) }
}

/// The text of an element written inline in a page: its lines without the
/// blank ones around them and without the indentation they share, which
/// the page's markup gave them.
#[wasm_bindgen(js_name = elementText)]
pub fn element_text(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else { return String::new() };
    let body = &lines[first..=last];
    let indent = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let mut out = body
        .iter()
        .map(|l| l.get(indent..).unwrap_or_else(|| l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::element_text;

    #[test]
    fn an_element_text_loses_the_markup_indentation() {
        assert_eq!(
            element_text("\n      id: x\n      steps:\n        - id: a\n    "),
            "id: x\nsteps:\n  - id: a\n"
        );
        assert_eq!(element_text("  \n "), "");
        assert_eq!(element_text("\tkind: gate\n\t  next: a\n"), "kind: gate\n  next: a\n");
    }

    #[test]
    fn a_document_is_read_as_its_name_and_kind_say() {
        let viewed =
            super::view("{\"name\": \"x\"}", Some("plugin-manifest".to_owned()), "oz0-plugin.json");
        assert!(viewed.result().contains(r#""kind":"plugin-manifest""#), "{}", viewed.result());
        assert!(viewed.tabs().starts_with("manifest "));
        let unknown =
            super::view("openplaybook: \"1.6\"\nsteps: []\n", Some("novel".to_owned()), "document");
        assert!(
            unknown.result().contains(r#""kind":"playbook""#),
            "an unknown kind is detected instead"
        );
        assert!(unknown.html().contains("opb-panel"));
    }
}
