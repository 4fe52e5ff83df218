//! The referee (issue 16, ../shared/design/referee.md): a folder that holds
//! games played by replying to mail. A player needs nothing but a mail
//! client: each notice carries a reply address with a token, the reply's
//! first lines are the command, and the referee applies it through the
//! same game code as `postal move`, exactly once, and answers.
//!
//! - [`folder`]: the referee folder, its settings and secret key, game ids.
//! - [`token`]: reply addresses and their MACs.
//! - [`inbound`]: a received message, read with a MIME parser, and the
//!   rules that keep auto-replies and bounces from being answered.
//! - [`held`]: messages held until their player confirms them.
//! - [`html`]: an HTML-only reply read as text, its quotes marked.
//! - [`extract`]: the command lines of a reply, above the quoted notice.
//! - [`command`]: the commands, and applying a message's all or none.
//! - [`letter`]: the notices and answers the referee writes.
//! - [`spool`]: outgoing mail under fixed names, and sending it.
//! - [`mod@receive`]: one message from arrival to answer, crash-safe.
//! - [`index`]: the derived summary of all games, for listing and sweeping.
//! - [`sweep`]: deadline reminders and time forfeits.
//! - [`maildir`]: the loop over a Maildir's new messages.
//! - [`operator`]: the operator's adjudication, extension and abort.
//! - [`imap`]: the loop over an IMAP mailbox, waiting with IDLE.
//! - [`journal`]: the IMAP loop's record of messages finished, not yet moved.
//! - [`start`]: starting a game: its first letters, the game written.
//! - [`tournament`]: round robins of referee games, their cross-tables.

pub mod command;
pub mod extract;
pub mod folder;
pub mod held;
pub mod html;
pub mod imap;
pub mod inbound;
pub mod index;
pub mod journal;
pub mod letter;
pub mod maildir;
pub mod operator;
pub mod receive;
pub mod site;
pub mod spool;
pub mod start;
pub mod sweep;
pub mod token;
pub mod tournament;

pub use folder::Referee;
pub use receive::{receive, Outcome};

use std::fmt;

/// Why the referee could not finish: the message should be delivered again
/// later (EX_TEMPFAIL), or the folder is unusable.
#[derive(Debug)]
pub enum RefereeError {
    /// A game's lock was not obtained in time: try again later.
    Busy(String),
    /// Reading or writing failed (a full disk, an unwritable spool).
    Io(String),
    /// The referee folder or its settings are wrong.
    Config(String),
}

impl RefereeError {
    pub fn io(what: impl fmt::Display, e: impl fmt::Display) -> RefereeError {
        RefereeError::Io(format!("{what}: {e}"))
    }
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::Busy(m) => write!(f, "busy, try again later: {m}"),
            RefereeError::Io(m) => f.write_str(m),
            RefereeError::Config(m) => write!(f, "referee folder: {m}"),
        }
    }
}

impl std::error::Error for RefereeError {}

impl From<crate::game::GameError> for RefereeError {
    fn from(e: crate::game::GameError) -> RefereeError {
        RefereeError::Io(e.to_string())
    }
}

/// SHA-256 of some bytes, the first 16 hex digits: the hash of a message
/// id kept in the game file (`via`) and the stem of spool file names.
pub fn hash16(bytes: &[u8]) -> String {
    let d = ring::digest::digest(&ring::digest::SHA256, bytes);
    d.as_ref()[..8].iter().map(|b| format!("{b:02x}")).collect()
}
