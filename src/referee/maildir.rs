//! `postal referee run DIR --maildir PATH`: each message in the Maildir's
//! `new/` is processed (oldest name first) and, once the referee has
//! finished with it, moved to `cur/` with the seen flag (`NAME:2,S`).
//! (src/mail/maildir.rs). A message the referee could not finish (a busy lock, a full disk) stays
//! in `new/` for the next pass. Then the spool is drained.

use super::receive::{receive, Outcome};
use super::{spool, Referee, RefereeError};
use crate::mail::maildir::{Folder, Maildir};
use chrono::{DateTime, Utc};
use std::path::Path;

/// What one pass did: each message's name and outcome (or the error that
/// left it in `new/`), and the letters sent.
#[derive(Debug, Default)]
pub struct Pass {
    pub messages: Vec<(String, Result<Outcome, String>)>,
    pub sent: usize,
    pub send_error: Option<String>,
}

/// One pass over `maildir/new`, then a drain of the spool.
pub fn pass(r: &Referee, maildir: &Path, now: DateTime<Utc>) -> Result<Pass, RefereeError> {
    let md = Maildir::create(maildir).map_err(|e| RefereeError::io(maildir.display(), e))?;
    let entries = md
        .list(Folder::New)
        .map_err(|e| RefereeError::io(maildir.display(), e))?;
    let mut out = Pass::default();
    for entry in entries {
        let Ok(raw) = md.read(&entry) else { continue };
        match receive(r, &raw, now) {
            Ok(o) => {
                md.mark_seen(&entry)
                    .map_err(|e| RefereeError::io(entry.path.display(), e))?;
                out.messages.push((entry.key, Ok(o)));
            }
            Err(e) => out.messages.push((entry.key, Err(e.to_string()))),
        }
    }
    match spool::drain(r) {
        Ok(sent) => out.sent = sent.len(),
        Err(e) => out.send_error = Some(e.to_string()),
    }
    Ok(out)
}
