//! The playground's address and storage: which document a visit opens
//! (a link, the last visit's, or the default example), the fragment that
//! follows every edit (at most one history update per 750 ms: Safari limits
//! them), opening a link in an open page, autosaving, and keeping the work
//! that a link, an example or a file replaces so it can be restored.

use super::store::{self, StoreError};
use crate::checker::Report;
use crate::examples;
use crate::format::{human_size, renamed};
use crate::link::{self, Fragment, NoLink};
use crate::route::Route;
use crate::storage::{stored_bytes, worth_keeping, Meta, Saved};
use crate::ui::editor::EditorHandle;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use opb_core::{Kind, Syntax};
use std::sync::Arc;

/// At most one address update per this many milliseconds.
const FRAGMENT_THROTTLE_MS: f64 = 750.0;

/// Storage is written this long after the last check, not in the check's
/// task: writing the whole text on every key cost 2.5 ms a key on 1,000
/// steps and far more on megabytes (issue 7). A page left sooner saves on
/// `pagehide`.
const SAVE_AFTER_MS: u32 = 400;

/// Texts longer than this (UTF-16 units) are saved only when the page is
/// left: writing 5 MB to storage blocks the page for 300 ms, which a pause
/// in typing does not cover (and few browsers' storage holds 5 MB at all).
const SAVE_WHILE_EDITING: u32 = 1024 * 1024;

/// The state of the history entries whose address this page wrote. The
/// address follows the document a moment after each change, so an entry the
/// reader left by a panel link may hold an older version of the text: going
/// back to one of these changes the panel, never the text.
const WRITTEN_BY_PAGE: &str = "opb";

/// A document to put in the editor.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub text: String,
    pub name: String,
    pub kind: Option<Kind>,
    pub edited: bool,
}

impl Incoming {
    fn from_saved(saved: Saved) -> Incoming {
        Incoming { text: saved.text, name: saved.meta.name, kind: saved.meta.kind, edited: saved.meta.edited }
    }

    /// A shared document, named after its syntax.
    fn shared(share: opb_share::Share) -> Incoming {
        let name = renamed("shared", Syntax::sniff(&share.code));
        Incoming { text: share.code, name, kind: share.kind, edited: false }
    }
}

/// What replaced the reader's work.
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    Link,
    Example(String),
    File(String),
}

impl Opened {
    fn sentence(&self) -> String {
        match self {
            Opened::Link => "Opened the shared document.".to_owned(),
            Opened::Example(name) => format!("Opened the example `{name}`."),
            Opened::File(name) => format!("Opened `{name}`."),
        }
    }
}

/// Something the page tells about links and storage, until dismissed.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareNotice {
    /// A link could not be opened; the editor kept its text.
    BadLink(String),
    /// A link, an example or a file replaced the reader's work (`name`),
    /// which is kept to be restored.
    PreviousKept { name: String, opened: Opened },
    /// As `PreviousKept`, but storage has no room to set the work aside: it
    /// stays the stored document until restored or dismissed.
    PreviousHeld { name: String, opened: Opened },
    /// The previous document is back; the one it replaced is kept in turn.
    Restored { name: String },
    /// The previous document could not be found again.
    NothingToRestore,
    /// The reader's work is not saved: storage is too small for it.
    StorageFull { bytes: usize },
    /// The browser gives the page no storage.
    StorageUnavailable,
}

/// How a visit starts.
pub struct Start {
    pub incoming: Incoming,
    pub route: Route,
    /// Whether the document arrived by a link (the trust banner shows).
    pub arrived: bool,
    pub notice: Option<ShareNotice>,
}

fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Whether the page itself wrote the current history entry's address: then
/// its fragment is the page's own document as it was up to a moment ago,
/// never a link that arrived.
fn address_written_by_page() -> bool {
    let state = window().history().and_then(|history| history.state()).ok();
    state.and_then(|state| state.as_string()).as_deref() == Some(WRITTEN_BY_PAGE)
}

