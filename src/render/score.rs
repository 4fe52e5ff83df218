//! A record as published text, the way the rule pages print a score, so
//! that `postal verify` reads it back: a heading, the Variant tag, ASCII
//! diagrams of the start, every few moves and the end, and the moves a
//! numbered line each move.

use super::{ascii, Options};
use crate::color::Color;
use crate::position::Position;
use crate::record::game::Game;
use crate::record::writer::result_text;
use crate::variant::Variant;

/// A score as published text, as `verify` reads it back: a heading, the
/// Variant tag (unless FIDE chess), the start as a diagram, the moves a
/// numbered line each move, a diagram every `every` moves and at the end,
/// and the result. Comments are written in parentheses.
pub fn score(game: &Game, every: usize) -> String {
    let mut out = String::new();
    let name = |t: &str| game.tag(t).filter(|v| !v.is_empty() && *v != "?");
    let title = match (name("White"), name("Black")) {
        (Some(w), Some(b)) => format!("{w} - {b}"),
        _ => name("Event").unwrap_or("A game").to_string(),
    };
    out.push_str(&format!("{title}, {}\n\n", game.variant.spec().title));
    if game.variant != Variant::Chess {
        out.push_str(&format!("[Variant \"{}\"]\n\n", game.variant.tag()));
    }
    let diagram = |pos: &Position| {
        let mut d = ascii::board(&pos.board, Options::default());
        d.push_str(&format!("\n{} to move\n\n", pos.turn));
        d
    };
    let mut pos = game.start.clone();
    out.push_str(&diagram(&pos));
    let mut line = String::new();
    for (i, m) in game.moves.iter().enumerate() {
        if pos.turn == Color::White || i == 0 {
            if !line.is_empty() {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            let dots = if pos.turn == Color::White { "." } else { "..." };
            line.push_str(&format!("{}{dots}", pos.fullmove));
        }
        line.push(' ');
        line.push_str(&pos.move_text(&m.mv));
        for c in m.before.iter().chain(&m.after) {
            line.push_str(&format!(" ({})", c.replace(['(', ')'], "")));
        }
        pos = pos.play_unchecked(&m.mv);
        let moves_done = i + 1 == game.moves.len();
        if every > 0 && (i + 1) % (2 * every) == 0 && !moves_done {
            out.push_str(&line);
            out.push_str("\n\n");
            line.clear();
            out.push_str(&diagram(&pos));
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push_str("\n\n");
    }
    if !game.moves.is_empty() {
        out.push_str(&diagram(&pos));
    }
    out.push_str(&result_text(game));
    out.push('\n');
    out
}
