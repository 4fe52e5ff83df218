//! Legal moves of a user-defined variant, and playing them, with
//! Fairy-Stockfish's meanings: its pawn (step, double step from
//! a region, en passant, promotion in a region, limits per kind), castling
//! of the king with a rook on the castling rank, Betza movement for the
//! other pieces, drops of pieces in hand (`pieceDrops`, taken pieces to
//! hand with `capturesToHand`), check against the royal king,
//! `mustCapture`, `mustDrop`, and no move once the game has ended
//! (`super::end`); pseudo-royal pieces are judged in `super::royal`, the
//! pawn rules of other pieces (initial moves, pawn-style promotion, en
//! passant, the n-move count) are `super::pawns`.

use super::board::{Man, Pos};
use super::def::{Def, Part, Reach, Region};
use super::end::immediate_end;
use super::pawns;
use super::promote::{self, Change};
use super::royal::{pseudo_royals, pseudo_royals_safe, royal_attacked};
use crate::color::Color;
use crate::movegen::{castle, walk_rays, CellKind, CellMove, KingSafety};
use crate::movement::Motion;
use crate::piece::{Piece, Role, Stack};

fn turned(color: u8, (dy, dx): (i8, i8)) -> (i8, i8) {
    if color == 0 {
        (dy, dx)
    } else {
        (-dy, -dx)
    }
}

/// Squares a piece of `color` on `from` reaches with `motion`, given the
/// board: for quiet moves the empty ones, for captures the occupied ones
/// (the caller keeps the enemy's).
pub(super) fn reach(pos: &Pos, color: u8, from: u8, motion: &Motion, out: &mut Vec<u8>) {
    let (f0, r0) = pos.file_rank(from);
    let occupied = |s: u8| !pos.is_empty_at(s);
    for (&d, &dist) in &motion.leaps {
        let (dy, dx) = turned(color, d);
        let Some(to) = pos.sq(f0 + dx, r0 + dy) else {
            continue;
        };
        if dist < 0 && lame_path(pos, from, to).iter().any(|&s| occupied(s)) {
            continue;
        }
        out.push(to);
    }
    for (&d, &limit) in &motion.slides {
        let (dy, dx) = turned(color, d);
        let (mut f, mut r, mut n) = (f0, r0, 0);
        while let Some(to) = pos.sq(f + dx, r + dy) {
            (f, r) = (f + dx, r + dy);
            out.push(to);
            n += 1;
            if occupied(to) || (limit > 0 && n >= limit) {
                break;
            }
        }
    }
    for (&d, &limit) in &motion.hops {
        let (dy, dx) = turned(color, d);
        let (mut f, mut r, mut n, mut hurdle) = (f0, r0, 0, false);
        while let Some(to) = pos.sq(f + dx, r + dy) {
            (f, r) = (f + dx, r + dy);
            if hurdle {
                out.push(to);
                n += 1;
                if limit > 0 && n >= limit {
                    break;
                }
            }
            if occupied(to) {
                if hurdle {
                    break;
                }
                hurdle = true;
            }
        }
    }
}

/// The squares a lame leap from `from` to `to` passes, as
/// Fairy-Stockfish walks it: along the longer leg first, diagonally once
/// the legs are equal.
fn lame_path(pos: &Pos, from: u8, to: u8) -> Vec<u8> {
    let (mut f, mut r) = pos.file_rank(from);
    let (tf, tr) = pos.file_rank(to);
    let (sf, sr) = ((tf - f).signum(), (tr - r).signum());
    let mut out = Vec::new();
    while (f, r) != (tf, tr) {
        let diff = (tf - f).abs() - (tr - r).abs();
        if diff > 0 {
            f += sf;
        } else if diff < 0 {
            r += sr;
        } else {
            f += sf;
            r += sr;
        }
        if (f, r) != (tf, tr) {
            if let Some(s) = pos.sq(f, r) {
                out.push(s);
            }
        }
    }
    out
}

