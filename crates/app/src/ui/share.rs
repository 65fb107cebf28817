//! The "Share" menu: the document's link and embed code (each copied only
//! after a confirmation when the document holds a credential), downloads
//! as JSON or YAML, and pictures of the graph.

use super::export;
use super::files::download;
use super::popover::{Names, Popover};
use super::session::address::page_base;
use super::session::Session;
use crate::checker::Report;
use crate::embed_code::{element_snippet, embed_src, iframe_snippet};
use crate::files;
use crate::format::syntax_label;
use crate::link::{without_fragment, NoLink, MAX_LINK_CHARS};
use leptos::prelude::*;
use opb_core::Syntax;
use std::sync::Arc;
use wasm_bindgen_futures::JsFuture;

/// What a copy button copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Copyable {
    Link,
    EmbedCode,
    IframeCode,
}

impl Copyable {
    fn noun(self) -> &'static str {
        match self {
            Copyable::Link => "link",
            Copyable::EmbedCode => "embed code",
            Copyable::IframeCode => "iframe code",
        }
    }
}

async fn copy_text(text: String) -> bool {
    let promise = window().navigator().clipboard().write_text(&text);
    JsFuture::from(promise).await.is_ok()
}

/// `12345` as `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Why copying `what` asks first: the credentials the document holds (the
/// codes of their findings, one per finding), or none known yet while its
/// check is coming.
fn confirmation(found: Option<&[&str]>, what: Copyable) -> String {
    let noun = what.noun();
    let Some(found) = found.filter(|found| !found.is_empty()) else {
        return format!("This document changed since it was last checked, so it may hold a credential. Anyone who gets the {noun} can read the whole document.");
    };
    let mut codes = found.to_vec();
    opb_core::order::sort(&mut codes);
    codes.dedup();
    let (holds, it) = match found.len() {
        1 => ("a value that looks like a credential".to_owned(), "it"),
        n => (format!("{n} values that look like credentials"), "them"),
    };
    format!(
        "This document holds {holds} ({}). Anyone who gets the {noun} can read {it} and use {it}.",
        codes.join(", ")
    )
}

