//! The compact 8x8 board the swap walk runs on: piece codes, square bits,
//! Zobrist keys, and the [`Layout`] of attack sets of a fixed occupancy.

use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// Code of an empty square in [`Walker::cells`]; pieces are
/// `color * 8 + role`.
pub(super) const EMPTY: u8 = 15;
/// The FIDE kinds, which are all Swap Chess has, by role index.
pub(super) const ROLES: usize = 6;

#[inline]
pub(super) fn code(piece: Piece) -> u8 {
    (piece.color.index() * 8 + piece.role.index()) as u8
}

#[inline]
pub(super) fn decode(code: u8) -> Option<Piece> {
    (code != EMPTY).then(|| {
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        Piece::new(color, Role::from_index((code & 7) as usize))
    })
}

#[inline]
pub(super) fn color_of(code: u8) -> usize {
    (code >> 3) as usize & 1
}

#[inline]
pub(super) fn role_of(code: u8) -> usize {
    (code & 7) as usize
}

/// Bit of a square of the 8x8 board: `(rank - 1) * 8 + (file - 1)`.
#[inline]
pub fn bit_of(sq: Square) -> Option<u8> {
    ((1..=8).contains(&sq.file) && (1..=8).contains(&sq.rank))
        .then(|| ((sq.rank - 1) * 8 + (sq.file - 1)) as u8)
}

#[inline]
pub fn square_of(bit: u8) -> Square {
    Square::new((bit % 8) as i16 + 1, (bit / 8) as i16 + 1)
}

const fn zobrist_table() -> [[u64; 16]; 64] {
    let mut t = [[0u64; 16]; 64];
    let mut s: u64 = 0x0123_4567_89ab_cdef;
    let mut i = 0;
    while i < 64 {
        let mut j = 0;
        while j < 16 {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[i][j] = z ^ (z >> 31);
            j += 1;
        }
        i += 1;
    }
    t
}

/// Hash keys of a piece code on a square, for the KO comparison and the
/// transposition table.
pub(super) static ZOBRIST: [[u64; 16]; 64] = zobrist_table();

/// Attack sets of a fixed occupancy: for every occupied square and every
/// side and kind, the occupied squares such a piece there attacks, and the
/// reverse (the occupied squares from which such a piece attacks it).
pub struct Layout {
    pub(super) occ: u64,
    pub(super) att: [[[u64; ROLES]; 2]; 64],
    pub(super) rev: [[[u64; ROLES]; 2]; 64],
}

impl Layout {
    pub(super) fn build(pos: &Position, cells: &[u8; 64]) -> Layout {
        let occ = (0..64u8)
            .filter(|&b| cells[b as usize] != EMPTY)
            .fold(0u64, |o, b| o | 1 << b);
        let tables = pos.tables();
        let mut att = [[[0u64; ROLES]; 2]; 64];
        let mut rev = [[[0u64; ROLES]; 2]; 64];
        for from in (0..64u8).filter(|&b| occ >> b & 1 != 0) {
            let sq = square_of(from);
            for color in Color::ALL {
                for role in 0..ROLES {
                    let mut set = 0u64;
                    for ray in &tables.rays[role][color] {
                        if !ray.mode.captures() {
                            continue;
                        }
                        let mut at = sq;
                        for _ in 0..ray.range {
                            at = at.offset(ray.dx, ray.dy);
                            let Some(b) = bit_of(at) else { break };
                            if occ >> b & 1 != 0 {
                                set |= 1 << b;
                                break;
                            }
                        }
                    }
                    att[from as usize][color.index()][role] = set;
                    let mut s = set;
                    while s != 0 {
                        let to = s.trailing_zeros() as usize;
                        s &= s - 1;
                        rev[to][color.index()][role] |= 1 << from;
                    }
                }
            }
        }
        Layout { occ, att, rev }
    }
}

#[inline]
pub(super) fn hash_of(cells: &[u8; 64]) -> u64 {
    cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != EMPTY)
        .fold(0, |h, (i, &c)| h ^ ZOBRIST[i][c as usize])
}
