//! The swap walk: P1 travelling from piece to piece (SW-3..SW-9), on a
//! compact copy of the 8x8 board made for it.
//!
//! Swaps only exchange what stands on two occupied squares, so the set of
//! occupied squares never changes during a sequence, and neither does which
//! squares a piece of a given side and kind on a given square attacks:
//! sliders are blocked by occupied squares only. [`Layout`] (in [`super::layout`]) computes these
//! attack sets once per position from the variant's movement tables, and
//! every question the walk asks afterwards (what P1 may swap with, is a
//! king in check) is a few bit operations.
//!
//! A walk state is the board, P1's square and the squares P1 has left
//! (`used`): the pieces standing there are the ones already swapped, which
//! may not be swapped again (SW-5), so a sequence is a path through
//! distinct squares. Counting, finding one legal turn and visiting every
//! turn are depth-first searches over these states that never build a list
//! of sequences.

use super::layout::{code, color_of, decode, hash_of, role_of, Layout, EMPTY, ROLES, ZOBRIST};
// `walk::{bit_of, square_of}` stay valid.
pub use super::layout::{bit_of, square_of};
use crate::color::Color;
use crate::mv::{SwapSequence, SwapStep};
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Why a written sequence is not a legal turn (or not a legal prefix):
/// the step it fails at (0 for the start), what is wrong, and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    pub step: usize,
    pub reason: String,
    pub rule: &'static str,
    /// The step lacks the promotion its swap requires (SW-7): resolving a
    /// text tries each choice.
    pub missing_promotion: bool,
}

impl StepError {
    fn new(step: usize, rule: &'static str, reason: String) -> StepError {
        StepError {
            step,
            reason,
            rule,
            missing_promotion: false,
        }
    }
}

/// Where a walk along a written sequence ended.
#[derive(Clone, Copy, Debug)]
pub struct WalkEnd {
    /// P1's square.
    pub p1: u8,
    /// The squares P1 has left.
    pub used: u64,
    /// The last swap left the opponent in check: the sequence must end.
    pub gives_check: bool,
    /// The mover's king is safe and the KO rule does not bar the placement.
    pub is_turn: bool,
}

/// One swap that P1 may make next, with what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextStep {
    pub step: SwapStep,
    /// The sequence ending here is a legal turn.
    pub is_turn: bool,
    /// This swap gives check: the sequence ends here (SW-6).
    pub gives_check: bool,
    /// Legal turns that begin with the sequence up to this step (itself
    /// included), when counted within the budget.
    pub count: Option<u64>,
}

/// A transposition-table entry: a walk state from which no legal turn was
/// found.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    hash: u64,
    cells: [u8; 64],
    p1: u8,
    used: u64,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash ^ self.used.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.p1 as u64);
    }
}

/// The keys are hashed already; the table takes their value as it is.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Most states the transposition table keeps; past it the search goes on
/// without storing more, so memory stays bounded.
const TT_CAPACITY: usize = 1 << 18;

/// Walk states a subtree must have cost before the table keeps its root.
const TT_MIN_WORK: u64 = 32;

/// A depth for [`Walker::exists`] that no sequence reaches: at most 31
/// other pieces can be swapped.
const UNLIMITED: usize = 64;

/// The compact board of a walk and the searches over it.
pub struct Walker {
    lay: Box<Layout>,
    cells: [u8; 64],
    bb: [[u64; ROLES]; 2],
    hash: u64,
    us: Color,
    /// SW-9: the placement the mover may not give back by a swap sequence.
    ko: Option<([u8; 64], u64)>,
    /// Squares of each side's promotion rank.
    promo: [u64; 2],
    promotions: &'static [Role],
    /// Nodes visited and the most allowed, for counts "where cheap".
    nodes: u64,
    budget: u64,
    /// Whether [`Walker::hopeless`] may cut the search (always, but for
    /// the test that checks the cut changes no count).
    prune: bool,
}

enum Promotes {
    Nobody,
    Mover,
    Partner(usize),
}

