//! Diagrams with the Unicode chess symbols (♔♕♖♗♘♙ for White, ♚♛♜♝♞♟
//! for Black), laid out as the ASCII diagrams are: rank numbers on the
//! right, file letters below, `·` an empty square, a blank a square that is
//! not on the board, a stack as its symbols, the Corral prison on a line
//! below. Kinds without a symbol (the barrier pawn, the Fye'tin) keep their
//! letter.

use super::Options;
use crate::board::Board;
use crate::color::Color;
use crate::piece::{Piece, Role, Stack};
use crate::position::Position;
use crate::square::Square;

/// The symbol of a piece, or its letter when Unicode has none.
pub fn symbol(p: Piece) -> char {
    let (white, black) = match p.role {
        Role::King => ('♔', '♚'),
        Role::Queen => ('♕', '♛'),
        Role::Rook => ('♖', '♜'),
        Role::Bishop => ('♗', '♝'),
        Role::Knight => ('♘', '♞'),
        Role::Pawn => ('♙', '♟'),
        _ => return p.char(),
    };
    match p.color {
        Color::White => white,
        Color::Black => black,
    }
}

fn cell_text(cell: Option<Stack>) -> String {
    match cell {
        None => " ".to_string(),
        Some(st) if st.is_empty() => "·".to_string(),
        Some(st) => st.pieces().map(symbol).collect(),
    }
}

fn file_label(file: i16) -> String {
    Square::new(file, 1)
        .file_char()
        .map(|c| c.to_string())
        .unwrap_or_else(|| format!("({file})"))
}

fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// The board alone, with rank numbers on the right and file letters below.
pub fn board(board: &Board, opts: Options) -> String {
    let (minf, minr, maxf, maxr) = board.bounds();
    let mut files: Vec<i16> = (minf..=maxf).collect();
    let mut ranks: Vec<i16> = (minr..=maxr).rev().collect();
    if opts.flip {
        files.reverse();
        ranks.reverse();
    }
    let width = files
        .iter()
        .flat_map(|&f| (minr..=maxr).map(move |r| Square::new(f, r)))
        .map(|sq| cell_text(board.get(sq)).chars().count())
        .chain(files.iter().map(|&f| file_label(f).chars().count()))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for &r in &ranks {
        let mut line = String::new();
        for &f in &files {
            line.push(' ');
            line.push_str(&pad(&cell_text(board.get(Square::new(f, r))), width));
        }
        out.push_str(line.trim_end());
        out.push_str(&format!("  {r}\n"));
    }
    out.push('\n');
    let mut line = String::new();
    for &f in &files {
        line.push(' ');
        line.push_str(&pad(&file_label(f), width));
    }
    out.push_str(line.trim_end());
    out.push('\n');
    if board.has_prison() {
        out.push_str(&format!(
            "\n prison (below c5): {}\n",
            cell_text(board.get(Square::PRISON))
        ));
    }
    out
}

/// The board of a position and whose move it is.
pub fn position(pos: &Position, opts: Options) -> String {
    let mut out = board(&pos.board, opts);
    out.push_str(&format!("\n{} to move\n", pos.turn));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn chess_start() {
        let p = Position::start(Variant::Chess);
        let text = board(&p.board, Options::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜  8");
        assert_eq!(lines[4], " · · · · · · · ·  4");
        assert_eq!(lines[7], " ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖  1");
        assert_eq!(lines[9], " a b c d e f g h");
    }

    #[test]
    fn stacks_widen_the_columns() {
        let p = Position::start(Variant::Corral);
        let text = board(&p.board, Options::default());
        assert!(text.lines().next().unwrap().contains('♜'), "{text}");
        assert!(text.contains("♟♟♛♚"), "{text}");
    }
}
