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

use super::clock::TimeControl;
use super::notices::NoticeRecord;
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
}

impl RawEvent {
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
            ("extend", None, None, Some(by)) => match super::clock::TimeControl::parse(&by) {
                Ok(super::clock::TimeControl::PerMove(_)) => Ok(Act::Extend { by }),
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
        if let Some(act) = r.referee_act() {
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
                    "unknown act {name:?}: expected draw-offer, draw-accept, draw-decline, resign, claim, takeback-request, takeback-accept, takeback-decline, adjudicate, abort or extend"
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
    /// The start position text.
    pub start: String,
    #[serde(default)]
    pub players: Players,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
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
    /// The extension fields: anything under this key is kept on every
    /// save as it was read (written only when not empty).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub extensions: serde_json::Map<String, serde_json::Value>,
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

/// The top level of a state file, read as far as [`check_format`] needs:
/// whether it is an object, and its `format` value. Every other value is
/// read as JSON and dropped ([`Skip`]): the same checks, errors and places
/// as reading the whole file into a `serde_json::Value`, without building
/// one (the file is then read again into a [`GameFile`]).
pub(super) struct Head {
    object: bool,
    format: Option<serde_json::Value>,
}

/// Any JSON value, read through and dropped. Unlike
/// [`serde::de::IgnoredAny`], which skips over numbers without reading
/// them, every value is read as for a `serde_json::Value` (a number out of
/// range is refused).
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Skip, D::Error> {
        d.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> serde::de::Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// A key of the top-level object: whether it is `format`.
struct IsFormat(bool);

impl<'de> Deserialize<'de> for IsFormat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<IsFormat, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IsFormat;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E>(self, key: &str) -> Result<IsFormat, E> {
                Ok(IsFormat(key == "format"))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for Head {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Head, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Head;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Head, A::Error> {
                let mut format = None;
                while let Some(IsFormat(is)) = map.next_key()? {
                    if is {
                        // As in a `serde_json::Value`, the last one counts.
                        format = Some(map.next_value()?);
                    } else {
                        map.next_value::<Skip>()?;
                    }
                }
                Ok(Head {
                    object: true,
                    format,
                })
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Head, A::Error> {
                SkipVisitor.visit_seq(seq).map(|_| Head::OTHER)
            }

            fn visit_bool<E>(self, _: bool) -> Result<Head, E> {
                Ok(Head::OTHER)
            }

            fn visit_i64<E>(self, _: i64) -> Result<Head, E> {
                Ok(Head::OTHER)
            }

            fn visit_u64<E>(self, _: u64) -> Result<Head, E> {
                Ok(Head::OTHER)
            }

            fn visit_f64<E>(self, _: f64) -> Result<Head, E> {
                Ok(Head::OTHER)
            }

            fn visit_str<E>(self, _: &str) -> Result<Head, E> {
                Ok(Head::OTHER)
            }

            fn visit_unit<E>(self) -> Result<Head, E> {
                Ok(Head::OTHER)
            }
        }
        d.deserialize_any(V)
    }
}

impl Head {
    /// A top level that is not an object.
    const OTHER: Head = Head {
        object: false,
        format: None,
    };
}

/// Refuses what is not a postal game file, or is one of another major
/// version, before reading any other field.
pub(super) fn check_format(head: &Head) -> Result<(), GameError> {
    let not_ours = |why: &str| {
        GameError::Format(format!(
            "not a postal game file: {why} (a game file starts with \"format\": \"{FORMAT}\")"
        ))
    };
    if !head.object {
        return Err(not_ours("the top level is not a JSON object"));
    }
    let format = head
        .format
        .as_ref()
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
mod tests {
    use super::{read_game_file, write_game_file, GameFile, MoveRecord};
    use chrono::{DateTime, Utc};
    use std::path::PathBuf;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn record(played: &str, canonical: &str, time: DateTime<Utc>) -> MoveRecord {
        MoveRecord {
            played: played.into(),
            canonical: canonical.into(),
            time,
            comment: None,
            via: None,
        }
    }

    /// A file of `moves` with every other field set, and strings that name
    /// the moves' key where no key is.
    fn file(moves: Vec<MoveRecord>) -> GameFile {
        serde_json::from_value(serde_json::json!({
            "format": "postal-game/1",
            "variant": "chess",
            "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "players": { "white": { "name": "Ana \"moves\": [" }, "black": {} },
            "time_control": null,
            "created": "2025-03-01T09:00:00Z",
            "id": "0123456789ab",
            "moves": moves,
            "events": [],
            "result": null,
            "position": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "extensions": { "x": { "moves": [ { "played": "a4" } ] } }
        }))
        .unwrap()
    }

    /// Every character JSON writes escaped (the controls, `"`, `\`), and
    /// some it writes as they are.
    fn awkward() -> String {
        let mut s: String = (0u8..0x80).map(char::from).collect();
        s.push_str("é\u{2028}\u{2029}\u{fffd}😀/");
        s
    }

    fn files() -> Vec<GameFile> {
        let t = at("2025-03-01T10:00:00Z");
        let mut commented = record("e2-e4", "e4", t);
        commented.comment = Some(awkward());
        let mut via = record("Nf3", "Nf3", at("2025-03-01T10:00:00.5Z"));
        via.via = Some("0f1e2d".into());
        via.comment = Some(String::new());
        vec![
            file(vec![]),
            file(vec![record("e4", "e4", t)]),
            file(vec![
                commented,
                record(&awkward(), "e5", at("0001-01-01T00:00:00Z")),
                via,
                record("Qh5", "Qh5+", at("9999-12-31T23:59:59.999999999Z")),
            ]),
        ]
    }

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/state-file")
            .join(name)
    }

    /// `got` against the fixture `name`, or written to it when blessing.
    fn golden(name: &str, got: &str) {
        let path = fixture(name);
        if std::env::var_os("POSTAL_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, got).unwrap();
            return;
        }
        let want =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            panic!(
                "fixtures/state-file/{name} differs from line {}:\n  now:    {:?}\n  before: {:?}\n\
                 (the state file's format changed; `POSTAL_BLESS=1 cargo test --lib game::file` if that is meant)",
                line + 1,
                got.lines().nth(line),
                want.lines().nth(line)
            );
        }
    }

    /// What reading `text` gives: the file, written back on one line, or
    /// the error with its line and column.
    fn answer(text: &str) -> String {
        match read_game_file(text) {
            Ok(f) => format!("ok {}", serde_json::to_string(&f).unwrap()),
            Err(e) => format!("error {e}"),
        }
    }

    fn written(f: &GameFile) -> String {
        let mut out = Vec::new();
        write_game_file(&mut out, f);
        String::from_utf8(out).unwrap()
    }

    /// Files are written byte for byte as before, and read back to
    /// themselves, pretty or compact.
    #[test]
    fn files_are_written_as_before_and_read_back() {
        for (n, f) in files().into_iter().enumerate() {
            let text = written(&f);
            golden(&format!("written-{n}.json"), &text);
            assert_eq!(read_game_file(&text).unwrap(), f, "file {n}");
            let compact = serde_json::to_string(&f).unwrap();
            assert_eq!(read_game_file(&compact).unwrap(), f, "file {n}, compact");
        }
        // A game postal wrote (tests/game.rs plays it) writes back the same.
        let sample = include_str!("../../fixtures/game/sample.json");
        assert_eq!(written(&read_game_file(sample).unwrap()), sample);
    }

    /// Files edited by hand, well formed or not, read as before: to the
    /// same file, or to the same error at the same place.
    #[test]
    fn edited_files_read_as_before() {
        let t = at("2025-03-01T10:00:00Z");
        let mut m = record("e2-e4", "e4", t);
        m.comment = Some("as \"usual\"".into());
        let base = serde_json::to_string_pretty(&file(vec![m, record("e5", "e5", t)])).unwrap();
        let edits: &[(&str, &str)] = &[
            ("\"played\": \"e2-e4\"", "\"pl\\u0061yed\": \"e2-e4\""),
            ("\"played\": \"e2-e4\"", "\"played\": \"e2\\u002de4\""),
            (
                "\"played\": \"e2-e4\"",
                "\"played\": \"e2-e4\", \"played\": \"e4\"",
            ),
            (
                "\"played\": \"e2-e4\"",
                "\"played\": \"e2-e4\", \"extra\": 1",
            ),
            ("\"played\": \"e2-e4\"", "\"played\": null"),
            ("\"played\": \"e2-e4\"", "\"played\": 7"),
            ("\"played\": \"e2-e4\",", ""),
            (
                "\"canonical\": \"e4\",",
                "\"canonical\": \"e4\", \"via\": null,",
            ),
            (
                "\"canonical\": \"e4\",",
                "\"canonical\": \"e4\", \"comment\": nul,",
            ),
            (
                "\"canonical\": \"e4\",",
                "\"canonical\": \"e4\", \"via\": [],",
            ),
            ("2025-03-01T10:00:00Z", "2025-03-01T10:00:00+01:00"),
            ("2025-03-01T10:00:00Z", "2025-02-30T10:00:00Z"),
            ("2025-03-01T10:00:00Z", "2025-03-01t10:00:00Z"),
            ("2025-03-01T10:00:00Z", "10000-03-01T10:00:00Z"),
            ("\"moves\": [", "\"moves\": [], \"moves\": ["),
            ("\"moves\": [", "\"moves\" : \n\t["),
            ("\"moves\": [", "\"moves\": [\n    {},"),
            ("\"events\"", "\"moves\": [],\n  \"events\""),
            ("\n  ],\n  \"events\"", ",\n  ],\n  \"events\""),
            ("\n  ],\n  \"events\"", "\n  ,\n  \"events\""),
            ("\n  ],\n  \"events\"", "\n  ]]\n  \"events\""),
            ("\"format\"", "\"moves\": [],\n  \"format\""),
            ("{\n  \"format\"", "[{\n  \"format\""),
            (
                "\"time_control\": null",
                "\"time_control\": \"x\\\"\\\\\\\"moves\\\": [\"",
            ),
        ];
        let mut answers = String::new();
        for (from, to) in edits {
            assert!(base.contains(from), "{from}");
            let text = base.replacen(from, to, 1);
            answers.push_str(&format!("# {from:?} -> {to:?}\n{}\n", answer(&text)));
        }
        golden("edits.txt", &answers);
    }

    /// FNV-1a, 64 bits: a hash that stays the same from one Rust to the
    /// next, for answers recorded in a fixture.
    fn fnv(hash: &mut u64, bytes: &[u8]) {
        for &b in bytes {
            *hash ^= u64::from(b);
            *hash = hash.wrapping_mul(0x100_0000_01b3);
        }
    }

    /// Every file one edit away from a good one (a character removed,
    /// doubled, or replaced by one that means something in JSON) reads as
    /// before. The fixture holds, for each character of each base, a hash
    /// of the answers to its seventeen edits.
    #[test]
    fn files_one_edit_from_a_good_one_read_as_before() {
        let t = at("2025-03-01T10:00:00Z");
        let mut m = record("e4", "e4", t);
        m.comment = Some("a \"b\"\n".into());
        let f = file(vec![m, record("e5", "e5", t)]);
        // And records laid out as postal writes them.
        let plain = file(vec![record("e4", "e4", t), record("Nf6", "Nf6+", t)]);
        let bases = [
            serde_json::to_string_pretty(&f).unwrap(),
            serde_json::to_string(&f).unwrap(),
            serde_json::to_string_pretty(&plain).unwrap(),
        ];
        let marks = [
            "", "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "\u{1}", "n", "0", "a", "T",
        ];
        let mut hashes = String::new();
        let mut now = Vec::new();
        for (b, base) in bases.iter().enumerate() {
            for (i, c) in base.char_indices() {
                let (head, tail) = (&base[..i], &base[i + c.len_utf8()..]);
                let texts = std::iter::once(format!("{head}{c}{c}{tail}"))
                    .chain(marks.iter().map(|mark| format!("{head}{mark}{tail}")));
                let mut hash = 0xcbf2_9ce4_8422_2325;
                let mut answers = Vec::new();
                for text in texts {
                    let a = answer(&text);
                    fnv(&mut hash, a.as_bytes());
                    fnv(&mut hash, &[0xff]);
                    answers.push(a);
                }
                hashes.push_str(&format!("{b} {i} {hash:016x}\n"));
                now.push((b, i, c, answers));
            }
        }
        if let Some((n, _)) = std::fs::read_to_string(fixture("one-edit.txt"))
            .unwrap_or_default()
            .lines()
            .zip(hashes.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .filter(|_| std::env::var_os("POSTAL_BLESS").is_none())
        {
            let (b, i, c, answers) = &now[n];
            panic!(
                "base {b}, character {i} ({c:?}): the edits there read otherwise than before; now:\n{}",
                answers.join("\n")
            );
        }
        golden("one-edit.txt", &hashes);
    }
}
