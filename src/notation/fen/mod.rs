//! Position text: standard FEN for `chess`, and the same shape for every
//! variant, extended only where needed (DESIGN.md, "Position text"):
//!
//! - ranks top to bottom separated by `/`, empty runs as decimal numbers;
//! - `*` for a cell inside the bounding box that is not on the board, and
//!   `(*n)` for a run of `n` of them, written for runs of [`OFF_RUN`] or
//!   more (a Building board grown on a diagonal has a box mostly of holes);
//! - a stack as its pieces in parentheses, canonical order P N B R Q K;
//! - fields: side, castling, en passant, half-move clock, move number,
//!   then the variant's own fields (see its module), then `origin=(f,r)`
//!   when the bounding box's lower-left corner is not a1.

use crate::board::Board;
use crate::color::Color;
use crate::error::{ParseError, Span};
use crate::piece::{Piece, Role, Roles, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::Variant;
use nom::branch::alt;
use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{map, map_res};
use nom::multi::many1;
use nom::sequence::delimited;
use nom::{IResult, Parser};

mod fairy;

/// One cell run of a rank in the placement field.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Empty(u16),
    /// Cells not on the board: `*` is one, `(*n)` is `n`.
    Off(u32),
    Pieces(Vec<Piece>),
}

/// The shortest run of holes written `(*n)`: longer than any rank of a
/// board of 64 files, so that every text of such a board is written as
/// before.
pub const OFF_RUN: usize = 65;

fn piece(input: &str) -> IResult<&str, Piece> {
    map(satisfy(|c| Piece::from_char(c).is_some()), |c| {
        Piece::from_char(c).unwrap_or(Piece::new(Color::White, Role::Pawn))
    })
    .parse(input)
}

fn cell(input: &str) -> IResult<&str, Cell> {
    alt((
        map_res(digit1, |d: &str| d.parse::<u16>().map(Cell::Empty)),
        map(char('*'), |_| Cell::Off(1)),
        map_res(
            delimited((char('('), char('*')), digit1, char(')')),
            |d: &str| match d.parse::<u32>() {
                Ok(n) if n > 0 => Ok(Cell::Off(n)),
                _ => Err(()),
            },
        ),
        map(delimited(char('('), many1(piece), char(')')), Cell::Pieces),
        map(piece, |p| Cell::Pieces(vec![p])),
    ))
    .parse(input)
}

fn err(span: Span, msg: impl Into<String>) -> ParseError {
    ParseError::new(span, msg)
}

/// Splits text into whitespace-separated fields with their byte spans.
pub fn fields(text: &str) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((&text[s..i], Span::new(s, i)));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((&text[s..], Span::new(s, text.len())));
    }
    out
}

/// Reads a position text for a variant.
pub fn read(variant: Variant, text: &str) -> Result<Position, ParseError> {
    let pos = read_unvalidated(variant, text)?;
    variant
        .rules()
        .validate(&pos)
        .map_err(|m| err(Span::new(0, text.len()), m))?;
    Ok(pos)
}

