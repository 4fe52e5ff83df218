//! Time controls as correspondence players write them, and the clock
//! each player keeps under one: what each has used, what is left, and the
//! deadline of the player to move.
//!
//! The forms (units `d`, `h`, `m`):
//!
//! - `3d`: so long for each move.
//! - `10/50d`: 10 moves in 50 days, repeating: after each 10 moves the
//!   player's bank gains 50 days, and time not used carries over (ICCF's
//!   classic control; its Playing Rules, "reflection time").
//! - `30d+1d`: an allowance for the game plus an increment a move
//!   (Fischer's clock); `30d+1d/45d` caps what can be banked at 45 days
//!   (SchemingMind, ICCF's newer events).
//! - then, optionally, `free 24h`: the first 24 hours of each move are
//!   not counted; and `double 20d`: of the time counted on one move, what
//!   is beyond 20 days counts double (ICCF's doubling rule).
//!
//! Each player's clock runs only while it is their move, and stops over
//! their leave ([`Leave`]). A move is charged
//! `c + max(0, c - N)` where `c` is the time of the turn, less the
//! player's leave within it and less the free hours, and `N` the
//! doubling threshold (none: nothing doubles). A late move that the
//! opponent let stand (forfeits are claimed or swept, never implied)
//! empties the bank before anything is added to it.
//!
//! All arithmetic is in whole seconds, as the state file keeps times.

use crate::color::{ByColor, Color};
use chrono::{DateTime, Duration, Utc};
use std::fmt;

/// The main rule of a time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// So long for each move.
    PerMove(Duration),
    /// `moves` moves in `time`, repeating, unused time carried over.
    Period { moves: u32, time: Duration },
    /// An allowance plus an increment a move, the bank at most `cap`.
    Increment {
        initial: Duration,
        increment: Duration,
        cap: Option<Duration>,
    },
}

/// A time control (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub kind: Kind,
    /// The first hours of each move not counted.
    pub free: Option<Duration>,
    /// Counted time beyond this, on one move, counts double.
    pub double_after: Option<Duration>,
}

/// One completed turn, for the clock: who moved, when the turn began and
/// when the move was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub side: Color,
    pub started: DateTime<Utc>,
    pub moved: DateTime<Utc>,
}

/// A player's leave: their clock stops from `from` to `until`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Leave {
    pub side: Color,
    pub from: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

/// Where both clocks stand at a moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The time each player has been charged, the current turn included.
    pub used: ByColor<Duration>,
    /// What each has left: the player to move, at the moment (nothing
    /// once the deadline has passed); the other, for their next move.
    pub left: ByColor<Duration>,
    /// In `10/50d`, the moves each has left to make in the period.
    pub moves_left: Option<ByColor<u32>>,
    /// The deadline of the player to move.
    pub deadline: DateTime<Utc>,
}

/// The most a span may be: 10,000 days (27 years).
const MAX_DAYS: i64 = 10_000;

/// Reads a span: `3d`, `12h`, `30m`, or `0d` (an increment may be
/// nothing); at most 10,000 days.
pub fn parse_span(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let unit_at = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{text:?} has no unit"))?;
    let (digits, unit) = text.split_at(unit_at);
    let n: i64 = digits
        .parse()
        .map_err(|_| format!("{text:?} does not start with a number"))?;
    let d = match unit {
        "d" => Duration::days(n.min(MAX_DAYS + 1)),
        "h" => Duration::hours(n.min(24 * (MAX_DAYS + 1))),
        "m" => Duration::minutes(n.min(24 * 60 * (MAX_DAYS + 1))),
        _ => return Err(format!("{text:?}: unknown unit {unit:?} (d, h or m)")),
    };
    if d > Duration::days(MAX_DAYS) {
        return Err(format!("{text:?} is too long (at most {MAX_DAYS} days)"));
    }
    Ok(d)
}

/// A span as time controls write it: `3d`, `36h`, `90m`.
pub fn span_text(d: Duration) -> String {
    let m = d.num_minutes();
    if m % (24 * 60) == 0 {
        format!("{}d", m / (24 * 60))
    } else if m % 60 == 0 {
        format!("{}h", m / 60)
    } else {
        format!("{m}m")
    }
}

