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
//! - [`table`]: scores, Sonneborn-Berger, tie-breaks and ranks.
//! - [`report`]: the cross-table as text, JSON, HTML and FIDE's TRF-16.

pub mod berger;
pub mod players;
pub mod report;
pub mod table;

use super::letter::{self, Letter};
use super::operator::{self, Decision};
use super::start::{self, Start};
use super::{spool, Referee, RefereeError};
use crate::color::Color;
use crate::game::state::Players;
use crate::game::{Game, Player, TimeControl};
use crate::position::Position;
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

const SETTINGS: &str = "# postal tournament settings (postal referee tournament --help)\n\
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

fn config(what: impl std::fmt::Display) -> RefereeError {
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

/// What `tournament new` is asked to make.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub players: Vec<players::Entry>,
    pub start_position: Position,
    pub time_control: Option<TimeControl>,
    pub double: bool,
    /// When the clocks start (now, or a later day).
    pub start: DateTime<Utc>,
}

/// What `tournament new` made.
#[derive(Clone, Debug)]
pub struct Made {
    pub record: Record,
    /// The letters spooled: each game's first two, a welcome a player.
    pub letters: usize,
}

/// The welcome letter's spool name of player `n`.
fn welcome_name(name: &str, n: usize) -> String {
    format!("tournament-{name}-welcome-{n}")
}

/// Makes a tournament: every game prepared first (nothing written), then
/// the games, their first letters, each player's welcome letter and the
/// tournament's files written; a failure part-way removes all that was
/// written. The letters are released into `spool/` last.
pub fn make(r: &Referee, plan: &Plan, now: DateTime<Utc>) -> Result<Made, RefereeError> {
    if !is_name(&plan.name) {
        return Err(config(format!(
            "{:?} cannot name a tournament: 1 to 64 letters, digits, - and _",
            plan.name
        )));
    }
    let dir = folder(r, &plan.name);
    if dir.exists() {
        return Err(config(format!(
            "the tournament {} is already in {}",
            plan.name,
            r.dir.display()
        )));
    }
    let seats: Vec<Seat> = plan
        .players
        .iter()
        .map(|p| Seat {
            name: p.name.clone(),
            email: p.email.clone(),
        })
        .collect();
    let player = |n: usize| Player {
        name: Some(seats[n - 1].name.clone()),
        email: Some(seats[n - 1].email.clone()),
    };
    let mut starts: Vec<Start> = Vec::new();
    let mut games = Vec::new();
    for p in berger::pairings(seats.len(), plan.double) {
        let mut game = loop {
            let g = Game::new(
                plan.start_position.clone(),
                Players {
                    white: player(p.white),
                    black: player(p.black),
                },
                plan.time_control,
                plan.start,
            )
            .map_err(|e| config(e.to_string()))?;
            let id = g.id().to_lowercase();
            if !r.game_path(&id).exists() && !starts.iter().any(|s| s.gid == id) {
                break g;
            }
        };
        game.set_clock_rules(r.settings.leave_days, false);
        game.set_extension(
            EXTENSION,
            serde_json::json!({"name": plan.name, "round": p.round}),
        );
        let s = start::prepare(r, &game, now)?;
        games.push(Scheduled {
            id: s.gid.clone(),
            round: p.round,
            white: p.white,
            black: p.black,
        });
        starts.push(s);
    }
    let record = Record {
        format: FORMAT.to_string(),
        name: plan.name.clone(),
        variant: plan.start_position.variant.name().to_string(),
        title: plan.start_position.variant.spec().title.to_string(),
        time_control: plan.time_control.map(|tc| tc.to_string()),
        double: plan.double,
        start: plan.start,
        players: seats,
        games,
        withdrawn: Vec::new(),
    };
    let welcomes: Vec<(String, Vec<u8>)> = (1..=record.players.len())
        .map(|n| {
            let text = welcome_text(r, &record, &starts, n, now);
            let subject = format!(
                "[postal] Tournament {}: your {} games",
                record.name,
                record
                    .games
                    .iter()
                    .filter(|g| g.white == n || g.black == n)
                    .count()
            );
            let name = welcome_name(&record.name, n);
            let seat = record.seat(n);
            letter::compose_circular(
                r,
                &format!("{} <{}>", seat.name, seat.email),
                &subject,
                &name,
                &text,
                now,
            )
            .map(|bytes| (name, bytes))
            .map_err(|e| config(format!("{}: {e}", seat.email)))
        })
        .collect::<Result<_, _>>()?;
    // Written: the tournament's folder (claiming its name), the games
    // with their prepared letters, the welcome letters, the files.
    let parent = r.dir.join("tournaments");
    fs::create_dir_all(&parent).map_err(|e| RefereeError::io(parent.display(), e))?;
    fs::create_dir(&dir).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            config(format!(
                "the tournament {} is already in {}",
                plan.name,
                r.dir.display()
            ))
        } else {
            RefereeError::io(dir.display(), e)
        }
    })?;
    let t = Tournament {
        record,
        settings: Settings::default(),
    };
    let mut written = 0;
    let outcome = (|| {
        for s in &starts {
            start::write(r, s)?;
            written += 1;
        }
        for (name, bytes) in &welcomes {
            spool::prepare(r, name, bytes)?;
        }
        let settings = dir.join("settings.toml");
        crate::game::store::write_atomic(&settings, SETTINGS.as_bytes())?;
        t.save(r)
    })();
    if let Err(e) = outcome {
        for s in &starts[..written] {
            start::unwrite(r, s);
        }
        for (name, _) in &welcomes {
            let _ = fs::remove_file(r.dir.join("spool/prepared").join(format!("{name}.eml")));
        }
        let _ = fs::remove_dir_all(&dir);
        return Err(e);
    }
    for s in &starts {
        start::release(r, s)?;
    }
    spool::release(r, &format!("tournament-{}-welcome-", t.record.name))?;
    Ok(Made {
        letters: starts.iter().map(|s| s.letters.len()).sum::<usize>() + welcomes.len(),
        record: t.record,
    })
}

