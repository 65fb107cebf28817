//! Any bytes, checked as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use opb_core::Syntax;

fuzz_target!(|bytes: &[u8]| {
    opb_fuzz::check_holds(&opb_fuzz::text(bytes), Some(Syntax::Json), None);
});
