//! The shared move generator in array cells, the king-safety filter, and
//! playing a move in place with its undo: the engine's hot paths.
//!
//! [`Position::pseudo_moves`] and the default `Rules::legal_moves` list
//! [`Move`](crate::mv::Move) values; underneath, the generator produces [`CellMove`]s, moves
//! in array indices that are cheap to make, test and store, and perft plays
//! them in place on one position ([`Position::make`], [`Position::unmake`])
//! instead of copying a position per node.
//!
//! King safety (FI-3) is decided without playing moves: a move of a piece
//! that is not pinned to a king of the mover, made while no such king is
//! attacked, is safe; with one king in check by one piece, such a move is
//! safe exactly when it takes the checker or steps between. The rest (king
//! moves, en passant, castling, moves of pinned pieces, double check,
//! several kings) are tested by asking whether a king would be attacked on
//! the board as it would be after the move, seen through the cells the
//! move changes.

use crate::board::Board;
use crate::color::Color;
use crate::movement::Ray;
use crate::mv::{MoveKind, PieceMove};
use crate::piece::{Piece, Role, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::Extra;

mod safety;
pub use safety::KingSafety;

/// How a [`CellMove`] is special: [`MoveKind`] with array indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    Normal,
    DoubleStep,
    /// The captured pawn stands on cell `captured`.
    EnPassant {
        captured: u32,
    },
    /// The rook goes from cell `rook` to cell `rook_to`.
    Castle {
        rook: u32,
        rook_to: u32,
    },
    /// A piece of kind `role` put from its side's hand onto the empty cell
    /// `to` (`from` is `to`): a defined variant's drop, whose hands are
    /// the variant's own state.
    Drop,
}

/// A single-piece move in array indices of the position's board, as the
/// shared generator makes it; [`Position::piece_move`] names its squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellMove {
    pub from: u32,
    pub to: u32,
    pub role: Role,
    pub promotion: Option<Role>,
    pub kind: CellKind,
}

impl CellMove {
    #[inline]
    fn new(role: Role, from: usize, to: usize) -> CellMove {
        CellMove {
            from: from as u32,
            to: to as u32,
            role,
            promotion: None,
            kind: CellKind::Normal,
        }
    }
}

/// A hop along `ray` (step `off`) from cell `from` on rank `from_rank`:
/// over the first piece on the line, then onto at most `ray.range` cells
/// beyond it, up to and including the next piece; `push(cell, rank)` as
/// in [`walk_rays`].
fn hop_ray(
    board: &Board,
    ray: &Ray,
    off: isize,
    from: usize,
    from_rank: i16,
    may_take: &impl Fn(Stack, usize) -> bool,
    push: &mut impl FnMut(usize, i16) -> bool,
) -> bool {
    let (mut i, mut rank) = (from, from_rank);
    loop {
        i = board.step(i, off);
        rank += ray.dy;
        let c = board.cell(i);
        if c.is_off() {
            return false;
        }
        if !c.is_empty() {
            break;
        }
    }
    for _ in 0..ray.range {
        i = board.step(i, off);
        rank += ray.dy;
        let c = board.cell(i);
        if c.is_empty() {
            if ray.mode.moves() && push(i, rank) {
                return true;
            }
            continue;
        }
        return !c.is_off() && ray.mode.captures() && may_take(c, i) && push(i, rank);
    }
    false
}

