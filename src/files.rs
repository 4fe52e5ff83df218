//! Writing files whole or not at all: the one writer behind every file
//! postal writes (game files, `-o` outputs, outbox messages, man pages).
//!
//! [`write_atomic`] writes the new bytes to a temporary file in the same
//! folder as the real file, flushes and fsyncs it, and renames it over the
//! real file (then fsyncs the folder), so a reader or a crash sees the old
//! file or the new one, never a mixture; on any failure (a full disk, a
//! read-only folder) the temporary file is removed and the old file is
//! untouched. The new file keeps the old one's permissions (a private
//! 0600 game stays private). A symbolic link is followed to the real
//! file, which is replaced; the link stays a link, so two names for one
//! game never fork into two games.
//!
//! [`write_public`] is the same writer for a file served to others (the
//! referee's web site): a symbolic link at the path is replaced, never
//! written through, and the file is readable by everyone (0644).
//!
//! [`same_file`] tells a command that its output would overwrite its own
//! input (`show -o game.json`), which it refuses before writing.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The file a path names once symbolic links are followed (also when the
/// link's target does not exist yet: the target is then created). A path
/// that is not a link is returned as it is.
pub fn real_path(path: &Path) -> io::Result<PathBuf> {
    real_path_and_mode(path).map(|(real, _)| real)
}

/// [`real_path`], with the permission bits of the file there when it
/// exists (read by the same `lstat` that found it is no link).
fn real_path_and_mode(path: &Path) -> io::Result<(PathBuf, Option<u32>)> {
    let mut current = path.to_path_buf();
    // As the kernel does (ELOOP), give up on a loop after 40 links.
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = if target.is_absolute() {
                    target
                } else {
                    folder_of(&current).join(target)
                };
            }
            found => {
                let mode = found.ok().map(|m| m.permissions().mode());
                return Ok((current, mode));
            }
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// The folder a file is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The prefix of a file's temporary files: `.game.json.`. Temporary files
/// are `.NAME.PID.N.tmp` in the real file's folder, or `.NAME.tmp` for a
/// writer that holds the file's lock ([`write_atomic_locked`]).
pub fn temp_prefix(path: &Path) -> String {
    format!(
        ".{}.",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Replaces (or creates) `path` with `bytes` atomically, as described in
/// the module documentation. Returns the real file written.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let (real, mode) = real_path_and_mode(path)?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = folder_of(&real).join(format!(
        "{}{}.{n}.tmp",
        temp_prefix(&real),
        std::process::id()
    ));
    replace(real, mode, &temp, bytes)
}

/// Replaces (or creates) `path` atomically with a file readable by all
/// (0644, whatever the umask), without following links: a symbolic link
/// planted at `path` is replaced by the file, its target untouched.
pub fn write_public(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = folder_of(path).join(format!(
        "{}{}.{n}.tmp",
        temp_prefix(path),
        std::process::id()
    ));
    replace(path.to_path_buf(), Some(0o644), &temp, bytes)
}

/// [`write_atomic`] for a writer that holds the file's lock, as every
/// writer of a game file does (`game::store::lock`): no other writer can
/// be mid-write, so the temporary file has one name, `.NAME.tmp`, and one
/// that a killed writer left is replaced by the next save (the file is
/// created as new, and when one is there it is removed and created
/// again). Nothing else need look for leftovers: listing a folder of
/// 10,000 games cost each move some 7 ms.
pub fn write_atomic_locked(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let (real, mode) = real_path_and_mode(path)?;
    let temp = folder_of(&real).join(format!("{}tmp", temp_prefix(&real)));
    replace(real, mode, &temp, bytes)
}

