//! `postal referee sweep`: for every game going on, a reminder to the side
//! to move when its deadline is near (`reminder_hours` before, once per
//! position), and a time forfeit once it has passed (with `auto_forfeit`,
//! in a game that forfeits: one made with `--no-forfeit` is listed as
//! overdue, for the referee to adjudicate;
//! else the opponent is told it may `claim`). The index finds the games
//! whose deadline is near or past; only those files are opened. A forfeit
//! is applied as a mail act is: letters prepared, the game saved, letters
//! released, with a fixed `via` so that a sweep run twice forfeits once.
//! A message that comes after its deadline records the same forfeit at
//! the door ([`forfeit`], from src/referee/receive.rs). Held messages not
//! confirmed within [`HOLD_DAYS`] are dropped.

use super::folder::{load_game, lock_game};
use super::index::refresh;
use super::letter::{self, epoch, Letter};
use super::{hash16, spool, Referee, RefereeError};
use crate::color::Color;
use crate::game::clock::format_time;
use crate::game::store::write_game;
use crate::game::Claim;
use chrono::{DateTime, Duration, Utc};
use std::time::Duration as StdDuration;

/// What a sweep did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub games: usize,
    pub reminders: Vec<String>,
    pub forfeits: Vec<String>,
    /// Games past their deadline that forfeit nothing (`--no-forfeit`):
    /// for the referee to adjudicate.
    pub overdue: Vec<String>,
    /// Held messages dropped unconfirmed after [`HOLD_DAYS`].
    pub expired: Vec<String>,
    /// Letters with a tournament's weekly standing
    /// (src/referee/tournament.rs, `standings = "weekly"`).
    pub standings: usize,
}

/// How long a held message waits for its player's `confirm`.
pub const HOLD_DAYS: i64 = 7;

/// Records the time forfeit of the side to move in `game` (whose lock the
/// caller holds), its deadline past at `now`: letters prepared, the game
/// saved with the forfeit marked `via`, letters released. `arrived` is
/// when a late message of the loser came. Returns the ending, or `None`
/// when there is no forfeit to record.
pub fn forfeit(
    r: &Referee,
    gid: &str,
    path: &std::path::Path,
    mut game: crate::game::Game,
    via: &str,
    arrived: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<Option<String>, RefereeError> {
    let Some(deadline) = game.deadline().filter(|d| *d < now) else {
        return Ok(None);
    };
    let loser = game.turn();
    let (moves, events) = (game.moves().len(), game.events().len());
    let first_act = game.last_act() + 1;
    let ending = match game.claim(Some(Claim::Time), Some(!loser), now) {
        Ok(e) => e,
        Err(_) => return Ok(None),
    };
    game.mark_via(moves, events, via);
    let mut letters = letter::forfeit_letters(&game, loser, deadline, arrived, via, now);
    super::tournament::on_result(r, gid, &game, &mut letters, via, now)?;
    for l in &letters {
        let bytes =
            letter::compose(r, gid, &game, l).map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::prepare(r, &l.name, &bytes)?;
    }
    for l in &letters {
        letter::record(r, gid, &mut game, l, first_act);
    }
    write_game(path, game.to_json().as_bytes())?;
    spool::release(r, via)?;
    Ok(Some(ending.to_string()))
}

/// Drops the held messages older than [`HOLD_DAYS`]; their keys.
pub fn expire_held(r: &Referee, now: DateTime<Utc>) -> Result<Vec<String>, RefereeError> {
    let mut out = Vec::new();
    for h in super::held::list(r)? {
        if h.received + Duration::days(HOLD_DAYS) < now {
            super::held::remove(r, &h.key)?;
            r.log(
                now,
                &serde_json::json!({
                    "time": format_time(now),
                    "key": h.key,
                    "outcome": format!("{}: held message dropped unconfirmed after {HOLD_DAYS} days", h.gid),
                }),
            );
            out.push(h.key);
        }
    }
    Ok(out)
}

fn side_of(turn: &str) -> Color {
    if turn == "white" {
        Color::White
    } else {
        Color::Black
    }
}

/// Runs one sweep at `now`.
pub fn sweep(r: &Referee, now: DateTime<Utc>) -> Result<Swept, RefereeError> {
    let (index, _) = refresh(r)?;
    let mut out = Swept {
        games: index.games.len(),
        ..Swept::default()
    };
    let ahead = Duration::hours(r.settings.reminder_hours as i64);
    for (gid, row) in &index.games {
        let Some(deadline) = row.deadline else {
            continue;
        };
        if row.result.is_some() || now + ahead < deadline {
            continue;
        }
        let turn = side_of(&row.turn);
        if now <= deadline {
            if r.settings.reminder_hours == 0 {
                continue;
            }
            let name = format!("remind-{gid}-{}-{}", row.plies, row.epoch);
            if spool::exists(r, &name) {
                continue;
            }
            let game = load_game(&r.game_path(gid))?;
            let text = format!(
                "A reminder: your deadline in this game is {}.\n\n{}",
                letter::deadline_text(deadline, now),
                letter::standing(&game, turn, now)
            );
            let l = Letter {
                name: name.clone(),
                to: letter::mailbox_of(&game, turn),
                side: turn,
                in_reply_to: None,
                replied: false,
                text,
                reply_to: None,
                date: now,
            };
            let bytes =
                letter::compose(r, gid, &game, &l).map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::put(r, &name, &bytes)?;
            out.reminders.push(gid.clone());
        } else if r.settings.auto_forfeit {
            let path = r.game_path(gid);
            let _lock = lock_game(&path, StdDuration::from_secs(30))?;
            let game = load_game(&path)?;
            let via = hash16(format!("forfeit {gid} {} {}", row.plies, row.epoch).as_bytes());
            if game.has_via(&via) {
                spool::release(r, &via)?;
                continue;
            }
            if game.result().is_some() || game.turn() != turn || epoch(&game) != row.epoch {
                continue;
            }
            if !game.forfeits() {
                out.overdue.push(gid.clone());
                continue;
            }
            if forfeit(r, gid, &path, game, &via, None, now)?.is_some() {
                out.forfeits.push(gid.clone());
            }
        }
    }
    out.expired = expire_held(r, now)?;
    out.standings = super::tournament::weekly(r, now)?;
    Ok(out)
}
