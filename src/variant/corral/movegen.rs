//! Corral move generation: stack moves (CO-6..CO-8), one value per
//! distinct move (CO-16), and the legality filter with its two parts, own
//! king safety (CO-12) and the checkmate ban (CO-10) with its reply search.
//!
//! Moves are generated per stack in two steps. First, for every kind of
//! piece in the stack, the destinations its own powers reach (range-4
//! riders, knight leaps, pawn steps, double steps, en passant; CO-3..CO-5).
//! Then for every group of pieces that may leave (a sub-multiset of the
//! stack) and every destination some piece of the group reaches, one move.
//! Two moves with the same squares, the same multiset of pieces and the
//! same promotions are the same move (CO-16), so a destination that several
//! pieces of the group reach gives one move, not one per mover; the mover
//! written is the first of them in the order K Q R B N P.

use crate::board::Board;
use crate::color::Color;
use crate::mv::{MoveKind, PieceMove};
use crate::piece::{Role, Roles, Stack, MOVE_ORDER};
use crate::position::attacked;
use crate::square::Square;
use crate::variant::Tables;

const KING_BIT: u8 = 1 << 0;
const PAWN_BIT: u8 = 1 << 5;

/// c5, the one square from which a king enters the prison (CO-9).
pub const PRISON_DOOR: Square = Square::new(3, 5);

/// The rank a side's pawns promote on (CO-3): 9 for White, 1 for Black.
pub fn last_rank(color: Color) -> i16 {
    match color {
        Color::White => super::SPEC.ranks,
        Color::Black => 1,
    }
}

/// A side's second rank, where its pawns may double-step (CO-3, CO-15).
pub fn second_rank(color: Color) -> i16 {
    match color {
        Color::White => 2,
        Color::Black => super::SPEC.ranks - 1,
    }
}

/// The en passant chance of the side to move (CO-8): the square the
/// double step passed, the square it reached, and the pieces that made it,
/// which are all that an en passant capture takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EpChance {
    pub passed: usize,
    pub reached: usize,
    pub group: Roles,
}

/// How a step is special.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    Normal,
    /// A pawn of the group could make this move as its double step, so it
    /// is one (CO-3, CO-16): en passant may follow.
    Double,
    /// En passant: takes the group that made the double step from the cell.
    EnPassant(usize),
    /// A king from c5 into the prison (CO-9).
    Prison,
}

/// A move in array indices, as the generator and the legality filter use
/// it; [`to_piece_move`] turns it into the program's [`PieceMove`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    /// The pieces leaving `from`: the mover and what it carries.
    pub group: Roles,
    /// What arrives at `to`: the group with its pawns promoted.
    pub arriving: Roles,
    /// What the group's pawns promote to (empty when none do).
    pub promotions: Roles,
    /// The mover written: the first piece of the group, in the order
    /// K Q R B N P, whose powers make the move.
    pub mover: Role,
    /// Every kind in the group whose powers make the move (bits by role).
    pub movers: u8,
    pub kind: StepKind,
}

/// Where one kind of piece of a stack can go.
#[derive(Copy, Clone, Debug)]
pub struct Dest {
    to: usize,
    /// Kinds reaching `to`, bits by role index.
    mask: u8,
    /// The pawn reaches `to` by its double step.
    double: bool,
}

/// Scratch buffers, kept between calls so generation does not allocate.
#[derive(Default)]
pub struct Buffers {
    dests: Vec<Dest>,
    groups: Vec<Roles>,
}

/// `a + b` for multisets whose counts stay below 16 (one side has at most
/// nine pieces of a kind).
#[inline]
fn add(a: Roles, b: Roles) -> Roles {
    Roles(a.0 + b.0)
}

/// `a - b` for `b` included in `a`.
#[inline]
fn sub(a: Roles, b: Roles) -> Roles {
    debug_assert!(a.includes(b));
    Roles(a.0 - b.0)
}

