//! Mail to the player to move (DESIGN.md, "Mail"): composing the message
//! ([`compose`]), the settings ([`config`]) and the ways to send it
//! ([`transport`]: an outbox folder of `.eml` files, the default, so mail
//! works with no server; `sendmail`; SMTP with STARTTLS or TLS and AUTH).

pub mod compose;
pub mod config;
pub mod transport;

use std::fmt;

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
