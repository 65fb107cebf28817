//! The browser's `localStorage` and `sessionStorage`, as the playground uses
//! them: the theme, the tab's record (which draft it edits), the reading
//! view's record (what it showed as its reader chose Edit), and the keys
//! versions before drafts wrote. Drafts themselves are in IndexedDB
//! (`drafts.rs` beside this file).

use crate::storage::{keys, ReadingRecord, TabRecord};
use web_sys::Storage;

fn local() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn session() -> Option<Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

pub fn local_get(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

pub fn local_remove(key: &str) {
    if let Some(storage) = local() {
        let _ = storage.remove_item(key);
    }
}

pub fn theme() -> Option<String> {
    local_get(keys::THEME)
}

pub fn save_theme(theme: &str) {
    // The theme is a preference: when it cannot be kept, the page still
    // shows the chosen one until it is closed.
    if let Some(storage) = local() {
        let _ = storage.set_item(keys::THEME, theme);
    }
}

/// The draft this tab edited before a reload.
pub fn tab() -> Option<TabRecord> {
    TabRecord::from_json(&session()?.get_item(keys::TAB).ok().flatten()?)
}

/// What the reading view showed as its reader chose Edit.
pub fn reading() -> Option<ReadingRecord> {
    ReadingRecord::from_json(&session()?.get_item(keys::READING).ok().flatten()?)
}

pub fn save_tab(record: &TabRecord) {
    // Without it a reload continues the most recent draft, which is this
    // tab's unless another was edited since.
    if let Some(storage) = session() {
        let _ = storage.set_item(keys::TAB, &record.to_json());
    }
}
