//! Mailing a game's notices: the acts not yet mailed, or a repeat of the
//! last notice, sent and recorded in the state file.
//!
//! Under the file's lock: load the game, build the notice of the acts
//! after the last one mailed ([`Game::unmailed`]), record it in a copy of
//! the game, attach that copy (so the recipient's file knows the whole
//! thread), send, and only then save. A failed send leaves the file as it
//! was, so the next `postal mail` sends the same acts again (with a new
//! Message-ID). A crash after the send and before the save does the same:
//! notices are sent at least once, never lost.

use super::compose::compose;
use super::config::Config;
use super::notice::build;
use super::transport::{send, Delivery};
use super::MailError;
use crate::game::notices::{Addressee, NoticeRecord};
use crate::game::{store, Game, GameError, Party, RuleBook};
use chrono::{DateTime, Utc};
use std::path::Path;

/// What to mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// The acts not yet mailed.
    Unmailed,
    /// The last notice again, as a new message.
    Resend,
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A notice went out and is recorded in the file.
    Sent {
        message_id: String,
        to: Vec<Addressee>,
        delivery: Delivery,
    },
    /// The message, not sent (`--dry-run`).
    DryRun(String),
    /// Every act has been mailed: nothing to send.
    UpToDate { last: Option<NoticeRecord> },
}

/// Why mailing failed.
#[derive(Debug)]
pub enum PostError {
    /// The game file could not be read, checked or saved.
    Game(GameError),
    /// The notice could not be built or sent.
    Mail(MailError),
}

impl From<GameError> for PostError {
    fn from(e: GameError) -> PostError {
        PostError::Game(e)
    }
}

impl From<MailError> for PostError {
    fn from(e: MailError) -> PostError {
        PostError::Mail(e)
    }
}

/// The outbox used when the settings name none: `outbox` beside the game.
pub fn default_outbox(path: &Path) -> std::path::PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("outbox")
}

/// The game with the notice recorded, and the message to send.
fn prepare(
    game: &Game,
    path: &Path,
    config: &Config,
    what: What,
    now: DateTime<Utc>,
) -> Result<Option<(Game, lettre::Message, NoticeRecord)>, MailError> {
    let (acts, resend_of) = match what {
        What::Unmailed => match game.unmailed() {
            Some(a) => (a, None),
            None => return Ok(None),
        },
        What::Resend => match game.notices().last() {
            Some(n) => (n.acts(), Some(n.message_id.clone())),
            None => {
                return Err(MailError::Config(
                    "no notice of this game has been mailed yet: there is nothing to resend".into(),
                ))
            }
        },
    };
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game.json".into());
    let (mut notice, to) = build(game, acts.clone(), &file_name, config, now)?;
    let record = NoticeRecord {
        message_id: notice.message_id.clone(),
        to,
        act: *acts.end(),
        first_act: (acts.start() != acts.end()).then_some(*acts.start()),
        time: now,
        resend_of,
    };
    let mut next = game.clone();
    next.record_notice(record.clone());
    let sides: Vec<_> = record.to.iter().map(|a| a.side).collect();
    notice.attachment = Some((file_name, next.json_for(Party::of(&sides)).into_bytes()));
    let message = compose(&notice)?;
    Ok(Some((next, message, record)))
}

/// Mails the notice of the game at `path`: the acts not yet mailed, or
/// the last notice again. With `dry_run`, returns the message and changes
/// nothing. The game is a player's: its rules are checked against those
/// kept in `book`, and kept there when none are ([`RuleBook::keep`]).
pub fn mail_game(
    path: &Path,
    book: &RuleBook,
    config: &Config,
    what: What,
    dry_run: bool,
    now: DateTime<Utc>,
) -> Result<Outcome, PostError> {
    if dry_run {
        let game = store::load(path, Some(book))?;
        return Ok(match prepare(&game, path, config, what, now)? {
            Some((_, message, _)) => {
                Outcome::DryRun(String::from_utf8_lossy(&message.formatted()).into_owned())
            }
            None => Outcome::UpToDate {
                last: game.notices().last().cloned(),
            },
        });
    }
    let _lock = store::lock(path)?;
    let game = store::load(path, Some(book))?;
    // The save below is a player's: the game's rules are kept first.
    book.keep(&game)?;
    let Some((next, message, record)) = prepare(&game, path, config, what, now)? else {
        return Ok(Outcome::UpToDate {
            last: game.notices().last().cloned(),
        });
    };
    let delivery = send(config, &message, &default_outbox(path))?;
    store::write_game(path, next.to_json().as_bytes())?;
    Ok(Outcome::Sent {
        message_id: record.message_id,
        to: record.to,
        delivery,
    })
}
