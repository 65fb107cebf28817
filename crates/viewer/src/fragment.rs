//! The npm package's Markdown plugins' renderer (the `fragment` feature,
//! built for Node by js/build-viewer.mjs and shipped only in the package):
//! a fence's document as [`opb_render::fragment`] writes it, the same
//! function `opb render --format fragment` calls.

use opb_core::{Kind, Options};
use opb_render::fragment::{strict_failure, DarkSelector, Options as Fragment, Refused, View};
use opb_render::Theme;
use wasm_bindgen::prelude::*;

/// A fence's fragment, and why a strict build would fail on it.
#[wasm_bindgen(getter_with_clone)]
pub struct Rendered {
    /// The fragment's HTML.
    pub html: String,
    /// The document's errors, one a line after a line naming the document
    /// and counting them (masked by the core); absent when it has none.
    pub failure: Option<String>,
}

/// The fragment of `text`, read as `kind` (`playbook` or
/// `plugin-manifest`, else detected) and named `name` in what it says, in
/// `view`, `theme` and with its dark palette under `dark_selector`;
/// thrown, why an option is refused.
#[wasm_bindgen]
pub fn fragment(
    text: &str,
    kind: Option<String>,
    name: &str,
    view: &str,
    theme: &str,
    dark_selector: &str,
    interactive: bool,
) -> Result<Rendered, JsError> {
    let options = options(view, theme, dark_selector, interactive)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let kind = kind.as_deref().and_then(Kind::parse);
    let analysis = opb_core::analyze(text, &Options { kind, ..Options::default() });
    let failure = strict_failure(name, &analysis).map(|lines| lines.join("\n"));
    Ok(Rendered {
        html: opb_render::fragment::fragment(name, text, &analysis, kind, &options),
        failure,
    })
}

/// Why these options would be refused, if they would: for a plugin to say
/// so when it is set up rather than at its first fence.
#[wasm_bindgen]
pub fn refusal(view: &str, theme: &str, dark_selector: &str) -> Option<String> {
    options(view, theme, dark_selector, false).err().map(|refused| refused.to_string())
}

fn options(
    view: &str,
    theme: &str,
    dark_selector: &str,
    interactive: bool,
) -> Result<Fragment, Refused> {
    Ok(Fragment {
        view: View::parse(view)?,
        theme: Theme::parse(theme)?,
        dark: DarkSelector::new(dark_selector)?,
        interactive,
    })
}
