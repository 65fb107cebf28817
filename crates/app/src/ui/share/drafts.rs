//! Drafts: each editing session's work, kept in IndexedDB (`src/storage.rs`
//! says what is kept and decides what is pruned).
//!
//! A tab edits one draft at a time and holds a Web Lock named after it
//! while it does, so another tab can tell a draft that is open elsewhere:
//! a tab that would continue such a draft (a fresh tab continuing the most
//! recent one, a duplicated tab) continues a copy instead. Tabs therefore
//! never write each other's drafts. The tab's draft id is kept in
//! `sessionStorage`, so a reload continues it.
//!
//! Only work is written: a document the reader edited, or one they chose
//! to keep. What a link, an example or a file brought is found again where
//! it came from.

use super::idb::{self, StoreError};
use super::links::{DocumentState, ShareNotice};
use super::store;
use crate::storage::{self, keys, DraftMeta, LegacyMeta, Saved, TabRecord};
use gloo_timers::callback::Timeout;
use js_sys::{Array, Function, Promise};
use leptos::prelude::*;
use opb_core::Masking;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbTransactionMode};

const DATABASE: &str = "opb";
/// Drafts' descriptions ([`DraftMeta`] as JSON), by id.
const META: &str = "drafts";
/// Drafts' texts, by id.
const TEXT: &str = "texts";

/// Writes are issued this long after the last check, not in the check's
/// task: taking a large text out of the editor costs milliseconds a key.
/// IndexedDB copies the text and writes it off the page's thread, so a
/// text of megabytes is saved as often as a small one.
const SAVE_AFTER_MS: u32 = 400;

/// Typing that never pauses is saved at least this often, so no edit on
/// screen for a second is lost when the tab closes.
const SAVE_AT_LEAST_EVERY_MS: f64 = 800.0;

#[wasm_bindgen(inline_js = r#"
export function holdLock(name) {
  if (!globalThis.navigator || !navigator.locks) return Promise.resolve(() => {});
  return new Promise((granted) => {
    navigator.locks
      .request(name, { ifAvailable: true }, (lock) => (lock ? new Promise((release) => granted(release)) : granted(null)))
      .catch(() => granted(() => {}));
  });
}
export function heldLocks() {
  if (!globalThis.navigator || !navigator.locks) return Promise.resolve([]);
  return navigator.locks.query().then((state) => state.held.map((lock) => lock.name), () => []);
}
"#)]
extern "C" {
    /// Resolves with the function that releases the lock `name`, or with
    /// null when another tab holds it. Without Web Locks, every lock is
    /// granted.
    #[wasm_bindgen(js_name = holdLock)]
    fn hold_lock(name: &str) -> Promise;

    /// Resolves with the names of the locks held by any tab of the origin.
    #[wasm_bindgen(js_name = heldLocks)]
    fn held_locks() -> Promise;
}

fn lock_name(id: &str) -> String {
    format!("opb.draft:{id}")
}

/// A draft's lock, held by this tab until dropped.
pub struct Held(Function);

impl Drop for Held {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}

/// Holds the lock of the draft `id`; none when another tab holds it.
pub async fn hold(id: &str) -> Option<Held> {
    let release = JsFuture::from(hold_lock(&lock_name(id))).await.ok()?;
    release.dyn_into::<Function>().ok().map(Held)
}

/// The ids of the drafts open in any tab.
async fn open_anywhere() -> Vec<String> {
    let names = JsFuture::from(held_locks())
        .await
        .ok()
        .and_then(|names| names.dyn_into::<Array>().ok())
        .unwrap_or_default();
    names
        .iter()
        .filter_map(|name| name.as_string()?.strip_prefix("opb.draft:").map(str::to_owned))
        .collect()
}

fn now() -> f64 {
    js_sys::Date::now()
}

fn fresh_id() -> String {
    storage::new_id(now(), js_sys::Math::random())
}

/// The drafts database.
#[derive(Clone)]
pub struct DraftStore(IdbDatabase);

fn make_stores(db: &IdbDatabase) {
    let names = db.object_store_names();
    for store in [META, TEXT] {
        if !names.contains(store) {
            let _ = db.create_object_store(store);
        }
    }
}

impl DraftStore {
    /// Opens the database, made with its stores on first use. One made
    /// without them (by something else of the origin) is upgraded a
    /// version on to make them.
    async fn open() -> Result<DraftStore, StoreError> {
        let db = idb::open(DATABASE, None, make_stores).await?;
        let names = db.object_store_names();
        if names.contains(META) && names.contains(TEXT) {
            return Ok(DraftStore(db));
        }
        let next = db.version() as u32 + 1;
        db.close();
        idb::open(DATABASE, Some(next), make_stores).await.map(DraftStore)
    }

    /// Every draft's description (never the texts).
    pub async fn list(&self) -> Result<Vec<DraftMeta>, StoreError> {
        let results = idb::transaction(&self.0, &[META], IdbTransactionMode::Readonly, |stores| {
            Ok(vec![stores[0].get_all()?])
        })
        .finish()
        .await?;
        let all = results
            .into_iter()
            .next()
            .and_then(|all| all.dyn_into::<Array>().ok())
            .unwrap_or_default();
        Ok(all.iter().filter_map(|json| DraftMeta::from_json(&json.as_string()?)).collect())
    }

