//! The document a page's address carries (`#pako:…`, the playground's share
//! link), read by opb-share as the playground reads it: for the embed page
//! (the `embed` feature, [`read_link`]) and the playground's reading view
//! (`link`: [`unpack_link`], the browser's own zlib, then [`read_share`], so
//! its wasm holds no inflater, about 7 KB gzipped).

use opb_core::Limits;
use wasm_bindgen::prelude::*;

/// A document a share link carries, for the embed page or the reading
/// view to show.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct Shared {
    /// The document's text.
    pub code: String,
    /// `playbook` or `plugin-manifest`, when the sender chose.
    pub kind: Option<String>,
    /// The tab to open: the panel the link's sender had open, when the
    /// viewer has it (`requires`, `diagnostics`, …).
    pub tab: Option<String>,
}

/// What an embed says when its address carries no document.
#[cfg(feature = "embed")]
const NO_DOCUMENT: &str = "This embed's address carries no document: its fragment should start with `#pako:` (copy the embed code from the playground's Share menu), or the page embedding it can send one.";

impl From<opb_share::Share> for Shared {
    fn from(share: opb_share::Share) -> Shared {
        Shared {
            code: share.code,
            kind: share.kind.map(|kind| kind.as_str().to_owned()),
            tab: share.view.and_then(|view| view.split('/').next().map(str::to_owned)),
        }
    }
}

/// The document an embed's address carries (`location.hash`, with or
/// without its `#`); thrown, why there is none.
#[cfg(feature = "embed")]
#[wasm_bindgen(js_name = readLink)]
pub fn read_link(hash: &str) -> Result<Shared, String> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    if !opb_share::is_share(fragment) {
        return Err(NO_DOCUMENT.to_owned());
    }
    opb_share::decode(fragment).map(Shared::from).map_err(|error| error.to_string())
}

/// A link's data, decoded from its base64url (`location.hash`, with or
/// without its `#`): the share's JSON, or its zlib stream when `deflated`,
/// which the page inflates to at most [`max_bytes`] before [`read_share`].
#[wasm_bindgen(getter_with_clone)]
pub struct Unpacked {
    pub deflated: bool,
    pub data: Vec<u8>,
}

/// Opens a share link as far as its zlib stream; thrown, why it cannot be.
#[wasm_bindgen(js_name = unpackLink)]
pub fn unpack_link(hash: &str) -> Result<Unpacked, String> {
    let unpacked = opb_share::unpack(hash, max_bytes()).map_err(|error| error.to_string())?;
    Ok(Unpacked { deflated: unpacked.scheme == opb_share::Scheme::Pako, data: unpacked.data })
}

/// The most bytes a link's data may unpack to: the core's input limit.
#[wasm_bindgen(js_name = maxBytes)]
pub fn max_bytes() -> usize {
    Limits::default().max_bytes
}

/// The share a link's unpacked JSON holds; thrown, why it is none.
#[wasm_bindgen(js_name = readShare)]
pub fn read_share(json: Vec<u8>) -> Result<Shared, String> {
    opb_share::read(json).map(Shared::from).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "embed")]
    fn an_address_carries_a_document_or_says_why_not() {
        let share = opb_share::Share {
            code: "steps: []\n".into(),
            kind: None,
            view: Some("rules/PB213".into()),
        };
        let link = opb_share::encode(&share, opb_share::Scheme::Pako).unwrap();
        let read = read_link(&link).unwrap();
        assert_eq!(
            (read.code.as_str(), read.kind, read.tab.as_deref()),
            ("steps: []\n", None, Some("rules"))
        );
        assert!(read_link("").err().unwrap().contains("carries no document"));
        assert!(read_link("#diagnostics").err().unwrap().contains("carries no document"));
        assert!(read_link("#pako:eNrLSM3JyQcABiwCF").is_err());
    }

    #[test]
    fn a_link_unpacked_and_read_is_the_share_it_carries() {
        let share = opb_share::Share {
            code: "steps: []\n".into(),
            kind: Some(opb_core::Kind::Playbook),
            view: Some("requires".into()),
        };
        let plain = opb_share::encode(&share, opb_share::Scheme::Base64).unwrap();
        let unpacked = unpack_link(&plain).unwrap();
        assert!(!unpacked.deflated);
        let read = read_share(unpacked.data).unwrap();
        assert_eq!(
            (read.code.as_str(), read.kind.as_deref(), read.tab.as_deref()),
            ("steps: []\n", Some("playbook"), Some("requires"))
        );
        assert!(
            unpack_link(&opb_share::encode(&share, opb_share::Scheme::Pako).unwrap())
                .unwrap()
                .deflated
        );
        assert!(
            unpack_link("#pako:a%b").err().unwrap().contains("`%`"),
            "{}",
            unpack_link("#pako:a%b").err().unwrap()
        );
        assert!(read_share(b"[]".to_vec()).err().unwrap().contains("not a JSON object"));
    }
}
