//! Sending: to an outbox Maildir ([`super::maildir`]), through a
//! `sendmail` program, or over SMTP (STARTTLS or
//! implicit TLS with rustls, AUTH with a user and password). Errors say
//! what went wrong in the user's terms (refused connection, refused login,
//! refused recipient, timeout).

use super::config::{Config, Security, TransportKind};
use super::maildir::Maildir;
use super::MailError;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Message, SendmailTransport, SmtpTransport, Transport};
use std::path::{Path, PathBuf};

/// Where a message went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    Outbox(PathBuf),
    Sendmail(String),
    Smtp(String),
}

impl std::fmt::Display for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Delivery::Outbox(p) => write!(f, "written to {}", p.display()),
            Delivery::Sendmail(c) => write!(f, "handed to {c}"),
            Delivery::Smtp(s) => write!(f, "sent through {s}"),
        }
    }
}

/// Sends `msg`. `outbox_default` is the outbox Maildir used when the
/// settings name none (the game file's folder's `outbox`).
pub fn send(config: &Config, msg: &Message, outbox_default: &Path) -> Result<Delivery, MailError> {
    match config.transport {
        TransportKind::Outbox => {
            let dir = config
                .outbox
                .clone()
                .unwrap_or_else(|| outbox_default.to_path_buf());
            write_outbox(&dir, &msg.formatted()).map(Delivery::Outbox)
        }
        TransportKind::Sendmail => {
            let cmd = config
                .sendmail
                .command
                .clone()
                .unwrap_or_else(|| PathBuf::from("/usr/sbin/sendmail"));
            SendmailTransport::new_with_command(cmd.as_os_str())
                .send(msg)
                .map_err(|e| MailError::Send(format!("{}: {e}", cmd.display())))?;
            Ok(Delivery::Sendmail(cmd.display().to_string()))
        }
        TransportKind::Smtp => send_smtp(config, msg),
    }
}

/// Delivers one message into the outbox Maildir (created when missing).
pub fn write_outbox(dir: &Path, bytes: &[u8]) -> Result<PathBuf, MailError> {
    let io = |e: std::io::Error| MailError::Io(format!("outbox {}: {e}", dir.display()));
    Maildir::create(dir).map_err(io)?.deliver(bytes).map_err(io)
}

/// The SMTP transport the settings describe, and the server as `host:port`.
fn smtp_transport(config: &Config) -> Result<(SmtpTransport, String), MailError> {
    let s = &config.smtp;
    let host = s
        .host
        .clone()
        .ok_or_else(|| MailError::Config("transport is smtp but [smtp] host is not set".into()))?;
    let port = s.port.unwrap_or(match s.security {
        Security::Starttls => 587,
        Security::Tls => 465,
        Security::None => 25,
    });
    let tls = if s.security == Security::None {
        // Plain text (and AUTH PLAIN in clear) never leaves this machine.
        if !super::is_loopback(&host) {
            return Err(MailError::Config(format!(
                "security = \"none\" is for a server on this machine only (127.0.0.1, ::1, localhost), not {host}: use \"starttls\" or \"tls\""
            )));
        }
        Tls::None
    } else {
        let mut params = TlsParameters::builder(host.clone());
        if let Some(ca) = &s.ca_file {
            let pem = std::fs::read(ca)
                .map_err(|e| MailError::Config(format!("ca_file {}: {e}", ca.display())))?;
            let cert = Certificate::from_pem(&pem)
                .map_err(|e| MailError::Config(format!("ca_file {}: {e}", ca.display())))?;
            params = params.add_root_certificate(cert);
        }
        let params = params
            .build_rustls()
            .map_err(|e| MailError::Tls(e.to_string()))?;
        match s.security {
            Security::Tls => Tls::Wrapper(params),
            _ => Tls::Required(params),
        }
    };
    let mut builder = SmtpTransport::builder_dangerous(host.as_str())
        .port(port)
        .tls(tls)
        .timeout(Some(config.timeout()));
    if let (Some(user), Some(pass)) = (&s.user, config.password()?) {
        builder = builder.credentials(Credentials::new(user.clone(), pass));
    }
    Ok((builder.build(), format!("{host}:{port}")))
}

fn send_smtp(config: &Config, msg: &Message) -> Result<Delivery, MailError> {
    let (transport, where_) = smtp_transport(config)?;
    transport.send(msg).map_err(|e| classify(&e, &where_))?;
    Ok(Delivery::Smtp(where_))
}

/// Sends a message already formatted (a spooled `.eml`) from `from` to
/// `to`, through sendmail or SMTP. The outbox transport is the caller's
/// (it keeps the file).
pub fn send_raw(
    config: &Config,
    from: &str,
    to: &[String],
    bytes: &[u8],
) -> Result<Delivery, MailError> {
    let addr = |a: &str| {
        a.parse::<lettre::Address>()
            .map_err(|e| MailError::Address(format!("{a:?}: {e}")))
    };
    let to = to.iter().map(|a| addr(a)).collect::<Result<Vec<_>, _>>()?;
    let envelope = lettre::address::Envelope::new(Some(addr(from)?), to)
        .map_err(|e| MailError::Address(e.to_string()))?;
    match config.transport {
        TransportKind::Smtp => {
            let (transport, where_) = smtp_transport(config)?;
            transport
                .send_raw(&envelope, bytes)
                .map_err(|e| classify(&e, &where_))?;
            Ok(Delivery::Smtp(where_))
        }
        _ => {
            let cmd = config
                .sendmail
                .command
                .clone()
                .unwrap_or_else(|| PathBuf::from("/usr/sbin/sendmail"));
            SendmailTransport::new_with_command(cmd.as_os_str())
                .send_raw(&envelope, bytes)
                .map_err(|e| MailError::Send(format!("{}: {e}", cmd.display())))?;
            Ok(Delivery::Sendmail(cmd.display().to_string()))
        }
    }
}

/// Turns lettre's error into what the user needs to know.
fn classify(e: &lettre::transport::smtp::Error, server: &str) -> MailError {
    let mut chain = String::new();
    let mut src: Option<&dyn std::error::Error> = Some(e);
    let mut io_kind = None;
    while let Some(s) = src {
        if !chain.is_empty() {
            chain.push_str(": ");
        }
        chain.push_str(&s.to_string());
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            io_kind = Some(io.kind());
        }
        src = s.source();
    }
    let code = e.status().map(|c| c.to_string());
    let text = format!("{server}: {chain}");
    match (io_kind, code.as_deref()) {
        (Some(std::io::ErrorKind::ConnectionRefused), _) => MailError::ConnectionRefused(text),
        (Some(std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock), _) => {
            MailError::Timeout(text)
        }
        _ if e.is_timeout() => MailError::Timeout(text),
        (_, Some("535" | "534" | "530" | "454")) if chain.to_lowercase().contains("auth") => {
            MailError::LoginRefused(text)
        }
        (_, Some("535")) => MailError::LoginRefused(text),
        (_, Some("550" | "551" | "553" | "554" | "450" | "451" | "452")) => {
            MailError::RecipientRefused(text)
        }
        _ if e.is_tls() => MailError::Tls(text),
        _ => MailError::Send(text),
    }
}
