//! `postal leave FILE --as SIDE [--from DATE] --days N`: a player's leave
//! (vacation). The player's clock stops over it and their deadlines move;
//! the opponent is told (with `--mail`). Refused when it would overdraw
//! the year's allowance, overlap the player's own leave, begin in the
//! past, or come after the player's deadline has passed.

use super::game::{clock, game_error, rule_book, standing, Side, TIME_HELP};
use super::{emit, CliError};
use crate::game::clock::parse_day_or_time;
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// Take leave: stop your clock for some days.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// The side taking leave (default: the side to move).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    /// The first day of the leave (YYYY-MM-DD, from 00:00 UTC, or an RFC
    /// 3339 time); default now.
    #[arg(long, value_name = "DATE")]
    pub from: Option<String>,
    /// How many days.
    #[arg(long, value_name = "N")]
    pub days: u32,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::mail::check_settings(&args.mail)?;
    let now = clock()?.now();
    let from = args
        .from
        .as_deref()
        .map(parse_day_or_time)
        .transpose()
        .map_err(|e| CliError::usage(format!("--from: {e}")))?;
    let (game, said) = store::update(&args.file, &rule_book()?, |g| {
        let side = args.side.map_or(g.turn(), Into::into);
        g.take_leave(side, from, args.days, now)
    })
    .map_err(|e| game_error(&args.file, e))?;
    let mut text = format!("{said}\n");
    text.push_str(&standing(&game, now));
    emit(out, &text)?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
