//! Any bytes as a share link. A link that opens writes back to a link that
//! opens to the same share, and its document goes through the playground's
//! path (check and explain, with the link's kind).
#![no_main]

use libfuzzer_sys::fuzz_target;
use opb_share::{decode, encode, Scheme};

fuzz_target!(|bytes: &[u8]| {
    let link = opb_fuzz::text(bytes);
    let Ok(share) = decode(&link) else { return };
    for scheme in [Scheme::Pako, Scheme::Base64] {
        let again = encode(&share, scheme).map(|written| decode(&written));
        assert_eq!(again, Ok(Ok(share.clone())), "{scheme:?} round trip");
    }
    opb_fuzz::analyze_holds(&share.code, None, share.kind);
});
