//! Share links: a document carried in a page address's fragment, so sharing
//! it needs no server and the text never leaves the reader's browser.
//!
//! Two schemes, after the `#`:
//! - `pako:` and the base64url of the zlib-deflated (level 9) UTF-8 JSON of
//!   `{"code": "<text>", "kind": "playbook" | "plugin-manifest", "view": "…"}`
//!   (`kind` and `view` optional), the form the playground writes;
//! - `base64:` and the base64url of the same JSON, uncompressed.
//!
//! Links come from strangers, so [`decode`] treats every one as hostile: the
//! unpacked data is capped at the core's input limit (a "zip bomb" stops at
//! the cap, the output grows only as far as it), and every way a link can be
//! broken is a [`ShareError`] whose message says what to do.

mod decode;
mod error;
pub mod host;

pub use decode::{decode, decode_with_limit, read, unpack, Unpacked};
pub use error::{Base64Problem, ShareError};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use opb_syntax::{Kind, Limits};

/// What a share link carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The document's text.
    pub code: String,
    /// The kind the sender chose, when they chose one.
    pub kind: Option<Kind>,
    /// Which panel the sender had open; the app decides what it means.
    pub view: Option<String>,
}

/// Whether an address's fragment (without its `#`) is a share link: a
/// `scheme:` before any `/`. The playground's own fragments (`#rules/PB213`)
/// never hold a colon there.
pub fn is_share(fragment: &str) -> bool {
    fragment.split('/').next().is_some_and(|head| head.contains(':'))
}

/// How a link's data is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// zlib-deflated, then base64url: short links.
    Pako,
    /// Plain base64url of the JSON.
    Base64,
}

impl Scheme {
    /// The word before the colon in the fragment.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Pako => "pako",
            Scheme::Base64 => "base64",
        }
    }
}

/// The fragment of a share link for `share`, `#` included, to put after the
/// page's address.
///
/// Fails with [`ShareError::TooLarge`] when the JSON is over the core's input
/// limit: [`decode`] would refuse such a link, so none is made.
pub fn encode(share: &Share, scheme: Scheme) -> Result<String, ShareError> {
    encode_with_limit(share, scheme, Limits::default().max_bytes)
}

/// [`encode`] under another limit on the JSON's size, in bytes.
pub fn encode_with_limit(
    share: &Share,
    scheme: Scheme,
    max_bytes: usize,
) -> Result<String, ShareError> {
    let json = payload_json(share);
    if json.len() > max_bytes {
        return Err(ShareError::TooLarge { limit: max_bytes });
    }
    let data = match scheme {
        Scheme::Pako => {
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 9))
        }
        Scheme::Base64 => URL_SAFE_NO_PAD.encode(json.as_bytes()),
    };
    Ok(format!("#{}:{data}", scheme.as_str()))
}

fn payload_json(share: &Share) -> String {
    let mut object = serde_json::Map::new();
    object.insert("code".into(), share.code.clone().into());
    if let Some(kind) = share.kind {
        object.insert("kind".into(), kind.as_str().into());
    }
    if let Some(view) = &share.view {
        object.insert("view".into(), view.clone().into());
    }
    serde_json::Value::Object(object).to_string()
}
