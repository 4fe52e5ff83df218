//! Outgoing mail under fixed names (design §3.8), so that doing a step
//! twice writes the same file twice rather than a second letter:
//!
//! - [`prepare`] writes a letter into `spool/prepared/` before the game's
//!   save; [`release`] moves a message's prepared letters into `spool/`
//!   after the save. A crash before the save leaves only prepared letters,
//!   which the message's next delivery overwrites; a crash after it is
//!   repaired by the next delivery, which finds the act in the game and
//!   releases them.
//! - [`put`] writes a letter straight into `spool/` (answers that change
//!   no game), unless one of that name was already sent.
//! - [`drain`] sends every letter in `spool/` through the configured
//!   transport and moves it to `sent/`. The outbox transport delivers into
//!   the Maildir `outbox/` (src/mail/maildir.rs) under the letter's name,
//!   so a letter delivered again after a crash replaces its first copy.

use super::{Referee, RefereeError};
use crate::game::store::write_atomic;
use crate::mail::config::TransportKind;
use crate::mail::maildir::Maildir;
use crate::mail::transport::{send_raw, Delivery};
use std::fs;
use std::path::{Path, PathBuf};

fn file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.eml"))
}

fn io(path: &Path, e: impl std::fmt::Display) -> RefereeError {
    RefereeError::io(path.display(), e)
}

/// Whether a letter of this name is waiting or was sent.
pub fn exists(r: &Referee, name: &str) -> bool {
    file(&r.dir.join("spool"), name).exists() || file(&r.dir.join("sent"), name).exists()
}

/// Writes a letter to `spool/prepared/`.
pub fn prepare(r: &Referee, name: &str, bytes: &[u8]) -> Result<(), RefereeError> {
    let p = file(&r.dir.join("spool/prepared"), name);
    write_atomic(&p, bytes).map_err(|e| io(&p, e))
}

/// Moves the prepared letters whose names start with `stem` into `spool/`.
pub fn release(r: &Referee, stem: &str) -> Result<(), RefereeError> {
    let dir = r.dir.join("spool/prepared");
    let entries = fs::read_dir(&dir).map_err(|e| io(&dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(stem) && name.ends_with(".eml") {
            let to = r.dir.join("spool").join(&name);
            fs::rename(entry.path(), &to).map_err(|e| io(&to, e))?;
        }
    }
    if let Ok(d) = fs::File::open(r.dir.join("spool")) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes a letter into `spool/`, unless it was already sent.
pub fn put(r: &Referee, name: &str, bytes: &[u8]) -> Result<(), RefereeError> {
    if file(&r.dir.join("sent"), name).exists() {
        return Ok(());
    }
    let p = file(&r.dir.join("spool"), name);
    write_atomic(&p, bytes).map_err(|e| io(&p, e))
}

/// The envelope recipient of a spooled letter: its `To` address.
fn recipient(bytes: &[u8]) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse_headers(bytes)?;
    m.to()?.first()?.address().map(str::to_string)
}

/// Sends what is in `spool/`, oldest name first. A letter that cannot be
/// sent stays for the next drain; the first such error is returned after
/// the rest were tried.
pub fn drain(r: &Referee) -> Result<Vec<(String, Delivery)>, RefereeError> {
    let spool = r.dir.join("spool");
    let mut names: Vec<String> = fs::read_dir(&spool)
        .map_err(|e| io(&spool, e))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml") && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut done = Vec::new();
    let mut first_error = None;
    let from = format!("{}@{}", r.local, r.domain);
    for name in names {
        let path = spool.join(&name);
        let Ok(bytes) = fs::read(&path) else { continue };
        let stem = name.trim_end_matches(".eml").to_string();
        let sent = match r.settings.mail.transport {
            TransportKind::Outbox => {
                let dir = r
                    .settings
                    .mail
                    .outbox
                    .clone()
                    .unwrap_or_else(|| r.dir.join("outbox"));
                Maildir::create(&dir)
                    .and_then(|m| m.deliver_named(&name, &bytes))
                    .map(Delivery::Outbox)
                    .map_err(|e| io(&dir, e))
            }
            _ => match recipient(&bytes) {
                Some(to) => send_raw(&r.settings.mail, &from, &[to], &bytes)
                    .map_err(|e| RefereeError::Io(format!("{name}: {e}"))),
                None => Err(RefereeError::Io(format!("{name}: no recipient"))),
            },
        };
        match sent {
            Ok(d) => {
                let to = r.dir.join("sent").join(&name);
                fs::rename(&path, &to).map_err(|e| io(&to, e))?;
                done.push((stem, d));
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(done),
    }
}
