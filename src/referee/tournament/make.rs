//! Making a tournament, all games or none: every game prepared first
//! (nothing written), then the games, their first letters, each player's
//! welcome letter and the tournament's files written; a failure part-way
//! removes all that was written.

use super::{
    berger, config, folder, is_name, players, Record, Scheduled, Seat, Settings, Tournament,
};
use super::{EXTENSION, FORMAT, SETTINGS};
use crate::color::Color;
use crate::game::state::Players;
use crate::game::{Game, Player, TimeControl};
use crate::position::Position;
use crate::referee::letter;
use crate::referee::start::{self, Start};
use crate::referee::{spool, Referee, RefereeError};
use chrono::{DateTime, Utc};
use std::fs;

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
    // Released by name: listing the prepared letters once a game would
    // cost the square of the games.
    let names: Vec<&str> = starts
        .iter()
        .flat_map(|s| s.letters.iter().map(|(l, _)| l.name.as_str()))
        .chain(welcomes.iter().map(|(n, _)| n.as_str()))
        .collect();
    spool::release_named(r, &names)?;
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
