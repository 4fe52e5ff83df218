//! `postal claim FILE [repetition|fifty|time]`: claims a draw by threefold
//! repetition or the fifty-move rule (the player to move, FI-5), or a win
//! on time (the other player, once the deadline has passed). With no kind,
//! whichever holds.

use super::game::{clock, game_error, rule_book, Side, TIME_HELP};
use super::{emit, CliError};
use crate::game::state::Claim;
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// What can be claimed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A draw: the position has occurred three times.
    Repetition,
    /// A draw: fifty moves each without capture or pawn move.
    Fifty,
    /// A win: the opponent's deadline has passed.
    Time,
}

/// Claim a draw or a time forfeit.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// What to claim (default: whichever holds).
    #[arg(value_enum)]
    pub kind: Option<Kind>,
    /// The side claiming (default: the side to move for a draw, the other
    /// side for a time forfeit).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::mail::check_settings(&args.mail)?;
    let now = clock()?.now();
    let kind = args.kind.map(|k| match k {
        Kind::Repetition => Claim::Repetition,
        Kind::Fifty => Claim::FiftyMoves,
        Kind::Time => Claim::Time,
    });
    let (_, ending) = store::update(&args.file, &rule_book()?, |g| {
        g.claim(kind, args.side.map(Into::into), now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    emit(out, &format!("Claim granted. Game over: {ending}\n"))?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
