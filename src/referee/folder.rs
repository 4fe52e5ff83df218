//! The referee folder:
//!
//! ```text
//! referee/            mode 0700, its files 0600 (whatever the umask)
//!   referee.toml      the address, the policies and the mail transport
//!   secret.key        32 random bytes (mode 0600) for the reply tokens
//!   games/ID.json     postal-game/1 files: the store of record
//!   spool/            outgoing mail, waiting to be sent (fixed names)
//!   spool/prepared/   mail written before its game's save, released after it
//!   sent/             mail sent
//!   held/             messages awaiting the player's confirmation (src/referee/held.rs)
//!   seen/             one empty file per answered message that changed no game
//!   rate/             answers per address in the last hour
//!   log/YYYY-MM.jsonl one line per message received
//!   index.json        derived summary of the games (rebuilt when stale)
//!   outbox/           a Maildir: the mail, when no transport is configured
//!   imap/journal.json messages finished but not yet moved (src/referee/journal.rs)
//! ```
//!
//! `referee.toml`:
//!
//! ```toml
//! address = "Postal <postal@example.org>"   # replies go to postal+TOKEN@example.org
//! tag = ""                  # "postal" gives postal+postal-TOKEN@..., for a personal mailbox
//! reminder_hours = 24       # a reminder this long before a deadline (0: none)
//! auto_forfeit = true       # record a time forfeit when a deadline passes
//! leave_days = 30           # each player's leave a year in new games
//! answers_per_hour = 5      # answers to one address at most (notices of moves not counted)
//! trusted_authserv_ids = [] # whose Authentication-Results are read (empty: the topmost)
//! variants = "club.ini"     # variants defined for `postal new --referee` (postal-variants(5))
//! [mail]                    # as the mail settings file (src/mail/config.rs); `from` is `address`
//! transport = "outbox"
//! [imap]                    # for `referee run --imap` (src/referee/imap.rs)
//! password_command = "pass show mail/club"
//! ```

