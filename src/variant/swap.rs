//! Swap Chess (`swap`). Placeholder registration: the rules are written in this
//! module's own change.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "swap",
    title: "Swap Chess",
    aliases: &[],
    summary: "Swap Chess",
    files: 8,
    ranks: 8,
    start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../doc/rules/swap.md"),
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State;

pub struct Swap;

impl Rules for Swap {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn variant(&self) -> Variant {
        Variant::Swap
    }

    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
