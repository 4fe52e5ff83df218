//! One message, from arrival to answer (design §3.8), exactly once:
//!
//! 1. Read it (over 1 MB: its text alone, the sender told) and drop what
//!    must never be answered (auto-replies, lists, bounces, the referee's
//!    own). A message that names no game gets one answer on how to play.
//! 2. Its key is a hash of its Message-ID (of its bytes when it has none).
//!    `seen/KEY` means it was answered already.
//! 3. Route it: a token in a recipient address, else `In-Reply-To` or
//!    `References` naming a game (which routes but never authenticates).
//! 4. Under the game's lock (30 s, else "busy": deliver again later): an act
//!    in the game carrying `via = KEY` means it was applied already; its
//!    letters are released again and nothing else happens.
//!    A game whose deadline has passed (with `auto_forfeit`) records the
//!    forfeit first, whatever the message says; a finished game passes a
//!    player's message to the opponent once, as a comment, when it carries
//!    the player's token.
//! 5. Check the sender: a token valid for the current ply and take-back
//!    epoch, a `From` that is the side's registered address, and no
//!    `Authentication-Results` of the receiving server saying the sender is
//!    forged, nor a `From` of more than one mailbox (`dmarc=fail`, or `spf=fail` without a passing DKIM). A token
//!    valid for an older notice is *stale* and answered with the current
//!    position; a token that is not valid is not answered. A right token
//!    from another address or a forged sender, or a message routed only by
//!    its thread (no token, or a damaged one), is held in `held/` and the
//!    side's registered address (never the `From`) is asked to answer
//!    `confirm` (played) or `drop`; any other answer never plays it. Such
//!    requests, and token-less `show` answers, have their own budget.
//! 6. Apply the commands to a copy of the game (all or none; `act.rs`); a
//!    refusal is answered with what was read and why, and the game is not
//!    touched. A comment that would not fit the game file is dropped, an
//!    act that would not fit refused.
//! 7. Write the letters to `spool/prepared/`, save the game (the commit),
//!    release the letters into `spool/`. Answers that change no game go
//!    straight to `spool/`, then `seen/KEY` is written.
//!
//! The caller acknowledges the message (exit 0, or a Maildir rename) only
//! after this returns `Ok`; an `Err` means deliver it again later.

use super::command::{self, Command};
use super::extract::{self};
use super::folder::{load_game, lock_game};
use super::held::{self, Held};
use super::inbound::{self, Inbound, MAX_READ, MAX_SIZE};
use super::letter::{self, epoch, Letter};
use super::sweep::{self, HOLD_DAYS};
use super::token::{self, Address};
use super::{hash16, spool, Referee, RefereeError};
use crate::color::Color;
use crate::game::clock::format_time;
use crate::game::store::{write_atomic, write_game};
use crate::game::Game;
use crate::limits::{MAX_HELD, MAX_HELD_PER_GAME};
use chrono::{DateTime, Utc};
use std::path::Path;
use std::time::Duration;

mod act;
mod finished;
mod held_mail;
mod release;
pub use release::{drop_held, release};

/// What became of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its acts were applied and the notices spooled.
    Applied { gid: String, said: Vec<String> },
    /// It changed no game and was answered (refused, stale, show, help, a
    /// comment after the end, how to play): `sent` is false when the
    /// answer limit kept the answer back.
    Answered {
        gid: Option<String>,
        why: String,
        sent: bool,
    },
    /// It is held until the player confirms it.
    Held { gid: String, why: String },
    /// It was already handled.
    Duplicate { gid: Option<String> },
    /// It is not answered at all.
    Ignored { why: String },
}

impl Outcome {
    pub fn describe(&self) -> String {
        match self {
            Outcome::Applied { gid, said } => format!("{gid}: applied: {}", said.join("; ")),
            Outcome::Answered { gid, why, sent } => format!(
                "{}: answered: {why}{}",
                gid.as_deref().unwrap_or("-"),
                if *sent {
                    ""
                } else {
                    " (the answer was not sent: the hourly limit of answers to this address was reached)"
                }
            ),
            Outcome::Held { gid, why } => format!("{gid}: held for confirmation: {why}"),
            Outcome::Duplicate { gid } => {
                format!("{}: already handled", gid.as_deref().unwrap_or("-"))
            }
            Outcome::Ignored { why } => format!("ignored: {why}"),
        }
    }
}

