//! The embed page's part of the viewer (the `embed` feature, the page's
//! own build): the messages of the page that frames it, read by opb-share
//! as the playground reads them. The document its address carries is read
//! by [`crate::link`].

use crate::link::Shared;
use opb_share::host::{read_message, BadMessage, HostMessage};
use wasm_bindgen::prelude::*;

/// What a message of the host page asks.
#[wasm_bindgen(getter_with_clone)]
#[derive(Default)]
pub struct Asked {
    /// A document to show, when the message sends one.
    pub document: Option<Shared>,
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
            document: Some(Shared::from(opb_share::Share {
                code: set.code,
                kind: set.kind,
                view: None,
            })),
            ..Asked::default()
        },
        Ok(HostMessage::SetTheme(theme)) => {
            Asked { theme: Some(theme.as_str().to_owned()), ..Asked::default() }
        }
        Err(BadMessage::NotOurs) => Asked::default(),
        Err(BadMessage::Invalid(why)) => Asked { error: Some(why), ..Asked::default() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_message_is_taken_ignored_or_answered() {
        let document = host_message(
            r#"{"type": "opb:set-document", "code": "a: 1", "kind": "plugin-manifest"}"#,
        )
        .document
        .unwrap();
        assert_eq!(
            (document.code.as_str(), document.kind.as_deref()),
            ("a: 1", Some("plugin-manifest"))
        );
        assert_eq!(
            host_message(r#"{"type": "opb:set-theme", "theme": "Dark"}"#).theme.as_deref(),
            Some("dark")
        );
        let other = host_message(r#"{"type": "other"}"#);
        assert!(other.document.is_none() && other.theme.is_none() && other.error.is_none());
        assert!(host_message(r#""hello""#).error.unwrap().contains("not a string"));
        assert!(
            host_message("not json").error.is_some(),
            "what is no JSON reads as null, and is refused"
        );
    }
}
