//! Checks of a position read from text that several variants share; each
//! variant's `Rules::validate` composes the ones its rules need (a trait
//! default cannot be called from an override).

use crate::color::Color;
use crate::piece::Role;
use crate::position::Position;
use crate::square::Square;

/// Each side has exactly one king; `who` names the variant in the message
/// ("this variant", "Kristensen's Game").
pub fn one_king_each(pos: &Position, who: &str) -> Result<(), String> {
    for color in Color::ALL {
        one_king(pos, color, who)?;
    }
    Ok(())
}

/// `color` has exactly one king.
pub fn one_king(pos: &Position, color: Color, who: &str) -> Result<(), String> {
    let kings = pos.find(color, Role::King).len();
    if kings != 1 {
        return Err(format!(
            "{color} has {kings} kings; {who} needs exactly one"
        ));
    }
    Ok(())
}

/// The side not to move is not in check (it would have been captured).
pub fn side_not_to_move_not_in_check(pos: &Position) -> Result<(), String> {
    if pos.king_attacked(!pos.turn) {
        return Err(format!(
            "{} is in check but it is {}'s move",
            !pos.turn, pos.turn
        ));
    }
    Ok(())
}

/// A pawn of `color` standing on its promotion rank, where it would have
/// promoted, if any (on boards that do not grow nothing lies beyond it).
pub fn pawn_on_promotion_rank(pos: &Position, color: Color) -> Option<Square> {
    let rank = pos.promotion_rank(color);
    pos.find(color, Role::Pawn)
        .into_iter()
        .map(|i| pos.board.square(i))
        .find(|s| s.rank == rank)
}
