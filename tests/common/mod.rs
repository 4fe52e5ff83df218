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

/// Fairy-Stockfish's own variants.ini, which `.ci/run` fetches from
/// Debian's mirror (GPL-3: never part of postal) and names in
/// `FAIRY_STOCKFISH_INI`. Under CI a missing file fails the test; else
/// `None`, and the test skips, saying why.
pub fn fairy_stockfish_ini() -> Option<std::path::PathBuf> {
    let Some(path) = std::env::var_os("FAIRY_STOCKFISH_INI") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "FAIRY_STOCKFISH_INI is unset: .ci/run fetches Fairy-Stockfish's variants.ini and sets it"
        );
        eprintln!(
            "skipped: FAIRY_STOCKFISH_INI does not name Fairy-Stockfish's variants.ini \
             (.ci/run fetches it from Debian's mirror and sets it)"
        );
        return None;
    };
    Some(path.into())
}
