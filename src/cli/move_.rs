//! `postal move FILE MOVE`: validates a move for the side to move, applies
//! it, saves the file, and prints the move in canonical notation, what it
//! did, the new board and whose turn it is. An illegal move exits 1 and
//! leaves the file untouched.

use super::game::{clock, game_error, rule_book, standing};
use super::{emit, CliError};
use crate::game::store;
use crate::render::{ascii, Options};
use std::io::Write;
use std::path::PathBuf;

/// Play a move in a game.
#[derive(clap::Args, Debug)]
#[command(after_help = super::mail::MAIL_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// The move, in any notation postal reads (`Nf3`, `g1-f3`, `Qd1/g4`,
    /// `Nb1-c3 @f3`, ...). It is played for the side to move.
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// A comment to keep with the move.
    #[arg(long, value_name = "TEXT")]
    pub comment: Option<String>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::mail::check_settings(&args.mail)?;
    let clock = clock()?;
    let now = clock.now();
    let (game, report) = store::apply_move(
        &args.file,
        &rule_book()?,
        &args.mv,
        args.comment,
        clock.as_ref(),
    )
    .map_err(|e| game_error(&args.file, e))?;
    let mut text = format!("{} played {}\n", report.mover, report.numbered());
    for fact in report.facts() {
        text.push_str(&format!("  {fact}\n"));
    }
    if let Some(a) = &report.answer {
        text.push_str(&format!(
            "{} answered at once with {}: a conditional move left in advance\n",
            a.mover,
            a.numbered()
        ));
        for fact in a.facts() {
            text.push_str(&format!("  {fact}\n"));
        }
    }
    text.push('\n');
    text.push_str(&ascii::position_board(game.current(), Options::default()));
    text.push('\n');
    text.push_str(&standing(&game, now));
    emit(out, &text)?;
    super::mail::after_save(&args.file, &args.mail, now, out)
}
