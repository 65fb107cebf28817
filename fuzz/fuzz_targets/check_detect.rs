//! Any bytes, checked as the CLI and the playground do by default (syntax
//! sniffed, kind detected), and with the kind forced either way.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = opb_fuzz::text(bytes);
    for kind in opb_fuzz::KINDS {
        opb_fuzz::check_holds(&text, None, kind);
    }
});
