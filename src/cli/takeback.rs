//! `postal takeback request|accept|decline FILE`: take-backs. A request
//! asks to retract the requester's last move (and the reply to it, if
//! any); it stands until answered or until someone moves. The retracted
//! moves are kept in the file's events.

use super::game::{clock, game_error, standing, Side, TIME_HELP};
use super::{emit, CliError};
use crate::game::state::Proposal;
use crate::game::store;
use crate::render::{ascii, Options};
use std::io::Write;
use std::path::PathBuf;

/// The three take-back acts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Request,
    Accept,
    Decline,
}

/// Request, accept or decline taking back a move.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    #[arg(value_enum)]
    pub step: Step,
    /// The game's state file.
    pub file: PathBuf,
    /// The side acting (default: for a request the side to move, for an
    /// answer the side the request was made to).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let now = clock()?.now();
    let step = match args.step {
        Step::Request => Proposal::Make,
        Step::Accept => Proposal::Accept,
        Step::Decline => Proposal::Decline,
    };
    let (game, said) = store::update(&args.file, |g| {
        g.takeback(step, args.side.map(Into::into), now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    let mut text = format!("{said}\n");
    if step == Proposal::Accept {
        text.push('\n');
        text.push_str(&ascii::board(&game.current().board, Options::default()));
        text.push('\n');
    }
    text.push_str(&standing(&game, now));
    emit(out, &text)?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
