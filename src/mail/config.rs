//! Mail settings: a TOML file (`--config FILE`, else
//! `$XDG_CONFIG_HOME/postal/config.toml`, else `~/.config/postal/config.toml`;
//! none at all is fine) and command-line flags over it. A password never
//! sits in a game file or in this file: it comes from an environment
//! variable or from a command whose output is the password.
//!
//! ```toml
//! from = "Ana <ana@example.org>"
//! transport = "smtp"            # outbox (default) | sendmail | smtp
//! outbox = "/home/ana/postal-outbox"   # default: `outbox` beside the game file
//!
//! [smtp]
//! host = "smtp.example.org"
//! port = 587                    # default: 587 starttls, 465 tls, 25 none
//! security = "starttls"         # starttls (default) | tls | none (this machine only)
//! user = "ana@example.org"
//! password_env = "POSTAL_SMTP_PASSWORD"    # the default variable
//! # password_command = "pass show mail/example.org"
//! # ca_file = "/etc/ssl/my-ca.pem"         # trust this certificate too
//! timeout = 30                  # seconds
//!
//! [sendmail]
//! command = "/usr/sbin/sendmail"
//! ```

use super::MailError;
use crate::error::{caret_snippet, Span};
use crate::limits::{exceeds, MAX_SETTINGS_BYTES};
use serde::Deserialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads a settings file of at most [`MAX_SETTINGS_BYTES`].
fn read_limited(path: &Path) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_SETTINGS_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_SETTINGS_BYTES {
        let size = std::fs::metadata(path).map_or(bytes.len(), |m| m.len() as usize);
        return Err(std::io::Error::other(exceeds(
            "the settings file has",
            size,
            MAX_SETTINGS_BYTES,
            "bytes",
        )));
    }
    String::from_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}
use std::time::Duration;

/// How to send.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TransportKind {
    #[default]
    Outbox,
    Sendmail,
    Smtp,
}

/// TLS with an SMTP server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded with STARTTLS (required).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS).
    Tls,
    /// No encryption: for a server on this machine only (a loopback
    /// host; any other is refused before connecting).
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: Option<String>,
    pub port: Option<u16>,
    #[serde(default)]
    pub security: Security,
    pub user: Option<String>,
    pub password_env: Option<String>,
    pub password_command: Option<String>,
    pub ca_file: Option<PathBuf>,
    pub timeout: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SendmailConfig {
    pub command: Option<PathBuf>,
}

/// The whole settings file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub from: Option<String>,
    #[serde(default)]
    pub transport: TransportKind,
    pub outbox: Option<PathBuf>,
    #[serde(default)]
    pub smtp: SmtpConfig,
    #[serde(default)]
    pub sendmail: SendmailConfig,
}

/// The sender used when no `from` is configured.
pub const DEFAULT_FROM: &str = "postal <postal@localhost>";
/// The environment variable read for the SMTP password by default.
pub const DEFAULT_PASSWORD_ENV: &str = "POSTAL_SMTP_PASSWORD";

impl Config {
    /// Reads the settings from a TOML text. An error (bad TOML, a wrong
    /// type, an unknown key) says where: `origin:line:col`, the line and a
    /// caret.
    pub fn parse(text: &str, origin: &str) -> Result<Config, MailError> {
        toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            MailError::Config(caret_snippet(
                origin,
                text,
                Span::new(span.start, span.end),
                e.message().trim_end(),
            ))
        })
    }

    /// Where the settings file is looked for when `--config` is not given.
    pub fn default_path() -> Option<PathBuf> {
        if let Some(x) = std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
            return Some(PathBuf::from(x).join("postal/config.toml"));
        }
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config/postal/config.toml"))
    }

    /// Loads `path`, or the default file if it exists, or the defaults.
    pub fn load(path: Option<&Path>) -> Result<Config, MailError> {
        let (path, required) = match path {
            Some(p) => (Some(p.to_path_buf()), true),
            None => (Config::default_path(), false),
        };
        match path {
            Some(p) => match read_limited(&p) {
                Ok(text) => Config::parse(&text, &p.display().to_string()),
                Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                    Ok(Config::default())
                }
                Err(e) => Err(MailError::Config(format!("{}: {e}", p.display()))),
            },
            None => Ok(Config::default()),
        }
    }

    pub fn from_address(&self) -> &str {
        self.from.as_deref().unwrap_or(DEFAULT_FROM)
    }

    /// The domain of the sender, for message ids.
    pub fn domain(&self) -> String {
        let from = self.from_address();
        let addr = from
            .rsplit_once('<')
            .map(|(_, a)| a.trim_end_matches('>'))
            .unwrap_or(from);
        addr.rsplit_once('@')
            .map(|(_, d)| d.trim().to_string())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| "localhost".to_string())
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.smtp.timeout.unwrap_or(30))
    }

    /// The SMTP password: from `password_command`'s output (first line), or
    /// the environment variable `password_env` (default
    /// `POSTAL_SMTP_PASSWORD`). `None` when no user is set.
    pub fn password(&self) -> Result<Option<String>, MailError> {
        if self.smtp.user.is_none() {
            return Ok(None);
        }
        if let Some(cmd) = &self.smtp.password_command {
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .stdin(std::process::Stdio::null())
                .output()
                .map_err(|e| MailError::Config(format!("password_command: {e}")))?;
            if !out.status.success() {
                return Err(MailError::Config(format!(
                    "password_command exited with {}",
                    out.status
                )));
            }
            let text = String::from_utf8_lossy(&out.stdout);
            return Ok(Some(text.lines().next().unwrap_or("").to_string()));
        }
        let var = self
            .smtp
            .password_env
            .as_deref()
            .unwrap_or(DEFAULT_PASSWORD_ENV);
        match std::env::var(var) {
            Ok(p) => Ok(Some(p)),
            Err(_) => Err(MailError::Config(format!(
                "an SMTP user is set but no password: set the environment variable {var} or password_command"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_full_file() {
        let c = Config::parse(
            r#"
from = "Ana <ana@example.org>"
transport = "smtp"
[smtp]
host = "smtp.example.org"
security = "tls"
user = "ana"
password_command = "echo secret"
"#,
            "t",
        )
        .unwrap();
        assert_eq!(c.transport, TransportKind::Smtp);
        assert_eq!(c.smtp.security, Security::Tls);
        assert_eq!(c.domain(), "example.org");
        assert_eq!(c.password().unwrap().as_deref(), Some("secret"));
    }

    #[test]
    fn defaults_and_errors() {
        let c = Config::parse("", "t").unwrap();
        assert_eq!(c.transport, TransportKind::Outbox);
        assert_eq!(c.domain(), "localhost");
        assert!(Config::parse("transport = \"pigeon\"", "t").is_err());
        assert!(Config::parse("passwd = \"x\"", "t").is_err());
    }

    #[test]
    fn errors_say_where() {
        let e = Config::parse("from = \"a\"\n[smtp]\nhots = \"x\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("mail settings: c.toml:3:1: unknown field `hots`"),
            "{e}"
        );
        assert!(e.contains("3 | hots = \"x\""), "{e}");
        let e = Config::parse("[smtp]\nport = \"x\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.toml:2:8:"), "{e}");
    }
}
