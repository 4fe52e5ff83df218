//! `postal conditional FILE LINE...`: conditional moves. The player who
//! has just moved leaves lines of expected replies and answers (`"13. e5
//! Nd5 14. c4 Nb6"`, one argument a line; lines sharing their first moves
//! make a tree); when the opponent plays the first move of a line, its
//! answer is played at once. Every move is checked legal when given. New
//! lines replace the old; `--clear` removes them; with no line the lines
//! left are listed. The lines stay in this file: a copy mailed with
//! `--mail` goes without them.

use super::game::{game_error, load, rule_book, Side};
use super::{emit, CliError};
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// Leave conditional moves for the opponent's reply.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// The lines, each the opponent's move, your answer, and so on:
    /// "13. e5 Nd5 14. c4 Nb6".
    #[arg(value_name = "LINE")]
    pub lines: Vec<String>,
    /// The side leaving them (default: the side that has just moved).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    /// Remove the lines left.
    #[arg(long, conflicts_with = "lines")]
    pub clear: bool,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.lines.is_empty() && !args.clear {
        let game = load(&args.file)?;
        let side = args.side.map_or(!game.turn(), Into::into);
        let text = match game.conditional_of(side) {
            Some(lines) => {
                let mut t = format!("{side}'s conditional moves:\n");
                for l in lines {
                    t.push_str(&format!("  if {}\n", game.numbered_line(l)));
                }
                t
            }
            None => format!("{side} has left no conditional moves.\n"),
        };
        return emit(out, &text);
    }
    let (_, (side, lines)) = store::update(&args.file, &rule_book()?, |g| {
        let side = args.side.map_or(!g.turn(), Into::into);
        g.set_conditional(side, &args.lines).map(|s| (side, s))
    })
    .map_err(|e| game_error(&args.file, e))?;
    let text = if lines.is_empty() {
        format!("{side}'s conditional moves are cleared.\n")
    } else {
        let mut t = format!(
            "{side}'s conditional moves (kept in this file, never mailed to {}):\n",
            !side
        );
        for l in &lines {
            t.push_str(&format!("  if {l}\n"));
        }
        t
    };
    emit(out, &text)
}
