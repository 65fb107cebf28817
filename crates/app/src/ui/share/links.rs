//! The playground's address: which document a visit opens (a link, the
//! tab's draft, the most recent draft, or the default example), the
//! fragment that follows every edit (at most one history update per
//! 750 ms: Safari limits them; never a document holding a credential),
//! opening a link in an open page, and keeping
//! the work that a link, an example, a file or a draft replaces, one click
//! away (drafts are in `drafts.rs`).

use super::drafts::{self, Drafts, Resumed, Session};
use crate::checker::Report;
use crate::examples;
use crate::format::{human_size, renamed};
use crate::link::{self, Fragment, NoLink};
use crate::route::Route;
use crate::storage::{worth_keeping, Saved};
use crate::ui::editor::EditorHandle;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use opb_core::{Kind, Syntax};
use std::sync::Arc;

/// At most one address update per this many milliseconds.
const FRAGMENT_THROTTLE_MS: f64 = 750.0;

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
    /// The selection to restore (a draft's), or none for the start.
    pub selection: Option<(u32, u32)>,
}

impl Incoming {
    /// A document opened from where it came from (an example, a file).
    pub fn opened(text: String, name: String) -> Incoming {
        Incoming { text, name, kind: None, edited: false, selection: None }
    }

    /// A draft: the reader's work.
    fn draft(resumed: Resumed) -> Incoming {
        let meta = resumed.meta;
        Incoming {
            text: resumed.text,
            name: meta.name,
            kind: meta.kind,
            edited: true,
            selection: Some(meta.selection),
        }
    }

    /// A shared document, named after its syntax.
    fn shared(share: opb_share::Share) -> Incoming {
        let name = renamed("shared", Syntax::sniff(&share.code));
        Incoming { text: share.code, name, kind: share.kind, edited: false, selection: None }
    }
}

/// What replaced the reader's work.
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    Link,
    Example(String),
    File(String),
    Draft(String),
}

impl Opened {
    fn sentence(&self) -> String {
        match self {
            Opened::Link => "Opened the shared document.".to_owned(),
            Opened::Example(name) => format!("Opened the example `{name}`."),
            Opened::File(name) => format!("Opened `{name}`."),
            Opened::Draft(name) => format!("Opened the draft `{name}`."),
        }
    }
}

/// Something the page tells about links and storage, until dismissed.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareNotice {
    /// A link could not be opened; the editor kept its text.
    BadLink(String),
    /// A link, an example, a file or a draft replaced the reader's work
    /// (`name`), which is kept as a draft, to be restored.
    PreviousKept { name: String, opened: Opened },
    /// As `PreviousKept`, but storage could not keep the work: this tab
    /// holds it until it is closed.
    PreviousUnsaved { name: String, opened: Opened },
    /// The previous document is back; the one it replaced is kept in turn.
    Restored { name: String },
    /// The previous document could not be found again.
    NothingToRestore,
    /// The reader's work is not saved: storage is too small for it.
    StorageFull { bytes: usize },
    /// The browser gives the page no storage.
    StorageUnavailable,
}

/// The work a document replaced in this tab: its draft, and its text in
/// case storage could not keep it.
#[derive(Debug, Clone)]
struct Previous {
    id: String,
    saved: Saved,
}

/// How a visit starts.
pub struct Start {
    pub incoming: Incoming,
    pub route: Route,
    /// Whether the document arrived by a link (the trust banner shows).
    pub arrived: bool,
    pub notice: Option<ShareNotice>,
    /// The step to select: the one the reading view showed, when the reader
    /// chose Edit there.
    pub step: Option<String>,
    session: Session,
    previous: Option<Previous>,
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
    Incoming::opened(first.text, first.name.to_owned())
}

/// Decides what the page opens with, from its address and the drafts. A
/// link's document is a new draft beside the tab's (which is kept to be
/// restored); a visit without one continues the tab's draft (a reload) or
/// the most recent one, on the panel it was left on unless the address
/// names one; a broken link leaves that document in place.
pub async fn start() -> Start {
    let mut session = Session::open().await;
    let hash = location_hash();
    let (route, notice) = match Fragment::read(&hash) {
        Fragment::Share(share) => return start_with_link(session, share).await,
        Fragment::Route(route) => (route, None),
        Fragment::Broken(error) => {
            (Route::Diagnostics, Some(ShareNotice::BadLink(error.to_string())))
        }
    };
    let continued = match session.own().or_else(|| session.newest()) {
        Some(draft) => session.resume(&draft).await,
        None => None,
    };
    let names_no_panel = hash.trim_start_matches('#').is_empty();
    let route = match continued.as_ref().and_then(|c| c.meta.view.as_deref()) {
        Some(view) if names_no_panel => Route::from_hash(view),
        _ => route,
    };
    let incoming = continued.map_or_else(example, Incoming::draft);
    Start { incoming, route, arrived: false, notice, step: None, session, previous: None }
}

