//! One message, from arrival to answer (design §3.8), exactly once:
//!
//! 1. Read it (ignored when over 1 MB or not a message) and drop what must
//!    never be answered (auto-replies, lists, bounces, the referee's own).
//! 2. Its key is a hash of its Message-ID (of its bytes when it has none).
//!    `seen/KEY` means it was answered already.
//! 3. Route it: a token in a recipient address, else `In-Reply-To` or
//!    `References` naming a game (which routes but never authenticates).
//! 4. Under the game's lock (30 s, else "busy": deliver again later): an act
//!    in the game carrying `via = KEY` means it was applied already; its
//!    letters are released again and nothing else happens.
//! 5. Check the sender: a token valid for the current ply and take-back
//!    epoch, and a `From` that is the side's registered address. A token
//!    valid for an older notice is *stale* and answered with the current
//!    position; a token that is not valid is not answered. A right token
//!    from another address, or a message routed only by its thread, is
//!    held in `held/` and the side's registered address (never the
//!    `From`) is asked to confirm it.
//! 6. Apply the commands to a copy of the game (all or none); a refusal is
//!    answered with what was read and why, and the game is not touched.
//! 7. Write the letters to `spool/prepared/`, save the game (the commit),
//!    release the letters into `spool/`. Answers that change no game go
//!    straight to `spool/`, then `seen/KEY` is written.
//!
//! The caller acknowledges the message (exit 0, or a Maildir rename) only
//! after this returns `Ok`; an `Err` means deliver it again later.

use super::command::{self, Command};
use super::extract::{self};
use super::folder::{load_game, lock_game};
use super::inbound::{self, Inbound, MAX_SIZE};
use super::letter::{self, epoch, Letter};
use super::token::{self, Address};
use super::{hash16, spool, Referee, RefereeError};
use crate::color::Color;
use crate::game::store::{write_atomic, write_game};
use crate::game::Game;
use chrono::{DateTime, Utc};
use std::fs;
use std::path::Path;
use std::time::Duration;

/// What became of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its acts were applied and the notices spooled.
    Applied { gid: String, said: Vec<String> },
    /// It changed nothing and was answered (refused, stale, show, help).
    Answered { gid: String, why: String },
    /// It is held until the player confirms it.
    Held { gid: String },
    /// It was already handled.
    Duplicate { gid: Option<String> },
    /// It is not answered at all.
    Ignored { why: String },
}

impl Outcome {
    pub fn describe(&self) -> String {
        match self {
            Outcome::Applied { gid, said } => format!("{gid}: applied: {}", said.join("; ")),
            Outcome::Answered { gid, why } => format!("{gid}: answered: {why}"),
            Outcome::Held { gid } => format!("{gid}: held for confirmation"),
            Outcome::Duplicate { gid } => {
                format!("{}: already handled", gid.as_deref().unwrap_or("-"))
            }
            Outcome::Ignored { why } => format!("ignored: {why}"),
        }
    }
}

/// How long to wait for a game's lock before giving up for now.
const LOCK_WAIT: Duration = Duration::from_secs(30);

/// A test hook: `POSTAL_TEST_FAIL_AT=after-prepare|after-commit|after-spool`
/// stops there as a crash would (the caller exits 75).
fn fail_at(point: &str) -> Result<(), RefereeError> {
    match std::env::var("POSTAL_TEST_FAIL_AT") {
        Ok(p) if p == point => Err(RefereeError::Io(format!("stopped {point} (test)"))),
        _ => Ok(()),
    }
}

/// Processes one message received at `now`.
pub fn receive(r: &Referee, raw: &[u8], now: DateTime<Utc>) -> Result<Outcome, RefereeError> {
    let (key, outcome) = process(r, raw, now)?;
    r.log(
        now,
        &serde_json::json!({
            "time": crate::game::clock::format_time(now),
            "key": key,
            "outcome": outcome.describe(),
        }),
    );
    Ok(outcome)
}

