//! The drafts' database in IndexedDB: each draft's description
//! ([`DraftMeta`] as JSON) and its text in two object stores, so a list of
//! the drafts reads no text.

use super::idb::{self, StoreError};
use super::web_storage;
use crate::storage::{self, keys, DraftMeta, LegacyMeta, Saved};
use js_sys::Array;
use opb_core::Masking;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{IdbDatabase, IdbTransactionMode};

const DATABASE: &str = "opb";
/// Drafts' descriptions ([`DraftMeta`] as JSON), by id.
const META: &str = "drafts";
/// Drafts' texts, by id.
const TEXT: &str = "texts";

/// The page's clock as drafts record it: milliseconds since the epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// A new draft's id.
pub fn fresh_id() -> String {
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
    pub async fn open() -> Result<DraftStore, StoreError> {
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
    pub async fn adopt_legacy(&self) {
        for (at, (text_key, meta_key)) in keys::LEGACY.iter().rev().enumerate() {
            let Some(text) = web_storage::local_get(text_key) else { continue };
            let meta =
                web_storage::local_get(meta_key).and_then(|json| LegacyMeta::from_json(&json));
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
            web_storage::local_remove(text_key);
            web_storage::local_remove(meta_key);
        }
    }
}
