//! Files: opening one (a picker, or a drop onto the editor) and downloading
//! the document.

use crate::files::{self, Opened};
use js_sys::{Array, Uint8Array};
use leptos::ev::DragEvent;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, File, HtmlAnchorElement, HtmlInputElement, Url};

/// Saves `text` as a file called `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not make the file".to_owned())?;
    download_blob(name, &blob)
}

/// Saves `blob` as a file called `name`, through a link's `download`.
pub fn download_blob(name: &str, blob: &Blob) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob)
        .map_err(|_| "the browser could not make the file".to_owned())?;
    let anchor: HtmlAnchorElement = document()
        .create_element("a")
        .map_err(|_| "the browser could not start the download".to_owned())?
        .unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // The click has started the download; the address is no longer needed.
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

async fn read(file: File) -> Result<Opened, String> {
    let name = file.name();
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| format!("{name} could not be read."))?;
    files::read_file(&name, &Uint8Array::new(&buffer).to_vec())
}

fn open_first(list: Option<web_sys::FileList>, on_open: Callback<Result<Opened, String>>) {
    let Some(file) = list.and_then(|l| l.get(0)) else { return };
    leptos::task::spawn_local(async move { on_open.run(read(file).await) });
}

/// "Open…": a file picker for JSON and YAML documents. The playground's
/// document by default; another use (a registry) names its own label, title
/// and test ids.
#[component]
pub fn OpenFileButton(
    #[prop(into)] on_open: Callback<Result<Opened, String>>,
    #[prop(default = "Open…")] label: &'static str,
    #[prop(default = "Open a JSON or YAML file from your computer (or drop one on the editor)")]
    title: &'static str,
    #[prop(default = "open-file")] testid: &'static str,
    #[prop(default = "file-input")] input_testid: &'static str,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    view! {
        <button
            type="button"
            class="button"
            data-testid=testid
            title=title
            on:click=move |_| {
                if let Some(input) = input.get() {
                    input.click();
                }
            }
        >
            {label}
        </button>
        <input
            type="file"
            class="visually-hidden"
            tabindex="-1"
            aria-hidden="true"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml,text/plain"
            data-testid=input_testid
            node_ref=input
            on:change=move |ev| {
                let element: HtmlInputElement = event_target(&ev);
                open_first(element.files(), on_open);
                // The same file can be opened again after editing it.
                element.set_value("");
            }
        />
    }
}

/// A drop target around the editor: a file dropped on it is opened.
#[component]
pub fn FileDrop(
    #[prop(into)] on_open: Callback<Result<Opened, String>>,
    children: Children,
) -> impl IntoView {
    let over = RwSignal::new(false);
    let has_files = |ev: &DragEvent| {
        ev.data_transfer().is_some_and(|d| d.types().includes(&JsValue::from_str("Files"), 0))
    };
    view! {
        <div
            class="file-drop"
            class:over=move || over.get()
            on:dragover=move |ev: DragEvent| {
                if has_files(&ev) {
                    ev.prevent_default();
                    over.set(true);
                }
            }
            on:dragleave=move |_| over.set(false)
            on:drop=move |ev: DragEvent| {
                over.set(false);
                if has_files(&ev) {
                    ev.prevent_default();
                    open_first(ev.data_transfer().and_then(|d| d.files()), on_open);
                }
            }
        >
            {children()}
            <div class="file-drop-hint" aria-hidden="true">"Drop the file to open it"</div>
        </div>
    }
}
