//! FIDE chess on bitboards: the same rules as the shared generator
//! (`movegen`, `Position::apply_piece_move`) for FIDE chess on its 8x8
//! board and Gardner minichess on its 5x5 (GA-1..GA-4: the a1-e5 corner of
//! the 8x8 sets, the squares beyond it blocking every line), in a copyable
//! value of a dozen words, for the record verifier's fast lane (issue 19):
//! resolving a move among the legal moves of its kind onto its square,
//! playing it, and saying whether it gives check or mate, without the
//! generic board's tables and copies; and for perft (`count.rs`,
//! issue 42).
//!
//! It decides exactly what the generic rules decide, so it follows them
//! where FIDE leaves room: en passant only onto the position's `ep` square
//! with an enemy pawn beyond it; after a double step `ep` is set only when
//! an enemy pawn stands beside (as `apply_piece_move` sets it); castling
//! as `castling_cells` (king on its e-file square, rook in the corner,
//! the squares between empty, the king's squares unattacked); rights lost
//! by [`Castling::lose_rights`]. Tests check it against the published
//! perft tables and, move list by move list, against the generic rules on
//! random games.

use crate::color::Color;
use crate::mv::{MoveKind, PieceMove};
use crate::piece::{Piece, Role, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::{Extra, Variant};
use attacks::{attacks, bishop_attacks, rook_attacks, KING, KNIGHT, PAWN_ATTACKS};

mod attacks;
mod count;

/// A square's index: a1 = 0, b1 = 1, ..., h8 = 63.
pub type Sq = u8;

/// The index of a square of the 8x8 board.
pub fn index(s: Square) -> Option<Sq> {
    ((1..=8).contains(&s.file) && (1..=8).contains(&s.rank))
        .then(|| ((s.rank - 1) * 8 + s.file - 1) as Sq)
}

/// The square of an index.
pub fn square(i: Sq) -> Square {
    Square::new((i % 8) as i16 + 1, (i / 8) as i16 + 1)
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;
/// The light squares (a1 is dark, BU-3's pattern).
const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;

const K: usize = Role::King.index();
const Q: usize = Role::Queen.index();
const R: usize = Role::Rook.index();
const B: usize = Role::Bishop.index();
const N: usize = Role::Knight.index();
const P: usize = Role::Pawn.index();

/// The roles of FIDE chess, by index (the first six of [`Role::ALL`]).
const ROLES: &[Role] = Role::ALL.split_at(6).0;

/// What a pawn may promote to (FI-2, GA-3), in the generator's order.
const PROMOTIONS: &[Role] = super::FIDE_PROMOTION;

/// A pawn's move, promotion to be filled in.
#[inline]
fn pawn_move(from: usize, to: usize, kind: Kind) -> BitMove {
    BitMove {
        role: Role::Pawn,
        from: from as Sq,
        to: to as Sq,
        promotion: None,
        kind,
    }
}

#[inline]
fn pop(bits: &mut u64) -> usize {
    let s = bits.trailing_zeros() as usize;
    *bits &= *bits - 1;
    s
}

/// How a move is special, as [`MoveKind`] says it without the squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    DoubleStep,
    EnPassant,
    Castle,
}

/// A move of FIDE chess on the 8x8 board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BitMove {
    pub role: Role,
    pub from: Sq,
    pub to: Sq,
    pub promotion: Option<Role>,
    pub kind: Kind,
}

impl BitMove {
    /// Castling's rook: from its corner to the square the king passed.
    fn rook_squares(&self) -> (Sq, Sq) {
        if self.to > self.from {
            (self.from + 3, self.from + 1)
        } else {
            (self.from - 4, self.from - 1)
        }
    }
}

/// What a search for the legal moves a text names found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Found {
    None,
    /// The move, and the position after it.
    One(BitMove, Bits),
    Many,
}

