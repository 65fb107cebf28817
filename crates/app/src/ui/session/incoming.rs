//! A document to put in the editor, from where it came: a link, a draft,
//! an example or a file.

use crate::format::renamed;
use crate::ui::drafts::opening::Resumed;
use opb_core::{Kind, Syntax};

/// A document to put in the editor.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub text: String,
    pub name: String,
    pub kind: Option<Kind>,
    pub edited: bool,
    /// The selection to restore (a draft's), or none for the start.
    pub selection: Option<(u32, u32)>,
}

impl Incoming {
    /// A document opened from where it came from (an example, a file).
    pub fn opened(text: String, name: String) -> Incoming {
        Incoming { text, name, kind: None, edited: false, selection: None }
    }

    /// A draft: the reader's work.
    pub(super) fn draft(resumed: Resumed) -> Incoming {
        let meta = resumed.meta;
        Incoming {
            text: resumed.text,
            name: meta.name,
            kind: meta.kind,
            edited: true,
            selection: Some(meta.selection),
        }
    }

    /// A shared document, named after its syntax.
    pub(super) fn shared(share: opb_share::Share) -> Incoming {
        let name = renamed("shared", Syntax::sniff(&share.code));
        Incoming { text: share.code, name, kind: share.kind, edited: false, selection: None }
    }
}