async fn start_with_link(mut session: Session, share: opb_share::Share) -> Start {
    // Edit in the reading view: its tab and step, on this link.
    let reading = super::store::reading().filter(|record| record.link == location_hash());
    let route = match reading.as_ref().and_then(|record| record.tab.as_deref()) {
        Some(tab) => Route::from_hash(tab),
        None => link::route_of(&share),
    };
    let step = reading.and_then(|record| record.step);
    let own = match session.own() {
        Some(draft) => session.resume(&draft).await,
        None => None,
    };
    // A reload of the reader's own document, whose address follows it: the
    // address lags the document by up to the throttle, so the draft, saved
    // as the page was left, is read.
    let by_page = address_written_by_page();
    if let Some(own) = own.as_ref().filter(|own| by_page || own.text == share.code) {
        let incoming = Incoming { kind: share.kind, ..Incoming::draft(own.clone()) };
        return Start {
            incoming,
            route,
            arrived: false,
            notice: None,
            step,
            session,
            previous: None,
        };
    }
    let arrived = !by_page;
    let previous = own
        .filter(|own| !own.text.trim().is_empty())
        .map(|own| Previous { saved: own.saved(), id: own.meta.id });
    if previous.is_some() {
        session.begin_new().await;
    }
    let notice = previous
        .as_ref()
        .map(|p| ShareNotice::PreviousKept { name: p.saved.name.clone(), opened: Opened::Link });
    Start { incoming: Incoming::shared(share), route, arrived, notice, step, session, previous }
}

/// The app's document state, as links and drafts read it.
#[derive(Clone, Copy)]
pub struct DocumentState {
    pub editor: EditorHandle,
    pub report: RwSignal<Option<Arc<Report>>>,
    /// Whether `report` is of the editor's text (an edit's check may still
    /// be coming).
    pub fresh: StoredValue<bool>,
    pub kind_choice: RwSignal<Option<Kind>>,
    pub name: RwSignal<String>,
    pub edited: RwSignal<bool>,
    pub route: RwSignal<Route>,
}

impl DocumentState {
    pub fn saved(&self) -> Option<Saved> {
        Some(Saved {
            text: self.editor.text()?,
            name: self.name.get_untracked(),
            kind: self.kind_choice.get_untracked(),
            edited: self.edited.get_untracked(),
        })
    }

    pub fn view(&self) -> Option<String> {
        self.route.get_untracked().view()
    }

    /// The codes of the findings of a credential written into the text
    /// (the core says which findings are), one per finding; none while the
    /// last check is of an older text.
    pub fn credential_findings(&self) -> Option<Vec<&'static str>> {
        if !self.fresh.get_value() {
            return None;
        }
        self.report.with_untracked(|report| {
            let checked = &report.as_ref()?.analysis.checked;
            Some(checked.credential_findings().map(|d| d.code).collect())
        })
    }
}

/// Links and kept work for the playground page. Copy, for components.
#[derive(Clone, Copy)]
pub struct Links {
    doc: DocumentState,
    open: Callback<Incoming>,
    pub drafts: Drafts,
    /// Whether the document arrived by a link: the trust banner shows.
    pub arrived: RwSignal<bool>,
    pub notice: RwSignal<Option<ShareNotice>>,
    /// The work a document replaced in this visit.
    previous: StoredValue<Option<Previous>>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    last_write: StoredValue<f64>,
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
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

impl Links {
    /// Starts following the document: the address after each check or
    /// panel change, the tab's draft after each check (`checks` counts
    /// them), links opened in the page. `open` puts a document in the
    /// editor.
    pub fn new(
        doc: DocumentState,
        open: Callback<Incoming>,
        start: Start,
        checks: Signal<u64>,
    ) -> Links {
        let notice = RwSignal::new(start.notice);
        let stored = start.incoming.edited.then(|| Saved {
            text: start.incoming.text.clone(),
            name: start.incoming.name.clone(),
            kind: start.incoming.kind,
            edited: true,
        });
        let links = Links {
            doc,
            open,
            drafts: Drafts::new(doc, notice, start.session, stored, checks),
            arrived: RwSignal::new(start.arrived),
            notice,
            previous: StoredValue::new(start.previous),
            timer: StoredValue::new_local(None),
            last_write: StoredValue::new(0.0),
        };
        // The first check is of the document the page opened with, which
        // the address already holds; every later one follows a change, as
        // does every panel change after it.
        Effect::new(move |had_report: Option<bool>| {
            doc.route.track();
            let has_report = doc.report.with(Option::is_some);
            if had_report == Some(true) {
                links.schedule_fragment();
            }
            has_report
        });
        let _ = window_event_listener(leptos::ev::hashchange, move |_| links.on_hash_change());
        // An address written while the page is being left (a reload, say,
        // between `beforeunload` and `pagehide`) is lost, and so is its
        // history state: Chromium then reloads the address before it with
        // no state, which reads as a link that arrived. The drafts keep
        // the last edits.
        let _ = window_event_listener(leptos::ev::beforeunload, move |_| {
            links.timer.set_value(None);
        });
        links
    }

