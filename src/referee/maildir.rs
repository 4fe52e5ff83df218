//! `postal referee run DIR --maildir PATH`: each message in the Maildir's
//! `new/` is processed (oldest name first) and, once the referee has
//! finished with it, moved to `cur/` with the seen flag (`NAME:2,S`).
//! A message the referee could not finish (a busy lock, a full disk) stays
//! in `new/` for the next pass. Then the spool is drained.

use super::receive::{receive, Outcome};
use super::{spool, Referee, RefereeError};
use chrono::{DateTime, Utc};
use std::fs;
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
    let new = maildir.join("new");
    let cur = maildir.join("cur");
    fs::create_dir_all(&cur).map_err(|e| RefereeError::io(cur.display(), e))?;
    let mut names: Vec<String> = fs::read_dir(&new)
        .map_err(|e| RefereeError::io(new.display(), e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let mut out = Pass::default();
    for name in names {
        let path = new.join(&name);
        let Ok(raw) = fs::read(&path) else { continue };
        match receive(r, &raw, now) {
            Ok(o) => {
                let base = name.split(":2,").next().unwrap_or(&name);
                let to = cur.join(format!("{base}:2,S"));
                fs::rename(&path, &to).map_err(|e| RefereeError::io(to.display(), e))?;
                out.messages.push((name, Ok(o)));
            }
            Err(e) => out.messages.push((name, Err(e.to_string()))),
        }
    }
    match spool::drain(r) {
        Ok(sent) => out.sent = sent.len(),
        Err(e) => out.send_error = Some(e.to_string()),
    }
    Ok(out)
}
