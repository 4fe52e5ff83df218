//! The variants.ini reader (`variant::ini::load`) and the positions and
//! moves of what it loads.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| checks::variants_ini(text));
