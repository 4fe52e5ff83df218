//! Move text: the syntax alone (`san::parse_text`), then the text read as
//! a move against a few positions of every variant (`Position::parse_move`):
//! errors point into the text; a move read writes back to itself, plays,
//! and leaves the position as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use postal::{Position, Variant};
use std::sync::OnceLock;

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        Variant::ALL
            .iter()
            .flat_map(|&v| checks::sample_positions(v, root))
            .collect()
    })
}

fuzz_target!(|text: &str| {
    checks::move_syntax(text);
    for pos in positions() {
        checks::move_in(pos, text);
    }
});
