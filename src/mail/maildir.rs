//! Maildir folders (the format of <https://cr.yp.to/proto/maildir.html>),
//! for postal's outbox and for any program of postal's that reads or
//! writes mail as files: the referee's outbox and the incoming folders it
//! reads.
//!
//! A Maildir is a folder with `tmp/`, `new/` and `cur/`. A message is
//! written whole into `tmp/` under a name no other delivery uses
//! (`SECONDS.MMICROSPPIDQCOUNTERRRANDOM.HOST`), fsynced, and renamed into
//! `new/`, so a reader never sees part of a message, and a failed write
//! leaves nothing behind. A reader takes messages from `new/` and, once it
//! has handled one, moves it to `cur/` with its flags (`NAME:2,S` for
//! seen). Mail clients open the folder as a mailbox (`neomutt -f outbox`,
//! Python's `mailbox.Maildir`).
//!
//! ```no_run
//! use postal::mail::maildir::{Folder, Maildir};
//! let outbox = Maildir::create("outbox".as_ref())?;
//! let path = outbox.deliver(b"Subject: hi\r\n\r\nhello\r\n")?;
//! for entry in outbox.list(Folder::New)? {
//!     let bytes = outbox.read(&entry)?;
//!     outbox.mark_seen(&entry)?;
//! }
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The two folders messages live in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    /// Delivered, not yet seen by a reader.
    New,
    /// Seen; the name carries the flags.
    Cur,
}

impl Folder {
    fn dir(self) -> &'static str {
        match self {
            Folder::New => "new",
            Folder::Cur => "cur",
        }
    }
}

/// A message in a Maildir.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub folder: Folder,
    /// The unique name, without flags: the message's key.
    pub key: String,
    /// The flags after `:2,` (`S` seen, `R` replied, ...), sorted; empty
    /// in `new/`.
    pub flags: String,
    pub path: PathBuf,
}

/// A Maildir folder.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// This machine's name, with `/` and `:` escaped as the spec asks.
fn host() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".into());
    name.replace('/', "\\057").replace(':', "\\072")
}

/// A name no other delivery, in this process or another, uses.
pub fn unique_name() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    format!(
        "{}.M{}P{}Q{}R{}.{}",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        crate::game::notices::random_hex(8),
        host()
    )
}

/// The order of delivery a message name tells: the seconds before the
/// first `.`, then the microseconds of a `M` part (written without leading
/// zeros, so compared as numbers), then the name.
fn delivered(key: &str) -> (u64, u64, &str) {
    let mut parts = key.split('.');
    let secs = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let micros = parts
        .next()
        .and_then(|p| p.strip_prefix('M'))
        .and_then(|p| {
            let digits = p.bytes().take_while(u8::is_ascii_digit).count();
            p[..digits].parse().ok()
        })
        .unwrap_or(0);
    (secs, micros, key)
}