use super::RefereeError;
use crate::game::{store, Game, GameError};
use crate::mail::config::Config;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The settings in `referee.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub address: String,
    #[serde(default)]
    pub tag: String,
    #[serde(default = "default_reminder")]
    pub reminder_hours: u32,
    #[serde(default = "default_true")]
    pub auto_forfeit: bool,
    /// Each player's leave a year in the games made here (none: 30).
    #[serde(default)]
    pub leave_days: Option<u32>,
    #[serde(default = "default_answers")]
    pub answers_per_hour: u32,
    /// The authserv-ids (RFC 8601) of the receiving mail servers whose
    /// `Authentication-Results` are read; empty: the topmost one.
    #[serde(default)]
    pub trusted_authserv_ids: Vec<String>,
    #[serde(default)]
    pub mail: Config,
    /// A folder to keep the games' web site in (`referee/site.rs`), kept
    /// current by `referee run`; relative to the referee folder.
    #[serde(default)]
    pub site: Option<PathBuf>,
    #[serde(default)]
    pub imap: super::imap::ImapSettings,
    /// A variants.ini file whose variants `postal new --referee` starts
    /// games of (postal-variants(5)); relative to the referee folder.
    /// Each game's file carries its variant's definition from then on.
    #[serde(default)]
    pub variants: Option<PathBuf>,
}

fn default_reminder() -> u32 {
    24
}
fn default_true() -> bool {
    true
}
fn default_answers() -> u32 {
    5
}

/// An open referee folder.
#[derive(Clone, Debug)]
pub struct Referee {
    pub dir: PathBuf,
    pub settings: Settings,
    key: Vec<u8>,
    /// The address's local part and domain: `postal`, `example.org`.
    pub local: String,
    pub domain: String,
}

const SUBDIRS: [&str; 9] = [
    "games",
    "spool",
    "spool/prepared",
    "sent",
    "held",
    "seen",
    "rate",
    "log",
    "outbox",
];

/// Splits `Name <local@domain>` or `local@domain` into its parts.
pub fn address_parts(text: &str) -> Option<(String, String)> {
    let addr = match text.rfind('<') {
        Some(i) => text[i + 1..].trim_end().strip_suffix('>')?,
        None => text.trim(),
    };
    let (l, d) = addr.rsplit_once('@')?;
    (!l.is_empty() && !d.is_empty() && !l.contains('+')).then(|| (l.to_string(), d.to_string()))
}

/// Makes a referee folder 0700 when it is more open (a folder made before
/// this rule, or by hand): sent letters carry reply tokens; held mail and
/// conditional lines are a player's secrets.
fn private(dir: &Path) -> Result<(), RefereeError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = match fs::metadata(dir) {
        Ok(m) => m,
        // Said by the caller, which reads referee.toml next.
        Err(_) => return Ok(()),
    };
    if meta.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
            .map_err(|e| RefereeError::io(dir.display(), e))?;
    }
    Ok(())
}

/// Sets the process's umask to 077, so that every file and folder the
/// referee writes is 0600 or 0700 whatever umask it was started with.
/// Called by the commands that work on a referee folder (a library
/// caller keeps its own umask); the web site sets its own modes (0644
/// and 0755, src/referee/site.rs).
pub fn private_umask() {
    rustix::process::umask(rustix::fs::Mode::from_bits_truncate(0o077));
}

fn toml_string(s: &str) -> String {
    format!("{:?}", s)
}

impl Referee {
    /// Makes a new referee folder (refused if `DIR/referee.toml` exists).
    pub fn init(dir: &Path, address: &str) -> Result<Referee, RefereeError> {
        if address_parts(address).is_none() {
            return Err(RefereeError::Config(format!(
                "{address:?} is not an address like \"Postal <postal@example.org>\" (without a +)"
            )));
        }
        address
            .parse::<lettre::message::Mailbox>()
            .map_err(|e| RefereeError::Config(format!("{address:?}: {e}")))?;
        let settings = dir.join("referee.toml");
        if settings.exists() {
            return Err(RefereeError::Config(format!(
                "{} already exists",
                settings.display()
            )));
        }
        fs::create_dir_all(dir).map_err(|e| RefereeError::io(dir.display(), e))?;
        private(dir)?;
        for sub in SUBDIRS {
            fs::create_dir_all(dir.join(sub)).map_err(|e| RefereeError::io(dir.display(), e))?;
        }
        let mut key = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut key)
            .map_err(|_| RefereeError::Config("no random numbers from the system".into()))?;
        let key_path = dir.join("secret.key");
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let mut f = opts
            .open(&key_path)
            .map_err(|e| RefereeError::io(key_path.display(), e))?;
        f.write_all(&key)
            .and_then(|_| f.sync_all())
            .map_err(|e| RefereeError::io(key_path.display(), e))?;
        let text = format!(
            "# postal referee settings (see `postal referee init --help`)\n\
             address = {}\n\
             tag = \"\"\n\
             reminder_hours = 24\n\
             auto_forfeit = true\n\
             leave_days = 30\n\
             answers_per_hour = 5\n\
             # Whose Authentication-Results to read (RFC 8601 authserv-ids of the\n\
             # mail servers that receive the referee's mail); empty: the topmost.\n\
             trusted_authserv_ids = []\n\n\
             [mail]\n\
             transport = \"outbox\"\n",
            toml_string(address)
        );
        store::write_atomic(&settings, text.as_bytes())?;
        Referee::open(dir)
    }

    /// Opens a referee folder (and makes it private: `private`).
    pub fn open(dir: &Path) -> Result<Referee, RefereeError> {
        private(dir)?;
        let path = dir.join("referee.toml");
        let text = fs::read_to_string(&path).map_err(|e| {
            RefereeError::Config(format!(
                "{}: {e} (make the folder with `postal referee init`)",
                path.display()
            ))
        })?;
        let mut settings: Settings = toml::from_str(&text)
            .map_err(|e| RefereeError::Config(format!("{}: {e}", path.display())))?;
        settings.mail.from = Some(settings.address.clone());
        let (local, domain) = address_parts(&settings.address).ok_or_else(|| {
            RefereeError::Config(format!("{}: address is not an address", path.display()))
        })?;
        let key_path = dir.join("secret.key");
        let key = fs::read(&key_path).map_err(|e| RefereeError::io(key_path.display(), e))?;
        if key.len() < 16 {
            return Err(RefereeError::Config(format!(
                "{} is too short",
                key_path.display()
            )));
        }
        Ok(Referee {
            dir: dir.to_path_buf(),
            settings,
            key,
            local,
            domain,
        })
    }

    pub fn key(&self) -> &[u8] {
        &self.key
    }

    pub fn games_dir(&self) -> PathBuf {
        self.dir.join("games")
    }

    pub fn game_path(&self, gid: &str) -> PathBuf {
        self.games_dir().join(format!("{gid}.json"))
    }

    /// Registers a game under its own id (src/game/notices.rs): writes
    /// `games/ID.json`, refusing players without mail addresses and an id
    /// already in the folder. Returns the id.
    pub fn add_game(&self, game: &Game) -> Result<String, RefereeError> {
        for side in [crate::Color::White, crate::Color::Black] {
            if game.file().players.get(side).email.is_none() {
                return Err(RefereeError::Config(format!(
                    "{side} has no mail address: a refereed game needs both (--{} \"Name <address>\")",
                    side.name().to_lowercase()
                )));
            }
        }
        let gid = game.id().to_lowercase();
        if !super::token::is_gid(&gid) {
            return Err(RefereeError::Config(format!(
                "the game id {gid:?} cannot be put in a reply address (6 to 16 letters and digits)"
            )));
        }
        let path = self.game_path(&gid);
        if path.exists() {
            return Err(RefereeError::Config(format!(
                "the game {gid} is already in {}",
                self.dir.display()
            )));
        }
        store::create(&path, game, None)?;
        Ok(gid)
    }

    /// Appends one line to this month's log.
    pub fn log(&self, now: DateTime<Utc>, line: &serde_json::Value) {
        let path = self
            .dir
            .join("log")
            .join(format!("{}.jsonl", now.format("%Y-%m")));
        if let Ok(mut f) = fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// Holds a game's lock (the sidecar of src/game/store.rs) while alive.
pub struct GameLock {
    _file: fs::File,
}

/// Takes a game's lock, waiting at most `wait`; `Busy` when it is not
/// obtained, so that the message is delivered again later.
pub fn lock_game(path: &Path, wait: Duration) -> Result<GameLock, RefereeError> {
    let lp = store::lock_path(path);
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lp)
        .map_err(|e| RefereeError::io(lp.display(), e))?;
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(GameLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(RefereeError::Busy(format!("{} is locked", path.display())))
            }
            Err(fs::TryLockError::Error(e)) => return Err(RefereeError::io(lp.display(), e)),
        }
    }
}

/// Reads a game, for the referee: a damaged file is an error of the folder.
pub fn load_game(path: &Path) -> Result<Game, RefereeError> {
    store::load(path, None).map_err(|e| match e {
        GameError::Io { .. } => RefereeError::from(e),
        other => RefereeError::Config(format!("{}: {other}", path.display())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_makes_the_folder_and_a_private_key() {
        let dir = tempfile::tempdir().unwrap();
        let r = Referee::init(dir.path(), "Postal <postal@example.org>").unwrap();
        assert_eq!(
            (r.local.as_str(), r.domain.as_str()),
            ("postal", "example.org")
        );
        assert_eq!(r.key().len(), 32);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("secret.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(Referee::init(dir.path(), "Postal <postal@example.org>").is_err());
        assert!(Referee::init(&dir.path().join("x"), "postal+x@example.org").is_err());
    }
}
