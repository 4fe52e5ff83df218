//! Starting a game under the referee, the one way `postal new --referee`,
//! `referee adopt` and `referee tournament new` take: the game's first
//! letters composed and recorded in it ([`prepare`], which writes
//! nothing, so that a tournament prepares all its games before writing
//! any), then the letters put in `spool/prepared/` and the game written
//! ([`write()`], the commit; undone by [`unwrite`]), then the letters
//! released into `spool/` ([`release`]).

use super::letter::{self, Letter};
use super::{spool, token, Referee, RefereeError};
use crate::color::Color;
use crate::game::Game;
use chrono::{DateTime, Utc};
use std::fs;

/// A game ready to be registered: its id, the game with its first
/// letters recorded, and those letters, composed.
#[derive(Clone, Debug)]
pub struct Start {
    pub gid: String,
    pub game: Game,
    pub letters: Vec<(Letter, Vec<u8>)>,
}

/// Checks that `game` can be registered (both players with an address,
/// an id fit for a reply address) and composes its first letters, one to
/// each player. Nothing is written.
pub fn prepare(r: &Referee, game: &Game, now: DateTime<Utc>) -> Result<Start, RefereeError> {
    for side in [Color::White, Color::Black] {
        if game.file().players.get(side).email.is_none() {
            return Err(RefereeError::Config(format!(
                "{side} has no mail address: a refereed game needs both (--{} \"Name <address>\")",
                side.name().to_lowercase()
            )));
        }
    }
    let gid = game.id().to_lowercase();
    if !token::is_gid(&gid) {
        return Err(RefereeError::Config(format!(
            "the game id {gid:?} cannot be put in a reply address (6 to 16 letters and digits)"
        )));
    }
    let letters = letter::openings(r, game, &gid, now);
    let mut composed = Vec::new();
    for l in letters {
        let bytes = letter::compose(r, &gid, game, &l)
            .map_err(|e| RefereeError::Config(format!("game {gid}: {e}")))?;
        composed.push((l, bytes));
    }
    let mut game = game.clone();
    for (l, _) in &composed {
        letter::record(r, &gid, &mut game, l, 0);
    }
    Ok(Start {
        gid,
        game,
        letters: composed,
    })
}

/// Writes the first letters into `spool/prepared/`, then the game
/// (refused when its id is taken). On an error, what it wrote is removed.
pub fn write(r: &Referee, s: &Start) -> Result<(), RefereeError> {
    let written = (|| {
        for (l, bytes) in &s.letters {
            spool::prepare(r, &l.name, bytes)?;
        }
        r.add_game(&s.game).map(|_| ())
    })();
    if written.is_err() {
        remove_prepared(r, s);
    }
    written
}

fn remove_prepared(r: &Referee, s: &Start) {
    for (l, _) in &s.letters {
        let _ = fs::remove_file(r.dir.join("spool/prepared").join(format!("{}.eml", l.name)));
    }
}

/// Undoes [`write()`]: the game file and its prepared letters removed (a
/// tournament whose writing failed part-way leaves no game behind).
pub fn unwrite(r: &Referee, s: &Start) {
    remove_prepared(r, s);
    let path = r.game_path(&s.gid);
    let _ = fs::remove_file(crate::game::store::lock_path(&path));
    let _ = fs::remove_file(path);
}

/// Moves the game's first letters into `spool/`, to be sent.
pub fn release(r: &Referee, s: &Start) -> Result<(), RefereeError> {
    spool::release(r, &format!("{}-new-", s.gid))
}