/// Whether the piece on `from` has a move other than castling to `to`
/// by its movement alone (the king may be left in check), as
/// Fairy-Stockfish's `pseudo_legal` says of a plain move.
pub fn plain_move_reaches(def: &Def, pos: &Pos, from: u8, to: u8) -> bool {
    let Some(m) = pos.man(def, from) else {
        return false;
    };
    let kind = &def.kinds[m.kind as usize];
    let mut buf = Vec::new();
    match pos.man(def, to) {
        None => reach(pos, m.color, from, &kind.betza.quiet, &mut buf),
        Some(t) if t.color != m.color => reach(pos, m.color, from, &kind.betza.capture, &mut buf),
        Some(_) => return false,
    }
    from != to && buf.contains(&to)
}

/// Whether a piece of `by` attacks `target` (empty or not): by the
/// shared attack test on the definition's movement tables where it
/// answers ([`Shared::attacks`](super::tables::Shared::attacks)), else by
/// [`attacked_by_walking`].
pub fn attacked(def: &Def, pos: &Pos, target: u8, by: u8) -> bool {
    match def.shared.attack_tables() {
        Some(tables) => {
            let by = if by == 0 { Color::White } else { Color::Black };
            crate::position::attacked(&pos.board, tables, pos.cell_index(target), by)
        }
        None => attacked_by_walking(def, pos, target, by),
    }
}

/// Whether a piece of `by` attacks `target` (empty or not): walking back
/// from `target` along each capture direction of `by`'s pieces
/// ([`Def::attacks`]) to where such a piece would stand. The general
/// path, for what the tables cannot hold (lame leaps, the flying
/// general), and for [`legal_moves_by_playing`].
pub fn attacked_by_walking(def: &Def, pos: &Pos, target: u8, by: u8) -> bool {
    if def.flying_general && king_faces(def, pos, target, by) {
        return true;
    }
    let (tf, tr) = pos.file_rank(target);
    let color = if by == 0 { Color::White } else { Color::Black };
    // A piece attacks only within its mobility region.
    let bounded = |role| {
        def.kind_of_role(role)
            .is_some_and(|k| !pos.region_has(def.mobility[k][by as usize], target))
    };
    let is = |s: u8, role| pos.piece_at(s) == Some(Piece::new(color, role)) && !bounded(role);
    // The first piece met walking back from `from` by `(dx, dy)`: its
    // square, its distance and its file and rank.
    let first = |dx: i8, dy: i8, from: (i8, i8)| {
        let (mut f, mut r, mut n) = (from.0, from.1, 0);
        while let Some(s) = pos.sq(f - dx, r - dy) {
            (f, r, n) = (f - dx, r - dy, n + 1);
            if !pos.is_empty_at(s) {
                return Some((s, n, (f, r)));
            }
        }
        None
    };
    let cannon_role = |role| def.kind_of_role(role).is_some_and(|k| def.janggi_cannon(k));
    def.attacks[by as usize].iter().any(|a| match a.reach {
        Reach::Leap | Reach::Lame => pos.sq(tf - a.dx, tr - a.dy).is_some_and(|from| {
            is(from, a.role)
                && (a.reach == Reach::Leap
                    || lame_path(pos, from, target)
                        .iter()
                        .all(|&s| pos.is_empty_at(s)))
        }),
        Reach::Slide(limit) => first(a.dx, a.dy, (tf, tr))
            .is_some_and(|(s, n, _)| (limit == 0 || n <= limit) && is(s, a.role)),
        // The hurdle, at most `limit` squares back from `target`, then
        // the hopper behind it.
        // A janggi cannon hops over no other.
        Reach::Hop(limit) => first(a.dx, a.dy, (tf, tr)).is_some_and(|(hurdle, n, at)| {
            let over_cannon = cannon_role(a.role)
                && pos
                    .man(def, hurdle)
                    .is_some_and(|m| def.janggi_cannon(m.kind as usize));
            (limit == 0 || n <= limit)
                && !over_cannon
                && first(a.dx, a.dy, at).is_some_and(|(s, _, _)| is(s, a.role))
        }),
    })
}

