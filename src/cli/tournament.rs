//! `postal referee tournament new|table|withdraw DIR NAME`: round robins
//! of referee games (src/referee/tournament.rs).

use super::game::clock;
use super::{emit, start_position, CliError};
use crate::game::TimeControl;
use crate::referee::letter::count;
use crate::referee::tournament::{self, players, report, Plan, Tournament};
use crate::referee::{spool, Referee};
use chrono::{DateTime, NaiveDate, Utc};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Tournaments: round robins whose games the referee runs.
#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// Start a round robin: FIDE's Berger pairings (a bye for an odd
    /// number), every game started at once as an ordinary referee game,
    /// each player mailed one letter with all their games and each
    /// game's first letter. All the games are made, or none.
    #[command(
        after_help = "The players file has one player a line, \"Name <address>\", in seeding \
order (the first is number 1 of the Berger tables); `#` starts a comment. The tournament's \
settings are in DIR/tournaments/NAME/settings.toml: `tiebreaks = [\"sonneborn-berger\", \
\"wins\", \"direct-encounter\"]` (also \"koya\"), `standings = \"on-result\"` (or \"weekly\", \
\"never\": who besides a game's players gets the cross-table when it ends)."
    )]
    New {
        /// The referee folder (`postal referee init`).
        dir: PathBuf,
        /// The tournament's name: letters, digits, - and _.
        name: String,
        // Help text, not rustdoc: `<address>` is not HTML.
        #[allow(rustdoc::invalid_html_tags)]
        /// The players, one a line: "Name <address>".
        #[arg(long, value_name = "FILE")]
        players: PathBuf,
        /// The variant of every game (see `postal variants`; a variant of
        /// the folder's variants.ini too).
        #[arg(long, value_name = "VARIANT")]
        variant: String,
        /// The time control of every game, as `postal new` takes it
        /// ("3d", "10/50d", "30d+1d/45d").
        #[arg(long, value_name = "SPEC")]
        time_control: Option<String>,
        /// Each pair plays twice, the colours reversed in the second cycle.
        #[arg(long)]
        double: bool,
        /// The day the clocks start (YYYY-MM-DD, today or later; default: now).
        #[arg(long, value_name = "DATE")]
        start: Option<String>,
        /// Variants defined in this variants.ini file (default:
        /// $POSTAL_VARIANTS, else the folder's `variants`).
        #[arg(long, value_name = "FILE")]
        variants: Option<PathBuf>,
    },
    /// The cross-table: each player's results against each opponent (1,
    /// =, 0, +/- for a forfeit, blank for a game going on), score, games
    /// played, wins, Sonneborn-Berger and rank.
    Table {
        dir: PathBuf,
        name: String,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Withdraw a player, as ICCF scores it: every unfinished game of
    /// theirs is lost by forfeit (+/-), both players of each told, and
    /// every other player told with the standing.
    Withdraw {
        dir: PathBuf,
        name: String,
        /// The player's address.
        address: String,
    },
}

/// The forms of the cross-table.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Html,
    /// FIDE's Tournament Report File (TRF-16).
    Trf,
}

fn open(dir: &Path) -> Result<Referee, CliError> {
    crate::referee::folder::private_umask();
    Referee::open(dir).map_err(|e| CliError::usage(e.to_string()))
}

fn referee_error(e: crate::referee::RefereeError) -> CliError {
    CliError::usage(e.to_string())
}

/// When the clocks start: now, or midnight (UTC) of a later day.
fn start_time(text: Option<&str>, now: DateTime<Utc>) -> Result<DateTime<Utc>, CliError> {
    let Some(text) = text else { return Ok(now) };
    let day = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|e| CliError::usage(format!("--start {text:?}: {e} (write YYYY-MM-DD)")))?;
    let today = now.date_naive();
    if day < today {
        return Err(CliError::usage(format!(
            "--start {text}: the day has passed (today is {today})"
        )));
    }
    if day == today {
        return Ok(now);
    }
    Ok(day.and_hms_opt(0, 0, 0).expect("midnight").and_utc())
}

