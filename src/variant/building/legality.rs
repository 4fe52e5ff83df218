//! Which moves of a Building Chess position are legal, and the placements
//! closed to each (BU-5, BU-6; see the parent module for why a move's
//! legality and its closed placements are all there is to a turn's).
//!
//! Two ways in: all the side's moves ([`parts`], for a turn list, a count
//! or a search for any legal turn), or only those of one kind onto one
//! square ([`parts_to`], for a turn read, checked or written): the pieces
//! of that kind and their rays that point at the square, so that a long
//! game's replay, which reads, checks and writes every turn, costs what
//! the pieces and the move cost, not what the side's other moves do.

use super::edge_neighbours;
use crate::board::Board;
use crate::color::Color;
use crate::movegen::{CellKind, CellMove};
use crate::mv::PieceMove;
use crate::piece::{Piece, Role, Stack};
use crate::position::{attacked, attacked_with, Position};
use crate::square::Square;
use crate::variant::Tables;

/// One legal move of a turn with the placements closed to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The piece move, `place` unset.
    pub mv: PieceMove,
    /// Placements that would open a line onto the mover's king (BU-6).
    pub closed: Vec<Square>,
}

/// The cells of the kings of `color`: a walk over its pieces.
pub(super) fn king_cells(board: &Board, color: Color) -> Vec<usize> {
    board
        .cells_of(color)
        .filter(|&i| board.cell(i).has(color, Role::King))
        .collect()
}

/// The legal moves of `pos`, each with the placements closed to it, in
/// [`Turns::parts`](super::Turns::parts) order: a walk over the pieces and
/// the lines from the king, not over the board.
pub fn parts(pos: &Position) -> Vec<Part> {
    let mut judge = Judge::new(pos);
    let mut parts = Vec::with_capacity(32);
    pos.pseudo_until(|m| {
        if let Some(closed) = judge.closed(pos, &m) {
            parts.push(Part {
                mv: pos.piece_move(&m),
                closed: closed.to_vec(),
            });
        }
        false
    });
    in_part_order(&mut parts);
    parts
}

/// The legal moves of `pos` made by a piece of kind `role` onto `to`, as
/// [`parts`] lists them (the same parts, in the same order), found from
/// the pieces of that kind and their rays that point at `to` alone.
pub fn parts_to(pos: &Position, role: Role, to: Square) -> Vec<Part> {
    let Some(to) = pos.board.index(to) else {
        return Vec::new();
    };
    let mut judge = Judge::new(pos);
    let mut parts = Vec::new();
    pos.for_each_pseudo_to(role, to, |m| {
        if let Some(closed) = judge.closed(pos, &m) {
            parts.push(Part {
                mv: pos.piece_move(&m),
                closed: closed.to_vec(),
            });
        }
    });
    in_part_order(&mut parts);
    parts
}

/// Pieces rank by rank, as a board of one tile visits them, however the
/// board's tiles were made: a grown board and the same board read from its
/// text list their turns alike. (Stable: a piece's moves keep the
/// generator's order.)
fn in_part_order(parts: &mut [Part]) {
    parts.sort_by_key(|p| (p.mv.from.rank, p.mv.from.file));
}

/// The part of a move among `parts`, whatever its placement.
pub(crate) fn part_of<'a>(parts: &'a [Part], m: &PieceMove) -> Option<&'a Part> {
    parts.iter().find(|p| {
        p.mv.role == m.role
            && p.mv.from == m.from
            && p.mv.to == m.to
            && p.mv.kind == m.kind
            && p.mv.promotion == m.promotion
            && p.mv.carried == m.carried
            && p.mv.carried_promotions == m.carried_promotions
    })
}

/// Calls `f` with each legal move of `pos` (in the generator's order) and
/// the placements closed to it, until `f` returns true.
pub(super) fn each_move(pos: &Position, mut f: impl FnMut(&CellMove, &[Square]) -> bool) {
    let mut judge = Judge::new(pos);
    pos.pseudo_until(|m| match judge.closed(pos, &m) {
        Some(closed) => f(&m, closed),
        None => false,
    });
}

/// What the legality of a pseudo-legal move of a position depends on
/// besides the move: the side's kings, whether one is in check, and the
/// placements closed while the king's lines stay as they are.
pub(super) struct Judge {
    kings: Vec<usize>,
    king_sqs: Vec<Square>,
    in_check: bool,
    /// The placements closed to a move that changes no line from a king.
    base_closed: Vec<Square>,
    /// Scratch: the placements closed to the move judged last, and the
    /// kings' cells after it.
    closed: Vec<Square>,
    moved: Vec<usize>,
}

