//! The king-safety filter (FI-3): whether a move leaves a king of the
//! mover attacked, decided without playing it where it can be. See the
//! parent module for the rule.

use super::{CellKind, CellMove};
use crate::color::Color;
use crate::piece::{Piece, Role, Stack};
use crate::position::{attacked_with, passes, Position};
use crate::variant::Tables;

/// What the king-safety filter knows about a position: the cells of the
/// mover's kings, whether one of them is attacked, and the mover's pieces
/// pinned to one (standing between it and an enemy piece that would attack
/// it along that line if they moved off it). With one king in check by
/// one piece, also the cells that answer the check: the checker's and
/// those between it and the king. Kept between positions so the lists are
/// not allocated again.
#[derive(Clone, Debug, Default)]
pub struct KingSafety {
    pub(super) kings: Vec<usize>,
    in_check: bool,
    /// Enemy pieces attacking the king, counted when there is one king.
    checkers: usize,
    /// With one king and one checker: the checker's cell and the cells
    /// between it and the king.
    evasions: Vec<usize>,
    pinned: Vec<usize>,
    /// The enemy has hoppers or lame leapers: a piece moved onto or off a
    /// line, or off the square a leap passes, can let one attack, so such
    /// moves are tested ([`KingSafety::safe_after`]).
    screens: bool,
    /// With screens and one king, the cells where a move can change such
    /// an attack on it: the lines out from the king along the hoppers'
    /// directions, and the squares the lame leaps onto it pass. With
    /// screens and several kings or none, every move is tested.
    screen: Vec<usize>,
}

thread_local! {
    /// One king-safety record per thread, for the one-position queries
    /// (resolving a move, "is there a legal move?") that would otherwise
    /// allocate its lists each time.
    static SAFETY: std::cell::RefCell<KingSafety> = std::cell::RefCell::default();
}

impl KingSafety {
    /// Runs `f` with this thread's scratch record (a fresh one if it is in
    /// use further up the stack).
    pub fn with<T>(f: impl FnOnce(&mut KingSafety) -> T) -> T {
        SAFETY.with(|cell| match cell.try_borrow_mut() {
            Ok(mut s) => f(&mut s),
            Err(_) => f(&mut KingSafety::default()),
        })
    }

    pub fn new(pos: &Position) -> KingSafety {
        let mut s = KingSafety::default();
        s.update(pos);
        s
    }

    /// Recomputes everything for `pos`, the side to move being the mover.
    pub fn update(&mut self, pos: &Position) {
        self.update_with(pos, pos.tables());
    }

    /// [`KingSafety::update`] with the movement tables given (a defined
    /// variant's, which its definition holds).
    pub fn update_with(&mut self, pos: &Position, tables: &Tables) {
        let board = &pos.board;
        let us = pos.turn;
        let them = !us;
        self.kings.clear();
        self.pinned.clear();
        self.evasions.clear();
        self.checkers = 0;
        self.screens = !tables.hops[them].is_empty() || tables.lame[them];
        for i in board.cells_of(us) {
            if board.cell(i).roles().contains(Role::King) {
                self.kings.push(i);
            }
        }
        if self.kings.len() != 1 {
            self.in_check = self
                .kings
                .iter()
                .any(|&k| attacked_with(board, tables, k, them, |i| board.cell(i)));
        }
        // One walk per enemy attack direction out from each king: the
        // first piece met, if an enemy that attacks along that line from
        // there, gives check; if it is the mover's own, the next piece
        // met, if such an enemy, pins it.
        let single = self.kings.len() == 1;
        for &king in &self.kings {
            for dir in &tables.attacks[them] {
                if !single && dir.max < 2 {
                    continue;
                }
                let off = board.offset(-dir.dx, -dir.dy);
                let mut i = king;
                let mut own = None;
                for n in 0..dir.max as usize {
                    i = board.step(i, off);
                    let c = board.cell(i);
                    if c.is_empty() {
                        continue;
                    }
                    if c.is_off() {
                        break;
                    }
                    if c.color() == us {
                        if own.is_some() {
                            break;
                        }
                        own = Some(i);
                        continue;
                    }
                    if dir.hits(c, n) && passes(board, dir, i, &|j| board.cell(j)) {
                        match own {
                            Some(p) => self.pinned.push(p),
                            None if single => {
                                self.checkers += 1;
                                if self.checkers == 1 {
                                    let mut j = king;
                                    for _ in 0..=n {
                                        j = board.step(j, off);
                                        self.evasions.push(j);
                                    }
                                }
                            }
                            None => {}
                        }
                    }
                    break;
                }
            }
        }
        if single {
            self.in_check = self.checkers > 0
                || (self.screens
                    && attacked_with(board, tables, self.kings[0], them, |i| board.cell(i)));
        }
        self.screen.clear();
        if self.screens && single {
            self.find_screen(board, tables, them);
        }
    }

