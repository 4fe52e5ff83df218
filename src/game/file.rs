//! The postal-game/1 schema: the state file's JSON as written, its
//! players, moves, events, claims and endings, and the format check.
//!
//! [`GameFile`] is the JSON as written (DESIGN.md, "The game state file"):
//!
//! ```json
//! {
//!   "format": "postal-game/1",
//!   "variant": "chess",
//!   "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!   "players": { "white": { "name": "Ana", "email": "ana@example.org" },
//!                "black": { "name": "Ben" } },
//!   "time_control": "10d+1d",
//!   "created": "2025-03-01T09:00:00Z",
//!   "moves": [ { "played": "e2-e4", "canonical": "e4",
//!                "time": "2025-03-01T10:00:00Z", "comment": "as usual" } ],
//!   "events": [ { "time": "2025-03-01T10:00:05Z", "side": "white",
//!                 "ply": 1, "act": "draw-offer" } ],
//!   "result": null,
//!   "position": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
//! }
//! ```
//!
//! `moves` is the game as it stands (the line on the board); `events`
//! records every other act with its time, its side and `ply`, the number
//! of moves on the board when it was made. A take-back moves the moves it
//! retracts out of `moves` into its own event, so nothing is erased.
//! `position` is a cache of the position after `moves`.
//!
//! Every key is checked: one the schema does not have (a misspelt
//! `timm_control`, `whit`, `emiil`) is refused with its name, line and
//! column, never dropped by the next save. The one open place is
//! `extensions`, an object for the fields of newer minor versions
//! (`postal-game/1.x`) and of other tools: this version keeps it on every
//! save exactly as read. Times are RFC 3339 in the years 1 to 9999.

use super::notices::NoticeRecord;
use super::time_control::TimeControl;
use super::GameError;
use crate::color::Color;
use crate::position::{GameResult, Outcome};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format this program writes, and the major version it reads.
pub const FORMAT: &str = "postal-game/1";
const FORMAT_NAME: &str = "postal-game/";
const FORMAT_MAJOR: u64 = 1;

/// A player: a name and an address, both optional.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl Player {
    /// Reads `Name <addr>`, `Name`, `<addr>` or a bare `addr`.
    pub fn parse(text: &str) -> Result<Player, String> {
        let t = text.trim();
        let (name, email) = match t.find('<') {
            Some(open) => {
                let Some(inner) = t[open + 1..].strip_suffix('>') else {
                    return Err(format!(
                        "player {text:?}: write \"Name <address>\" with the address in angle brackets"
                    ));
                };
                (t[..open].trim(), Some(inner.trim()))
            }
            None if t.contains('@') && !t.contains(char::is_whitespace) => ("", Some(t)),
            None => (t, None),
        };
        let player = Player {
            name: (!name.is_empty()).then(|| name.to_string()),
            email: email.map(str::to_string),
        };
        player
            .check()
            .map_err(|e| format!("player {text:?}: {e}"))?;
        Ok(player)
    }

    /// The player for people: `Ana <ana@example.org>`, or the side's name
    /// when the file names nobody.
    pub fn label(&self, side: Color) -> String {
        match (&self.name, &self.email) {
            (Some(n), Some(e)) => format!("{n} <{e}>"),
            (Some(n), None) => n.clone(),
            (None, Some(e)) => format!("<{e}>"),
            (None, None) => side.name().to_string(),
        }
    }

    /// The name alone, or the side's name.
    pub fn short(&self, side: Color) -> String {
        match (&self.name, &self.email) {
            (Some(n), _) => n.clone(),
            (None, Some(e)) => e.clone(),
            (None, None) => side.name().to_string(),
        }
    }
}

/// The two players.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    #[serde(default)]
    pub white: Player,
    #[serde(default)]
    pub black: Player,
}

