//! Gardner minichess (`gardner`), rules/gardner-building.md GA-1..GA-4:
//! FIDE chess on 5x5 without castling, double step or en passant. Building
//! Chess starts from it.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{Capability, Endings, Rules, Spec, Variant};
use crate::position::Position;

pub static SPEC: Spec = Spec {
    name: "gardner",
    title: "Gardner minichess",
    aliases: &["minichess", "gardner minichess", "gardner's minichess"],
    summary: "Martin Gardner's 5x5 minichess, the start of Building Chess",
    files: 5,
    ranks: 5,
    // GA-1
    start: "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
    pieces: FIDE_PIECES,
    // GA-3
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    // GA-2: no double step, no en passant, no castling.
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../doc/rules/gardner-building.md"),
    variant: Variant::Gardner,
    repetitions_since_reset: true,
    never_repeats: false,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

pub struct Gardner;

/// Turns are the shared generator's moves, played by `apply_piece_move`.
impl crate::perft::InPlace for Gardner {}

impl Rules for Gardner {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// On the bitboards (`chess::bits`).
    fn has_legal_move(&self, pos: &Position) -> bool {
        super::chess::has_legal_move_fide(pos)
    }

    fn capability(&self) -> Capability {
        super::chess::FIDE_CAPABILITY
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::variant::Variant;

    #[test]
    fn ga1_setup() {
        let p = Position::start(Variant::Gardner);
        assert_eq!(p.board.square_count(), 25);
        assert_eq!(p.legal_moves().len(), 7);
    }

    #[test]
    fn ga2_no_double_step_no_castling() {
        let p = Position::start(Variant::Gardner);
        assert!(p.parse_move("a2-a4").is_err());
        let moves: Vec<String> = p.legal_moves().iter().map(|m| p.move_text(m)).collect();
        assert!(moves.iter().all(|m| !m.starts_with('O')));
    }

    #[test]
    fn ga3_promotion_on_the_last_rank() {
        let p = Position::from_text(Variant::Gardner, "5/2P2/5/5/k3K w - - 0 1").unwrap();
        let promos: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| p.move_text(m))
            .filter(|t| t.starts_with("c5"))
            .collect();
        assert_eq!(promos, vec!["c5=Q", "c5=R", "c5=B", "c5=N"]);
    }
}
