//! Pawn rules for pieces other than the pawn, as Fairy-Stockfish 0.0.90
//! plays them. Its rules name piece types: `promotionPawnTypes` the pieces
//! that promote as a pawn does, onto any square of the promotion region
//! they reach (its `generate_moves`: `pawnPromotions`), `enPassantTypes`
//! the pieces that take en passant, onto an en passant square they attack
//! but may not move to quietly (`epSquares`), and `nMoveRuleTypes` the
//! pieces whose moves reset the n-move count unless one of the piece's
//! quiet moves could bring it back (`do_move`); `pawnTypes` sets the three
//! at once, each has a form for one side (`promotionPawnTypesBlack`), and
//! `e` in a custom piece's Betza adds it to `enPassantTypes`. The last type
//! `pawnTypes` or `promotionPawnTypes` names is the one a promoted piece
//! goes back to hand as (`mainPromotionPawnType`). The pawn itself keeps
//! its own moves whatever these say (`generate_pawn_moves`); only its
//! n-move count follows them. A king neither promotes so nor takes en
//! passant.
//!
//! Initial moves (Betza `i`) are quiet moves a piece has while it stands in
//! its side's double-step region (`moves_from`). A move no other quiet
//! move of the piece makes (`PseudoMoves[1] & ~PseudoMoves[0]`) leaves as
//! en passant squares those from the square after where it started up to
//! where it landed, in the enemy's en passant region (`between_bb`, the
//! landing square included). An en passant capture takes the piece on the
//! first such square, as the taker sees them, that holds one, else the
//! nearest enemy piece behind the square on its file (`capture_square`),
//! which is a pawn's. With `enPassantTypes` naming any type but the pawn,
//! a pawn's double step leaves its square even where no enemy pawn could
//! take there.

use super::board::Pos;
use super::def::{Def, Part};
use super::gen::{cell_move, reach};
use crate::movegen::{CellKind, CellMove};
use crate::movement::Motion;

/// Which rule a key sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `pawnTypes`: the three below and the type promoted pieces go back
    /// to hand as.
    All,
    Promotion,
    EnPassant,
    NMove,
}

/// The keys, in Fairy-Stockfish's order, with the rule and sides each
/// sets.
pub const KEYS: &[(&str, Rule, &[usize])] = &[
    ("pawnTypes", Rule::All, &[0, 1]),
    ("promotionPawnTypes", Rule::Promotion, &[0, 1]),
    ("promotionPawnTypesWhite", Rule::Promotion, &[0]),
    ("promotionPawnTypesBlack", Rule::Promotion, &[1]),
    ("enPassantTypes", Rule::EnPassant, &[0, 1]),
    ("enPassantTypesWhite", Rule::EnPassant, &[0]),
    ("enPassantTypesBlack", Rule::EnPassant, &[1]),
    ("nMoveRuleTypes", Rule::NMove, &[0, 1]),
    ("nMoveRuleTypesWhite", Rule::NMove, &[0]),
    ("nMoveRuleTypesBlack", Rule::NMove, &[1]),
];

/// The pawn rules' piece sets of each side, by Fairy-Stockfish's type
/// names (`pawn`, `customPiece1`), as it keeps them: by type, whatever
/// letters later sections give, a type removed staying in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnTypes {
    /// `mainPromotionPawnType`: what a promoted piece of that side goes
    /// back to hand as (`None`: no type, `promotionPawnTypes = -`).
    pub main: [Option<String>; 2],
    pub promotion: [Vec<String>; 2],
    pub en_passant: [Vec<String>; 2],
    pub n_move: [Vec<String>; 2],
}

impl Default for PawnTypes {
    /// Fairy-Stockfish's defaults: the pawn, for each rule and side.
    fn default() -> PawnTypes {
        let pawn = || vec!["pawn".to_string()];
        PawnTypes {
            main: [Some("pawn".into()), Some("pawn".into())],
            promotion: [pawn(), pawn()],
            en_passant: [pawn(), pawn()],
            n_move: [pawn(), pawn()],
        }
    }
}

impl PawnTypes {
    /// What a key (`rule`, for `sides`) naming `names` sets: the whole set.
    pub fn set(&mut self, rule: Rule, sides: &[usize], names: &[String]) {
        for &c in sides {
            if matches!(rule, Rule::All | Rule::Promotion) {
                self.main[c] = names.last().cloned();
                self.promotion[c] = names.to_vec();
            }
            if matches!(rule, Rule::All | Rule::EnPassant) {
                self.en_passant[c] = names.to_vec();
            }
            if matches!(rule, Rule::All | Rule::NMove) {
                self.n_move[c] = names.to_vec();
            }
        }
    }

