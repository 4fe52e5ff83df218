//! Unicode diagrams: the ASCII layout with chess glyphs (♔ ♕ ♖ ♗ ♘ ♙ for
//! White, ♚ ♛ ♜ ♝ ♞ ♟ for Black), `·` an empty square, a blank a square
//! not on the board. Unicode has no Fye'tin or barrier pawn, so they are
//! circled letters (Ⓕ ⓕ, Ⓦ ⓦ), named in a legend under the board, as are
//! Kristensen's rook and bishop, which share FIDE's glyphs here.

use super::ascii::grid;
use super::{status_lines, Diagram, Options};
use crate::color::Color;
use crate::piece::{Piece, Role, Stack};
use crate::position::Position;

/// The glyph of a piece.
pub fn glyph(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
        // Any other kind: its letter in a ring (Ⓕ, ⓦ).
        (color, role) => {
            let base = match color {
                Color::White => 0x24b6,
                Color::Black => 0x24d0,
            };
            char::from_u32(base + (role.char() as u32 - 'A' as u32)).unwrap_or(role.char())
        }
    }
}

fn cell_text(cell: Option<Stack>) -> String {
    match cell {
        None => " ".to_string(),
        Some(st) if st.is_empty() => "·".to_string(),
        Some(st) => st.pieces().map(glyph).collect(),
    }
}

/// One line per fairy piece of the diagram's legend.
pub fn legend(diagram: &Diagram) -> String {
    let mut out = String::new();
    for &role in &diagram.legend {
        let w = glyph(Piece::new(Color::White, role));
        let b = glyph(Piece::new(Color::Black, role));
        out.push_str(&format!(" {w} {b}  {}\n", diagram.legend_text(role)));
    }
    out
}

/// The board of a position in glyphs with the legend, without the status
/// lines (for callers that say whose move it is themselves).
pub fn board(pos: &Position, opts: &Options) -> String {
    let diagram = Diagram::of_position(pos, opts);
    let mut out = grid(&diagram, cell_text);
    let legend = legend(&diagram);
    if !legend.is_empty() {
        out.push('\n');
        out.push_str(&legend);
    }
    out
}

/// The board of a position in glyphs, whose move it is, the highlights in
/// words and the legend.
pub fn position(pos: &Position, opts: &Options) -> String {
    let diagram = Diagram::of_position(pos, opts);
    let mut out = grid(&diagram, cell_text);
    out.push('\n');
    out.push_str(&status_lines(pos.turn, opts));
    let legend = legend(&diagram);
    if !legend.is_empty() {
        out.push('\n');
        out.push_str(&legend);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn chess_start_in_glyphs() {
        let p = Position::start(Variant::Chess);
        let text = position(&p, &Options::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜  8");
        assert_eq!(lines[4], " · · · · · · · ·  4");
        assert_eq!(lines[9], " a b c d e f g h");
        assert_eq!(lines[11], "White to move");
    }
}