#[component]
pub fn ShareMenu(
    session: Session,
    #[prop(into)] report: Signal<Option<Arc<Report>>>,
    #[prop(into)] name: Signal<String>,
    #[prop(into)] text: Callback<(), Option<String>>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    // The link is computed when the menu opens, from the document then.
    let link = RwSignal::new(None::<Result<String, NoLink>>);
    let confirming = RwSignal::new(None::<Copyable>);
    let status = RwSignal::new(None::<(bool, String)>);
    let on_open = move || {
        link.set(Some(session.link()));
        confirming.set(None);
        status.set(None);
    };
    // Both embed codes carry the document the link does, and are offered
    // when it is.
    let page = || without_fragment(&page_base()).split('?').next().unwrap_or_default().to_owned();
    let element = move || {
        link.get()?.ok()?;
        let code = text.run(())?;
        Some(element_snippet(&page(), &code, session.kind()))
    };
    let iframe = move || {
        let link = link.get()?.ok()?;
        let fragment = link.split_once('#').map(|(_, f)| format!("#{f}")).unwrap_or_default();
        Some(iframe_snippet(&embed_src(&page(), &fragment), &format!("opb: {}", name.get())))
    };
    let copy_now = move |what: Copyable| {
        let value = match what {
            Copyable::Link => link.get_untracked().and_then(Result::ok),
            Copyable::EmbedCode => element(),
            Copyable::IframeCode => iframe(),
        };
        let Some(value) = value else { return };
        confirming.set(None);
        leptos::task::spawn_local(async move {
            let done = copy_text(value).await;
            status.set(Some(if done {
                (false, format!("Copied the {}.", what.noun()))
            } else {
                (
                    true,
                    format!(
                        "The browser did not allow copying: select the {} above and copy it.",
                        what.noun()
                    ),
                )
            }));
        });
    };
    // A document that may hold a credential is copied only once the
    // reader confirms.
    let copy = move |what: Copyable| match session.credential_findings() {
        Some(found) if found.is_empty() => copy_now(what),
        _ => confirming.set(Some(what)),
    };
    let save = move |to: Syntax| {
        let Some(text) = text.run(()) else { return };
        let from = report.with_untracked(|r| {
            r.as_ref().map_or_else(|| Syntax::sniff(&text), |r| r.analysis.checked.syntax)
        });
        let result = files::download(&name.get_untracked(), &text, from, to)
            .and_then(|(file, body)| download(&file, files::mime(to), &body).map(|()| file));
        status.set(Some(match result {
            Ok(file) => (false, format!("Downloaded {file}.")),
            Err(reason) => (true, format!("Not downloaded as {}: {reason}", syntax_label(to))),
        }));
    };
    let export = move |format: export::Picture| {
        let result = export::export(format, &name.get_untracked());
        status.set(Some(match result {
            Ok(file) => (false, format!("Exported {file}.")),
            Err(reason) => (true, reason),
        }));
    };
    let link_section = move || {
        match link.get() {
        None => None,
        Some(Ok(address)) => Some(
            view! {
                <label class="share-label" for="share-link">"Link to this document"</label>
                <div class="share-row">
                    <input id="share-link" class="share-field" data-testid="share-link" readonly prop:value=address on:focus=|ev| {
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        input.select();
                    } />
                    <button class="button primary" data-testid="copy-link" on:click=move |_| copy(Copyable::Link)>"Copy link"</button>
                </div>
                <p class="share-hint">"The document travels in the link itself: nothing is uploaded."</p>
            }
            .into_any(),
        ),
        Some(Err(NoLink::TooLong { chars })) => Some(
            view! {
                <p class="share-too-large" data-testid="link-too-large" role="status">
                    {format!(
                        "This document is too large for a link: it would take about {} characters, and links stop at {}. Download it and send the file instead.",
                        thousands(chars),
                        thousands(MAX_LINK_CHARS),
                    )}
                </p>
            }
            .into_any(),
        ),
    }
    };
    let embed_section = move || {
        element().zip(iframe()).map(|(code, framed)| {
            view! {
                <label class="share-label" for="embed-code">"Embed in a page"</label>
                <textarea id="embed-code" class="share-field share-code" data-testid="embed-code" readonly rows="3" prop:value=code></textarea>
                <div class="share-row">
                    <button class="button" data-testid="copy-embed" on:click=move |_| copy(Copyable::EmbedCode)>"Copy embed code"</button>
                </div>
                <p class="share-hint">"It takes the page's font, colours and light or dark theme."</p>
                <label class="share-label" for="iframe-code">"For a page that takes only an iframe"</label>
                <textarea id="iframe-code" class="share-field share-code" data-testid="iframe-code" readonly rows="3" prop:value=framed></textarea>
                <div class="share-row">
                    <button class="button" data-testid="copy-iframe" on:click=move |_| copy(Copyable::IframeCode)>"Copy iframe code"</button>
                </div>
            }
        })
    };
    let confirm = move || {
        confirming.get().map(|what| {
            let text = confirmation(session.credential_findings().as_deref(), what);
            view! {
                <div class="share-confirm" role="alertdialog" aria-labelledby="share-confirm-text" data-testid="credential-confirm">
                    <p id="share-confirm-text">{text}</p>
                    <div class="share-row">
                        <button class="button danger" data-testid="confirm-copy" on:click=move |_| copy_now(what)>{format!("Copy the {} anyway", what.noun())}</button>
                        <button class="button" data-testid="cancel-copy" on:click=move |_| confirming.set(None)>"Cancel"</button>
                    </div>
                </div>
            }
        })
    };

    let names = Names {
        name: "share",
        label: "Share",
        purpose: "Share, download and export",
        icon: "M10 14a4 4 0 0 0 5.7 0l3.5-3.5a4 4 0 0 0-5.7-5.7L12 6.3M14 10a4 4 0 0 0-5.7 0l-3.5 3.5a4 4 0 0 0 5.7 5.7l1.5-1.5",
    };
    view! {
        <Popover names=names open=open on_open=on_open>
            {link_section}
            {embed_section}
            {confirm}
            <p class="share-label">"Download the document"</p>
            <div class="share-row">
                <button class="button" data-testid="download-json" on:click=move |_| save(Syntax::Json)>"JSON"</button>
                <button class="button" data-testid="download-yaml" on:click=move |_| save(Syntax::Yaml)>"YAML"</button>
            </div>
            <p class="share-label">"Export the graph"</p>
            <div class="share-row">
                <button class="button" data-testid="export-svg" on:click=move |_| export(export::Picture::Svg)>"SVG"</button>
                <button class="button" data-testid="export-png" on:click=move |_| export(export::Picture::Png)>"PNG"</button>
            </div>
            {move || status.get().map(|(error, text)| view! {
                <p class="share-status" class:error=error role="status" data-testid="share-status">{text}</p>
            })}
        </Popover>
    }
}
