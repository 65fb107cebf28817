//! What the page tells about the document session until dismissed: a link
//! that could not be opened, work set aside and where it is kept, and
//! storage that could not keep the work.

use crate::format::human_size;
use crate::ui::storage::idb::StoreError;
use leptos::prelude::*;

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

/// Something the page tells about the document's links and storage, until
/// dismissed: storage failures among them.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionNotice {
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

impl SessionNotice {
    /// Whether it tells of something that went wrong.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            SessionNotice::BadLink(_)
                | SessionNotice::StorageFull { .. }
                | SessionNotice::StorageUnavailable
                | SessionNotice::NothingToRestore
        )
    }

    /// Whether the work is held by this tab alone, to be downloaded.
    pub fn offers_download(&self) -> bool {
        matches!(self, SessionNotice::StorageFull { .. } | SessionNotice::StorageUnavailable)
    }

    /// Whether it offers to put back the work a document replaced.
    pub fn offers_restore(&self) -> bool {
        matches!(
            self,
            SessionNotice::PreviousKept { .. }
                | SessionNotice::PreviousUnsaved { .. }
                | SessionNotice::Restored { .. }
        )
    }
}

/// The notice about saving that a save's outcome calls for, given the
/// notice shown: a failure replaces another notice only when it is full
/// storage (the reader must know to download), and a save that works
/// clears a failure's notice.
fn after_save(
    result: Result<(), StoreError>,
    shown: Option<&SessionNotice>,
    bytes: usize,
) -> Option<Option<SessionNotice>> {
    let failing = matches!(
        shown,
        Some(SessionNotice::StorageFull { .. } | SessionNotice::StorageUnavailable)
    );
    match result {
        Ok(()) => failing.then_some(None),
        Err(StoreError::Full) => Some(Some(SessionNotice::StorageFull { bytes })),
        Err(StoreError::Unavailable) => {
            shown.is_none().then_some(Some(SessionNotice::StorageUnavailable))
        }
    }
}

/// Shows in `notice` what a write of `bytes` calls for. `kept_apart` is
/// the notice to show instead when the write set aside a document being
/// replaced and storage could not keep it.
pub fn show_save(
    notice: RwSignal<Option<SessionNotice>>,
    result: Result<(), StoreError>,
    bytes: usize,
    kept_apart: Option<SessionNotice>,
) {
    if let (Err(_), Some(kept_apart)) = (result, kept_apart) {
        notice.set(Some(kept_apart));
        return;
    }
    let shown = notice.get_untracked();
    if let Some(next) = after_save(result, shown.as_ref(), bytes) {
        notice.set(next);
    }
}

/// What a notice says.
pub fn notice_text(notice: &SessionNotice) -> String {
    match notice {
        SessionNotice::BadLink(message) => format!("The link could not be opened. {message} Your document was not changed."),
        // Work is kept only when edited: it is the reader's own, though
        // it may bear an example's name.
        SessionNotice::PreviousKept { name, opened } => {
            format!("{} Your work on `{name}` is kept in Drafts: restore it at any time.", opened.sentence())
        }
        SessionNotice::PreviousUnsaved { name, opened } => format!(
            "{} Your work on `{name}` could not be saved, as this browser's storage is full: only this tab holds it, so restore it before you close the tab.",
            opened.sentence()
        ),
        SessionNotice::Restored { name } => {
            format!("Restored your previous document. The one it replaced, `{name}`, is kept in Drafts: switch back at any time.")
        }
        SessionNotice::NothingToRestore => "That draft is no longer stored, so it cannot be opened.".to_owned(),
        SessionNotice::StorageFull { bytes } => format!(
            "This browser's storage has no room for this document ({}), so it is not saved: a reload would lose your changes. Download it to keep it.",
            human_size(*bytes)
        ),
        SessionNotice::StorageUnavailable => {
            "This browser gives the page no storage, so your document is not saved: download it to keep it.".to_owned()
        }
    }
}
