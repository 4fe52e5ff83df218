//! The players' clocks in a game (`impl Game` continued): the turns,
//! leaves and extensions the time control counts ([`super::time_control`]),
//! the deadline of the player to move, the clocks in words, and leave.
//!
//! Leave: each player has an allowance of days a calendar year (the
//! game's `leave_days`, 30 when absent), each day of a leave counted in
//! the year it begins in. A leave stops its player's clock; it is refused
//! when it would overdraw the allowance, overlap the player's own leave,
//! start in the past, or come after the player's deadline has passed.

use super::clock::{describe, format_time};
use super::file::Act;
use super::state::Game;
use super::time_control::{Account, Leave, Turn};
use super::GameError;
use crate::color::Color;
use chrono::{DateTime, Datelike, Duration, Utc};
use std::collections::BTreeMap;

/// The leave a player has a year when the game does not say.
pub const DEFAULT_LEAVE_DAYS: u32 = 30;

impl Game {
    /// The completed turns for the clock, and when the current turn began.
    /// A take-back restarts the clock of the player to move.
    pub(super) fn turns(&self) -> (Vec<Turn>, DateTime<Utc>) {
        let file = self.file();
        let resets: Vec<DateTime<Utc>> = file
            .events
            .iter()
            .filter(|e| matches!(e.act, Act::TakebackAccept { .. }))
            .map(|e| e.time)
            .collect();
        let reset_by = |t: DateTime<Utc>| resets.iter().copied().filter(|r| *r <= t).max();
        let mut started = file.created;
        let mut turns = Vec::with_capacity(file.moves.len());
        for (i, m) in file.moves.iter().enumerate() {
            let began = reset_by(m.time).map_or(started, |r| r.max(started));
            turns.push(Turn {
                side: self.turn_at(i),
                started: began.min(m.time),
                moved: m.time,
            });
            started = m.time;
        }
        let now_started = resets
            .iter()
            .copied()
            .max()
            .map_or(started, |r| r.max(started));
        (turns, now_started)
    }

    /// Every leave taken in the game.
    pub fn leaves(&self) -> Vec<Leave> {
        self.events()
            .iter()
            .filter_map(|e| match e.act {
                Act::Leave { from, days } => Some(Leave {
                    side: e.side,
                    from,
                    until: from + Duration::days(days.into()),
                }),
                _ => None,
            })
            .collect()
    }

    /// The referee's extensions of the current move (`postal referee
    /// extend`), made since the turn began.
    fn extension(&self, started: DateTime<Utc>) -> Duration {
        let ply = self.moves().len();
        self.events()
            .iter()
            .filter(|e| e.ply == ply && e.time >= started)
            .filter_map(|e| match &e.act {
                Act::Extend { by } => super::time_control::parse_span(by).ok(),
                _ => None,
            })
            .fold(Duration::zero(), |a, b| a + b)
    }

    /// Both players' clocks at `now`, when the game has a time control
    /// and goes on.
    pub fn account(&self, now: DateTime<Utc>) -> Option<Account> {
        self.account_at(|_| now)
    }