    /// The share link of the document as it is now.
    pub fn link(&self) -> Result<String, NoLink> {
        let base = page_base();
        // A UTF-16 unit takes at least a byte: a text this long is not
        // brought into Rust to be refused.
        link::unpacked(&base, self.doc.editor.length().unwrap_or(0) as usize)?;
        let text = self.doc.editor.text().unwrap_or_default();
        let fragment = link::fragment_for(
            &base,
            &text,
            self.doc.kind_choice.get_untracked(),
            &self.doc.route.get_untracked(),
        )?;
        Ok(format!("{base}{fragment}"))
    }

    /// The codes of the document's credential findings, one per finding;
    /// none while its check is coming.
    pub fn credential_findings(&self) -> Option<Vec<&'static str>> {
        self.doc.credential_findings()
    }

    fn schedule_fragment(&self) {
        if self.timer.with_value(Option::is_some) {
            return;
        }
        let links = *self;
        let wait = (self.last_write.get_value() + FRAGMENT_THROTTLE_MS - now_ms()).max(0.0);
        self.timer.set_value(Some(Timeout::new(wait as u32, move || links.write_fragment())));
    }

    /// Writes the document's link into the address, or only its panel when
    /// no link holds it or it holds a credential: a credential leaves the
    /// page only in a link the reader chose to copy, never in the address
    /// bar and the history, where anyone who sees the screen, a synced
    /// browser or an extension reads it. A reload continues the work from
    /// its draft; an address that brought the document as it is keeps it,
    /// as rewriting it would only lose a document that is no draft.
    fn write_fragment(&self) {
        self.timer.set_value(None);
        // The check of the current text is coming, and schedules this again.
        let Some(credentials) = self.doc.credential_findings() else { return };
        if !credentials.is_empty() && self.address_holds_document() {
            return;
        }
        self.last_write.set_value(now_ms());
        let link = if credentials.is_empty() { self.link().ok() } else { None };
        let address = link.unwrap_or_else(|| {
            let route =
                self.doc.route.get_untracked().view().map(|v| format!("#{v}")).unwrap_or_default();
            format!("{}{route}", page_base())
        });
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&WRITTEN_BY_PAGE.into(), "", Some(&address));
        }
    }

    /// Whether the address holds the editor's document as it is now.
    fn address_holds_document(&self) -> bool {
        match Fragment::read(&location_hash()) {
            Fragment::Share(share) => self.doc.editor.with_text(|text| text == share.code),
            _ => None,
        }
        .unwrap_or(false)
    }

    /// A fragment the reader typed, pasted or went back to.
    fn on_hash_change(&self) {
        match Fragment::read(&location_hash()) {
            Fragment::Route(route) => self.doc.route.set(route),
            Fragment::Broken(error) => {
                self.notice.set(Some(ShareNotice::BadLink(error.to_string())))
            }
            Fragment::Share(share) => {
                let route = link::route_of(&share);
                if address_written_by_page() {
                    self.doc.route.set(route);
                    return;
                }
                if self.doc.editor.with_text(|text| text == share.code) == Some(true) {
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

    /// Writes the tab's document as its draft now, remembered as the work
    /// replaced; `opened` says what replaced it, for the notice shown when
    /// storage cannot keep it.
    fn set_aside(&self, current: Saved, opened: Opened) {
        let id = self.drafts.id();
        let selection = self.doc.editor.selection().unwrap_or_default();
        let unsaved = ShareNotice::PreviousUnsaved { name: current.name.clone(), opened };
        self.drafts.write(&id, &current, selection, self.doc.view(), Some(unsaved));
        self.previous.set_value(Some(Previous { id, saved: current }));
    }

    /// Puts a document that a link, an example or a file brought in the
    /// editor, as a new draft; the reader's work it replaces stays a
    /// draft, to be restored.
    pub fn replace(&self, incoming: Incoming, opened: Opened) {
        let notice = self.doc.saved().filter(|current| worth_keeping(current, &incoming.text)).map(
            |current| {
                let name = current.name.clone();
                self.set_aside(current, opened.clone());
                self.drafts.begin_new(None);
                ShareNotice::PreviousKept { name, opened }
            },
        );
        self.notice.set(notice);
        self.open.run(incoming);
    }

    /// Whether a replaced document can be restored.
    pub fn can_restore(&self) -> bool {
        matches!(
            self.notice.get(),
            Some(
                ShareNotice::PreviousKept { .. }
                    | ShareNotice::PreviousUnsaved { .. }
                    | ShareNotice::Restored { .. }
            )
        )
    }

    /// Puts the replaced document back, keeping the one it replaces in turn.
    pub fn restore_previous(&self) {
        match self.previous.get_value() {
            Some(previous) => self.switch(previous.id, Some(previous.saved), true),
            None => self.notice.set(Some(ShareNotice::NothingToRestore)),
        }
    }

    /// Opens a kept draft, keeping the tab's document as a draft in turn.
    pub fn open_draft(&self, id: String) {
        self.switch(id, None, false);
    }

    /// Opens the draft `id` (or, when storage lost it, `fallback`) in this
    /// tab; a draft open in another tab is opened as a copy, a new draft.
    fn switch(&self, id: String, fallback: Option<Saved>, restoring: bool) {
        let links = *self;
        leptos::task::spawn_local(async move {
            let taken = match links.drafts.take(&id).await {
                Some(taken) => Some(taken),
                None => match fallback {
                    Some(saved) => Some((Resumed::of(&id, saved), drafts::hold(&id).await)),
                    None => None,
                },
            };
            let Some((resumed, held)) = taken else {
                links.notice.set(Some(ShareNotice::NothingToRestore));
                return;
            };
            // Read after the draft is: edits made while it loaded are kept.
            let kept =
                links.doc.saved().filter(|c| !c.text.trim().is_empty() && c.text != resumed.text);
            let notice = kept.map(|current| {
                let name = current.name.clone();
                let opened = Opened::Draft(resumed.meta.name.clone());
                links.set_aside(Saved { edited: true, ..current }, opened.clone());
                if restoring {
                    ShareNotice::Restored { name }
                } else {
                    ShareNotice::PreviousKept { name, opened }
                }
            });
            let stored = resumed.saved();
            match held {
                Some(held) => links.drafts.adopt(resumed.meta.id.clone(), Some(held), Some(stored)),
                None => links.drafts.begin_new(Some(stored)),
            }
            links.arrived.set(false);
            links.notice.set(notice);
            links.open.run(Incoming::draft(resumed));
        });
    }

    pub fn dismiss_notice(&self) {
        self.notice.set(None);
    }
}

/// What a notice says.
pub fn notice_text(notice: &ShareNotice) -> String {
    match notice {
        ShareNotice::BadLink(message) => format!("The link could not be opened. {message} Your document was not changed."),
        // Work is kept only when edited: it is the reader's own, though
        // it may bear an example's name.
        ShareNotice::PreviousKept { name, opened } => {
            format!("{} Your work on `{name}` is kept in Drafts: restore it at any time.", opened.sentence())
        }
        ShareNotice::PreviousUnsaved { name, opened } => format!(
            "{} Your work on `{name}` could not be saved, as this browser's storage is full: only this tab holds it, so restore it before you close the tab.",
            opened.sentence()
        ),
        ShareNotice::Restored { name } => {
            format!("Restored your previous document. The one it replaced, `{name}`, is kept in Drafts: switch back at any time.")
        }
        ShareNotice::NothingToRestore => "That draft is no longer stored, so it cannot be opened.".to_owned(),
        ShareNotice::StorageFull { bytes } => format!(
            "This browser's storage has no room for this document ({}), so it is not saved: a reload would lose your changes. Download it to keep it.",
            human_size(*bytes)
        ),
        ShareNotice::StorageUnavailable => {
            "This browser gives the page no storage, so your document is not saved: download it to keep it.".to_owned()
        }
    }
}
