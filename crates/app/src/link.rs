//! Share links as the playground uses them: the document in the address's
//! fragment (`#pako:…`, written and read by `opb-share`), with the panel it
//! shows as the share's `view`, and the plain route fragments (`#rules/…`)
//! the tabs use.

use crate::route::Route;
use opb_core::Kind;
use opb_share::{Scheme, Share, ShareError};

/// The longest link the page offers: longer ones break in chat tools, mail
/// clients and some browsers' address bars.
pub const MAX_LINK_CHARS: usize = 8_000;

/// Texts over this many bytes are not packed at all. A link of
/// [`MAX_LINK_CHARS`] holds about 6 KB of deflated data, so such a text
/// would need a compression ratio of 40 to 1, which no real document has;
/// and deflating it on every edit would slow typing in large documents.
pub const MAX_PACKED_TEXT: usize = 256 * 1024;

/// What an address's fragment holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fragment {
    /// A panel of the page (`#diagnostics`, `#rules/PB213`, or nothing).
    Route(Route),
    /// A shared document.
    Share(Share),
    /// A share link that could not be opened.
    Broken(ShareError),
}

impl Fragment {
    /// Reads `location.hash` (with or without its `#`).
    pub fn read(hash: &str) -> Fragment {
        let fragment = hash.strip_prefix('#').unwrap_or(hash);
        if !opb_share::is_share(fragment) {
            return Fragment::Route(Route::from_hash(fragment));
        }
        match opb_share::decode(fragment) {
            Ok(share) => Fragment::Share(share),
            Err(error) => Fragment::Broken(error),
        }
    }
}

/// The panel a share names, if any: one that names none opens on the tab
/// that matters for its document ([`Route::first_view`]).
pub fn route_of(share: &Share) -> Option<Route> {
    share.view.as_deref().map(Route::from_hash)
}

/// Why no link is offered for a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoLink {
    /// The link would be `chars` characters long (a lower bound when the
    /// text was too large to pack at all).
    TooLong { chars: usize },
}

/// The fragment (`#pako:…`) for a document shown on `route` (none: the tab
/// was not chosen), when its link after `base` stays within
/// [`MAX_LINK_CHARS`].
pub fn fragment_for(
    base: &str,
    text: &str,
    kind: Option<Kind>,
    route: Option<&Route>,
) -> Result<String, NoLink> {
    unpacked(base, text.len())?;
    let view = route.and_then(Route::view);
    let share = Share { code: text.to_owned(), kind, view };
    // Under MAX_PACKED_TEXT the JSON is far within the core's input limit,
    // the only reason encoding fails.
    let fragment = opb_share::encode(&share, Scheme::Pako)
        .map_err(|_| NoLink::TooLong { chars: base.len() + text.len() })?;
    let chars = base.len() + fragment.len();
    if chars > MAX_LINK_CHARS {
        return Err(NoLink::TooLong { chars });
    }
    Ok(fragment)
}

/// Refuses a text of at least `size` bytes without packing it when it is
/// over [`MAX_PACKED_TEXT`]; the length said is an estimate.
pub fn unpacked(base: &str, size: usize) -> Result<(), NoLink> {
    if size > MAX_PACKED_TEXT {
        return Err(NoLink::TooLong { chars: base.len() + size / 40 });
    }
    Ok(())
}

/// A page address without its fragment.
pub fn without_fragment(href: &str) -> &str {
    href.split_once('#').map_or(href, |(base, _)| base)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://opb.example/";

    #[test]
    fn routes_and_shares_are_told_apart() {
        assert_eq!(Fragment::read(""), Fragment::Route(Route::Diagnostics));
        assert_eq!(
            Fragment::read("#rules/PB213"),
            Fragment::Route(Route::Rules(Some("PB213".into())))
        );
        assert_eq!(
            Fragment::read("#pako:@@@"),
            Fragment::Broken(opb_share::decode("pako:@@@").unwrap_err())
        );
        assert!(matches!(
            Fragment::read("#gzip:abc"),
            Fragment::Broken(ShareError::UnknownScheme { .. })
        ));
    }

    #[test]
    fn a_fragment_opens_the_same_document_on_the_same_panel() {
        let route = Route::Rules(Some("PB213".into()));
        let fragment = fragment_for(BASE, "id: x\n", Some(Kind::Playbook), Some(&route))
            .expect("a short link");
        assert!(fragment.starts_with("#pako:"));
        let Fragment::Share(share) = Fragment::read(&fragment) else { panic!("a share") };
        assert_eq!(share.code, "id: x\n");
        assert_eq!(share.kind, Some(Kind::Playbook));
        assert_eq!(route_of(&share), Some(route));
    }

    #[test]
    fn a_tab_not_chosen_is_not_written() {
        let fragment = fragment_for(BASE, "a: 1", None, None).expect("a short link");
        let Fragment::Share(share) = Fragment::read(&fragment) else { panic!("a share") };
        assert_eq!(share.view, None);
        assert_eq!(route_of(&share), None);
        let chosen = fragment_for(BASE, "a: 1", None, Some(&Route::Diagnostics)).expect("short");
        let Fragment::Share(share) = Fragment::read(&chosen) else { panic!("a share") };
        assert_eq!(route_of(&share), Some(Route::Diagnostics));
    }

    #[test]
    fn long_links_are_refused_with_their_length() {
        // Pseudo-random text barely compresses.
        let mut seed = 1u64;
        let text: String = (0..12_000)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8 % 26)
            })
            .collect();
        match fragment_for(BASE, &text, None, None) {
            Err(NoLink::TooLong { chars }) => assert!(chars > MAX_LINK_CHARS, "{chars}"),
            Ok(fragment) => panic!("a link of {} characters", fragment.len()),
        }
        let huge = "x".repeat(MAX_PACKED_TEXT + 1);
        assert!(fragment_for(BASE, &huge, None, None).is_err());
    }

    #[test]
    fn fragments_are_cut_from_addresses() {
        assert_eq!(
            without_fragment("https://a.example/?embed=1#pako:x"),
            "https://a.example/?embed=1"
        );
        assert_eq!(without_fragment("https://a.example/"), "https://a.example/");
    }
}
