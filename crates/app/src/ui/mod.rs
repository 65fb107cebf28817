//! The components and the bridge to the browser. `app` wires them; each
//! panel and concern is its own module.
//!
//! The document session (`session`: which document the editor holds and
//! where it came from, the address that follows it) is above the drafts
//! (`drafts`: the kept work, its autosave and locks), which are above the
//! browser's storage (`storage`); `document` is the document state they
//! all read. The menus and the notice (`share`, `drafts_menu`, `notices`)
//! sit on the session.

pub mod app;
pub mod compare;
pub mod diagnostics;
pub mod document;
pub mod drafts;
pub mod drafts_menu;
pub mod editor;
pub mod export;
pub mod files;
pub mod header;
pub mod keys;
pub mod markdown;
pub mod notices;
pub mod panels;
pub mod panic;
pub mod popover;
pub mod registry;
pub mod rules_panel;
pub mod session;
pub mod share;
pub mod split;
pub mod storage;
pub mod tab_strip;
pub mod theme;
pub mod toolbar;
pub mod trust_banner;
