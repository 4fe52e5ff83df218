//! A record as published text, the way the rule pages print a score, so
//! that `postal verify` reads it back: a heading, the Variant tag, ASCII
//! diagrams of the start, every few moves and the end, and the moves a
//! numbered line each move.

use super::{ascii, Options};
use crate::color::Color;
use crate::notation::san::with_figurines;
use crate::position::Position;
use crate::record::game::Game;
use crate::record::lexer::nag_glyph;
use crate::record::writer::{result_text, walk, Step};
use crate::variant::Variant;

/// A score as published text, as `verify` reads it back: a heading, the
/// Variant tag (unless FIDE chess), the start as a diagram, the moves a
/// numbered line each move, a diagram every `every` moves and at the end,
/// and the result. The annotations are kept in the published style:
/// comments and variations in parentheses where they stand, the move
/// glyphs (`!`, `?!`, ...) after their move, other NAGs as their symbols;
/// with `figurines`, `♘f3` for `Nf3` (which `verify` reads too).
pub fn score(game: &Game, every: usize, figurines: bool) -> String {
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
    // A game from a set-up position says so: its move numbers need not
    // go back to 1, so the tag is what tells a reader a new game begins.
    if game.start != Position::start(game.variant) {
        out.push_str("[SetUp \"1\"]\n\n");
    }
    let diagram = |pos: &Position| {
        let mut d = ascii::position_board(pos, Options::default());
        d.push_str(&format!("\n{} to move\n\n", pos.turn));
        d
    };
    out.push_str(&diagram(&game.start));
    // A parenthesis in a comment would end it early when read back.
    let comment = |c: &str| format!("({})", c.replace('(', "[").replace(')', "]"));
    let mut line: String = game
        .comments
        .iter()
        .map(|c| comment(c))
        .collect::<Vec<_>>()
        .join(" ");
    let mut plies = 0;
    let mut end = game.start.clone();
    let push = |line: &mut String, word: &str| {
        let glue = line.ends_with('(') || word == ")" || line.is_empty();
        if !glue {
            line.push(' ');
        }
        line.push_str(word);
    };
    walk(&game.start, &game.moves, &mut |step| match step {
        Step::Comment(c) => push(&mut line, &comment(c)),
        Step::Move {
            number,
            text,
            nags,
            before,
            after,
            depth,
            ..
        } => {
            if depth == 0 {
                // A main-line move by White begins a line, after a
                // diagram where one is due.
                let due = every > 0 && plies > 0 && plies % (2 * every) == 0;
                if before.turn == Color::White || plies == 0 {
                    if !line.is_empty() {
                        out.push_str(&line);
                        out.push_str(if due { "\n\n" } else { "\n" });
                        line.clear();
                    }
                    if due {
                        out.push_str(&diagram(before));
                    }
                }
                plies += 1;
                end = after.clone();
            }
            let text = if figurines {
                with_figurines(&text)
            } else {
                text
            };
            let mut word = if number.is_empty() {
                text
            } else {
                format!("{number} {text}")
            };
            let mut symbols = Vec::new();
            for &n in nags {
                match nag_glyph(n) {
                    Some((glyph, _)) if n <= 6 => word.push_str(glyph),
                    Some((glyph, _)) => symbols.push(glyph.to_string()),
                    None => symbols.push(format!("${n}")),
                }
            }
            push(&mut line, &word);
            for s in symbols {
                push(&mut line, &s);
            }
        }
        Step::Open => push(&mut line, "("),
        Step::Close => push(&mut line, ")"),
    });
    if !line.is_empty() {
        out.push_str(&line);
        out.push_str("\n\n");
    }
    if !game.moves.is_empty() {
        out.push_str(&diagram(&end));
    }
    out.push_str(&result_text(game));
    out.push('\n');
    out
}