fn add_dest(dests: &mut Vec<Dest>, to: usize, bit: u8, double: bool) {
    match dests.iter_mut().find(|d| d.to == to) {
        Some(d) => {
            d.mask |= bit;
            d.double |= double;
        }
        None => dests.push(Dest {
            to,
            mask: bit,
            double,
        }),
    }
}

/// All sub-multisets of `roles`, the empty one first.
fn sub_multisets(roles: Roles, out: &mut Vec<Roles>) {
    out.clear();
    out.push(Roles::EMPTY);
    for r in 0..Role::ALL.len() {
        let c = (roles.0 >> (4 * r)) & 0xf;
        let n = out.len();
        for k in 1..=c {
            for j in 0..n {
                out.push(Roles(out[j].0 + (k << (4 * r))));
            }
        }
    }
}

/// The ways `n` pawns can promote (CO-3), as multisets of Q R B N, queens
/// first.
fn promotion_sets(n: u32, all: bool, mut f: impl FnMut(Roles)) {
    let (q, r, b) = (Role::Queen, Role::Rook, Role::Bishop);
    for nq in (0..=n).rev() {
        for nr in (0..=n - nq).rev() {
            for nb in (0..=n - nq - nr).rev() {
                let nn = n - nq - nr - nb;
                let set = Roles(
                    (nq << (4 * q.index()))
                        | (nr << (4 * r.index()))
                        | (nb << (4 * b.index()))
                        | (nn << (4 * Role::Knight.index())),
                );
                f(set);
                if !all {
                    return;
                }
            }
        }
    }
}

/// Pushes the moves of the stack of `us` on cell `from`, one per distinct
/// move (CO-16). With `all_promotions` false, only one promotion choice of
/// each move is pushed (enough to decide own-king safety, which no
/// promotion choice changes).
#[allow(clippy::too_many_arguments)]
pub fn stack_steps(
    board: &Board,
    tables: &Tables,
    us: Color,
    ep: Option<EpChance>,
    from: usize,
    all_promotions: bool,
    buf: &mut Buffers,
    out: &mut Vec<Step>,
) {
    let roles = board.cell(from).roles();
    let present = roles.mask();
    let from_sq = board.square(from);
    let fwd = us.forward();
    let dests = &mut buf.dests;
    dests.clear();
    let mut ep_to = None;
    for bit_index in 0..6 {
        let bit = 1u8 << bit_index;
        if present & bit == 0 {
            continue;
        }
        for ray in &tables.rays[bit_index][us] {
            let off = board.offset(ray.dx, ray.dy);
            let mut i = from;
            for _ in 0..ray.range {
                i = board.step(i, off);
                let c = board.cell(i);
                if c.is_off() {
                    break;
                }
                if c.is_empty() {
                    if ray.mode.moves() {
                        add_dest(dests, i, bit, false);
                    }
                    continue;
                }
                // CO-6: join a friendly stack; CO-7: capture an enemy one.
                // Either way the move ends here (CO-5).
                let ok = if c.color() == us {
                    ray.mode.moves()
                } else {
                    ray.mode.captures()
                };
                if ok {
                    add_dest(dests, i, bit, false);
                }
                break;
            }
        }
        if bit == PAWN_BIT {
            // CO-3: the double step from the second rank over an empty
            // square, onto a square without enemy pieces (CO-7).
            if from_sq.rank == second_rank(us) {
                let mid = board.step(from, board.offset(0, fwd));
                let to = board.step(mid, board.offset(0, fwd));
                let t = board.cell(to);
                if board.cell(mid).is_empty() && !t.is_off() && (t.is_empty() || t.color() == us) {
                    add_dest(dests, to, bit, true);
                }
            }
            if let Some(e) = ep {
                for dx in [-1, 1] {
                    if board.step(from, board.offset(dx, fwd)) == e.passed
                        && board.cell(e.passed).is_empty()
                    {
                        ep_to = Some(e);
                    }
                }
            }
        }
    }
    let groups = &mut buf.groups;
    sub_multisets(roles, groups);
    let last = last_rank(us);
    for &group in groups.iter().skip(1) {
        let gmask = group.mask();
        for d in dests.iter() {
            let movers = d.mask & gmask;
            if movers == 0 {
                continue;
            }
            let mover = Role::from_index(movers.trailing_zeros() as usize);
            let kind = if d.double && movers & PAWN_BIT != 0 {
                StepKind::Double
            } else {
                StepKind::Normal
            };
            let step = Step {
                from,
                to: d.to,
                group,
                arriving: group,
                promotions: Roles::EMPTY,
                mover,
                movers,
                kind,
            };
            let pawns = group.count(Role::Pawn);
            if pawns > 0 && board.square(d.to).rank == last {
                // CO-3, CO-16: every pawn of the group promotes; the choices
                // are a multiset.
                let stay = Roles(group.0 - (pawns << (4 * Role::Pawn.index())));
                promotion_sets(pawns, all_promotions, |set| {
                    out.push(Step {
                        arriving: add(stay, set),
                        promotions: set,
                        ..step
                    });
                });
            } else {
                out.push(step);
            }
        }
    }
    if let Some(e) = ep_to {
        // CO-8: a pawn takes en passant, carrying any of its stack-mates.
        for &group in groups.iter().skip(1) {
            if group.contains(Role::Pawn) {
                out.push(Step {
                    from,
                    to: e.passed,
                    group,
                    arriving: group,
                    promotions: Roles::EMPTY,
                    mover: Role::Pawn,
                    movers: PAWN_BIT,
                    kind: StepKind::EnPassant(e.reached),
                });
            }
        }
    }
    if present & KING_BIT != 0 && from_sq == PRISON_DOOR {
        if let Some(prison) = board.index(Square::PRISON) {
            // CO-9: the king alone, from c5.
            let k = Roles::one(Role::King);
            out.push(Step {
                from,
                to: prison,
                group: k,
                arriving: k,
                promotions: Roles::EMPTY,
                mover: Role::King,
                movers: KING_BIT,
                kind: StepKind::Prison,
            });
        }
    }
}

