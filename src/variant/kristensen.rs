//! Kristensen's Game (`kristensen`). Placeholder registration: the rules are written in this
//! module's own change.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "kristensen",
    title: "Kristensen's Game",
    aliases: &[],
    summary: "Kristensen's Game",
    files: 9,
    ranks: 9,
    start: "rnbqkqbnr/pp2w2pp/2pp1pp2/9/9/9/2PP1PP2/PP2W2PP/RNBQKQBNR w - - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../doc/rules/kristensen.md"),
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State;

pub struct Kristensen;

impl Rules for Kristensen {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn variant(&self) -> Variant {
        Variant::Kristensen
    }

    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
