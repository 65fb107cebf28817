//! Sharing and keeping documents: share links and the address that follows
//! the document, the trust banner, the embed code (the embed page and the
//! `<opb-viewer>` element are the viewer's build, crates/viewer), drafts and
//! storage, files, pictures of the graph, themes.

pub mod banner;
pub mod drafts;
pub mod drafts_menu;
pub mod export;
pub mod files;
pub mod idb;
pub mod links;
pub mod menu;
pub mod notices;
pub mod popover;
pub mod store;
pub mod theme;
