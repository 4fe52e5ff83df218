//! Helpers shared by the integration test binaries (`mod common;` in each):
//! the binary, positions and squares from text, moves played by text, the
//! legal moves as text. Each binary uses some of them.
#![allow(dead_code)]

pub mod dovecot;
pub mod imap_run;
pub mod smtp;

use assert_cmd::Command;
use postal::{Effects, Position, Square, Variant};

/// The `postal` binary.
pub fn postal() -> Command {
    Command::cargo_bin("postal").expect("binary built")
}

/// A position of `variant` from its text; panics naming the text.
pub fn pos(variant: Variant, text: &str) -> Position {
    Position::from_text(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A square by name (`e4`, `(0,3)`, `prison`).
pub fn sq(name: &str) -> Square {
    postal::notation::square::parse_square(name).unwrap()
}

/// Plays a move given as text, checking that it reads and is legal.
pub fn play(p: &Position, text: &str) -> (Position, Effects) {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()));
    p.play_with_effects(&mv)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()))
}

/// The legal moves in canonical notation, check marks included.
pub fn texts(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| p.move_text(m)).collect()
}

/// Fairy-Stockfish's own variants.ini: `FAIRY_STOCKFISH_INI` when set,
/// else where `tests/run.sh` puts it (`target/fairy-stockfish/`, taken from
/// Debian's source package; GPL-3, so never part of postal). A missing file
/// fails the test, saying how to get it.
pub fn fairy_stockfish_ini() -> std::path::PathBuf {
    let path = std::env::var_os("FAIRY_STOCKFISH_INI")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/fairy-stockfish/variants.ini")
        });
    assert!(
        path.is_file(),
        "{}: Fairy-Stockfish's variants.ini is missing: `bash tests/run.sh` fetches it \
         (or name a copy in FAIRY_STOCKFISH_INI)",
        path.display()
    );
    path
}