/// The flying general, as Fairy-Stockfish has it: the royal king of `by`
/// attacks `target` along an open file or rank, as a rook would (so the
/// kings may not face each other, nor a king castle across such a line).
fn king_faces(def: &Def, pos: &Pos, target: u8, by: u8) -> bool {
    let Some(k) = pos.king_square(def, by) else {
        return false;
    };
    let ((kf, kr), (tf, tr)) = (pos.file_rank(k), pos.file_rank(target));
    if k == target || (kf != tf && kr != tr) {
        return false;
    }
    let (df, dr) = ((tf - kf).signum(), (tr - kr).signum());
    let (mut f, mut r) = (kf + df, kr + dr);
    while (f, r) != (tf, tr) {
        if pos.sq(f, r).is_some_and(|s| !pos.is_empty_at(s)) {
            return false;
        }
        (f, r) = (f + df, r + dr);
    }
    true
}

/// Whether the side to move's royal king, or one of its pseudo-royal
/// pieces, is attacked (Fairy-Stockfish's `checked`).
pub fn in_check(def: &Def, pos: &Pos) -> bool {
    let them = 1 - pos.us();
    let theirs = pseudo_royals(def, pos, them);
    king_in_check(def, pos)
        || pseudo_royals(def, pos, pos.us())
            .into_iter()
            .any(|s| royal_attacked(def, pos, s, &theirs, them))
}

fn king_in_check(def: &Def, pos: &Pos) -> bool {
    pos.king_square(def, pos.us())
        .is_some_and(|k| attacked(def, pos, k, 1 - pos.us()))
}

/// The move of the piece on the engine's square `from` to `to`, as the
/// shared generator's [`CellMove`]; `role` is the piece's kind.
pub(super) fn cell_move(pos: &Pos, role: Role, from: u8, to: u8, kind: CellKind) -> CellMove {
    CellMove {
        from: pos.cell_index(from) as u32,
        to: pos.cell_index(to) as u32,
        role,
        promotion: None,
        kind,
    }
}

/// The role of the piece on an engine's square (a pawn where there is
/// none, which no caller asks).
fn role_at(pos: &Pos, sq: u8) -> Role {
    pos.piece_at(sq).map_or(Role::Pawn, |p| p.role)
}

/// Moves by the rules of movement alone (the king may be left in check).
fn pseudo(def: &Def, pos: &Pos, out: &mut Vec<CellMove>) {
    let us = pos.us();
    let mut buf = Vec::with_capacity(64);
    for from in pos.squares_of(us) {
        let Some(m) = pos.man(def, from) else {
            continue;
        };
        let kind = &def.kinds[m.kind as usize];
        let (k, start) = (m.kind as usize, out.len());
        if kind.part == Part::Pawn {
            pawn_moves(def, pos, from, out);
        } else {
            plain_moves(def, pos, from, k, &mut buf, out);
            pawns::initial_moves(def, pos, from, k, &mut buf, out, start);
        }
        // A mobility region bounds where the piece may go, as it bounds
        // what it attacks.
        let region = def.mobility[k][us as usize];
        if region != Region::MAX {
            let inside: Vec<CellMove> = out
                .drain(start..)
                .filter(|m| pos.region_has(region, pos.number_at(m.to as usize)))
                .collect();
            out.extend(inside);
        }
        if kind.part == Part::Pawn {
            continue;
        }
        let targets = pawns::promotion_targets(def, pos, k, out, start);
        if kind.part == Part::Plain {
            promote::piece_moves(def, pos, from, k, out, start);
        }
        pawns::promotions_and_en_passant(def, pos, from, k, &targets, out, start);
    }
    castling_moves(def, pos, out);
    if def.piece_drops {
        super::drops::drops(def, pos, out);
    }
}