    /// The deadline of the player to move, when the game has a time
    /// control and goes on.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        self.account_at(|started| started).map(|a| a.deadline)
    }

    /// The clocks at the time `now` gives from the start of the turn.
    fn account_at(&self, now: impl FnOnce(DateTime<Utc>) -> DateTime<Utc>) -> Option<Account> {
        if self.result().is_some() {
            return None;
        }
        let tc = self.file().time_control?;
        let (turns, started) = self.turns();
        Some(tc.account(
            &turns,
            self.turn(),
            started,
            &self.leaves(),
            self.extension(started),
            now(started),
        ))
    }

    /// Sets the leave a year (`None`: the default) and whether a passed
    /// deadline forfeits, for a new game.
    pub fn set_clock_rules(&mut self, leave_days: Option<u32>, no_forfeit: bool) {
        let file = self.file_mut();
        file.leave_days = leave_days.filter(|d| *d != DEFAULT_LEAVE_DAYS);
        file.no_forfeit = no_forfeit;
    }

    /// Whether a passed deadline loses the game (claimed, or swept by
    /// the referee); not in an event that ignores silence.
    pub fn forfeits(&self) -> bool {
        !self.file().no_forfeit
    }

    /// Each player's leave a year, in days.
    pub fn leave_allowance(&self) -> u32 {
        self.file().leave_days.unwrap_or(DEFAULT_LEAVE_DAYS)
    }

    /// The days of leave `side` has taken, by the year each day falls in.
    fn leave_by_year(&self, side: Color) -> BTreeMap<i32, u32> {
        let mut years = BTreeMap::new();
        for l in self.leaves().iter().filter(|l| l.side == side) {
            add_days(&mut years, l.from, (l.until - l.from).num_days());
        }
        years
    }

    /// The days of leave `side` has left in the year of `at`.
    pub fn leave_left(&self, side: Color, at: DateTime<Utc>) -> u32 {
        let taken = self
            .leave_by_year(side)
            .get(&at.year())
            .copied()
            .unwrap_or(0);
        self.leave_allowance().saturating_sub(taken)
    }

    /// `side` takes `days` days of leave from `from` (by default now).
    /// Returns the act in words.
    pub fn take_leave(
        &mut self,
        side: Color,
        from: Option<DateTime<Utc>>,
        days: u32,
        now: DateTime<Utc>,
    ) -> Result<String, GameError> {
        self.not_over()?;
        if self.file().time_control.is_none() {
            return Err(GameError::Rule(
                "the game has no time control, so no clock to stop".into(),
            ));
        }
        if days == 0 || days > 366 {
            return Err(GameError::Rule(format!(
                "a leave is 1 to 366 days, not {days}"
            )));
        }
        let from = match from {
            None => now,
            // A leave from today begins now.
            Some(f) if f < now && f.date_naive() == now.date_naive() => now,
            Some(f) if f < now => {
                return Err(GameError::Rule(format!(
                    "a leave cannot begin in the past ({}; it is now {})",
                    format_time(f),
                    format_time(now)
                )))
            }
            Some(f) => f,
        };
        if side == self.turn() {
            if let Some(d) = self.deadline().filter(|d| *d < now) {
                return Err(GameError::Rule(format!(
                    "{side}'s deadline passed at {}: leave cannot be taken after it",
                    format_time(d)
                )));
            }
        }
        let until = from + Duration::days(days.into());
        if let Some(l) = self
            .leaves()
            .into_iter()
            .find(|l| l.side == side && l.from < until && from < l.until)
        {
            return Err(GameError::Rule(format!(
                "{side} is already on leave from {} to {}",
                format_time(l.from),
                format_time(l.until)
            )));
        }
        let allowance = self.leave_allowance();
        let taken = self.leave_by_year(side);
        let mut asked = BTreeMap::new();
        add_days(&mut asked, from, days.into());
        for (year, n) in &asked {
            let had = taken.get(year).copied().unwrap_or(0);
            if had + n > allowance {
                return Err(GameError::Rule(format!(
                    "{side} has {} of leave left in {year} (of {allowance} a year) and asks for {}",
                    day_count(allowance.saturating_sub(had)),
                    day_count(*n)
                )));
            }
        }
        self.push_event(side, Act::Leave { from, days }, now);
        Ok(format!(
            "{side} takes leave for {} from {} to {} (UTC)",
            day_count(days),
            format_time(from),
            format_time(until)
        ))
    }

    /// The time control as written and in words: `10/50d (10 moves in
    /// 50 days, repeating)`.
    pub fn time_control_text(&self) -> Option<String> {
        let tc = self.file().time_control?;
        Some(format!("{tc} ({})", tc.words()))
    }

    /// The clocks in words, a line each: each player's time used and
    /// left, the leaves to come. Empty without a time control.
    pub fn clock_lines(&self, now: DateTime<Utc>) -> Vec<String> {
        if self.file().time_control.is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let who = |side: Color| {
            let short = self.file().players.get(side).short(side);
            if short == side.name() {
                short
            } else {
                format!("{short} ({side})")
            }
        };
        if let Some(a) = self.account(now) {
            for side in Color::ALL {
                let to_move = side == self.turn();
                let moves = a
                    .moves_left
                    .map(|m| match m[side] {
                        1 => " for 1 move".to_string(),
                        n => format!(" for {n} moves"),
                    })
                    .unwrap_or_default();
                let left = if to_move && a.left[side] <= Duration::zero() {
                    "no time left: the deadline has passed".to_string()
                } else if to_move {
                    format!("{} left{moves}", describe(a.left[side]))
                } else {
                    format!("{} left at the next move{moves}", describe(a.left[side]))
                };
                out.push(format!(
                    "{}: used {}; {left}.",
                    who(side),
                    used_words(a.used[side])
                ));
            }
        }
        for l in self.leaves().iter().filter(|l| l.until > now) {
            out.push(format!(
                "{} is on leave from {} to {} (UTC).",
                who(l.side),
                format_time(l.from),
                format_time(l.until)
            ));
        }
        out
    }
}

/// Adds `days` days from `from` to the count of their years.
fn add_days(years: &mut BTreeMap<i32, u32>, from: DateTime<Utc>, days: i64) {
    for i in 0..days.clamp(0, 366) {
        *years.entry((from + Duration::days(i)).year()).or_insert(0) += 1;
    }
}

fn day_count(n: u32) -> String {
    format!("{n} day{}", if n == 1 { "" } else { "s" })
}

fn used_words(d: Duration) -> String {
    if d <= Duration::zero() {
        "nothing".into()
    } else {
        describe(d)
    }
}
