//! The Web Locks bridge: a tab holds a lock named after the draft it edits
//! while it does, so another tab can tell a draft that is open elsewhere.
//! Without Web Locks (an older browser), every lock is granted.

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

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
pub async fn open_anywhere() -> Vec<String> {
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