/// A position of FIDE chess on the 8x8 board, or of Gardner minichess, as
/// bit sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bits {
    pub variant: Variant,
    /// The squares of the board: all 64, or Gardner's 25.
    on: u64,
    /// The squares of each kind, by [`Role::index`] (king to pawn).
    roles: [u64; 6],
    /// The squares of each side, by [`Color::index`].
    sides: [u64; 2],
    pub turn: Color,
    pub castling: Castling,
    pub ep: Option<Sq>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Bits {
    /// The position as bit sets, when it is one of FIDE chess on the whole
    /// 8x8 board or of Gardner minichess on the whole 5x5, with single FIDE
    /// pieces and one king a side; `None` for anything else (which the
    /// generic rules then play).
    pub fn from_position(pos: &Position) -> Option<Bits> {
        let board = &pos.board;
        let (n, on) = match pos.variant {
            Variant::Chess => (8, !0),
            Variant::Gardner => (5, 0x1f_1f1f_1f1f),
            _ => return None,
        };
        if board.bounds() != (1, 1, n, n)
            || board.square_count() != (n * n) as usize
            || board.has_prison()
            || pos.extra != Extra::default()
        {
            return None;
        }
        let mut b = Bits {
            variant: pos.variant,
            on,
            roles: [0; 6],
            sides: [0; 2],
            turn: pos.turn,
            castling: pos.castling,
            ep: match pos.ep {
                Some(s) => Some(index(s)?),
                None => None,
            },
            halfmove: pos.halfmove,
            fullmove: pos.fullmove,
        };
        for i in (0..64).filter(|&i| on & (1 << i) != 0) {
            let stack = board.get(square(i))?;
            if stack.is_empty() {
                continue;
            }
            let p = stack.piece()?;
            if p.role.index() > P {
                return None;
            }
            b.roles[p.role.index()] |= 1 << i;
            b.sides[p.color.index()] |= 1 << i;
        }
        let one_king = |c: Color| b.pieces(c, Role::King).count_ones() == 1;
        (one_king(Color::White) && one_king(Color::Black)).then_some(b)
    }

    /// Writes the position into `pos`, a position of the same variant on
    /// the same board (the one this was made from, or one like it),
    /// reusing its board's arrays.
    pub fn write_into(&self, pos: &mut Position) {
        pos.variant = self.variant;
        for i in (0..64u8).filter(|&i| self.on & (1 << i) != 0) {
            let bit = 1u64 << i;
            let stack = match self.role_at(i) {
                Some(role) => {
                    let color = if self.sides[0] & bit != 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    Stack::single(Piece::new(color, role))
                }
                None => Stack::EMPTY,
            };
            pos.board.set(square(i), stack);
        }
        pos.turn = self.turn;
        pos.castling = self.castling;
        pos.ep = self.ep.map(square);
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        pos.extra = Extra::default();
    }

    #[inline]
    fn pieces(&self, c: Color, role: Role) -> u64 {
        self.roles[role.index()] & self.sides[c.index()]
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.sides[0] | self.sides[1]
    }

    fn role_at(&self, s: Sq) -> Option<Role> {
        let bit = 1u64 << s;
        (0..6).find(|&k| self.roles[k] & bit != 0).map(|k| ROLES[k])
    }

    /// Is square `s` attacked by a piece of `by`, on the board with
    /// occupancy `occ`?
    #[inline]
    fn attacked(&self, s: usize, by: Color, occ: u64) -> bool {
        // The squares beyond the board block every line.
        let occ = occ | !self.on;
        let them = self.sides[by.index()];
        let r = &self.roles;
        (KNIGHT[s] & r[N] & them) != 0
            || (PAWN_ATTACKS[(!by).index()][s] & r[P] & them) != 0
            || (KING[s] & r[K] & them) != 0
            || (bishop_attacks(s, occ) & (r[B] | r[Q]) & them) != 0
            || (rook_attacks(s, occ) & (r[R] | r[Q]) & them) != 0
    }

    /// Is the king of `c` attacked? (False when it has none.)
    #[inline]
    fn king_attacked(&self, c: Color) -> bool {
        let k = self.pieces(c, Role::King);
        k != 0 && self.attacked(k.trailing_zeros() as usize, !c, self.occupied())
    }

    /// Is the side to move in check?
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.turn)
    }

    /// Plays a move (legal, or at least pseudo-legal) in place: as
    /// `Position::apply_piece_move` plays it.
    pub fn make(&mut self, m: &BitMove) {
        let us = self.turn;
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        let mut captured = false;
        if self.sides[t] & to != 0 {
            for r in &mut self.roles {
                *r &= !to;
            }
            self.sides[t] &= !to;
            captured = true;
        }
        self.roles[m.role.index()] &= !from;
        self.sides[u] ^= from | to;
        self.roles[m.promotion.unwrap_or(m.role).index()] |= to;
        match m.kind {
            Kind::EnPassant => {
                let c = if us == Color::White {
                    m.to - 8
                } else {
                    m.to + 8
                };
                let cb = 1u64 << c;
                captured |= self.sides[t] & cb != 0;
                self.roles[P] &= !cb;
                self.sides[t] &= !cb;
            }
            Kind::Castle => {
                let (rf, rt) = m.rook_squares();
                let both = (1u64 << rf) | (1u64 << rt);
                self.roles[R] ^= both;
                self.sides[u] ^= both;
            }
            _ => {}
        }
        // Rights go when a piece leaves or lands on a king's or rook's
        // first square (FI-2, as `Castling::lose_rights` says).
        const CORNERS_AND_KINGS: u64 = 0x9100_0000_0000_0091;
        if self.variant == Variant::Chess
            && self.castling.any()
            && (from | to) & CORNERS_AND_KINGS != 0
        {
            self.castling.lose_rights(square(m.from), square(m.to));
        }
        self.ep = None;
        if m.kind == Kind::DoubleStep {
            let beside = ((to << 1) & !FILE_A) | ((to >> 1) & !FILE_H);
            if beside & self.pieces(them, Role::Pawn) != 0 {
                self.ep = Some((m.from + m.to) / 2);
            }
        }
        if m.role == Role::Pawn || captured {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
    }

    /// Does the move leave the mover's king unattacked (FI-3)?
    #[inline]
    fn leaves_king_safe(&self, m: &BitMove) -> bool {
        self.play_if_safe(m).is_some()
    }

    /// The position after the move, if it leaves the mover's king
    /// unattacked (FI-3).
    #[inline]
    fn play_if_safe(&self, m: &BitMove) -> Option<Bits> {
        let mut next = *self;
        next.make(m);
        (!next.king_attacked(self.turn)).then_some(next)
    }

    /// The pseudo-legal moves, in the order: kings, queens, rooks,
    /// bishops, knights, pawns, castling; `emit` returns true to stop
    /// (and then so does this).
    fn pseudo_until(&self, mut emit: impl FnMut(BitMove) -> bool) -> bool {
        let us = self.turn;
        let own = self.sides[us.index()];
        let enemy = self.sides[(!us).index()];
        let occ = own | enemy;
        for (k, &role) in ROLES[..P].iter().enumerate() {
            let mut from_set = self.roles[k] & own;
            while from_set != 0 {
                let from = pop(&mut from_set);
                let mut targets = attacks(role, from, occ | !self.on) & !own & self.on;
                while targets != 0 {
                    let to = pop(&mut targets);
                    if emit(BitMove {
                        role,
                        from: from as Sq,
                        to: to as Sq,
                        promotion: None,
                        kind: Kind::Normal,
                    }) {
                        return true;
                    }
                }
            }
        }
        let white = us == Color::White;
        let last = self.last_rank(us);
        let second = self.second_rank(us);
        let ep = self.ep_target();
        let mut pawns = self.pieces(us, Role::Pawn);
        while pawns != 0 {
            let from = pop(&mut pawns);
            let mut each = |to: usize, kind: Kind| -> bool {
                let m = pawn_move(from, to, kind);
                if last & (1 << to) != 0 {
                    PROMOTIONS.iter().any(|&p| {
                        emit(BitMove {
                            promotion: Some(p),
                            ..m
                        })
                    })
                } else {
                    emit(m)
                }
            };
            let step = if white {
                from + 8
            } else {
                from.wrapping_sub(8)
            };
            if step < 64 && (occ | !self.on) & (1 << step) == 0 {
                if each(step, Kind::Normal) {
                    return true;
                }
                let double = if white {
                    step + 8
                } else {
                    step.wrapping_sub(8)
                };
                if second & (1 << from) != 0
                    && double < 64
                    && occ & (1 << double) == 0
                    && each(double, Kind::DoubleStep)
                {
                    return true;
                }
            }
            let mut caps = PAWN_ATTACKS[us.index()][from] & enemy;
            while caps != 0 {
                if each(pop(&mut caps), Kind::Normal) {
                    return true;
                }
            }
            if let Some(e) = ep {
                if PAWN_ATTACKS[us.index()][from] & (1 << e) != 0 && each(e, Kind::EnPassant) {
                    return true;
                }
            }
        }
        for long in [false, true] {
            if let Some(m) = self.castle_move(long) {
                if emit(m) {
                    return true;
                }
            }
        }
        false
    }

    /// The last rank of `c`'s pawns (FI-2, GA-3): where they promote.
    #[inline]
    fn last_rank(&self, c: Color) -> u64 {
        let top = 63 - self.on.leading_zeros() as usize;
        match c {
            Color::White => (RANK_1 << (top / 8 * 8)) & self.on,
            Color::Black => RANK_1 & self.on,
        }
    }

    /// The rank `c`'s pawns may double-step from: none in Gardner
    /// minichess (GA-2).
    #[inline]
    fn second_rank(&self, c: Color) -> u64 {
        match (self.variant, c) {
            (Variant::Chess, Color::White) => RANK_1 << 8,
            (Variant::Chess, Color::Black) => RANK_1 << 48,
            _ => 0,
        }
    }

    /// The en passant target, when a capture onto it may be made: empty,
    /// with an enemy pawn beyond it (as `ep_cells` asks).
    fn ep_target(&self) -> Option<usize> {
        if self.variant != Variant::Chess {
            return None;
        }
        let e = self.ep? as usize;
        let beyond = if self.turn == Color::White {
            e.checked_sub(8)?
        } else {
            e + 8
        };
        (beyond < 64
            && self.occupied() & (1 << e) == 0
            && self.pieces(!self.turn, Role::Pawn) & (1 << beyond) != 0)
            .then_some(e)
    }

    /// The pseudo-legal castling move of the side to move, king side or
    /// long, with `castling_cells`'s conditions (FI-2) but king safety
    /// after it.
    fn castle_move(&self, long: bool) -> Option<BitMove> {
        let us = self.turn;
        if self.variant != Variant::Chess || !self.castling.get(us, !long) {
            return None;
        }
        let base: usize = if us == Color::White { 0 } else { 56 };
        let king = base + 4;
        if self.pieces(us, Role::King) & (1 << king) == 0 {
            return None;
        }
        let (rook, between, path, to): (usize, u64, [usize; 3], usize) = if long {
            (base, 0b1110 << base, [king, king - 1, king - 2], king - 2)
        } else {
            (
                base + 7,
                0b110_0000 << base,
                [king, king + 1, king + 2],
                king + 2,
            )
        };
        let occ = self.occupied();
        if self.pieces(us, Role::Rook) & (1 << rook) == 0 || occ & between != 0 {
            return None;
        }
        if path.iter().any(|&s| self.attacked(s, !us, occ)) {
            return None;
        }
        Some(BitMove {
            role: Role::King,
            from: king as Sq,
            to: to as Sq,
            promotion: None,
            kind: Kind::Castle,
        })
    }

    /// Has the side to move a legal move?
    pub fn has_legal_move(&self) -> bool {
        self.pseudo_until(|m| self.leaves_king_safe(&m))
    }

    /// The legal moves.
    pub fn legal_moves(&self, out: &mut Vec<BitMove>) {
        self.pseudo_until(|m| {
            if self.leaves_king_safe(&m) {
                out.push(m);
            }
            false
        });
    }

    /// The legal moves of kind `role` onto `to`, from the given file or
    /// rank (1 to 8) when one is given, with promotion `promotion` when one
    /// is given (any, for a pawn reaching the last rank, when none is):
    /// what a SAN text names, as `san::piece_matches` matches it (castling
    /// is not a king move here: see [`Bits::castle`]).
    pub fn find(
        &self,
        role: Role,
        to: Sq,
        from_file: Option<i16>,
        from_rank: Option<i16>,
        promotion: Option<Role>,
    ) -> Found {
        let us = self.turn;
        let own = self.sides[us.index()];
        let to_bit = 1u64 << to;
        if own & to_bit != 0 || self.on & to_bit == 0 || role.index() > P {
            return Found::None;
        }
        let mut from_mask = !0u64;
        if let Some(f) = from_file {
            if !(1..=8).contains(&f) {
                return Found::None;
            }
            from_mask &= FILE_A << (f - 1);
        }
        if let Some(r) = from_rank {
            if !(1..=8).contains(&r) {
                return Found::None;
            }
            from_mask &= RANK_1 << (8 * (r - 1));
        }
        let mut found = Found::None;
        let mut take = |m: BitMove| {
            if let Some(next) = self.play_if_safe(&m) {
                found = match found {
                    Found::None => Found::One(m, next),
                    _ => Found::Many,
                };
            }
        };
        let to = to as usize;
        if role != Role::Pawn {
            if promotion.is_some() {
                return Found::None;
            }
            let mut from_set =
                attacks(role, to, self.occupied() | !self.on) & self.pieces(us, role) & from_mask;
            while from_set != 0 {
                take(BitMove {
                    role,
                    from: pop(&mut from_set) as Sq,
                    to: to as Sq,
                    promotion: None,
                    kind: Kind::Normal,
                });
            }
            return found;
        }
        let white = us == Color::White;
        let pawns = self.pieces(us, Role::Pawn) & from_mask;
        let last = self.last_rank(us) & to_bit != 0;
        if promotion.is_some_and(|p| !last || !PROMOTIONS.contains(&p)) {
            return Found::None;
        }
        let mut candidates: [(usize, Kind); 3] = [(64, Kind::Normal); 3];
        let mut n = 0;
        let behind = |s: usize| if white { s.checked_sub(8) } else { Some(s + 8) };
        if self.sides[(!us).index()] & to_bit != 0 {
            let mut from_set = PAWN_ATTACKS[(!us).index()][to] & pawns;
            while from_set != 0 && n < 2 {
                candidates[n] = (pop(&mut from_set), Kind::Normal);
                n += 1;
            }
        } else {
            let occ = self.occupied();
            if let Some(one) = behind(to).filter(|&s| s < 64) {
                if pawns & (1 << one) != 0 {
                    candidates[n] = (one, Kind::Normal);
                    n += 1;
                } else if occ & (1 << one) == 0 {
                    let two =
                        behind(one).filter(|&t| t < 64 && self.second_rank(us) & (1 << t) != 0);
                    if let Some(two) = two.filter(|&t| pawns & (1 << t) != 0) {
                        candidates[n] = (two, Kind::DoubleStep);
                        n += 1;
                    }
                }
            }
            if self.ep_target() == Some(to) {
                let mut from_set = PAWN_ATTACKS[(!us).index()][to] & pawns;
                while from_set != 0 && n < 3 {
                    candidates[n] = (pop(&mut from_set), Kind::EnPassant);
                    n += 1;
                }
            }
        }
        for &(from, kind) in &candidates[..n] {
            let m = pawn_move(from, to, kind);
            if !last {
                take(m);
                continue;
            }
            for &p in PROMOTIONS {
                if promotion.is_none_or(|w| w == p) {
                    take(BitMove {
                        promotion: Some(p),
                        ..m
                    });
                }
            }
        }
        found
    }

    /// The legal castling move, long or short, if there is one: as
    /// [`Bits::find`] finds a move.
    pub fn castle(&self, long: bool) -> Found {
        match self.castle_move(long) {
            Some(m) => match self.play_if_safe(&m) {
                Some(next) => Found::One(m, next),
                None => Found::None,
            },
            None => Found::None,
        }
    }

    /// FI-5's dead positions, as `chess::is_dead` decides them: kings and
    /// at most one minor piece, or kings and bishops all on squares of one
    /// colour.
    pub fn is_dead(&self) -> bool {
        if self.variant != Variant::Chess {
            return false;
        }
        let r = &self.roles;
        if self.occupied() & !(r[K] | r[B] | r[N]) != 0 {
            return false;
        }
        let minors = r[B] | r[N];
        minors.count_ones() <= 1 || (r[N] == 0 && (r[B] & LIGHT == 0 || r[B] & !LIGHT == 0))
    }

    /// Whether the move takes a piece (en passant included).
    pub fn captures(&self, m: &BitMove) -> bool {
        m.kind == Kind::EnPassant || self.sides[(!self.turn).index()] & (1 << m.to) != 0
    }

    /// The move as the generic rules name it.
    pub fn piece_move(&self, m: &BitMove) -> PieceMove {
        let mut pm = PieceMove::new(m.role, square(m.from), square(m.to));
        pm.promotion = m.promotion;
        pm.kind = match m.kind {
            Kind::Normal => MoveKind::Normal,
            Kind::DoubleStep => MoveKind::DoubleStep,
            Kind::EnPassant => MoveKind::EnPassant {
                captured: square(if self.turn == Color::White {
                    m.to - 8
                } else {
                    m.to + 8
                }),
            },
            Kind::Castle => {
                let (rf, rt) = m.rook_squares();
                MoveKind::Castle {
                    rook: square(rf),
                    rook_to: square(rt),
                }
            }
        };
        pm
    }
}

#[cfg(test)]
pub(crate) mod tests;
