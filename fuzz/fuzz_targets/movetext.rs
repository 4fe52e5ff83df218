//! Movetext (`notation::movetext::play`) from the start of every variant:
//! errors point into the text; the position reached round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use postal::Position;
use std::sync::OnceLock;

fuzz_target!(|text: &str| {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    for start in STARTS.get_or_init(checks::starts) {
        checks::movetext_from(start, text);
    }
});