fn ignored(why: impl Into<String>) -> Outcome {
    Outcome::Ignored { why: why.into() }
}

fn process(r: &Referee, raw: &[u8], now: DateTime<Utc>) -> Result<(String, Outcome), RefereeError> {
    if raw.len() > MAX_SIZE {
        return Ok((hash16(raw), ignored("larger than 1 MB")));
    }
    let Some(msg) = inbound::parse(raw) else {
        return Ok((hash16(raw), ignored("not a mail message")));
    };
    let key = match &msg.message_id {
        Some(id) => hash16(id.as_bytes()),
        None => hash16(raw),
    };
    if let Some(why) = &msg.never_answer {
        return Ok((key, ignored(why.clone())));
    }
    let own = format!("{}@{}", r.local, r.domain).to_lowercase();
    if msg.from.as_deref() == Some(own.as_str()) {
        return Ok((key, ignored("from the referee itself")));
    }
    if r.dir.join("seen").join(&key).exists() {
        return Ok((key, Outcome::Duplicate { gid: None }));
    }
    let route = msg
        .recipients
        .iter()
        .find_map(|a| token::parse(a, &r.local, &r.settings.tag, &r.domain));
    let route = match route {
        Some(a) => a,
        None => match msg
            .parents
            .iter()
            .find_map(|p| letter::gid_of_message_id(r, p))
        {
            Some(gid) => Address::Game { gid },
            None => return Ok((key, ignored("not addressed to a game"))),
        },
    };
    let routed_by_thread = !msg
        .recipients
        .iter()
        .any(|a| token::parse(a, &r.local, &r.settings.tag, &r.domain).is_some());
    let gid = route.gid().to_string();
    let path = r.game_path(&gid);
    if !path.exists() {
        return Ok((key, ignored(format!("no game {gid}"))));
    }
    let _lock = lock_game(&path, LOCK_WAIT)?;
    let game = load_game(&path)?;
    if game.has_via(&key) {
        spool::release(r, &key)?;
        return Ok((key, Outcome::Duplicate { gid: Some(gid) }));
    }
    let ctx = Ctx {
        r,
        gid: gid.clone(),
        path: &path,
        msg: &msg,
        raw,
        key: key.clone(),
        now,
    };
    let outcome = match route {
        Address::Reply { side, ply, mac, .. } if !routed_by_thread => {
            ctx.reply(game, side, ply, &mac)?
        }
        Address::Confirm {
            side,
            ply,
            held,
            mac,
            ..
        } => ctx.confirm(game, side, ply, &held, &mac)?,
        _ => {
            let Some(side) = ctx.side_of_from(&game) else {
                return Ok((key, ignored("not from a player of the game")));
            };
            if routed_by_thread {
                ctx.hold(&game, side, "it came without a reply token")?
            } else {
                ctx.bare(&game, side)?
            }
        }
    };
    Ok((key, outcome))
}

struct Ctx<'a> {
    r: &'a Referee,
    gid: String,
    path: &'a Path,
    msg: &'a Inbound,
    raw: &'a [u8],
    key: String,
    now: DateTime<Utc>,
}

