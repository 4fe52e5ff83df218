//! Corral Chess (`corral`). Placeholder registration: the rules are written in this
//! module's own change.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "corral",
    title: "Corral Chess",
    aliases: &[],
    summary: "Corral Chess",
    files: 5,
    ranks: 9,
    start: "r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/5/5/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: true,
    rules_text: include_str!("../../doc/rules/corral.md"),
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State;

pub struct Corral;

impl Rules for Corral {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn variant(&self) -> Variant {
        Variant::Corral
    }

    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