impl Walker {
    pub fn new(pos: &Position) -> Walker {
        let mut cells = [EMPTY; 64];
        for (b, cell) in cells.iter_mut().enumerate() {
            if let Some(p) = pos.board.piece_at(square_of(b as u8)) {
                *cell = code(p);
            }
        }
        let ko = super::ko(pos).map(|board| {
            let mut k = [EMPTY; 64];
            for (b, cell) in k.iter_mut().enumerate() {
                if let Some(p) = board.piece_at(square_of(b as u8)) {
                    *cell = code(p);
                }
            }
            (k, hash_of(&k))
        });
        let mut promo = [0u64; 2];
        for color in Color::ALL {
            let rank = pos.promotion_rank(color);
            for file in 1..=8 {
                if let Some(b) = bit_of(Square::new(file, rank)) {
                    promo[color.index()] |= 1 << b;
                }
            }
        }
        let mut bb = [[0u64; ROLES]; 2];
        for (b, &c) in cells.iter().enumerate() {
            if c != EMPTY {
                bb[color_of(c)][role_of(c)] |= 1 << b;
            }
        }
        Walker {
            lay: Box::new(Layout::build(pos, &cells)),
            hash: hash_of(&cells),
            cells,
            bb,
            us: pos.turn,
            ko,
            promo,
            promotions: pos.variant.spec().promotion,
            nodes: 0,
            budget: u64::MAX,
            prune: true,
        }
    }

    pub fn piece(&self, b: u8) -> Option<Piece> {
        decode(self.cells[b as usize])
    }

    /// Squares of the mover's pieces that may start a sequence (any but
    /// the king, SW-3).
    pub fn starts(&self) -> Vec<u8> {
        let us = self.us.index();
        let mut s = (0..ROLES)
            .filter(|&r| r != Role::King.index())
            .fold(0u64, |a, r| a | self.bb[us][r]);
        let mut out = Vec::new();
        while s != 0 {
            out.push(s.trailing_zeros() as u8);
            s &= s - 1;
        }
        out
    }

    /// Does the piece now on `from` (of its side and kind) attack `to`?
    pub fn attacks(&self, from: u8, to: u8) -> bool {
        let c = self.cells[from as usize];
        c != EMPTY && self.lay.att[from as usize][color_of(c)][role_of(c)] >> to & 1 != 0
    }

    #[inline(always)]
    fn set(&mut self, b: u8, c: u8) {
        let i = b as usize;
        let old = self.cells[i];
        if old != EMPTY {
            self.bb[color_of(old)][role_of(old)] &= !(1 << b);
            self.hash ^= ZOBRIST[i][old as usize];
        }
        if c != EMPTY {
            self.bb[color_of(c)][role_of(c)] |= 1 << b;
            self.hash ^= ZOBRIST[i][c as usize];
        }
        self.cells[i] = c;
    }

    fn king(&self, color: usize) -> Option<u8> {
        let k = self.bb[color][Role::King.index()];
        (k != 0).then(|| k.trailing_zeros() as u8)
    }

    /// Pieces of side `by` that attack the occupied square `b`.
    fn attackers(&self, b: u8, by: usize) -> u64 {
        let rev = &self.lay.rev[b as usize][by];
        (0..ROLES).fold(0, |a, r| a | (rev[r] & self.bb[by][r]))
    }

    /// Is a king of `color` attacked? Never, when it has none (SW-12).
    fn in_check(&self, color: usize) -> bool {
        self.king(color)
            .is_some_and(|k| self.attackers(k, color ^ 1) != 0)
    }

    /// SW-9: the placement is the one the KO rule bars.
    fn is_ko(&self) -> bool {
        self.ko
            .as_ref()
            .is_some_and(|(cells, hash)| *hash == self.hash && *cells == self.cells)
    }

    /// Who promotes when P1 on `p` swaps with the piece on `t` (SW-7). On
    /// an 8x8 board with FIDE pawns at most one of the two can: a pawn P1
    /// reaching its last rank leaves a square one rank short of the
    /// partner's, and a pawn partner put on its last rank meets a P1 that
    /// left a square short of its own.
    fn promotes(&self, p: u8, t: u8) -> Promotes {
        let cp = self.cells[p as usize];
        let ct = self.cells[t as usize];
        if role_of(cp) == Role::Pawn.index() && self.promo[color_of(cp)] >> t & 1 != 0 {
            Promotes::Mover
        } else if role_of(ct) == Role::Pawn.index() && self.promo[color_of(ct)] >> p & 1 != 0 {
            Promotes::Partner(color_of(ct))
        } else {
            Promotes::Nobody
        }
    }

