//! How `referee run --imap` reaches the server and logs in: the
//! `--imap` URL, the `[imap]` settings of `referee.toml`, the password or
//! OAuth 2 token (never from the command line), TLS with rustls, and the
//! connection as one stream type, plain or TLS, for async-imap.

use crate::mail::is_loopback;
use crate::referee::inbound::MAX_READ;
use crate::referee::RefereeError;
use serde::Deserialize;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The `[imap]` table of `referee.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapSettings {
    /// A shell command whose first line of output is the password.
    pub password_command: Option<String>,
    /// A shell command whose first line of output is an OAuth 2 access
    /// token, for XOAUTH2; run at every login, since tokens expire.
    pub token_command: Option<String>,
    /// The folder for finished messages (`postal/done`).
    pub done: Option<String>,
    /// The folder for messages that cannot be read (`postal/unreadable`).
    pub unreadable: Option<String>,
    /// A PEM file of certificates to trust besides the usual roots.
    pub ca_file: Option<PathBuf>,
    /// Seconds to wait for any one command (60).
    pub timeout: Option<u64>,
}

/// The environment variable the password is read from.
pub const PASSWORD_ENV: &str = "POSTAL_IMAP_PASSWORD";

/// How the connection is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// `imaps://`: TLS from the first byte.
    Tls,
    /// `imap://`: STARTTLS, required.
    StartTls,
    /// `imap://` with `--insecure-plain` to a loopback host.
    Plain,
}

/// A parsed `--imap` URL (RFC 5092's server part and mailbox).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub security: Security,
    pub user: String,
    pub host: String,
    pub port: u16,
    pub mailbox: String,
}

fn percent_decode(text: &str) -> Result<String, RefereeError> {
    let bad = || RefereeError::Config(format!("{text:?}: a bad %-escape"));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or_else(bad)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

impl Url {
    /// Reads `imaps://USER@HOST[:PORT][/MAILBOX]` (`imap://` for
    /// STARTTLS). The user may be written with `%40` for an `@`, or with a
    /// plain `@` (the last one ends the user). `insecure_plain` makes
    /// `imap://` plain text, for a loopback host only.
    pub fn parse(text: &str, insecure_plain: bool) -> Result<Url, RefereeError> {
        let bad = |why: &str| {
            RefereeError::Config(format!(
                "--imap {text:?}: {why} (expected imaps://USER@HOST[:PORT]/MAILBOX)"
            ))
        };
        let (security, rest) = if let Some(r) = text.strip_prefix("imaps://") {
            if insecure_plain {
                return Err(bad("--insecure-plain goes with imap://, not imaps://"));
            }
            (Security::Tls, r)
        } else if let Some(r) = text.strip_prefix("imap://") {
            let s = if insecure_plain {
                Security::Plain
            } else {
                Security::StartTls
            };
            (s, r)
        } else {
            return Err(bad("not an imaps:// or imap:// URL"));
        };
        let (server, mailbox) = rest.split_once('/').unwrap_or((rest, ""));
        let (user, hostport) = server
            .rsplit_once('@')
            .ok_or_else(|| bad("no user (USER@HOST)"))?;
        if user.contains(':') {
            return Err(bad(
                "a password does not go in the URL: set POSTAL_IMAP_PASSWORD or [imap] password_command in referee.toml",
            ));
        }
        let user = percent_decode(user.split(';').next().unwrap_or(""))?;
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(':') && !p.contains(']') => (
                h.to_string(),
                p.parse::<u16>().map_err(|_| bad("a bad port"))?,
            ),
            _ => (
                hostport.to_string(),
                if security == Security::Tls { 993 } else { 143 },
            ),
        };
        if user.is_empty() || host.is_empty() {
            return Err(bad("no user or no host"));
        }
        if security == Security::Plain && !is_loopback(&host) {
            return Err(bad(
                "--insecure-plain is for a server on this machine only (127.0.0.1, ::1, localhost)",
            ));
        }
        let mailbox = percent_decode(mailbox.trim_end_matches('/'))?;
        let mailbox = if mailbox.is_empty() {
            "INBOX".to_string()
        } else {
            mailbox
        };
        check_name(&mailbox)?;
        Ok(Url {
            security,
            user,
            host: host.trim_matches(|c| c == '[' || c == ']').to_string(),
            port,
            mailbox,
        })
    }
}

/// Mailbox names outside printable ASCII would need IMAP's modified
/// UTF-7, which postal does not write.
pub(super) fn check_name(name: &str) -> Result<(), RefereeError> {
    if name.is_empty() || !name.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(RefereeError::Config(format!(
            "mailbox {name:?}: only names in printable ASCII are supported"
        )));
    }
    Ok(())
}