    /// A custom piece whose Betza has an `e` takes en passant, both sides.
    pub fn add_en_passant(&mut self, name: &str) {
        for set in &mut self.en_passant {
            if !set.iter().any(|n| n == name) {
                set.push(name.to_string());
            }
        }
    }
}

/// What the sets come to for a definition's kinds: bit `k` for kind `k`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PawnKinds {
    pub promotion: [u128; 2],
    pub en_passant: [u128; 2],
    pub n_move: [u128; 2],
    /// The kind [`PawnTypes::main`] names, where the variant has it.
    pub main: [Option<usize>; 2],
    /// `enPassantTypes` names a type other than the pawn, which the
    /// variant has or not (Fairy-Stockfish's `enPassantTypes[c] &
    /// ~piece_set(PAWN)`).
    pub en_passant_beyond_pawn: [bool; 2],
    /// Fairy-Stockfish's `fastAttacks` or `fastAttacks2`: only its chess
    /// pieces (with the commoner, archbishop, chancellor and immobile
    /// piece) or only its shogi and common stepping pieces, and a king
    /// that moves as `K`. Without it, an en passant square written in a
    /// position stands wherever the region allows.
    pub fast_attacks: bool,
}

/// Fairy-Stockfish's `CHESS_PIECES | COMMON_FAIRY_PIECES`.
const FAST: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "immobile",
    "commoner",
    "archbishop",
    "chancellor",
];

/// Its `SHOGI_PIECES | COMMON_STEP_PIECES` (its dragon is the bers).
const FAST2: &[&str] = &[
    "shogiPawn",
    "gold",
    "silver",
    "shogiKnight",
    "lance",
    "bers",
    "dragonHorse",
    "king",
    "commoner",
    "fers",
    "wazir",
    "breakthrough",
];

/// [`PawnKinds`] of a definition whose kinds are final.
pub fn compile(def: &Def) -> PawnKinds {
    let index = |name: &String| def.kinds.iter().position(|k| k.name == *name);
    let mask = |names: &[String]| {
        names
            .iter()
            .filter_map(index)
            .fold(0u128, |m, k| m | 1 << k)
    };
    let t = &def.pawn_types;
    let only = |set: &[&str]| def.kinds.iter().all(|k| set.contains(&k.name.as_str()));
    let king_moves_as_k = def
        .kinds
        .iter()
        .all(|k| k.part != Part::King || k.betza_text == "K");
    PawnKinds {
        promotion: [mask(&t.promotion[0]), mask(&t.promotion[1])],
        en_passant: [mask(&t.en_passant[0]), mask(&t.en_passant[1])],
        n_move: [mask(&t.n_move[0]), mask(&t.n_move[1])],
        main: [
            t.main[0].as_ref().and_then(index),
            t.main[1].as_ref().and_then(index),
        ],
        en_passant_beyond_pawn: [0, 1].map(|c| t.en_passant[c].iter().any(|n| n != "pawn")),
        fast_attacks: king_moves_as_k && (only(FAST) || only(FAST2)),
    }
}

fn has(set: u128, kind: usize) -> bool {
    set & (1 << kind) != 0
}

/// Whether a piece of `color` on `from` may make its initial moves: it
/// stands in its side's double-step region, with double steps on
/// (Fairy-Stockfish empties the regions without them).
fn initial_allowed(def: &Def, pos: &Pos, color: u8, from: u8) -> bool {
    def.double_step && pos.region_has(def.double_step_region[color as usize], from)
}

/// Adds to `out` the initial moves of the piece of kind `kind` on `from`
/// onto the empty squares its other moves (`out[start..]`) do not reach.
pub fn initial_moves(
    def: &Def,
    pos: &Pos,
    from: u8,
    kind: usize,
    buf: &mut Vec<u8>,
    out: &mut Vec<CellMove>,
    start: usize,
) {
    let initial = &def.kinds[kind].betza.initial;
    let us = pos.us();
    if initial.is_empty() || !initial_allowed(def, pos, us, from) {
        return;
    }
    buf.clear();
    reach(pos, us, from, initial, buf);
    let role = def.role(kind);
    for &to in buf.iter() {
        let cell = pos.cell_index(to) as u32;
        if pos.is_empty_at(to) && !out[start..].iter().any(|m| m.to == cell) {
            out.push(cell_move(pos, role, from, to, CellKind::Normal));
        }
    }
}

/// The kinds a pawn of the side to move may promote to, in
/// Fairy-Stockfish's order (last type first), within `promotionLimit`.
pub fn promotion_choices(def: &Def, pos: &Pos) -> Vec<usize> {
    let us = pos.us();
    let set = &def.promotion_types[us as usize];
    let mut kinds: Vec<usize> = if set.all {
        (0..def.kinds.len()).collect()
    } else {
        set.kinds.clone()
    };
    kinds.sort_by_key(|&k| std::cmp::Reverse(def.kinds[k].order));
    kinds.dedup();
    kinds.retain(|&k| {
        let limit = def
            .promotion_limit
            .iter()
            .find(|(lk, _)| *lk == k)
            .map_or(0, |l| l.1);
        limit == 0 || (limit as i32) > pos.count(def, us, Some(k))
    });
    kinds
}

