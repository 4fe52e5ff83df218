//! Building Chess text (rules/building.md, notation): the move in SAN, a
//! space, `@` and the added square (`Nc3 @f3`), disambiguated among the
//! legal turns that add the same square.

use super::san::{explain_illegal, piece_matches, write_san, MoveText};
use super::Dialect;
use crate::error::MoveError;
use crate::mv::Move;
use crate::position::Position;
use crate::variant::building::{exposes_king, no_placement, Part, Turns};

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
        let turns = Turns::new(pos);
        let parts: Vec<&Part> = turns
            .parts
            .iter()
            .filter(|p| piece_matches(&bare, &p.mv))
            .collect();
        if parts.is_empty() {
            return Err(explain_illegal(pos, &MoveText::Piece(bare)));
        }
        if let Some(e) = turns.placement_error(&pos.board, pos.turn, place) {
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
        let turns = Turns::new(pos);
        let rivals: Vec<Move> = turns
            .parts
            .iter()
            .filter(|p| p.mv.role == m.role && p.mv.to == m.to)
            .filter(|p| m.place.is_none_or(|sq| !p.closed.contains(&sq)))
            .map(|p| {
                let mut x = p.mv.clone();
                x.place = m.place;
                Move::Piece(x)
            })
            .collect();
        write_san(pos, mv, &rivals)
    }
}