    /// A draft's description and text.
    pub async fn load(&self, id: &str) -> Result<Option<(DraftMeta, String)>, StoreError> {
        let key = JsValue::from_str(id);
        let results =
            idb::transaction(&self.0, &[META, TEXT], IdbTransactionMode::Readonly, |stores| {
                Ok(vec![stores[0].get(&key)?, stores[1].get(&key)?])
            })
            .finish()
            .await?;
        let meta = results
            .first()
            .and_then(JsValue::as_string)
            .and_then(|json| DraftMeta::from_json(&json));
        let text = results.get(1).and_then(JsValue::as_string);
        Ok(meta.zip(text))
    }

    /// Writes a draft, its text and description together. The write is
    /// issued before this returns.
    pub fn save(
        &self,
        meta: &DraftMeta,
        text: &str,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> {
        let (key, json, text) = (
            JsValue::from_str(&meta.id),
            JsValue::from_str(&meta.to_json()),
            JsValue::from_str(text),
        );
        let write =
            idb::transaction(&self.0, &[META, TEXT], IdbTransactionMode::Readwrite, |stores| {
                Ok(vec![stores[1].put_with_key(&text, &key)?, stores[0].put_with_key(&json, &key)?])
            });
        async move { write.finish().await.map(drop) }
    }

    pub fn delete(
        &self,
        ids: &[String],
    ) -> impl std::future::Future<Output = Result<(), StoreError>> {
        let write =
            idb::transaction(&self.0, &[META, TEXT], IdbTransactionMode::Readwrite, |stores| {
                let mut requests = Vec::new();
                for id in ids {
                    let key = JsValue::from_str(id);
                    requests.push(stores[0].delete(&key)?);
                    requests.push(stores[1].delete(&key)?);
                }
                Ok(requests)
            });
        async move { write.finish().await.map(drop) }
    }

    /// Moves what versions before drafts kept in `localStorage` into
    /// drafts, the document last (it is then the newest); each pair is
    /// removed once written.
    async fn adopt_legacy(&self) {
        for (at, (text_key, meta_key)) in keys::LEGACY.iter().rev().enumerate() {
            let Some(text) = store::local_get(text_key) else { continue };
            let meta = store::local_get(meta_key).and_then(|json| LegacyMeta::from_json(&json));
            if let Some(meta) = meta.filter(|m| m.edited && !text.trim().is_empty()) {
                let saved = Saved { text, name: meta.name, kind: meta.kind, edited: true };
                // Not analysed here: its excerpt is masked by the shapes of
                // credentials.
                let updated = now() - 1.0 + at as f64;
                let draft =
                    DraftMeta::of(&fresh_id(), &saved, &Masking::default(), updated, (0, 0), None);
                if self.save(&draft, &saved.text).await.is_err() {
                    continue;
                }
            }
            store::local_remove(text_key);
            store::local_remove(meta_key);
        }
    }
}

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
pub struct Session {
    store: Option<DraftStore>,
    drafts: Vec<DraftMeta>,
    tab: Option<TabRecord>,
    id: String,
    held: Option<Held>,
}

impl Session {
    /// Opens the store (none when the browser refuses it) and reads the
    /// list of drafts and the tab's record.
    pub async fn open() -> Session {
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
        Session { store, drafts, tab: store::tab(), id, held }
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

/// The notice about saving that a save's outcome calls for, given the
/// notice shown: a failure replaces another notice only when it is full
/// storage (the reader must know to download), and a save that works
/// clears a failure's notice.
fn notice_after(
    result: Result<(), StoreError>,
    shown: Option<&ShareNotice>,
    bytes: usize,
) -> Option<Option<ShareNotice>> {
    let failing =
        matches!(shown, Some(ShareNotice::StorageFull { .. } | ShareNotice::StorageUnavailable));
    match result {
        Ok(()) => failing.then_some(None),
        Err(StoreError::Full) => Some(Some(ShareNotice::StorageFull { bytes })),
        Err(StoreError::Unavailable) => {
            shown.is_none().then_some(Some(ShareNotice::StorageUnavailable))
        }
    }
}

/// A draft as the Drafts menu lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub meta: DraftMeta,
    pub current: bool,
    /// Open in another tab.
    pub elsewhere: bool,
}

/// The tab's drafts: which one it edits, its autosave, the list. Copy,
/// for components.
#[derive(Clone, Copy)]
pub struct Drafts {
    doc: DocumentState,
    notice: RwSignal<Option<ShareNotice>>,
    store: StoredValue<Option<DraftStore>, LocalStorage>,
    id: StoredValue<String>,
    held: StoredValue<Option<Held>, LocalStorage>,
    /// Whether the document changed since it was last saved, since when,
    /// and the save waiting for typing to pause.
    unsaved: StoredValue<Option<f64>>,
    save_timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// What the tab's draft holds as last written or read: a check of the
    /// same document (the first after it opens) writes nothing.
    stored: StoredValue<Option<Saved>>,
    /// The list the Drafts menu shows, read when it opens (none while it
    /// is read).
    pub listed: RwSignal<Option<Vec<Listed>>>,
}

impl Drafts {
    /// Takes over the session's draft, which holds `stored`, and saves the
    /// document after every check (`checked` counts them), and at once
    /// when the page is left or hidden, with the tab's selection.
    pub fn new(
        doc: DocumentState,
        notice: RwSignal<Option<ShareNotice>>,
        session: Session,
        stored: Option<Saved>,
        checked: Signal<u64>,
    ) -> Drafts {
        let drafts = Drafts {
            doc,
            notice,
            store: StoredValue::new_local(session.store),
            id: StoredValue::new(session.id),
            held: StoredValue::new_local(session.held),
            unsaved: StoredValue::new(None),
            save_timer: StoredValue::new_local(None),
            stored: StoredValue::new(stored),
            listed: RwSignal::new(None),
        };
        drafts.remember_tab();
        leptos::task::spawn_local(async move {
            drafts.prune().await;
        });
        Effect::new(move |previous: Option<u64>| {
            let count = checked.get();
            if previous.is_some_and(|p| p != count) {
                drafts.changed();
            }
            count
        });
        let leave = move || {
            drafts.save_pending();
            drafts.remember_tab();
        };
        // A write issued at `pagehide` is often aborted with the page:
        // Chromium lost about half of them on a reload. `beforeunload`
        // comes before the next page is even asked for, while the page
        // still has time to commit; `pagehide` and a hidden page stay for
        // the browsers and exits that skip it (iOS, a phone's tab killed
        // in the background).
        let _ = window_event_listener(leptos::ev::beforeunload, move |_| leave());
        let _ = window_event_listener(leptos::ev::pagehide, move |_| leave());
        let _ = window_event_listener(leptos::ev::visibilitychange, move |_| {
            if document().visibility_state() == web_sys::VisibilityState::Hidden {
                leave();
            }
        });
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
        store::save_tab(&TabRecord { draft: self.id(), selection });
    }