/// How long to wait for a game's lock before giving up for now.
const LOCK_WAIT: Duration = Duration::from_secs(30);

/// Comments passed on after a game's end, per player and game, a day.
const AFTER_END_PER_DAY: usize = 3;

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
            "time": format_time(now),
            "key": key,
            "outcome": outcome.describe(),
        }),
    );
    Ok(outcome)
}

fn ignored(why: impl Into<String>) -> Outcome {
    Outcome::Ignored { why: why.into() }
}

/// Whether `address` is one of the referee's: its own, or a plus address.
fn is_referee_address(r: &Referee, address: &str) -> bool {
    let Some((l, d)) = address.trim().rsplit_once('@') else {
        return false;
    };
    let l = l.to_lowercase();
    let local = r.local.to_lowercase();
    d.eq_ignore_ascii_case(&r.domain) && (l == local || l.starts_with(&format!("{local}+")))
}

fn process(r: &Referee, raw: &[u8], now: DateTime<Utc>) -> Result<(String, Outcome), RefereeError> {
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
    let token = msg
        .recipients
        .iter()
        .find_map(|a| token::parse(a, &r.local, &r.settings.tag, &r.domain));
    let thread = msg
        .parents
        .iter()
        .find_map(|p| letter::gid_of_message_id(r, p));
    let routed_by_thread = token.is_none();
    let route = match (token, &thread) {
        (Some(a), _) => a,
        (None, Some(gid)) => Address::Game { gid: gid.clone() },
        (None, None) => {
            let ctx = Ctx::new(r, String::new(), Path::new(""), &msg, raw, &key, now);
            return Ok((key.clone(), ctx.how_to_play()?));
        }
    };
    let gid = route.gid().to_string();
    let path = r.game_path(&gid);
    if !path.exists() {
        return Ok((key, ignored(format!("no game {gid} in this referee"))));
    }
    let _lock = lock_game(&path, LOCK_WAIT)?;
    let game = load_game(&path)?;
    if game.has_via(&key) {
        spool::release(r, &key)?;
        return Ok((key, Outcome::Duplicate { gid: Some(gid) }));
    }
    let ctx = Ctx::new(r, gid.clone(), &path, &msg, raw, &key, now);
    // Deadlines at the door: a message to a game whose deadline has
    // passed records the forfeit first, sweep or no sweep.
    if r.settings.auto_forfeit && game.forfeits() && game.result().is_none() {
        if let Some(deadline) = game.deadline().filter(|d| *d < now) {
            let loser = game.turn();
            let late = (ctx.side_of_from(&game) == Some(loser)).then_some(now);
            if let Some(end) = sweep::forfeit(r, &gid, &path, game, &key, late, now)? {
                return Ok((
                    key,
                    Outcome::Applied {
                        gid,
                        said: vec![format!(
                            "the deadline {} had passed: time forfeit recorded: {end}",
                            format_time(deadline)
                        )],
                    },
                ));
            }
            return Ok((key, ignored("a forfeit that could not be recorded")));
        }
    }
    if game.result().is_some() {
        return Ok((key, ctx.after_end(game, &route)?));
    }
    let outcome = match route {
        Address::Reply { side, ply, mac, .. } => {
            ctx.reply(game, side, ply, &mac, thread.as_deref())?
        }
        Address::Confirm {
            side,
            ply,
            held,
            mac,
            ..
        } => ctx.confirm(game, side, ply, &held, &mac)?,
        Address::Game { .. } => {
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

impl<'a> Ctx<'a> {
    fn new(
        r: &'a Referee,
        gid: String,
        path: &'a Path,
        msg: &'a Inbound,
        raw: &'a [u8],
        key: &str,
        now: DateTime<Utc>,
    ) -> Ctx<'a> {
        Ctx {
            r,
            gid,
            path,
            msg,
            raw,
            key: key.to_string(),
            now,
        }
    }

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

    /// Why the sender may be forged, when it may: a `From` that is not
    /// exactly one mailbox (a DMARC check may have judged another one), or
    /// the receiving server's `Authentication-Results` saying so.
    fn auth_failure(&self) -> Option<String> {
        if let Some(p) = &self.msg.from_problem {
            return Some(format!("its From is not exactly one mailbox: {p}"));
        }
        inbound::auth_failure(&self.msg.auth, &self.r.settings.trusted_authserv_ids)
            .map(|why| format!("the receiving mail server found its sender forged ({why})"))
    }

    /// What the referee says of how it read the message, beyond its acts:
    /// its attachments dropped, its size.
    fn reading_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.msg.size >= MAX_READ {
            notes.push(format!(
                "Your message was larger than {} MB: only its first {} MB were read.",
                MAX_READ >> 20,
                MAX_READ >> 20
            ));
        } else if self.msg.size > MAX_SIZE {
            notes.push(format!(
                "Your message was larger than the referee's limit of {} MB ({} kB): its text was read and the rest dropped.",
                MAX_SIZE >> 20,
                self.msg.size.div_ceil(1000)
            ));
        }
        if !self.msg.attachments.is_empty() {
            notes.push(format!(
                "Attachments are not kept or passed on; dropped: {}.",
                self.msg.attachments.join(", ")
            ));
        }
        notes
    }

    /// Spools an answer to the side's registered address (rate-limited),
    /// then marks the message seen. Whether it was spooled. A request to
    /// confirm a held message (`reply_to` its confirmation address) is
    /// not threaded under that message, which its reader never sent.
    ///
    /// Answers to a message the player's token and address vouch for
    /// count against the player's hourly budget; answers to any other
    /// (held messages, token-less `show`) against a budget of their own,
    /// so that a stranger's mail never uses up the player's answers.
    fn answer(
        &self,
        game: &Game,
        side: Color,
        text: String,
        reply_to: Option<String>,
        vouched: bool,
    ) -> Result<bool, RefereeError> {
        let in_reply_to = if reply_to.is_some() {
            None
        } else {
            self.msg.message_id.clone()
        };
        let to = letter::mailbox_of(game, side);
        let addr = self.registered(game, side).unwrap_or_default();
        let budget = if vouched {
            addr
        } else {
            format!("unvouched {addr}")
        };
        let sent = within_rate(
            self.r,
            &budget,
            self.r.settings.answers_per_hour as usize,
            3600,
            self.now,
        )?;
        if sent {
            let l = Letter {
                name: format!("answer-{}", self.key),
                to,
                side,
                in_reply_to,
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
        self.mark_seen()?;
        Ok(sent)
    }

    fn mark_seen(&self) -> Result<(), RefereeError> {
        let seen = self.r.dir.join("seen").join(&self.key);
        write_atomic(&seen, b"").map_err(|e| RefereeError::io(seen.display(), e))
    }

    fn answered(
        &self,
        game: &Game,
        side: Color,
        why: &str,
        text: String,
    ) -> Result<Outcome, RefereeError> {
        let sent = self.answer(game, side, text, None, true)?;
        Ok(Outcome::Answered {
            gid: Some(self.gid.clone()),
            why: why.to_string(),
            sent,
        })
    }

    /// A refusal of the commands `read`, with how the message was read.
    fn refuse(
        &self,
        game: &Game,
        side: Color,
        why: &str,
        read: &[String],
        note: Option<&str>,
    ) -> Result<Outcome, RefereeError> {
        let mut text = String::new();
        if let Some(n) = note {
            text.push_str(&format!("{n}\n\n"));
        }
        text.push_str(&letter::refusal(game, side, why, read, self.now));
        for n in self.reading_notes() {
            text.push_str(&format!("\n{n}\n"));
        }
        self.answered(game, side, why, text)
    }

    /// A message to the referee that names no game: one answer on how to
    /// play, to its sender, once a day at most and a few an hour in all
    /// (auto-replies, bounces and list mail never get here).
    fn how_to_play(&self) -> Result<Outcome, RefereeError> {
        let r = self.r;
        if !self.msg.recipients.iter().any(|a| is_referee_address(r, a)) {
            return Ok(ignored("not addressed to this referee"));
        }
        let Some(from) = self.msg.from.clone() else {
            return Ok(ignored("no From address"));
        };
        let why = "it names no game: told how to play";
        // Once a day to an address, and answers_per_hour an hour in all:
        // a mailbox full of strangers' mail (an old one at a referee's
        // first start, a spam run) makes a few answers, not a flood.
        let all = r.settings.answers_per_hour as usize;
        if !within_rate(r, &format!("how-to {from}"), 1, 86_400, self.now)?
            || !within_rate(r, "how-to, all", all, 3_600, self.now)?
        {
            self.mark_seen()?;
            return Ok(Outcome::Answered {
                gid: None,
                why: why.into(),
                sent: false,
            });
        }
        let text = format!(
            "This is the postal referee at {local}@{domain}. It keeps games of chess\n\
             and its variants played by mail, and reads only replies to its own letters.\n\n\
             Your message names no game, so nothing was done with it. To play:\n\n\
             - Reply to the latest letter of your game: each letter carries its game's\n\
             \x20 own reply address ({local}+...@{domain}), and your move goes on\n\
             \x20 the first line of the reply.\n\
             - To start a game, ask the person who runs this referee; both players get\n\
             \x20 a letter when it begins.\n\
             - \"help\" sent to a game's address lists the commands.\n\n\
             (This answer is sent at most once a day to an address.)\n",
            local = r.local,
            domain = r.domain
        );
        let name = format!("howto-{}", self.key);
        let bytes = letter::compose_loose(
            r,
            &from,
            &self.msg.subject,
            self.msg.message_id.as_deref(),
            &name,
            &text,
            self.now,
        )
        .map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::put(r, &name, &bytes)?;
        self.mark_seen()?;
        Ok(Outcome::Answered {
            gid: None,
            why: why.into(),
            sent: true,
        })
    }

    fn reply(
        &self,
        game: Game,
        side: Color,
        ply: usize,
        mac: &str,
        thread: Option<&str>,
    ) -> Result<Outcome, RefereeError> {
        let key = self.r.key();
        let cur = epoch(&game);
        let epoch_of = (0..=cur)
            .rev()
            .find(|e| token::same_mac(mac, &token::reply_mac(key, &self.gid, side, ply, *e)));
        let Some(e) = epoch_of else {
            // A damaged token in a reply whose thread names the game is
            // held, as a missing one is.
            if thread == Some(self.gid.as_str()) {
                if let Some(from_side) = self.side_of_from(&game) {
                    return self.hold(&game, from_side, "its reply token is damaged");
                }
            }
            return Ok(ignored("a reply token that is not valid"));
        };
        if e != cur || ply != game.moves().len() {
            let why = if e != cur {
                "your message answers a letter from before a take-back: answer the latest letter"
                    .to_string()
            } else {
                format!(
                    "your message answers an old letter (for {}); the game is now at {}: answer the latest letter",
                    letter::move_label(&game, ply),
                    letter::move_label(&game, game.moves().len())
                )
            };
            let read = extract::extract(&self.msg.text).commands;
            return self.refuse(&game, side, &why, &read, None);
        }
        if let Some(p) = &self.msg.from_problem {
            let why = format!("its From is not exactly one mailbox: {p}");
            return self.hold(&game, side, &why);
        }
        if self.msg.from != self.registered(&game, side) {
            let why = format!(
                "it did not come from your address ({})",
                self.registered(&game, side).unwrap_or_default()
            );
            return self.hold(&game, side, &why);
        }
        if let Some(why) = self.auth_failure() {
            return self.hold(&game, side, &why);
        }
        let via = self.key.clone();
        self.act(game, side, &self.msg.text, &via, None)
    }

    /// The bare game address: `show` and `help` only.
    fn bare(&self, game: &Game, side: Color) -> Result<Outcome, RefereeError> {
        let reply = extract::extract(&self.msg.text);
        let cmds = command::parse_block(&reply.commands)
            .map(|b| b.commands)
            .unwrap_or_default();
        let text = match cmds.as_slice() {
            [Command::Help] => letter::help(),
            _ => letter::standing(game, side, self.now),
        };
        let sent = self.answer(game, side, text, None, false)?;
        Ok(Outcome::Answered {
            gid: Some(self.gid.clone()),
            why: "show".into(),
            sent,
        })
    }
}

/// Whether one more answer under `key` (an address, or a purpose and an
/// address) fits in `limit` a `window` of seconds (and counts it).
fn within_rate(
    r: &Referee,
    key: &str,
    limit: usize,
    window: i64,
    now: DateTime<Utc>,
) -> Result<bool, RefereeError> {
    let path = r.dir.join("rate").join(hash16(key.as_bytes()));
    let t = now.timestamp();
    let mut recent: Vec<i64> = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .filter(|x| *x > t - window)
        .collect();
    if recent.len() >= limit {
        return Ok(false);
    }
    recent.push(t);
    let text: String = recent.iter().map(|x| format!("{x}\n")).collect();
    write_atomic(&path, text.as_bytes()).map_err(|e| RefereeError::io(path.display(), e))?;
    Ok(true)
}