/// Plays a step on a board, pushing the changed cells with their old
/// contents onto `undo`. `ep_group` is what an en passant capture takes.
pub fn apply_step(
    board: &mut Board,
    us: Color,
    s: &Step,
    ep_group: Roles,
    undo: &mut Vec<(usize, Stack)>,
) {
    let src = board.cell(s.from);
    undo.push((s.from, src));
    board.set_cell(s.from, Stack::of(us, sub(src.roles(), s.group)));
    let dst = board.cell(s.to);
    undo.push((s.to, dst));
    // CO-6 joins a friendly stack; CO-7 replaces an enemy one.
    let now = if dst.is_occupied() && dst.color() == us {
        add(dst.roles(), s.arriving)
    } else {
        s.arriving
    };
    board.set_cell(s.to, Stack::of(us, now));
    if let StepKind::EnPassant(c) = s.kind {
        // CO-8: only what made the double step is taken.
        let cc = board.cell(c);
        undo.push((c, cc));
        board.set_cell(c, Stack::of(!us, cc.roles().minus(ep_group)));
    }
}

/// Restores the cells saved by [`apply_step`] down to `mark` entries.
pub fn undo_to(board: &mut Board, undo: &mut Vec<(usize, Stack)>, mark: usize) {
    while undo.len() > mark {
        if let Some((i, c)) = undo.pop() {
            board.set_cell(i, c);
        }
    }
}

/// Is a pawn of `them` beside cell `to` (ready to take en passant)?
pub fn enemy_pawn_beside(board: &Board, to: usize, them: Color) -> bool {
    [-1, 1].iter().any(|&dx| {
        board
            .cell(board.step(to, board.offset(dx, 0)))
            .has(them, Role::Pawn)
    })
}

/// The en passant chance a step gives the other side (CO-8): a double step
/// next to one of its pawns.
pub fn ep_chance_after(board: &Board, us: Color, s: &Step) -> Option<EpChance> {
    (s.kind == StepKind::Double && enemy_pawn_beside(board, s.to, !us)).then(|| EpChance {
        passed: board.step(s.from, board.offset(0, us.forward())),
        reached: s.to,
        group: s.group,
    })
}

