//! The fast line: a line of play of FIDE chess or Gardner minichess on
//! the bitboards (`super::bits`), for the callers that replay many plain
//! moves (the record verifier's lane, a state file's replay). It is what
//! [`Capability::fast_line`](crate::variant::Capability::fast_line) hands back, so
//! that no module outside the variants names the bitboards.
//!
//! It decides exactly what the general rules decide for the moves it
//! plays (`tests/capability.rs` and the bitboards' own tests compare the
//! two); what it cannot decide (a move it does not find once, a position
//! it cannot hold) is left to the general path by returning `None`.

use super::bits::{self, BitMove, Bits, Found};
use crate::color::Color;
use crate::mv::{MovePattern, PieceMove};
use crate::position::{CheckMark, Outcome, Position};

/// A position of a line played on the bitboards: a small copyable value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FastLine(Bits);

/// A legal move found on a [`FastLine`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FastMove(BitMove);

impl FastLine {
    /// The line at `pos`, when the bitboards can hold it (FIDE chess on
    /// its whole 8x8 board, Gardner minichess on its 5x5, single FIDE
    /// pieces and one king a side).
    pub fn new(pos: &Position) -> Option<FastLine> {
        Bits::from_position(pos).map(FastLine)
    }

    pub fn turn(&self) -> Color {
        self.0.turn
    }

    pub fn fullmove(&self) -> u32 {
        self.0.fullmove
    }

    /// The one legal move `pattern` names and the line after it; `None`
    /// when it names none or several (the general path then says which).
    /// A pawn's move named by both coordinates (`e2e4`) is a coordinate
    /// move, which the general path reads and notes: none here.
    pub fn play(&self, pattern: &MovePattern) -> Option<(FastMove, FastLine)> {
        match self.find(pattern) {
            Found::One(m, after) => Some((FastMove(m), FastLine(after))),
            _ => None,
        }
    }

    /// Whether `pattern` names exactly one legal move (the writer's
    /// disambiguation asks it).
    pub fn names_one(&self, pattern: &MovePattern) -> bool {
        matches!(self.find(pattern), Found::One(..))
    }

    fn find(&self, pattern: &MovePattern) -> Found {
        match *pattern {
            MovePattern::Castle { long } => self.0.castle(long),
            MovePattern::Piece {
                role,
                to,
                from_file,
                from_rank,
                promotion,
            } => {
                if role == crate::piece::Role::Pawn && from_file.is_some() && from_rank.is_some() {
                    return Found::None;
                }
                match bits::index(to) {
                    Some(to) => self.0.find(role, to, from_file, from_rank, promotion),
                    None => Found::None,
                }
            }
        }
    }

    /// Whether the game is over here by a rule that leaves legal moves:
    /// seventy-five moves without capture or pawn move, or a dead position
    /// (FI-5, GA-4). A mate or stalemate has no legal move to find, and
    /// repetitions are the game's to count.
    pub fn ended_with_moves(&self) -> bool {
        crate::position::seventy_five_moves(self.0.halfmove, "FI-5").is_some() || self.0.is_dead()
    }

    /// Whether the side to move is in check, and if so mated.
    pub fn check(&self) -> Option<CheckMark> {
        if !self.0.in_check() {
            None
        } else if self.0.has_legal_move() {
            Some(CheckMark::Check)
        } else {
            Some(CheckMark::Mate)
        }
    }

    /// The end decided by the position alone, as `Rules::outcome` decides it.
    pub fn outcome(&self) -> Option<Outcome> {
        super::outcome_of(&self.0)
    }

    /// Writes the position into `pos`, a position of the same variant on
    /// the same board (the one this line started from, or one like it),
    /// reusing its board's arrays.
    pub fn write_into(&self, pos: &mut Position) {
        self.0.write_into(pos);
    }

    /// The move as the general rules name it.
    pub fn piece_move(&self, m: &FastMove) -> PieceMove {
        self.0.piece_move(&m.0)
    }

    /// Whether the move takes a piece (en passant included).
    pub fn captures(&self, m: &FastMove) -> bool {
        self.0.captures(&m.0)
    }
}