/// Walks a piece's rays from cell `from` (on rank `from_rank`, the side
/// moving towards `fwd`), calling `push(cell, rank, forward)` for each
/// cell it may move to: an empty one on a ray that moves, an occupied one
/// `may_take` allows on a ray that captures; `forward` says the ray
/// points the mover's way. Stops, returning true, when `push` does. The
/// shared generator's walk, for the built-in variants and the defined
/// ones alike.
#[inline(always)]
pub fn walk_rays(
    board: &Board,
    rays: &[Ray],
    from: usize,
    from_rank: i16,
    fwd: i16,
    may_take: impl Fn(Stack, usize) -> bool,
    mut push: impl FnMut(usize, i16, bool) -> bool,
) -> bool {
    for ray in rays {
        let off = board.offset(ray.dx, ray.dy);
        let forward = ray.dy == fwd;
        if ray.hop {
            if hop_ray(
                board,
                ray,
                off,
                from,
                from_rank,
                &may_take,
                &mut |i, rank| push(i, rank, forward),
            ) {
                return true;
            }
            continue;
        }
        if ray.range == 1 {
            // Leapers and pawns: one cell, no walk; a lame leap only over
            // an empty square.
            if ray.lame {
                let passed = crate::movement::lame_step(ray.dx, ray.dy)
                    .map(|(x, y)| board.step(from, board.offset(x, y)));
                if passed.is_some_and(|i| !board.cell(i).is_empty()) {
                    continue;
                }
            }
            let i = board.step(from, off);
            let c = board.cell(i);
            let ok = if c.is_empty() {
                ray.mode.moves()
            } else {
                !c.is_off() && ray.mode.captures() && may_take(c, i)
            };
            if ok && push(i, from_rank + ray.dy, forward) {
                return true;
            }
            continue;
        }
        let mut i = from;
        let mut rank = from_rank;
        for _ in 0..ray.range {
            i = board.step(i, off);
            rank += ray.dy;
            let c = board.cell(i);
            if c.is_empty() {
                if ray.mode.moves() && push(i, rank, forward) {
                    return true;
                }
                continue;
            }
            if !c.is_off() && ray.mode.captures() && may_take(c, i) && push(i, rank, forward) {
                return true;
            }
            break;
        }
    }
    false
}

/// Castling of the king on cell `king[0]` to `king[1]` with the rook on
/// `rook[0]` going to `rook[1]`, all on one rank of a board of one tile
/// (so the cells between two of them are the indices between): every
/// cell either piece passes or lands on is empty but for the two, and no
/// cell the king passes or lands on is `attacked`. Whether the king may
/// castle out of check is the caller's to ask. FIDE's rule (FI-2) and
/// Fairy-Stockfish's for any castling files, where the rook ends beside
/// the king on its inner side.
pub fn castle(
    board: &Board,
    role: Role,
    king: [usize; 2],
    rook: [usize; 2],
    attacked: impl Fn(usize) -> bool,
) -> Option<CellMove> {
    // The cells from `a` to `b`, `a` left out.
    let span = |[a, b]: [usize; 2]| (a.min(b)..=a.max(b)).filter(move |&i| i != a);
    let blocked = span(rook)
        .chain(span(king))
        .any(|i| i != king[0] && i != rook[0] && !board.cell(i).is_empty());
    if blocked || span(king).any(attacked) {
        return None;
    }
    Some(CellMove {
        kind: CellKind::Castle {
            rook: rook[0] as u32,
            rook_to: rook[1] as u32,
        },
        ..CellMove::new(role, king[0], king[1])
    })
}

impl Position {
    /// Calls `emit` with every pseudo-legal single-piece move, in the order
    /// [`Position::pseudo_moves`] lists them: the pieces of the side to
    /// move in array order, each piece's rays in table order (promotions in
    /// the variant's order), then its double step and en passant; castling
    /// last. Stacks are not handled here (Corral generates its own).
    #[inline]
    pub fn for_each_pseudo(&self, mut emit: impl FnMut(CellMove)) {
        self.pseudo_until(|m| {
            emit(m);
            false
        });
    }

