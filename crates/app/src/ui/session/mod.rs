//! The document session: which document the playground's editor holds
//! and where it came from (a link, a draft, an example, a file). The
//! address follows it (`address`); a link opened in an open page, an
//! example or a file replaces it, and the work it replaces stays a draft,
//! one click away. How a visit starts is `start`; the drafts themselves
//! are `ui/drafts`.

pub mod address;
pub mod incoming;
pub mod notice;
pub mod start;

use crate::link::{self, Fragment, NoLink};
use crate::route::Route;
use crate::storage::{worth_keeping, Saved};
use crate::ui::document::DocumentState;
use crate::ui::drafts::locks::hold;
use crate::ui::drafts::opening::Resumed;
use crate::ui::drafts::Drafts;
use address::{location_hash, written_by_page, Address};
use incoming::Incoming;
use leptos::prelude::*;
use notice::{show_save, Opened, SessionNotice};
use start::{Previous, Start};

/// The document session of the playground page. Copy, for components.
#[derive(Clone, Copy)]
pub struct Session {
    doc: DocumentState,
    open: Callback<Incoming>,
    pub drafts: Drafts,
    address: Address,
    /// Whether the document arrived by a link: the trust banner shows.
    pub arrived: RwSignal<bool>,
    pub notice: RwSignal<Option<SessionNotice>>,
    /// The work a document replaced in this visit.
    previous: StoredValue<Option<Previous>>,
}

impl Session {
    /// Starts following the document: the address after each check or
    /// panel change, the tab's draft after each check (`checks` counts
    /// them), links opened in the page. `open` puts a document in the
    /// editor.
    pub fn new(
        doc: DocumentState,
        open: Callback<Incoming>,
        start: Start,
        checks: Signal<u64>,
    ) -> Session {
        let notice = RwSignal::new(start.notice);
        let stored = start.incoming.edited.then(|| Saved {
            text: start.incoming.text.clone(),
            name: start.incoming.name.clone(),
            kind: start.incoming.kind,
            edited: true,
        });
        let after_save =
            Callback::new(move |(result, bytes)| show_save(notice, result, bytes, None));
        let drafts = Drafts::new(doc, start.opening, stored, checks, after_save);
        let session = Session {
            doc,
            open,
            drafts,
            address: Address::new(doc),
            arrived: RwSignal::new(start.arrived),
            notice,
            previous: StoredValue::new(start.previous),
        };
        // The first check is of the document the page opened with, which
        // the address already holds; every later one follows a change, as
        // does every panel change after it.
        Effect::new(move |had_report: Option<bool>| {
            doc.route.track();
            let has_report = doc.report.with(Option::is_some);
            if had_report == Some(true) {
                session.address.schedule();
            }
            has_report
        });
        let _ = window_event_listener(leptos::ev::hashchange, move |_| session.on_hash_change());
        session
    }

    /// The share link of the document as it is now.
    pub fn link(&self) -> Result<String, NoLink> {
        address::link_of(&self.doc)
    }

    /// The kind the reader chose for the document, which its link and embed
    /// code carry; none when it is read from the document.
    pub fn kind(&self) -> Option<opb_core::Kind> {
        self.doc.kind_choice.get_untracked()
    }