/// Writes `bytes` to the new file `temp` beside `real` (whose permission
/// bits are `old_mode` when it exists) and renames it over `real`,
/// removing `temp` on any failure. A file already at `temp` is a killed
/// writer's: only the lock's holder writes `.NAME.tmp`, and only this
/// process, whose id is in it, writes `.NAME.PID.N.tmp`.
fn replace(real: PathBuf, old_mode: Option<u32>, temp: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let folder = folder_of(&real);
    let result = (|| {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        // Never more open than the old file while the bytes go in.
        options.mode(old_mode.map_or(0o666, |m| m & 0o777));
        let mut f = match options.open(temp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                fs::remove_file(temp)?;
                options.open(temp)?
            }
            opened => opened?,
        };
        if let Some(mode) = old_mode {
            f.set_permissions(fs::Permissions::from_mode(mode & 0o7777))?;
        }
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(temp, &real)?;
        // The rename is durable once the folder is synced. Some file
        // systems cannot sync a folder; the rename has happened anyway.
        if let Ok(d) = File::open(folder) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok(real),
        Err(e) => {
            let _ = fs::remove_file(temp);
            Err(e)
        }
    }
}

/// True when `a` and `b` name one existing file (through links, hard
/// links or different spellings of the path).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("postal-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn keeps_permissions_and_follows_links() {
        let d = dir("perm");
        let real = d.join("real.json");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = d.join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        assert_eq!(write_atomic(&link, b"new").unwrap(), real);
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(same_file(&link, &real));
        assert!(!same_file(&link, &d.join("missing")));
        // Nothing left behind.
        let names: Vec<_> = fs::read_dir(&d).unwrap().flatten().collect();
        assert_eq!(names.len(), 2);
        fs::remove_dir_all(&d).unwrap();
    }

    /// What a killed writer left at `.NAME.tmp` is replaced, and a link
    /// there is removed, never written through.
    #[test]
    fn a_leftover_temporary_is_replaced_not_followed() {
        let d = dir("leftover");
        let game = d.join("g.json");
        fs::write(&game, "old").unwrap();
        fs::set_permissions(&game, fs::Permissions::from_mode(0o640)).unwrap();
        let temp = d.join(".g.json.tmp");
        fs::write(&temp, "half a file").unwrap();
        assert_eq!(write_atomic_locked(&game, b"new").unwrap(), game);
        assert_eq!(fs::read(&game).unwrap(), b"new");
        let mode = fs::metadata(&game).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(!temp.exists());
        let victim = d.join("victim");
        fs::write(&victim, "keep").unwrap();
        std::os::unix::fs::symlink(&victim, &temp).unwrap();
        write_atomic_locked(&game, b"newer").unwrap();
        assert_eq!(fs::read(&game).unwrap(), b"newer");
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert!(fs::symlink_metadata(&temp).is_err());
        // A first save creates the file with the default permissions.
        let fresh = d.join("fresh.json");
        write_atomic_locked(&fresh, b"x").unwrap();
        assert_eq!(fs::read(&fresh).unwrap(), b"x");
        fs::remove_dir_all(&d).unwrap();
    }

    /// Issue 40 point 10: a public file replaces a link planted at its
    /// name, and is 0644 whatever the umask.
    #[test]
    fn a_public_file_replaces_a_planted_link() {
        let d = dir("public");
        let victim = d.join("victim");
        fs::write(&victim, "keep").unwrap();
        fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
        let page = d.join("index.html");
        std::os::unix::fs::symlink(&victim, &page).unwrap();
        assert_eq!(write_public(&page, b"page").unwrap(), page);
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert!(!fs::symlink_metadata(&page)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&page).unwrap(), b"page");
        let mode = fs::metadata(&page).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = dir("fail");
        let sub = d.join("ro");
        fs::create_dir(&sub).unwrap();
        let f = sub.join("out.txt");
        fs::write(&f, "old").unwrap();
        fs::set_permissions(&sub, fs::Permissions::from_mode(0o500)).unwrap();
        let r = write_atomic(&f, b"new");
        fs::set_permissions(&sub, fs::Permissions::from_mode(0o700)).unwrap();
        // Root may write anyway; otherwise the old file stands alone.
        if r.is_err() {
            assert_eq!(fs::read(&f).unwrap(), b"old");
            assert_eq!(fs::read_dir(&sub).unwrap().count(), 1);
        }
        fs::remove_dir_all(&d).unwrap();
    }
}
