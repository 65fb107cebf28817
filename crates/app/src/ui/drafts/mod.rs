//! Drafts: each editing session's work, kept in IndexedDB (the store is
//! `ui/storage/drafts.rs`; `src/storage.rs` says what is kept and decides
//! what is pruned).
//!
//! A tab edits one draft at a time and holds a Web Lock named after it
//! while it does (`locks`), so another tab can tell a draft that is open
//! elsewhere: a tab that would continue such a draft (a fresh tab
//! continuing the most recent one, a duplicated tab) continues a copy
//! instead. Tabs therefore never write each other's drafts. The tab's
//! draft id is kept in `sessionStorage`, so a reload continues it.
//!
//! Only work is written: a document the reader edited, or one they chose
//! to keep. What a link, an example or a file brought is found again where
//! it came from.

pub mod autosave;
pub mod locks;
pub mod opening;

use crate::storage::{self, DraftMeta, Saved, TabRecord};
use crate::ui::document::DocumentState;
use crate::ui::storage::drafts::{fresh_id, now, DraftStore};
use crate::ui::storage::idb::StoreError;
use crate::ui::storage::web_storage;
use autosave::Autosave;
use leptos::prelude::*;
use locks::{hold, open_anywhere, Held};
use opb_core::Masking;
use opening::{Opening, Resumed};
use std::future::Future;

/// A draft as the Drafts menu lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub meta: DraftMeta,
    pub current: bool,
    /// Open in another tab.
    pub elsewhere: bool,
}

/// What a write's outcome is told to: whether it was kept, and the size of
/// the text.
pub type AfterSave = Callback<(Result<(), StoreError>, usize)>;

/// The tab's drafts: which one it edits, its autosave, the list. Copy,
/// for components.
#[derive(Clone, Copy)]
pub struct Drafts {
    doc: DocumentState,
    after_save: AfterSave,
    store: StoredValue<Option<DraftStore>, LocalStorage>,
    id: StoredValue<String>,
    held: StoredValue<Option<Held>, LocalStorage>,
    autosave: Autosave,
    /// What the tab's draft holds as last written or read: a check of the
    /// same document (the first after it opens) writes nothing.
    stored: StoredValue<Option<Saved>>,
    /// The list the Drafts menu shows, read when it opens (none while it
    /// is read).
    pub listed: RwSignal<Option<Vec<Listed>>>,
}

impl Drafts {
    /// Takes over the opening's draft, which holds `stored`, and saves the
    /// document after every check (`checked` counts them), and at once
    /// when the page is left or hidden, with the tab's selection; each
    /// save's outcome goes to `after_save`.
    pub fn new(
        doc: DocumentState,
        opening: Opening,
        stored: Option<Saved>,
        checked: Signal<u64>,
        after_save: AfterSave,
    ) -> Drafts {
        let drafts = Drafts {
            doc,
            after_save,
            store: StoredValue::new_local(opening.store),
            id: StoredValue::new(opening.id),
            held: StoredValue::new_local(opening.held),
            autosave: Autosave::default(),
            stored: StoredValue::new(stored),
            listed: RwSignal::new(None),
        };
        drafts.remember_tab();
        leptos::task::spawn_local(async move {
            drafts.prune().await;
        });
        autosave::follow(
            checked,
            move || drafts.autosave.changed(move || drafts.save_pending()),
            move || {
                drafts.save_pending();
                drafts.remember_tab();
            },
        );
        drafts
    }

    /// The draft this tab edits.
    pub fn id(&self) -> String {
        self.id.get_value()
    }

    /// Whether the browser gives the page a store for drafts.
    pub fn available(&self) -> bool {
        self.store.with_value(Option::is_some)
    }

    fn remember_tab(&self) {
        let selection = self.doc.editor.selection().unwrap_or_default();
        web_storage::save_tab(&TabRecord { draft: self.id(), selection });
    }

    /// Saves the document when it changed since the last save.
    pub fn save_pending(&self) {
        if self.autosave.take_pending() {
            self.save();
        }
    }

    /// Saves the document now (Ctrl-S), whether or not a save waits for
    /// typing to pause. Returns whether the document is work to keep (an
    /// edited document, not an example or link as it opened).
    pub fn keep(&self) -> bool {
        self.autosave.take_pending();
        let work = self.doc.saved().is_some_and(|s| s.edited);
        if work {
            self.save();
        }
        work
    }

