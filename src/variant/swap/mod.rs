//! Swap Chess (`swap`), rules/swap.md SW-1..SW-12: FIDE chess in which a
//! turn may instead be a swap sequence, one piece (P1) changing places with
//! pieces it attacks, one after another (`Qb6/b1/d3=N/c4/f7`).
//!
//! Swap sequences are far too many to list (the queen alone threads
//! through most of the start position), so [`Rules::legal_moves`] gives the
//! FIDE moves only, and everything that needs the swaps works without a
//! list: checking a written sequence walks it step by step
//! ([`walk::Walker::walk`]), mate and stalemate search for one legal turn
//! with early exit and a transposition table, perft counts depth first,
//! and `notation::dialect::swap::swap_steps` offers the sequences one step at a time for
//! `postal moves`.
//!
//! Reading a written sequence (rules/swap.md, notation): a first square
//! holding one of the mover's pieces of the written letter is P1's start;
//! otherwise P1 is the piece of that letter attacking it, and two such
//! pieces make the text ambiguous. The rule file would also let a piece
//! elsewhere start by swapping with that piece first, but such a swap of
//! two identical pieces changes nothing on the board, and admitting it
//! would make every text that writes its start square (as output always
//! does) ambiguous whenever another piece of the letter attacks it. A
//! promotion left out is any choice that makes the text legal (like SAN's
//! `a8`), so `g7/h8/h5` may be ambiguous between `=Q` and `=R`.
//!
//! Position text: the FEN fields, then, when the last turn was a swap
//! sequence, `ko=PLACEMENT`: the placement from before it, which the side
//! to move may not give back by a swap sequence of its own (SW-9); after
//! the sample game's 4. Qd1/g4/g7/h8:
//! `r1bqk1nQ/pppp1prp/2n5/2b1p3/4P1p1/2N5/PPPP1P1P/R1BPKBNR b KQq - 2 4
//! ko=r1bqk1nr/pppp1ppp/2n5/2b1p3/4P1P1/2N5/PPPP1P1P/R1BQKBNR`.
//! Kings may be missing (SW-12), as in problems.
//!
//! Text forms (move text, position-text fields): `notation/dialect/swap.rs`.

pub mod layout;
pub mod walk;

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{validate, Capability, Endings, Extra, Rules, Spec, Variant};
use crate::board::Board;
use crate::color::Color;
use crate::error::PlayError;
use crate::mv::{Move, SwapSequence};
use crate::piece::{Piece, Role, Stack};
use crate::position::{Effects, Position};
use crate::square::Square;
use walk::Walker;

pub static SPEC: Spec = Spec {
    name: "swap",
    title: "Swap Chess",
    aliases: &[],
    summary:
        "FIDE chess where a piece may swap places with the pieces it attacks, one after another",
    files: 8,
    ranks: 8,
    start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    promotion_ranks: None,
    // SW-8: a pawn a swap has put on its first rank steps one or two
    // squares, as from its second.
    double_step_ranks: &[1, 2],
    en_passant: true,
    castling: true,
    board_grows: false,
    stacks: false,
    rules_text: include_str!("../../../doc/rules/swap.md"),
    variant: Variant::Swap,
    // A swap moves pawns back and changes nothing of the material.
    repetitions_since_reset: false,
    never_repeats: false,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// SW-9: when the last turn was a swap sequence, the placement from
    /// before it.
    pub ko: Option<Board>,
}

/// The KO placement of a position, if its last turn was a swap sequence.
pub fn ko(pos: &Position) -> Option<&Board> {
    match &pos.extra {
        Extra::Swap(State { ko }) => ko.as_ref(),
        _ => None,
    }
}

pub(crate) fn set_ko(pos: &mut Position, ko: Option<Board>) {
    pos.extra = match ko {
        Some(b) => Extra::Swap(State { ko: Some(b) }),
        None => Extra::None,
    };
}

pub struct Swap;

