//! `postal draw FILE offer|accept|decline`: draw offers. An offer stands
//! until the other side accepts or declines it, or moves.

use super::game::{clock, file_and_step, game_error, rule_book, standing, Side, TIME_HELP};
use super::{emit, CliError};
use crate::game::state::Proposal;
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// The three draw acts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Offer,
    Accept,
    Decline,
}

/// Offer, accept or decline a draw.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// What to do (`postal draw offer FILE`, the order of earlier
    /// versions, works too).
    #[arg(value_name = "offer|accept|decline", value_parser = super::Offered::<PathBuf>::new(super::value_names::<Step>))]
    pub step: PathBuf,
    /// The side acting (default: for an offer the side to move, for an
    /// answer the side the offer was made to).
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
        Step::Offer => Proposal::Make,
        Step::Accept => Proposal::Accept,
        Step::Decline => Proposal::Decline,
    };
    let (game, said) = store::update(&args.file, &rule_book()?, |g| {
        g.draw(step, args.side.map(Into::into), now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    let mut text = format!("{said}\n");
    if game.result().is_none() {
        text.push_str(&standing(&game, now));
    }
    emit(out, &text)?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
