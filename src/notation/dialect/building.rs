//! Building Chess text (rules/building.md, notation): the move in SAN, a
//! space, `@` and the added square (`Nc3 @f3`), disambiguated among the
//! legal turns that add the same square.

use super::san::{explain_illegal, piece_matches, write_san, MoveText, PieceText};
use super::Dialect;
use crate::error::MoveError;
use crate::mv::Move;
use crate::piece::Role;
use crate::position::Position;
use crate::square::Square;
use crate::variant::building::{
    exposes_king, no_placement, parts, parts_to, placement_error, Part,
};
use std::collections::HashMap;

/// Building Chess text: a move with its placement.
pub struct BuildingDialect;

impl Dialect for BuildingDialect {
    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        let t = match text {
            MoveText::Piece(t) => t,
            MoveText::Castle { .. } => {
                return Err(MoveError::illegal_by(
                    "GA-2",
                    "Building Chess has no castling",
                ))
            }
            MoveText::Swap(_) => {
                return Err(MoveError::illegal("Building Chess has no swap sequences"))
            }
        };
        let Some(place) = t.place else {
            return Err(no_placement());
        };
        let mut bare = t.clone();
        bare.place = None;
        // The moves of the written kind onto the written square and the
        // one placement, never the side's every move nor the whole board's
        // placements: a long game's replay reads thousands of turns.
        let all = parts_to(pos, written_role(pos, &bare), bare.to);
        let parts: Vec<&Part> = all.iter().filter(|p| piece_matches(&bare, &p.mv)).collect();
        if parts.is_empty() {
            return Err(explain_illegal(pos, &MoveText::Piece(bare)));
        }
        if let Some(e) = placement_error(&pos.board, pos.turn, place) {
            return Err(e);
        }
        let with_place = |p: &Part| {
            let mut m = p.mv.clone();
            m.place = Some(place);
            Move::Piece(m)
        };
        let open: Vec<Move> = parts
            .iter()
            .filter(|p| !p.closed.contains(&place))
            .map(|p| with_place(p))
            .collect();
        match open.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(exposes_king(pos, place)),
            many => Err(MoveError::Ambiguous {
                candidates: many.iter().map(|m| pos.move_text(m)).collect(),
            }),
        }
    }

    /// SAN with the placement, disambiguated among the legal turns that add
    /// the same square.
    fn write_move(&self, pos: &Position, mv: &Move) -> String {
        let Move::Piece(m) = mv else {
            return write_san(pos, mv, &[]);
        };
        // Its rivals are the moves of its kind onto its square.
        write_turn(pos, &rivals(&parts_to(pos, m.role, m.to)), mv)
    }

    /// The turns of one position written from one generation of them: a
    /// large board has hundreds of thousands (`postal moves`).
    fn write_moves(&self, pos: &Position, moves: &[Move]) -> Vec<String> {
        let parts = parts(pos);
        let rivals = rivals(&parts);
        moves.iter().map(|m| write_turn(pos, &rivals, m)).collect()
    }
}

/// The kind of piece a text names: its letter, or, for a move written
/// without one from a square to a square (`b1c3`, which `piece_matches`
/// lets name any piece), the kind standing on that square.
fn written_role(pos: &Position, t: &PieceText) -> Role {
    match (t.roles.is_empty(), t.from_file, t.from_rank) {
        (true, Some(f), Some(r)) => pos
            .board
            .piece_at(Square::new(f, r))
            .map_or(Role::Pawn, |p| p.role),
        _ => t.mover(),
    }
}

/// The legal moves by piece and destination, for disambiguation.
type Rivals<'a> = HashMap<(Role, Square), Vec<&'a Part>>;

fn rivals(parts: &[Part]) -> Rivals<'_> {
    let mut map: Rivals<'_> = HashMap::new();
    for p in parts {
        map.entry((p.mv.role, p.mv.to)).or_default().push(p);
    }
    map
}

fn write_turn(pos: &Position, rivals: &Rivals<'_>, mv: &Move) -> String {
    let Move::Piece(m) = mv else {
        return write_san(pos, mv, &[]);
    };
    let same: Vec<Move> = rivals
        .get(&(m.role, m.to))
        .into_iter()
        .flatten()
        .filter(|p| m.place.is_none_or(|sq| !p.closed.contains(&sq)))
        .map(|p| {
            let mut x = p.mv.clone();
            x.place = m.place;
            Move::Piece(x)
        })
        .collect();
    write_san(pos, mv, &same)
}
