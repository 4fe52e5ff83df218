//! The game state file and the game it describes.
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
//! [`Game`] is a file that has been checked: loading replays every move
//! from `start`, compares each recorded canonical text and the cache, and
//! derives the result from the moves and events, refusing the file, with
//! the first bad move named, when anything disagrees.
//!
//! Who may act: there is no authentication in a file that travels by
//! mail, so a move is always made for the side to move. The other acts
//! take a side (`--as` on the command line, by default the side to move,
//! or for an answer the side that did not make the offer) and are refused
//! out of turn: accepting one's own offer, answering when nothing is
//! pending, claiming a draw when it is not one's move, claiming on time
//! against oneself, any act after the game has ended.

use super::clock::{format_time, TimeControl, Turn};
use super::GameError;
use crate::color::Color;
use crate::position::{Effects, GameResult, Outcome, Position};
use crate::variant::Variant;
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
        if let Some(e) = email {
            let ok = e
                .split_once('@')
                .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
                && !e.contains(char::is_whitespace)
                && !e.contains(['<', '>']);
            if !ok {
                return Err(format!("player {text:?}: {e:?} is not a mail address"));
            }
        }
        if name.contains(['<', '>', '\n']) {
            return Err(format!(
                "player {text:?}: the name may not contain < > or a line break"
            ));
        }
        Ok(Player {
            name: (!name.is_empty()).then(|| name.to_string()),
            email: email.map(str::to_string),
        })
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
}

/// An act with its time, the side that made it, and the number of moves
/// on the board when it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
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

mod side_name {
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
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    #[serde(default)]
    pub events: Vec<Event>,
    #[serde(default)]
    pub result: Option<Ending>,
    /// The position after `moves`: a cache, checked on loading.
    pub position: String,
}

/// The answer to a draw offer or take-back request, or the offer itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proposal {
    Make,
    Accept,
    Decline,
}

/// What a move did, for the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub mover: Color,
    /// `3.` or `3...`.
    pub number: String,
    pub canonical: String,
    pub effects: Effects,
    pub check: bool,
    /// The end of the game, when the move ended it.
    pub ending: Option<Ending>,
}

impl MoveReport {
    /// `3. Bb5`, `3... a6`.
    pub fn numbered(&self) -> String {
        format!("{} {}", self.number, self.canonical)
    }

    /// What the move did beyond moving its piece, one fact a line.
    pub fn facts(&self) -> Vec<String> {
        let mut out = self.effects.facts();
        if self.check && self.ending.is_none() {
            out.push("check".to_string());
        }
        if let Some(end) = &self.ending {
            out.push(format!("game over: {end}"));
        }
        out
    }
}

/// A game: a checked [`GameFile`] and its positions.
#[derive(Clone, Debug)]
pub struct Game {
    file: GameFile,
    variant: Variant,
    /// The start and the position after each move: `moves.len() + 1`.
    positions: Vec<Position>,
}

/// The game-level ending of the position after `positions` (the start
/// first, the current last): what the position decides, then the
/// variant's history rule (KR-10), then fivefold repetition and the
/// seventy-five-move rule (FI-5, in every variant: a board that grows,
/// as in Building Chess, simply never repeats).
pub fn automatic_ending(positions: &[Position]) -> Option<Outcome> {
    let cur = positions.last()?;
    if let Some(o) = cur.outcome() {
        return Some(o);
    }
    if let Some(o) = cur.variant.rules().history_outcome(positions) {
        return Some(o);
    }
    if repetitions(positions) >= 5 {
        return Some(Outcome::new(
            GameResult::Draw,
            "fivefold repetition",
            "FI-5",
        ));
    }
    if cur.halfmove >= 150 {
        return Some(Outcome::new(
            GameResult::Draw,
            "seventy-five moves without capture or pawn move",
            "FI-5",
        ));
    }
    None
}

/// How often the last position has occurred (itself included).
pub fn repetitions(positions: &[Position]) -> usize {
    let Some(cur) = positions.last() else {
        return 0;
    };
    let key = cur.repetition_key();
    positions
        .iter()
        .filter(|p| p.turn == cur.turn && p.repetition_key() == key)
        .count()
}

/// `3.` before a White move, `3...` before a Black one.
fn move_number(before: &Position) -> String {
    match before.turn {
        Color::White => format!("{}.", before.fullmove),
        Color::Black => format!("{}...", before.fullmove),
    }
}

