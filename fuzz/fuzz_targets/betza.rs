//! The Betza movement reader (`movement::parse_betza`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| checks::betza(text));
