//! Mail (DESIGN.md, "Mail"): a notice of every act to the players who
//! should hear of it (who, decided in [`crate::game::notices`]), one thread
//! a game.
//!
//! - [`notice`]: what a notice says; [`compose`]: the message, its headers
//!   and threading; [`post`]: sending the acts not yet mailed and recording
//!   them in the state file.
//! - [`transport`]: the ways to send: an outbox Maildir ([`maildir`]), the
//!   default, so mail works with no server; `sendmail`; SMTP with STARTTLS
//!   or TLS and AUTH. [`config`]: the settings.

pub mod compose;
pub mod config;
pub mod maildir;
pub mod notice;
pub mod post;
pub mod transport;

use std::fmt;

/// Whether `host` names this machine (`localhost`, 127.0.0.0/8, `::1`):
/// the only host plain text is ever sent to (SMTP `security = "none"`,
/// IMAP `--insecure-plain`).
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|a| a.is_loopback())
}

/// Why a message could not be built or sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailError {
    /// The settings are wrong: unreadable config, bad address, no password.
    Config(String),
    /// A name or address that is not a valid mailbox.
    Address(String),
    /// Nothing listens at the server's address, or it closed the connection.
    ConnectionRefused(String),
    /// The server refused the user name or password.
    LoginRefused(String),
    /// The server refused a recipient.
    RecipientRefused(String),
    /// The server did not answer in time.
    Timeout(String),
    /// The TLS handshake failed (certificate not trusted, ...).
    Tls(String),
    /// Anything else the transport reported.
    Send(String),
    Io(String),
}

impl fmt::Display for MailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailError::Config(m) => write!(f, "mail settings: {m}"),
            MailError::Address(m) => write!(f, "bad address: {m}"),
            MailError::ConnectionRefused(m) => write!(f, "cannot connect to the mail server: {m}"),
            MailError::LoginRefused(m) => write!(f, "the mail server refused the login: {m}"),
            MailError::RecipientRefused(m) => {
                write!(f, "the mail server refused the recipient: {m}")
            }
            MailError::Timeout(m) => write!(f, "the mail server did not answer in time: {m}"),
            MailError::Tls(m) => write!(f, "TLS with the mail server failed: {m}"),
            MailError::Send(m) => write!(f, "sending failed: {m}"),
            MailError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for MailError {}
