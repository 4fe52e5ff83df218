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
pub struct MoveRecord {
    /// The text the player typed.
    pub played: String,
    /// The same move in the variant's canonical notation, with `+`/`#`.
    pub canonical: String,
    /// When it was made (UTC).
    pub time: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
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
}

/// An act with its time, the side that made it, and the number of moves
/// on the board when it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub time: DateTime<Utc>,
    #[serde(with = "side_name")]
    pub side: Color,
    pub ply: usize,
    #[serde(flatten)]
    pub act: Act,
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

/// The state file's contents, as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFile {
    pub format: String,
    pub variant: String,
    /// The start position text.
    pub start: String,
    #[serde(default)]
    pub players: Players,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
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
/// version, before reading any other field.
pub(super) fn check_format(value: &serde_json::Value) -> Result<(), GameError> {
    let not_ours = |why: &str| {
        GameError::Format(format!(
            "not a postal game file: {why} (a game file starts with \"format\": \"{FORMAT}\")"
        ))
    };
    let obj = value
        .as_object()
        .ok_or_else(|| not_ours("the top level is not a JSON object"))?;
    let format = obj
        .get("format")
        .ok_or_else(|| not_ours("it has no \"format\" field"))?
        .as_str()
        .ok_or_else(|| not_ours("\"format\" is not a string"))?;
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
