//! Any bytes through parse, check and explain (the viewer's path), with the
//! kind detected and forced either way; the explain view must serialise.
//! The graph layout joins this target when the core has one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = opb_fuzz::text(bytes);
    for kind in opb_fuzz::KINDS {
        opb_fuzz::analyze_holds(&text, None, kind);
    }
});
