//! Any bytes through parse, check, explain and the graph layout (the
//! viewer's path), with the kind detected and forced either way; the
//! explain view must serialise and the drawing hold together.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = opb_fuzz::text(bytes);
    for kind in opb_fuzz::KINDS {
        opb_fuzz::analyze_holds(&text, None, kind);
    }
});
