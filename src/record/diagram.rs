//! Diagrams in records: reading a drawn board into squares with the
//! legend, comparing it with a position, and setting a position up from it.
//!
//! These live in the record layer, not in `notation/`, because they read
//! the lexer's [`RawDiagram`] and report through the record's [`Issue`]s.

use super::lexer::RawDiagram;
use super::{Issue, IssueKind};
use crate::board::Board;
use crate::color::Color;
use crate::error::Span;
use crate::piece::{Piece, Role, Roles, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::Variant;

/// A diagram read into squares: each square with its contents (`None`
/// for a hole, a square the diagram leaves blank) and the span of its cell.
#[derive(Clone, Debug)]
pub struct DiagramBoard {
    pub cells: Vec<(Square, Option<Stack>, Span)>,
    pub prison: Option<(Stack, Span)>,
    pub span: Span,
    pub files: usize,
    pub ranks: usize,
}

fn cell_stack(text: &str, legend: &[(char, char)], variant: Variant) -> Result<Stack, String> {
    if text == "." {
        return Ok(Stack::EMPTY);
    }
    let spec = variant.spec();
    let mut color = None;
    let mut roles = Roles::EMPTY;
    for c in text.chars() {
        let mapped = legend
            .iter()
            .find(|(from, _)| *from == c)
            .map(|(_, to)| *to)
            .unwrap_or(c);
        let p = Piece::from_char(mapped).ok_or_else(|| {
            let pawn = if c.is_ascii_uppercase() { 'P' } else { 'p' };
            format!("'{c}' is not a piece letter; say what it stands for with --legend {c}={pawn}")
        })?;
        if !spec.pieces.iter().any(|s| s.role == p.role) {
            return Err(format!("{} has no piece '{mapped}'", spec.title));
        }
        if color.is_some_and(|col| col != p.color) {
            return Err("a stack holds pieces of one side only".into());
        }
        color = Some(p.color);
        roles = roles.with(p.role);
    }
    if text.chars().count() > 1 && !spec.stacks {
        return Err(format!("{} has no stacks; one letter a square", spec.title));
    }
    Ok(Stack::of(color.unwrap_or(Color::White), roles))
}

/// The legend with each letter's other case added (`O=P` also maps `o`
/// to `p`, `x=p` maps `X` to `P`).
fn full_legend(legend: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = legend.to_vec();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    for &(f, t) in legend {
        let (lf, lt) = (swap(f), swap(t));
        if !out.iter().any(|(x, _)| *x == lf) {
            out.push((lf, lt));
        }
    }
    out
}

/// Reads a diagram's cells into squares with the legend; problems go to
/// `issues` and make the diagram unusable (`None`). A diagram that draws
/// `O` and no `P` is read with `O=P` (the Swap Chess page's White pawns),
/// with a note the first time in a game.
pub fn read_diagram(
    raw: &RawDiagram<'_>,
    span: Span,
    variant: Variant,
    legend: &[(char, char)],
    issues: &mut Vec<Issue>,
    noted: &mut bool,
) -> Option<DiagramBoard> {
    let mut map = full_legend(legend);
    let letters = || {
        raw.ranks
            .iter()
            .flat_map(|r| r.cells.iter())
            .chain(raw.prison.iter())
            .flat_map(|c| c.text.chars())
    };
    let has = |ch: char| letters().any(|c| c == ch);
    let mut auto = false;
    for (o, p) in [('O', 'P'), ('o', 'p')] {
        if !map.iter().any(|(f, _)| *f == o) && has(o) && !has(p) {
            map.push((o, p));
            auto = true;
        }
    }
    if auto && !*noted {
        *noted = true;
        issues.push(
            Issue::note(
                IssueKind::Legend,
                span,
                "this diagram draws pawns as O and has no P: read as P (--legend O=P)",
            )
            .found("O"),
        );
    }
    let nranks = raw.ranks.len();
    let mut cells = Vec::new();
    let mut ok = true;
    for (ri, rank) in raw.ranks.iter().enumerate() {
        let r = rank.label.unwrap_or((nranks - ri) as i16);
        let by_order = rank.cells.len() == raw.files.len();
        let mut used = vec![false; raw.files.len()];
        for (ci, cell) in rank.cells.iter().enumerate() {
            let fi = if by_order {
                Some(ci)
            } else {
                raw.files
                    .iter()
                    .position(|f| f.column == cell.column)
                    .or_else(|| {
                        raw.files
                            .iter()
                            .position(|f| f.column.abs_diff(cell.column) <= 1)
                    })
            };
            let Some(fi) = fi.filter(|&i| !used[i]) else {
                issues.push(
                    Issue::error(
                        IssueKind::Diagram,
                        cell.span,
                        "this diagram cell stands under no file letter",
                    )
                    .expected("one cell under each file letter")
                    .found(cell.text),
                );
                ok = false;
                continue;
            };
            used[fi] = true;
            let sq = Square::new(raw.files[fi].file, r);
            match cell_stack(cell.text, &map, variant) {
                Ok(st) => cells.push((sq, Some(st), cell.span)),
                Err(msg) => {
                    issues.push(
                        Issue::error(IssueKind::Diagram, cell.span, format!("{sq}: {msg}"))
                            .expected("a piece letter, a stack of them, or . for an empty square")
                            .found(cell.text),
                    );
                    ok = false;
                }
            }
        }
        for (fi, u) in used.iter().enumerate() {
            if !u {
                cells.push((Square::new(raw.files[fi].file, r), None, rank.span));
            }
        }
    }
    let prison = match &raw.prison {
        None => None,
        Some(c) => match cell_stack(c.text, &map, variant) {
            Ok(st) => Some((st, c.span)),
            Err(msg) => {
                issues.push(
                    Issue::error(IssueKind::Diagram, c.span, format!("prison: {msg}"))
                        .found(c.text),
                );
                ok = false;
                None
            }
        },
    };
    ok.then_some(DiagramBoard {
        cells,
        prison,
        span,
        files: raw.files.len(),
        ranks: nranks,
    })
}

fn show(cell: Option<Stack>) -> String {
    match cell {
        None => "no square".to_string(),
        Some(st) if st.is_empty() => ".".to_string(),
        Some(st) => st.pieces().map(|p| p.char()).collect(),
    }
}

/// Does the diagram's shape match the board's? Needed for boards that do
/// not grow; a growing board is compared square by square.
fn shape_matches(d: &DiagramBoard, board: &Board) -> bool {
    let on: Vec<Square> = d
        .cells
        .iter()
        .filter(|c| c.1.is_some())
        .map(|c| c.0)
        .collect();
    on.len() == board.square_count() && on.iter().all(|&s| board.contains(s))
}

/// Compares a diagram with a position square by square, reporting each
/// difference; true when they agree.
pub fn compare_diagram(d: &DiagramBoard, pos: &Position, issues: &mut Vec<Issue>) -> bool {
    let spec = pos.variant.spec();
    let (minf, minr, maxf, maxr) = pos.board.bounds();
    if !spec.board_grows && !shape_matches(d, &pos.board) {
        issues.push(
            Issue::error(
                IssueKind::Diagram,
                d.span,
                format!(
                    "the diagram has {}x{} squares; the board of {} has {}x{}",
                    d.files,
                    d.ranks,
                    spec.title,
                    maxf - minf + 1,
                    maxr - minr + 1
                ),
            )
            .expected(format!("{}x{}", maxf - minf + 1, maxr - minr + 1))
            .found(format!("{}x{}", d.files, d.ranks)),
        );
        return false;
    }
    let mut same = true;
    let mut differ =
        |sq: String, shows: String, has: String, span: Span, issues: &mut Vec<Issue>| {
            same = false;
            issues.push(
                Issue::error(
                    IssueKind::Diagram,
                    span,
                    format!("{sq}: diagram shows {shows}, game has {has}"),
                )
                .expected(has)
                .found(shows),
            );
        };
    for &(sq, cell, span) in &d.cells {
        let game = pos.board.get(sq);
        if cell != game {
            differ(sq.to_string(), show(cell), show(game), span, issues);
        }
    }
    for sq in pos.board.squares() {
        if !d.cells.iter().any(|c| c.0 == sq) {
            differ(
                sq.to_string(),
                "no square".into(),
                show(pos.board.get(sq)),
                d.span,
                issues,
            );
        }
    }
    if let Some((st, span)) = d.prison {
        let game = pos.board.get(Square::PRISON);
        if game != Some(st) {
            differ("prison".into(), show(Some(st)), show(game), span, issues);
        }
    }
    same
}

/// A position from a diagram: the variant's start position with the
/// diagram's board, `turn` to move, move number `fullmove`, no en passant;
/// castling where king and rook stand on their start squares (and, with
/// `castling_base`, only rights that were not lost before). Checked by the
/// variant's `Rules::validate`.
pub fn setup_position(
    variant: Variant,
    d: &DiagramBoard,
    turn: Color,
    fullmove: u32,
    castling_base: Option<Castling>,
) -> Result<Position, String> {
    let spec = variant.spec();
    let start = Position::start(variant);
    let mut board = if spec.board_grows {
        let squares: Vec<Square> = d
            .cells
            .iter()
            .filter(|c| c.1.is_some())
            .map(|c| c.0)
            .collect();
        Board::from_squares(&squares)
    } else {
        if !shape_matches(d, &start.board) {
            return Err(format!(
                "it has {}x{} squares; {} is played on {}x{}",
                d.files, d.ranks, spec.title, spec.files, spec.ranks
            ));
        }
        let mut b = start.board.clone();
        for sq in start.board.squares() {
            b.set(sq, Stack::EMPTY);
        }
        b
    };
    if start.board.has_prison() || d.prison.is_some() {
        board = board.with_prison();
        board.set(Square::PRISON, Stack::EMPTY);
    }
    for &(sq, cell, _) in &d.cells {
        if let Some(st) = cell {
            board.set(sq, st);
        }
    }
    if let Some((st, _)) = d.prison {
        board.set(Square::PRISON, st);
    }
    let mut pos = start.clone();
    pos.board = board;
    pos.turn = turn;
    pos.fullmove = fullmove.max(1);
    pos.halfmove = 0;
    pos.ep = None;
    let mut castling = Castling::NONE;
    for color in Color::ALL {
        let rank = match color {
            Color::White => 1,
            Color::Black => 8,
        };
        for (king_side, rook_file) in [(true, 8), (false, 1)] {
            let right = start.castling.get(color, king_side)
                && castling_base.is_none_or(|c| c.get(color, king_side))
                && pos.board.piece_at(Square::new(5, rank)) == Some(Piece::new(color, Role::King))
                && pos.board.piece_at(Square::new(rook_file, rank))
                    == Some(Piece::new(color, Role::Rook));
            castling.set(color, king_side, right);
        }
    }
    pos.castling = castling;
    variant.rules().validate(&pos)?;
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_letters_map_both_cases() {
        let map = full_legend(&[('O', 'P'), ('x', 'n')]);
        assert!(map.contains(&('o', 'p')));
        assert!(map.contains(&('X', 'N')));
        assert_eq!(
            cell_stack("O", &map, Variant::Chess),
            Ok(Stack::single(Piece::new(Color::White, Role::Pawn)))
        );
        assert!(cell_stack("PP", &map, Variant::Chess).is_err());
        assert!(cell_stack("Z", &map, Variant::Chess).is_err());
    }
}
