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
//! of its own below the board. The board lines stay exactly in the page
//! style, so `verify` can read them back; highlights (check, last move)
//! are said in words under the board.

use super::{status_lines, Diagram, Options};
use crate::board::Board;
use crate::piece::Stack;
use crate::position::Position;

fn cell_text(cell: Option<Stack>) -> String {
    match cell {
        None => " ".to_string(),
        Some(st) if st.is_empty() => ".".to_string(),
        Some(st) => st.pieces().map(|p| p.char()).collect(),
    }
}

/// Lays out a diagram as text, `cell` writing what stands on a square
/// (`None`: a hole). Columns are as wide as their widest entry, so stacks
/// and labels like `(0,_)` fit; widths count characters, not bytes. A
/// board with squares off the a1 grid ends with [`super::OFF_GRID_KEY`].
pub(crate) fn grid(diagram: &Diagram, cell: impl Fn(Option<Stack>) -> String) -> String {
    let texts: Vec<Vec<String>> = (0..diagram.ranks.len())
        .map(|row| {
            (0..diagram.files.len())
                .map(|col| cell(diagram.cell_at(col, row).map(|c| c.stack)))
                .collect()
        })
        .collect();
    let labels: Vec<String> = (0..diagram.files.len())
        .map(|c| diagram.file_label(c))
        .collect();
    let width = texts
        .iter()
        .flatten()
        .chain(labels.iter().filter(|_| diagram.coordinates))
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1);
    // One line of entries, each after a blank and padded to the width,
    // without the blanks at its end.
    let line = |out: &mut String, entries: &[String]| {
        for t in entries {
            out.push(' ');
            out.push_str(t);
            out.extend(std::iter::repeat_n(' ', width - t.chars().count()));
        }
        out.truncate(out.trim_end_matches(' ').len());
    };
    let mut out =
        String::with_capacity((texts.len() + 3) * (diagram.files.len() * (width + 1) + 6));
    for (row, line_cells) in texts.iter().enumerate() {
        line(&mut out, line_cells);
        if diagram.coordinates {
            out.push_str("  ");
            out.push_str(&diagram.rank_label(row));
        }
        out.push('\n');
    }
    if diagram.coordinates {
        out.push('\n');
        line(&mut out, &labels);
        out.push('\n');
    }
    for note in diagram.notes() {
        out.push_str(&format!(" {note}\n"));
    }
    if let Some((prison, _)) = &diagram.prison {
        out.push_str(&format!(
            "\n prison (below c5): {}\n",
            cell(Some(prison.stack))
        ));
    }
    out
}

/// The board alone, with rank numbers on the right and file letters below.
pub fn board(board: &Board, opts: Options) -> String {
    grid(&Diagram::new(board, None, &opts), cell_text)
}

/// The board of a position with the notes under it (the pieces in hand,
/// where the variant has them), without the status lines.
pub fn position_board(pos: &Position, opts: Options) -> String {
    grid(&Diagram::of_position(pos, &opts), cell_text)
}

/// The board of a position, whose move it is, and the highlights in words.
pub fn position(pos: &Position, opts: Options) -> String {
    let mut out = grid(&Diagram::of_position(pos, &opts), cell_text);
    out.push('\n');
    out.push_str(&status_lines(pos.turn, &opts));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::OFF_GRID_KEY;
    use crate::square::Square;
    use crate::variant::Variant;

    #[test]
    fn chess_start_in_the_page_style() {
        let p = Position::start(Variant::Chess);
        let text = board(&p.board, Options::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " r n b q k b n r  8");
        assert_eq!(lines[7], " R N B Q K B N R  1");
        assert_eq!(lines[9], " a b c d e f g h");
        let flipped = board(
            &p.board,
            Options {
                flip: true,
                ..Options::default()
            },
        );
        assert_eq!(flipped.lines().next(), Some(" R N B K Q B N R  1"));
    }

    #[test]
    fn holes_are_blank() {
        let mut b = Board::rect(2, 2);
        b.add_square(Square::new(0, 1));
        let text = board(&b, Options::default());
        assert_eq!(
            text,
            format!("       .     .  2\n .     .     .  1\n\n (0,_) a     b\n {OFF_GRID_KEY}\n")
        );
    }

    #[test]
    fn without_coordinates() {
        let p = Position::start(Variant::Gardner);
        let opts = Options {
            coordinates: false,
            ..Options::default()
        };
        let text = board(&p.board, opts);
        assert_eq!(text.lines().next(), Some(" r n b q k"));
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn highlights_in_words() {
        let p = Position::from_text(Variant::Chess, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        let opts = Options {
            last_move: Some((Square::new(1, 1), Square::new(5, 1))),
            ..Options::for_position(&p, None)
        };
        let text = position(&p, opts);
        assert!(text.ends_with("\nBlack to move, in check (e8)\nlast move from a1 to e1\n"));
    }
}
