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
    /// Resolves a parsed move text to a legal move.
    /// For a variant whose turns are the shared generator's
    /// (`Rules::shared_moves`), only the moves of the kind the text names
    /// onto the square it names are generated.
    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        if pos.variant.rules().capability().shared_moves {
            san::resolve_shared(pos, text)
        } else {
            san::resolve_in_list(pos, text, &pos.legal_moves())
        }
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
            // and so from none when no other piece of its side is of its kind.
            Move::Piece(m)
                if pos.variant.rules().capability().shared_moves && !has_another(pos, m.role) =>
            {
                Vec::new()
            }
            Move::Piece(m) if pos.variant.rules().capability().shared_moves => {
                pos.legal_piece_moves_to(m.role, m.to)
            }
            _ => pos.legal_moves(),
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

/// Has the side to move more than one piece of kind `role` (a stack
/// holding one counted as one)?
fn has_another(pos: &Position, role: Role) -> bool {
    let board = &pos.board;
    board
        .cells_of(pos.turn)
        .filter(|&i| board.cell(i).has(pos.turn, role))
        .nth(1)
        .is_some()
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