/// The most the server may send in answer to one command: a message of
/// the size cap ([`MAX_READ`], all of a message that is ever read) and
/// its framing. A server that sends more (a FETCH that never ends, a
/// literal of 4 GB) has the connection dropped, so memory stays bounded
/// whatever it does; every command's timeout bounds the time.
pub(super) const MAX_ANSWER: usize = MAX_READ + (1 << 20);

/// A connection: plain TCP or TLS over it, counting the bytes read since
/// the client last wrote (a command, or IDLE's `DONE`): more than
/// [`MAX_ANSWER`] is an error of the connection, and so is a literal
/// announced larger (async-imap would make room for it before reading).
#[derive(Debug)]
pub(super) struct Conn {
    stream: Stream,
    read: usize,
    framing: Framing,
}

/// Where the server's bytes are: in a line, whose end is kept to find a
/// literal's announcement (`{N}` and CRLF ending a line), or in a literal
/// with this many bytes to go.
#[derive(Debug, Default)]
struct Framing {
    tail: Vec<u8>,
    literal: usize,
}

impl Framing {
    /// Follows `bytes`; the size of a literal announced over the cap.
    fn feed(&mut self, mut bytes: &[u8]) -> Result<(), usize> {
        while !bytes.is_empty() {
            if self.literal > 0 {
                let n = self.literal.min(bytes.len());
                self.literal -= n;
                bytes = &bytes[n..];
                continue;
            }
            let end = bytes.iter().position(|&b| b == b'\n');
            let (part, rest) = match end {
                Some(i) => bytes.split_at(i + 1),
                None => (bytes, &[][..]),
            };
            self.tail.extend_from_slice(part);
            // `{` and up to 20 digits, `}`, CR, LF: all that matters.
            let keep = self.tail.len().saturating_sub(25);
            self.tail.drain(..keep);
            if end.is_some() {
                if let Some(n) = announced(&self.tail) {
                    if n > MAX_ANSWER {
                        return Err(n);
                    }
                    self.literal = n;
                }
                self.tail.clear();
            }
            bytes = rest;
        }
        Ok(())
    }
}

/// The size of the literal a line's end announces: `{123}` CRLF.
fn announced(line: &[u8]) -> Option<usize> {
    let body = line.strip_suffix(b"}\r\n")?;
    let open = body.iter().rposition(|&b| b == b'{')?;
    let digits = &body[open + 1..];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        std::str::from_utf8(digits)
            .ok()?
            .parse()
            .unwrap_or(usize::MAX),
    )
}

#[derive(Debug)]
enum Stream {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl Conn {
    pub(super) fn plain(tcp: TcpStream) -> Conn {
        Conn {
            stream: Stream::Plain(tcp),
            read: 0,
            framing: Framing::default(),
        }
    }

    pub(super) fn tls(s: tokio_rustls::client::TlsStream<TcpStream>) -> Conn {
        Conn {
            stream: Stream::Tls(Box::new(s)),
            read: 0,
            framing: Framing::default(),
        }
    }