    /// [`KingSafety::screen`] of the one king.
    fn find_screen(&mut self, board: &crate::board::Board, tables: &Tables, them: Color) {
        let king = self.kings[0];
        for dir in &tables.hops[them] {
            let off = board.offset(-dir.dx, -dir.dy);
            let mut i = board.step(king, off);
            while !board.cell(i).is_off() {
                self.screen.push(i);
                i = board.step(i, off);
            }
        }
        for dir in tables.attacks[them].iter().filter(|d| d.pass.is_some()) {
            let leaper = board.step(king, board.offset(-dir.dx, -dir.dy));
            if let Some((x, y)) = dir.pass {
                self.screen.push(board.step(leaper, board.offset(x, y)));
            }
        }
    }

    /// Whether a move of a piece (not the king) can change an attack of a
    /// hopper or a lame leaper on a king of the mover.
    #[inline]
    fn screened(&self, m: &CellMove) -> bool {
        self.screens
            && (self.kings.len() != 1
                || self.screen.contains(&(m.from as usize))
                || self.screen.contains(&(m.to as usize)))
    }

    /// Is one of the mover's kings attacked?
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Does the move leave every king of the mover unattacked? `pos` is
    /// the position [`KingSafety::update`] last saw.
    #[inline(always)]
    pub fn allows(&self, pos: &Position, m: &CellMove) -> bool {
        self.allows_with(pos, pos.tables(), m)
    }

    /// [`KingSafety::allows`] with the movement tables given, those
    /// [`KingSafety::update_with`] had.
    #[inline(always)]
    pub fn allows_with(&self, pos: &Position, tables: &Tables, m: &CellMove) -> bool {
        // Most moves: not in check, not the king, not en passant or
        // castling, and the piece not pinned.
        (!self.in_check
            && !self.screened(m)
            && m.role != Role::King
            && matches!(m.kind, CellKind::Normal | CellKind::DoubleStep)
            && (self.pinned.is_empty() || !self.pinned.contains(&(m.from as usize))))
            || self.judge(pos, tables, m)
    }

    /// [`KingSafety::allows`] for the moves its first test does not let
    /// through.
    #[inline(never)]
    fn judge(&self, pos: &Position, tables: &Tables, m: &CellMove) -> bool {
        if self.screens && (self.in_check || m.role == Role::King || self.screened(m)) {
            return self.safe_after(pos, tables, m);
        }
        let from = m.from as usize;
        match self.kings.as_slice() {
            [] => true,
            &[king] => match m.kind {
                CellKind::Normal if m.role == Role::King && from == king => {
                    // The king's new cell, attacked through its old one.
                    let board = &pos.board;
                    let cell = |i: usize| {
                        if i == from {
                            Stack::EMPTY
                        } else {
                            board.cell(i)
                        }
                    };
                    !attacked_with(board, tables, m.to as usize, !pos.turn, cell)
                }
                CellKind::Normal | CellKind::DoubleStep if m.role != Role::King => {
                    if self.pinned.contains(&from) {
                        self.safe_after(pos, tables, m)
                    } else if !self.in_check {
                        true
                    } else if self.checkers == 1 {
                        // Take the checker or step between.
                        self.evasions.contains(&(m.to as usize))
                    } else {
                        self.safe_after(pos, tables, m)
                    }
                }
                _ => self.safe_after(pos, tables, m),
            },
            _ => {
                if !self.in_check
                    && m.role != Role::King
                    && !matches!(m.kind, CellKind::EnPassant { .. })
                    && !self.pinned.contains(&from)
                {
                    return true;
                }
                self.safe_after(pos, tables, m)
            }
        }
    }

    /// The test: the cells the move changes are looked up in a list of
    /// overrides in front of the board, and each king of the mover, where
    /// it stands after the move, is checked for attacks.
    fn safe_after(&self, pos: &Position, tables: &Tables, m: &CellMove) -> bool {
        let board = &pos.board;
        let us = pos.turn;
        let (from, to) = (m.from as usize, m.to as usize);
        let moving = board.cell(from);
        let placed = match (m.promotion, m.kind) {
            (Some(p), _) => Stack::single(Piece::new(us, p)),
            (None, CellKind::Drop) => Stack::single(Piece::new(us, m.role)),
            (None, _) => moving,
        };
        let mut over = [(usize::MAX, Stack::EMPTY); 4];
        over[0] = (from, Stack::EMPTY);
        over[1] = (to, placed);
        let n = match m.kind {
            CellKind::EnPassant { captured } => {
                over[2] = (captured as usize, Stack::EMPTY);
                3
            }
            CellKind::Castle { rook, rook_to } => {
                over[2] = (rook as usize, Stack::EMPTY);
                over[3] = (rook_to as usize, board.cell(rook as usize));
                4
            }
            _ => 2,
        };
        let over = &over[..n];
        // The last write to a cell wins, as when the move is played.
        let cell = |i: usize| match over.iter().rev().find(|o| o.0 == i) {
            Some(&(_, s)) => s,
            None => board.cell(i),
        };
        self.kings.iter().all(|&k| {
            let k = if m.role == Role::King && k == from {
                to
            } else {
                k
            };
            !cell(k).has(us, Role::King) || !attacked_with(board, tables, k, !us, cell)
        })
    }
}
