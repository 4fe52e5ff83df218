//! Perft on the bitboards, the last turn counted without listing its
//! moves: FIDE chess's and Gardner minichess's perft
//! (`Capability::perft`), the counts of the shared generator's
//! (`perft::perft_in_place`, which tests compare it with on random
//! positions) at the cost of set operations instead of walks over cells.
//!
//! The count is that of a legal generator (FI-3): a piece pinned to its
//! king keeps to the line of the pin; with one piece giving check, a move
//! other than the king's takes it or steps between; with two, only the
//! king moves; each step of the king is tested on the board without it.
//! En passant and castling, rare, are played and tested whole, as
//! [`Bits::legal_moves`] tests every move.

use super::attacks::{
    attacks, bishop_attacks, nearest, rook_attacks, KING, KNIGHT, PAWN_ATTACKS, RAYS,
};
use super::{pawn_move, pop, Bits, Kind, B, N, P, PROMOTIONS, Q, R};
use crate::piece::Role;

/// Whether line `d` of `RAYS` runs along a file or rank (rooks and
/// queens attack along it) rather than a diagonal (bishops and queens).
#[inline]
fn along_rank_or_file(d: usize) -> bool {
    d % 4 < 2
}

/// The squares strictly between `a` and `b`, when they share a line.
fn between(a: usize, b: usize) -> u64 {
    let bit = 1u64 << b;
    (0..8)
        .find(|&d| RAYS[d][a] & bit != 0)
        .map_or(0, |d| RAYS[d][a] & !RAYS[d][b] & !bit)
}

impl Bits {
    /// Leaf nodes `depth` turns deep: what the shared generator's perft
    /// counts from the same position.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(),
            _ => {
                let mut nodes = 0;
                self.pseudo_until(|m| {
                    if let Some(next) = self.play_if_safe(&m) {
                        nodes += next.perft(depth - 1);
                    }
                    false
                });
                nodes
            }
        }
    }

    /// How many legal moves the side to move has: as many as
    /// [`Bits::legal_moves`] lists.
    pub fn count_legal(&self) -> u64 {
        let us = self.turn;
        let them = !us;
        let own = self.sides[us.index()];
        let enemy = self.sides[them.index()];
        let occ = own | enemy;
        let king = self.pieces(us, Role::King);
        if king == 0 {
            // Not a position the rules reach (each side keeps its king);
            // counted as listed.
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            return moves.len() as u64;
        }
        let k = king.trailing_zeros() as usize;
        // The squares beyond the board block every line and hold nothing
        // to take.
        let block = occ | !self.on;
        let free = !own & self.on;
        let r = &self.roles;
        let checkers = (KNIGHT[k] & r[N]
            | PAWN_ATTACKS[us.index()][k] & r[P]
            | bishop_attacks(k, block) & (r[B] | r[Q])
            | rook_attacks(k, block) & (r[R] | r[Q]))
            & enemy;
        let mut n = 0;
        let mut steps = KING[k] & free;
        while steps != 0 {
            if !self.attacked(pop(&mut steps), them, occ ^ king) {
                n += 1;
            }
        }
        if checkers & checkers.wrapping_sub(1) != 0 {
            return n;
        }
        // Where a move other than the king's may go.
        let target = if checkers == 0 {
            free
        } else {
            checkers | between(k, checkers.trailing_zeros() as usize)
        };
        // Each piece pinned to the king, with the squares of its line.
        let mut pinned = 0u64;
        let mut lines = [(0usize, 0u64); 8];
        let mut pins = 0;
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[k];
            let sliders = enemy & (r[Q] | if along_rank_or_file(d) { r[R] } else { r[B] });
            if ray & sliders == 0 {
                continue;
            }
            let first = nearest(d, ray & block);
            let beyond = rays[first] & block;
            if own & (1 << first) == 0 || beyond == 0 {
                continue;
            }
            let second = nearest(d, beyond);
            if sliders & (1 << second) != 0 {
                pinned |= 1 << first;
                lines[pins] = (first, ray & !rays[second]);
                pins += 1;
            }
        }
        let line = |s: usize| -> u64 {
            if pinned & (1 << s) == 0 {
                !0
            } else {
                lines[..pins]
                    .iter()
                    .find(|&&(p, _)| p == s)
                    .map_or(0, |&(_, l)| l)
            }
        };
        for (i, role) in [
            (Q, Role::Queen),
            (R, Role::Rook),
            (B, Role::Bishop),
            (N, Role::Knight),
        ] {
            let mut set = r[i] & own;
            while set != 0 {
                let from = pop(&mut set);
                n += (attacks(role, from, block) & target & line(from)).count_ones() as u64;
            }
        }
        let last = self.last_rank(us);
        let second = self.second_rank(us);
        let forward = |s: usize| match us {
            crate::color::Color::White => s + 8,
            crate::color::Color::Black => s.wrapping_sub(8),
        };
        let mut pawns = r[P] & own;
        while pawns != 0 {
            let from = pop(&mut pawns);
            let allowed = target & line(from);
            let mut to = PAWN_ATTACKS[us.index()][from] & enemy & allowed;
            let step = forward(from);
            if step < 64 && block & (1 << step) == 0 {
                to |= allowed & (1 << step);
                let double = forward(step);
                if second & (1 << from) != 0 && double < 64 && block & (1 << double) == 0 {
                    to |= allowed & (1 << double);
                }
            }
            n += (to & !last).count_ones() as u64
                + (to & last).count_ones() as u64 * PROMOTIONS.len() as u64;
        }
        if let Some(e) = self.ep_target() {
            let mut takers = PAWN_ATTACKS[them.index()][e] & r[P] & own;
            while takers != 0 {
                let m = pawn_move(pop(&mut takers), e, Kind::EnPassant);
                n += self.leaves_king_safe(&m) as u64;
            }
        }
        for long in [false, true] {
            if let Some(m) = self.castle_move(long) {
                n += self.leaves_king_safe(&m) as u64;
            }
        }
        n
    }
}
