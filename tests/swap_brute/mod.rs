//! A slow, obviously right Swap Chess move counter, written from the rule
//! file alone (rules/swap.md, rules/fide.md) and sharing no code with the
//! library beyond reading the position text: every FIDE move is found by
//! trying each from and to square, every swap by trying each square of the
//! board as the next partner, and pieces carry identities so that SW-5
//! ("every piece other than P1 may be swapped at most once") is checked as
//! written.

use postal::variant::swap;
use postal::{Color, Position, Square};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Man {
    pub white: bool,
    /// K Q R B N P.
    pub kind: char,
    /// Which piece this is, for SW-5.
    pub id: u8,
}

pub type Cells = [Option<Man>; 64];

#[derive(Clone, Debug)]
pub struct Brute {
    pub cells: Cells,
    pub white: bool,
    /// White king side, white queen side, black king side, black queen side.
    pub castle: [bool; 4],
    pub ep: Option<usize>,
    /// SW-9: the placement (sides and kinds) a swap sequence may not give back.
    pub ko: Option<[Option<(bool, char)>; 64]>,
}

fn at(file: i32, rank: i32) -> Option<usize> {
    ((1..=8).contains(&file) && (1..=8).contains(&rank))
        .then(|| ((rank - 1) * 8 + file - 1) as usize)
}

fn file(i: usize) -> i32 {
    (i % 8) as i32 + 1
}

fn rank(i: usize) -> i32 {
    (i / 8) as i32 + 1
}

fn placement(cells: &Cells) -> [Option<(bool, char)>; 64] {
    let mut p = [None; 64];
    for i in 0..64 {
        p[i] = cells[i].map(|m| (m.white, m.kind));
    }
    p
}

impl Brute {
    pub fn from(pos: &Position) -> Brute {
        let read = |board: &postal::board::Board| {
            let mut cells: Cells = [None; 64];
            for (i, cell) in cells.iter_mut().enumerate() {
                if let Some(p) = board.piece_at(Square::new(file(i) as i16, rank(i) as i16)) {
                    *cell = Some(Man {
                        white: p.color == Color::White,
                        kind: p.role.char(),
                        id: i as u8,
                    });
                }
            }
            cells
        };
        let c = pos.castling;
        Brute {
            cells: read(&pos.board),
            white: pos.turn == Color::White,
            castle: [c.white_king, c.white_queen, c.black_king, c.black_queen],
            ep: pos.ep.and_then(|s| at(s.file as i32, s.rank as i32)),
            ko: swap::ko(pos).map(|b| placement(&read(b))),
        }
    }

    /// Does the piece on `from` attack `to` by its capture powers?
    pub fn attacks(cells: &Cells, from: usize, to: usize) -> bool {
        let Some(m) = cells[from] else { return false };
        let (dx, dy) = (file(to) - file(from), rank(to) - rank(from));
        if dx == 0 && dy == 0 {
            return false;
        }
        let clear = || {
            let (sx, sy) = (dx.signum(), dy.signum());
            let (mut x, mut y) = (file(from) + sx, rank(from) + sy);
            while (x, y) != (file(to), rank(to)) {
                if cells[at(x, y).unwrap()].is_some() {
                    return false;
                }
                x += sx;
                y += sy;
            }
            true
        };
        let straight = dx == 0 || dy == 0;
        let diagonal = dx.abs() == dy.abs();
        match m.kind {
            'K' => dx.abs() <= 1 && dy.abs() <= 1,
            'N' => (dx.abs(), dy.abs()) == (1, 2) || (dx.abs(), dy.abs()) == (2, 1),
            'R' => straight && clear(),
            'B' => diagonal && clear(),
            'Q' => (straight || diagonal) && clear(),
            'P' => dx.abs() == 1 && dy == if m.white { 1 } else { -1 },
            _ => false,
        }
    }