/// The default example, for a first visit.
fn example() -> Incoming {
    let first = examples::named(examples::DEFAULT)
        .or_else(|| examples::all().into_iter().next())
        .unwrap_or(examples::Example { name: "untitled.yaml", text: String::new() });
    Incoming { text: first.text, name: first.name.to_owned(), kind: None, edited: false }
}

/// Keeps `current`, about to be replaced by `incoming`, when it is work.
fn keep(current: &Saved, incoming: &str, opened: Opened) -> Option<ShareNotice> {
    if !worth_keeping(current, incoming) {
        return None;
    }
    let name = current.meta.name.clone();
    match store::keep_previous(current) {
        Err(StoreError::Full) => Some(ShareNotice::PreviousHeld { name, opened }),
        // Without storage the page's memory keeps it (see `Links::previous`).
        Ok(()) | Err(StoreError::Unavailable) => Some(ShareNotice::PreviousKept { name, opened }),
    }
}

/// Decides what the page opens with, from its address and storage. A
/// link's document replaces the last visit's, which is kept when it is
/// work; a broken link leaves the last visit's document in place.
pub fn start() -> Start {
    let saved = store::current();
    let fallback = || saved.clone().map_or_else(example, Incoming::from_saved);
    match Fragment::read(&location_hash()) {
        Fragment::Route(route) => Start { incoming: fallback(), route, arrived: false, notice: None },
        Fragment::Broken(error) => Start {
            incoming: fallback(),
            route: Route::Diagnostics,
            arrived: false,
            notice: Some(ShareNotice::BadLink(error.to_string())),
        },
        Fragment::Share(share) => {
            let route = link::route_of(&share);
            // A reload of the reader's own document, whose address follows
            // it: the address lags the document by up to the throttle, so
            // the stored document, saved when the page was left, is read.
            if let Some(own) = saved.as_ref().filter(|s| s.text == share.code || address_written_by_page()) {
                let incoming = Incoming { kind: share.kind, ..Incoming::from_saved(own.clone()) };
                return Start { incoming, route, arrived: false, notice: None };
            }
            let notice = saved.as_ref().and_then(|s| keep(s, &share.code, Opened::Link));
            Start { incoming: Incoming::shared(share), route, arrived: true, notice }
        }
    }
}

/// The app's document state, as links and storage read it.
#[derive(Clone, Copy)]
pub struct DocumentState {
    pub editor: EditorHandle,
    pub report: RwSignal<Option<Arc<Report>>>,
    pub kind_choice: RwSignal<Option<Kind>>,
    pub name: RwSignal<String>,
    pub edited: RwSignal<bool>,
    pub route: RwSignal<Route>,
}

impl DocumentState {
    fn current(&self) -> Option<Saved> {
        let text = self.editor.text()?;
        Some(Saved {
            text,
            meta: Meta {
                name: self.name.get_untracked(),
                kind: self.kind_choice.get_untracked(),
                edited: self.edited.get_untracked(),
            },
        })
    }
}

