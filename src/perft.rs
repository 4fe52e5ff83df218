//! Perft: counting the leaf nodes of the game tree to a depth, the standard
//! check of a move generator against published tables, and the tables
//! themselves (`fixtures/perft/<variant>.perft`: `id`, `fen`,
//! `perft DEPTH NODES` lines, `#` comments).

use crate::movegen::{CellMove, KingSafety, Unmake};
use crate::position::Position;
use crate::variant::Rules;

/// Leaf nodes `depth` turns deep: by the variant's own counter where its
/// rules declare one ([`Capability::perft`](crate::variant::Capability::perft)), else [`perft_by_copy`].
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let rules = pos.variant.rules();
    match rules.capability().perft {
        Some(count) => count(pos, depth),
        None => perft_by_copy(rules, pos, depth),
    }
}

/// Perft by copying: each move is applied by the variant's own
/// [`Rules::apply`] to a copy of its position. The copies are made into one scratch position per
/// depth, so a node costs a copy of the board but no allocation for it.
pub fn perft_by_copy<R: Rules + ?Sized>(rules: &R, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut scratch: Vec<Position> = (1..depth).map(|_| pos.clone()).collect();
    by_copy(rules, pos, &mut scratch)
}

/// The nodes `scratch.len() + 1` turns below `pos`.
fn by_copy<R: Rules + ?Sized>(rules: &R, pos: &Position, scratch: &mut [Position]) -> u64 {
    let moves = rules.legal_moves(pos);
    let Some((next, deeper)) = scratch.split_first_mut() else {
        return moves.len() as u64;
    };
    let mut nodes = 0;
    for m in &moves {
        next.clone_from(pos);
        rules.apply(next, m);
        nodes += by_copy(rules, next, deeper);
    }
    nodes
}

/// A variant whose turns are the shared generator's single-piece moves
/// ([`Position::for_each_pseudo`]) and whose [`Rules::apply`] is
/// [`Position::apply_piece_move`] followed by [`InPlace::after`], adding
/// or removing no square: its perft can play moves in place
/// ([`perft_in_place`]).
pub trait InPlace {
    /// Whether moves that leave a king of the mover attacked are dropped
    /// (FI-3), as `Rules::legal_moves` does by default.
    const KING_SAFETY: bool = true;

    /// True when the side to move has no moves at all, for reasons the
    /// generator does not know (a game over by the variant's own rules).
    fn finished(&self, _pos: &Position) -> bool {
        false
    }

    /// What the variant's `apply` does after the piece move. Cells it
    /// changes must be saved in `undo` first (see [`Unmake::save`]); the
    /// position's other fields are restored whatever it does to them.
    fn after(&self, _pos: &mut Position, _m: &CellMove, _undo: &mut Unmake) {}
}

/// Perft by make and unmake on one position, counting the last turn in
/// bulk: the same count as [`perft_by_copy`] for a variant that is
/// [`InPlace`], without copying positions or listing move values.
pub fn perft_in_place<V: InPlace>(variant: &V, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut work = pos.clone();
    let mut lists: Vec<Vec<CellMove>> = (1..depth).map(|_| Vec::with_capacity(64)).collect();
    let mut safety = KingSafety::default();
    in_place(variant, &mut work, &mut lists, &mut safety)
}

/// Generates the moves of `pos` for `f`: legal ones, or pseudo-legal ones
/// for a variant without king safety.
#[inline]
fn generate<V: InPlace>(pos: &Position, safety: &mut KingSafety, f: impl FnMut(CellMove)) {
    if V::KING_SAFETY {
        pos.for_each_legal(safety, f);
    } else {
        pos.for_each_pseudo(f);
    }
}

/// The nodes `lists.len() + 1` turns below `pos`; `lists` holds one move
/// list per turn above the last.
fn in_place<V: InPlace>(
    variant: &V,
    pos: &mut Position,
    lists: &mut [Vec<CellMove>],
    safety: &mut KingSafety,
) -> u64 {
    if variant.finished(pos) {
        return 0;
    }
    let Some((moves, deeper)) = lists.split_last_mut() else {
        let mut n = 0;
        generate::<V>(pos, safety, |_| n += 1);
        return n;
    };
    moves.clear();
    generate::<V>(pos, safety, |m| moves.push(m));
    let mut nodes = 0;
    for m in moves.iter() {
        let mut undo = pos.make(m);
        variant.after(pos, m, &mut undo);
        nodes += in_place(variant, pos, deeper, safety);
        pos.unmake(undo);
    }
    nodes
}

/// One position of a perft table with its published counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// The line of each count in the file (for error messages).
    pub lines: Vec<usize>,
}

/// Reads a perft table file.
pub fn read_table(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                counts: Vec::new(),
                lines: Vec::new(),
            }),
            "fen" | "epd" => match cases.last_mut() {
                Some(c) => c.fen = rest.to_string(),
                None => return Err(format!("line {}: fen before id", n + 1)),
            },
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok());
                let nodes = it.next().and_then(|d| d.parse().ok());
                match (cases.last_mut(), depth, nodes) {
                    (Some(c), Some(d), Some(nn)) => {
                        c.counts.push((d, nn));
                        c.lines.push(n + 1);
                    }
                    _ => return Err(format!("line {}: expected `perft DEPTH NODES`", n + 1)),
                }
            }
            other => return Err(format!("line {}: unknown key {other:?}", n + 1)),
        }
    }
    Ok(cases)
}
