//! The attack tables of the bitboards: leapers by table, sliders along
//! the eight lines to the first occupied square.

use crate::piece::Role;

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let mut k = 0;
        while k < deltas.len() {
            let (nf, nr) = (f + deltas[k].0, r + deltas[k].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nr * 8 + nf) as u32;
            }
            k += 1;
        }
        s += 1;
    }
    t
}

pub(super) static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
pub(super) static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
/// `PAWN_ATTACKS[c][s]`: the squares a pawn of colour `c` on `s` attacks.
pub(super) static PAWN_ATTACKS: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// The eight lines: north, east, north-east, north-west (towards higher
/// indices), then south, west, south-west, south-east (lower).
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

const fn ray_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i8, (s / 8) as i8);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][s] |= 1u64 << (r * 8 + f) as u32;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][s]`: the squares from `s` along line `d` to the edge.
pub(super) static RAYS: [[u64; 64]; 8] = ray_table();

/// The square of `set` (squares of line `d`, not empty) nearest the
/// square the line starts from: lines 0-3 run towards higher squares.
#[inline(always)]
pub(super) fn nearest(d: usize, set: u64) -> usize {
    if d < 4 {
        set.trailing_zeros() as usize
    } else {
        63 - set.leading_zeros() as usize
    }
}

/// The squares along line `d` from `s` up to and including the first
/// occupied one.
#[inline(always)]
pub(super) fn ray(d: usize, s: usize, occ: u64) -> u64 {
    let ray = RAYS[d][s];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    ray ^ RAYS[d][nearest(d, blockers)]
}

#[inline]
pub(super) fn rook_attacks(s: usize, occ: u64) -> u64 {
    ray(0, s, occ) | ray(1, s, occ) | ray(4, s, occ) | ray(5, s, occ)
}

#[inline]
pub(super) fn bishop_attacks(s: usize, occ: u64) -> u64 {
    ray(2, s, occ) | ray(3, s, occ) | ray(6, s, occ) | ray(7, s, occ)
}

/// What a piece of `role` (not a pawn) on `s` attacks.
#[inline]
pub(super) fn attacks(role: Role, s: usize, occ: u64) -> u64 {
    match role {
        Role::King => KING[s],
        Role::Knight => KNIGHT[s],
        Role::Bishop => bishop_attacks(s, occ),
        Role::Rook => rook_attacks(s, occ),
        Role::Queen => bishop_attacks(s, occ) | rook_attacks(s, occ),
        _ => 0,
    }
}
