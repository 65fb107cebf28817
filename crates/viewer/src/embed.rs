//! The embed page's part of the viewer (the `embed` feature, the page's
//! own build): the document its address carries and the messages of the
//! page that frames it, both read by opb-share as the playground reads them.

use opb_share::embed::{read_message, BadMessage, HostMessage};
use wasm_bindgen::prelude::*;

/// A document for the embed to show.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct Embedded {
    /// The document's text.
    pub code: String,
    /// `playbook` or `plugin-manifest`, when the sender chose.
    pub kind: Option<String>,
    /// The tab to open: the panel the link's sender had open, when the
    /// viewer has it (`requires`, `diagnostics`, …).
    pub tab: Option<String>,
}

/// What an embed says when its address carries no document.
const NO_DOCUMENT: &str = "This embed's address carries no document: its fragment should start with `#pako:` (copy the embed code from the playground's Share menu), or the page embedding it can send one.";

/// The document an embed's address carries (`location.hash`, with or
/// without its `#`); thrown, why there is none.
#[wasm_bindgen(js_name = readLink)]
pub fn read_link(hash: &str) -> Result<Embedded, String> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    if !opb_share::is_share(fragment) {
        return Err(NO_DOCUMENT.to_owned());
    }
    let share = opb_share::decode(fragment).map_err(|error| error.to_string())?;
    Ok(Embedded {
        code: share.code,
        kind: share.kind.map(|kind| kind.as_str().to_owned()),
        tab: share.view.and_then(|view| view.split('/').next().map(str::to_owned)),
    })
}

/// What a message of the host page asks.
#[wasm_bindgen(getter_with_clone)]
#[derive(Default)]
pub struct Asked {
    /// A document to show, when the message sends one.
    pub document: Option<Embedded>,
    /// `light`, `dark` or `auto`, when the message sets the theme.
    pub theme: Option<String>,
    /// Why the message was not taken, to answer the host with; neither
    /// this nor the others for another script's message.
    pub error: Option<String>,
}

/// Reads a message the host page posted: its data as JSON text.
#[wasm_bindgen(js_name = hostMessage)]
pub fn host_message(data: &str) -> Asked {
    let value = serde_json::from_str(data).unwrap_or_default();
    match read_message(&value) {
        Ok(HostMessage::SetDocument(set)) => Asked {
            document: Some(Embedded { code: set.code, kind: set.kind.map(|kind| kind.as_str().to_owned()), tab: None }),
            ..Asked::default()
        },
        Ok(HostMessage::SetTheme(theme)) => Asked { theme: Some(theme.as_str().to_owned()), ..Asked::default() },
        Err(BadMessage::NotOurs) => Asked::default(),
        Err(BadMessage::Invalid(why)) => Asked { error: Some(why), ..Asked::default() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_carries_a_document_or_says_why_not() {
        let share = opb_share::Share { code: "steps: []\n".into(), kind: None, view: Some("rules/PB213".into()) };
        let link = opb_share::encode(&share, opb_share::Scheme::Pako).unwrap();
        let read = read_link(&link).unwrap();
        assert_eq!((read.code.as_str(), read.kind, read.tab.as_deref()), ("steps: []\n", None, Some("rules")));
        assert!(read_link("").err().unwrap().contains("carries no document"));
        assert!(read_link("#diagnostics").err().unwrap().contains("carries no document"));
        assert!(read_link("#pako:eNrLSM3JyQcABiwCF").is_err());
    }

    #[test]
    fn a_host_message_is_taken_ignored_or_answered() {
        let document = host_message(r#"{"type": "opb:set-document", "code": "a: 1", "kind": "plugin-manifest"}"#).document.unwrap();
        assert_eq!((document.code.as_str(), document.kind.as_deref()), ("a: 1", Some("plugin-manifest")));
        assert_eq!(host_message(r#"{"type": "opb:set-theme", "theme": "Dark"}"#).theme.as_deref(), Some("dark"));
        let other = host_message(r#"{"type": "other"}"#);
        assert!(other.document.is_none() && other.theme.is_none() && other.error.is_none());
        assert!(host_message(r#""hello""#).error.unwrap().contains("not a string"));
        assert!(host_message("not json").error.is_some(), "what is no JSON reads as null, and is refused");
    }
}
