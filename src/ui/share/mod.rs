//! Sharing and keeping documents: share links and the address that follows
//! the document, the trust banner, embedding (the `?embed=1` page and the
//! `<opb-viewer>` element), storage, files, pictures of the graph, themes.

pub mod banner;
pub mod embedded;
pub mod export;
pub mod files;
pub mod links;
pub mod menu;
pub mod notices;
pub mod standalone;
pub mod store;
pub mod theme;

use crate::embed::PageOptions;

/// What the page is, from its markup and address.
pub enum Page {
    /// The playground (editor and panels).
    Playground(PageOptions),
    /// The viewer alone, in a docs site's `<iframe>`.
    Embed(PageOptions),
    /// Another site's page that loaded the wasm for its `<opb-viewer>`
    /// elements: nothing is mounted on the page itself.
    Host,
}

/// The playground's `index.html` marks its `<html>` with `data-opb-page`.
pub fn page() -> Page {
    let Some(window) = web_sys::window() else { return Page::Host };
    let marked = window.document().and_then(|d| d.document_element()).is_some_and(|e| e.has_attribute("data-opb-page"));
    if !marked {
        return Page::Host;
    }
    let options = PageOptions::from_query(&window.location().search().unwrap_or_default());
    if options.embed {
        Page::Embed(options)
    } else {
        Page::Playground(options)
    }
}
