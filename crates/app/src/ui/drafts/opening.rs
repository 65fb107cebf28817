//! The drafts as a visit starts: the store, the drafts it holds, which one
//! is the tab's, and the draft the visit continues.

use super::locks::{hold, Held};
use crate::storage::{self, DraftMeta, Saved, TabRecord};
use crate::ui::storage::drafts::{fresh_id, now, DraftStore};
use crate::ui::storage::web_storage;
use opb_core::Masking;

/// A draft read back, to continue.
#[derive(Debug, Clone)]
pub struct Resumed {
    pub meta: DraftMeta,
    pub text: String,
}

impl Resumed {
    /// The draft `id` as this tab still holds it, where storage lost it.
    pub fn of(id: &str, saved: Saved) -> Resumed {
        let meta = DraftMeta::of(id, &saved, &Masking::default(), now(), (0, 0), None);
        Resumed { meta, text: saved.text }
    }

    /// The document it holds: work.
    pub fn saved(&self) -> Saved {
        Saved {
            text: self.text.clone(),
            name: self.meta.name.clone(),
            kind: self.meta.kind,
            edited: true,
        }
    }
}

/// The tab's draft as a visit starts: the store, the drafts it holds, and
/// which one is the tab's.
pub struct Opening {
    pub(super) store: Option<DraftStore>,
    drafts: Vec<DraftMeta>,
    tab: Option<TabRecord>,
    pub(super) id: String,
    pub(super) held: Option<Held>,
}

impl Opening {
    /// Opens the store (none when the browser refuses it) and reads the
    /// list of drafts and the tab's record.
    pub async fn open() -> Opening {
        let store = DraftStore::open().await.ok();
        if let Some(store) = &store {
            store.adopt_legacy().await;
        }
        let drafts = match &store {
            Some(store) => store.list().await.unwrap_or_default(),
            None => Vec::new(),
        };
        let id = fresh_id();
        let held = hold(&id).await;
        Opening { store, drafts, tab: web_storage::tab(), id, held }
    }

    /// The draft this tab edited before a reload, when it is still kept.
    pub fn own(&self) -> Option<DraftMeta> {
        let tab = self.tab.as_ref()?;
        self.drafts.iter().find(|d| d.id == tab.draft).cloned()
    }

    /// The draft edited last.
    pub fn newest(&self) -> Option<DraftMeta> {
        storage::newest(&self.drafts).cloned()
    }

    /// Continues `draft` in this tab, or a copy of it when another tab has
    /// it open. The tab's own selection wins over the one kept, which is
    /// written with the text only.
    pub async fn resume(&mut self, draft: &DraftMeta) -> Option<Resumed> {
        let (mut meta, text) = self.store.as_ref()?.load(&draft.id).await.ok().flatten()?;
        if let Some(tab) = self.tab.as_ref().filter(|t| t.draft == meta.id) {
            meta.selection = tab.selection;
        }
        match hold(&meta.id).await {
            Some(held) => {
                self.id = meta.id.clone();
                self.held = Some(held);
            }
            None => self.begin_new().await,
        }
        Some(Resumed { meta, text })
    }

    /// Starts a new draft in this tab.
    pub async fn begin_new(&mut self) {
        self.id = fresh_id();
        self.held = hold(&self.id).await;
    }
}
