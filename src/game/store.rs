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
//! - A player's game is checked against the rules the player keeps for it
//!   ([`RuleBook`], issue 42) before any move is replayed, and a change
//!   keeps them when none are kept yet; the referee's own games are not
//!   (it alone writes them).
//!
//! Reading without changing takes no lock: the rename makes every read see
//! a whole file.
//!
//! The writing itself is [`crate::files::write_atomic_locked`] (every
//! writer of a game file holds its lock; [`write_game`]): the file keeps
//! its permissions, and a game file reached through a symbolic link is
//! replaced where the link points (the lock too is taken on the real
//! file), so the link and its target stay one game. Its temporary file has
//! one name, so a killed writer's is replaced by the next write, and no
//! write lists the folder.

use super::clock::Clock;
use super::file::GameFile;
use super::rulebook::RuleBook;
use super::state::{Game, MoveReport};
use super::GameError;
use crate::files::real_path;
use crate::limits::{exceeds, MAX_STATE_BYTES};
use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads and checks a game file (at most [`MAX_STATE_BYTES`]). A
/// player's copy (`book` the player's records, [`RuleBook`]) is refused
/// when its rules differ from those the player keeps for the game,
/// before any move is played by them; a referee's own games (`None`),
/// which only it writes, are checked against themselves alone.
pub fn load(path: &Path, book: Option<&RuleBook>) -> Result<Game, GameError> {
    let file = File::open(path).map_err(|e| GameError::io(path, e))?;
    // Room for the whole file at once (read through `take`, the reader
    // would otherwise grow its buffer by doubling, copying it each time).
    let size = file.metadata().map_or(0, |m| m.len()) as usize;
    let mut text = Vec::with_capacity(size.min(MAX_STATE_BYTES) + 1);
    file.take(MAX_STATE_BYTES as u64 + 1)
        .read_to_end(&mut text)
        .map_err(|e| GameError::io(path, e))?;
    if text.len() > MAX_STATE_BYTES {
        let size = fs::metadata(path)
            .map(|m| m.len() as usize)
            .unwrap_or(text.len());
        return Err(GameError::Format(format!(
            "not a postal game file: {}",
            exceeds("it has", size, MAX_STATE_BYTES, "bytes")
        )));
    }
    let text = String::from_utf8(text).map_err(|e| GameError::Json {
        source: String::new(),
        line: 0,
        column: 0,
        message: format!("the file is not UTF-8 text ({e})"),
    })?;
    let file = GameFile::from_json(&text)?;
    if let Some(book) = book {
        book.check(&file)?;
    }
    Game::from_file(file)
}

/// The sidecar lock file of a state file: `game.json.lock`, beside the
/// real file when `path` is a symbolic link.
pub fn lock_path(path: &Path) -> PathBuf {
    let path = real_path(path).unwrap_or_else(|_| path.to_path_buf());
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

/// Replaces `path` with `bytes` atomically ([`crate::files::write_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    crate::files::write_atomic(path, bytes)
        .map(|_| ())
        .map_err(|e| GameError::io(path, e))
}

/// Replaces the game file `path` with `bytes` atomically, the caller
/// holding its lock ([`lock`]; [`crate::files::write_atomic_locked`]).
pub fn write_game(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    crate::files::write_atomic_locked(path, bytes)
        .map(|_| ())
        .map_err(|e| GameError::io(path, e))
}

/// Writes a new game to `path`, refusing to replace an existing file; a
/// player's game (`book`) has its rules kept first ([`RuleBook::keep`]).
pub fn create(path: &Path, game: &Game, book: Option<&RuleBook>) -> Result<(), GameError> {
    let _lock = lock(path)?;
    if path.exists() {
        return Err(GameError::Usage(format!(
            "{} already exists; choose another name or remove it first",
            path.display()
        )));
    }
    if let Some(book) = book {
        book.keep(game)?;
    }
    write_game(path, game.to_json().as_bytes())
}

/// Changes a player's game under its lock: reads and checks it (against
/// the rules kept in `book`), applies `change`, keeps the game's rules
/// when `book` has none for it yet (trust on first use), and writes the
/// result. When anything fails, the file is not written.
pub fn update<T>(
    path: &Path,
    book: &RuleBook,
    change: impl FnOnce(&mut Game) -> Result<T, GameError>,
) -> Result<(Game, T), GameError> {
    let _lock = lock(path)?;
    let mut game = load(path, Some(book))?;
    let out = change(&mut game)?;
    book.keep(&game)?;
    write_game(path, game.to_json().as_bytes())?;
    Ok((game, out))
}

/// `postal move`: validates and plays a move for the side to move, saves,
/// and says what it did. The one success path for a move, so that a mail
/// can be sent after it.
pub fn apply_move(
    path: &Path,
    book: &RuleBook,
    text: &str,
    comment: Option<String>,
    clock: &dyn Clock,
) -> Result<(Game, MoveReport), GameError> {
    update(path, book, |game| game.play(text, comment, clock.now()))
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
        let book = RuleBook::at(dir.join("rules"));
        let clock = FixedClock(parse_time("2025-01-01T00:00:00Z").unwrap());
        let game = Game::new(
            Position::start(Variant::Gardner),
            Players::default(),
            None,
            clock.now(),
        )
        .unwrap();
        create(&path, &game, Some(&book)).unwrap();
        assert!(create(&path, &game, Some(&book)).is_err());
        let before = fs::read(&path).unwrap();
        assert!(apply_move(&path, &book, "Ke3", None, &clock).is_err());
        assert_eq!(fs::read(&path).unwrap(), before);
        let (g, r) = apply_move(&path, &book, "d3", None, &clock).unwrap();
        assert_eq!(r.canonical, "d3");
        assert_eq!(load(&path, Some(&book)).unwrap().to_json(), g.to_json());
        // A leftover from a killed writer is replaced by the next write,
        // which leaves no temporary file.
        fs::write(dir.join(".g.json.tmp"), "partial").unwrap();
        apply_move(&path, &book, "a3", None, &clock).unwrap();
        assert!(!dir.join(".g.json.tmp").exists());
        assert_eq!(load(&path, Some(&book)).unwrap().moves().len(), 2);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        assert!(lock_path(&path).ends_with("g.json.lock"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_move_keeps_permissions_and_the_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("link");
        let path = dir.join("real.json");
        let book = RuleBook::at(dir.join("rules"));
        let clock = FixedClock(parse_time("2025-01-01T00:00:00Z").unwrap());
        let game = Game::new(
            Position::start(Variant::Gardner),
            Players::default(),
            None,
            clock.now(),
        )
        .unwrap();
        create(&path, &game, Some(&book)).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("game.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        apply_move(&link, &book, "d3", None, &clock).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(load(&path, Some(&book)).unwrap().moves().len(), 1);
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(lock_path(&link), dir.join("real.json.lock"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
