//! The components and the bridge to the browser. `app` wires them; each
//! panel and concern is its own module.

pub mod app;
pub mod compare;
pub mod diagnostics;
pub mod editor;
pub mod header;
pub mod markdown;
pub mod panels;
pub mod panic;
pub mod registry;
pub mod rules_panel;
pub mod share;
pub mod split;
pub mod toolbar;
