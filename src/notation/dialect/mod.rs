//! Each variant's text: the [`Dialect`] trait, the per-variant hooks that
//! turn move text into moves and back, read and write a position text's
//! extra fields, and name the moves of `perft --divide`. Generic SAN and
//! FEN are the defaults; the rules know no text (DESIGN.md, "Layers").

pub mod building;
pub mod corral;
pub mod disintegration;
pub mod kristensen;
pub mod swap;

use super::san::{self, MoveText};
use crate::error::MoveError;
use crate::mv::{Move, MoveKind};
use crate::piece::Role;
use crate::position::Position;
use crate::variant::Variant;

/// A variant's text forms. Defaults: SAN among the legal moves, no extra
/// position-text fields, `divide` by legal move.
pub trait Dialect: Sync {
    /// Resolves a parsed move text to a legal move ([`san::resolve`]).
    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        san::resolve(pos, text)
    }

    /// The move in canonical notation, without check mark.
    fn write_move(&self, pos: &Position, mv: &Move) -> String {
        let rivals = match mv {
            // Castling and a pawn's move (carrying nothing) are written
            // without telling them from other moves (`san::write_san`);
            // but for a defined variant's pawns, which may step aside
            // onto a square another steps onto (Breakthrough's).
            Move::Piece(m)
                if matches!(m.kind, MoveKind::Castle { .. })
                    || (m.role == Role::Pawn
                        && m.carried.is_empty()
                        && pos.variant.defined().is_none()) =>
            {
                Vec::new()
            }
            // SAN tells a move only from those of its kind onto its square,
            // where the rules can list those alone.
            Move::Piece(m) => pos
                .variant
                .rules()
                .legal_moves_to(pos, m.role, m.to)
                .unwrap_or_else(|| pos.legal_moves()),
            Move::Swap(_) => pos.legal_moves(),
        };
        san::write_san(pos, mv, &rivals)
    }

    /// Several moves of one position, each as [`Dialect::write_move`]
    /// writes it. A variant with many turns a position (Building Chess)
    /// writes them all from one generation of its legal moves.
    fn write_moves(&self, pos: &Position, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| self.write_move(pos, m)).collect()
    }

    /// Extra position-text fields after the FEN ones.
    fn extra_fields(&self, _pos: &Position) -> Vec<String> {
        Vec::new()
    }

    /// Reads the extra fields written by [`Dialect::extra_fields`].
    fn read_extra_fields(&self, _pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        match fields.first() {
            None => Ok(()),
            Some(f) => Err(format!("unexpected field {f:?}")),
        }
    }

    /// Perft split by first move: each legal move in the variant's
    /// notation with its count `depth` turns deep (depth 1 counts each
    /// move once). Variants whose turns are too many to list (Swap Chess)
    /// group them.
    fn divide(&self, pos: &Position, depth: u32) -> Vec<(String, u64)> {
        divide_moves(pos, &pos.legal_moves(), depth)
    }
}

/// FIDE chess and Gardner minichess: the defaults.
pub struct Fide;

impl Dialect for Fide {}

/// The dialect of a variant.
pub fn dialect(variant: Variant) -> &'static dyn Dialect {
    match variant {
        // A defined variant is written as FIDE chess is: SAN.
        Variant::Chess | Variant::Gardner | Variant::Defined(_) => &Fide,
        Variant::Swap => &swap::SwapDialect,
        Variant::Building => &building::BuildingDialect,
        Variant::Corral => &corral::CorralDialect,
        Variant::Disintegration => &disintegration::DisintegrationDialect,
        Variant::Kristensen => &kristensen::KristensenDialect,
    }
}

/// Each of `moves` in the variant's notation with its perft count
/// `depth` turns deep (1 for each at depth 1).
pub fn divide_moves(pos: &Position, moves: &[Move], depth: u32) -> Vec<(String, u64)> {
    moves
        .iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                crate::perft::perft(&pos.play_unchecked(m), depth - 1)
            };
            (pos.move_text(m), n)
        })
        .collect()
}

/// Perft split by first move, in the variant's notation (`perft --divide`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    dialect(pos.variant).divide(pos, depth)
}
