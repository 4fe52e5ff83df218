//! Pseudo-royal pieces (`extinctionPseudoRoyal`), as Fairy-Stockfish's
//! `legal` and `checked_pseudo_royals` judge them: the pieces of an
//! extinction kind of which a side has few may not be left attacked nor
//! blown up, and one touching an enemy one cannot be attacked where
//! captures explode.

use super::board::Pos;
use super::def::Def;
use super::gen::attacked;
use crate::movegen::{CellKind, CellMove};
use crate::piece::Role;

/// The squares of `side`'s pseudo-royal pieces (`extinctionPseudoRoyal`):
/// every piece of an extinction kind of which the side has at most
/// `extinctionPieceCount + 1`, as Fairy-Stockfish finds them.
pub(super) fn pseudo_royals(def: &Def, pos: &Pos, side: u8) -> Vec<u8> {
    if !def.pseudo_royal {
        return Vec::new();
    }
    let few = |k: usize| pos.count(def, side, Some(k)) <= def.extinction_count + 1;
    let kinds: Vec<usize> = (0..def.kinds.len())
        .filter(|&k| def.extinction_types.contains(k) && few(k))
        .collect();
    pos.squares_of(side)
        .filter(|&s| {
            pos.man(def, s)
                .is_some_and(|m| kinds.contains(&(m.kind as usize)))
        })
        .collect()
}

/// Whether two squares touch (a king's step apart).
pub(super) fn touching(pos: &Pos, a: u8, b: u8) -> bool {
    let ((af, ar), (bf, br)) = (pos.file_rank(a), pos.file_rank(b));
    a != b && (af - bf).abs() <= 1 && (ar - br).abs() <= 1
}

/// Whether the pseudo-royal piece of the side to move on `sq` of `pos`
/// is attacked by the other side, whose pseudo-royal pieces are on
/// `theirs`: with explosions, one that touches one of those cannot be,
/// as taking it would blow up the taker's own (Fairy-Stockfish's
/// `checked_pseudo_royals`).
pub(super) fn royal_attacked(def: &Def, pos: &Pos, sq: u8, theirs: &[u8], them: u8) -> bool {
    let immune = def.blast_on_capture && theirs.iter().any(|&t| touching(pos, sq, t));
    !immune && attacked(def, pos, sq, them)
}

/// Whether `mv` leaves every pseudo-royal piece of the side to move
/// standing and unattacked, as Fairy-Stockfish's `legal` decides: the one
/// moved is followed, a dropped piece of an extinction kind joins them,
/// and a pawn's promotion to such a kind makes the new piece pseudo-royal
/// (or, past the count, ends the pseudo-royalty of that kind). A pseudo-royal
/// king that castles may not pass an attacked square. With explosions, a
/// move that blows up one of its own side's is illegal, and one that
/// blows up (or takes en passant) one of the other side's is legal
/// whatever it leaves.
pub(super) fn pseudo_royals_safe(
    def: &Def,
    pos: &Pos,
    after: &Pos,
    mine: &[u8],
    mv: &CellMove,
) -> bool {
    let (us, them) = (pos.us(), 1 - pos.us());
    let (from, to) = (
        pos.number_at(mv.from as usize),
        pos.number_at(mv.to as usize),
    );
    let theirs = pseudo_royals(def, pos, them);
    if let CellKind::Castle { .. } = mv.kind {
        if mine.contains(&from) {
            // The squares from the king's to its target's, that one
            // left out (unless it is the king's own), with the king
            // lifted.
            let mut lifted = pos.clone();
            lifted.put(def, from, None);
            let ((ff, rank), (tf, _)) = (pos.file_rank(from), pos.file_rank(to));
            let step = (tf - ff).signum();
            let mut f = ff;
            loop {
                let passed = pos
                    .sq(f, rank)
                    .is_some_and(|s| royal_attacked(def, &lifted, s, &theirs, them));
                if passed {
                    return false;
                }
                f += step;
                if f == tf || step == 0 {
                    break;
                }
            }
        }
    }
    let mut royals: Vec<u8> = mine
        .iter()
        .map(|&s| if s == from { to } else { s })
        .collect();
    let extinct = |r: Role| {
        def.kind_of_role(r)
            .filter(|&k| def.extinction_types.contains(k))
    };
    if mv.kind == CellKind::Drop && extinct(mv.promotion.unwrap_or(mv.role)).is_some() {
        royals.push(to);
    }
    // Only a pawn's promotion: a piece promoted shogi-style keeps what it
    // was, pseudo-royal or not, as in Fairy-Stockfish.
    let pawn_promotion = super::promote::change(def, pos, mv) == Some(super::promote::Change::Pawn);
    if let Some(k) = mv.promotion.filter(|_| pawn_promotion).and_then(extinct) {
        if pos.count(def, us, Some(k)) > def.extinction_count {
            royals.retain(|&s| {
                !pos.man(def, s)
                    .is_some_and(|m| m.color == us && m.kind as usize == k)
            });
        } else {
            royals.push(to);
        }
    }
    // Blown up: a square that held a piece of that side before the move
    // (or the mover's target) and holds none of its pieces after.
    let gone = |s: u8, side: u8| after.man(def, s).is_none_or(|m| m.color != side);
    if royals.iter().any(|&s| gone(s, us)) {
        return false;
    }
    // (Taken on the target square without an explosion, one still
    // counts: the taker stands there.)
    if theirs
        .iter()
        .any(|&s| (s != to || def.blast_on_capture) && gone(s, them))
    {
        return true;
    }
    royals
        .iter()
        .all(|&s| !royal_attacked(def, after, s, &theirs, them))
}