    /// The swap of P1 on `p` with the piece on `t`, with the promotion
    /// chosen for it; returns the old codes for [`Walker::unswap`].
    fn swap(&mut self, p: u8, t: u8, who: &Promotes, choice: Option<Role>) -> (u8, u8) {
        let cp = self.cells[p as usize];
        let ct = self.cells[t as usize];
        let promoted = |color: usize| match choice {
            Some(r) => (color * 8 + r.index()) as u8,
            None => color as u8 * 8 + Role::Pawn.index() as u8,
        };
        let np = match who {
            Promotes::Mover => promoted(color_of(cp)),
            _ => cp,
        };
        let nt = match who {
            Promotes::Partner(c) => promoted(*c),
            _ => ct,
        };
        self.set(t, np);
        self.set(p, nt);
        (cp, ct)
    }

    fn unswap(&mut self, p: u8, t: u8, old: (u8, u8)) {
        self.set(p, old.0);
        self.set(t, old.1);
    }

    /// The squares P1 on `p` may swap with next: the occupied squares it
    /// attacks, less those already swapped (SW-3, SW-5).
    fn targets(&self, p: u8, used: u64) -> u64 {
        let c = self.cells[p as usize];
        self.lay.att[p as usize][color_of(c)][role_of(c)] & !used
    }

    /// The promotion choices of a swap: none, or each piece a pawn may
    /// become (SW-7). A fixed array, since the walk asks this at every node.
    fn choices(&self, who: &Promotes) -> ([Option<Role>; 4], usize) {
        match who {
            Promotes::Nobody => ([None; 4], 1),
            _ => {
                let mut out = [None; 4];
                let n = self.promotions.len().min(4);
                for (o, &r) in out.iter_mut().zip(self.promotions) {
                    *o = Some(r);
                }
                (out, n)
            }
        }
    }

    /// Can no sequence going on from here end with the mover's king safe?
    /// Called when it is attacked now. Swaps change only the squares P1
    /// steps onto and the occupancy never changes, so an attack from `a`
    /// on the king persists unless P1 later steps onto `a` (taking the
    /// attacker's place) or onto the king (moving it). If P1 can reach
    /// neither, even ignoring every constraint but its own powers and the
    /// squares already used, the position is hopeless.
    fn hopeless(&self, p: u8, used: u64) -> bool {
        if !self.prune {
            return false;
        }
        let us = self.us.index();
        let Some(k) = self.king(us) else {
            return false;
        };
        let attackers = self.attackers(k, us ^ 1);
        if attackers == 0 {
            return false;
        }
        let reach = self.reach(p, used);
        reach >> k & 1 == 0 && attackers & !reach != 0
    }

    /// Every square P1 on `p` might step onto later: a closure over its
    /// attack sets, through unused occupied squares. A pawn P1 that could
    /// reach its promotion rank is then taken to move as a queen and a
    /// knight at once, which covers every promotion.
    fn reach(&self, p: u8, used: u64) -> u64 {
        let us = self.us.index();
        let avail = self.lay.occ & !used & !(1 << p);
        let role = role_of(self.cells[p as usize]);
        let spread = |mut frontier: u64, seen: &mut u64, roles: &[usize]| {
            while frontier != 0 {
                let mut next = 0u64;
                let mut f = frontier;
                while f != 0 {
                    let x = f.trailing_zeros() as usize;
                    f &= f - 1;
                    for &r in roles {
                        next |= self.lay.att[x][us][r];
                    }
                }
                next &= avail & !*seen;
                *seen |= next;
                frontier = next;
            }
        };
        let mut seen = 0u64;
        if role == Role::Pawn.index() {
            spread(1 << p, &mut seen, &[role]);
            let promoted = seen & self.promo[us];
            if promoted != 0 {
                spread(
                    promoted,
                    &mut seen,
                    &[Role::Queen.index(), Role::Knight.index()],
                );
            }
        } else {
            spread(1 << p, &mut seen, &[role]);
        }
        seen
    }