/// Reads a position text without the variant's `validate` check: for
/// placements that are not positions of their own, such as the Swap Chess
/// KO placement (SW-9).
pub fn read_unvalidated(variant: Variant, text: &str) -> Result<Position, ParseError> {
    if let Some(d) = variant.defined() {
        // In Fairy-Stockfish's conventions, read by the variant's engine.
        return Position::from_fen(&d.def, text).map(|p| d.position(p));
    }
    let spec = variant.spec();
    let mut fields = fields(text);
    if fields.is_empty() {
        return Err(err(Span::new(0, text.len()), "empty position text"));
    }
    // The origin field may stand anywhere after the placement.
    let mut origin = (1i16, 1i16);
    let mut origin_span = None;
    if let Some(k) = fields
        .iter()
        .skip(1)
        .position(|(f, _)| f.starts_with("origin="))
    {
        let (f, span) = fields.remove(k + 1);
        match crate::notation::square::coordinates(&f["origin=".len()..]) {
            Ok(("", sq)) => {
                origin = (sq.file, sq.rank);
                origin_span = Some(span);
            }
            _ => return Err(err(span, "expected origin=(file,rank), e.g. origin=(0,-1)")),
        }
    }
    let (placement, pspan) = fields[0];
    let mut rows: Vec<(Vec<Cell>, Span)> = Vec::new();
    let mut offset = pspan.start;
    for part in placement.split('/') {
        let span = Span::new(offset, offset + part.len());
        offset += part.len() + 1;
        if part.is_empty() {
            return Err(err(span, "empty rank in the placement"));
        }
        let mut cells = Vec::new();
        let mut rest = part;
        while !rest.is_empty() {
            match cell(rest) {
                Ok((r, c)) => {
                    cells.push(c);
                    rest = r;
                }
                Err(_) => {
                    let at = span.start + (part.len() - rest.len());
                    let ch = rest.chars().next().map(|c| c.len_utf8()).unwrap_or(1);
                    return Err(err(
                        Span::new(at, at + ch),
                        format!(
                            "expected a piece letter, a digit, '*' or a stack in parentheses, found {:?}",
                            rest.chars().next().unwrap_or(' ')
                        ),
                    ));
                }
            }
        }
        rows.push((cells, span));
    }
    let width_of = |cells: &[Cell]| -> usize {
        cells
            .iter()
            .map(|c| match c {
                Cell::Empty(n) => *n as usize,
                Cell::Off(n) => *n as usize,
                _ => 1,
            })
            .sum()
    };
    let width = width_of(&rows[0].0);
    for (cells, span) in &rows {
        if width_of(cells) != width {
            return Err(err(
                *span,
                format!(
                    "this rank has {} cells, the first rank written has {width}",
                    width_of(cells)
                ),
            ));
        }
    }
    let height = rows.len();
    if width == 0 {
        return Err(err(pspan, "board size out of range"));
    }
    // A growing board gains a square a turn (BU-2), but no board may pass
    // the limits that keep every command on it fast (crate::limits).
    let on_board: usize = rows
        .iter()
        .map(|(cells, _)| {
            width
                - cells
                    .iter()
                    .map(|c| match c {
                        Cell::Off(n) => *n as usize,
                        _ => 0,
                    })
                    .sum::<usize>()
        })
        .sum();
    // The box in i32: an origin and a width may add up past i16.
    let (f0, r0) = (origin.0 as i32, origin.1 as i32);
    let bounds = (f0, r0, f0 + width as i32 - 1, r0 + height as i32 - 1);
    if let Some(why) = crate::limits::board_error(bounds, on_board) {
        // A box that leaves the coordinates' range does so by its origin
        // when it has one.
        let far = on_board <= crate::limits::MAX_SQUARES;
        return Err(match origin_span.filter(|_| far) {
            Some(span) => err(
                span,
                format!("the origin puts the board too far out: {why}"),
            ),
            None => err(pspan, why),
        });
    }
    let has_holes = rows
        .iter()
        .any(|(cells, _)| cells.iter().any(|c| matches!(c, Cell::Off(_))));
    if !spec.board_grows
        && (width != spec.files as usize
            || height != spec.ranks as usize
            || has_holes
            || origin != (1, 1))
    {
        return Err(err(
            pspan,
            format!(
                "{} is played on {}x{} squares; this placement has {width}x{height}{}",
                spec.title,
                spec.files,
                spec.ranks,
                if has_holes { " with holes" } else { "" }
            ),
        ));
    }
    let mut squares = Vec::new();
    let mut contents = Vec::new();
    for (row, (cells, span)) in rows.iter().enumerate() {
        let rank = origin.1 + (height - 1 - row) as i16;
        let mut file = origin.0;
        for c in cells {
            match c {
                Cell::Empty(n) => {
                    for _ in 0..*n {
                        squares.push(Square::new(file, rank));
                        file += 1;
                    }
                }
                Cell::Off(n) => file += *n as i16,
                Cell::Pieces(ps) => {
                    let color = ps[0].color;
                    if ps.iter().any(|p| p.color != color) {
                        return Err(err(*span, "a stack holds pieces of one side only"));
                    }
                    let roles = ps.iter().fold(Roles::EMPTY, |r, p| r.with(p.role));
                    if ps.len() > 1 && !spec.stacks {
                        return Err(err(*span, format!("{} has no stacks", spec.title)));
                    }
                    if let Some(p) = ps
                        .iter()
                        .find(|p| !spec.pieces.iter().any(|s| s.role == p.role))
                    {
                        return Err(err(
                            *span,
                            format!("{} has no piece '{}'", spec.title, p.char()),
                        ));
                    }
                    let sq = Square::new(file, rank);
                    squares.push(sq);
                    contents.push((sq, Stack::of(color, roles)));
                    file += 1;
                }
            }
        }
    }
    let board = if has_holes || origin != (1, 1) {
        Board::from_squares(&squares)
    } else {
        Board::rect(width as i16, height as i16)
    };
    let mut pos = Position::empty(variant, board);
    for (sq, st) in contents {
        pos.board.set(sq, st);
    }
    if let Some(&(side, span)) = fields.get(1) {
        pos.turn = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(err(span, "expected the side to move: w or b")),
        };
    }
    if let Some(&(c, span)) = fields.get(2) {
        pos.castling = read_castling(c)
            .ok_or_else(|| err(span, "expected castling rights: '-' or some of KQkq"))?;
        if pos.castling.any() && !spec.castling {
            return Err(err(span, format!("{} has no castling", spec.title)));
        }
    }
    if let Some(&(e, span)) = fields.get(3) {
        pos.ep = match e {
            "-" => None,
            s => Some(
                crate::notation::square::parse_square(s)
                    .filter(|sq| pos.board.contains(*sq))
                    .ok_or_else(|| err(span, "expected an en passant square or '-'"))?,
            ),
        };
    }
    if let Some(&(h, span)) = fields.get(4) {
        pos.halfmove = h
            .parse()
            .map_err(|_| err(span, "expected the half-move clock, a number"))?;
    }
    if let Some(&(n, span)) = fields.get(5) {
        // 0, as puzzle collections write it, is read as 1, as python-chess
        // reads it.
        pos.fullmove = n
            .parse::<u32>()
            .map(|n| n.max(1))
            .map_err(|_| err(span, "expected the move number, 0 or more"))?;
    }
    let extra: Vec<&str> = fields.iter().skip(6).map(|(f, _)| *f).collect();
    let extra_span = fields
        .get(6)
        .map(|(_, s)| Span::new(s.start, text.len()))
        .unwrap_or(Span::new(text.len(), text.len()));
    super::dialect(variant)
        .read_extra_fields(&mut pos, &extra)
        .map_err(|m| err(extra_span, m))?;
    Ok(pos)
}

