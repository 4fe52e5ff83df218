//! The tools of the person who runs the referee (issue 29, point 9):
//! `postal referee adjudicate DIR GAME RESULT --reason TEXT`, `extend DIR
//! GAME --by DURATION` and `abort DIR GAME --reason TEXT`. Each is recorded
//! in the game as an event (`adjudicate`, `extend`, `abort`, with the
//! side to move) and mailed to both players, as a player's act is: the
//! letters prepared, the game saved under its lock, the letters released.
//! (`held DIR --release|--drop` are in src/referee/receive.rs.)

use super::folder::{load_game, lock_game};
use super::letter::{self, Letter};
use super::{hash16, spool, Referee, RefereeError};
use crate::color::Color;
use crate::game::clock::format_time;
use crate::game::store::write_game;
use chrono::{DateTime, Utc};
use std::time::Duration;

/// What the operator does to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Adjudicate { result: String, reason: String },
    Extend { by: String },
    Abort { reason: String },
}

/// Records `decision` in the game `gid` at `now` and spools a letter to
/// each player; what was done, in words.
pub fn decide(
    r: &Referee,
    gid: &str,
    decision: &Decision,
    now: DateTime<Utc>,
) -> Result<String, RefereeError> {
    let gid = gid.to_lowercase();
    let path = r.game_path(&gid);
    if !super::token::is_gid(&gid) || !path.exists() {
        return Err(RefereeError::Config(format!(
            "no game {gid} in {}",
            r.dir.display()
        )));
    }
    let _lock = lock_game(&path, Duration::from_secs(30))?;
    let mut game = load_game(&path)?;
    let first_act = game.last_act() + 1;
    let events = game.events().len();
    let rule = |e: crate::game::GameError| RefereeError::Config(e.to_string());
    let said = match decision {
        Decision::Adjudicate { result, reason } => {
            let end = game.adjudicate(result, reason, now).map_err(rule)?;
            format!("The referee adjudicates this game: {end}.")
        }
        Decision::Abort { reason } => {
            let end = game.abort(reason, now).map_err(rule)?;
            format!("The referee aborts this game, without a result: {end}.")
        }
        Decision::Extend { by } => {
            let side = game.turn();
            let name = game.file().players.get(side).short(side);
            let d = game.extend(by, now).map_err(rule)?;
            format!(
                "The referee gives {name} ({side}) {by} more for this move: the deadline is now {}.",
                letter::deadline_text(d, now)
            )
        }
    };
    let via = hash16(format!("operator {gid} {events} {}", format_time(now)).as_bytes());
    game.mark_via(game.moves().len(), events, &via);
    let mut letters: Vec<Letter> = [Color::White, Color::Black]
        .into_iter()
        .map(|side| {
            let text = format!("{said}\n\n{}", letter::standing(&game, side, now));
            letter::pair_letter(&game, side, text, &via, None, now)
        })
        .collect();
    super::tournament::on_result(r, &gid, &game, &mut letters, &via, now)?;
    for l in &letters {
        let bytes =
            letter::compose(r, &gid, &game, l).map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::prepare(r, &l.name, &bytes)?;
    }
    for l in &letters {
        letter::record(r, &gid, &mut game, l, first_act);
    }
    write_game(&path, game.to_json().as_bytes())?;
    spool::release(r, &via)?;
    r.log(
        now,
        &serde_json::json!({"time": format_time(now), "key": via, "outcome": format!("{gid}: by the operator: {said}")}),
    );
    Ok(said)
}
