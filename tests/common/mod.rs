//! Helpers shared by the integration test binaries (`mod common;` in each):
//! the binary, positions and squares from text, moves played by text, the
//! legal moves as text. Each binary uses some of them.
#![allow(dead_code)]

pub mod dovecot;
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