/// Links and storage for the playground page. Copy, for components.
#[derive(Clone, Copy)]
pub struct Links {
    doc: DocumentState,
    open: Callback<Incoming>,
    /// Whether the document arrived by a link: the trust banner shows.
    pub arrived: RwSignal<bool>,
    pub notice: RwSignal<Option<ShareNotice>>,
    /// Set while a link replaced work that storage could not set aside: the
    /// work is still the stored document, so autosave waits.
    hold_saves: RwSignal<bool>,
    /// The document a link replaced in this visit, when it was work.
    previous: StoredValue<Option<Saved>>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    last_write: StoredValue<f64>,
    /// Whether the document changed since it was last saved, and the save
    /// waiting for typing to pause.
    unsaved: StoredValue<bool>,
    save_timer: StoredValue<Option<Timeout>, LocalStorage>,
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// The page's address without fragment.
pub fn page_base() -> String {
    let location = window().location();
    format!("{}{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
}

impl Links {
    /// Starts following the document: the address after each check or
    /// panel change, storage after each check, links opened in the page.
    /// `open` puts a document in the editor.
    pub fn new(doc: DocumentState, open: Callback<Incoming>, start: &Start) -> Links {
        let links = Links {
            doc,
            open,
            arrived: RwSignal::new(start.arrived),
            notice: RwSignal::new(start.notice.clone()),
            hold_saves: RwSignal::new(matches!(start.notice, Some(ShareNotice::PreviousHeld { .. }))),
            previous: StoredValue::new(None),
            timer: StoredValue::new_local(None),
            last_write: StoredValue::new(0.0),
            unsaved: StoredValue::new(false),
            save_timer: StoredValue::new_local(None),
        };
        // The first check is of the document the page opened with, which
        // the address already holds; every later one follows a change, as
        // does every panel change after it. Storage is written after every
        // check, the first included.
        Effect::new(move |had_report: Option<bool>| {
            doc.route.track();
            let has_report = doc.report.with(Option::is_some);
            if had_report == Some(true) {
                links.schedule_fragment();
            }
            has_report
        });
        Effect::new(move |_| {
            if doc.report.with(Option::is_some) {
                links.unsaved.set_value(true);
                let soon = doc.editor.length().is_some_and(|length| length <= SAVE_WHILE_EDITING);
                let save = soon.then(|| Timeout::new(SAVE_AFTER_MS, move || links.save_pending()));
                links.save_timer.set_value(save);
            }
        });
        let _ = window_event_listener(leptos::ev::hashchange, move |_| links.on_hash_change());
        let _ = window_event_listener(leptos::ev::pagehide, move |_| links.save_pending());
        links
    }

    /// The share link of the document as it is now.
    pub fn link(&self) -> Result<String, NoLink> {
        let base = page_base();
        // A UTF-16 unit takes at least a byte: a text this long is not
        // brought into Rust to be refused.
        link::unpacked(&base, self.doc.editor.length().unwrap_or(0) as usize)?;
        let text = self.doc.editor.text().unwrap_or_default();
        let fragment = link::fragment_for(&base, &text, self.doc.kind_choice.get_untracked(), &self.doc.route.get_untracked())?;
        Ok(format!("{base}{fragment}"))
    }

    fn schedule_fragment(&self) {
        if self.timer.with_value(Option::is_some) {
            return;
        }
        let links = *self;
        let wait = (self.last_write.get_value() + FRAGMENT_THROTTLE_MS - now_ms()).max(0.0);
        self.timer.set_value(Some(Timeout::new(wait as u32, move || links.write_fragment())));
    }

    fn write_fragment(&self) {
        self.timer.set_value(None);
        self.last_write.set_value(now_ms());
        let address = match self.link() {
            Ok(address) => address,
            // No link holds the document: the address keeps just the panel.
            Err(NoLink::TooLong { .. }) => {
                let route = self.doc.route.get_untracked().view().map(|v| format!("#{v}")).unwrap_or_default();
                format!("{}{route}", page_base())
            }
        };
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&WRITTEN_BY_PAGE.into(), "", Some(&address));
        }
    }

    /// Saves the editor's document when it changed since the last save.
    fn save_pending(&self) {
        self.save_timer.try_set_value(None);
        if self.unsaved.try_update_value(std::mem::take) == Some(true) {
            self.save();
        }
    }

    /// Saves the editor's document; says so when storage cannot hold it.
    fn save(&self) {
        if self.hold_saves.get_untracked() {
            return;
        }
        let Some(current) = self.doc.current() else { return };
        match store::save_current(&current) {
            Ok(()) => {
                if matches!(self.notice.get_untracked(), Some(ShareNotice::StorageFull { .. } | ShareNotice::StorageUnavailable)) {
                    self.notice.set(None);
                }
            }
            Err(StoreError::Full) => self.notice.set(Some(ShareNotice::StorageFull { bytes: stored_bytes(&current.text) })),
            Err(StoreError::Unavailable) => {
                if self.notice.get_untracked().is_none() {
                    self.notice.set(Some(ShareNotice::StorageUnavailable));
                }
            }
        }
    }