    /// [`Position::for_each_pseudo`] that stops as soon as `emit` returns
    /// true; returns whether it stopped.
    #[inline]
    pub fn pseudo_until(&self, mut emit: impl FnMut(CellMove) -> bool) -> bool {
        let variant = self.variant;
        let rules = variant.rules();
        let tables = variant.tables();
        let spec = variant.spec();
        let board = &self.board;
        let us = self.turn;
        let fwd = us.forward();
        let promo_rank = self.promotion_rank(us);
        let ep = self.ep_cells();
        // FIDE's capture rule (any enemy piece) tested here rather than
        // through the variant.
        let fide_captures = rules.capability().fide_captures;
        for from in board.cells_of(us) {
            let Some(role) = board.cell(from).roles().single() else {
                continue;
            };
            let is_pawn = role == Role::Pawn;
            // Ranks are needed only for pawns (promotion, double steps).
            let from_sq = if is_pawn {
                board.square(from)
            } else {
                Square::new(0, 0)
            };
            // A move onto cell `i`, `rank`: each promotion when a pawn
            // steps forward onto its promotion rank.
            let mut push = |i: usize, rank: i16, forward: bool| -> bool {
                let m = CellMove::new(role, from, i);
                if is_pawn && forward && rank == promo_rank {
                    spec.promotion.iter().any(|&p| {
                        emit(CellMove {
                            promotion: Some(p),
                            ..m
                        })
                    })
                } else {
                    emit(m)
                }
            };
            let may_take = |c: Stack, i: usize| {
                if fide_captures {
                    c.color() != us
                } else {
                    rules.may_capture(self, role, from, i)
                }
            };
            let rays = &tables.rays[role.index()][us];
            if walk_rays(board, rays, from, from_sq.rank, fwd, may_take, &mut push) {
                return true;
            }
            if is_pawn && self.pawn_extras(from, from_sq, ep, &mut emit) {
                return true;
            }
        }
        spec.castling && self.castling_cells(&mut emit)
    }

    /// A pawn's double step and en passant capture from cell `from`, as
    /// the generator makes them after the pawn's rays.
    #[inline]
    fn pawn_extras(
        &self,
        from: usize,
        from_sq: Square,
        ep: Option<(usize, usize)>,
        emit: &mut impl FnMut(CellMove) -> bool,
    ) -> bool {
        let board = &self.board;
        let fwd = self.turn.forward();
        if self.variant.rules().may_double_step(self, from_sq) {
            let mid = board.step(from, board.offset(0, fwd));
            let to = board.step(mid, board.offset(0, fwd));
            if board.cell(mid).is_empty()
                && board.cell(to).is_empty()
                && emit(CellMove {
                    kind: CellKind::DoubleStep,
                    ..CellMove::new(Role::Pawn, from, to)
                })
            {
                return true;
            }
        }
        if let Some((target, captured)) = ep {
            if [-1, 1]
                .iter()
                .any(|&dx| board.step(from, board.offset(dx, fwd)) == target)
                && emit(CellMove {
                    kind: CellKind::EnPassant {
                        captured: captured as u32,
                    },
                    ..CellMove::new(Role::Pawn, from, target)
                })
            {
                return true;
            }
        }
        false
    }

