//! Tournaments by mail (issue 44): round robins whose games the referee
//! runs as it runs any game. Every game of a tournament is an ordinary
//! referee game (its own tokens, letters, clocks, site page), started by
//! [`super::start`] as `postal new --referee` starts one, and carrying
//! `"tournament": {"name", "round"}` in its file's `extensions`.
//!
//! ```text
//! referee/tournaments/NAME/
//!   tournament.json   the players (in seeding order), the games (id,
//!                     Berger round, White's and Black's numbers), the
//!                     withdrawals and the games each forfeited
//!   settings.toml     tiebreaks = [...], standings = "on-result"|"weekly"|"never"
//! ```
//!
//! The results are never copied here: the cross-table ([`table`]) is
//! computed from the game files (through the index) each time, so a time
//! forfeit or an adjudication counts as soon as its game ends.
//!
//! - [`berger`]: FIDE's pairing tables.
//! - [`players`]: the players file of `tournament new`.
//! - [`mod@make`]: making a tournament, all games or none.
//! - [`table`]: scores, Sonneborn-Berger, tie-breaks and ranks.
//! - [`report`]: the cross-table as text, JSON, HTML and FIDE's TRF-16.
//! - [`standing`]: the standing mailed at a result, or weekly.
//! - [`mod@withdraw`]: a withdrawal and its forfeits.

pub mod berger;
pub mod make;
pub mod players;
pub mod report;
pub mod standing;
pub mod table;
pub mod withdraw;

pub use make::{make, Made, Plan};
pub use standing::{on_result, weekly};
pub use withdraw::{withdraw, Withdrawn};

use super::{Referee, RefereeError};
use crate::game::Game;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::PathBuf;

/// The format of `tournament.json`.
pub const FORMAT: &str = "postal-tournament/1";

/// The key of a game's `extensions` that names its tournament.
pub const EXTENSION: &str = "tournament";

/// A player of a tournament, numbered by their place in the list (from 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub name: String,
    pub email: String,
}

/// One game: its id, its Berger round, White's and Black's numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheduled {
    pub id: String,
    pub round: u32,
    pub white: usize,
    pub black: usize,
}

/// A withdrawal: the player's number, when, and the games it forfeited
/// (those unfinished then; they score `+`/`-`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    pub player: usize,
    #[serde(with = "crate::game::clock::time")]
    pub time: DateTime<Utc>,
    pub forfeited: Vec<String>,
}

/// `tournament.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub format: String,
    pub name: String,
    pub variant: String,
    /// The variant as people name it (`FIDE chess`).
    pub title: String,
    #[serde(default)]
    pub time_control: Option<String>,
    pub double: bool,
    /// When the games' clocks start.
    #[serde(with = "crate::game::clock::time")]
    pub start: DateTime<Utc>,
    pub players: Vec<Seat>,
    pub games: Vec<Scheduled>,
    #[serde(default)]
    pub withdrawn: Vec<Withdrawal>,
}

impl Record {
    /// The number (from 1) of the player with this address.
    pub fn seat_of(&self, email: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.email.eq_ignore_ascii_case(email.trim()))
            .map(|i| i + 1)
    }

    pub fn seat(&self, n: usize) -> &Seat {
        &self.players[n - 1]
    }

    pub fn withdrawal(&self, n: usize) -> Option<&Withdrawal> {
        self.withdrawn.iter().find(|w| w.player == n)
    }

    /// Whether the game `gid` was lost by forfeit in a withdrawal.
    pub fn forfeited(&self, gid: &str) -> bool {
        self.withdrawn
            .iter()
            .any(|w| w.forfeited.iter().any(|g| g == gid))
    }

    /// Checks what the rest of the code takes for granted, for a file
    /// edited by hand: every player named is one of the list, no game
    /// is a player against themself, the rounds are the table's.
    pub fn check(&self) -> Result<(), String> {
        let n = self.players.len();
        if !(players::MIN_PLAYERS..=players::MAX_PLAYERS).contains(&n) {
            return Err(format!("{n} players; a tournament has 3 to 64"));
        }
        let seat = |s: usize| (1..=n).contains(&s);
        for g in &self.games {
            if !seat(g.white) || !seat(g.black) || g.white == g.black {
                return Err(format!(
                    "the game {} is between players {} and {}, of 1 to {n}",
                    g.id, g.white, g.black
                ));
            }
            if !(1..=self.rounds()).contains(&g.round) {
                return Err(format!("the game {} is in round {}", g.id, g.round));
            }
        }
        if let Some(w) = self.withdrawn.iter().find(|w| !seat(w.player)) {
            return Err(format!("a withdrawal of player {}, of 1 to {n}", w.player));
        }
        Ok(())
    }

    /// The rounds of the tournament (a bye's round counted).
    pub fn rounds(&self) -> u32 {
        berger::rounds(self.players.len(), self.double)
    }
}

/// A tie-break of FIDE's regulations (C.07) that the table applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    /// The scores of the opponents beaten, and half those drawn with.
    SonnebornBerger,
    /// The number of games won.
    Wins,
    /// The points among the tied players, when all have met.
    DirectEncounter,
    /// The points against the players who scored half or more.
    Koya,
}