fn is_ending(act: &Act) -> bool {
    matches!(act, Act::Resign | Act::DrawAccept | Act::Claim { .. })
}

impl Game {
    /// A new game from `start`.
    pub fn new(
        start: Position,
        players: Players,
        time_control: Option<TimeControl>,
        now: DateTime<Utc>,
    ) -> Result<Game, GameError> {
        let text = start.to_text();
        let file = GameFile {
            format: FORMAT.to_string(),
            variant: start.variant.name().to_string(),
            start: text.clone(),
            players,
            time_control,
            created: now,
            moves: Vec::new(),
            events: Vec::new(),
            result: None,
            position: text,
        };
        let mut game = Game {
            variant: start.variant,
            file,
            positions: vec![start],
        };
        if let Some(o) = automatic_ending(&game.positions) {
            return Err(GameError::Usage(format!(
                "the start position is already the end of the game: {}",
                Ending::from_outcome(&o)
            )));
        }
        game.sync_cache();
        Ok(game)
    }

    /// Reads and checks a state file's text.
    pub fn from_json(text: &str) -> Result<Game, GameError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| json_error(text, e))?;
        check_format(&value)?;
        let file: GameFile = serde_json::from_str(text).map_err(|e| json_error(text, e))?;
        Game::from_file(file)
    }

    /// Checks a file: replays the moves, compares the cache, derives the
    /// result from the moves and events.
    pub fn from_file(file: GameFile) -> Result<Game, GameError> {
        let variant = Variant::from_name(&file.variant)
            .ok_or_else(|| GameError::Corrupt(format!("unknown variant {:?}", file.variant)))?;
        let start = Position::from_text(variant, &file.start).map_err(|e| {
            GameError::Corrupt(format!(
                "the start position {:?} does not read: {e}",
                file.start
            ))
        })?;
        let mut positions = Vec::with_capacity(file.moves.len() + 1);
        positions.push(start);
        for (i, m) in file.moves.iter().enumerate() {
            let before = positions.last().expect("the start is there");
            let label = format!("move {} ({} {})", i + 1, move_number(before), m.played);
            if let Some(o) = automatic_ending(&positions) {
                return Err(GameError::Corrupt(format!(
                    "{label} was played after the game had ended ({})",
                    Ending::from_outcome(&o)
                )));
            }
            let mv = before
                .parse_move(&m.played)
                .map_err(|e| GameError::Corrupt(format!("{label}: {e}")))?;
            let canonical = before.move_text(&mv);
            if canonical != m.canonical {
                return Err(GameError::Corrupt(format!(
                    "{label}: recorded as {:?}, but the move played is {canonical}",
                    m.canonical
                )));
            }
            let next = before
                .play(&mv)
                .map_err(|e| GameError::Corrupt(format!("{label}: {e}")))?;
            positions.push(next);
        }
        let current = positions.last().expect("the start is there");
        let cached = Position::from_text(variant, &file.position).map_err(|e| {
            GameError::Corrupt(format!(
                "the cached position {:?} does not read: {e}",
                file.position
            ))
        })?;
        if cached.to_text() != current.to_text() {
            return Err(GameError::Corrupt(format!(
                "the cached position {:?} disagrees with the moves, which lead to {:?}",
                file.position,
                current.to_text()
            )));
        }
        let recorded = file.result.clone();
        let mut game = Game {
            variant,
            file,
            positions,
        };
        game.file.result = None;
        let derived = game.derive_result()?;
        if recorded != derived {
            let show = |r: &Option<Ending>| match r {
                Some(e) => e.to_string(),
                None => "no result (the game goes on)".to_string(),
            };
            return Err(GameError::Corrupt(format!(
                "the recorded result is {}, but the moves and events give {}",
                show(&recorded),
                show(&derived)
            )));
        }
        game.file.result = derived;
        Ok(game)
    }

    /// The result the moves and events give: the automatic ending of the
    /// last position, or the act that ended the game (which must be the
    /// last event, made when the moves were as they are, and valid then).
    fn derive_result(&self) -> Result<Option<Ending>, GameError> {
        let events = &self.file.events;
        for (i, e) in events.iter().enumerate() {
            if is_ending(&e.act) && i + 1 != events.len() {
                return Err(GameError::Corrupt(format!(
                    "event {} ({}) ended the game, but other events follow it",
                    i + 1,
                    e.describe()
                )));
            }
        }
        let auto = automatic_ending(&self.positions).map(|o| Ending::from_outcome(&o));
        let Some(last) = events.last().filter(|e| is_ending(&e.act)) else {
            return Ok(auto);
        };
        let n = events.len();
        if last.ply != self.file.moves.len() {
            return Err(GameError::Corrupt(format!(
                "event {n} ({}) ended the game after move {}, but {} moves follow",
                last.describe(),
                last.ply,
                self.file.moves.len().saturating_sub(last.ply)
            )));
        }
        if let Some(a) = auto {
            return Err(GameError::Corrupt(format!(
                "event {n} ({}) was made after the game had ended ({a})",
                last.describe()
            )));
        }
        let before = Game {
            file: GameFile {
                events: events[..n - 1].to_vec(),
                ..self.file.clone()
            },
            variant: self.variant,
            positions: self.positions.clone(),
        };
        let bad =
            |e: GameError| GameError::Corrupt(format!("event {n} ({}): {e}", last.describe()));
        let ending = match &last.act {
            Act::Resign => before.resign_ending(last.side).map_err(bad)?,
            Act::DrawAccept => before
                .answer_check(true, Some(last.side))
                .map_err(bad)
                .map(|_| Ending::new(GameResult::Draw, "agreement", None))?,
            Act::Claim { claim } => {
                before
                    .check_claim(*claim, Some(last.side), last.time)
                    .map_err(bad)?
                    .1
            }
            _ => unreachable!("is_ending"),
        };
        Ok(Some(ending))
    }

    /// The state file's text.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(&self.file).expect("a game file serialises");
        s.push('\n');
        s
    }

    pub fn file(&self) -> &GameFile {
        &self.file
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start and the position after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn current(&self) -> &Position {
        self.positions.last().expect("the start is there")
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.current().turn
    }

    pub fn result(&self) -> Option<&Ending> {
        self.file.result.as_ref()
    }

    pub fn moves(&self) -> &[MoveRecord] {
        &self.file.moves
    }

    pub fn events(&self) -> &[Event] {
        &self.file.events
    }

    /// `3. Bb5` for the move at `index` (0-based).
    pub fn numbered_move(&self, index: usize) -> String {
        format!(
            "{} {}",
            move_number(&self.positions[index]),
            self.file.moves[index].canonical
        )
    }

    fn sync_cache(&mut self) {
        self.file.position = self.current().to_text();
    }

    fn not_over(&self) -> Result<(), GameError> {
        match &self.file.result {
            Some(e) => Err(GameError::Rule(format!("the game is over: {e}"))),
            None => Ok(()),
        }
    }

    /// The completed turns for the clock, and when the current turn began.
    /// A take-back restarts the clock of the player to move.
    fn turns(&self) -> (Vec<Turn>, DateTime<Utc>) {
        let resets: Vec<DateTime<Utc>> = self
            .file
            .events
            .iter()
            .filter(|e| matches!(e.act, Act::TakebackAccept { .. }))
            .map(|e| e.time)
            .collect();
        let reset_by = |t: DateTime<Utc>| resets.iter().copied().filter(|r| *r <= t).max();
        let mut started = self.file.created;
        let mut turns = Vec::with_capacity(self.file.moves.len());
        for (i, m) in self.file.moves.iter().enumerate() {
            let began = reset_by(m.time).map_or(started, |r| r.max(started));
            turns.push(Turn {
                side: self.positions[i].turn,
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

    /// The deadline of the player to move, when the game has a time
    /// control and goes on.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        if self.file.result.is_some() {
            return None;
        }
        let tc = self.file.time_control?;
        let (turns, started) = self.turns();
        Some(tc.deadline(&turns, self.turn(), started))
    }

    /// The side whose draw offer stands: it stands until answered, until
    /// the other side moves, or until a take-back.
    pub fn pending_draw_offer(&self) -> Option<Color> {
        if self.file.result.is_some() {
            return None;
        }
        let ply = self.file.moves.len();
        for e in self.file.events.iter().rev() {
            match e.act {
                Act::DrawOffer => {
                    let stands =
                        ply == e.ply || (ply == e.ply + 1 && self.positions[e.ply].turn == e.side);
                    return stands.then_some(e.side);
                }
                Act::DrawAccept | Act::DrawDecline | Act::TakebackAccept { .. } => return None,
                _ => {}
            }
        }
        None
    }

    /// The side whose take-back request stands: until answered or until
    /// anyone moves.
    pub fn pending_takeback(&self) -> Option<Color> {
        if self.file.result.is_some() {
            return None;
        }
        let ply = self.file.moves.len();
        for e in self.file.events.iter().rev() {
            match e.act {
                Act::TakebackRequest => return (e.ply == ply).then_some(e.side),
                Act::TakebackAccept { .. } | Act::TakebackDecline => return None,
                _ => {}
            }
        }
        None
    }

    /// How many moves a take-back by `side` retracts: back to and
    /// including that side's last move.
    fn takeback_plies(&self, side: Color) -> Result<usize, GameError> {
        let n = self.file.moves.len();
        (0..n)
            .rev()
            .find(|&i| self.positions[i].turn == side)
            .map(|i| n - i)
            .ok_or_else(|| GameError::Rule(format!("{side} has made no move to take back")))
    }

    fn push_event(&mut self, side: Color, act: Act, now: DateTime<Utc>) {
        self.file.events.push(Event {
            time: now,
            side,
            ply: self.file.moves.len(),
            via: None,
            act,
        });
    }

    /// Marks the moves and events added since there were `moves` moves
    /// and `events` events as made by the message whose hash is `via`.
    pub fn mark_via(&mut self, moves: usize, events: usize, via: &str) {
        for m in self.file.moves.iter_mut().skip(moves) {
            m.via = Some(via.to_string());
        }
        for e in self.file.events.iter_mut().skip(events) {
            e.via = Some(via.to_string());
        }
    }

    /// Whether an act of the message whose hash is `via` is in the game
    /// (on the board, in an event, or among the moves a take-back retracted).
    pub fn has_via(&self, via: &str) -> bool {
        let is = |v: &Option<String>| v.as_deref() == Some(via);
        self.file.moves.iter().any(|m| is(&m.via))
            || self.file.events.iter().any(|e| {
                is(&e.via)
                    || matches!(&e.act, Act::TakebackAccept { retracted } if retracted.iter().any(|m| is(&m.via)))
            })
    }

    /// Plays a move for the side to move.
    pub fn play(
        &mut self,
        text: &str,
        comment: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<MoveReport, GameError> {
        self.not_over()?;
        let before = self.current().clone();
        let move_error = |error| GameError::Move {
            text: text.to_string(),
            error,
        };
        let mv = before.parse_move(text).map_err(move_error)?;
        let canonical = before.move_text(&mv);
        let (next, effects) = before
            .play_with_effects(&mv)
            .map_err(|e| move_error(e.into()))?;
        let check = next.is_check();
        self.file.moves.push(MoveRecord {
            played: text.trim().to_string(),
            canonical: canonical.clone(),
            time: now,
            comment: comment.filter(|c| !c.is_empty()),
            via: None,
        });
        self.positions.push(next);
        self.sync_cache();
        let ending = automatic_ending(&self.positions).map(|o| Ending::from_outcome(&o));
        self.file.result = ending.clone();
        Ok(MoveReport {
            mover: before.turn,
            number: move_number(&before),
            canonical,
            effects,
            check,
            ending,
        })
    }

    fn resign_ending(&self, side: Color) -> Result<Ending, GameError> {
        self.not_over()?;
        self.variant.rules().may_resign().map_err(GameError::Rule)?;
        Ok(Ending::new(
            GameResult::win_for(!side),
            format!("{side} resigns"),
            None,
        ))
    }

    /// Resigns for `side` (by default the side to move), where the variant
    /// allows it (KR-11 does not).
    pub fn resign(&mut self, side: Option<Color>, now: DateTime<Utc>) -> Result<Ending, GameError> {
        let side = side.unwrap_or(self.turn());
        let ending = self.resign_ending(side)?;
        self.push_event(side, Act::Resign, now);
        self.file.result = Some(ending.clone());
        Ok(ending)
    }

    /// Checks an answer (accept or decline) to the pending draw offer
    /// (`draw`) or take-back request, returning the side that answers and
    /// the side that asked.
    fn answer_check(&self, draw: bool, side: Option<Color>) -> Result<(Color, Color), GameError> {
        self.not_over()?;
        let what = if draw {
            "draw offer"
        } else {
            "take-back request"
        };
        let pending = if draw {
            self.pending_draw_offer()
        } else {
            self.pending_takeback()
        };
        let asker = pending.ok_or_else(|| GameError::Rule(format!("no {what} is pending")))?;
        let answerer = side.unwrap_or(!asker);
        if answerer == asker {
            return Err(GameError::Rule(format!(
                "{asker} cannot answer {asker}'s own {what}; it is for {} to accept or decline",
                !asker
            )));
        }
        Ok((answerer, asker))
    }

    /// Offers, accepts or declines a draw; returns what happened in words.
    pub fn draw(
        &mut self,
        step: Proposal,
        side: Option<Color>,
        now: DateTime<Utc>,
    ) -> Result<String, GameError> {
        match step {
            Proposal::Make => {
                self.not_over()?;
                let side = side.unwrap_or(self.turn());
                if let Some(by) = self.pending_draw_offer() {
                    return Err(GameError::Rule(if by == side {
                        format!("{side}'s draw offer is already pending")
                    } else {
                        format!("{by} has offered a draw: accept or decline it")
                    }));
                }
                self.push_event(side, Act::DrawOffer, now);
                Ok(format!(
                    "{side} offers a draw; it stands until {} accepts or declines it, or moves",
                    !side
                ))
            }
            Proposal::Accept => {
                let (side, asker) = self.answer_check(true, side)?;
                self.push_event(side, Act::DrawAccept, now);
                let ending = Ending::new(GameResult::Draw, "agreement", None);
                self.file.result = Some(ending.clone());
                Ok(format!(
                    "{side} accepts {asker}'s draw offer; game over: {ending}"
                ))
            }
            Proposal::Decline => {
                let (side, asker) = self.answer_check(true, side)?;
                self.push_event(side, Act::DrawDecline, now);
                Ok(format!("{side} declines {asker}'s draw offer"))
            }
        }
    }

    /// Requests, accepts or refuses a take-back. An accepted take-back
    /// retracts the requester's last move and any reply to it; the
    /// retracted moves stay in the accepting event.
    pub fn takeback(
        &mut self,
        step: Proposal,
        side: Option<Color>,
        now: DateTime<Utc>,
    ) -> Result<String, GameError> {
        match step {
            Proposal::Make => {
                self.not_over()?;
                let side = side.unwrap_or(self.turn());
                if let Some(by) = self.pending_takeback() {
                    return Err(GameError::Rule(format!(
                        "{by}'s take-back request is already pending"
                    )));
                }
                let n = self.takeback_plies(side)?;
                let first = self.file.moves.len() - n;
                self.push_event(side, Act::TakebackRequest, now);
                Ok(format!(
                    "{side} asks to take back {}",
                    self.numbered_range(first)
                ))
            }
            Proposal::Accept => {
                let (side, asker) = self.answer_check(false, side)?;
                let n = self.takeback_plies(asker)?;
                let first = self.file.moves.len() - n;
                let words = self.numbered_range(first);
                let retracted = self.file.moves.split_off(first);
                self.positions.truncate(first + 1);
                self.push_event(side, Act::TakebackAccept { retracted }, now);
                self.sync_cache();
                Ok(format!(
                    "{side} agrees: {words} taken back; {} to move",
                    self.turn()
                ))
            }
            Proposal::Decline => {
                let (side, asker) = self.answer_check(false, side)?;
                self.push_event(side, Act::TakebackDecline, now);
                Ok(format!("{side} refuses {asker}'s take-back request"))
            }
        }
    }

    /// The moves from `first` to the end, numbered: `2. Nf3 2... Nc6`.
    fn numbered_range(&self, first: usize) -> String {
        (first..self.file.moves.len())
            .map(|i| self.numbered_move(i))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Checks a claim by `side` at `now`, returning the claimant and the
    /// ending it gives. Draw claims are the player to move's (rules/
    /// README.md); a time claim is the other player's, after the deadline.
    fn check_claim(
        &self,
        claim: Claim,
        side: Option<Color>,
        now: DateTime<Utc>,
    ) -> Result<(Color, Ending), GameError> {
        self.not_over()?;
        let turn = self.turn();
        match claim {
            Claim::Time => {
                let side = side.unwrap_or(!turn);
                if side == turn {
                    return Err(GameError::Rule(format!(
                        "{side} is to move: only {} can claim a time forfeit",
                        !turn
                    )));
                }
                let Some(deadline) = self.deadline() else {
                    return Err(GameError::Rule(
                        "this game has no time control: there is no time forfeit to claim".into(),
                    ));
                };
                if now <= deadline {
                    return Err(GameError::Rule(format!(
                        "{turn}'s deadline, {}, has not passed",
                        format_time(deadline)
                    )));
                }
                Ok((
                    side,
                    Ending::new(
                        GameResult::win_for(side),
                        format!("{turn} lost on time (deadline {})", format_time(deadline)),
                        None,
                    ),
                ))
            }
            Claim::Repetition | Claim::FiftyMoves => {
                let side = side.unwrap_or(turn);
                if side != turn {
                    return Err(GameError::Rule(format!(
                        "a draw is claimed by the player to move, and it is {turn}'s move"
                    )));
                }
                if claim == Claim::Repetition {
                    let n = repetitions(&self.positions);
                    if n < 3 {
                        return Err(GameError::Rule(format!(
                            "the position has occurred {n} time{}, not three",
                            if n == 1 { "" } else { "s" }
                        )));
                    }
                    Ok((
                        side,
                        Ending::new(GameResult::Draw, "threefold repetition", Some("FI-5")),
                    ))
                } else {
                    let h = self.current().halfmove;
                    if h < 100 {
                        return Err(GameError::Rule(format!(
                            "{h} half-moves since the last capture or pawn move, not 100"
                        )));
                    }
                    Ok((
                        side,
                        Ending::new(
                            GameResult::Draw,
                            "fifty moves without capture or pawn move",
                            Some("FI-5"),
                        ),
                    ))
                }
            }
        }
    }

    /// Claims a draw or a time forfeit. With no `claim`, whichever holds:
    /// a time forfeit (for the side not to move), then threefold
    /// repetition, then fifty moves (for the side to move).
    pub fn claim(
        &mut self,
        claim: Option<Claim>,
        side: Option<Color>,
        now: DateTime<Utc>,
    ) -> Result<Ending, GameError> {
        let (claim, (side, ending)) = match claim {
            Some(c) => (c, self.check_claim(c, side, now)?),
            None => {
                let mut reasons = Vec::new();
                let mut found = None;
                for c in [Claim::Time, Claim::Repetition, Claim::FiftyMoves] {
                    match self.check_claim(c, side, now) {
                        Ok(r) => {
                            found = Some((c, r));
                            break;
                        }
                        Err(GameError::Rule(why)) => reasons.push(why),
                        Err(e) => return Err(e),
                    }
                }
                found.ok_or_else(|| {
                    GameError::Rule(format!("nothing to claim: {}", reasons.join("; ")))
                })?
            }
        };
        self.push_event(side, Act::Claim { claim }, now);
        self.file.result = Some(ending.clone());
        Ok(ending)
    }
}

/// A JSON error with its line and column.
fn json_error(text: &str, e: serde_json::Error) -> GameError {
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
fn check_format(value: &serde_json::Value) -> Result<(), GameError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::parse_time;

    fn t(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    fn chess() -> Game {
        Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            Some(TimeControl::parse("3d").unwrap()),
            t("2025-01-01T00:00:00Z"),
        )
        .unwrap()
    }

    fn reload(g: &Game) -> Game {
        Game::from_json(&g.to_json()).unwrap()
    }

    #[test]
    fn players() {
        let p = Player::parse("Ana Lima <ana@example.org>").unwrap();
        assert_eq!(p.name.as_deref(), Some("Ana Lima"));
        assert_eq!(p.email.as_deref(), Some("ana@example.org"));
        assert_eq!(p.label(Color::White), "Ana Lima <ana@example.org>");
        assert_eq!(Player::parse("ben@example.org").unwrap().name, None);
        assert_eq!(Player::parse("Ben").unwrap().email, None);
        assert!(Player::parse("Ana <ana>").is_err());
        assert!(Player::parse("Ana <ana@x").is_err());
    }

    #[test]
    fn moves_round_trip_and_time() {
        let mut g = chess();
        let r = g.play("e2-e4", None, t("2025-01-02T00:00:00Z")).unwrap();
        assert_eq!(r.numbered(), "1. e4");
        g.play("e5", Some("sharp".into()), t("2025-01-03T00:00:00Z"))
            .unwrap();
        let g2 = reload(&g);
        assert_eq!(g2.moves().len(), 2);
        assert_eq!(g2.moves()[0].played, "e2-e4");
        assert_eq!(g2.deadline(), Some(t("2025-01-06T00:00:00Z")));
        assert_eq!(g2.to_json(), g.to_json());
    }

    #[test]
    fn draw_offer_lapses_when_the_other_side_moves() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        g.draw(Proposal::Make, None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), Some(Color::White));
        g.play("e4", None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), Some(Color::White));
        assert!(g.draw(Proposal::Accept, Some(Color::White), now).is_err());
        g.play("e5", None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), None);
        assert!(g.draw(Proposal::Accept, None, now).is_err());
        g.draw(Proposal::Make, Some(Color::Black), now).unwrap();
        let msg = g.draw(Proposal::Accept, None, now).unwrap();
        assert!(msg.contains("White accepts Black's draw offer"), "{msg}");
        assert_eq!(reload(&g).result().unwrap().result, "1/2-1/2");
    }

    #[test]
    fn takeback_keeps_history() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        for m in ["e4", "e5", "Nf3"] {
            g.play(m, None, now).unwrap();
        }
        // Black, to move, retracts its own e5 and White's reply.
        g.takeback(Proposal::Make, None, now).unwrap();
        assert!(g
            .takeback(Proposal::Accept, Some(Color::Black), now)
            .is_err());
        let msg = g.takeback(Proposal::Accept, None, now).unwrap();
        assert!(msg.contains("1... e5, 2. Nf3"), "{msg}");
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.turn(), Color::Black);
        let g2 = reload(&g);
        match &g2.events().last().unwrap().act {
            Act::TakebackAccept { retracted } => assert_eq!(retracted.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn repetition_claims_and_fivefold() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        for m in shuffle {
            g.play(m, None, now).unwrap();
        }
        assert!(g.claim(Some(Claim::Repetition), None, now).is_err());
        for m in shuffle {
            g.play(m, None, now).unwrap();
        }
        // The start position, White to move, for the third time.
        assert!(g
            .clone()
            .claim(Some(Claim::Repetition), Some(Color::Black), now)
            .is_err());
        let mut claimed = g.clone();
        let e = claimed.claim(None, None, now).unwrap();
        assert_eq!(e.reason, "threefold repetition");
        reload(&claimed);
        for m in shuffle.iter().chain(shuffle.iter()) {
            g.play(m, None, now).unwrap();
        }
        assert_eq!(g.result().unwrap().reason, "fivefold repetition");
        assert!(g.play("e4", None, now).is_err());
    }

    #[test]
    fn time_forfeit_is_claimed_after_the_deadline() {
        let mut g = chess();
        let before = t("2025-01-03T23:59:59Z");
        let after = t("2025-01-04T00:00:01Z");
        assert!(g.claim(Some(Claim::Time), None, before).is_err());
        assert!(g
            .claim(Some(Claim::Time), Some(Color::White), after)
            .is_err());
        let e = g.claim(None, None, after).unwrap();
        assert_eq!(e.result, "0-1");
        reload(&g);
    }

    #[test]
    fn refuses_disagreeing_files() {
        let mut g = chess();
        g.play("e4", None, t("2025-01-02T00:00:00Z")).unwrap();
        let json = g.to_json();
        let edited = json.replace("\"canonical\": \"e4\"", "\"canonical\": \"d4\"");
        let err = Game::from_json(&edited).unwrap_err().to_string();
        assert!(err.contains("move 1 (1. e4)"), "{err}");
        let future = json.replace(FORMAT, "postal-game/2");
        let err = Game::from_json(&future).unwrap_err().to_string();
        assert!(err.contains("newer version"), "{err}");
        let minor = json.replace(FORMAT, "postal-game/1.3");
        assert!(Game::from_json(&minor).is_ok());
        let resigned = json.replace(
            "\"result\": null",
            "\"result\": {\"result\": \"1-0\", \"reason\": \"checkmate\"}",
        );
        let err = Game::from_json(&resigned).unwrap_err().to_string();
        assert!(err.contains("recorded result"), "{err}");
    }
}
