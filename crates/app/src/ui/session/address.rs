//! The page's address: its fragment follows the document, a moment after
//! each change (at most one history update per 750 ms: Safari limits
//! them), and never holds a document with a credential.

use crate::link::{self, Fragment, NoLink};
use crate::ui::document::DocumentState;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// At most one address update per this many milliseconds.
const FRAGMENT_THROTTLE_MS: f64 = 750.0;

/// The state of the history entries whose address this page wrote. The
/// address follows the document a moment after each change, so an entry the
/// reader left by a panel link may hold an older version of the text: going
/// back to one of these changes the panel, never the text.
const WRITTEN_BY_PAGE: &str = "opb";

pub fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Whether the page itself wrote the current history entry's address: then
/// its fragment is the page's own document as it was up to a moment ago,
/// never a link that arrived.
pub fn written_by_page() -> bool {
    let state = window().history().and_then(|history| history.state()).ok();
    state.and_then(|state| state.as_string()).as_deref() == Some(WRITTEN_BY_PAGE)
}

/// The page's address without fragment.
pub fn page_base() -> String {
    let location = window().location();
    format!(
        "{}{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    )
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// The share link of the document as it is now.
pub fn link_of(doc: &DocumentState) -> Result<String, NoLink> {
    let base = page_base();
    // A UTF-16 unit takes at least a byte: a text this long is not
    // brought into Rust to be refused.
    link::unpacked(&base, doc.editor.length().unwrap_or(0) as usize)?;
    let text = doc.editor.text().unwrap_or_default();
    let fragment = link::fragment_for(
        &base,
        &text,
        doc.kind_choice.get_untracked(),
        doc.chosen_route().as_ref(),
    )?;
    Ok(format!("{base}{fragment}"))
}

/// The address following the document. Copy, for components.
#[derive(Clone, Copy)]
pub struct Address {
    doc: DocumentState,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    last_write: StoredValue<f64>,
}

impl Address {
    pub fn new(doc: DocumentState) -> Address {
        let address =
            Address { doc, timer: StoredValue::new_local(None), last_write: StoredValue::new(0.0) };
        // An address written while the page is being left (a reload, say,
        // between `beforeunload` and `pagehide`) is lost, and so is its
        // history state: Chromium then reloads the address before it with
        // no state, which reads as a link that arrived. The drafts keep
        // the last edits.
        let _ = window_event_listener(leptos::ev::beforeunload, move |_| {
            address.timer.set_value(None);
        });
        address
    }

    /// Writes the address once the throttle allows.
    pub fn schedule(&self) {
        if self.timer.with_value(Option::is_some) {
            return;
        }
        let address = *self;
        let wait = (self.last_write.get_value() + FRAGMENT_THROTTLE_MS - now_ms()).max(0.0);
        self.timer.set_value(Some(Timeout::new(wait as u32, move || address.write())));
    }

    /// Writes the document's link into the address, or only its panel when
    /// no link holds it or it holds a credential: a credential leaves the
    /// page only in a link the reader chose to copy, never in the address
    /// bar and the history, where anyone who sees the screen, a synced
    /// browser or an extension reads it. A reload continues the work from
    /// its draft; an address that brought the document as it is keeps it,
    /// as rewriting it would only lose a document that is no draft.
    fn write(&self) {
        self.timer.set_value(None);
        // The check of the current text is coming, and schedules this again.
        let Some(credentials) = self.doc.credential_findings() else { return };
        if !credentials.is_empty() && self.holds_document() {
            return;
        }
        self.last_write.set_value(now_ms());
        let link = if credentials.is_empty() { link_of(&self.doc).ok() } else { None };
        let address = link.unwrap_or_else(|| {
            let route = self.doc.view().map(|v| format!("#{v}")).unwrap_or_default();
            format!("{}{route}", page_base())
        });
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&WRITTEN_BY_PAGE.into(), "", Some(&address));
        }
    }

    /// Whether the address holds the editor's document as it is now.
    fn holds_document(&self) -> bool {
        match Fragment::read(&location_hash()) {
            Fragment::Share(share) => self.doc.editor.with_text(|text| text == share.code),
            _ => None,
        }
        .unwrap_or(false)
    }
}