    /// The pseudo-legal moves of the single pieces of kind `role` onto the
    /// board cell `to`, in the order [`Position::for_each_pseudo`] makes
    /// them (the moves it makes with that role and target, and no others),
    /// found without walking the other pieces' rays: for each piece, only
    /// the rays that point at `to` are walked. Castling is a king's move
    /// onto its castling square.
    pub fn for_each_pseudo_to(&self, role: Role, to: usize, mut emit: impl FnMut(CellMove)) {
        let variant = self.variant;
        let rules = variant.rules();
        let tables = variant.tables();
        let spec = variant.spec();
        let board = &self.board;
        let us = self.turn;
        let to_sq = board.square(to);
        if to_sq.is_prison() || board.cell(to).is_off() {
            return;
        }
        let target = board.cell(to);
        let fwd = us.forward();
        let promo_rank = self.promotion_rank(us);
        let fide_captures = rules.capability().fide_captures;
        let is_pawn = role == Role::Pawn;
        let ep = if is_pawn { self.ep_cells() } else { None };
        for from in board.cells_of(us) {
            if board.cell(from).roles().single() != Some(role) {
                continue;
            }
            let from_sq = board.square(from);
            let (dx, dy) = (to_sq.file - from_sq.file, to_sq.rank - from_sq.rank);
            for ray in &tables.rays[role.index()][us] {
                // `to` is `k` steps along the ray, or the ray misses it.
                let k = if ray.dx == dx && ray.dy == dy {
                    1
                } else if ray.range == 1
                    || ray.dx.signum() != dx.signum()
                    || ray.dy.signum() != dy.signum()
                {
                    continue;
                } else if ray.dx != 0 {
                    dx / ray.dx
                } else {
                    dy / ray.dy
                };
                if k > ray.range as i16 || k * ray.dx != dx || k * ray.dy != dy {
                    continue;
                }
                let off = board.offset(ray.dx, ray.dy);
                let mut i = from;
                let mut clear = true;
                for _ in 1..k {
                    i = board.step(i, off);
                    if !board.cell(i).is_empty() {
                        clear = false;
                        break;
                    }
                }
                if !clear {
                    continue;
                }
                let ok = if target.is_empty() {
                    ray.mode.moves()
                } else {
                    ray.mode.captures()
                        && if fide_captures {
                            target.color() != us
                        } else {
                            rules.may_capture(self, role, from, to)
                        }
                };
                if !ok {
                    continue;
                }
                let m = CellMove::new(role, from, to);
                if is_pawn && ray.dy == fwd && to_sq.rank == promo_rank {
                    for &p in spec.promotion {
                        emit(CellMove {
                            promotion: Some(p),
                            ..m
                        });
                    }
                } else {
                    emit(m);
                }
            }
            if is_pawn && (dx == 0 && dy == 2 * fwd || ep.is_some_and(|(t, _)| t == to)) {
                self.pawn_extras(from, from_sq, ep, &mut |m: CellMove| {
                    if m.to as usize == to {
                        emit(m);
                    }
                    false
                });
            }
        }
        if role == Role::King && spec.castling {
            self.castling_cells(&mut |m: CellMove| {
                if m.to as usize == to {
                    emit(m);
                }
                false
            });
        }
    }

    /// The en passant square as cells, when an en passant capture onto it
    /// may be made: the empty target and the enemy pawn's cell.
    fn ep_cells(&self) -> Option<(usize, usize)> {
        let target = self.ep?;
        if !self.variant.spec().en_passant {
            return None;
        }
        let board = &self.board;
        let t = board.index(target).filter(|&t| board.cell(t).is_empty())?;
        let c = board.index(target.offset(0, -self.turn.forward()))?;
        board.cell(c).has(!self.turn, Role::Pawn).then_some((t, c))
    }

    /// FIDE castling on the standard 8x8 squares (FI-2): the king on its
    /// e-file square, the rook in the corner, the squares between empty, the
    /// king not in check and not passing or landing on an attacked square.
    fn castling_cells(&self, emit: &mut impl FnMut(CellMove) -> bool) -> bool {
        let us = self.turn;
        if !self.castling.get(us, true) && !self.castling.get(us, false) {
            return false;
        }
        let rank = match us {
            Color::White => 1,
            Color::Black => 8,
        };
        let board = &self.board;
        let cell = |file: i16| board.index(Square::new(file, rank));
        let Some(king) = cell(5) else { return false };
        if board.cell(king).piece() != Some(Piece::new(us, Role::King)) {
            return false;
        }
        let mut in_check = None;
        for king_side in [true, false] {
            if !self.castling.get(us, king_side) {
                continue;
            }
            let (rook_file, king_to, rook_to) = if king_side { (8, 7, 6) } else { (1, 3, 4) };
            let (Some(rook), Some(to), Some(rook_to)) =
                (cell(rook_file), cell(king_to), cell(rook_to))
            else {
                continue;
            };
            if board.cell(rook).piece() != Some(Piece::new(us, Role::Rook)) {
                continue;
            }
            let attacked = |i: usize| self.is_attacked(i, !us);
            let Some(m) = castle(board, Role::King, [king, to], [rook, rook_to], attacked) else {
                continue;
            };
            if *in_check.get_or_insert_with(|| attacked(king)) {
                return false;
            }
            if emit(m) {
                return true;
            }
        }
        false
    }

