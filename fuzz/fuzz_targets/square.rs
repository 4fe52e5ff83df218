//! Square names (`notation::square::parse_square`): a square read writes
//! back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| checks::square_name(text));
