//! The opb playground: a Leptos single-page app over the validation core,
//! compiled to wasm in the same binary as the core it calls.
//!
//! The modules at this level are plain Rust (the check of the editor's text
//! and when it runs, completion and hover at its places, the copy of that
//! text that follows its edits, examples, addresses, the embed code,
//! Markdown, wording), tested natively with the rest of the workspace. [`ui`] holds
//! the components and the browser bridge; it is built with the `web`
//! feature, which Trunk turns on.

pub mod assist;
pub mod checker;
pub mod embed_code;
pub mod examples;
pub mod files;
pub mod format;
pub mod link;
pub mod markdown;
pub mod mirror;
pub mod route;
pub mod schedule;
pub mod storage;

#[cfg(feature = "web")]
pub mod ui;