/// The squares of the promotion region that the moves `out[start..]` of
/// a piece of kind `kind`, one of `promotionPawnTypes`, reach (before
/// shogi-style promotions take any plain move out).
pub fn promotion_targets(
    def: &Def,
    pos: &Pos,
    kind: usize,
    out: &[CellMove],
    start: usize,
) -> Vec<u32> {
    let us = pos.us() as usize;
    if def.kinds[kind].part != Part::Plain || !has(def.pawn_kinds.promotion[us], kind) {
        return Vec::new();
    }
    let zone = def.promotion_region[us];
    out[start..]
        .iter()
        .filter(|m| pos.region_has(zone, pos.number_at(m.to as usize)))
        .map(|m| m.to)
        .collect()
}

/// Adds the pawn-style promotions onto `targets` (found by
/// [`promotion_targets`]) of the piece on `from`, taking out its plain
/// moves there when promotion is mandatory, and its en passant captures.
pub fn promotions_and_en_passant(
    def: &Def,
    pos: &Pos,
    from: u8,
    kind: usize,
    targets: &[u32],
    out: &mut Vec<CellMove>,
    start: usize,
) {
    if !targets.is_empty() {
        if def.mandatory_pawn_promotion {
            let mut seen = 0;
            out.retain(|m| {
                seen += 1;
                seen <= start || m.promotion.is_some() || !targets.contains(&m.to)
            });
        }
        let role = def.role(kind);
        for k in promotion_choices(def, pos) {
            for &to in targets {
                let plain = cell_move(
                    pos,
                    role,
                    from,
                    pos.number_at(to as usize),
                    CellKind::Normal,
                );
                out.push(CellMove {
                    promotion: Some(def.role(k)),
                    ..plain
                });
            }
        }
    }
    en_passant(def, pos, from, kind, out);
}

/// The en passant captures of the piece of kind `kind` on `from`, one of
/// `enPassantTypes`: onto each empty en passant square it attacks and
/// may not move to quietly.
fn en_passant(def: &Def, pos: &Pos, from: u8, kind: usize, out: &mut Vec<CellMove>) {
    let us = pos.us();
    let ep = &pos.state().ep;
    if ep.is_empty()
        || def.kinds[kind].part != Part::Plain
        || !has(def.pawn_kinds.en_passant[us as usize], kind)
    {
        return;
    }
    let betza = &def.kinds[kind].betza;
    let (mut attacks, mut quiets) = (Vec::new(), Vec::new());
    reach(pos, us, from, &betza.capture, &mut attacks);
    reach(pos, us, from, &betza.quiet, &mut quiets);
    if initial_allowed(def, pos, us, from) {
        reach(pos, us, from, &betza.initial, &mut quiets);
    }
    let role = def.role(kind);
    for &to in ep {
        if pos.is_empty_at(to) && attacks.contains(&to) && !quiets.contains(&to) {
            out.extend(en_passant_move(pos, role, from, to));
        }
    }
}

/// The en passant capture of the piece of `role` on `from` onto `to`,
/// taking what [`capture_square`] names (none where it names nothing).
pub fn en_passant_move(pos: &Pos, role: crate::piece::Role, from: u8, to: u8) -> Option<CellMove> {
    let captured = pos.cell_index(capture_square(pos, to)?) as u32;
    Some(cell_move(
        pos,
        role,
        from,
        to,
        CellKind::EnPassant { captured },
    ))
}

/// The square whose piece an en passant capture onto `to` takes
/// (Fairy-Stockfish's `capture_square`): the first en passant square, as
/// the side to move sees them, that holds a piece (the one that made an
/// initial move), else the nearest enemy piece behind `to` on its file.
pub fn capture_square(pos: &Pos, to: u8) -> Option<u8> {
    let white = pos.us() == 0;
    let marked = pos
        .state()
        .ep
        .iter()
        .copied()
        .filter(|&s| !pos.is_empty_at(s));
    let first = if white { marked.min() } else { marked.max() };
    if first.is_some() {
        return first;
    }
    let (f, r) = pos.file_rank(to);
    let back = if white { -1 } else { 1 };
    (1..)
        .map_while(|n| pos.sq(f, r + back * n))
        .find(|&s| pos.piece_at(s).is_some_and(|p| p.color != pos.turn))
}

