//! `postal history FILE`: the score with the time of every move, and the
//! other acts (offers, claims, take-backs) where they happened. Moves that
//! were taken back appear where they were played, then the take-back.

use super::game::{clock, load, standing, TIME_HELP};
use super::{emit, CliError};
use crate::color::Color;
use crate::game::clock::format_time;
use crate::game::state::{Act, MoveRecord};
use crate::game::Game;
use crate::notation::movetext::number_label;
use std::io::Write;
use std::path::PathBuf;

/// Print a game's score with times.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
}

/// `3.` or `3...` for the half-move at `ply` (0-based) of a game whose
/// start has `turn` to move at move `fullmove`; sides alternate.
fn number(fullmove: u32, turn: Color, ply: usize) -> String {
    let offset = ply + usize::from(turn == Color::Black);
    let turn = if offset.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    number_label(fullmove as usize + offset / 2, turn)
}

fn move_line(game: &Game, ply: usize, m: &MoveRecord) -> String {
    let start = game.position(0);
    let mut line = format!(
        "{:>8} {:<14} {}",
        number(start.fullmove, start.turn, ply),
        m.canonical,
        format_time(m.time)
    );
    if m.played != m.canonical {
        line.push_str(&format!("  (as {:?})", m.played));
    }
    if let Some(c) = &m.comment {
        line.push_str(&format!("  {{{c}}}"));
    }
    line.push('\n');
    line
}

/// The lines the board held, one for each stretch between take-backs:
/// `lines[k]` is the line just before the k-th take-back (the last: the
/// line now). Each take-back kept the first `ply` moves of the line
/// before it and retracted the rest.
fn lines_between_takebacks(game: &Game) -> Vec<Vec<MoveRecord>> {
    let mut lines = vec![game.moves().to_vec()];
    for e in game.events().iter().rev() {
        if let Act::TakebackAccept { retracted } = &e.act {
            let after = lines.last().expect("one line at least");
            let mut before = after[..e.ply.min(after.len())].to_vec();
            before.extend(retracted.iter().cloned());
            lines.push(before);
        }
    }
    lines.reverse();
    lines
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = load(&args.file)?;
    let now = clock()?.now();
    let f = game.file();
    let mut text = format!(
        "{}: {} (White) v {} (Black)\n",
        game.variant().spec().title,
        f.players.white.label(Color::White),
        f.players.black.label(Color::Black)
    );
    // A game going on has its clocks, the control first, at the end.
    if game.result().is_some() || f.time_control.is_none() {
        text.push_str(&format!(
            "Time control: {}\n",
            game.time_control_text()
                .unwrap_or_else(|| "none".to_string())
        ));
    }
    text.push_str(&format!("Started: {}\n", format_time(f.created)));
    if f.start != game.variant().spec().start {
        text.push_str(&format!("From: {}\n", f.start));
    }
    text.push('\n');
    let lines = lines_between_takebacks(&game);
    let mut era = 0;
    let mut printed = 0;
    for e in game.events() {
        let line = &lines[era];
        while printed < e.ply.min(line.len()) {
            text.push_str(&move_line(&game, printed, &line[printed]));
            printed += 1;
        }
        if let Act::TakebackAccept { retracted } = &e.act {
            while printed < e.ply + retracted.len() && printed < line.len() {
                text.push_str(&move_line(&game, printed, &line[printed]));
                printed += 1;
            }
            era += 1;
            printed = e.ply;
        }
        text.push_str(&format!(
            "{:>8} {}, {}\n",
            "--",
            e.describe(),
            format_time(e.time)
        ));
    }
    let line = &lines[era];
    while printed < line.len() {
        text.push_str(&move_line(&game, printed, &line[printed]));
        printed += 1;
    }
    text.push('\n');
    text.push_str(&standing(&game, now));
    emit(out, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_any_start() {
        assert_eq!(number(1, Color::White, 0), "1.");
        assert_eq!(number(1, Color::White, 1), "1...");
        assert_eq!(number(1, Color::White, 2), "2.");
        assert_eq!(number(7, Color::Black, 0), "7...");
        assert_eq!(number(7, Color::Black, 1), "8.");
    }
}
