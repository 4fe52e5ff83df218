//! Disintegration Chess (`disintegration`). Placeholder registration: the rules are written in this
//! module's own change.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "disintegration",
    title: "Disintegration Chess",
    aliases: &[],
    summary: "Disintegration Chess",
    files: 5,
    ranks: 9,
    start: "krkfk/ppppp/5/5/5/5/5/PPPPP/KRKFK w - - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../doc/rules/disintegration.md"),
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State;

pub struct Disintegration;

impl Rules for Disintegration {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn variant(&self) -> Variant {
        Variant::Disintegration
    }

    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