/// Reads the players file, its errors with their line and a caret.
fn read_players(path: &Path) -> Result<Vec<players::Entry>, CliError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut bytes))
        .map_err(|e| CliError::io(&shown, e))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::usage(format!("{shown}: not UTF-8 text")))?;
    players::read(&text).map_err(|e| match e.span {
        Some(span) => CliError::in_text(&shown, &text, span, &e.message, 2),
        None => CliError::usage(format!("{shown}: {}", e.message)),
    })
}

pub fn run(sub: Sub, out: &mut dyn Write) -> Result<(), CliError> {
    match sub {
        Sub::New {
            dir,
            name,
            players,
            variant,
            time_control,
            double,
            start,
            variants,
        } => {
            let r = open(&dir)?;
            let now = clock()?.now();
            let entries = read_players(&players)?;
            let v = super::new::variant_for(variants.as_deref(), Some(&r), &variant)?;
            let time_control = time_control
                .as_deref()
                .map(TimeControl::parse)
                .transpose()
                .map_err(CliError::usage)?;
            let plan = Plan {
                name,
                players: entries,
                start_position: start_position(v, None, None)?,
                time_control,
                double,
                start: start_time(start.as_deref(), now)?,
            };
            let made = tournament::make(&r, &plan, now).map_err(referee_error)?;
            // The games' ids are listed by `referee games DIR`.
            let rec = &made.record;
            let mut text = format!(
                "Tournament {} made in {}: {} players, {} in {} rounds ({})\n",
                rec.name,
                tournament::folder(&r, &rec.name).display(),
                rec.players.len(),
                count(rec.games.len(), "game"),
                rec.rounds(),
                rec.title
            );
            for round in 1..=rec.rounds() {
                let games: Vec<String> = rec
                    .games
                    .iter()
                    .filter(|g| g.round == round)
                    .map(|g| format!("{} v {}", rec.seat(g.white).name, rec.seat(g.black).name))
                    .collect();
                let bye: Vec<String> = (1..=rec.players.len())
                    .filter(|&n| {
                        !rec.games
                            .iter()
                            .any(|g| g.round == round && (g.white == n || g.black == n))
                    })
                    .map(|n| format!("; {} has a bye", rec.seat(n).name))
                    .collect();
                text.push_str(&format!(
                    "Round {round}: {}{}\n",
                    games.join(", "),
                    bye.concat()
                ));
            }
            match spool::drain(&r) {
                Ok(sent) => text.push_str(&format!("sent {}\n", count(sent.len(), "letter"))),
                Err(e) => text.push_str(&format!("Not sent yet (left in the spool): {e}\n")),
            }
            emit(out, &text)
        }
        Sub::Table { dir, name, format } => {
            let r = open(&dir)?;
            let t = Tournament::open(&r, &name).map_err(referee_error)?;
            let table = t.table(&r).map_err(referee_error)?;
            let text = match format {
                Format::Text => report::text(&table),
                Format::Json => {
                    let mut s = serde_json::to_string_pretty(&report::json(&table))
                        .map_err(|e| CliError::usage(e.to_string()))?;
                    s.push('\n');
                    s
                }
                Format::Html => report::html(&table, |gid| format!("../games/{gid}.html")),
                Format::Trf => report::trf(&table),
            };
            emit(out, &text)
        }
        Sub::Withdraw { dir, name, address } => {
            let r = open(&dir)?;
            let now = clock()?.now();
            let w = tournament::withdraw(&r, &name, &address, now).map_err(referee_error)?;
            let sent = spool::drain(&r).map(|s| s.len()).unwrap_or(0);
            emit(
                out,
                &format!(
                    "{} withdrawn from {name}: {} lost by forfeit{}\nsent {}\n",
                    w.name,
                    count(w.forfeited.len(), "game"),
                    if w.opponents.is_empty() {
                        String::new()
                    } else {
                        format!(" (against {})", w.opponents.join(", "))
                    },
                    count(sent, "letter")
                ),
            )
        }
    }
}
