//! Reading and writing state files safely.
//!
//! - Writes are atomic: the new text goes to a temporary file in the same
//!   folder, is flushed and fsynced, and is renamed over the old file (then
//!   the folder is fsynced so the rename itself survives a crash). A reader,
//!   or a process killed at any point, sees the old file or the new one,
//!   never a mixture.
//! - Changes are serialised by an advisory lock on a sidecar file,
//!   `FILE.lock`: the state file itself is replaced by every rename, so a
//!   lock held on it would no longer exclude anyone. A change holds the
//!   lock from reading the file to renaming the new one, so two `postal
//!   move` runs on one file cannot interleave: the second reads what the
//!   first wrote.
//! - A change that fails (an illegal move, an act out of turn, a file that
//!   does not check) returns before anything is written, so the file stays
//!   byte-for-byte as it was.
//!
//! Reading without changing takes no lock: the rename makes every read see
//! a whole file.

use super::clock::Clock;
use super::state::{Game, MoveReport};
use super::GameError;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads and checks a game file.
pub fn load(path: &Path) -> Result<Game, GameError> {
    let text = fs::read(path).map_err(|e| GameError::io(path, e))?;
    let text = String::from_utf8(text).map_err(|e| GameError::Json {
        source: String::new(),
        line: 0,
        column: 0,
        message: format!("the file is not UTF-8 text ({e})"),
    })?;
    Game::from_json(&text)
}

/// The sidecar lock file of a state file: `game.json.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// Holds the exclusive advisory lock of a state file while alive.
pub struct Lock {
    _file: File,
}

/// Waits for and takes the lock of a state file.
pub fn lock(path: &Path) -> Result<Lock, GameError> {
    let lp = lock_path(path);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lp)
        .map_err(|e| GameError::io(&lp, e))?;
    file.lock().map_err(|e| GameError::io(&lp, e))?;
    Ok(Lock { _file: file })
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The prefix of this file's temporary files: `.game.json.`.
fn temp_prefix(path: &Path) -> String {
    format!(
        ".{}.",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

/// Removes temporary files that a killed writer left. Only called under
/// the lock, when no other writer of this file can be mid-write.
fn remove_stale_temps(path: &Path) {
    let prefix = temp_prefix(path);
    if let Ok(dir) = fs::read_dir(folder_of(path)) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) && name.ends_with(".tmp") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// Replaces `path` with `bytes` atomically (temporary file in the same
/// folder, flush, fsync, rename, fsync of the folder). The caller holds
/// the lock.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    let folder = folder_of(path);
    let temp = folder.join(format!("{}{}.tmp", temp_prefix(path), std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temp)?;
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(&temp, path)?;
        // The rename is durable once the folder is synced. Some file
        // systems cannot sync a folder; the rename has happened anyway.
        if let Ok(d) = File::open(folder) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e: std::io::Error| {
        let _ = fs::remove_file(&temp);
        GameError::io(path, e)
    })
}

/// Writes a new game to `path`, refusing to replace an existing file.
pub fn create(path: &Path, game: &Game) -> Result<(), GameError> {
    let _lock = lock(path)?;
    if path.exists() {
        return Err(GameError::Usage(format!(
            "{} already exists; choose another name or remove it first",
            path.display()
        )));
    }
    remove_stale_temps(path);
    write_atomic(path, game.to_json().as_bytes())
}

/// Changes a game under its lock: reads and checks it, applies `change`,
/// and writes the result. When `change` fails, nothing is written.
pub fn update<T>(
    path: &Path,
    change: impl FnOnce(&mut Game) -> Result<T, GameError>,
) -> Result<(Game, T), GameError> {
    let _lock = lock(path)?;
    let mut game = load(path)?;
    let out = change(&mut game)?;
    remove_stale_temps(path);
    write_atomic(path, game.to_json().as_bytes())?;
    Ok((game, out))
}

/// `postal move`: validates and plays a move for the side to move, saves,
/// and says what it did. The one success path for a move, so that a mail
/// can be sent after it.
pub fn apply_move(
    path: &Path,
    text: &str,
    comment: Option<String>,
    clock: &dyn Clock,
) -> Result<(Game, MoveReport), GameError> {
    update(path, |game| game.play(text, comment, clock.now()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::{parse_time, FixedClock};
    use crate::game::state::Players;
    use crate::position::Position;
    use crate::variant::Variant;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("postal-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_failed_move_leaves_the_file_alone() {
        let dir = temp_dir("failed");
        let path = dir.join("g.json");
        let clock = FixedClock(parse_time("2025-01-01T00:00:00Z").unwrap());
        let game = Game::new(
            Position::start(Variant::Gardner),
            Players::default(),
            None,
            clock.now(),
        )
        .unwrap();
        create(&path, &game).unwrap();
        assert!(create(&path, &game).is_err());
        let before = fs::read(&path).unwrap();
        assert!(apply_move(&path, "Ke3", None, &clock).is_err());
        assert_eq!(fs::read(&path).unwrap(), before);
        let (g, r) = apply_move(&path, "d3", None, &clock).unwrap();
        assert_eq!(r.canonical, "d3");
        assert_eq!(load(&path).unwrap().to_json(), g.to_json());
        // A leftover from a killed writer is cleared by the next write.
        fs::write(dir.join(".g.json.999.tmp"), "partial").unwrap();
        apply_move(&path, "a3", None, &clock).unwrap();
        assert!(!dir.join(".g.json.999.tmp").exists());
        assert!(lock_path(&path).ends_with("g.json.lock"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