    /// The TCP connection under a plain one (for STARTTLS).
    pub(super) fn into_plain(self) -> Option<TcpStream> {
        match self.stream {
            Stream::Plain(tcp) => Some(tcp),
            Stream::Tls(_) => None,
        }
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = match &mut this.stream {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        };
        if let Poll::Ready(Ok(())) = polled {
            let new = &buf.filled()[before..];
            this.read += new.len();
            if this.read > MAX_ANSWER {
                return Poll::Ready(Err(std::io::Error::other(format!(
                    "the server sent more than {} MB in answer to one command",
                    MAX_ANSWER >> 20
                ))));
            }
            if let Err(n) = this.framing.feed(new) {
                return Poll::Ready(Err(std::io::Error::other(format!(
                    "the server announced a literal of {n} bytes, over the limit of {} MB",
                    MAX_ANSWER >> 20
                ))));
            }
        }
        polled
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let written = match &mut this.stream {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        };
        if let Poll::Ready(Ok(n)) = written {
            if n > 0 {
                this.read = 0;
            }
        }
        written
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.get_mut().stream {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.get_mut().stream {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// The rustls client settings: the Mozilla roots and `ca_file`.
pub(super) fn tls_config(
    settings: &ImapSettings,
) -> Result<Arc<rustls::ClientConfig>, RefereeError> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(ca) = &settings.ca_file {
        let bad = |e: &dyn std::fmt::Display| {
            RefereeError::Config(format!("[imap] ca_file {}: {e}", ca.display()))
        };
        for cert in rustls::pki_types::CertificateDer::pem_file_iter(ca).map_err(|e| bad(&e))? {
            roots.add(cert.map_err(|e| bad(&e))?).map_err(|e| bad(&e))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| RefereeError::Config(format!("TLS: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A shell command's first line of output (a password or a token).
fn command_output(what: &str, cmd: &str) -> Result<String, RefereeError> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| RefereeError::Config(format!("[imap] {what}: {e}")))?;
    if !out.status.success() {
        return Err(RefereeError::Config(format!(
            "[imap] {what} exited with {}",
            out.status
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().next().unwrap_or("").to_string())
}

/// How to log in.
pub(super) enum Secret {
    Password(String),
    Token(String),
}

pub(super) fn secret(settings: &ImapSettings) -> Result<Secret, RefereeError> {
    if let Some(cmd) = &settings.token_command {
        return command_output("token_command", cmd).map(Secret::Token);
    }
    if let Some(cmd) = &settings.password_command {
        return command_output("password_command", cmd).map(Secret::Password);
    }
    std::env::var(PASSWORD_ENV).map(Secret::Password).map_err(|_| {
        RefereeError::Config(format!(
            "no IMAP password: set {PASSWORD_ENV}, or password_command or token_command under [imap] in referee.toml"
        ))
    })
}

/// XOAUTH2 (Google's and Microsoft's SASL mechanism): the user and the
/// bearer token; an error challenge is answered with an empty line, after
/// which the server refuses the login.
pub(super) struct XOauth2 {
    pub(super) user: String,
    pub(super) token: String,
    pub(super) sent: bool,
}

impl async_imap::Authenticator for XOauth2 {
    type Response = String;
    fn process(&mut self, _challenge: &[u8]) -> String {
        if self.sent {
            return String::new();
        }
        self.sent = true;
        format!("user={}\x01auth=Bearer {}\x01\x01", self.user, self.token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_and_unsafe_ones_refused() {
        let u = Url::parse("imaps://club%40gmail.com@imap.gmail.com/postal", false).unwrap();
        assert_eq!(
            u,
            Url {
                security: Security::Tls,
                user: "club@gmail.com".into(),
                host: "imap.gmail.com".into(),
                port: 993,
                mailbox: "postal".into(),
            }
        );
        let u = Url::parse("imaps://club@fastmail.com@imap.fastmail.com:994", false).unwrap();
        assert_eq!(
            (u.user.as_str(), u.port, u.mailbox.as_str()),
            ("club@fastmail.com", 994, "INBOX")
        );
        let u = Url::parse("imap://referee@127.0.0.1:1430/INBOX", true).unwrap();
        assert_eq!((u.security, u.port), (Security::Plain, 1430));
        let u = Url::parse("imap://referee@mail.example.org/a/b", false).unwrap();
        assert_eq!((u.security, u.port), (Security::StartTls, 143));
        assert_eq!(u.mailbox, "a/b");
        for bad in [
            "imap://referee@mail.example.org/INBOX",
            "imaps://referee@127.0.0.1/INBOX",
        ] {
            assert!(Url::parse(bad, true).is_err(), "{bad}");
        }
        assert!(Url::parse("imaps://a:secret@h/INBOX", false)
            .unwrap_err()
            .to_string()
            .contains("password does not go in the URL"));
        assert!(Url::parse("pop3://a@h", false).is_err());
        assert!(Url::parse("imaps://h/INBOX", false).is_err());
        assert!(Url::parse("imaps://a@h/Entw%C3%BCrfe", false).is_err());
    }

    #[test]
    fn secrets_come_from_a_command_or_the_environment() {
        let s = ImapSettings {
            token_command: Some("printf 'tok\\nrest'".into()),
            password_command: Some("echo pw".into()),
            ..Default::default()
        };
        assert!(matches!(secret(&s), Ok(Secret::Token(t)) if t == "tok"));
        let s = ImapSettings {
            password_command: Some("false".into()),
            ..Default::default()
        };
        assert!(matches!(secret(&s), Err(RefereeError::Config(_))));
        let mut x = XOauth2 {
            user: "u@x".into(),
            token: "t".into(),
            sent: false,
        };
        use async_imap::Authenticator;
        assert_eq!(x.process(b""), "user=u@x\x01auth=Bearer t\x01\x01");
        assert_eq!(x.process(b"{\"status\":\"400\"}"), "");
    }

    /// Issue 40 point 11: a literal is found however the bytes come, its
    /// content skipped (a message that reads `{999999999}` is no
    /// announcement), and one over the cap refused.
    #[test]
    fn literals_are_followed_and_one_over_the_cap_refused() {
        let mut f = Framing::default();
        let text = b"* 1 FETCH (UID 1 BODY[] {23}\r\nbody says {999999999}\r\n)\r\n";
        for chunk in text.chunks(3) {
            assert_eq!(f.feed(chunk), Ok(()));
        }
        assert_eq!(f.literal, 0);
        let mut f = Framing::default();
        assert_eq!(f.feed(b"* 1 FETCH (BODY[] {500000000}\r"), Ok(()));
        assert_eq!(f.feed(b"\n"), Err(500_000_000));
        assert_eq!(announced(b"* OK {x}\r\n"), None);
        assert_eq!(announced(b"A1 OK {12}\r\n"), Some(12));
    }
}