impl Players {
    pub fn get(&self, side: Color) -> &Player {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// One move as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    /// The text the player typed.
    pub played: String,
    /// The same move in the variant's canonical notation, with `+`/`#`.
    pub canonical: String,
    /// When it was made (UTC).
    #[serde(with = "super::clock::time")]
    pub time: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// For a move made by mail through a referee: a hash of the message's
    /// id (`src/referee/`), so a message delivered twice is applied once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The move was a conditional answer, played at once when the
    /// opponent played the move it answers ([`Conditional`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conditional: bool,
}

/// Conditional moves: lines of expected replies and answers left by the
/// player who has just moved (`side`), each a list of canonical move
/// texts from the current position, the opponent's move first. Never
/// shown to the opponent; cleared by any move not in them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conditional {
    #[serde(with = "side_name")]
    pub side: Color,
    pub lines: Vec<Vec<String>>,
}

/// What a player claims (`postal claim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Claim {
    /// A draw: the position has occurred three times (FI-5).
    Repetition,
    /// A draw: fifty moves by each side without capture or pawn move (FI-5).
    FiftyMoves,
    /// A win: the opponent's deadline has passed.
    Time,
}

impl Claim {
    pub fn name(self) -> &'static str {
        match self {
            Claim::Repetition => "threefold repetition",
            Claim::FiftyMoves => "the fifty-move rule",
            Claim::Time => "a time forfeit",
        }
    }
}

/// An act other than a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "kebab-case")]
pub enum Act {
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Claim {
        claim: Claim,
    },
    TakebackRequest,
    /// The moves taken back, in the order they were played: kept here so
    /// a take-back never erases history.
    TakebackAccept {
        retracted: Vec<MoveRecord>,
    },
    TakebackDecline,
    /// The referee's result (`postal referee adjudicate`): `1-0`, `0-1`
    /// or `1/2-1/2`, and why.
    Adjudicate {
        result: String,
        reason: String,
    },
    /// The referee ends the game without a result (`postal referee abort`).
    Abort {
        reason: String,
    },
    /// The referee gives the side to move more time for this move
    /// (`postal referee extend`): `by` is a span as time controls write
    /// it (`2d`, `12h`, `30m`).
    Extend {
        by: String,
    },
    /// The side takes leave: its clock stops from `from` for `days` days
    /// (`postal leave`, or `leave 10 days` by mail).
    Leave {
        #[serde(with = "super::clock::time")]
        from: DateTime<Utc>,
        days: u32,
    },
}

/// An act with its time, the side that made it, and the number of moves
/// on the board when it was made.
///
/// Read through [`RawEvent`], so that a key no act has is refused, with
/// its name and position, as everywhere else in the file (`flatten` would
/// let it through).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawEvent")]
pub struct Event {
    #[serde(serialize_with = "super::clock::time::serialize")]
    pub time: DateTime<Utc>,
    #[serde(with = "side_name")]
    pub side: Color,
    pub ply: usize,
    /// As [`MoveRecord::via`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    #[serde(flatten)]
    pub act: Act,
}

/// An event as written: every key any act has, each refused unless its
/// act has it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    #[serde(with = "super::clock::time")]
    time: DateTime<Utc>,
    #[serde(with = "side_name")]
    side: Color,
    ply: usize,
    #[serde(default)]
    via: Option<String>,
    act: String,
    #[serde(default)]
    claim: Option<Claim>,
    #[serde(default)]
    retracted: Option<Vec<MoveRecord>>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    days: Option<u32>,
}

impl RawEvent {
    /// A leave, read apart from the other acts; `None` for another act
    /// (which may not have `from` or `days`).
    fn leave(&mut self) -> Option<Result<Act, String>> {
        let (from, days) = (self.from.take(), self.days.take());
        if self.act != "leave" {
            return (from.is_some() || days.is_some()).then(|| {
                Err(format!(
                    "unknown field `from` or `days` for the act {:?}",
                    self.act
                ))
            });
        }
        let others = self.claim.is_some()
            || self.retracted.is_some()
            || self.result.is_some()
            || self.reason.is_some()
            || self.by.is_some();
        Some(match (from, days) {
            _ if others => Err("an unknown field for the act \"leave\"".into()),
            (Some(from), Some(days)) if (1..=366).contains(&days) => {
                super::clock::parse_time(&from).map(|from| Act::Leave { from, days })
            }
            (Some(_), Some(days)) => Err(format!("a leave is 1 to 366 days, not {days}")),
            _ => Err("a leave event needs its `from` and `days`".into()),
        })
    }

