//! The `<opb-viewer>` custom element's Rust side: `js/opb-viewer.js`
//! defines the element, loads this wasm and mounts a standalone viewer into
//! the element's shadow root through [`mount_viewer`].

use super::standalone::{follow, Shown, StandaloneViewer};
use super::theme::ThemeState;
use crate::embed::{element_text, result_message, Theme};
use crate::route::Route;
use leptos::prelude::*;
use opb_core::Kind;
use wasm_bindgen::prelude::*;

/// One mounted viewer, kept by its element.
#[wasm_bindgen]
pub struct ViewerElement {
    owner: Owner,
    document: RwSignal<Option<Shown>>,
    theme: RwSignal<Theme>,
    problem: RwSignal<Option<String>>,
    tab: RwSignal<Route>,
    _mounted: Box<dyn std::any::Any>,
}

fn shown(code: &str, kind: Option<String>, from_text: bool) -> (Option<Shown>, Option<String>) {
    let code = if from_text { element_text(code) } else { code.to_owned() };
    let kind_word = kind.filter(|k| !k.trim().is_empty());
    match kind_word.as_deref().map(|k| (k, Kind::parse(k))) {
        Some((word, None)) => (
            Some(Shown { code, kind: None }),
            Some(format!("The `kind` attribute is `{word}`; opb reads `playbook` or `plugin-manifest`, so the kind is detected.")),
        ),
        Some((_, kind)) => (Some(Shown { code, kind }), None),
        None => (Some(Shown { code, kind: None }), None),
    }
}

/// The tab an element's `tab` attribute names (`graph`, `tools`,
/// `requires`, `paths`, `manifest`, `diagnostics`, as the playground's
/// addresses do); the graph for anything else.
fn tab_named(name: Option<&str>) -> Route {
    match name.map(str::trim) {
        Some("tools") => Route::Tools,
        Some("requires") => Route::Requires,
        Some("paths") => Route::Paths,
        Some("manifest") => Route::Manifest,
        Some("diagnostics") => Route::Diagnostics,
        _ => Route::Graph,
    }
}

/// Mounts a viewer into `root` (an element in the custom element's shadow
/// root). `code` is the document (the element's text when `from_text`, whose
/// markup indentation is removed), `kind`, `theme` and `tab` the attributes'
/// values, `playground` the playground's address for its "Open in
/// playground" link; `on_result` receives an `opb:result` message after
/// each check.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = mountViewer)]
pub fn mount_viewer(
    root: web_sys::HtmlElement,
    code: String,
    from_text: bool,
    kind: Option<String>,
    theme: Option<String>,
    tab: Option<String>,
    playground: String,
    on_result: js_sys::Function,
) -> ViewerElement {
    let owner = Owner::new();
    let (first, problem_text) = shown(&code, kind, from_text);
    owner.with(|| {
        let document = RwSignal::new(first);
        let problem = RwSignal::new(problem_text);
        let tab = RwSignal::new(tab_named(tab.as_deref()));
        let theme = RwSignal::new(theme.as_deref().and_then(Theme::parse).unwrap_or_default());
        let target: web_sys::Element = root.clone().into();
        // Effects are made inside the mount, which sets up the executor
        // they run on.
        let mounted = leptos::mount::mount_to(root, move || {
            ThemeState::drawing(theme, target, false);
            let report = follow(document, move |report| {
                if let Ok(message) = js_sys::JSON::parse(&result_message(report).to_string()) {
                    let _ = on_result.call1(&JsValue::NULL, &message);
                }
            });
            view! { <StandaloneViewer document=document report=report playground=playground problem=problem chosen=tab whole_page=false /> }
        });
        ViewerElement { owner: owner.clone(), document, theme, problem, tab, _mounted: Box::new(mounted) }
    })
}

#[wasm_bindgen]
impl ViewerElement {
    /// Shows another document (the element's text or `code` changed).
    #[wasm_bindgen(js_name = setDocument)]
    pub fn set_document(&self, code: String, from_text: bool, kind: Option<String>) {
        let (document, problem) = shown(&code, kind, from_text);
        self.problem.set(problem);
        self.document.set(document);
    }

    /// Shows the tab `name` names (the element's `tab` changed).
    #[wasm_bindgen(js_name = setTab)]
    pub fn set_tab(&self, name: Option<String>) {
        self.tab.set(tab_named(name.as_deref()));
    }

    #[wasm_bindgen(js_name = setTheme)]
    pub fn set_theme(&self, theme: Option<String>) {
        self.theme.set(theme.as_deref().and_then(Theme::parse).unwrap_or_default());
    }

    /// Removes the viewer (the element left the page).
    pub fn unmount(self) {
        drop(self._mounted);
        self.owner.cleanup();
    }
}