impl Maildir {
    /// Opens the Maildir at `root`, creating it (and its three folders)
    /// when missing.
    pub fn create(root: &Path) -> io::Result<Maildir> {
        for sub in ["tmp", "new", "cur"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    /// Opens an existing Maildir; an error when `tmp`, `new` or `cur` is
    /// missing.
    pub fn open(root: &Path) -> io::Result<Maildir> {
        for sub in ["tmp", "new", "cur"] {
            if !root.join(sub).is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("{} is not a Maildir: it has no {sub}/", root.display()),
                ));
            }
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    /// Delivers one message into `new/`, through `tmp/`; returns its path.
    /// On failure nothing is left in either folder.
    pub fn deliver(&self, bytes: &[u8]) -> io::Result<PathBuf> {
        self.deliver_as(&unique_name(), bytes, false)
    }

    /// Delivers one message under a name of the caller's, unique to that
    /// message (the referee's spool names): delivering it again replaces
    /// the first copy, so a delivery repeated after a crash leaves one.
    pub fn deliver_named(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        if name.is_empty() || name.starts_with('.') || name.contains(['/', ':']) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name:?} is not a Maildir message name"),
            ));
        }
        self.deliver_as(name, bytes, true)
    }

    fn deliver_as(&self, name: &str, bytes: &[u8], replace: bool) -> io::Result<PathBuf> {
        let tmp = self.root.join("tmp").join(name);
        let new = self.root.join("new").join(name);
        let result = (|| {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            if replace {
                let _ = fs::remove_file(&tmp);
            }
            let mut f = options.open(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            drop(f);
            if !replace && new.exists() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists", new.display()),
                ));
            }
            fs::rename(&tmp, &new)?;
            if let Ok(d) = fs::File::open(self.root.join("new")) {
                let _ = d.sync_all();
            }
            Ok(new.clone())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// The messages in `folder`, oldest delivery first (by the time at
    /// the start of the name, then the name). Names starting with `.` are
    /// skipped, as the spec asks.
    pub fn list(&self, folder: Folder) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for e in fs::read_dir(self.root.join(folder.dir()))? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !e.file_type()?.is_file() {
                continue;
            }
            let (key, flags) = match name.split_once(":2,") {
                Some((k, f)) => (k.to_string(), f.to_string()),
                None => (name.clone(), String::new()),
            };
            out.push(Entry {
                folder,
                key,
                flags,
                path: e.path(),
            });
        }
        out.sort_by(|a, b| delivered(&a.key).cmp(&delivered(&b.key)));
        Ok(out)
    }

    /// Every message, `new/` and `cur/`, oldest first.
    pub fn messages(&self) -> io::Result<Vec<Entry>> {
        let mut all = self.list(Folder::New)?;
        all.extend(self.list(Folder::Cur)?);
        all.sort_by(|a, b| delivered(&a.key).cmp(&delivered(&b.key)));
        Ok(all)
    }

    /// The message's bytes.
    pub fn read(&self, entry: &Entry) -> io::Result<Vec<u8>> {
        fs::read(&entry.path)
    }

    /// Moves a message to `cur/` with the flag `S` (seen) added.
    pub fn mark_seen(&self, entry: &Entry) -> io::Result<Entry> {
        self.set_flags(entry, &format!("{}S", entry.flags))
    }

    /// Moves a message to `cur/` with exactly `flags` (kept sorted and
    /// without repeats, as the spec asks).
    pub fn set_flags(&self, entry: &Entry, flags: &str) -> io::Result<Entry> {
        let mut f: Vec<char> = flags.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        f.sort_unstable();
        f.dedup();
        let flags: String = f.into_iter().collect();
        let path = self
            .root
            .join("cur")
            .join(format!("{}:2,{flags}", entry.key));
        fs::rename(&entry.path, &path)?;
        Ok(Entry {
            folder: Folder::Cur,
            key: entry.key.clone(),
            flags,
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivery_order_reads_the_microseconds_as_a_number() {
        let mut keys = [
            "7.M100000P1Q2R3.h",
            "7.M99999P1Q1R3.h",
            "6.M5P1Q0R3.h",
            "other",
        ];
        keys.sort_by(|a, b| delivered(a).cmp(&delivered(b)));
        assert_eq!(
            keys,
            [
                "other",
                "6.M5P1Q0R3.h",
                "7.M99999P1Q1R3.h",
                "7.M100000P1Q2R3.h"
            ]
        );
    }

    #[test]
    fn deliver_list_read_and_mark() {
        let dir = std::env::temp_dir().join(format!("postal-maildir-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        assert!(Maildir::open(&dir).is_err());
        let md = Maildir::create(&dir).unwrap();
        let a = md.deliver(b"one").unwrap();
        let b = md.deliver(b"two").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with(dir.join("new")));
        assert_eq!(fs::read_dir(dir.join("tmp")).unwrap().count(), 0);
        let new = md.list(Folder::New).unwrap();
        assert_eq!(new.len(), 2);
        assert_eq!(md.read(&new[0]).unwrap(), b"one");
        let seen = md.mark_seen(&new[0]).unwrap();
        assert_eq!(seen.flags, "S");
        assert!(seen.path.to_string_lossy().ends_with(":2,S"));
        let replied = md.set_flags(&seen, "SRS").unwrap();
        assert_eq!(replied.flags, "RS");
        assert_eq!(md.list(Folder::New).unwrap().len(), 1);
        let all = Maildir::open(&dir).unwrap().messages().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all.iter().filter(|e| e.folder == Folder::Cur).count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