    /// The referee's acts (`adjudicate`, `abort`, `extend`), read apart
    /// from the players' acts; `None` for a player's act.
    fn referee_act(&mut self) -> Option<Result<Act, String>> {
        let (result, reason, by) = (self.result.take(), self.reason.take(), self.by.take());
        let needs = |what: &str| Err(format!("a {} event needs its `{what}`", self.act));
        let act = match (self.act.as_str(), result, reason, by) {
            ("adjudicate", Some(result), Some(reason), None) => {
                if !["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()) {
                    return Some(Err(format!(
                        "an adjudicated result is 1-0, 0-1 or 1/2-1/2, not {result:?}"
                    )));
                }
                Ok(Act::Adjudicate { result, reason })
            }
            ("adjudicate", None, _, None) => needs("result"),
            ("adjudicate", _, None, None) => needs("reason"),
            ("abort", None, Some(reason), None) => Ok(Act::Abort { reason }),
            ("abort", None, None, None) => needs("reason"),
            ("extend", None, None, Some(by)) => match super::time_control::parse_span(&by) {
                Ok(d) if d > chrono::Duration::zero() => Ok(Act::Extend { by }),
                _ => Err(format!(
                    "an extension is a span such as 2d or 12h, not {by:?}"
                )),
            },
            ("extend", None, None, None) => needs("by"),
            ("adjudicate" | "abort" | "extend", ..) => {
                Err(format!("an unknown field for the act {:?}", self.act))
            }
            (_, None, None, None) => return None,
            _ => Err(format!(
                "unknown field `result`, `reason` or `by` for the act {:?}",
                self.act
            )),
        };
        if act.is_ok() && (self.claim.is_some() || self.retracted.is_some()) {
            return Some(Err(format!("an unknown field for the act {:?}", self.act)));
        }
        Some(act)
    }
}

impl TryFrom<RawEvent> for Event {
    type Error = String;

    fn try_from(mut r: RawEvent) -> Result<Event, String> {
        if let Some(act) = r.leave().or_else(|| r.referee_act()) {
            return Ok(Event {
                time: r.time,
                side: r.side,
                ply: r.ply,
                via: r.via,
                act: act?,
            });
        }
        let name = r.act.as_str();
        let act = match (name, r.claim, r.retracted) {
            ("draw-offer", None, None) => Act::DrawOffer,
            ("draw-accept", None, None) => Act::DrawAccept,
            ("draw-decline", None, None) => Act::DrawDecline,
            ("resign", None, None) => Act::Resign,
            ("claim", Some(claim), None) => Act::Claim { claim },
            ("claim", None, _) => return Err("a claim event needs its `claim`".into()),
            ("takeback-request", None, None) => Act::TakebackRequest,
            ("takeback-accept", None, Some(retracted)) => Act::TakebackAccept { retracted },
            ("takeback-accept", _, None) => {
                return Err("a takeback-accept event needs its `retracted` moves".into())
            }
            ("takeback-decline", None, None) => Act::TakebackDecline,
            (
                "draw-offer" | "draw-accept" | "draw-decline" | "resign" | "claim"
                | "takeback-request" | "takeback-accept" | "takeback-decline",
                claim,
                _,
            ) => {
                let key = if claim.is_some() { "claim" } else { "retracted" };
                return Err(format!("unknown field `{key}` for the act {name:?}"));
            }
            _ => {
                return Err(format!(
                    "unknown act {name:?}: expected draw-offer, draw-accept, draw-decline, resign, claim, takeback-request, takeback-accept, takeback-decline, adjudicate, abort, extend or leave"
                ))
            }
        };
        Ok(Event {
            time: r.time,
            side: r.side,
            ply: r.ply,
            via: r.via,
            act,
        })
    }
}