impl Swap {
    /// Applies a swap sequence (no legality check): the swaps with their
    /// promotions (SW-7), castling rights (SW-11), the clocks (SW-10) and
    /// the KO placement (SW-9).
    fn apply_swap(&self, pos: &mut Position, seq: &SwapSequence) -> Effects {
        let mut effects = Effects::default();
        let before = pos.board.clone();
        let mut p1 = seq.start;
        for step in &seq.steps {
            let (Some(a), Some(b)) = (pos.board.get(p1), pos.board.get(step.square)) else {
                break;
            };
            let (mut a, mut b) = (a, b);
            if let Some(role) = step.promotion {
                // The pawn that lands on its promotion rank: P1 on the
                // partner's square, or the partner on P1's.
                if let Some(pa) = a.piece().filter(|p| {
                    p.role == Role::Pawn && step.square.rank == pos.promotion_rank(p.color)
                }) {
                    a = Stack::single(Piece::new(pa.color, role));
                    effects
                        .promoted
                        .push((step.square, Piece::new(pa.color, role)));
                } else if let Some(pb) = b
                    .piece()
                    .filter(|p| p.role == Role::Pawn && p1.rank == pos.promotion_rank(p.color))
                {
                    b = Stack::single(Piece::new(pb.color, role));
                    effects.promoted.push((p1, Piece::new(pb.color, role)));
                }
            }
            pos.board.set(step.square, a);
            pos.board.set(p1, b);
            p1 = step.square;
        }
        // SW-11: every square a sequence touches loses its piece, so a king
        // or rook on its home square that is touched has left it.
        let touched = std::iter::once(seq.start).chain(seq.steps.iter().map(|s| s.square));
        for sq in touched {
            for (color, rank) in [(Color::White, 1), (Color::Black, 8)] {
                if sq == Square::new(5, rank) {
                    pos.castling.set(color, true, false);
                    pos.castling.set(color, false, false);
                } else if sq == Square::new(8, rank) {
                    pos.castling.set(color, true, false);
                } else if sq == Square::new(1, rank) {
                    pos.castling.set(color, false, false);
                }
            }
        }
        pos.ep = None;
        // SW-10: a swap is not a capture and does not reset the count.
        pos.halfmove = pos.halfmove.saturating_add(1);
        pos.end_turn();
        set_ko(pos, Some(before));
        effects
    }
}

impl Rules for Swap {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// SW-12: a side may lack its king; neither may have two. Pawns never
    /// stand on their promotion rank (SW-7 promotes them at once), and the
    /// side not to move is not in check.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        for color in Color::ALL {
            let kings = pos.find(color, Role::King).len();
            if kings > 1 {
                return Err(format!("{color} has {kings} kings; Swap Chess allows one"));
            }
            if let Some(sq) = validate::pawn_on_promotion_rank(pos, color) {
                return Err(format!(
                    "the {} pawn on {sq} stands on its promotion rank",
                    color.name().to_lowercase()
                ));
            }
        }
        validate::side_not_to_move_not_in_check(pos)
    }

    fn check_legal(&self, pos: &Position, mv: &Move) -> Result<(), PlayError> {
        match mv {
            Move::Piece(_) => {
                if self.legal_moves(pos).contains(mv) {
                    Ok(())
                } else {
                    Err(PlayError::Illegal {
                        reason: "not a legal move in this position".into(),
                        rule: None,
                    })
                }
            }
            Move::Swap(seq) => {
                Walker::new(pos)
                    .walk(seq, true)
                    .map(|_| ())
                    .map_err(|e| PlayError::Illegal {
                        reason: e.reason,
                        rule: Some(e.rule),
                    })
            }
        }
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        !self.legal_moves(pos).is_empty() || Walker::new(pos).any_turn()
    }

    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        match mv {
            Move::Piece(m) => {
                let effects = pos.apply_piece_move(m);
                // SW-9: KO bars only a swap answering a swap.
                set_ko(pos, None);
                effects
            }
            Move::Swap(seq) => self.apply_swap(pos, seq),
        }
    }

    fn capability(&self) -> Capability {
        Capability {
            perft: Some(perft),
            ..Capability::default()
        }
    }
}

/// Counts FIDE moves and swap sequences; the swaps of the last ply are
/// counted depth first without being listed.
fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = Swap.legal_moves(pos);
    let mut walker = Walker::new(pos);
    if depth == 1 {
        return moves.len() as u64 + walker.count_all();
    }
    let mut n: u64 = moves
        .iter()
        .map(|m| perft(&pos.play_unchecked(m), depth - 1))
        .sum();
    walker.for_each_turn(&mut |seq| {
        n += perft(&pos.play_unchecked(&Move::Swap(seq)), depth - 1);
    });
    n
}

/// Counts the legal swap turns of a position (perft 1 less the FIDE
/// moves), depth first. Can take very long in crowded positions; see
/// [`count_swaps_within`].
pub fn count_swaps(pos: &Position) -> u64 {
    Walker::new(pos).count_all()
}

/// Counts the legal swap turns, or gives up (`None`) after visiting
/// `budget` walk states.
pub fn count_swaps_within(pos: &Position, budget: u64) -> Option<u64> {
    Walker::new(pos).count_all_within(budget)
}

/// Calls `f` with every legal swap turn of a position, depth first,
/// without collecting them.
pub fn for_each_swap(pos: &Position, f: &mut dyn FnMut(SwapSequence)) {
    Walker::new(pos).for_each_turn(f)
}

/// Is there a legal swap turn? (Early exit; a transposition table keeps
/// the states proved empty.)
pub fn has_swap(pos: &Position) -> bool {
    Walker::new(pos).any_turn()
}