/// The welcome letter of player `n`: every game, its round, colour,
/// opponent, and the game's reply address and subject for this player
/// alone (another player's token is never in it).
fn welcome_text(
    r: &Referee,
    record: &Record,
    starts: &[Start],
    n: usize,
    now: DateTime<Utc>,
) -> String {
    let seat = record.seat(n);
    let mine: Vec<(&Scheduled, &Start)> = record
        .games
        .iter()
        .zip(starts)
        .filter(|(g, _)| g.white == n || g.black == n)
        .collect();
    let mut t = format!(
        "Welcome to the tournament {}, {}: {} players, a {} round robin (FIDE's Berger tables){}.\n\
         You are player {n}, {}. Your {} games start together{}; each has its own\n\
         letters too, the first of them on its way. Reply to a game's letters\n\
         (or write to its address below) from {} to play in it.\n\n",
        record.name,
        record.title,
        record.players.len(),
        if record.double { "double" } else { "single" },
        match &record.time_control {
            Some(tc) => format!(", time control {tc}"),
            None => ", no time control".to_string(),
        },
        seat.name,
        mine.len(),
        if record.start > now {
            format!(
                " (the clocks start at {})",
                crate::game::clock::format_time(record.start)
            )
        } else {
            String::new()
        },
        seat.email,
    );
    for (g, s) in &mine {
        let side = if g.white == n {
            Color::White
        } else {
            Color::Black
        };
        let opp = record.seat(if g.white == n { g.black } else { g.white });
        let p = &s.game.file().players;
        let subject = crate::mail::compose::game_subject(
            &format!(
                "{} v {}",
                p.white.short(Color::White),
                p.black.short(Color::Black)
            ),
            &record.title,
            &s.gid,
        );
        t.push_str(&format!(
            "Round {}: {side} against {} <{}>\n  game {}, subject \"{subject}\"\n  your reply address: {}\n",
            g.round,
            opp.name,
            opp.email,
            s.gid,
            letter::reply_address(r, &s.gid, &s.game, side),
        ));
    }
    let byes: Vec<u32> = (1..=record.rounds())
        .filter(|round| !mine.iter().any(|(g, _)| g.round == *round))
        .collect();
    if !byes.is_empty() {
        t.push_str(&format!(
            "\nYou have a bye (no game) in round {}.\n",
            byes.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    t
}

/// The standing, for a letter: the text cross-table under a heading.
fn standing_text(table: &table::Table) -> String {
    format!(
        "The tournament {} now:\n\n{}",
        table.name,
        report::text(table)
    )
}

/// When `game` (the game `gid`, about to be saved with the result just
/// recorded) belongs to a tournament: the standing is added to its
/// players' `letters`, and with `standings = "on-result"` every other
/// player of the tournament gets a letter with the cross-table, prepared
/// under `stem` (so released with the game's letters). A tournament that
/// cannot be read changes nothing: the game's own letters go as they are.
pub fn on_result(
    r: &Referee,
    gid: &str,
    game: &Game,
    letters: &mut [Letter],
    stem: &str,
    now: DateTime<Utc>,
) -> Result<(), RefereeError> {
    if game.result().is_none() {
        return Ok(());
    }
    let Some((name, _)) = of_game(game) else {
        return Ok(());
    };
    let Ok(t) = Tournament::open(r, &name) else {
        return Ok(());
    };
    let (index, _) = super::index::refresh(r)?;
    let ending = game.result().map(|e| e.result.clone()).unwrap_or_default();
    let table = table::Table::compute(&t, |id| {
        if id == gid {
            Some(table::result_of(&ending))
        } else {
            index
                .games
                .get(id)
                .and_then(|row| row.result.as_deref().map(table::result_of))
        }
    });
    let text = standing_text(&table);
    for l in letters.iter_mut() {
        l.text.push_str(&format!("\n{text}"));
    }
    // A withdrawal's forfeits are told at once, by the withdrawal.
    if t.settings.standings != Standings::OnResult || t.record.forfeited(gid) {
        return Ok(());
    }
    let Some(g) = t.record.games.iter().find(|g| g.id == gid) else {
        return Ok(());
    };
    let p = &game.file().players;
    let subject = format!(
        "[postal] Tournament {}: {} v {}, {}",
        t.record.name,
        p.white.short(Color::White),
        p.black.short(Color::Black),
        ending
    );
    for n in 1..=t.record.players.len() {
        if n == g.white || n == g.black || t.record.withdrawal(n).is_some() {
            continue;
        }
        let seat = t.record.seat(n);
        let body = format!(
            "A game of the tournament {} has ended: {} v {}, {}.\n\n{text}",
            t.record.name,
            p.white.short(Color::White),
            p.black.short(Color::Black),
            game.result().map(|e| e.to_string()).unwrap_or_default(),
        );
        let name = format!("{stem}-t{n}");
        let bytes = letter::compose_circular(
            r,
            &format!("{} <{}>", seat.name, seat.email),
            &subject,
            &name,
            &body,
            now,
        )
        .map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::prepare(r, &name, &bytes)?;
    }
    Ok(())
}

/// What a withdrawal did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Withdrawn {
    pub name: String,
    /// The games lost by forfeit now.
    pub forfeited: Vec<String>,
    /// Their opponents, by name.
    pub opponents: Vec<String>,
}

/// Withdraws the player `address` from the tournament `name`, as ICCF
/// scores it: every unfinished game of theirs is lost by forfeit (the
/// referee's adjudication, mailed to both players of each), the
/// withdrawal written first, so that a withdrawal cut off part-way is
/// finished by running it again. Every other player is told, with the
/// standing.
pub fn withdraw(
    r: &Referee,
    name: &str,
    address: &str,
    now: DateTime<Utc>,
) -> Result<Withdrawn, RefereeError> {
    let mut t = Tournament::open(r, name)?;
    let address = address
        .rfind('<')
        .map(|i| address[i + 1..].trim_end_matches('>'))
        .unwrap_or(address)
        .trim();
    let n = t.record.seat_of(address).ok_or_else(|| {
        config(format!(
            "{address} is not a player of the tournament {name}"
        ))
    })?;
    let (index, _) = super::index::refresh(r)?;
    let unfinished: Vec<String> = t
        .record
        .games
        .iter()
        .filter(|g| g.white == n || g.black == n)
        .filter(|g| {
            index
                .games
                .get(&g.id)
                .is_none_or(|row| row.result.is_none())
        })
        .map(|g| g.id.clone())
        .collect();
    match t.record.withdrawn.iter_mut().find(|w| w.player == n) {
        Some(w) => {
            for gid in &unfinished {
                if !w.forfeited.contains(gid) {
                    w.forfeited.push(gid.clone());
                }
            }
        }
        None => t.record.withdrawn.push(Withdrawal {
            player: n,
            time: now,
            forfeited: unfinished.clone(),
        }),
    }
    t.save(r)?;
    let seat = t.record.seat(n).clone();
    for gid in &unfinished {
        let g = t
            .record
            .games
            .iter()
            .find(|g| &g.id == gid)
            .expect("listed");
        let result = if g.white == n { "0-1" } else { "1-0" };
        operator::decide(
            r,
            gid,
            &Decision::Adjudicate {
                result: result.to_string(),
                reason: format!(
                    "{} withdrew from the tournament {}: the game is lost by forfeit",
                    seat.name, t.record.name
                ),
            },
            now,
        )?;
    }
    let table = t.table(r)?;
    let text = standing_text(&table);
    for m in 1..=t.record.players.len() {
        if m == n {
            continue;
        }
        let other = t.record.seat(m);
        let lname = format!("tournament-{}-withdraw-{n}-{m}", t.record.name);
        let body = format!(
            "{} has withdrawn from the tournament {}. As ICCF scores a withdrawal,\n\
             each of their unfinished games is lost by forfeit (+/- in the table).\n\n{text}",
            seat.name, t.record.name
        );
        let bytes = letter::compose_circular(
            r,
            &format!("{} <{}>", other.name, other.email),
            &format!(
                "[postal] Tournament {}: {} withdraws",
                t.record.name, seat.name
            ),
            &lname,
            &body,
            now,
        )
        .map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::put(r, &lname, &bytes)?;
    }
    let opponents = unfinished
        .iter()
        .filter_map(|gid| t.record.games.iter().find(|g| &g.id == gid))
        .map(|g| {
            t.record
                .seat(if g.white == n { g.black } else { g.white })
                .name
                .clone()
        })
        .collect();
    Ok(Withdrawn {
        name: seat.name,
        forfeited: unfinished,
        opponents,
    })
}

/// With `standings = "weekly"`: the cross-table to every player of each
/// tournament going on, once in each ISO week (the letters' names carry
/// the week, so a sweep run twice sends them once). The letters sent.
pub fn weekly(r: &Referee, now: DateTime<Utc>) -> Result<usize, RefereeError> {
    use chrono::Datelike;
    let week = now.iso_week();
    let mut sent = 0;
    for name in Tournament::names(r) {
        let Ok(t) = Tournament::open(r, &name) else {
            continue;
        };
        if t.settings.standings != Standings::Weekly {
            continue;
        }
        let table = t.table(r)?;
        if table.finished() {
            continue;
        }
        let text = standing_text(&table);
        for n in 1..=t.record.players.len() {
            if t.record.withdrawal(n).is_some() {
                continue;
            }
            let lname = format!(
                "tournament-{name}-week-{}w{:02}-{n}",
                week.year(),
                week.week()
            );
            if spool::exists(r, &lname) {
                continue;
            }
            let seat = t.record.seat(n);
            let bytes = letter::compose_circular(
                r,
                &format!("{} <{}>", seat.name, seat.email),
                &format!("[postal] Tournament {name}: the standing this week"),
                &lname,
                &text,
                now,
            )
            .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::put(r, &lname, &bytes)?;
            sent += 1;
        }
    }
    Ok(sent)
}
