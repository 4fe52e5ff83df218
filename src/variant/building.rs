//! Building Chess (`building`). Placeholder registration: the rules are written in this
//! module's own change.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "building",
    title: "Building Chess",
    aliases: &[],
    summary: "Building Chess",
    files: 5,
    ranks: 5,
    start: "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../doc/rules/gardner-building.md"),
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State;

pub struct Building;

impl Rules for Building {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn variant(&self) -> Variant {
        Variant::Building
    }

    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
