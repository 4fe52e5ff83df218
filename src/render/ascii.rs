//! ASCII diagrams in the style of the Chess Variant Pages:
//!
//! ```text
//!  r . b q k . n Q  8
//!  ...
//!  a b c d e f g h
//! ```
//!
//! Upper case White, lower case Black, `.` an empty square, a blank a
//! square that is not on the board (Building Chess), a stack as its
//! letters (`PPNB`, columns widen to fit), and the Corral prison on a line
//! of its own below the board.

use super::Options;
use crate::board::Board;
use crate::piece::Stack;
use crate::position::Position;
use crate::square::Square;

fn cell_text(cell: Option<Stack>) -> String {
    match cell {
        None => " ".to_string(),
        Some(st) if st.is_empty() => ".".to_string(),
        Some(st) => st.pieces().map(|p| p.char()).collect(),
    }
}

fn file_label(file: i16) -> String {
    Square::new(file, 1)
        .file_char()
        .map(|c| c.to_string())
        .unwrap_or_else(|| format!("({file})"))
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
        .flat_map(|&f| (minr..=maxr).map(move |r| (f, r)))
        .map(|(f, r)| cell_text(board.get(Square::new(f, r))).len())
        .chain(files.iter().map(|&f| file_label(f).len()))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for &r in &ranks {
        let mut line = String::new();
        for &f in &files {
            line.push(' ');
            line.push_str(&format!(
                "{:<width$}",
                cell_text(board.get(Square::new(f, r)))
            ));
        }
        out.push_str(line.trim_end());
        out.push_str(&format!("  {r}\n"));
    }
    out.push('\n');
    let mut line = String::new();
    for &f in &files {
        line.push(' ');
        line.push_str(&format!("{:<width$}", file_label(f)));
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
    fn chess_start_in_the_page_style() {
        let p = Position::start(Variant::Chess);
        let text = board(&p.board, Options::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " r n b q k b n r  8");
        assert_eq!(lines[7], " R N B Q K B N R  1");
        assert_eq!(lines[9], " a b c d e f g h");
        let flipped = board(&p.board, Options { flip: true });
        assert_eq!(flipped.lines().next(), Some(" R N B K Q B N R  1"));
    }

    #[test]
    fn holes_are_blank() {
        let mut b = Board::rect(2, 2);
        b.add_square(Square::new(0, 1));
        let text = board(&b, Options::default());
        assert_eq!(text, "     .   .  2\n .   .   .  1\n\n (0) a   b\n");
    }
}