    /// Counts the legal turns that continue the sequence whose P1 stands
    /// on `p`, having left `used`: each swap it may make next, the
    /// sequence ending there if that is a legal turn, and everything going
    /// on from there. `None` when the node budget runs out.
    fn count(&mut self, p: u8, used: u64) -> Option<u64> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let us = self.us.index();
        let next_used = used | 1 << p;
        let mut n = 0u64;
        let mut targets = self.targets(p, used);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let who = self.promotes(p, t);
            let (choices, n_choices) = self.choices(&who);
            for &choice in &choices[..n_choices] {
                let old = self.swap(p, t, &who, choice);
                let safe = !self.in_check(us);
                if safe && !self.is_ko() {
                    n += 1;
                }
                // SW-6: a swap that gives check ends the sequence.
                if !self.in_check(us ^ 1) && (safe || !self.hopeless(t, next_used)) {
                    match self.count(t, next_used) {
                        Some(k) => n += k,
                        None => {
                            self.unswap(p, t, old);
                            return None;
                        }
                    }
                }
                self.unswap(p, t, old);
            }
        }
        Some(n)
    }

    /// Is there a legal turn continuing from here within `depth` more
    /// swaps? Depth first with early exit. Without a limit (`depth` at
    /// least [`UNLIMITED`]) the states proved empty are kept in `tt`; a
    /// limited search proves nothing about a state, so it keeps none.
    fn exists(&mut self, p: u8, used: u64, depth: usize, tt: &mut Tt) -> bool {
        self.nodes += 1;
        let us = self.us.index();
        let next_used = used | 1 << p;
        let unlimited = depth >= UNLIMITED;
        let mut targets = self.targets(p, used);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let who = self.promotes(p, t);
            let (choices, n_choices) = self.choices(&who);
            for &choice in &choices[..n_choices] {
                let old = self.swap(p, t, &who, choice);
                let safe = !self.in_check(us);
                let found = if safe && !self.is_ko() {
                    true
                } else if depth <= 1
                    || self.in_check(us ^ 1)
                    || (!safe && self.hopeless(t, next_used))
                {
                    false
                } else if !unlimited {
                    self.exists(t, next_used, depth - 1, tt)
                } else {
                    let key = Key {
                        hash: self.hash,
                        cells: self.cells,
                        p1: t,
                        used: next_used,
                    };
                    let before = self.nodes;
                    if tt.contains(&key) {
                        false
                    } else if self.exists(t, next_used, depth, tt) {
                        true
                    } else {
                        // Small subtrees are cheaper to search again than
                        // to store.
                        if self.nodes - before >= TT_MIN_WORK && tt.len() < TT_CAPACITY {
                            tt.insert(key);
                        }
                        false
                    }
                };
                self.unswap(p, t, old);
                if found {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f` with the steps of every legal turn continuing from here,
    /// in depth-first order.
    fn visit(
        &mut self,
        p: u8,
        used: u64,
        path: &mut Vec<SwapStep>,
        f: &mut dyn FnMut(&[SwapStep]),
    ) {
        let us = self.us.index();
        let next_used = used | 1 << p;
        let mut targets = self.targets(p, used);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let who = self.promotes(p, t);
            let (choices, n_choices) = self.choices(&who);
            for &choice in &choices[..n_choices] {
                let old = self.swap(p, t, &who, choice);
                path.push(SwapStep {
                    square: square_of(t),
                    promotion: choice,
                });
                let safe = !self.in_check(us);
                if safe && !self.is_ko() {
                    f(path);
                }
                if !self.in_check(us ^ 1) && (safe || !self.hopeless(t, next_used)) {
                    self.visit(t, next_used, path, f);
                }
                path.pop();
                self.unswap(p, t, old);
            }
        }
    }

    /// Counts every legal swap turn of the position.
    pub fn count_all(&mut self) -> u64 {
        self.budget = u64::MAX;
        self.starts()
            .into_iter()
            .map(|s| self.count(s, 0).unwrap_or(0))
            .sum()
    }

    /// Counts every legal swap turn, giving up after `budget` nodes.
    pub fn count_all_within(&mut self, budget: u64) -> Option<u64> {
        self.nodes = 0;
        self.budget = budget;
        let mut n = 0;
        for s in self.starts() {
            n += self.count(s, 0)?;
        }
        Some(n)
    }

    /// Is there any legal swap turn?
    ///
    /// Short sequences are tried first (one, two, then three swaps: an
    /// escape from check is usually short), then the full search with its
    /// transposition table, which also proves that there is none.
    pub fn any_turn(&mut self) -> bool {
        let mut tt = Tt::default();
        let starts = self.starts();
        [1, 2, 3, UNLIMITED]
            .into_iter()
            .any(|depth| starts.iter().any(|&s| self.exists(s, 0, depth, &mut tt)))
    }

    /// Calls `f` with every legal swap turn of the position.
    pub fn for_each_turn(&mut self, f: &mut dyn FnMut(SwapSequence)) {
        for s in self.starts() {
            let role = self.piece(s).map(|p| p.role).unwrap_or(Role::Pawn);
            let start = square_of(s);
            let mut path = Vec::new();
            self.visit(s, 0, &mut path, &mut |steps| {
                f(SwapSequence {
                    role,
                    start,
                    steps: steps.to_vec(),
                })
            });
        }
    }

    /// The swaps P1 on `p` may make next, each with a count of the turns
    /// it begins when that costs at most `budget` nodes.
    pub fn next_steps(&mut self, p: u8, used: u64, budget: u64) -> Vec<NextStep> {
        let us = self.us.index();
        let next_used = used | 1 << p;
        let mut out = Vec::new();
        let mut targets = self.targets(p, used);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let who = self.promotes(p, t);
            let (choices, n_choices) = self.choices(&who);
            for &choice in &choices[..n_choices] {
                let old = self.swap(p, t, &who, choice);
                let safe = !self.in_check(us);
                let is_turn = safe && !self.is_ko();
                let gives_check = self.in_check(us ^ 1);
                let count = if gives_check || (!safe && self.hopeless(t, next_used)) {
                    Some(is_turn as u64)
                } else {
                    self.nodes = 0;
                    self.budget = budget;
                    let below = self.count(t, next_used);
                    below.map(|n| n + is_turn as u64)
                };
                out.push(NextStep {
                    step: SwapStep {
                        square: square_of(t),
                        promotion: choice,
                    },
                    is_turn,
                    gives_check,
                    count,
                });
                self.unswap(p, t, old);
            }
        }
        self.budget = u64::MAX;
        out
    }

    /// Walks a written sequence step by step, in time proportional to its
    /// length, saying which step breaks which rule. With `as_turn` the
    /// sequence must also be a legal turn as it stands (the mover's king
    /// safe, SW-6 and FI-3; no KO, SW-9). The walker is left after the
    /// last step.
    pub fn walk(&mut self, seq: &SwapSequence, as_turn: bool) -> Result<WalkEnd, StepError> {
        let us = self.us.index();
        let side = self.us.name().to_lowercase();
        let start = bit_of(seq.start).ok_or_else(|| {
            StepError::new(0, "SW-3", format!("{} is not on the board", seq.start))
        })?;
        match self.piece(start) {
            Some(p) if p.color == self.us && p.role == seq.role => {}
            _ => {
                return Err(StepError::new(
                    0,
                    "SW-3",
                    format!(
                        "there is no {side} {} on {} to start the sequence",
                        seq.role.name(),
                        seq.start
                    ),
                ))
            }
        }
        if seq.role == Role::King {
            return Err(StepError::new(
                0,
                "SW-3",
                "a king cannot start a swap sequence".into(),
            ));
        }
        if seq.steps.is_empty() {
            return Err(StepError::new(
                0,
                "SW-3",
                "a swap sequence needs at least one swap".into(),
            ));
        }
        let mut p = start;
        let mut used = 0u64;
        let mut gives_check = false;
        for (i, step) in seq.steps.iter().enumerate() {
            let n = i + 1;
            if gives_check {
                return Err(StepError::new(
                    n,
                    "SW-6",
                    format!("step {n}: the sequence must end after step {i}, which gives check"),
                ));
            }
            let mover = self.piece(p).map(|x| x.to_string()).unwrap_or_default();
            let here = square_of(p);
            let Some(t) = bit_of(step.square) else {
                return Err(StepError::new(
                    n,
                    "SW-3",
                    format!("step {n}: {} is not on the board", step.square),
                ));
            };
            if t == p {
                return Err(StepError::new(
                    n,
                    "SW-3",
                    format!("step {n}: the {mover} on {here} cannot swap with itself"),
                ));
            }
            let Some(partner) = self.piece(t) else {
                return Err(StepError::new(
                    n,
                    "SW-3",
                    format!(
                        "step {n}: {} is empty; the {mover} swaps only with a piece",
                        step.square
                    ),
                ));
            };
            if used >> t & 1 != 0 {
                return Err(StepError::new(
                    n,
                    "SW-5",
                    format!(
                        "step {n}: the {partner} on {} has already been swapped in this sequence",
                        step.square
                    ),
                ));
            }
            if !self.attacks(p, t) {
                return Err(StepError::new(
                    n,
                    "SW-3",
                    format!(
                        "step {n}: the {mover} on {here} does not attack {}",
                        step.square
                    ),
                ));
            }
            let who = self.promotes(p, t);
            let (pawn, lands) = match who {
                Promotes::Mover => (mover.clone(), step.square),
                _ => (partner.to_string(), here),
            };
            match (&who, step.promotion) {
                (Promotes::Nobody, Some(_)) => {
                    return Err(StepError::new(
                        n,
                        "SW-7",
                        format!("step {n}: no pawn reaches its promotion rank on this swap"),
                    ))
                }
                (Promotes::Nobody, None) => {}
                (_, None) => {
                    return Err(StepError {
                        missing_promotion: true,
                        ..StepError::new(
                            n,
                            "SW-7",
                            format!(
                                "step {n}: the swap puts the {pawn} on {lands}, its promotion rank; write what it becomes, e.g. {}=Q",
                                step.square
                            ),
                        )
                    })
                }
                (_, Some(r)) if !self.promotions.contains(&r) => {
                    return Err(StepError::new(
                        n,
                        "SW-7",
                        format!("step {n}: a pawn cannot promote to a {}", r.name()),
                    ))
                }
                _ => {}
            }
            self.swap(p, t, &who, step.promotion);
            used |= 1 << p;
            p = t;
            gives_check = self.in_check(us ^ 1);
        }
        let safe = !self.in_check(us);
        let ko = self.is_ko();
        if as_turn {
            if !safe {
                let k = self.king(us).map(square_of);
                return Err(StepError::new(
                    seq.steps.len(),
                    "SW-6",
                    format!(
                        "after the last swap the {side} king on {} is attacked (FI-3)",
                        k.map(|s| s.to_string()).unwrap_or_default()
                    ),
                ));
            }
            if ko {
                return Err(StepError::new(
                    seq.steps.len(),
                    "SW-9",
                    format!(
                        "it gives back the placement from before {}'s last swap sequence (KO)",
                        !self.us
                    ),
                ));
            }
        }
        Ok(WalkEnd {
            p1: p,
            used,
            gives_check,
            is_turn: safe && !ko,
        })
    }
}

type Tt = HashSet<Key, BuildHasherDefault<PassThrough>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// Positions whose walks pass through many states with the mover's
    /// king in check: crowded mates, a long escape, the page's problem.
    const CHECKED: &[&str] = &[
        "QpkBprn1/2Qp2rp/6bp/4B3/8/PR2N1Nn/P1PKb2P/n1P1P1Rn b - - 2 19",
        "rkrNp2b/1Q2p2n/5n1P/R5PN/2PP1p2/2P3p1/p3K3/B2R1PNN b - - 0 26",
        "nrnp1brk/Rpp3pQ/8/1q6/1P2B3/N6P/BPPP2K1/R1NbPPPn b - - 0 12",
        "3rk3/5Q2/1B6/8/2r5/3b4/5R2/1n6 b - - 1 1",
        "p1p5/pk1r3Q/2p1bp2/1bP5/4p2N/6K1/PPPP4/R1P1P2r b - - 1 21",
        // Pawn P1s, promoting or not, while their own king is in check.
        "r3k3/1P6/8/8/8/8/8/r3K3 w - - 0 1",
        "r3k3/6P1/5P2/4p3/8/3p4/2P5/r3K3 w - - 0 1",
    ];

    #[test]
    fn sw6_the_hopeless_cut_changes_no_count() {
        // SW-6: only the final position must leave the king safe; the cut
        // drops states from which no sequence can make it safe, and must
        // never drop a legal turn.
        for text in CHECKED {
            let pos = Position::from_text(Variant::Swap, text).unwrap();
            let mut cut = Walker::new(&pos);
            let mut full = Walker::new(&pos);
            full.prune = false;
            let n = cut.count_all();
            assert_eq!(n, full.count_all(), "{text}");
            assert_eq!(cut.any_turn(), n > 0, "{text}");
            assert_eq!(full.any_turn(), n > 0, "{text}");
        }
    }

    #[test]
    fn sw3_attack_sets_follow_the_movement_tables() {
        // SW-3: what P1 may swap with is what it attacks, by the same
        // tables that decide check.
        let pos = Position::start(Variant::Swap);
        let w = Walker::new(&pos);
        let at = |s: &str| bit_of(crate::notation::square::parse_square(s).unwrap()).unwrap();
        assert!(w.attacks(at("d1"), at("d2")));
        assert!(!w.attacks(at("d1"), at("d7")));
        assert!(w.attacks(at("g1"), at("e2")));
        assert!(!w.attacks(at("e2"), at("e3")));
        for b in 0..64u8 {
            if w.piece(b).is_none() {
                continue;
            }
            for by in Color::ALL {
                let i = pos.board.index(square_of(b)).unwrap();
                assert_eq!(
                    w.attackers(b, by.index()) != 0,
                    pos.is_attacked(i, by),
                    "{} by {by}",
                    square_of(b)
                );
            }
        }
    }
}
