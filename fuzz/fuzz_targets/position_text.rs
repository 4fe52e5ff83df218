//! Position text (`Position::from_text`) for every variant: errors point
//! into the text; a position read writes a text that reads back to it, and
//! each of its legal moves writes back to itself and plays.
#![no_main]

use libfuzzer_sys::fuzz_target;
use postal::Variant;

fuzz_target!(|text: &str| {
    for variant in Variant::ALL {
        if let Some(pos) = checks::position_text(variant, text) {
            for mv in pos.legal_moves().iter().take(64) {
                checks::legal_move(&pos, mv);
            }
        }
    }
});