impl Tiebreak {
    pub const ALL: [Tiebreak; 4] = [
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::DirectEncounter,
        Tiebreak::Koya,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sonneborn-berger",
            Tiebreak::Wins => "wins",
            Tiebreak::DirectEncounter => "direct-encounter",
            Tiebreak::Koya => "koya",
        }
    }

    pub fn parse(name: &str) -> Option<Tiebreak> {
        Tiebreak::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Who gets the cross-table when a game ends: its two players always.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standings {
    /// Every player, at every result.
    #[default]
    OnResult,
    /// Every player, once a week (`referee sweep`).
    Weekly,
    /// Only the game's two players.
    Never,
}

/// `settings.toml` as read.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    #[serde(default)]
    tiebreaks: Option<Vec<String>>,
    #[serde(default)]
    standings: Standings,
}

/// A tournament's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub tiebreaks: Vec<Tiebreak>,
    pub standings: Standings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            tiebreaks: vec![
                Tiebreak::SonnebornBerger,
                Tiebreak::Wins,
                Tiebreak::DirectEncounter,
            ],
            standings: Standings::OnResult,
        }
    }
}

pub(super) const SETTINGS: &str =
    "# postal tournament settings (postal referee tournament --help)\n\
# Ties on points are broken in this order (FIDE C.07); known:\n\
# sonneborn-berger, wins, direct-encounter, koya.\n\
tiebreaks = [\"sonneborn-berger\", \"wins\", \"direct-encounter\"]\n\
# Who gets the cross-table when a game ends, besides its two players:\n\
# \"on-result\" (every player), \"weekly\" (every player, once a week, by\n\
# `postal referee sweep`) or \"never\".\n\
standings = \"on-result\"\n";

/// A tournament of a referee folder: its record and settings.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub record: Record,
    pub settings: Settings,
}

/// Whether a name may name a tournament: 1 to 64 letters, digits, `-`
/// and `_`, a letter or digit first (it is a folder's name and part of
/// letters' names).
pub fn is_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The folder of the tournament `name`.
pub fn folder(r: &Referee, name: &str) -> PathBuf {
    r.dir.join("tournaments").join(name)
}

pub(super) fn config(what: impl std::fmt::Display) -> RefereeError {
    RefereeError::Config(what.to_string())
}

/// Reads the settings text of a tournament.
pub fn read_settings(text: &str) -> Result<Settings, String> {
    let raw: RawSettings = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut settings = Settings {
        standings: raw.standings,
        ..Settings::default()
    };
    if let Some(names) = raw.tiebreaks {
        settings.tiebreaks = Vec::new();
        for n in names {
            let t = Tiebreak::parse(&n).ok_or_else(|| {
                format!(
                    "unknown tie-break {n:?}; known: {}",
                    Tiebreak::ALL.map(Tiebreak::name).join(", ")
                )
            })?;
            if settings.tiebreaks.contains(&t) {
                return Err(format!("the tie-break {n:?} is named twice"));
            }
            settings.tiebreaks.push(t);
        }
    }
    Ok(settings)
}

impl Tournament {
    /// Opens the tournament `name` of a referee folder.
    pub fn open(r: &Referee, name: &str) -> Result<Tournament, RefereeError> {
        if !is_name(name) {
            return Err(config(format!(
                "{name:?} is not a tournament's name (letters, digits, - and _)"
            )));
        }
        let dir = folder(r, name);
        let path = dir.join("tournament.json");
        let bytes = fs::read(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                config(format!("no tournament {name} in {}", r.dir.display()))
            } else {
                RefereeError::io(path.display(), e)
            }
        })?;
        let record: Record = serde_json::from_slice(&bytes)
            .map_err(|e| config(format!("{}: {e}", path.display())))?;
        if record.format != FORMAT {
            return Err(config(format!(
                "{}: the format {:?} is not {FORMAT}",
                path.display(),
                record.format
            )));
        }
        record
            .check()
            .map_err(|e| config(format!("{}: {e}", path.display())))?;
        let spath = dir.join("settings.toml");
        let settings = match fs::read_to_string(&spath) {
            Ok(text) => {
                read_settings(&text).map_err(|e| config(format!("{}: {e}", spath.display())))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Settings::default(),
            Err(e) => return Err(RefereeError::io(spath.display(), e)),
        };
        Ok(Tournament { record, settings })
    }

    /// The tournaments of a folder, by name.
    pub fn names(r: &Referee) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(r.dir.join("tournaments"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| is_name(n))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    fn save(&self, r: &Referee) -> Result<(), RefereeError> {
        let path = folder(r, &self.record.name).join("tournament.json");
        let mut text =
            serde_json::to_vec_pretty(&self.record).map_err(|e| RefereeError::Io(e.to_string()))?;
        text.push(b'\n');
        crate::game::store::write_atomic(&path, &text)?;
        Ok(())
    }

    /// The cross-table now, from the games' files.
    pub fn table(&self, r: &Referee) -> Result<table::Table, RefereeError> {
        let (index, _) = super::index::refresh(r)?;
        Ok(self.table_of(&index))
    }

    /// The cross-table from the results in an index brought up to date.
    pub fn table_of(&self, index: &super::index::Index) -> table::Table {
        table::Table::compute(self, |gid| {
            index
                .games
                .get(gid)
                .and_then(|row| row.result.as_deref().map(table::result_of))
        })
    }
}

/// The tournament a game belongs to and its round, from its file.
pub fn of_game(game: &Game) -> Option<(String, u32)> {
    let t = game.file().extensions.get(EXTENSION)?;
    let name = t.get("name")?.as_str()?.to_string();
    let round = t.get("round")?.as_u64()? as u32;
    Some((name, round))
}