impl Event {
    /// The act in words, with the side: `White offers a draw`.
    pub fn describe(&self) -> String {
        let s = self.side;
        match &self.act {
            Act::DrawOffer => format!("{s} offers a draw"),
            Act::DrawAccept => format!("{s} accepts the draw offer"),
            Act::DrawDecline => format!("{s} declines the draw offer"),
            Act::Resign => format!("{s} resigns"),
            Act::Claim { claim } => format!("{s} claims {}", claim.name()),
            Act::TakebackRequest => format!("{s} asks to take back a move"),
            Act::TakebackAccept { retracted } => format!(
                "{s} agrees to take back {}",
                retracted
                    .iter()
                    .map(|m| m.canonical.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Act::TakebackDecline => format!("{s} refuses the take-back"),
            Act::Adjudicate { result, reason } => {
                format!("the referee adjudicates {result}: {reason}")
            }
            Act::Abort { reason } => format!("the referee aborts the game: {reason}"),
            Act::Extend { by } => format!("the referee gives {s} {by} more for this move"),
            Act::Leave { from, days } => format!(
                "{s} takes leave for {days} day{} from {}",
                if *days == 1 { "" } else { "s" },
                super::clock::format_time(*from)
            ),
        }
    }
}

pub(crate) mod side_name {
    use crate::color::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match c {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!(
                "side {other:?}: expected \"white\" or \"black\""
            ))),
        }
    }
}

/// How a game ended: `1-0`, `0-1` or `1/2-1/2`, why, and the rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub result: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

impl Ending {
    pub fn new(result: GameResult, reason: impl Into<String>, rule: Option<&str>) -> Ending {
        Ending {
            result: result.as_str().to_string(),
            reason: reason.into(),
            rule: rule.map(str::to_string),
        }
    }