/// After `s` was played on `board` by `us`, is the king of `us` safe
/// (CO-12)? `king` is its cell before the move. A king carried by a double
/// step next to an enemy pawn is attacked: en passant would take it.
pub fn king_safe_after(board: &Board, tables: &Tables, us: Color, s: &Step, king: usize) -> bool {
    if s.kind == StepKind::Prison {
        return true;
    }
    let carried = s.group.contains(Role::King);
    let k = if carried { s.to } else { king };
    if attacked(board, tables, k, !us) {
        return false;
    }
    !(carried && s.kind == StepKind::Double && enemy_pawn_beside(board, s.to, !us))
}

/// The cell of the king of `color` on the grid.
pub fn king_cell(board: &Board, color: Color) -> Option<usize> {
    board
        .cells_of(color)
        .find(|&i| board.cell(i).roles().contains(Role::King))
}

/// Could a piece of `role` of `by` on `from` capture on `to` by the shape
/// of its move and its range (CO-3, CO-4), whatever stands between?
fn shape_reaches(role: Role, by: Color, from: Square, to: Square) -> bool {
    let (dx, dy) = (to.file - from.file, to.rank - from.rank);
    let (ax, ay) = (dx.abs(), dy.abs());
    let straight = (dx == 0) != (dy == 0) && ax.max(ay) <= 4;
    let diagonal = ax == ay && ax > 0 && ax <= 4;
    match role {
        Role::King => ax.max(ay) == 1,
        Role::Queen => straight || diagonal,
        Role::Rook => straight,
        Role::Bishop => diagonal,
        Role::Knight => ax.min(ay) == 1 && ax.max(ay) == 2,
        Role::Pawn => ax == 1 && dy == by.forward(),
        _ => true,
    }
}

/// Why a pseudo-legal step is not legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// CO-12: the mover's king would be attacked.
    OwnKing,
    /// CO-12: the king carried by a double step could be taken en passant.
    EpKing,
    /// CO-10: the opponent would be in check with no legal reply.
    Checkmate,
}

/// Counters for the benchmark: how much work the checkmate ban costs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Pseudo-legal steps examined.
    pub steps: u64,
    /// Steps that gave check and so needed a reply search (CO-10).
    pub checks: u64,
    /// Replies tried in those searches.
    pub replies: u64,
}

/// The legality filter on a scratch board: the position's board with the
/// side to move, its king, and the en passant chance.
pub struct Judge<'t> {
    pub tables: &'t Tables,
    pub board: Board,
    pub us: Color,
    pub ep: Option<EpChance>,
    /// Whether the checkmate ban (CO-10) is applied; off only to measure
    /// its cost.
    pub ban: bool,
    pub work: Work,
    king: Option<usize>,
    their_king: Option<usize>,
    in_check: bool,
    undo: Vec<(usize, Stack)>,
    buf: Buffers,
    replies: Vec<Step>,
    cells: Vec<usize>,
}