fn read_castling(text: &str) -> Option<Castling> {
    if text == "-" {
        return Some(Castling::NONE);
    }
    let mut c = Castling::NONE;
    for ch in text.chars() {
        match ch {
            'K' => c.white_king = true,
            'Q' => c.white_queen = true,
            'k' => c.black_king = true,
            'q' => c.black_queen = true,
            _ => return None,
        }
    }
    Some(c)
}

/// Writes the placement field alone. By the board's squares, rank by
/// rank, not by its bounding box: the box of a grown board can be mostly
/// holes.
pub fn write_placement(board: &Board) -> String {
    let (minf, minr, maxf, maxr) = board.bounds();
    let mut rows: std::collections::BTreeMap<i16, Vec<(i16, Stack)>> = Default::default();
    for sq in board.squares() {
        let st = board.get(sq).unwrap_or(Stack::EMPTY);
        rows.entry(sq.rank).or_default().push((sq.file, st));
    }
    let mut out = String::new();
    let holes = |out: &mut String, n: usize| {
        if n >= OFF_RUN {
            out.push_str(&format!("(*{n})"));
        } else {
            out.extend(std::iter::repeat_n('*', n));
        }
    };
    for rank in (minr..=maxr).rev() {
        let mut row = rows.remove(&rank).unwrap_or_default();
        row.sort_unstable_by_key(|&(f, _)| f);
        let mut empty = 0;
        let mut next = minf;
        for (file, st) in row
            .into_iter()
            .chain(std::iter::once((maxf + 1, Stack::OFF)))
        {
            if file > next {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                holes(&mut out, (file - next) as usize);
            }
            next = file + 1;
            if st.is_off() {
                break;
            }
            if st.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            if st.len() == 1 {
                out.extend(st.pieces().map(|p| p.char()));
            } else {
                out.push('(');
                out.extend(st.pieces().map(|p| p.char()));
                out.push(')');
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > minr {
            out.push('/');
        }
    }
    out
}

/// Writes a position's text.
pub fn write(pos: &Position) -> String {
    if let (Some(d), crate::variant::Extra::Defined(_)) = (pos.variant.defined(), &pos.extra) {
        return pos.to_fen(&d.def);
    }
    let mut out = write_placement(&pos.board);
    out.push(' ');
    out.push(pos.turn.char());
    out.push(' ');
    let c = pos.castling;
    if c.any() {
        for (has, ch) in [
            (c.white_king, 'K'),
            (c.white_queen, 'Q'),
            (c.black_king, 'k'),
            (c.black_queen, 'q'),
        ] {
            if has {
                out.push(ch);
            }
        }
    } else {
        out.push('-');
    }
    out.push(' ');
    match pos.ep {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    for f in super::dialect(pos.variant).extra_fields(pos) {
        out.push(' ');
        out.push_str(&f);
    }
    let (minf, minr, _, _) = pos.board.bounds();
    if (minf, minr) != (1, 1) {
        out.push_str(&format!(" origin=({minf},{minr})"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_fen_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        ] {
            let p = read(Variant::Chess, fen).unwrap();
            assert_eq!(write(&p), fen);
        }
    }

    #[test]
    fn errors_point_at_the_field() {
        let e = read(
            Variant::Chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        )
        .unwrap_err();
        assert_eq!(e.span, Span::new(44, 45));
        let e = read(
            Variant::Chess,
            "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        )
        .unwrap_err();
        assert_eq!(e.span, Span::new(13, 14));
        let e = read(
            Variant::Chess,
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        )
        .unwrap_err();
        assert_eq!(e.span, Span::new(9, 16));
        assert!(read(Variant::Chess, "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1").is_err());
        assert!(read(Variant::Chess, "").is_err());
    }
}