impl Judge {
    pub(super) fn new(pos: &Position) -> Judge {
        let board = &pos.board;
        let tables = pos.tables();
        let us = pos.turn;
        let kings = king_cells(board, us);
        let king_sqs = kings.iter().map(|&k| board.square(k)).collect();
        let in_check = kings.iter().any(|&k| attacked(board, tables, k, !us));
        let mut base_closed = Vec::new();
        closed_placements(
            board,
            tables,
            &kings,
            us,
            |i| board.cell(i),
            &mut base_closed,
        );
        Judge {
            moved: Vec::with_capacity(kings.len()),
            kings,
            king_sqs,
            in_check,
            base_closed,
            closed: Vec::new(),
        }
    }

    /// The placements closed to the pseudo-legal move `m` of `pos` (the
    /// position this judge was made for) when the move leaves every king
    /// of the mover safe; `None` when it does not.
    pub(super) fn closed(&mut self, pos: &Position, m: &CellMove) -> Option<&[Square]> {
        let us = pos.turn;
        let board = &pos.board;
        let tables = pos.tables();
        // Building's sliders move along ranks, files and diagonals: a
        // move off every such line from the king leaves the king's
        // attackers and its gaps as they were.
        let (from, to) = (m.from as usize, m.to as usize);
        let (from_sq, to_sq) = (board.square(from), board.square(to));
        let quiet = !self.in_check
            && m.role != Role::King
            && m.kind == CellKind::Normal
            && !self
                .king_sqs
                .iter()
                .any(|&k| on_line(k, from_sq) || on_line(k, to_sq));
        if quiet {
            return Some(&self.base_closed);
        }
        // The board after the move, seen through the two cells it changes
        // (Building has no en passant and no castling).
        let placed = match m.promotion {
            Some(p) => Stack::single(Piece::new(us, p)),
            None => board.cell(from),
        };
        let after = |i: usize| {
            if i == to {
                placed
            } else if i == from {
                Stack::EMPTY
            } else {
                board.cell(i)
            }
        };
        self.moved.clear();
        self.moved
            .extend(self.kings.iter().map(|&k| if k == from { to } else { k }));
        if self
            .moved
            .iter()
            .any(|&k| attacked_with(board, tables, k, !us, after))
        {
            return None;
        }
        self.closed.clear();
        closed_placements(board, tables, &self.moved, us, after, &mut self.closed);
        Some(&self.closed)
    }
}

/// Is `sq` on a rank, file or diagonal through `king` (and not `king`)?
fn on_line(king: Square, sq: Square) -> bool {
    let (dx, dy) = (sq.file - king.file, sq.rank - king.rank);
    (dx == 0) != (dy == 0) || (dx != 0 && dx.abs() == dy.abs())
}

/// The placements of `us` that would expose one of its kings (cells
/// `kings` of `board`) to an enemy slider (BU-6). Walking out from a king
/// along each direction an enemy piece attacks from afar: over empty
/// squares to the first gap, which the mover could add if it has the
/// mover's colour and shares an edge with the board; then over empty
/// squares to the first piece. If that piece is an enemy that captures
/// along the line from that distance, adding the gap gives it the king.
/// Only the first gap can open a line: one added square leaves any further
/// gap in place. Every square pushed on `out` is one of
/// [`placements`](super::placements).
/// The board is read through `cell`, which may show it after a move.
fn closed_placements(
    board: &Board,
    tables: &Tables,
    kings: &[usize],
    us: Color,
    cell: impl Fn(usize) -> Stack,
    out: &mut Vec<Square>,
) {
    let light = us == Color::White;
    for &king in kings {
        for dir in tables.attacks[!us].iter().filter(|d| d.max >= 2) {
            let off = board.offset(-dir.dx, -dir.dy);
            let king_sq = board.square(king);
            let mut i = king;
            let mut gap = None;
            // The cell past a gap, found by name: a step from an `OFF`
            // cell of a tile's margin may leave the tile.
            let mut past_gap = None;
            for n in 0..dir.max as usize {
                i = past_gap.take().unwrap_or_else(|| board.step(i, off));
                let c = cell(i);
                if c.is_empty() {
                    continue;
                }
                if c.is_off() {
                    // By name, as the square past it.
                    let k = n as i16 + 1;
                    let sq = king_sq.offset(-dir.dx * k, -dir.dy * k);
                    let addable = gap.is_none()
                        && sq.is_light() == light
                        && edge_neighbours(sq).any(|s| board.contains(s));
                    if !addable {
                        break;
                    }
                    gap = Some(sq);
                    // No square past the gap: nothing comes through it.
                    let Some(past) = board.index(sq.offset(-dir.dx, -dir.dy)) else {
                        break;
                    };
                    past_gap = Some(past);
                    continue;
                }
                if let Some(sq) = gap {
                    if c.color() != us && dir.hits(c, n) && !out.contains(&sq) {
                        out.push(sq);
                    }
                }
                break;
            }
        }
    }
}