    fn attacked(cells: &Cells, sq: usize, by_white: bool) -> bool {
        (0..64)
            .any(|f| cells[f].is_some_and(|m| m.white == by_white) && Brute::attacks(cells, f, sq))
    }

    /// A king of that side is attacked (never, when it has none).
    pub fn in_check(cells: &Cells, white: bool) -> bool {
        (0..64).any(|k| {
            cells[k].is_some_and(|m| m.white == white && m.kind == 'K')
                && Brute::attacked(cells, k, !white)
        })
    }

    fn last_rank(white: bool) -> i32 {
        if white {
            8
        } else {
            1
        }
    }

    /// Every legal turn, as the positions they lead to (FIDE moves first).
    pub fn children(&self) -> Vec<Brute> {
        let mut out = self.fide_children();
        self.swap_children(&mut out);
        out
    }

    fn fide_children(&self) -> Vec<Brute> {
        let us = self.white;
        let fwd = if us { 1 } else { -1 };
        let mut out = Vec::new();
        for from in 0..64 {
            let Some(m) = self.cells[from] else { continue };
            if m.white != us {
                continue;
            }
            for to in 0..64 {
                let target = self.cells[to];
                if target.is_some_and(|t| t.white == us) {
                    continue;
                }
                let (dx, dy) = (file(to) - file(from), rank(to) - rank(from));
                let mut ep_capture = None;
                let mut double = false;
                let ok = if m.kind == 'P' {
                    if dx == 0 && dy == fwd && target.is_none() {
                        true
                    } else if dx == 0 && dy == 2 * fwd && target.is_none() {
                        // FI-2 from the second rank; SW-8 from the first.
                        let own = if us { rank(from) } else { 9 - rank(from) };
                        double = true;
                        (own == 1 || own == 2)
                            && self.cells[at(file(from), rank(from) + fwd).unwrap()].is_none()
                    } else if dx.abs() == 1 && dy == fwd {
                        if target.is_some() {
                            true
                        } else if self.ep == Some(to) {
                            let victim = at(file(to), rank(from)).unwrap();
                            let is_pawn =
                                self.cells[victim].is_some_and(|v| v.white != us && v.kind == 'P');
                            if is_pawn {
                                ep_capture = Some(victim);
                            }
                            is_pawn
                        } else {
                            false
                        }
                    } else {
                        false
                    }
                } else {
                    Brute::attacks(&self.cells, from, to)
                };
                if !ok {
                    continue;
                }
                let promos: &[char] = if m.kind == 'P' && rank(to) == Brute::last_rank(us) {
                    &['Q', 'R', 'B', 'N']
                } else {
                    &[' ']
                };
                for &promo in promos {
                    let mut next = self.clone();
                    let mut moved = m;
                    if promo != ' ' {
                        moved.kind = promo;
                    }
                    next.cells[from] = None;
                    next.cells[to] = Some(moved);
                    if let Some(v) = ep_capture {
                        next.cells[v] = None;
                    }
                    next.ep = double.then(|| at(file(from), rank(from) + fwd).unwrap());
                    next.lose_rights(from);
                    next.lose_rights(to);
                    next.white = !us;
                    next.ko = None;
                    if !Brute::in_check(&next.cells, us) {
                        out.push(next);
                    }
                }
            }
        }
        // FI-2: castling.
        let home = if us { 1 } else { 8 };
        let e = at(5, home).unwrap();
        if self.cells[e].is_some_and(|k| k.white == us && k.kind == 'K') {
            for (king_side, right) in [
                (true, if us { 0 } else { 2 }),
                (false, if us { 1 } else { 3 }),
            ] {
                let (rook_file, empty, safe, king_to, rook_to): (i32, &[i32], &[i32], i32, i32) =
                    if king_side {
                        (8, &[6, 7], &[5, 6, 7], 7, 6)
                    } else {
                        (1, &[2, 3, 4], &[5, 4, 3], 3, 4)
                    };
                let r = at(rook_file, home).unwrap();
                if !self.castle[right]
                    || !self.cells[r].is_some_and(|x| x.white == us && x.kind == 'R')
                    || empty
                        .iter()
                        .any(|&f| self.cells[at(f, home).unwrap()].is_some())
                    || safe
                        .iter()
                        .any(|&f| Brute::attacked(&self.cells, at(f, home).unwrap(), !us))
                {
                    continue;
                }
                let mut next = self.clone();
                next.cells[at(king_to, home).unwrap()] = next.cells[e].take();
                next.cells[at(rook_to, home).unwrap()] = next.cells[r].take();
                next.lose_rights(e);
                next.ep = None;
                next.white = !us;
                next.ko = None;
                out.push(next);
            }
        }
        out
    }

