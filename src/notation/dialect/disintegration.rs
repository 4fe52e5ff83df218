//! Disintegration text (rules/disintegration.md): the `last=` field
//! (DI-10), and a game the kings have decided saying so.

use super::san::{self, MoveText};
use super::Dialect;
use crate::color::Color;
use crate::error::MoveError;
use crate::mv::Move;
use crate::position::Position;
use crate::variant::disintegration::{self, decided, state, Disintegration, LastMove, State};
use crate::variant::{Extra, Rules};

/// Disintegration text.
pub struct DisintegrationDialect;

impl Dialect for DisintegrationDialect {
    fn extra_fields(&self, pos: &Position) -> Vec<String> {
        match state(pos).last_move {
            None => Vec::new(),
            Some(LastMove::Owed(c)) => vec![format!("last={}", c.char())],
            Some(LastMove::Played(c)) => vec![format!("last={}-played", c.char())],
        }
    }

    fn read_extra_fields(&self, pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        let last_move = match fields {
            [] => None,
            [field] => Some(match *field {
                "last=w" => LastMove::Owed(Color::White),
                "last=b" => LastMove::Owed(Color::Black),
                "last=w-played" => LastMove::Played(Color::White),
                "last=b-played" => LastMove::Played(Color::Black),
                other => {
                    return Err(format!(
                        "expected last=w, last=b, last=w-played or last=b-played (DI-10), found {other:?}"
                    ))
                }
            }),
            [_, extra, ..] => return Err(format!("unexpected field {extra:?}")),
        };
        pos.extra = Extra::Disintegration(State { last_move });
        // Without the field, store what it would have said, so that equal
        // positions compare equal however they were reached.
        let in_force = disintegration::last_move(pos);
        pos.extra = Extra::Disintegration(State {
            last_move: in_force,
        });
        Ok(())
    }

    /// As the default, but a game the kings have decided says so instead
    /// of "no such move".
    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        if let Some(o) = decided(pos) {
            return Err(MoveError::illegal_by(
                o.rule,
                format!("the game is over: {}", o.reason),
            ));
        }
        san::resolve_in_list(pos, text, &Disintegration.legal_moves(pos))
    }
}
