//! `postal takeback FILE request|accept|decline`: take-backs. A request
//! asks to retract the requester's last move (and the reply to it, if
//! any); it stands until answered or until someone moves. The retracted
//! moves are kept in the file's events.

use super::game::{clock, file_and_step, game_error, rule_book, standing, Side, TIME_HELP};
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
    /// The game's state file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// What to do (`postal takeback request FILE`, the order of earlier
    /// versions, works too).
    #[arg(value_name = "request|accept|decline", value_parser = super::Offered::<PathBuf>::new(super::value_names::<Step>))]
    pub step: PathBuf,
    /// The side acting (default: for a request the side to move, for an
    /// answer the side the request was made to).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(mut args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (file, step) = file_and_step::<Step>(&args.file, &args.step)?;
    args.file = file;
    super::mail::check_settings(&args.mail)?;
    let now = clock()?.now();
    let step = match step {
        Step::Request => Proposal::Make,
        Step::Accept => Proposal::Accept,
        Step::Decline => Proposal::Decline,
    };
    let (game, said) = store::update(&args.file, &rule_book()?, |g| {
        g.takeback(step, args.side.map(Into::into), now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    let mut text = format!("{said}\n");
    if step == Proposal::Accept {
        text.push('\n');
        text.push_str(&ascii::position_board(game.current(), Options::default()));
        text.push('\n');
    }
    text.push_str(&standing(&game, now));
    emit(out, &text)?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