    /// The move value of a cell move, with its squares named.
    pub fn piece_move(&self, m: &CellMove) -> PieceMove {
        let board = &self.board;
        let sq = |i: u32| board.square(i as usize);
        let mut pm = PieceMove::new(m.role, sq(m.from), sq(m.to));
        pm.promotion = m.promotion;
        pm.kind = match m.kind {
            CellKind::Normal => MoveKind::Normal,
            CellKind::DoubleStep => MoveKind::DoubleStep,
            CellKind::EnPassant { captured } => MoveKind::EnPassant {
                captured: sq(captured),
            },
            CellKind::Castle { rook, rook_to } => MoveKind::Castle {
                rook: sq(rook),
                rook_to: sq(rook_to),
            },
            CellKind::Drop => MoveKind::Drop,
        };
        pm
    }

    /// The cell move of a piece move, when its squares are on the board
    /// (carried pieces and placements are not part of it).
    pub fn cell_move(&self, m: &PieceMove) -> Option<CellMove> {
        let board = &self.board;
        let idx = |sq: Square| board.index(sq).map(|i| i as u32);
        let kind = match m.kind {
            MoveKind::Normal => CellKind::Normal,
            MoveKind::DoubleStep => CellKind::DoubleStep,
            MoveKind::EnPassant { captured } => CellKind::EnPassant {
                captured: idx(captured)?,
            },
            MoveKind::Castle { rook, rook_to } => CellKind::Castle {
                rook: idx(rook)?,
                rook_to: idx(rook_to)?,
            },
            MoveKind::Drop => CellKind::Drop,
        };
        Some(CellMove {
            from: idx(m.from)?,
            to: idx(m.to)?,
            role: m.role,
            promotion: m.promotion,
            kind,
        })
    }

    /// The shared generator's legal moves: pseudo-legal moves that leave no
    /// king of the mover attacked (FI-3), in generation order.
    pub fn for_each_legal(&self, safety: &mut KingSafety, mut emit: impl FnMut(CellMove)) {
        safety.update(self);
        if safety.kings.is_empty() {
            self.for_each_pseudo(emit);
        } else {
            self.for_each_pseudo(|m| {
                if safety.allows(self, &m) {
                    emit(m)
                }
            });
        }
    }

    /// The legal moves of [`Position::for_each_legal`] that
    /// [`Position::for_each_pseudo_to`] selects: kind `role`, onto `to`.
    pub fn for_each_legal_to(
        &self,
        safety: &mut KingSafety,
        role: Role,
        to: usize,
        mut emit: impl FnMut(CellMove),
    ) {
        safety.update(self);
        self.for_each_pseudo_to(role, to, |m| {
            if safety.kings.is_empty() || safety.allows(self, &m) {
                emit(m)
            }
        });
    }

    /// Whether the shared generator has a legal move here, stopping at the
    /// first one found.
    pub fn has_legal_piece_move(&self, safety: &mut KingSafety) -> bool {
        safety.update(self);
        if safety.kings.is_empty() {
            return self.pseudo_until(|_| true);
        }
        self.pseudo_until(|m| safety.allows(self, &m))
    }