/// The moves of the piece of kind `kind` on `from` by its movement: by
/// the shared walk of its rays where the definition has them
/// ([`Shared::move_tables`](super::tables::Shared::move_tables)), else by
/// [`reach`] over its Betza maps.
fn plain_moves(
    def: &Def,
    pos: &Pos,
    from: u8,
    kind: usize,
    buf: &mut Vec<u8>,
    out: &mut Vec<CellMove>,
) {
    let us = pos.us();
    let role = def.role(kind);
    let start = out.len();
    if let Some(tables) = def.shared.move_tables(kind) {
        let cell = pos.cell_index(from);
        let rays = &tables.rays[role.index()][pos.turn];
        let take = |c: Stack, _| c.color() != pos.turn;
        let overlaps = def.shared.overlaps(kind);
        walk_rays(
            &pos.board,
            rays,
            cell,
            0,
            pos.turn.forward(),
            take,
            |i, _, _| {
                // A square two rays reach is listed once.
                if !overlaps || !out[start..].iter().any(|m| m.to as usize == i) {
                    out.push(CellMove {
                        from: cell as u32,
                        to: i as u32,
                        role,
                        promotion: None,
                        kind: CellKind::Normal,
                    });
                }
                false
            },
        );
    } else {
        let betza = &def.kinds[kind].betza;
        buf.clear();
        reach(pos, us, from, &betza.quiet, buf);
        buf.retain(|&s| pos.is_empty_at(s));
        let quiet = buf.len();
        reach(pos, us, from, &betza.capture, buf);
        let mut seen: Vec<u8> = Vec::with_capacity(buf.len());
        for (i, &to) in buf.iter().enumerate() {
            let ok = i < quiet || matches!(pos.man(def, to), Some(t) if t.color != us);
            if ok && !seen.contains(&to) {
                seen.push(to);
                out.push(cell_move(pos, role, from, to, CellKind::Normal));
            }
        }
    }
    if def.janggi_cannon(kind) {
        // Neither over another janggi cannon nor onto one.
        let cannon = |s: u8| {
            pos.man(def, s)
                .is_some_and(|m| def.janggi_cannon(m.kind as usize))
        };
        let mut i = start;
        while i < out.len() {
            let to = pos.number_at(out[i].to as usize);
            if cannon(to) || cannon_between(pos, from, to, &cannon) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Whether `cannon` holds of a square strictly between `from` and `to`,
/// on a rank, a file or a diagonal.
fn cannon_between(pos: &Pos, from: u8, to: u8, cannon: &impl Fn(u8) -> bool) -> bool {
    let ((f0, r0), (f1, r1)) = (pos.file_rank(from), pos.file_rank(to));
    let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
    if (f1 - f0) * dr != (r1 - r0) * df {
        return false;
    }
    let (mut f, mut r) = (f0 + df, r0 + dr);
    while (f, r) != (f1, r1) {
        if pos.sq(f, r).is_some_and(cannon) {
            return true;
        }
        (f, r) = (f + df, r + dr);
    }
    false
}

fn pawn_moves(def: &Def, pos: &Pos, from: u8, out: &mut Vec<CellMove>) {
    let us = pos.us();
    let (f, r) = pos.file_rank(from);
    let up = if us == 0 { 1 } else { -1 };
    let zone = def.promotion_region[us as usize];
    let role = role_at(pos, from);
    let add = |to: u8, out: &mut Vec<CellMove>| {
        let plain = cell_move(pos, role, from, to, CellKind::Normal);
        if pos.region_has(zone, to) {
            for k in pawns::promotion_choices(def, pos) {
                out.push(CellMove {
                    promotion: Some(def.role(k)),
                    ..plain
                });
            }
            if let Some(pm) = def
                .kind_of_role(role)
                .and_then(|k| promote::pawn_promotion(def, pos, k, &plain))
            {
                out.push(pm);
            }
            if def.mandatory_pawn_promotion {
                return;
            }
        }
        out.push(plain);
    };
    if let Some(one) = pos.sq(f, r + up) {
        if pos.is_empty_at(one) {
            add(one, out);
            if def.double_step && pos.region_has(def.double_step_region[us as usize], from) {
                if let Some(two) = pos.sq(f, r + 2 * up) {
                    if pos.is_empty_at(two) {
                        add(two, out);
                    }
                }
            }
        }
    }
    for df in [-1, 1] {
        let Some(to) = pos.sq(f + df, r + up) else {
            continue;
        };
        match pos.man(def, to) {
            Some(t) if t.color != us => add(to, out),
            None if pos.state().ep.contains(&to) => {
                // Fairy-Stockfish's en passant never promotes, even in
                // the promotion region.
                out.extend(pawns::en_passant_move(pos, role, from, to));
            }
            _ => {}
        }
    }
}

/// Castling by the shared rule ([`castle`]) on the definition's squares:
/// the king to its castling file, the rook beside it. As in
/// Fairy-Stockfish, only a royal king may not castle through attacked
/// squares; a commoner castles regardless.
fn castling_moves(def: &Def, pos: &Pos, out: &mut Vec<CellMove>) {
    let us = pos.us();
    let rank = pos.castling_rank(def, us);
    let mut checked: Option<bool> = None;
    for side in 0..2 {
        let Some(right) = pos.state().castling[us as usize][side] else {
            continue;
        };
        let kfile = if side == 0 {
            def.castling_kingside_file
        } else {
            def.castling_queenside_file
        };
        let rfile = if side == 0 { kfile - 1 } else { kfile + 1 };
        let (Some(kto), Some(rto)) = (pos.sq(kfile, rank), pos.sq(rfile, rank)) else {
            continue;
        };
        let royal = pos.part(def, right.king) == Some(Part::King);
        let attacked = |i: usize| royal && attacked(def, pos, pos.number_at(i), 1 - us);
        let cell = |s: u8| pos.cell_index(s);
        let king = [cell(right.king), cell(kto)];
        let rook = [cell(right.rook), cell(rto)];
        let Some(m) = castle(&pos.board, role_at(pos, right.king), king, rook, attacked) else {
            continue;
        };
        if *checked.get_or_insert_with(|| king_in_check(def, pos)) {
            return;
        }
        out.push(m);
    }
}

/// Plays a move given by [`legal_moves`].
pub fn play(def: &Def, pos: &Pos, mv: &CellMove) -> Pos {
    let mut p = pos.clone();
    play_onto(def, pos, mv, &mut p);
    p
}

/// [`play`] into `p`, a copy of `pos` (a scratch position whose arrays
/// are reused).
fn play_onto(def: &Def, pos: &Pos, mv: &CellMove, p: &mut Pos) {
    let us = pos.us();
    // The move in the engine's squares.
    let (from, to) = (
        pos.number_at(mv.from as usize),
        pos.number_at(mv.to as usize),
    );
    let moving = pos.man(def, from);
    let mut captured = !pos.is_empty_at(to);
    p.state_mut().ep.clear();
    let bit = |sq: u8| 1u128 << sq;
    // A piece taken goes to the taker's hand (`capturesToHand`): a
    // promoted one as the pawn it was, unless `dropLoop`.
    let taken_at = match mv.kind {
        CellKind::EnPassant { captured } => Some(pos.number_at(captured as usize)),
        CellKind::Normal | CellKind::DoubleStep => Some(to),
        CellKind::Castle { .. } | CellKind::Drop => None,
    };
    if let Some(at) = taken_at {
        if let Some(t) = pos.man(def, at).filter(|t| t.color != us) {
            if def.captures_to_hand {
                let main = def.pawn_kinds.main[t.color as usize];
                let kind = to_hand(def, pos, at, t.kind as usize, main);
                if let Some(n) = p.state_mut().hands[us as usize].get_mut(kind) {
                    *n = n.saturating_add(1);
                }
            }
            p.state_mut().promoted &= !bit(at);
            p.state_mut().set_unpromoted(at, None);
        }
    }
    let change = promote::change(def, pos, mv);
    p.state_mut().last_drop = (mv.kind == CellKind::Drop)
        .then(|| def.kind_of_role(mv.promotion.unwrap_or(mv.role)))
        .flatten()
        .map(|k| k as u8);
    p.state_mut().castled = match mv.kind {
        CellKind::Castle { rook, .. } => {
            let rook_file = pos.file_rank(pos.number_at(rook as usize)).0;
            Some(u8::from(rook_file < pos.file_rank(from).0))
        }
        _ => None,
    };
    let rook_from = match mv.kind {
        CellKind::Drop => {
            let kind = def.kind_of_role(mv.role).unwrap_or(0);
            p.put(
                def,
                to,
                Some(Man {
                    kind: kind as u8,
                    color: us,
                }),
            );
            if let Some(n) = p.state_mut().hands[us as usize].get_mut(kind) {
                *n = n.saturating_sub(1);
            }
            // Fairy-Stockfish resets its move counter at a drop.
            captured = true;
            None
        }
        CellKind::Castle { rook, rook_to } => {
            let (rook, rook_to) = (
                pos.number_at(rook as usize),
                pos.number_at(rook_to as usize),
            );
            let rook_man = p.take(def, rook);
            let king = p.take(def, from);
            p.put(def, to, king);
            p.put(def, rook_to, rook_man);
            captured = false;
            Some(rook)
        }
        CellKind::EnPassant { captured: taken } => {
            p.put(def, pos.number_at(taken as usize), None);
            let man = p.take(def, from);
            p.put(def, to, man);
            captured = true;
            None
        }
        CellKind::Normal | CellKind::DoubleStep => {
            let man = p.take(def, from);
            p.put(def, to, man);
            None
        }
    };
    if mv.kind != CellKind::Drop && pos.state().promoted & bit(from) != 0 {
        let first = pos.state().unpromoted_at(from);
        let s = p.state_mut();
        s.promoted = (s.promoted & !bit(from)) | bit(to);
        s.set_unpromoted(from, None);
        s.set_unpromoted(to, first);
    }
    if let Some(role) = mv.promotion {
        let kind = def.kind_of_role(role).unwrap_or(0) as u8;
        p.put(def, to, Some(Man { kind, color: us }));
        let first = moving
            .map(|m| m.kind)
            .or(def.kind_of_role(mv.role).map(|k| k as u8));
        let s = p.state_mut();
        match change {
            Some(Change::Demote) => {
                s.promoted &= !bit(to);
                s.set_unpromoted(to, None);
            }
            Some(Change::Promote) => {
                s.promoted |= bit(to);
                s.set_unpromoted(to, first);
            }
            _ => {
                s.promoted |= bit(to);
                s.set_unpromoted(to, None);
            }
        }
    }
    let blasted = if def.blast_on_capture && is_capture(pos, mv) {
        blast(def, p, to)
    } else {
        Vec::new()
    };
    // Castling rights: a king or rook leaving, or a piece taken or blown
    // up there.
    for c in 0..2 {
        for side in 0..2 {
            if let Some(r) = p.state().castling[c][side] {
                let touched = [r.king, r.rook];
                if touched.contains(&from)
                    || touched.contains(&to)
                    || blasted.iter().any(|s| touched.contains(s))
                    || rook_from.is_some_and(|s| touched.contains(&s))
                {
                    p.state_mut().castling[c][side] = None;
                }
            }
        }
    }
    // `oppositeCastling`: the other side may no longer castle this way.
    if let (true, Some(side)) = (def.opposite_castling, p.state().castled) {
        p.state_mut().castling[1 - us as usize][side as usize] = None;
    }
    let ep = pawns::en_passant_squares(def, pos, p, mv);
    p.state_mut().ep = ep;
    let promoted_for_good = change == Some(Change::Promote) && !def.piece_demotion;
    let promoted = change == Some(Change::Pawn) || promoted_for_good;
    p.halfmove = if captured || promoted || pawns::resets_count(def, pos, mv) {
        0
    } else {
        pos.halfmove.saturating_add(1)
    };
    if us == 1 {
        p.fullmove = p.fullmove.saturating_add(1);
    }
    p.turn = !pos.turn;
    p.sync();
}

/// The kind the piece of kind `kind` on `sq` goes to hand as
/// (`capturesToHand`): as it stands, unless promoted (and not
/// `dropLoop`): then as what it was, or, where that is not known (a
/// pawn's promotion), as `pawn`.
fn to_hand(def: &Def, pos: &Pos, sq: u8, kind: usize, pawn: Option<usize>) -> usize {
    let promoted = pos.state().promoted & (1u128 << sq) != 0;
    if !promoted || def.drop_loop {
        return kind;
    }
    pos.state()
        .unpromoted_at(sq)
        .map(usize::from)
        .or(pawn)
        .unwrap_or(kind)
}

/// The explosion of a capture on `at` (`blastOnCapture`, Fairy-Stockfish's
/// `do_move`): the piece that took, and every piece but a pawn on the
/// eight squares around, of either side, unless its kind is immune; with
/// `capturesToHand`, each to the hand of the side it did not belong to. It
/// centres on where the taker lands, also for en passant. Returns the
/// squares emptied.
fn blast(def: &Def, p: &mut Pos, at: u8) -> Vec<u8> {
    let (f, r) = p.file_rank(at);
    let pawn = def.pawn();
    let mut out = Vec::with_capacity(9);
    for dy in -1..=1 {
        for dx in -1..=1 {
            let Some(sq) = p.sq(f + dx, r + dy) else {
                continue;
            };
            let Some(man) = p.man(def, sq) else {
                continue;
            };
            let kind = man.kind as usize;
            if (sq != at && pawn == Some(kind)) || def.blast_immune.contains(kind) {
                continue;
            }
            if def.captures_to_hand {
                // To the other side's hand, as a capture's piece goes (a
                // promoted pawn as Fairy-Stockfish's PAWN, not the main
                // promotion pawn type a capture uses).
                let to_hand = to_hand(def, p, sq, kind, pawn);
                if let Some(n) = p.state_mut().hands[1 - man.color as usize].get_mut(to_hand) {
                    *n = n.saturating_add(1);
                }
            }
            p.put(def, sq, None);
            p.state_mut().promoted &= !(1u128 << sq);
            p.state_mut().set_unpromoted(sq, None);
            out.push(sq);
        }
    }
    out
}

/// Whether `man` on `sq` would have a quiet move on an empty board.
fn can_move_from(def: &Def, pos: &Pos, man: Man, sq: u8) -> bool {
    let q = &def.kinds[man.kind as usize].betza.quiet;
    let (f, r) = pos.file_rank(sq);
    // A hopper counts as a rider here, as in Fairy-Stockfish's pseudo
    // moves on an empty board.
    q.leaps
        .keys()
        .chain(q.slides.keys())
        .chain(q.hops.keys())
        .any(|&d| {
            let (dy, dx) = turned(man.color, d);
            pos.sq(f + dx, r + dy).is_some()
        })
}

fn is_capture(pos: &Pos, mv: &CellMove) -> bool {
    match mv.kind {
        CellKind::EnPassant { .. } => true,
        CellKind::Castle { .. } | CellKind::Drop => false,
        CellKind::Normal | CellKind::DoubleStep => pos.board.cell(mv.to as usize).is_occupied(),
    }
}

/// Legal moves, none once the game has ended by extinction or a flag.
pub fn legal_moves(def: &Def, pos: &Pos) -> Vec<CellMove> {
    if immediate_end(def, pos).is_some() {
        return Vec::new();
    }
    legal_ignoring_end(def, pos, true)
}

/// [`legal_moves`] with every move played to see whether it leaves the
/// royal king attacked: the general path, which a test compares with the
/// shared king-safety filter that [`legal_moves`] takes where it can.
pub fn legal_moves_by_playing(def: &Def, pos: &Pos) -> Vec<CellMove> {
    if immediate_end(def, pos).is_some() {
        return Vec::new();
    }
    legal_ignoring_end(def, pos, false)
}

pub(super) fn legal_ignoring_end(def: &Def, pos: &Pos, shared: bool) -> Vec<CellMove> {
    let mut all = Vec::with_capacity(64);
    pseudo(def, pos, &mut all);
    let us = pos.us();
    // Each move played is played on one scratch copy, made when the first
    // is, its arrays reused.
    let mut scratch: Option<Pos> = None;
    let attacks = if shared {
        attacked
    } else {
        attacked_by_walking
    };
    let mut safe = |mv: &CellMove, side: u8| {
        let after = scratch.get_or_insert_with(|| pos.clone());
        after.clone_from(pos);
        play_onto(def, pos, mv, after);
        after
            .king_square(def, side)
            .is_none_or(|k| !attacks(def, after, k, 1 - side))
    };
    match def.shared.safety_tables().filter(|_| shared) {
        Some(tables) => KingSafety::with(|ks| {
            ks.update_with(pos, tables);
            all.retain(|mv| ks.allows_with(pos, tables, mv));
        }),
        None => all.retain(|mv| safe(mv, us)),
    }
    if def.pseudo_royal {
        let mine = pseudo_royals(def, pos, us);
        let mut after = pos.clone();
        all.retain(|mv| {
            after.clone_from(pos);
            play_onto(def, pos, mv, &mut after);
            pseudo_royals_safe(def, pos, &after, &mine, mv)
        });
    }
    if !def.checking {
        // `checking = false`: a move that gives check is illegal.
        all.retain(|mv| safe(mv, 1 - us));
    } else if !def.drop_checks {
        // `dropChecks = false`: a drop that gives check is illegal.
        all.retain(|mv| mv.kind != CellKind::Drop || safe(mv, 1 - us));
    }
    if def.immobility_illegal {
        all.retain(|m| {
            // A piece dropped promoted moves as its promoted kind.
            let man = Man {
                kind: def.kind_of_role(m.promotion.unwrap_or(m.role)).unwrap_or(0) as u8,
                color: us,
            };
            let to = pos.number_at(m.to as usize);
            match m.kind {
                CellKind::Drop => can_move_from(def, pos, man, to),
                CellKind::Normal | CellKind::DoubleStep if m.promotion.is_none() => {
                    can_move_from(def, pos, man, to)
                }
                _ => true,
            }
        });
    }
    if def.must_capture && all.iter().any(|m| is_capture(pos, m)) {
        all.retain(|m| is_capture(pos, m));
    }
    if def.must_drop {
        // `mustDrop`: while the side holds a piece of the type, only
        // drops of that type, if it has any legal one.
        let hand = &pos.state().hands[us as usize];
        let held = match def.must_drop_type {
            Some(k) => hand.get(k).is_some_and(|&n| n > 0),
            None => hand.iter().any(|&n| n > 0),
        };
        if held {
            let wanted = |m: &CellMove| {
                def.must_drop_type
                    .is_none_or(|k| def.kind_of_role(m.role) == Some(k))
            };
            all.retain(|m| m.kind != CellKind::Drop || wanted(m));
            if all.iter().any(|m| m.kind == CellKind::Drop) {
                all.retain(|m| m.kind == CellKind::Drop);
            }
        }
    }
    all
}

/// Perft by the engine: each move played onto a copy of its position,
/// one scratch position per depth whose arrays are reused.
pub fn perft(def: &Def, pos: &Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut scratch: Vec<Pos> = (1..depth).map(|_| pos.clone()).collect();
    count(def, pos, &mut scratch)
}

/// The nodes `scratch.len() + 1` turns below `pos`.
fn count(def: &Def, pos: &Pos, scratch: &mut [Pos]) -> u64 {
    let moves = legal_moves(def, pos);
    let Some((next, deeper)) = scratch.split_first_mut() else {
        return moves.len() as u64;
    };
    let mut nodes = 0;
    for m in &moves {
        next.clone_from(pos);
        play_onto(def, pos, m, next);
        nodes += count(def, next, deeper);
    }
    nodes
}

/// Finds the legal move written in UCI form.
pub fn parse_uci(def: &Def, pos: &Pos, text: &str) -> Option<CellMove> {
    legal_moves(def, pos)
        .into_iter()
        .find(|m| pos.uci(def, m) == text)
}
