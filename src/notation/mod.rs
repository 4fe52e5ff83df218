//! Text forms: squares, moves (SAN, long algebraic and the variants'
//! forms, [`dialect()`]), position text. Everything written here reads back
//! to the same value.
//!
//! The text methods of [`Position`] (`start`, `from_text`, `to_text`,
//! `parse_move`, `move_text`) are defined here, not beside the rules, so
//! that the rules never name the notation (DESIGN.md, "Layers").

pub mod dialect;
pub mod fen;
pub mod language;
pub mod movetext;
pub mod plain;
pub mod san;
pub mod square;

pub use dialect::{dialect, divide, Dialect};

use crate::error::{MoveError, ParseError};
use crate::mv::Move;
use crate::position::Position;
use crate::variant::Variant;

impl Position {
    /// The variant's start position (its `Spec::start` text).
    pub fn start(variant: Variant) -> Position {
        // Read from its text once, then copied.
        static STARTS: [std::sync::OnceLock<Position>; 7] =
            [const { std::sync::OnceLock::new() }; 7];
        if let Some(d) = variant.defined() {
            return d.position(d.def.start());
        }
        STARTS[variant.built_in_index().unwrap_or_default()]
            .get_or_init(|| {
                let spec = variant.spec();
                fen::read(variant, spec.start)
                    .unwrap_or_else(|e| panic!("start position of {}: {e}", spec.name))
            })
            .clone()
    }

    /// Reads a move in any accepted notation and resolves it to a legal move.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        san::parse_move(self, text)
    }

    /// The move in this variant's canonical notation, with `+`/`#`.
    pub fn move_text(&self, mv: &Move) -> String {
        san::write_move(self, mv)
    }

    /// Several moves of this position in canonical notation: the same
    /// texts as [`Position::move_text`], faster for a long list.
    pub fn move_texts(&self, moves: &[Move]) -> Vec<String> {
        san::write_moves(self, moves)
    }

    /// The position text (FEN for chess).
    pub fn to_text(&self) -> String {
        fen::write(self)
    }

    pub fn from_text(variant: Variant, text: &str) -> Result<Position, ParseError> {
        fen::read(variant, text)
    }
}
