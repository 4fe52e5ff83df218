//! The IMAP journal, `DIR/imap/journal.json`: the messages of a mailbox
//! that the referee has finished with (their game file and letters are
//! saved) but not yet moved out of the mailbox. Each entry is keyed on
//! the message's place, (mailbox, UIDVALIDITY, UID), and on its key, the
//! hash of its Message-ID (of its bytes when it has none) that
//! [`mod@super::receive`] also uses.
//!
//! A message is written here after `receive` returns and removed once the
//! server has moved it to `postal/done` (or `postal/unreadable`), so the
//! journal holds only the few messages between the two steps. A crash
//! there leaves the entry: the next pass finds the message's UID in it and
//! moves the message without reading it again. When the mailbox's
//! UIDVALIDITY changed (the mailbox was recreated, its UIDs are new) the
//! message is recognised by its key instead. Entries whose message is no
//! longer in the mailbox (a move whose answer was lost) are dropped by
//! [`Journal::prune`].
//!
//! It also keeps, per mailbox, where the referee's first pass over it
//! began ([`Journal::before_first_pass`]): mail that was already there and
//! names no game is not answered (issue 40).
//!
//! The journal is an index of work done, not the record of it: the game
//! file (`via`) and `seen/` are, so a message read again despite the
//! journal is found there as already handled.

use super::RefereeError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where a finished message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dest {
    /// Read and handled (applied, answered, held, ignored): `postal/done`.
    Done,
    /// Not a message postal can read at all: `postal/unreadable`.
    Unreadable,
}

/// A message finished with but not yet moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub mailbox: String,
    pub uidvalidity: u32,
    pub uid: u32,
    /// The message's key (see the module documentation).
    pub key: String,
    pub to: Dest,
    /// What became of it, as `receive` described it.
    pub outcome: String,
}

/// Where the referee's first pass over a mailbox began: the messages
/// under `uidvalidity` with a UID below `uidnext` were there before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct First {
    pub mailbox: String,
    pub uidvalidity: u32,
    pub uidnext: u32,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    entries: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    first: Vec<First>,
}

/// The journal of one referee folder.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    entries: Vec<Entry>,
    first: Vec<First>,
}

impl Journal {
    /// Reads `DIR/imap/journal.json` (an empty journal when it is missing).
    pub fn open(dir: &Path) -> Result<Journal, RefereeError> {
        let path = dir.join("imap").join("journal.json");
        let file = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice::<File>(&bytes)
                .map_err(|e| RefereeError::Config(format!("{}: {e}", path.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => File::default(),
            Err(e) => return Err(RefereeError::io(path.display(), e)),
        };
        Ok(Journal {
            path,
            entries: file.entries,
            first: file.first,
        })
    }

    /// Whether the message at this place was in the mailbox before the
    /// referee's first pass over it. The first call for a mailbox marks
    /// that pass: every UID below `uidnext` is old. Under another
    /// UIDVALIDITY (the mailbox made again) nothing is old.
    pub fn before_first_pass(
        &mut self,
        mailbox: &str,
        uidvalidity: u32,
        uidnext: u32,
        uid: u32,
    ) -> Result<bool, RefereeError> {
        if !self.first.iter().any(|f| f.mailbox == mailbox) {
            self.first.push(First {
                mailbox: mailbox.to_string(),
                uidvalidity,
                uidnext,
            });
            self.save()?;
        }
        Ok(self
            .first
            .iter()
            .any(|f| f.mailbox == mailbox && f.uidvalidity == uidvalidity && uid < f.uidnext))
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of the message at this place.
    pub fn by_uid(&self, mailbox: &str, uidvalidity: u32, uid: u32) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.mailbox == mailbox && e.uidvalidity == uidvalidity && e.uid == uid)
    }

    /// An entry of this mailbox with this key (under any UIDVALIDITY).
    pub fn by_key(&self, mailbox: &str, key: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.mailbox == mailbox && e.key == key)
    }

    /// Records a finished message (replacing an entry at its place), and
    /// saves the journal.
    pub fn record(&mut self, entry: Entry) -> Result<(), RefereeError> {
        self.entries.retain(|e| {
            !(e.mailbox == entry.mailbox
                && e.uidvalidity == entry.uidvalidity
                && e.uid == entry.uid)
        });
        self.entries.push(entry);
        self.save()
    }

