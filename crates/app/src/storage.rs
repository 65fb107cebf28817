//! What the playground keeps in the browser's storage, and the decisions
//! around it: which document a page opens with, and when a document being
//! replaced is kept as "previous" so opening a link never loses work.

use opb_core::Kind;
use serde::{Deserialize, Serialize};

/// Storage keys. The text is kept apart from its metadata so it is stored
/// as it is, without a JSON escape of every character of a large document.
pub mod keys {
    pub const TEXT: &str = "opb.document.text";
    pub const META: &str = "opb.document.meta";
    pub const PREVIOUS_TEXT: &str = "opb.previous.text";
    pub const PREVIOUS_META: &str = "opb.previous.meta";
    pub const THEME: &str = "opb.theme";
    /// The tool registry the document is compared with, and its name.
    pub const REGISTRY_TEXT: &str = "opb.registry.text";
    pub const REGISTRY_NAME: &str = "opb.registry.name";
}

/// What is kept beside a document's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The name the header shows.
    pub name: String,
    /// The kind the reader chose, if any.
    #[serde(default)]
    pub kind: Option<Kind>,
    /// Whether the reader changed the text since it was loaded: only then
    /// is it work that must not be lost.
    #[serde(default)]
    pub edited: bool,
}

impl Meta {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads stored metadata; anything unreadable (another version's, or
    /// edited by hand) reads as none.
    pub fn from_json(json: &str) -> Option<Meta> {
        serde_json::from_str(json).ok()
    }
}

/// A document with its metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub text: String,
    pub meta: Meta,
}

/// Whether `current`, about to be replaced by `incoming`, must be kept to be
/// restored: it is the reader's own work (edited, or a document they
/// opened) and differs from what replaces it.
pub fn worth_keeping(current: &Saved, incoming: &str) -> bool {
    current.meta.edited && !current.text.trim().is_empty() && current.text != incoming
}

/// Bytes a text takes in storage, which counts UTF-16 code units.
pub fn stored_bytes(text: &str) -> usize {
    text.encode_utf16().count() * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(text: &str, edited: bool) -> Saved {
        Saved { text: text.into(), meta: Meta { name: "a.yaml".into(), kind: None, edited } }
    }

    #[test]
    fn metadata_round_trips_and_bad_metadata_reads_as_none() {
        let meta = Meta { name: "x.json".into(), kind: Some(Kind::PluginManifest), edited: true };
        assert_eq!(Meta::from_json(&meta.to_json()), Some(meta));
        assert_eq!(Meta::from_json("{\"name\": 3}"), None);
        assert_eq!(Meta::from_json("not json"), None);
        assert_eq!(Meta::from_json("{\"name\": \"a\"}").map(|m| m.edited), Some(false));
    }

    #[test]
    fn only_edited_different_work_is_kept() {
        assert!(worth_keeping(&saved("mine", true), "theirs"));
        assert!(!worth_keeping(&saved("mine", true), "mine"));
        assert!(!worth_keeping(&saved("example", false), "theirs"));
        assert!(!worth_keeping(&saved("  \n", true), "theirs"));
    }

    #[test]
    fn storage_counts_utf16_units() {
        assert_eq!(stored_bytes("aé😀"), 8);
    }
}