    fn lose_rights(&mut self, sq: usize) {
        match (file(sq), rank(sq)) {
            (5, 1) => {
                self.castle[0] = false;
                self.castle[1] = false
            }
            (8, 1) => self.castle[0] = false,
            (1, 1) => self.castle[1] = false,
            (5, 8) => {
                self.castle[2] = false;
                self.castle[3] = false
            }
            (8, 8) => self.castle[2] = false,
            (1, 8) => self.castle[3] = false,
            _ => {}
        }
    }

    fn swap_children(&self, out: &mut Vec<Brute>) {
        for start in 0..64 {
            let Some(m) = self.cells[start] else { continue };
            // SW-3: P1 is one of the mover's pieces, not the king.
            if m.white != self.white || m.kind == 'K' {
                continue;
            }
            self.extend(self.cells, start, &mut Vec::new(), &mut vec![start], out);
        }
    }

    /// P1 stands on `p1` in `cells`; `swapped` are the ids already
    /// swapped; `touched` the squares whose pieces have moved.
    fn extend(
        &self,
        cells: Cells,
        p1: usize,
        swapped: &mut Vec<u8>,
        touched: &mut Vec<usize>,
        out: &mut Vec<Brute>,
    ) {
        let us = self.white;
        for t in 0..64 {
            let Some(partner) = cells[t] else { continue };
            // SW-5: each other piece at most once.
            if t == p1 || swapped.contains(&partner.id) || !Brute::attacks(&cells, p1, t) {
                continue;
            }
            let mover = cells[p1].unwrap();
            let mut options: Vec<Cells> = Vec::new();
            // SW-7: a pawn put on its last rank promotes, by the mover's choice.
            for promo in ['Q', 'R', 'B', 'N', ' '] {
                let mut c = cells;
                let mut a = mover;
                let mut b = partner;
                let a_promotes = a.kind == 'P' && rank(t) == Brute::last_rank(a.white);
                let b_promotes = b.kind == 'P' && rank(p1) == Brute::last_rank(b.white);
                if (a_promotes || b_promotes) != (promo != ' ') {
                    continue;
                }
                if a_promotes {
                    a.kind = promo;
                }
                if b_promotes {
                    b.kind = promo;
                }
                c[t] = Some(a);
                c[p1] = Some(b);
                options.push(c);
            }
            for c in options {
                swapped.push(partner.id);
                touched.push(t);
                // FI-3 for the final position only (SW-6); SW-9 KO.
                if !Brute::in_check(&c, us) && self.ko != Some(placement(&c)) {
                    let mut next = self.clone();
                    next.cells = c;
                    for &s in touched.iter() {
                        next.lose_rights(s);
                    }
                    next.ep = None;
                    next.white = !us;
                    next.ko = Some(placement(&self.cells));
                    out.push(next);
                }
                // SW-6: a swap that gives check ends the sequence.
                if !Brute::in_check(&c, !us) {
                    self.extend(c, t, swapped, touched, out);
                }
                swapped.pop();
                touched.pop();
            }
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let children = self.children();
        if depth == 1 {
            return children.len() as u64;
        }
        children.iter().map(|c| c.perft(depth - 1)).sum()
    }
}
