//! The `?embed=1` page, for docs sites' `<iframe>`s: the document from the
//! address's fragment, shown by the standalone viewer, and the
//! `postMessage` protocol with the host page (see docs/embedding.md): the host may
//! send `{type: "opb:set-document", code, kind?}` and `{type:
//! "opb:set-theme", theme}`; the page sends `{type: "opb:ready"}` once it
//! listens, `{type: "opb:result", kind, counts, diagnostics}` after each
//! check and, with `height=auto`, `{type: "opb:resize", height}` when its
//! height changes.

use super::standalone::{follow, Shown, StandaloneViewer};
use super::theme::ThemeState;
use crate::embed::{read_message, BadMessage, HostMessage, PageOptions, READY, RESIZE};
use crate::link::Fragment;
use crate::route::Route;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use web_sys::MessageEvent;

/// Posts `message` to the host page. The messages carry only what the host
/// gave (the document in the frame's address, or in a message) and what
/// the core says about it, so any origin may read them.
fn post(message: &str) {
    let Ok(Some(parent)) = window().parent() else { return };
    if let Ok(data) = js_sys::JSON::parse(message) {
        let _ = parent.post_message(&data, "*");
    }
}

/// The data of a message from the host page, as JSON; none for messages
/// from anyone else.
fn from_host(event: &MessageEvent) -> Option<Value> {
    let parent: JsValue = window().parent().ok().flatten()?.into();
    let source: JsValue = event.source()?.into();
    if source != parent {
        return None;
    }
    let text = js_sys::JSON::stringify(&event.data()).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

fn playground_address() -> String {
    let location = window().location();
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// The document the frame's address carries and the panel its link names,
/// or why there is no document.
fn from_address() -> (Option<Shown>, Option<Route>, Option<String>) {
    match Fragment::read(&window().location().hash().unwrap_or_default()) {
        Fragment::Share(share) => {
            let view = share.view.as_deref().map(Route::from_hash);
            (Some(Shown { code: share.code, kind: share.kind }), view, None)
        }
        Fragment::Broken(error) => (None, None, Some(error.to_string())),
        Fragment::Route(_) => (
            None,
            None,
            Some("This embed's address carries no document: its fragment should start with `#pako:` (copy the embed code from the playground's Share menu), or the page embedding it can send one.".to_owned()),
        ),
    }
}

/// In `height=auto` mode: the page's height, posted to the host page each
/// time it changes, so the host sizes the frame to it (docs/embedding.md
/// has the host's three lines).
fn post_height_changes() {
    let Some(body) = document().body() else { return };
    let measured = body.clone();
    let last = std::cell::Cell::new(0.0_f64);
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        let height = measured.get_bounding_client_rect().height().ceil();
        if height != last.replace(height) {
            post(&json!({ "type": RESIZE, "height": height }).to_string());
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(callback.as_ref())) {
        observer.observe(&body);
    }
    // The page lives as long as the observer: neither is ever dropped.
    callback.forget();
}

#[component]
pub fn Embed(options: PageOptions) -> impl IntoView {
    let mut theme = None;
    if let Some(root) = document().document_element() {
        theme = Some(ThemeState::new(options.theme.unwrap_or_default(), root.clone(), false).choice);
        let _ = root.set_attribute("data-embed", "");
        if options.auto_height {
            let _ = root.set_attribute("data-embed-height", "auto");
            post_height_changes();
        }
    }
    let (initial, start, problem) = from_address();
    let document = RwSignal::new(initial);
    let problem = RwSignal::new(problem);
    let report = follow(document, |report| post(&opb_render::viewer::result(&report.analysis)));
    // A host may point the frame at another document by its fragment alone,
    // which reloads nothing.
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        if matches!(Fragment::read(&window().location().hash().unwrap_or_default()), Fragment::Route(_)) {
            return;
        }
        let (shown, _, why) = from_address();
        problem.set(why);
        if shown.is_some() {
            document.set(shown);
        }
    });

    let _ = window_event_listener(leptos::ev::message, move |event: MessageEvent| {
        let Some(data) = from_host(&event) else { return };
        match read_message(&data) {
            Ok(HostMessage::SetDocument(set)) => {
                problem.set(None);
                document.set(Some(Shown { code: set.code, kind: set.kind }));
            }
            Ok(HostMessage::SetTheme(chosen)) => {
                if let Some(theme) = theme {
                    theme.set(chosen);
                }
            }
            Err(BadMessage::NotOurs) => {}
            Err(BadMessage::Invalid(reason)) => post(&json!({ "type": "opb:error", "message": reason }).to_string()),
        }
    });
    post(&json!({ "type": READY }).to_string());

    view! { <StandaloneViewer document=document report=report playground=playground_address() problem=problem chosen=RwSignal::new(start.unwrap_or(Route::Graph)) whole_page=true /> }
}