    /// Plays a cell move of the shared generator in place, as
    /// [`Position::apply_piece_move`] plays its piece move (without the
    /// effects report), and returns what [`Position::unmake`] needs.
    pub fn make(&mut self, m: &CellMove) -> Unmake {
        let mut undo = Unmake {
            cells: [(0, Stack::EMPTY); UNMAKE_CELLS],
            len: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            extra: self.extra.clone(),
        };
        let us = self.turn;
        let (from, to) = (m.from as usize, m.to as usize);
        let board = &mut self.board;
        let moving = board.cell(from);
        let target = board.cell(to);
        let mut captured = target.is_occupied();
        undo.save(board, from);
        undo.save(board, to);
        board.set_cell(from, Stack::EMPTY);
        let placed = match (m.promotion, m.kind) {
            (Some(p), _) => Stack::single(Piece::new(us, p)),
            (None, CellKind::Drop) => Stack::single(Piece::new(us, m.role)),
            (None, _) => moving,
        };
        board.set_cell(to, placed);
        match m.kind {
            CellKind::EnPassant { captured: c } => {
                let c = c as usize;
                captured |= board.cell(c).piece().is_some();
                undo.save(board, c);
                board.set_cell(c, Stack::EMPTY);
            }
            CellKind::Castle { rook, rook_to } => {
                let (r, rt) = (rook as usize, rook_to as usize);
                let rook_cell = board.cell(r);
                undo.save(board, r);
                undo.save(board, rt);
                board.set_cell(r, Stack::EMPTY);
                board.set_cell(rt, rook_cell);
            }
            _ => {}
        }
        if self.castling.any() && self.variant.spec().castling {
            let (f, t) = (board.square(from), board.square(to));
            self.castling.lose_rights(f, t);
        }
        self.ep = None;
        if m.kind == CellKind::DoubleStep {
            let them = !us;
            let beside = [-1, 1].iter().any(|&dx| {
                board
                    .cell(board.step(to, board.offset(dx, 0)))
                    .has(them, Role::Pawn)
            });
            if beside {
                let mid = board.step(from, board.offset(0, us.forward()));
                self.ep = Some(board.square(mid));
            }
        }
        if m.role == Role::Pawn || captured {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.end_turn();
        undo
    }

    /// Takes back the move that returned `undo` from [`Position::make`]
    /// (and whatever a variant recorded in it after).
    pub fn unmake(&mut self, undo: Unmake) {
        for &(i, c) in undo.cells[..undo.len].iter().rev() {
            self.board.set_cell(i as usize, c);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.extra = undo.extra;
        self.turn = !self.turn;
    }
}

/// Cells an [`Unmake`] can restore: a move's four (castling) and room for
/// a variant's removals (Disintegration's six kings).
const UNMAKE_CELLS: usize = 12;

/// What [`Position::make`] changed: cells with their old contents, and the
/// position's fields.
#[derive(Clone, Debug)]
pub struct Unmake {
    cells: [(u32, Stack); UNMAKE_CELLS],
    len: usize,
    castling: Castling,
    ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    extra: Extra,
}

impl Unmake {
    /// Records the contents of cell `index` before a change to it. Returns
    /// false (recording nothing) when there is no room left.
    #[inline]
    pub fn save(&mut self, board: &Board, index: usize) -> bool {
        if self.len == UNMAKE_CELLS {
            return false;
        }
        self.cells[self.len] = (index as u32, board.cell(index));
        self.len += 1;
        true
    }
}

impl Castling {
    /// The rights lost when a piece leaves `from` or arrives on `to`: a
    /// king or rook leaving its square, a rook being taken (FI-2).
    pub fn lose_rights(&mut self, from: Square, to: Square) {
        for sq in [from, to] {
            for (color, rank) in [(Color::White, 1), (Color::Black, 8)] {
                if sq == Square::new(5, rank) {
                    self.set(color, true, false);
                    self.set(color, false, false);
                } else if sq == Square::new(8, rank) {
                    self.set(color, true, false);
                } else if sq == Square::new(1, rank) {
                    self.set(color, false, false);
                }
            }
        }
    }
}