    /// The codes of the document's credential findings, one per finding;
    /// none while its check is coming.
    pub fn credential_findings(&self) -> Option<Vec<&'static str>> {
        self.doc.credential_findings()
    }

    /// A fragment the reader typed, pasted or went back to.
    fn on_hash_change(&self) {
        match Fragment::read(&location_hash()) {
            // The brand's link, or going back to the address the visit
            // began with: the tab the document's contents call for.
            Fragment::Route(_) if location_hash().trim_start_matches('#').is_empty() => {
                self.unchoose();
            }
            Fragment::Route(route) => self.doc.choose(route),
            Fragment::Broken(error) => {
                self.notice.set(Some(SessionNotice::BadLink(error.to_string())))
            }
            Fragment::Share(share) => {
                // The page's own address from before a tab was chosen
                // names none: back on it, no tab is chosen. A link that
                // names none leaves a chosen tab as it is.
                match link::route_of(&share) {
                    Some(route) => self.doc.choose(route),
                    None if written_by_page() => self.unchoose(),
                    None => {}
                }
                if written_by_page() {
                    return;
                }
                if self.doc.editor.with_text(|text| text == share.code) == Some(true) {
                    self.doc.kind_choice.set(share.kind);
                    return;
                }
                self.arrived.set(true);
                self.replace(Incoming::shared(share), Opened::Link);
            }
        }
    }

    /// Leaves the tab to the document: the one its contents call for.
    fn unchoose(&self) {
        self.doc.tab_chosen.set(false);
        let first =
            self.doc.report.with_untracked(|r| r.as_ref().map(|r| Route::first_view(&r.analysis)));
        if let Some(route) = first {
            self.doc.route.set(route);
        }
    }

    /// Writes the tab's document as its draft now, remembered as the work
    /// replaced; `opened` says what replaced it, for the notice shown when
    /// storage cannot keep it.
    fn set_aside(&self, current: Saved, opened: Opened) {
        let id = self.drafts.id();
        let selection = self.doc.editor.selection().unwrap_or_default();
        let unsaved = SessionNotice::PreviousUnsaved { name: current.name.clone(), opened };
        let bytes = current.text.len();
        let write = self.drafts.write(&id, &current, selection, self.doc.view());
        let notice = self.notice;
        leptos::task::spawn_local(async move {
            show_save(notice, write.await, bytes, Some(unsaved));
        });
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
                SessionNotice::PreviousKept { name, opened }
            },
        );
        self.notice.set(notice);
        self.open.run(incoming);
    }

    /// Whether a replaced document can be restored.
    pub fn can_restore(&self) -> bool {
        self.notice.with(|notice| notice.as_ref().is_some_and(SessionNotice::offers_restore))
    }

    /// Puts the replaced document back, keeping the one it replaces in turn.
    pub fn restore_previous(&self) {
        match self.previous.get_value() {
            Some(previous) => self.switch(previous.id, Some(previous.saved), true),
            None => self.notice.set(Some(SessionNotice::NothingToRestore)),
        }
    }

    /// Opens a kept draft, keeping the tab's document as a draft in turn.
    pub fn open_draft(&self, id: String) {
        self.switch(id, None, false);
    }

    /// Opens the draft `id` (or, when storage lost it, `fallback`) in this
    /// tab; a draft open in another tab is opened as a copy, a new draft.
    fn switch(&self, id: String, fallback: Option<Saved>, restoring: bool) {
        let session = *self;
        leptos::task::spawn_local(async move {
            let taken = match session.drafts.take(&id).await {
                Some(taken) => Some(taken),
                None => match fallback {
                    Some(saved) => Some((Resumed::of(&id, saved), hold(&id).await)),
                    None => None,
                },
            };
            let Some((resumed, held)) = taken else {
                session.notice.set(Some(SessionNotice::NothingToRestore));
                return;
            };
            // Read after the draft is: edits made while it loaded are kept.
            let kept =
                session.doc.saved().filter(|c| !c.text.trim().is_empty() && c.text != resumed.text);
            let notice = kept.map(|current| {
                let name = current.name.clone();
                let opened = Opened::Draft(resumed.meta.name.clone());
                session.set_aside(Saved { edited: true, ..current }, opened.clone());
                if restoring {
                    SessionNotice::Restored { name }
                } else {
                    SessionNotice::PreviousKept { name, opened }
                }
            });
            let stored = resumed.saved();
            match held {
                Some(held) => {
                    session.drafts.adopt(resumed.meta.id.clone(), Some(held), Some(stored))
                }
                None => session.drafts.begin_new(Some(stored)),
            }
            session.arrived.set(false);
            session.notice.set(notice);
            session.open.run(Incoming::draft(resumed));
        });
    }

    pub fn dismiss_notice(&self) {
        self.notice.set(None);
    }
}