    /// Saves the document as the tab's draft, when it is work and not
    /// what the draft holds.
    fn save(&self) {
        let Some(saved) = self.doc.saved().filter(|s| s.edited) else { return };
        if self.stored.with_value(|stored| stored.as_ref() == Some(&saved)) {
            return;
        }
        let selection = self.doc.editor.selection().unwrap_or_default();
        let bytes = saved.text.len();
        let write = self.write(&self.id(), &saved, selection, self.doc.view());
        let after_save = self.after_save;
        leptos::task::spawn_local(async move {
            after_save.run((write.await, bytes));
        });
    }

    /// Writes `saved` as the draft `id`. The write is issued before this
    /// returns; the future tells whether it was kept.
    pub fn write(
        &self,
        id: &str,
        saved: &Saved,
        selection: (u32, u32),
        view: Option<String>,
    ) -> impl Future<Output = Result<(), StoreError>> + 'static {
        let store = self.store.get_value();
        // The last check's analysis masks the excerpt when it is of this
        // text; else none is at hand, and the shapes of credentials do.
        let unread = Masking::default();
        let meta = self.doc.report.with_untracked(|report| {
            let analysis = report.as_ref().map(|r| &r.analysis);
            let read_as = analysis.and_then(|a| a.checked.kind).or(saved.kind);
            let of_text = report.as_ref().filter(|r| r.is_of(&saved.text));
            let masking = of_text.map_or(&unread, |r| r.analysis.masking());
            DraftMeta { read_as, ..DraftMeta::of(id, saved, masking, now(), selection, view) }
        });
        let write = store.map(|store| store.save(&meta, &saved.text));
        let id = meta.id;
        if write.is_some() && id == self.id() {
            self.stored.set_value(Some(saved.clone()));
        }
        let drafts = *self;
        async move {
            let Some(write) = write else { return Err(StoreError::Unavailable) };
            let result = write.await;
            // Tried again at the next check.
            if result.is_err() && drafts.id.try_get_value().as_deref() == Some(id.as_str()) {
                drafts.stored.set_value(None);
            }
            result
        }
    }

    /// Makes `id` the tab's draft, holding its lock (`held`); it holds
    /// `stored`.
    pub fn adopt(&self, id: String, held: Option<Held>, stored: Option<Saved>) {
        self.autosave.forget();
        self.id.set_value(id);
        self.held.set_value(held);
        self.stored.set_value(stored);
        self.remember_tab();
    }

    /// Starts a new draft, holding `stored` (a copy of a draft open in
    /// another tab is written once it is edited).
    pub fn begin_new(&self, stored: Option<Saved>) {
        let id = fresh_id();
        self.adopt(id.clone(), None, stored);
        let drafts = *self;
        leptos::task::spawn_local(async move {
            let held = hold(&id).await;
            if drafts.id.try_get_value().as_deref() == Some(id.as_str()) {
                drafts.held.set_value(held);
            }
        });
    }

    /// A kept draft with its text, and its lock when no other tab has it
    /// open.
    pub async fn take(&self, id: &str) -> Option<(Resumed, Option<Held>)> {
        let (meta, text) = self.store.get_value()?.load(id).await.ok().flatten()?;
        let held = hold(id).await;
        Some((Resumed { meta, text }, held))
    }

    /// Reads the drafts for the menu, pruned first.
    pub fn refresh(&self) {
        self.listed.set(None);
        let drafts = *self;
        leptos::task::spawn_local(async move {
            let Some((list, open)) = drafts.prune().await else { return };
            let mine = drafts.id();
            let listed = storage::newest_first(list)
                .into_iter()
                .map(|meta| {
                    let current = meta.id == mine;
                    let elsewhere = !current && open.contains(&meta.id);
                    Listed { meta, current, elsewhere }
                })
                .collect();
            drafts.listed.set(Some(listed));
        });
    }

    pub fn delete(&self, id: String) {
        if id == self.id() {
            return;
        }
        let Some(store) = self.store.get_value() else { return };
        let delete = store.delete(std::slice::from_ref(&id));
        let drafts = *self;
        leptos::task::spawn_local(async move {
            let _ = delete.await;
            drafts.refresh();
        });
    }

    /// Deletes the drafts too old or past the total size, never one open
    /// in a tab, this one's included; returns the drafts left and the ids
    /// open in any tab. Run as the visit starts and as the menu lists
    /// them, not at every save.
    async fn prune(&self) -> Option<(Vec<DraftMeta>, Vec<String>)> {
        let store = self.store.try_get_value().flatten()?;
        let list = store.list().await.unwrap_or_default();
        let open = open_anywhere().await;
        let mine = self.id();
        let doomed =
            storage::to_prune(&list, now(), |id| id == mine || open.iter().any(|o| o == id));
        if !doomed.is_empty() {
            let _ = store.delete(&doomed).await;
        }
        let left = list.into_iter().filter(|d| !doomed.contains(&d.id)).collect();
        Some((left, open))
    }
}
