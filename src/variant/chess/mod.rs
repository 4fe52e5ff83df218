//! FIDE chess (`chess`), rules/fide.md FI-1..FI-6: the base of Swap Chess
//! and Kristensen's Game, and the variant whose perft tables and PGN files
//! check the engine against the outside world.

mod bits;
pub mod fast_line;

use super::{Capability, Endings, PieceSpec, Rules, Spec, Variant};
use crate::piece::Role;
use crate::position::{fide_ending, GameResult, Outcome, Position};
use fast_line::FastLine;

/// FIDE piece movement, shared by the variants built on FIDE chess.
pub const FIDE_PIECES: &[PieceSpec] = &[
    PieceSpec {
        role: Role::King,
        betza: "K",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Queen,
        betza: "Q",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Rook,
        betza: "R",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Bishop,
        betza: "B",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Knight,
        betza: "N",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Pawn,
        betza: "mfWcfF",
        gives_check: true,
    },
];

/// Promotion choices of FIDE chess (FI-2), also used by the variants on it.
pub const FIDE_PROMOTION: &[Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

pub static SPEC: Spec = Spec {
    name: "chess",
    title: "FIDE chess",
    aliases: &["fide", "standard", "orthodox", "international chess"],
    summary: "FIDE chess, the base of Swap Chess and Kristensen's Game",
    files: 8,
    ranks: 8,
    start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    double_step_ranks: &[2],
    en_passant: true,
    castling: true,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../../doc/rules/fide.md"),
    variant: Variant::Chess,
    repetitions_since_reset: true,
    never_repeats: false,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

pub struct Chess;

/// Turns are the shared generator's moves, played by `apply_piece_move`.
impl crate::perft::InPlace for Chess {}

impl Rules for Chess {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// On the bitboards ([`has_legal_move_fide`]).
    fn has_legal_move(&self, pos: &Position) -> bool {
        has_legal_move_fide(pos)
    }

    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        if !known_move {
            if let Some(b) = bits::Bits::from_position(pos) {
                return outcome_of(&b);
            }
        }
        // Check matters only when there is no move.
        let has_move = known_move || self.has_legal_move(pos);
        pos.fide_outcome(has_move, !has_move && self.in_check(pos))
            .or_else(|| dead(pos))
    }

    fn capability(&self) -> Capability {
        FIDE_CAPABILITY
    }
}

/// The capability of FIDE chess and Gardner minichess: the shared
/// generator's moves with FIDE's captures, perft in place, and the
/// bitboards' fast line.
pub const FIDE_CAPABILITY: Capability = Capability {
    shared_moves: true,
    fide_captures: true,
    perft: Some(perft_fide),
    fast_line: Some(FastLine::new),
};

/// Perft of FIDE chess and Gardner minichess: on the bitboards when the
/// position is on the whole board (`bits/count.rs`), else in place (both
/// play the shared generator's moves by `apply_piece_move`).
fn perft_fide(pos: &Position, depth: u32) -> u64 {
    match bits::Bits::from_position(pos) {
        Some(b) => b.perft(depth),
        None => crate::perft::perft_in_place(&Chess, pos, depth),
    }
}

/// `Rules::has_legal_move` of FIDE chess and Gardner minichess: on the
/// bitboards when the position is on the whole board (it always is but for
/// a hand-made one), else by the shared generator.
pub fn has_legal_move_fide(pos: &Position) -> bool {
    match bits::Bits::from_position(pos) {
        Some(b) => b.has_legal_move(),
        None => crate::movegen::KingSafety::with(|s| pos.has_legal_piece_move(s)),
    }
}

/// [`Rules::outcome`] of a position of FIDE chess on its bitboards.
pub fn outcome_of(b: &bits::Bits) -> Option<Outcome> {
    let has_move = b.has_legal_move();
    fide_ending(b.turn, b.halfmove, has_move, !has_move && b.in_check())
        .or_else(|| b.is_dead().then(dead_draw))
}

/// The dead-position draw of FI-5.
fn dead(pos: &Position) -> Option<Outcome> {
    is_dead(pos).then(dead_draw)
}

fn dead_draw() -> Outcome {
    Outcome::new(
        GameResult::Draw,
        "dead position (insufficient material)",
        "FI-5",
    )
}

/// FI-5: K v K, K+B v K, K+N v K, and K+B v K+B with bishops on squares of
/// one colour (any number of same-coloured bishops) cannot end in mate.
pub fn is_dead(pos: &Position) -> bool {
    let (mut minors, mut knight) = (0, false);
    let (mut light, mut dark) = (false, false);
    for (sq, stack) in pos.board.occupied() {
        for p in stack.pieces() {
            match p.role {
                Role::King => {}
                Role::Bishop | Role::Knight => {
                    minors += 1;
                    knight |= p.role == Role::Knight;
                    if sq.is_light() {
                        light = true;
                    } else {
                        dark = true;
                    }
                }
                _ => return false,
            }
        }
    }
    // More than one minor: only bishops, all on squares of one colour.
    let one_colour = !(light && dark);
    minors <= 1 || (!knight && one_colour)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_text(Variant::Chess, fen).unwrap()
    }

    #[test]
    fn fi1_start_position() {
        let p = Position::start(Variant::Chess);
        assert_eq!(p.to_text(), SPEC.start);
        assert_eq!(p.legal_moves().len(), 20);
    }

    #[test]
    fn fi4_checkmate_and_stalemate() {
        // Fool's mate.
        let p = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let o = p.outcome().unwrap();
        assert_eq!(o.result, GameResult::BlackWins);
        assert_eq!(o.reason, "checkmate");
        let s = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(s.outcome().unwrap().result, GameResult::Draw);
        assert_eq!(s.outcome().unwrap().reason, "stalemate");
    }

    #[test]
    fn fi3_pinned_piece_may_not_move() {
        let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(p.legal_moves().iter().all(|m| m.role() == Role::King));
    }

    #[test]
    fn fi5_dead_positions() {
        assert!(pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1").outcome().is_some());
        assert!(pos("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").outcome().is_some());
        assert!(pos("8/8/4k3/8/8/3KN3/8/8 w - - 0 1").outcome().is_some());
        // Bishops on the same colour (c1 dark, f8 dark).
        assert!(pos("5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1").outcome().is_some());
        // Bishops on different colours: mate is possible.
        assert!(pos("4b3/8/4k3/8/8/3K4/8/2B5 w - - 0 1").outcome().is_none());
        assert!(pos("8/8/4k3/8/8/3KN3/8/6n1 w - - 0 1").outcome().is_none());
        assert!(pos("8/8/4k3/8/8/3KP3/8/8 w - - 0 1").outcome().is_none());
    }

    #[test]
    fn fi5_seventy_five_moves() {
        let p = pos("8/8/2k5/8/8/3KR3/8/8 w - - 150 100");
        assert!(p.outcome().unwrap().reason.contains("seventy-five"));
    }

    #[test]
    fn fi2_castling_through_check_refused() {
        // The f1 square is attacked by the rook on f8.
        let p = pos("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let texts: Vec<String> = p.legal_moves().iter().map(|m| p.move_text(m)).collect();
        assert!(texts.contains(&"O-O-O".to_string()));
        assert!(!texts.contains(&"O-O".to_string()));
    }

    #[test]
    fn fi2_en_passant() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let m = p.parse_move("exd6").unwrap();
        let after = p.play(&m).unwrap();
        assert_eq!(after.to_text(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    }
}
