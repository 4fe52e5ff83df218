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
//!
//! One sender at a time per referee folder: [`drain`] holds the lock
//! `spool/.send.lock` (released by the kernel however the process ends)
//! from listing the spool until the last letter is moved to `sent/`, so a
//! second sender (`postal new` while `referee run` starts, two `referee
//! send`) waits, then finds only what is left. A letter leaves `spool/`
//! right after the server accepted it, before any other sender can pick
//! it. The guarantee is *at least once*: a letter is never lost, and a
//! crash (kill -9, a power cut) between the server's acceptance and the
//! move sends that one letter again, once, at the next drain: at most one
//! extra copy per crash, of the one letter in flight.

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

/// Moves the prepared letters of these names into `spool/`, without
/// listing `spool/prepared/` (a tournament releases hundreds at once).
pub fn release_named(r: &Referee, names: &[&str]) -> Result<(), RefereeError> {
    let from = r.dir.join("spool/prepared");
    let to = r.dir.join("spool");
    for name in names {
        let target = file(&to, name);
        fs::rename(file(&from, name), &target).map_err(|e| io(&target, e))?;
    }
    if let Ok(d) = fs::File::open(&to) {
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

/// Takes the folder's sending lock, waiting for another sender to finish.
fn lock(spool: &Path) -> Result<fs::File, RefereeError> {
    let path = spool.join(".send.lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| io(&path, e))?;
    file.lock().map_err(|e| io(&path, e))?;
    Ok(file)
}

/// Sends what is in `spool/`, oldest name first. A letter that cannot be
/// sent stays for the next drain; the first such error is returned after
/// the rest were tried.
pub fn drain(r: &Referee) -> Result<Vec<(String, Delivery)>, RefereeError> {
    let spool = r.dir.join("spool");
    let _lock = lock(&spool)?;
    let mut names: Vec<String> = fs::read_dir(&spool)
        .map_err(|e| io(&spool, e))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml") && !n.starts_with('.'))
        .collect();
    names.sort();
    let flight = spool.join("flight");
    let noted = r.settings.mail.transport != TransportKind::Outbox;
    if noted {
        fs::create_dir_all(&flight).map_err(|e| io(&flight, e))?;
        // Notes of letters no longer waiting (a crash after the move).
        for entry in fs::read_dir(&flight).map_err(|e| io(&flight, e))?.flatten() {
            if !spool.join(entry.file_name()).exists() {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let mut done = Vec::new();
    let mut first_error = None;
    let from = format!("{}@{}", r.local, r.domain);
    for name in names {
        let path = spool.join(&name);
        let Ok(bytes) = fs::read(&path) else { continue };
        let stem = name.trim_end_matches(".eml").to_string();
        let note = flight.join(&name);
        if noted {
            let tries: u32 = fs::read_to_string(&note)
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(0);
            if tries >= 2 {
                let to = r.dir.join("sent").join(&name);
                fs::rename(&path, &to).map_err(|e| io(&to, e))?;
                let _ = fs::remove_file(&note);
                r.log(
                    chrono::Utc::now(),
                    &serde_json::json!({
                        "letter": stem,
                        "not_sent_again": "two attempts were cut off while sending it; the server may have it",
                    }),
                );
                continue;
            }
            write_atomic(&note, format!("{}\n", tries + 1).as_bytes()).map_err(|e| io(&note, e))?;
        }
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
                let _ = fs::remove_file(&note);
                done.push((stem, d));
            }
            Err(e) => {
                let _ = fs::remove_file(&note);
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(done),
    }
}