    /// The document changed: saved when typing pauses, and at least every
    /// [`SAVE_AT_LEAST_EVERY_MS`] while it does not.
    fn changed(&self) {
        let since = *self.unsaved.get_value().get_or_insert_with(now);
        self.unsaved.set_value(Some(since));
        if self.save_timer.with_value(Option::is_some)
            && now() - since + f64::from(SAVE_AFTER_MS) > SAVE_AT_LEAST_EVERY_MS
        {
            return;
        }
        let drafts = *self;
        self.save_timer.set_value(Some(Timeout::new(SAVE_AFTER_MS, move || drafts.save_pending())));
    }

    /// Saves the document when it changed since the last save.
    pub fn save_pending(&self) {
        self.save_timer.try_set_value(None);
        if self.unsaved.try_update_value(Option::take).flatten().is_some() {
            self.save();
        }
    }

    /// Saves the document as the tab's draft, when it is work and not
    /// what the draft holds.
    fn save(&self) {
        let Some(saved) = self.doc.saved().filter(|s| s.edited) else { return };
        if self.stored.with_value(|stored| stored.as_ref() == Some(&saved)) {
            return;
        }
        let selection = self.doc.editor.selection().unwrap_or_default();
        self.write(&self.id(), &saved, selection, self.doc.view(), None);
    }

    /// Writes `saved` as the draft `id`; says so when it cannot be kept.
    /// `kept_apart` is the notice to show instead of the usual one when a
    /// document being set aside (replaced by another) is not stored.
    pub fn write(
        &self,
        id: &str,
        saved: &Saved,
        selection: (u32, u32),
        view: Option<String>,
        kept_apart: Option<ShareNotice>,
    ) {
        let bytes = saved.text.len();
        let Some(store) = self.store.get_value() else {
            self.after_save(Err(StoreError::Unavailable), bytes, kept_apart);
            return;
        };
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
        let write = store.save(&meta, &saved.text);
        let id = meta.id;
        if id == self.id() {
            self.stored.set_value(Some(saved.clone()));
        }
        let drafts = *self;
        leptos::task::spawn_local(async move {
            let result = write.await;
            drafts.after_save(result, bytes, kept_apart);
            // Tried again at the next check.
            if result.is_err() && drafts.id.try_get_value().as_deref() == Some(id.as_str()) {
                drafts.stored.set_value(None);
            }
        });
    }

    fn after_save(
        &self,
        result: Result<(), StoreError>,
        bytes: usize,
        kept_apart: Option<ShareNotice>,
    ) {
        if let (Err(_), Some(notice)) = (result, kept_apart) {
            self.notice.set(Some(notice));
            return;
        }
        let shown = self.notice.get_untracked();
        if let Some(next) = notice_after(result, shown.as_ref(), bytes) {
            self.notice.set(next);
        }
    }

    /// Makes `id` the tab's draft, holding its lock (`held`); it holds
    /// `stored`.
    pub fn adopt(&self, id: String, held: Option<Held>, stored: Option<Saved>) {
        self.save_timer.set_value(None);
        self.unsaved.set_value(None);
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
