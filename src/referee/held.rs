//! Held messages (design §3.7): a message the referee did not play because
//! it could not be sure who sent it (a `From` that is not the player's or
//! not one mailbox, an `Authentication-Results` that says the sender is
//! forged, no reply token or a damaged one). Each is kept as
//! `held/KEY.eml`, its text and a few headers ([`kept_form`]: never its
//! attachments), and `held/KEY.json`, what the referee knows of it:
//!
//! ```json
//! {"key": "…", "gid": "k3f9q2", "side": "white", "ply": 0,
//!  "from": "eve@evil.example", "why": "…", "received": "2026-12-01T09:00:00Z",
//!  "read": ["e4"]}
//! ```
//!
//! It is played only when its player answers the request with `confirm`,
//! or when the operator releases it (`postal referee held DIR --release
//! KEY`); `drop`, the operator's `--drop` or [`super::sweep::HOLD_DAYS`]
//! without an answer drop it.

use super::{Referee, RefereeError};
use crate::color::Color;
use crate::game::store::write_atomic;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::PathBuf;

/// What the referee knows of a held message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Held {
    /// The message's key (the hash of its Message-ID).
    pub key: String,
    pub gid: String,
    #[serde(with = "crate::game::file::side_name")]
    pub side: Color,
    /// Moves on the board when it came: it may be played only then.
    pub ply: usize,
    /// Its `From`, as it says.
    pub from: String,
    /// Why it was held.
    pub why: String,
    #[serde(with = "crate::game::clock::time")]
    pub received: DateTime<Utc>,
    /// The command lines read in it.
    pub read: Vec<String>,
}

fn dir(r: &Referee) -> PathBuf {
    r.dir.join("held")
}

/// The message file of a held message.
pub fn message_path(r: &Referee, key: &str) -> PathBuf {
    dir(r).join(format!("{key}.eml"))
}

fn record_path(r: &Referee, key: &str) -> PathBuf {
    dir(r).join(format!("{key}.json"))
}

/// A key as the referee writes them: 16 hex digits (so an operator's
/// `--drop ../x` names no other file).
pub fn is_key(key: &str) -> bool {
    key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The headers a held message keeps: who sent it, to whom, its thread and
/// the receiving server's verdict.
const KEPT_HEADERS: [&str; 11] = [
    "From",
    "Sender",
    "To",
    "Cc",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Authentication-Results",
    "Delivered-To",
];

/// The longest header field kept, in bytes.
const MAX_HEADER: usize = 4096;

/// A message as it is held: its `KEPT_HEADERS` (each at most
/// `MAX_HEADER` bytes) and the text the referee read in it, as one
/// plain-text part; attachments and everything else are not kept.
pub fn kept_form(raw: &[u8], text: &str) -> Vec<u8> {
    let mut out = String::new();
    if let Some(m) = mail_parser::MessageParser::default().parse_headers(raw) {
        for (name, value) in m.headers_raw() {
            if KEPT_HEADERS.iter().any(|k| k.eq_ignore_ascii_case(name))
                && value.len() <= MAX_HEADER
            {
                let value: String = value.chars().filter(|c| *c != '\r').collect();
                out.push_str(&format!(
                    "{name}:{}\r\n",
                    value.trim_end().replace('\n', "\r\n")
                ));
            }
        }
    }
    out.push_str("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n");
    out.push_str(crate::limits::cut_bytes(
        text,
        crate::limits::MAX_REPLY_TEXT,
    ));
    out.into_bytes()
}

/// Keeps a message, in its [`kept_form`]: the message first, then its
/// record, each atomically.
pub fn put(r: &Referee, held: &Held, raw: &[u8], text: &str) -> Result<(), RefereeError> {
    let m = message_path(r, &held.key);
    write_atomic(&m, &kept_form(raw, text)).map_err(|e| RefereeError::io(m.display(), e))?;
    let p = record_path(r, &held.key);
    let text = serde_json::to_vec_pretty(held).map_err(|e| RefereeError::Io(e.to_string()))?;
    write_atomic(&p, &text).map_err(|e| RefereeError::io(p.display(), e))
}

/// A held message's record and bytes, when it is still held.
pub fn get(r: &Referee, key: &str) -> Option<(Held, Vec<u8>)> {
    if !is_key(key) {
        return None;
    }
    let held = fs::read(record_path(r, key))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())?;
    let raw = fs::read(message_path(r, key)).ok()?;
    Some((held, raw))
}

/// Every held message, oldest first. Records that cannot be read are
/// left out.
pub fn list(r: &Referee) -> Result<Vec<Held>, RefereeError> {
    let d = dir(r);
    let mut out: Vec<Held> = fs::read_dir(&d)
        .map_err(|e| RefereeError::io(d.display(), e))?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let key = name.strip_suffix(".json")?;
            get(r, key).map(|(h, _)| h)
        })
        .collect();
    out.sort_by(|a, b| (a.received, &a.key).cmp(&(b.received, &b.key)));
    Ok(out)
}

/// Drops a held message (its record first, so that a crash leaves at
/// most a message file no listing shows).
pub fn remove(r: &Referee, key: &str) -> Result<(), RefereeError> {
    for p in [record_path(r, key), message_path(r, key)] {
        match fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(RefereeError::io(p.display(), e)),
        }
    }
    Ok(())
}