impl Ctx<'_> {
    fn registered(&self, game: &Game, side: Color) -> Option<String> {
        game.file()
            .players
            .get(side)
            .email
            .as_ref()
            .map(|e| e.to_lowercase())
    }

    fn side_of_from(&self, game: &Game) -> Option<Color> {
        let from = self.msg.from.as_deref()?;
        [Color::White, Color::Black]
            .into_iter()
            .find(|s| self.registered(game, *s).as_deref() == Some(from))
    }

    /// Spools an answer to the side's registered address (rate-limited),
    /// then marks the message seen.
    fn answer(
        &self,
        game: &Game,
        side: Color,
        text: String,
        reply_to: Option<String>,
    ) -> Result<(), RefereeError> {
        let to = letter::mailbox_of(game, side);
        let addr = self.registered(game, side).unwrap_or_default();
        if within_rate(self.r, &addr, self.now)? {
            let l = Letter {
                name: format!("answer-{}", self.key),
                to,
                side,
                in_reply_to: self.msg.message_id.clone(),
                replied: true,
                text,
                reply_to,
                date: self.now,
            };
            let bytes = letter::compose(self.r, &self.gid, game, &l)
                .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::put(self.r, &l.name, &bytes)?;
        }
        fail_at("after-spool")?;
        let seen = self.r.dir.join("seen").join(&self.key);
        fs::write(&seen, b"").map_err(|e| RefereeError::io(seen.display(), e))?;
        Ok(())
    }

    fn answered(
        &self,
        game: &Game,
        side: Color,
        why: &str,
        text: String,
    ) -> Result<Outcome, RefereeError> {
        self.answer(game, side, text, None)?;
        Ok(Outcome::Answered {
            gid: self.gid.clone(),
            why: why.to_string(),
        })
    }

    fn reply(
        &self,
        game: Game,
        side: Color,
        ply: usize,
        mac: &str,
    ) -> Result<Outcome, RefereeError> {
        let key = self.r.key();
        let cur = epoch(&game);
        let epoch_of = (0..=cur)
            .rev()
            .find(|e| token::same_mac(mac, &token::reply_mac(key, &self.gid, side, ply, *e)));
        let Some(e) = epoch_of else {
            return Ok(ignored("a reply token that is not valid"));
        };
        if e != cur || ply != game.moves().len() {
            let why = if e != cur {
                "your message answers a notice from before a take-back".to_string()
            } else {
                format!(
                    "your message answers an old notice (at {ply} moves); the game is at {} moves: answer the latest notice",
                    game.moves().len()
                )
            };
            let text = letter::refusal(
                &game,
                side,
                &why,
                &extract::extract(&self.msg.text).commands,
            );
            return self.answered(&game, side, "stale", text);
        }
        if self.msg.from != self.registered(&game, side) {
            let why = format!(
                "it came from {}, not from your address",
                self.msg.from.as_deref().unwrap_or("nobody")
            );
            return self.hold(&game, side, &why);
        }
        let via = self.key.clone();
        self.act(game, side, &self.msg.text, &via)
    }

    fn confirm(
        &self,
        game: Game,
        side: Color,
        ply: usize,
        held: &str,
        mac: &str,
    ) -> Result<Outcome, RefereeError> {
        let good = token::same_mac(
            mac,
            &token::confirm_mac(self.r.key(), &self.gid, side, ply, epoch(&game), held),
        );
        if !good || self.msg.from != self.registered(&game, side) {
            return Ok(ignored(
                "a confirmation that is not valid or not from the player",
            ));
        }
        if game.has_via(held) {
            return Ok(Outcome::Duplicate {
                gid: Some(self.gid.clone()),
            });
        }
        if ply != game.moves().len() {
            let text = letter::refusal(
                &game,
                side,
                "the game has moved on since the message was held; it was not played",
                &[],
            );
            return self.answered(&game, side, "stale confirmation", text);
        }
        let held_path = self.r.dir.join("held").join(format!("{held}.eml"));
        let Some(original) = fs::read(&held_path).ok().and_then(|b| inbound::parse(&b)) else {
            return Ok(ignored("the held message is gone"));
        };
        let out = self.act(game, side, &original.text, held)?;
        let _ = fs::remove_file(&held_path);
        Ok(out)
    }

    /// The bare game address: `show` and `help` only.
    fn bare(&self, game: &Game, side: Color) -> Result<Outcome, RefereeError> {
        let reply = extract::extract(&self.msg.text);
        let cmds = command::parse_block(&reply.commands).unwrap_or_default();
        let text = match cmds.as_slice() {
            [Command::Help] => letter::help(),
            _ => letter::standing(game, side),
        };
        self.answered(game, side, "show", text)
    }

    fn hold(&self, game: &Game, side: Color, why: &str) -> Result<Outcome, RefereeError> {
        let held = self.r.dir.join("held").join(format!("{}.eml", self.key));
        write_atomic(&held, self.raw).map_err(|e| RefereeError::io(held.display(), e))?;
        let read = extract::extract(&self.msg.text).commands;
        let mut text = format!(
            "postal received a message for this game that it did not play, because {why}.\nIt reads:\n\n"
        );
        for l in &read {
            text.push_str(&format!("> {l}\n"));
        }
        text.push_str(
            "\nTo play it, reply to this message (with anything). To drop it, do nothing.\n\n",
        );
        text.push_str(&letter::standing(game, side));
        let confirm = token::confirm_address(
            self.r.key(),
            &self.r.local,
            &self.r.settings.tag,
            &self.r.domain,
            &self.gid,
            side,
            game.moves().len(),
            epoch(game),
            &self.key,
        );
        self.answer(game, side, text, Some(confirm))?;
        Ok(Outcome::Held {
            gid: self.gid.clone(),
        })
    }

    /// Reads and applies a message's commands for `side`, recording `via`.
    fn act(
        &self,
        mut game: Game,
        side: Color,
        text: &str,
        via: &str,
    ) -> Result<Outcome, RefereeError> {
        let reply = extract::extract(text);
        let cmds = match command::parse_block(&reply.commands) {
            Ok(c) => c,
            Err(why) => {
                let text = letter::refusal(&game, side, &why, &reply.commands);
                return self.answered(&game, side, &why, text);
            }
        };
        match cmds.as_slice() {
            [Command::Show] => {
                return self.answered(&game, side, "show", letter::standing(&game, side))
            }
            [Command::Help] => return self.answered(&game, side, "help", letter::help()),
            _ => {}
        }
        let (moves, events) = (game.moves().len(), game.events().len());
        let first_act = game.last_act() + 1;
        let comment = (!reply.comment.is_empty()).then(|| reply.comment.clone());
        let said = match command::apply(&mut game, side, &cmds, comment, self.now) {
            Ok(s) => s,
            Err(e) => {
                let why = e.to_string();
                let text = letter::refusal(&game, side, &why, &reply.commands);
                return self.answered(&game, side, &why, text);
            }
        };
        game.mark_via(moves, events, via);
        let letters = letter::after_acts(
            &game,
            side,
            &said,
            &reply.comment,
            via,
            self.msg.message_id.as_deref(),
            self.now,
        );
        for l in &letters {
            let bytes = letter::compose(self.r, &self.gid, &game, l)
                .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::prepare(self.r, &l.name, &bytes)?;
        }
        for l in &letters {
            letter::record(self.r, &self.gid, &mut game, l, first_act);
        }
        fail_at("after-prepare")?;
        write_game(self.path, game.to_json().as_bytes())?;
        fail_at("after-commit")?;
        spool::release(self.r, via)?;
        Ok(Outcome::Applied {
            gid: self.gid.clone(),
            said,
        })
    }
}

/// Whether one more answer may go to `addr` this hour (and counts it).
fn within_rate(r: &Referee, addr: &str, now: DateTime<Utc>) -> Result<bool, RefereeError> {
    let path = r.dir.join("rate").join(hash16(addr.as_bytes()));
    let t = now.timestamp();
    let mut recent: Vec<i64> = fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .filter(|x| *x > t - 3600)
        .collect();
    if recent.len() >= r.settings.answers_per_hour as usize {
        return Ok(false);
    }
    recent.push(t);
    let text: String = recent.iter().map(|x| format!("{x}\n")).collect();
    write_atomic(&path, text.as_bytes()).map_err(|e| RefereeError::io(path.display(), e))?;
    Ok(true)
}
