//! `postal mail FILE`: mails the notices of the game's acts not yet mailed
//! (each to the players who should hear of it, recorded in the file), or
//! with `--resend` the last notice again as a new message. `--dry-run`
//! prints the message instead of sending it. Every act command's `--mail`
//! ([`MailFlags`]) does the same after the act is saved.

use super::game::{clock, game_error, rule_book};
use super::{emit, CliError};
use crate::color::Color;
use crate::game::clock::format_time;
use crate::mail::config::Config;
use crate::mail::post::{mail_game, Outcome, PostError, What};
use crate::mail::MailError;
use chrono::{DateTime, Utc};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Mail the notices of the acts not yet mailed.
#[derive(clap::Args, Debug)]
#[command(after_help = MAIL_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// Print the message instead of sending it.
    #[arg(long)]
    pub dry_run: bool,
    /// Send the last notice again, as a new message (a new Message-ID).
    #[arg(long)]
    pub resend: bool,
    /// Mail settings file (TOML); see below for the default.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `--mail` and `--config` of the act commands.
#[derive(clap::Args, Debug, Clone)]
pub struct MailFlags {
    /// Then mail the notice of the act to the players who should hear of
    /// it (see `postal mail`).
    #[arg(long)]
    pub mail: bool,
    /// Mail settings file (TOML), with --mail.
    #[arg(long, value_name = "FILE", requires = "mail")]
    pub config: Option<PathBuf>,
}

/// The note on mail settings that the mailing commands' help ends with.
pub const MAIL_HELP: &str = "Each act is mailed to the players who should hear of it: a move \
to the player now to move, an offer or request to the player who must answer, an answer to \
the player who asked, a claim, a resignation or the end of the game to both. Mail settings \
come from --config FILE, else $XDG_CONFIG_HOME/postal/config.toml or \
~/.config/postal/config.toml; with none, messages are written to the Maildir `outbox` beside \
the game file (read it with `neomutt -f outbox`). The SMTP password comes from the \
environment variable POSTAL_SMTP_PASSWORD (or the one named by password_env) or from \
password_command, never from a file. Times: the environment variable POSTAL_NOW (RFC 3339) \
replaces the computer's clock.";

/// Sends (or with `dry_run` prints) and says what happened.
fn post(
    path: &Path,
    config: Option<&Path>,
    what: What,
    dry_run: bool,
    now: DateTime<Utc>,
) -> Result<String, CliError> {
    let config = Config::load(config).map_err(mail_error)?;
    let book = rule_book()?;
    match mail_game(path, &book, &config, what, dry_run, now) {
        Ok(Outcome::DryRun(text)) => Ok(text),
        Ok(Outcome::Sent { to, delivery, .. }) => {
            let game =
                crate::game::store::load(path, Some(&book)).map_err(|e| game_error(path, e))?;
            let players = &game.file().players;
            let names: Vec<String> = to
                .iter()
                .map(|a| match &players.get(a.side).name {
                    Some(n) => format!("{n} <{}>", a.address),
                    None => a.address.clone(),
                })
                .collect();
            let missing: Vec<Color> = match game.notices().last() {
                Some(n) => game
                    .recipients_of(n.acts())
                    .into_iter()
                    .filter(|s| !to.iter().any(|a| a.side == *s))
                    .collect(),
                None => Vec::new(),
            };
            let mut text = format!("Mailed {}: {delivery}\n", names.join(" and "));
            for side in missing {
                text.push_str(&format!(
                    "{side} has no mail address in {}: not mailed\n",
                    path.display()
                ));
            }
            Ok(text)
        }
        Ok(Outcome::UpToDate { last }) => Ok(match last {
            Some(n) => format!(
                "Nothing to mail: every act is in the notice {} of {}; --resend sends it again\n",
                n.message_id,
                format_time(n.time)
            ),
            None => "Nothing to mail\n".into(),
        }),
        Err(PostError::Game(e)) => Err(game_error(path, e)),
        Err(PostError::Mail(e)) => Err(mail_error(e)),
    }
}

/// Settings errors (unreadable, bad TOML, unknown keys, no password)
/// exit 2, as usage errors do; a refusal of the server or the transport
/// exits 1.
fn mail_error(e: MailError) -> CliError {
    match e {
        MailError::Config(_) => CliError::usage(e.to_string()),
        _ => CliError::rule(e.to_string()),
    }
}

/// After an act command saved the game: mail the acts not yet mailed, and
/// on failure say that the game is saved but the mail is not sent (exit 1).
pub fn after_save(
    path: &Path,
    flags: &MailFlags,
    now: DateTime<Utc>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !flags.mail {
        return Ok(());
    }
    match post(path, flags.config.as_deref(), What::Unmailed, false, now) {
        Ok(text) => emit(out, &text),
        Err(e) => Err(CliError {
            message: format!(
                "{} is saved, but the mail was not sent: {}",
                path.display(),
                e.message
            ),
            // Bad settings stay a usage error (2), as everywhere.
            code: e.code,
            diagnostic: None,
        }),
    }
}

/// Reads the mail settings before an act command with `--mail` changes
/// anything, so that bad settings (exit 2) leave the game file as it was.
pub fn check_settings(flags: &MailFlags) -> Result<(), CliError> {
    if !flags.mail {
        return Ok(());
    }
    Config::load(flags.config.as_deref())
        .map(|_| ())
        .map_err(mail_error)
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let now = clock()?.now();
    let what = if args.resend {
        What::Resend
    } else {
        What::Unmailed
    };
    let text = post(&args.file, args.config.as_deref(), what, args.dry_run, now)?;
    emit(out, &text)
}
