//! The browser's `localStorage`, as the playground uses it: the document
//! (text and metadata), the previous document a link replaced, the theme.

use crate::storage::{keys, Meta, Saved};
use wasm_bindgen::JsCast;
use web_sys::{DomException, Storage};

/// Why something could not be stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreError {
    /// Over the browser's storage quota.
    Full,
    /// The browser gives this page no storage (private modes, blocked
    /// cookies, a sandboxed frame).
    Unavailable,
}

fn local() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

fn set(key: &str, value: &str) -> Result<(), StoreError> {
    let storage = local().ok_or(StoreError::Unavailable)?;
    storage.set_item(key, value).map_err(|error| {
        let quota = error
            .dyn_ref::<DomException>()
            .is_some_and(|e| e.name() == "QuotaExceededError" || e.code() == DomException::QUOTA_EXCEEDED_ERR);
        if quota {
            StoreError::Full
        } else {
            StoreError::Unavailable
        }
    })
}

fn remove(key: &str) {
    if let Some(storage) = local() {
        let _ = storage.remove_item(key);
    }
}

fn load(text_key: &str, meta_key: &str) -> Option<Saved> {
    let text = get(text_key)?;
    let meta = get(meta_key).and_then(|json| Meta::from_json(&json))?;
    Some(Saved { text, meta })
}

/// Writes the text and then its metadata; when the text does not fit, the
/// last saved document is left as it was.
fn save(text_key: &str, meta_key: &str, saved: &Saved) -> Result<(), StoreError> {
    set(text_key, &saved.text)?;
    set(meta_key, &saved.meta.to_json())
}

/// The document saved by the last visit, if any.
pub fn current() -> Option<Saved> {
    load(keys::TEXT, keys::META)
}

pub fn save_current(saved: &Saved) -> Result<(), StoreError> {
    save(keys::TEXT, keys::META, saved)
}

/// The document a link replaced, kept to be restored.
pub fn previous() -> Option<Saved> {
    load(keys::PREVIOUS_TEXT, keys::PREVIOUS_META)
}

pub fn keep_previous(saved: &Saved) -> Result<(), StoreError> {
    let kept = save(keys::PREVIOUS_TEXT, keys::PREVIOUS_META, saved);
    if kept.is_err() {
        // A half-written pair would restore the wrong text.
        forget_previous();
    }
    kept
}

pub fn forget_previous() {
    remove(keys::PREVIOUS_TEXT);
    remove(keys::PREVIOUS_META);
}

pub fn theme() -> Option<String> {
    get(keys::THEME)
}

pub fn save_theme(theme: &str) {
    // The theme is a preference: when it cannot be kept, the page still
    // shows the chosen one until it is closed.
    let _ = set(keys::THEME, theme);
}