impl TimeControl {
    /// Reads `3d`, `10/50d`, `30d+1d`, `30d+1d/45d`, each optionally
    /// followed by `free 24h` and `double 20d`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = |why: String| {
            format!(
                "time control {text:?}: {why}; write days per move (\"3d\"), moves in days (\"10/50d\"), \
                 an allowance plus an increment (\"30d+1d\", capped \"30d+1d/45d\"), then optionally \
                 \"free 24h\" and \"double 20d\"; units d, h or m"
            )
        };
        let mut words = text.split_whitespace();
        let main = words.next().ok_or_else(|| bad("it is empty".into()))?;
        let kind = parse_kind(main).map_err(&bad)?;
        let mut tc = TimeControl {
            kind,
            free: None,
            double_after: None,
        };
        while let Some(word) = words.next() {
            let value = words
                .next()
                .ok_or_else(|| bad(format!("{word:?} needs a span after it")))?;
            let span = parse_span(value).map_err(&bad)?;
            let slot = match word.to_ascii_lowercase().as_str() {
                "free" => &mut tc.free,
                "double" => &mut tc.double_after,
                other => return Err(bad(format!("unknown word {other:?}"))),
            };
            if slot.replace(span).is_some() {
                return Err(bad(format!("{word:?} is given twice")));
            }
        }
        Ok(tc)
    }

    /// The time control in words: `10 moves in 50 days, repeating; the
    /// first 24 hours of each move free`.
    pub fn words(&self) -> String {
        use super::clock::describe;
        let mut out = match self.kind {
            Kind::PerMove(d) => format!("{} a move", describe(d)),
            Kind::Period { moves, time } => {
                format!("{moves} moves in {}, repeating", describe(time))
            }
            Kind::Increment {
                initial,
                increment,
                cap,
            } => {
                let mut s = format!("{} for the game", describe(initial));
                if increment > Duration::zero() {
                    s.push_str(&format!(", plus {} a move", describe(increment)));
                }
                if let Some(c) = cap {
                    s.push_str(&format!(", at most {} banked", describe(c)));
                }
                s
            }
        };
        if let Some(f) = self.free {
            let hours = f.num_hours();
            let first = if f.num_minutes() % 60 == 0 && hours <= 72 {
                format!("{hours} hour{}", if hours == 1 { "" } else { "s" })
            } else {
                describe(f)
            };
            out.push_str(&format!("; the first {first} of each move free"));
        }
        if let Some(n) = self.double_after {
            out.push_str(&format!(
                "; time beyond {} on one move counts double",
                describe(n)
            ));
        }
        out
    }

    /// PGN's `TimeControl` tag (PGN standard 9.6.1: `moves/seconds`,
    /// `seconds+increment`), or `None` where the tag cannot say the
    /// control (a cap, free hours, doubling).
    pub fn pgn_tag(&self) -> Option<String> {
        if self.free.is_some() || self.double_after.is_some() {
            return None;
        }
        match self.kind {
            Kind::PerMove(d) => Some(format!("1/{}", d.num_seconds())),
            Kind::Period { moves, time } => Some(format!("{moves}/{}", time.num_seconds())),
            Kind::Increment {
                initial,
                increment,
                cap: None,
            } => Some(format!(
                "{}+{}",
                initial.num_seconds(),
                increment.num_seconds()
            )),
            Kind::Increment { .. } => None,
        }
    }

    /// The seconds `side` is charged for a turn from `a` to `b`, given the
    /// leaves of the game.
    fn charged(&self, side: Color, a: DateTime<Utc>, b: DateTime<Utc>, leaves: &[Leave]) -> i64 {
        let on_leave: i64 = leaves
            .iter()
            .filter(|l| l.side == side)
            .map(|l| {
                let (from, until) = (l.from.max(a), l.until.min(b));
                (until - from).num_seconds().max(0)
            })
            .sum();
        let raw = ((b - a).num_seconds() - on_leave).max(0);
        let counted = (raw - self.free.map_or(0, |f| f.num_seconds())).max(0);
        match self.double_after {
            Some(n) => counted + (counted - n.num_seconds()).max(0),
            None => counted,
        }
    }

    /// The wall-clock time at which `side`, whose turn began at `start`,
    /// has been charged `bank` seconds: the inverse of [`Self::charged`].
    fn runs_out(
        &self,
        side: Color,
        start: DateTime<Utc>,
        bank: i64,
        leaves: &[Leave],
    ) -> DateTime<Utc> {
        let bank = bank.max(0);
        let counted = match self.double_after.map(|n| n.num_seconds()) {
            Some(n) if bank > n => n + (bank - n + 1) / 2,
            _ => bank,
        };
        let mut remaining = counted + self.free.map_or(0, |f| f.num_seconds());
        let mut mine: Vec<&Leave> = leaves
            .iter()
            .filter(|l| l.side == side && l.until > start)
            .collect();
        mine.sort_by_key(|l| l.from);
        let mut cursor = start;
        for l in mine {
            if l.from > cursor {
                let gap = (l.from - cursor).num_seconds();
                if gap >= remaining {
                    break;
                }
                remaining -= gap;
            }
            cursor = cursor.max(l.until);
        }
        cursor
            .checked_add_signed(Duration::seconds(remaining))
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    }

    /// Both clocks after the completed `turns`, `to_move`'s turn having
    /// begun at `started` and been given `extra` more by the referee,
    /// seen at `now`.
    pub fn account(
        &self,
        turns: &[Turn],
        to_move: Color,
        started: DateTime<Utc>,
        leaves: &[Leave],
        extra: Duration,
        now: DateTime<Utc>,
    ) -> Account {
        let secs = |d: Duration| d.num_seconds();
        let fresh = match self.kind {
            Kind::PerMove(d) => secs(d),
            Kind::Period { time, .. } => secs(time),
            Kind::Increment { initial, .. } => secs(initial),
        };
        let mut bank = ByColor::new(fresh, fresh);
        let mut used = ByColor::new(0i64, 0i64);
        let mut made = ByColor::new(0u32, 0u32);
        for t in turns {
            let c = self.charged(t.side, t.started, t.moved, leaves);
            used[t.side] += c;
            made[t.side] += 1;
            let after = (bank[t.side] - c).max(0);
            bank[t.side] = match self.kind {
                Kind::PerMove(d) => secs(d),
                Kind::Period { moves, time } if made[t.side].is_multiple_of(moves) => {
                    after + secs(time)
                }
                Kind::Period { .. } => after,
                Kind::Increment { increment, cap, .. } => {
                    let b = after + secs(increment);
                    cap.map_or(b, |c| b.min(secs(c)))
                }
            };
        }
        let budget = bank[to_move] + secs(extra);
        let deadline = self.runs_out(to_move, started, budget, leaves);
        let so_far = if now > started {
            self.charged(to_move, started, now, leaves)
        } else {
            0
        };
        used[to_move] += so_far;
        bank[to_move] = (budget - so_far).max(0);
        let moves_left = match self.kind {
            Kind::Period { moves, .. } => Some(ByColor::new(
                moves - made[Color::White] % moves,
                moves - made[Color::Black] % moves,
            )),
            _ => None,
        };
        Account {
            used: ByColor::new(
                Duration::seconds(used[Color::White]),
                Duration::seconds(used[Color::Black]),
            ),
            left: ByColor::new(
                Duration::seconds(bank[Color::White]),
                Duration::seconds(bank[Color::Black]),
            ),
            moves_left,
            deadline,
        }
    }
}