/// Whether `motion`, of a piece of `color`, goes from one square to
/// another `(files, ranks)` away on an empty board (Fairy-Stockfish's
/// `PseudoMoves`): a leap of that step (lame or not), or a slide or hop
/// along it within its range (a grasshopper's range is the board's).
fn goes(motion: &Motion, color: u8, (df, dr): (i8, i8)) -> bool {
    let turn = |(dy, dx): (i8, i8)| if color == 0 { (dy, dx) } else { (-dy, -dx) };
    let along = |(dy, dx): (i8, i8), limit: i8| {
        (1..=if limit > 0 { limit } else { 16 }).any(|k| (k * dy, k * dx) == (dr, df))
    };
    motion.leaps.keys().any(|&d| turn(d) == (dr, df))
        || motion.slides.iter().any(|(&d, &l)| along(turn(d), l))
        || motion
            .hops
            .iter()
            .any(|(&d, &l)| along(turn(d), if l == 1 { 0 } else { l }))
}

/// The en passant squares the move `mv` of the side to move in `pos`,
/// from `from` to `to`, leaves (`do_move`): a pawn's double step its
/// passed square, where an enemy pawn could take there or the enemy has
/// en passant types beyond the pawn; a move of another piece that only its
/// initial moves make, the squares after `from` up to `to`; each in the
/// enemy's en passant region. Ascending.
pub fn en_passant_squares(def: &Def, pos: &Pos, after: &Pos, mv: &CellMove) -> Vec<u8> {
    let (from, to) = (
        pos.number_at(mv.from as usize),
        pos.number_at(mv.to as usize),
    );
    let Some(man) = pos.man(def, from) else {
        return Vec::new();
    };
    if mv.kind == CellKind::Drop || mv.promotion.is_some() {
        return Vec::new();
    }
    let (us, them) = (man.color, 1 - man.color);
    let region = def.en_passant_region[them as usize];
    let ((f, r), (tf, tr)) = (pos.file_rank(from), pos.file_rank(to));
    let (df, dr) = (tf - f, tr - r);
    let mut out = Vec::new();
    match def.kinds[man.kind as usize].part {
        Part::Pawn if df == 0 && dr.abs() == 2 => {
            let up = dr.signum();
            let Some(passed) = pos.sq(f, r + up) else {
                return out;
            };
            let pawn = def.pawn();
            let attacker = [-1, 1].iter().any(|d| {
                after.sq(f + d, tr).is_some_and(|s| {
                    matches!(after.man(def, s), Some(m) if m.color == them && Some(m.kind as usize) == pawn)
                })
            });
            let takers = attacker || def.pawn_kinds.en_passant_beyond_pawn[them as usize];
            if takers && pos.region_has(region, passed) {
                out.push(passed);
            }
        }
        Part::Plain => {
            let betza = &def.kinds[man.kind as usize].betza;
            if !goes(&betza.initial, us, (df, dr)) || goes(&betza.quiet, us, (df, dr)) {
                return out;
            }
            // Fairy-Stockfish's `between_bb`: the line's squares after
            // `from`, `to` included; `to` alone off a line.
            let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
            let n = if aligned { df.abs().max(dr.abs()) } else { 1 };
            let (sf, sr) = if aligned {
                (df.signum(), dr.signum())
            } else {
                (df, dr)
            };
            out.extend(
                (1..=n)
                    .filter_map(|k| pos.sq(f + k * sf, r + k * sr))
                    .filter(|&s| pos.region_has(region, s)),
            );
            out.sort_unstable();
        }
        _ => {}
    }
    out
}

/// Whether the move `mv` of the side to move resets the n-move count for
/// the kind of piece it moves (`nMoveRuleTypes`): unless one of the
/// piece's quiet moves (Fairy-Stockfish's `PseudoMoves[0]`: its pawn's
/// `fW`, its king's `K`) would bring it back. Captures, promotions and
/// drops reset it whatever moves.
pub fn resets_count(def: &Def, pos: &Pos, mv: &CellMove) -> bool {
    let from = pos.number_at(mv.from as usize);
    let Some(man) = pos.man(def, from).filter(|_| mv.kind != CellKind::Drop) else {
        return false;
    };
    if !has(def.pawn_kinds.n_move[man.color as usize], man.kind as usize) {
        return false;
    }
    // Castling is the king's move onto its rook there.
    let to = match mv.kind {
        CellKind::Castle { rook, .. } => rook,
        _ => mv.to,
    };
    let ((f, r), (tf, tr)) = (
        pos.file_rank(from),
        pos.file_rank(pos.number_at(to as usize)),
    );
    let back = (f - tf, r - tr);
    match def.kinds[man.kind as usize].part {
        Part::Pawn => true,
        Part::King => back.0.abs() > 1 || back.1.abs() > 1,
        Part::Plain => !goes(&def.kinds[man.kind as usize].betza.quiet, man.color, back),
    }
}

#[cfg(test)]
mod tests;
