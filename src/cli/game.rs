//! What the game commands (`new`, `move`, `show`, `history`, `status`,
//! `resign`, `draw`, `claim`, `takeback`, and `moves FILE`) share: the
//! clock (`POSTAL_NOW`), the `--as` side, turning a [`GameError`] into the
//! printed error and exit code, and the lines that say where a game stands.

use super::CliError;
use crate::color::Color;
use crate::error::Span;
use crate::game::clock::{format_time, parse_time, relative, Clock, FixedClock, SystemClock};
use crate::game::store;
use crate::game::{Game, GameError, RuleBook};
use crate::render::{ascii, Options};
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// The note on time that the game commands' help ends with.
pub const TIME_HELP: &str = "Times are UTC, written in RFC 3339. The environment variable \
POSTAL_NOW, set to an RFC 3339 time (e.g. POSTAL_NOW=2025-03-01T09:00:00Z), replaces the \
computer's clock: for tests, and for entering a move made earlier by post.";

/// A side, for `--as`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// The clock: `POSTAL_NOW` when set, else the computer's.
pub fn clock() -> Result<Box<dyn Clock>, CliError> {
    match std::env::var("POSTAL_NOW") {
        Ok(text) if !text.trim().is_empty() => {
            let t = parse_time(&text).map_err(|e| CliError::usage(format!("POSTAL_NOW: {e}")))?;
            Ok(Box::new(FixedClock(t)))
        }
        _ => Ok(Box::new(SystemClock)),
    }
}

/// The state file and the step of an act that has steps, as typed:
/// `postal draw FILE offer` (the order of every act: the file first), or
/// the order of earlier versions, `postal draw offer FILE`, kept so that
/// scripts written for it still work. A file named like a step is read as
/// the file when the other word is a step.
pub fn file_and_step<T: clap::ValueEnum>(
    first: &Path,
    second: &Path,
) -> Result<(PathBuf, T), CliError> {
    let step = |p: &Path| p.to_str().and_then(|s| T::from_str(s, false).ok());
    match (step(second), step(first)) {
        (Some(s), _) => Ok((first.to_path_buf(), s)),
        (None, Some(s)) => Ok((second.to_path_buf(), s)),
        (None, None) => {
            let names: Vec<String> = T::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value())
                .map(|v| v.get_name().to_string())
                .collect();
            Err(CliError::usage(format!(
                "expected {} after the file, found {:?}",
                names.join(", "),
                second.display().to_string()
            )))
        }
    }
}

/// The byte offset of a 1-based line and column (serde_json counts the
/// column in bytes), on a character boundary.
fn offset_of(source: &str, line: usize, column: usize) -> usize {
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line_len = source[line_start..]
        .find('\n')
        .unwrap_or(source.len() - line_start);
    let mut at = line_start + column.saturating_sub(1).min(line_len);
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The printed error and exit code of a failed game command on `path`.
pub fn game_error(path: &Path, e: GameError) -> CliError {
    let name = path.display().to_string();
    let code = if e.is_rule() { 1 } else { 2 };
    match e {
        GameError::Json {
            source,
            line,
            column,
            message,
        } if line > 0 => {
            let at = offset_of(&source, line, column);
            CliError::in_text(
                &name,
                &source,
                Span::new(at, at),
                &format!("not a readable game file: {message}"),
                2,
            )
        }
        GameError::Json { message, .. } => {
            CliError::usage(format!("{name}: not a readable game file: {message}"))
        }
        GameError::Move { text, error } => match error.span() {
            Some(span) => CliError::in_text("<move>", &text, span, &error.to_string(), 2),
            None => CliError::rule(format!("{text:?}: {error}")),
        },
        GameError::Format(m) | GameError::Corrupt(m) => CliError::usage(format!("{name}: {m}")),
        GameError::Io { .. } => CliError::usage(e.to_string()),
        other => CliError {
            message: other.to_string(),
            code,
            diagnostic: None,
        },
    }
}

/// The player's own record of each game's rules ([`RuleBook::from_env`]),
/// against which every game file a player's command reads is checked.
pub fn rule_book() -> Result<RuleBook, CliError> {
    RuleBook::from_env().map_err(|e| CliError::usage(e.to_string()))
}

/// Loads a player's game for reading, its rules checked against the
/// player's record of them.
pub fn load(path: &Path) -> Result<Game, CliError> {
    store::load(path, Some(&rule_book()?)).map_err(|e| game_error(path, e))
}

/// A deadline with how far off it is: `2025-03-04T09:00:00Z (in 3 days)`.
pub fn deadline_text(deadline: DateTime<Utc>, now: DateTime<Utc>) -> String {
    format!("{} ({})", format_time(deadline), relative(deadline, now))
}

/// Where the game stands: whose move and the deadline, or the result;
/// pending offers and requests.
pub fn standing(game: &Game, now: DateTime<Utc>) -> String {
    let mut out = String::new();
    match game.result() {
        Some(end) => out.push_str(&format!("Game over: {end}\n")),
        None => {
            let turn = game.turn();
            match &game.file().players.get(turn).name {
                Some(name) => out.push_str(&format!("{turn} ({name}) to move")),
                None => out.push_str(&format!("{turn} to move")),
            }
            if let Some(d) = game.deadline() {
                out.push_str(&format!("; deadline {}", deadline_text(d, now)));
            }
            out.push('\n');
            if let Some(tc) = game.time_control_text() {
                out.push_str(&format!("Time control: {tc}\n"));
            }
            for line in game.clock_lines(now) {
                out.push_str(&format!("{line}\n"));
            }
            if let Some(by) = game.pending_draw_offer() {
                out.push_str(&format!(
                    "{by} offers a draw: {} may accept or decline it (postal draw FILE accept|decline)\n",
                    !by
                ));
            }
            if let Some(by) = game.pending_takeback() {
                out.push_str(&format!(
                    "{by} asks to take back a move: {} may accept or decline (postal takeback FILE accept|decline)\n",
                    !by
                ));
            }
        }
    }
    out
}

/// The players, one a line.
pub fn players(game: &Game) -> String {
    let p = &game.file().players;
    format!(
        "White: {}\nBlack: {}\n",
        p.white.label(Color::White),
        p.black.label(Color::Black)
    )
}

/// The current board in ASCII with the players, the last move and where
/// the game stands.
pub fn summary(game: &Game, now: DateTime<Utc>) -> String {
    let mut out = ascii::position_board(game.current(), Options::default());
    out.push('\n');
    out.push_str(&players(game));
    if let Some(last) = game.moves().len().checked_sub(1) {
        out.push_str(&format!("Last move: {}\n", game.numbered_move(last)));
    }
    out.push_str(&standing(game, now));
    out
}
