//! `postal resign FILE`: resigns the game, where the variant allows it
//! (Kristensen's Game forbids it, KR-11).

use super::game::{clock, game_error, rule_book, Side, TIME_HELP};
use super::{emit, CliError};
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// Resign a game.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// The side resigning (default: the side to move).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::mail::check_settings(&args.mail)?;
    let now = clock()?.now();
    let (_, ending) = store::update(&args.file, &rule_book()?, |g| {
        g.resign(args.side.map(Into::into), now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    emit(out, &format!("Game over: {ending}\n"))?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