    /// A fragment the reader typed, pasted or went back to.
    fn on_hash_change(&self) {
        match Fragment::read(&location_hash()) {
            Fragment::Route(route) => self.doc.route.set(route),
            Fragment::Broken(error) => self.notice.set(Some(ShareNotice::BadLink(error.to_string()))),
            Fragment::Share(share) => {
                let route = link::route_of(&share);
                if address_written_by_page() {
                    self.doc.route.set(route);
                    return;
                }
                let current = self.doc.current();
                if current.as_ref().is_some_and(|c| c.text == share.code) {
                    self.doc.kind_choice.set(share.kind);
                    self.doc.route.set(route);
                    return;
                }
                self.doc.route.set(route);
                self.arrived.set(true);
                self.replace(Incoming::shared(share), Opened::Link);
            }
        }
    }

    /// Puts a document that a link, an example or a file brought in the
    /// editor, keeping the reader's work it replaces, to be restored.
    pub fn replace(&self, incoming: Incoming, opened: Opened) {
        let current = self.doc.current();
        let notice = current.as_ref().and_then(|c| keep(c, &incoming.text, opened));
        if notice.is_some() {
            self.previous.set_value(current);
        }
        self.hold_saves.set(matches!(notice, Some(ShareNotice::PreviousHeld { .. })));
        self.notice.set(notice);
        self.open.run(incoming);
    }

    /// Whether a replaced document can be restored.
    pub fn can_restore(&self) -> bool {
        matches!(
            self.notice.get(),
            Some(ShareNotice::PreviousKept { .. } | ShareNotice::PreviousHeld { .. } | ShareNotice::Restored { .. })
        )
    }

    /// Puts the replaced document back, keeping the one it replaces in turn.
    pub fn restore_previous(&self) {
        let previous = self.previous.get_value().or_else(|| {
            if self.hold_saves.get_untracked() {
                store::current()
            } else {
                store::previous()
            }
        });
        let Some(previous) = previous else {
            self.notice.set(Some(ShareNotice::NothingToRestore));
            return;
        };
        let notice = self.doc.current().and_then(|c| {
            let linked = Saved { meta: Meta { edited: true, ..c.meta.clone() }, ..c };
            let notice = keep(&linked, &previous.text, Opened::Link);
            self.previous.set_value(notice.is_some().then_some(linked));
            notice
        });
        self.hold_saves.set(matches!(notice, Some(ShareNotice::PreviousHeld { .. })));
        self.arrived.set(false);
        self.notice.set(notice.map(|n| match n {
            ShareNotice::PreviousKept { name, .. } => ShareNotice::Restored { name },
            other => other,
        }));
        self.open.run(Incoming { edited: true, ..Incoming::from_saved(previous) });
    }

    pub fn dismiss_notice(&self) {
        self.notice.set(None);
        self.hold_saves.set(false);
    }
}

/// What a notice says.
pub fn notice_text(notice: &ShareNotice) -> String {
    match notice {
        ShareNotice::BadLink(message) => format!("The link could not be opened. {message} Your document was not changed."),
        // Work is kept only when edited: it is the reader's own, though
        // it may bear an example's name.
        ShareNotice::PreviousKept { name, opened } => {
            format!("{} Your work on `{name}` is kept: restore it at any time.", opened.sentence())
        }
        ShareNotice::PreviousHeld { name, opened } => format!(
            "{} Your work on `{name}` is still the one stored, but there is no room to keep both: this one is not saved until you restore yours or dismiss this.",
            opened.sentence()
        ),
        ShareNotice::Restored { name } => {
            format!("Restored your previous document. The one it replaced, `{name}`, is kept: switch back at any time.")
        }
        ShareNotice::NothingToRestore => "The previous document is no longer stored, so it cannot be restored.".to_owned(),
        ShareNotice::StorageFull { bytes } => format!(
            "This document ({}) is too large for this browser's storage, so it is not saved: a reload would lose your changes. Download it to keep it.",
            human_size(*bytes)
        ),
        ShareNotice::StorageUnavailable => {
            "This browser gives the page no storage, so your document is not saved: download it to keep it.".to_owned()
        }
    }
}
