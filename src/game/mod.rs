//! The correspondence game (DESIGN.md, "The game state file"): players,
//! the moves as played, the other acts (draw offers, claims, resignation,
//! take-backs), results and deadlines, kept in one JSON file a game that
//! travels between the players.
//!
//! - [`mod@file`]: the file's contents as written (the postal-game/1 schema).
//! - [`state`]: the game the file describes: loading replays every move
//!   and refuses a file that disagrees with itself.
//! - [`acts`]: the acts (move, resign, draw, take-back, claim): each
//!   checks who may make it and records it as an event.
//! - [`store`]: reading and writing the file: atomic replacement under an
//!   advisory lock, so a failed or interrupted command leaves the old file.
//! - [`clock`]: the time, passed in, and spans in words.
//! - [`time_control`]: time controls, leave, and each player's clock.
//! - `timing`: the players' clocks in a game, deadlines and leave.
//! - `conditional`: conditional moves, left for the opponent's reply.
//! - [`party`]: the copy of the file each party may see: the one maker of
//!   every state file mailed or published.
//! - [`notices`]: the acts in order, who hears of each, the game id and
//!   the record of the notices mailed.
//! - [`address`]: the one check of player names and mail addresses.
//! - `ending`: the game's own endings and the counting of repetitions.
//! - `positions`: the start and the position after each move, some
//!   replayed from the moves when asked for.
//! - [`pgn`]: the game as a record (PGN), for `verify`, `convert`, `show`.
//! - [`rulebook`]: the rules a game was started with, recorded in the
//!   file and in the player's own data folder, and the one comparison
//!   that refuses a file whose rules changed (issue 42).

pub mod acts;
pub mod address;
pub mod clock;
mod conditional;
mod ending;
pub mod file;
pub mod notices;
pub mod party;
pub mod pgn;
mod positions;
pub mod rulebook;
pub mod state;
pub mod store;
pub mod time_control;
mod timing;

pub use clock::{Clock, FixedClock, SystemClock};
pub use notices::{ActRef, NoticeRecord, Reason, Recipient};
pub use party::Party;
pub use rulebook::{RuleBook, RulesRecord};
pub use state::{Claim, Game, GameFile, MoveReport, Player, FORMAT};
pub use store::apply_move;
pub use time_control::TimeControl;

use crate::error::MoveError;
use std::fmt;
use std::path::PathBuf;

/// Why a game command failed. Every failure leaves the file as it was.
#[derive(Debug)]
pub enum GameError {
    /// The file could not be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The file is not JSON (malformed or truncated): where, and the text
    /// so the caller can show the line.
    Json {
        source: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// Not a postal game file, or one of a format this program does not
    /// read (a newer major version).
    Format(String),
    /// The file reads but disagrees with itself: an illegal or misnamed
    /// move (named), a stale cached position, a result the game does not
    /// support. Hand edits and corruption end here.
    Corrupt(String),
    /// Bad arguments: a time control, a player, a position, a file that
    /// already exists.
    Usage(String),
    /// A move text that is unreadable, illegal or ambiguous.
    Move { text: String, error: MoveError },
    /// A rule of the game said no: the game is over, no offer is pending,
    /// a player cannot accept their own offer, ...
    Rule(String),
}

impl GameError {
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> GameError {
        GameError::Io {
            path: path.into(),
            error,
        }
    }

    /// True when a rule of the game refused (exit code 1 on the command
    /// line); false for unreadable input and I/O (exit code 2).
    pub fn is_rule(&self) -> bool {
        match self {
            GameError::Rule(_) => true,
            GameError::Move { error, .. } => !matches!(error, MoveError::Syntax(_)),
            _ => false,
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            GameError::Json {
                line,
                column,
                message,
                ..
            } => write!(f, "{line}:{column}: not a readable game file: {message}"),
            GameError::Format(m) | GameError::Corrupt(m) | GameError::Usage(m) => f.write_str(m),
            GameError::Rule(m) => f.write_str(m),
            GameError::Move { text, error } => write!(f, "{text:?}: {error}"),
        }
    }
}

impl std::error::Error for GameError {}
