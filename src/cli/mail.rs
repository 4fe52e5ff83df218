//! `postal mail FILE`: emails the player to move the game's state (the
//! board, the score, the deadline, how to answer, the state file
//! attached). `--dry-run` prints the message instead of sending it. `move
//! --mail` and `new --mail` send the same notice after they succeed.

use super::game::{clock, game_error};
use super::{emit, CliError};
use crate::game::{store, Game};
use crate::mail::compose::{compose, notice_for_game};
use crate::mail::config::Config;
use crate::mail::transport::send;
use crate::mail::MailError;
use chrono::{DateTime, Utc};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Mail the player to move.
#[derive(clap::Args, Debug)]
#[command(after_help = MAIL_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    /// Print the message instead of sending it.
    #[arg(long)]
    pub dry_run: bool,
    /// Mail settings file (TOML); see below for the default.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The note on mail settings that the mailing commands' help ends with.
pub const MAIL_HELP: &str = "Mail settings come from --config FILE, else \
$XDG_CONFIG_HOME/postal/config.toml or ~/.config/postal/config.toml; with none, messages \
are written as .eml files to an `outbox` folder beside the game file. The SMTP password \
comes from the environment variable POSTAL_SMTP_PASSWORD (or the one named by \
password_env) or from password_command, never from a file. Times: the environment \
variable POSTAL_NOW (RFC 3339) replaces the computer's clock.";

/// Settings errors (unreadable, bad TOML, unknown keys, no password)
/// exit 2, as usage errors do; a refusal of the server or the transport
/// exits 1.
fn mail_error(e: MailError) -> CliError {
    match e {
        MailError::Config(_) => CliError::usage(e.to_string()),
        _ => CliError::rule(e.to_string()),
    }
}

/// Builds the notice for a game and sends it (or, with `dry_run`, returns
/// the message text). Returns what to print.
pub fn send_for_game(
    path: &Path,
    game: &Game,
    config: Option<&Path>,
    dry_run: bool,
    now: DateTime<Utc>,
) -> Result<String, MailError> {
    let config = Config::load(config)?;
    let notice = notice_for_game(game, path, &config, now)?;
    let message = compose(&notice)?;
    if dry_run {
        return Ok(String::from_utf8_lossy(&message.formatted()).into_owned());
    }
    let outbox = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("outbox");
    let stem = format!(
        "{}-{}",
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into()),
        game.moves().len()
    );
    let delivery = send(&config, &message, &outbox, &stem)?;
    Ok(format!("Mailed {}: {delivery}\n", notice.to))
}

/// After a command that saved the game: mail, and on failure say that the
/// game is saved but the mail is not sent (exit 1).
pub fn after_save(
    path: &Path,
    game: &Game,
    config: Option<&Path>,
    now: DateTime<Utc>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match send_for_game(path, game, config, false, now) {
        Ok(text) => emit(out, &text),
        Err(e) => Err(CliError {
            message: format!(
                "{} is saved, but the mail was not sent: {e}",
                path.display()
            ),
            code: mail_error(e).code,
        }),
    }
}

/// Reads the mail settings before a command that will mail changes
/// anything, so that bad settings (exit 2) leave the game file as it was.
pub fn check_settings(config: Option<&Path>) -> Result<(), CliError> {
    Config::load(config).map(|_| ()).map_err(mail_error)
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = store::load(&args.file).map_err(|e| game_error(&args.file, e))?;
    let now = clock()?.now();
    let text = send_for_game(&args.file, &game, args.config.as_deref(), args.dry_run, now)
        .map_err(mail_error)?;
    emit(out, &text)
}
