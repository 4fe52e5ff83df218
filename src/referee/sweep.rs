//! `postal referee sweep`: for every game going on, a reminder to the side
//! to move when its deadline is near (`reminder_hours` before, once per
//! position), and a time forfeit once it has passed (with `auto_forfeit`;
//! else the opponent is told it may `claim`). The index finds the games
//! whose deadline is near or past; only those files are opened. A forfeit
//! is applied as a mail act is: letters prepared, the game saved, letters
//! released, with a fixed `via` so that a sweep run twice forfeits once.

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
                format_time(deadline),
                letter::standing(&game, turn)
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
            let mut game = load_game(&path)?;
            let via = hash16(format!("forfeit {gid} {} {}", row.plies, row.epoch).as_bytes());
            if game.has_via(&via) {
                spool::release(r, &via)?;
                continue;
            }
            if game.result().is_some() || game.turn() != turn || epoch(&game) != row.epoch {
                continue;
            }
            let (moves, events) = (game.moves().len(), game.events().len());
            let first_act = game.last_act() + 1;
            let ending = match game.claim(Some(Claim::Time), Some(!turn), now) {
                Ok(e) => e,
                Err(_) => continue,
            };
            game.mark_via(moves, events, &via);
            let said = vec![format!(
                "the referee records a time forfeit: game over: {ending}"
            )];
            let letters = letter::after_acts(&game, !turn, &said, "", &via, None, now);
            for l in &letters {
                let bytes = letter::compose(r, gid, &game, l)
                    .map_err(|e| RefereeError::Io(e.to_string()))?;
                spool::prepare(r, &l.name, &bytes)?;
            }
            for l in &letters {
                letter::record(r, gid, &mut game, l, first_act);
            }
            write_game(&path, game.to_json().as_bytes())?;
            spool::release(r, &via)?;
            out.forfeits.push(gid.clone());
        }
    }
    Ok(out)
}