    pub fn from_outcome(o: &Outcome) -> Ending {
        Ending::new(o.result, o.reason.clone(), Some(o.rule))
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.result, self.reason)?;
        if let Some(r) = &self.rule {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

/// The state file's contents, as written. A key the schema does not have
/// is refused with its name, line and column (a misspelt `timm_control`
/// would otherwise be dropped by the next save, and the clock with it);
/// data that a newer postal or another tool keeps in a file goes under
/// `extensions`, an object this version keeps as it is, unread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub format: String,
    pub variant: String,
    /// The definition of a variant defined by the user (issue 33): its
    /// variants.ini text, parents included, so that the game plays and
    /// checks the same when the file it came from changes or is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<String>,
    /// The start position text.
    pub start: String,
    #[serde(default)]
    pub players: Players,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Each player's leave a year, in days (absent: 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave_days: Option<u32>,
    /// No forfeit on time: a passed deadline is the referee's to judge.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_forfeit: bool,
    #[serde(with = "super::clock::time")]
    pub created: DateTime<Utc>,
    /// The game's own id (random, given at `new`; see [`super::notices`]
    /// for files without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    #[serde(default)]
    pub events: Vec<Event>,
    /// Every notice mailed about the game, oldest first ([`super::notices`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<NoticeRecord>,
    #[serde(default)]
    pub result: Option<Ending>,
    /// The position after `moves`: a cache, checked on loading.
    pub position: String,
    /// The conditional moves waiting for the opponent's move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditional: Option<Conditional>,
    /// The extension fields: anything under this key is kept on every
    /// save as it was read (written only when not empty).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub extensions: serde_json::Map<String, serde_json::Value>,
}

impl GameFile {
    /// Reads a state file's text, its format checked first: the file as
    /// written, not yet checked against itself ([`super::Game::from_file`]).
    pub fn from_json(text: &str) -> Result<GameFile, GameError> {
        // The format is checked before anything else is read: a file that
        // is not JSON is refused as such, then one that is not a game file
        // of this major version, before any of its fields. A file that
        // reads as a game file whole (the usual case) is read once, its
        // format checked after; any other is read again, as any JSON, for
        // what to say (a number out of range, say, is refused as such).
        match read_game_file(text) {
            Ok(file) if top_is_object(text) => {
                check_format_name(&file.format)?;
                Ok(file)
            }
            typed => {
                let value: serde_json::Value =
                    serde_json::from_str(text).map_err(|e| json_error(text, e))?;
                check_format(&value)?;
                typed.map_err(|e| json_error(text, e))
            }
        }
    }
}

/// Reads a state file's text as a [`GameFile`].
pub(super) fn read_game_file(text: &str) -> serde_json::Result<GameFile> {
    serde_json::from_str(text)
}

/// A game file's text, as `serde_json::to_writer_pretty` writes it and a
/// line feed, into `out`.
pub(super) fn write_game_file(out: &mut Vec<u8>, file: &GameFile) {
    serde_json::to_writer_pretty(&mut *out, file).expect("a game file serialises");
    out.push(b'\n');
}

/// A JSON error with its line and column.
pub(super) fn json_error(text: &str, e: serde_json::Error) -> GameError {
    let full = e.to_string();
    let mut message = match full.rfind(" at line ") {
        Some(i) if e.line() > 0 => full[..i].to_string(),
        _ => full,
    };
    if e.is_eof() {
        message.push_str(" (the file ends early: truncated?)");
    }
    GameError::Json {
        source: text.to_string(),
        line: e.line(),
        column: e.column(),
        message,
    }
}

/// Refuses what is not a postal game file, or is one of another major
/// version, before any other field counts: `value` is the file read as
/// JSON (only when it did not read as a game file, to say why).
pub(super) fn check_format(value: &serde_json::Value) -> Result<(), GameError> {
    let not_ours = |why: &str| {
        GameError::Format(format!(
            "not a postal game file: {why} (a game file starts with \"format\": \"{FORMAT}\")"
        ))
    };
    let top = value
        .as_object()
        .ok_or_else(|| not_ours("the top level is not a JSON object"))?;
    let format = top
        .get("format")
        .ok_or_else(|| not_ours("it has no \"format\" field"))?
        .as_str()
        .ok_or_else(|| not_ours("\"format\" is not a string"))?;
    check_format_name(format)
}

/// Does the JSON text's top level open an object? (A struct reads from an
/// array too, field by field: a game file is an object.)
pub(super) fn top_is_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// [`check_format`] of the `format` string: this major version.
pub(super) fn check_format_name(format: &str) -> Result<(), GameError> {
    let not_ours = |why: &str| {
        GameError::Format(format!(
            "not a postal game file: {why} (a game file starts with \"format\": \"{FORMAT}\")"
        ))
    };
    let version = format
        .strip_prefix(FORMAT_NAME)
        .ok_or_else(|| not_ours(&format!("its format is {format:?}")))?;
    let major = version.split('.').next().unwrap_or("");
    match major.parse::<u64>() {
        Ok(FORMAT_MAJOR) => Ok(()),
        Ok(n) if n > FORMAT_MAJOR => Err(GameError::Format(format!(
            "this game file is format {format:?}, from a newer version of postal; this version reads {FORMAT} only: upgrade postal to play it"
        ))),
        _ => Err(GameError::Format(format!(
            "unknown game file format {format:?}; this version of postal reads {FORMAT}"
        ))),
    }
}

/// The state file's format, pinned. What postal writes is compared byte
/// for byte, and what it reads (the file, or the error with its line and
/// column) answer for answer, with what postal wrote and read when these
/// answers were recorded, in `fixtures/state-file/`: files written by one
/// version of postal must load in the others. `POSTAL_BLESS=1 cargo test
/// --lib game::file` records them again, for a change of the format that
/// is meant.
#[cfg(test)]
mod tests;
