//! IndexedDB through web-sys: a database opened (its stores made on first
//! use), and a transaction's requests issued at once and awaited together.
//!
//! Every transaction's requests are issued before anything is awaited, so
//! none depends on a transaction staying active across a task, and a write
//! issued as the page is left (`beforeunload`) is already on its way.

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    DomException, Event, IdbDatabase, IdbObjectStore, IdbOpenDbRequest, IdbRequest, IdbTransaction,
    IdbTransactionMode,
};

/// Why something could not be stored or read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreError {
    /// Over the browser's storage quota.
    Full,
    /// The browser gives this page no storage (private modes, storage
    /// turned off, a sandboxed frame, IndexedDB refused).
    Unavailable,
}

impl StoreError {
    fn of(error: &JsValue) -> StoreError {
        let quota = error.dyn_ref::<DomException>().is_some_and(|e| {
            e.name() == "QuotaExceededError" || e.code() == DomException::QUOTA_EXCEEDED_ERR
        });
        if quota {
            StoreError::Full
        } else {
            StoreError::Unavailable
        }
    }
}

/// Resolves when the event target fires one of two events, with what
/// `outcome` reads of it and of the event. One callback, set as both
/// handlers and dropped after its one call.
fn settled(
    set: impl FnOnce(&Function),
    outcome: impl FnOnce(&Event) -> Result<JsValue, JsValue> + 'static,
) -> JsFuture {
    let mut outcome = Some(outcome);
    let mut set = Some(set);
    let promise = Promise::new(&mut |resolve, reject| {
        let outcome = outcome.take();
        let callback = Closure::once_into_js(move |event: Event| {
            let _ = match outcome.map(|read| read(&event)) {
                Some(Ok(value)) => resolve.call1(&JsValue::UNDEFINED, &value),
                Some(Err(error)) => reject.call1(&JsValue::UNDEFINED, &error),
                None => Ok(JsValue::UNDEFINED),
            };
        });
        if let Some(set) = set.take() {
            set(callback.unchecked_ref());
        }
    });
    JsFuture::from(promise)
}

/// A request's result, or its error.
async fn request(request: IdbRequest) -> Result<JsValue, StoreError> {
    let read = request.clone();
    settled(
        |callback| {
            request.set_onsuccess(Some(callback));
            request.set_onerror(Some(callback));
        },
        move |_| match read.error() {
            Ok(None) => read.result(),
            Ok(Some(error)) => Err(error.into()),
            Err(error) => Err(error),
        },
    )
    .await
    .map_err(|error| StoreError::of(&error))
}

/// Opens the database `name`, at `version` or else at the one it has;
/// `upgrade` makes its stores when it is new or older.
pub async fn open(
    name: &str,
    version: Option<u32>,
    upgrade: fn(&IdbDatabase),
) -> Result<IdbDatabase, StoreError> {
    let factory = web_sys::window()
        .and_then(|w| w.indexed_db().ok().flatten())
        .ok_or(StoreError::Unavailable)?;
    let opening = match version {
        Some(version) => factory.open_with_u32(name, version),
        None => factory.open(name),
    };
    let opening: IdbOpenDbRequest = opening.map_err(|e| StoreError::of(&e))?;
    let on_upgrade = Closure::<dyn Fn()>::new({
        let opening = opening.clone();
        move || {
            if let Some(db) = opening.result().ok().and_then(|r| r.dyn_into::<IdbDatabase>().ok()) {
                upgrade(&db);
            }
        }
    });
    opening.set_onupgradeneeded(Some(on_upgrade.as_ref().unchecked_ref()));
    let db = request(opening.clone().into()).await;
    opening.set_onupgradeneeded(None);
    db?.dyn_into::<IdbDatabase>().map_err(|_| StoreError::Unavailable)
}

/// A transaction's requests, issued; [`Issued::finish`] awaits them.
pub struct Issued(Result<(Vec<IdbRequest>, JsFuture), StoreError>);

/// A transaction over `stores`, its requests issued by `issue` before this
/// returns.
pub fn transaction(
    db: &IdbDatabase,
    stores: &[&str],
    mode: IdbTransactionMode,
    issue: impl FnOnce(&[IdbObjectStore]) -> Result<Vec<IdbRequest>, JsValue>,
) -> Issued {
    let issued = (|| {
        let names: Array = stores.iter().map(|s| JsValue::from_str(s)).collect();
        let tx = db.transaction_with_str_sequence_and_mode(&names, mode)?;
        let handles = stores.iter().map(|s| tx.object_store(s)).collect::<Result<Vec<_>, _>>()?;
        let requests = issue(&handles)?;
        let done = finished(&tx);
        if mode == IdbTransactionMode::Readwrite {
            // Committed now rather than when the page next idles, which a
            // page being left may not reach. IndexedDB 3.0 defines
            // `commit()`, though web-sys marks it deprecated; where a
            // browser lacks it, the transaction commits on its own.
            #[allow(deprecated)]
            let _ = tx.commit();
        }
        Ok::<_, JsValue>((requests, done))
    })();
    Issued(issued.map_err(|e| StoreError::of(&e)))
}

impl Issued {
    /// Resolves when the transaction is committed, with the results of its
    /// requests.
    pub async fn finish(self) -> Result<Vec<JsValue>, StoreError> {
        let (requests, done) = self.0?;
        done.await.map_err(|e| StoreError::of(&e))?;
        requests.iter().map(|r| r.result().map_err(|e| StoreError::of(&e))).collect()
    }
}

/// Resolves when `tx` commits; fails with its error when it aborts.
fn finished(tx: &IdbTransaction) -> JsFuture {
    let read = tx.clone();
    settled(
        |callback| {
            tx.set_oncomplete(Some(callback));
            tx.set_onabort(Some(callback));
        },
        move |event| match read.error() {
            Some(error) => Err(error.into()),
            None if event.type_() == "abort" => Err(JsValue::from_str("aborted")),
            None => Ok(JsValue::UNDEFINED),
        },
    )
}
