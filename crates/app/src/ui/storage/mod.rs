//! The browser's storage, as the playground uses it: `localStorage` and
//! `sessionStorage` for small records (`web_storage`), IndexedDB
//! (`idb`) and the drafts' database over it (`drafts`). What is kept and
//! when it is pruned is decided in plain Rust (`src/storage.rs`).

pub mod drafts;
pub mod idb;
pub mod web_storage;