    /// Forgets the entries of a moved message: its place and its key.
    pub fn forget(&mut self, mailbox: &str, key: &str) -> Result<(), RefereeError> {
        let before = self.entries.len();
        self.entries
            .retain(|e| !(e.mailbox == mailbox && e.key == key));
        if self.entries.len() == before {
            return Ok(());
        }
        self.save()
    }

    /// Drops the entries of `mailbox` whose message is no longer in it:
    /// under the current UIDVALIDITY, a UID not in `uids`; under another,
    /// a key not in `keys` (the keys of every message in the mailbox).
    pub fn prune(
        &mut self,
        mailbox: &str,
        uidvalidity: u32,
        uids: &BTreeSet<u32>,
        keys: &BTreeSet<String>,
    ) -> Result<(), RefereeError> {
        let before = self.entries.len();
        self.entries.retain(|e| {
            e.mailbox != mailbox
                || if e.uidvalidity == uidvalidity {
                    uids.contains(&e.uid)
                } else {
                    keys.contains(&e.key)
                }
        });
        if self.entries.len() == before {
            return Ok(());
        }
        self.save()
    }

    fn save(&self) -> Result<(), RefereeError> {
        let folder = crate::files::folder_of(&self.path);
        std::fs::create_dir_all(folder).map_err(|e| RefereeError::io(folder.display(), e))?;
        let file = File {
            entries: self.entries.clone(),
            first: self.first.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file)
            .map_err(|e| RefereeError::io(self.path.display(), e))?;
        text.push('\n');
        crate::files::write_atomic(&self.path, text.as_bytes())
            .map_err(|e| RefereeError::io(self.path.display(), e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(uv: u32, uid: u32, key: &str) -> Entry {
        Entry {
            mailbox: "INBOX".into(),
            uidvalidity: uv,
            uid,
            key: key.into(),
            to: Dest::Done,
            outcome: "ignored".into(),
        }
    }

    #[test]
    fn records_finds_forgets_and_prunes_across_restarts() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        assert!(j.entries().is_empty());
        j.record(entry(7, 1, "aa")).unwrap();
        j.record(entry(7, 2, "bb")).unwrap();
        j.record(entry(7, 2, "bb")).unwrap();
        let j2 = Journal::open(dir.path()).unwrap();
        assert_eq!(j2.entries().len(), 2);
        assert_eq!(j2.by_uid("INBOX", 7, 2).unwrap().key, "bb");
        assert!(j2.by_uid("INBOX", 8, 2).is_none());
        assert_eq!(j2.by_key("INBOX", "aa").unwrap().uid, 1);
        assert!(j2.by_key("Other", "aa").is_none());
        j.forget("INBOX", "aa").unwrap();
        assert!(Journal::open(dir.path())
            .unwrap()
            .by_key("INBOX", "aa")
            .is_none());
        // A new UIDVALIDITY: the old entry stays while its key is present.
        let uids = BTreeSet::from([1]);
        j.prune("INBOX", 9, &uids, &BTreeSet::from(["bb".to_string()]))
            .unwrap();
        assert_eq!(j.entries().len(), 1);
        j.prune("INBOX", 9, &uids, &BTreeSet::new()).unwrap();
        assert!(Journal::open(dir.path()).unwrap().entries().is_empty());
        // The first pass over a mailbox is marked once, and kept.
        assert!(j.before_first_pass("INBOX", 9, 5, 4).unwrap());
        assert!(!j.before_first_pass("INBOX", 9, 8, 5).unwrap());
        let mut j = Journal::open(dir.path()).unwrap();
        assert!(j.before_first_pass("INBOX", 9, 100, 4).unwrap());
        assert!(!j.before_first_pass("INBOX", 10, 100, 4).unwrap());
        assert!(!j.before_first_pass("Other", 9, 1, 4).unwrap());
        std::fs::write(dir.path().join("imap/journal.json"), "{").unwrap();
        assert!(matches!(
            Journal::open(dir.path()),
            Err(RefereeError::Config(_))
        ));
    }
}