impl<'t> Judge<'t> {
    pub fn new(tables: &'t Tables, board: Board, us: Color, ep: Option<EpChance>) -> Judge<'t> {
        let king = king_cell(&board, us);
        let their_king = king_cell(&board, !us);
        let in_check = king.is_some_and(|k| attacked(&board, tables, k, !us));
        Judge {
            tables,
            board,
            us,
            ep,
            ban: true,
            work: Work::default(),
            king,
            their_king,
            in_check,
            undo: Vec::with_capacity(16),
            buf: Buffers::default(),
            replies: Vec::new(),
            cells: Vec::new(),
        }
    }

    /// Pushes the pseudo-legal steps of the side to move: every stack's
    /// moves, each promotion choice separately.
    pub fn pseudo_steps(&mut self, out: &mut Vec<Step>) {
        self.pseudo_steps_from(|_, _| true, out);
    }

    /// [`Judge::pseudo_steps`] of the stacks on the cells `keep` accepts
    /// only (those a move text can name), in the same order.
    pub fn pseudo_steps_from(&mut self, keep: impl Fn(&Board, usize) -> bool, out: &mut Vec<Step>) {
        for from in self.board.cells_of(self.us) {
            if !keep(&self.board, from) {
                continue;
            }
            stack_steps(
                &self.board,
                self.tables,
                self.us,
                self.ep,
                from,
                true,
                &mut self.buf,
                out,
            );
        }
    }

    /// Decides one pseudo-legal step of the side to move.
    pub fn judge(&mut self, s: &Step) -> Result<(), Refusal> {
        self.work.steps += 1;
        // CO-13: the prison is always open to a king on c5.
        if s.kind == StepKind::Prison {
            return Ok(());
        }
        let us = self.us;
        let ep_group = self.ep.map(|e| e.group).unwrap_or_default();
        let mark = self.undo.len();
        apply_step(&mut self.board, us, s, ep_group, &mut self.undo);
        let verdict = self.verdict(s);
        undo_to(&mut self.board, &mut self.undo, mark);
        verdict
    }

    fn verdict(&mut self, s: &Step) -> Result<(), Refusal> {
        let us = self.us;
        let tables = self.tables;
        let carried = s.group.contains(Role::King);
        if let Some(king) = self.king {
            // A step that moves no king, takes nothing en passant and
            // leaves a piece on its square cannot expose the king unless
            // it is in check already.
            let src_left = self.board.cell(s.from).is_occupied();
            let may_expose = self.in_check
                || carried
                || matches!(s.kind, StepKind::EnPassant(_))
                || (!src_left
                    && tables.slider_line(!us, self.board.square(king), self.board.square(s.from)));
            if may_expose {
                let k = if carried { s.to } else { king };
                if attacked(&self.board, tables, k, !us) {
                    return Err(Refusal::OwnKing);
                }
            }
            if carried && s.kind == StepKind::Double && enemy_pawn_beside(&self.board, s.to, !us) {
                return Err(Refusal::EpKing);
            }
        }
        if !self.ban {
            return Ok(());
        }
        // CO-10: a check needs a reply, judged by own-king safety alone.
        let Some(tk) = self.their_king else {
            return Ok(());
        };
        if !self.board.cell(tk).has(!us, Role::King) || !self.may_check(s, tk) {
            return Ok(());
        }
        if !attacked(&self.board, tables, tk, us) {
            return Ok(());
        }
        self.work.checks += 1;
        let ep = ep_chance_after(&self.board, us, s);
        if self.has_safe_reply(!us, tk, ep) {
            Ok(())
        } else {
            Err(Refusal::Checkmate)
        }
    }

    /// Could step `s` (played on the scratch board) give check to the king
    /// on `tk`? False only when it cannot: no piece arriving reaches the
    /// king by the shape of its move, and no line to the king was opened
    /// by emptying the square left or the square taken en passant. (The
    /// pieces already on the square reached did not attack the king before,
    /// or the opponent would have been in check on our move.)
    fn may_check(&self, s: &Step, tk: usize) -> bool {
        let board = &self.board;
        let us = self.us;
        let king = board.square(tk);
        let to = board.square(s.to);
        let arriving = s.arriving.mask();
        let shape = (0..6)
            .any(|r| arriving & (1 << r) != 0 && shape_reaches(Role::from_index(r), us, to, king));
        shape
            || (!board.cell(s.from).is_occupied()
                && self.tables.slider_line(us, king, board.square(s.from)))
            || matches!(s.kind, StepKind::EnPassant(c) if self.tables.slider_line(us, king, board.square(c)))
    }

    /// Does `side`, to move on the scratch board with its king on `king`,
    /// have a move after which its king is not attacked (the prison
    /// counts)? CO-10's "legal reply", not judged again by CO-10.
    fn has_safe_reply(&mut self, side: Color, king: usize, ep: Option<EpChance>) -> bool {
        if self.board.square(king) == PRISON_DOOR && self.board.has_prison() {
            return true;
        }
        let ep_group = ep.map(|e| e.group).unwrap_or_default();
        // The king stepping alone first: most checks are answered so, and
        // trying it needs no generation.
        let k = Roles::one(Role::King);
        for ray in &self.tables.rays[Role::King.index()][side] {
            let to = self.board.step(king, self.board.offset(ray.dx, ray.dy));
            if self.board.cell(to).is_off() {
                continue;
            }
            let step = Step {
                from: king,
                to,
                group: k,
                arriving: k,
                promotions: Roles::EMPTY,
                mover: Role::King,
                movers: KING_BIT,
                kind: StepKind::Normal,
            };
            self.work.replies += 1;
            let mark = self.undo.len();
            apply_step(&mut self.board, side, &step, ep_group, &mut self.undo);
            let safe = king_safe_after(&self.board, self.tables, side, &step, king);
            undo_to(&mut self.board, &mut self.undo, mark);
            if safe {
                return true;
            }
        }
        let mut replies = std::mem::take(&mut self.replies);
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        // Then every move, the king's own stack first.
        cells.push(king);
        cells.extend(self.board.cells_of(side).filter(|&i| i != king));
        let mut found = false;
        for &from in &cells {
            replies.clear();
            stack_steps(
                &self.board,
                self.tables,
                side,
                ep,
                from,
                false,
                &mut self.buf,
                &mut replies,
            );
            for r in &replies {
                self.work.replies += 1;
                let mark = self.undo.len();
                apply_step(&mut self.board, side, r, ep_group, &mut self.undo);
                let safe = king_safe_after(&self.board, self.tables, side, r, king);
                undo_to(&mut self.board, &mut self.undo, mark);
                if safe {
                    found = true;
                    break;
                }
            }
            if found {
                break;
            }
        }
        self.replies = replies;
        self.cells = cells;
        found
    }
}

/// The program's move value for a step: the mover, what it carries, and
/// the promotions, the mover's own (for a pawn mover) being the first of
/// the multiset in the order Q R B N.
pub fn to_piece_move(board: &Board, s: &Step) -> PieceMove {
    let mut m = PieceMove::new(s.mover, board.square(s.from), board.square(s.to));
    m.carried = sub(s.group, Roles::one(s.mover));
    m.kind = match s.kind {
        StepKind::Normal | StepKind::Prison => MoveKind::Normal,
        StepKind::Double => MoveKind::DoubleStep,
        StepKind::EnPassant(c) => MoveKind::EnPassant {
            captured: board.square(c),
        },
    };
    if !s.promotions.is_empty() {
        if s.mover == Role::Pawn {
            let first = s.promotions.iter_in(&MOVE_ORDER).next();
            m.promotion = first;
            m.carried_promotions = first
                .map(|f| s.promotions.without(f))
                .unwrap_or(s.promotions);
        } else {
            m.carried_promotions = s.promotions;
        }
    }
    m
}

/// The pieces a move takes off its square and the promotions it makes,
/// as multisets: what decides whether two moves are the same (CO-16).
pub fn move_group(m: &PieceMove) -> (Roles, Roles) {
    let promotions = match m.promotion {
        Some(p) => m.carried_promotions.with(p),
        None => m.carried_promotions,
    };
    (m.carried.with(m.role), promotions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn co16_groups_are_multisets() {
        // CO-16: from PPNB the groups are 3*2*2 = 12 including the empty one.
        let r = Roles::EMPTY
            .with(Role::Pawn)
            .with(Role::Pawn)
            .with(Role::Knight)
            .with(Role::Bishop);
        let mut out = Vec::new();
        sub_multisets(r, &mut out);
        assert_eq!(out.len(), 12);
        let mut sorted = out.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 12);
        assert!(out.iter().all(|g| r.includes(*g)));
    }

    #[test]
    fn co16_promotion_choices_are_multisets() {
        let mut n = 0;
        promotion_sets(2, true, |s| {
            assert_eq!(s.len(), 2);
            n += 1
        });
        // Two pawns: {QQ QR QB QN RR RB RN BB BN NN}.
        assert_eq!(n, 10);
        let mut first = Vec::new();
        promotion_sets(1, true, |s| first.push(s.single().unwrap()));
        assert_eq!(
            first,
            vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        );
    }
}