fn parse_kind(text: &str) -> Result<Kind, String> {
    let positive = |d: Duration, what: &str| {
        if d <= Duration::zero() {
            Err(format!("{what} must be more than nothing"))
        } else {
            Ok(d)
        }
    };
    if let Some((initial, rest)) = text.split_once('+') {
        let (increment, cap) = match rest.split_once('/') {
            Some((i, c)) => (i, Some(parse_span(c)?)),
            None => (rest, None),
        };
        let initial = positive(parse_span(initial)?, "the allowance")?;
        let increment = parse_span(increment)?;
        if let Some(c) = cap {
            if c < initial {
                return Err(format!(
                    "the cap {} is less than the allowance {}",
                    span_text(c),
                    span_text(initial)
                ));
            }
        }
        return Ok(Kind::Increment {
            initial,
            increment,
            cap,
        });
    }
    if let Some((moves, time)) = text.split_once('/') {
        let moves: u32 = moves
            .parse()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| format!("{moves:?} is not a number of moves from 1 to 1000"))?;
        let time = positive(parse_span(time)?, "the time of a period")?;
        return Ok(Kind::Period { moves, time });
    }
    Ok(Kind::PerMove(positive(
        parse_span(text)?,
        "the time for a move",
    )?))
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::PerMove(d) => f.write_str(&span_text(d))?,
            Kind::Period { moves, time } => write!(f, "{moves}/{}", span_text(time))?,
            Kind::Increment {
                initial,
                increment,
                cap,
            } => {
                write!(f, "{}+{}", span_text(initial), span_text(increment))?;
                if let Some(c) = cap {
                    write!(f, "/{}", span_text(c))?;
                }
            }
        }
        if let Some(d) = self.free {
            // Free time is counted in hours (`free 24h`) up to three days.
            if d.num_minutes() % 60 == 0 && d.num_hours() <= 72 {
                write!(f, " free {}h", d.num_hours())?;
            } else {
                write!(f, " free {}", span_text(d))?;
            }
        }
        if let Some(d) = self.double_after {
            write!(f, " double {}", span_text(d))?;
        }
        Ok(())
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        TimeControl::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
