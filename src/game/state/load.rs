//! Loading a game file: the format checked first, then every move
//! replayed and checked (plain moves of chess and Gardner's minichess on
//! the bitboards, through the fast lane), the cached position compared,
//! and the result derived from the moves and events.

use super::*;
use crate::game::notices::derived_game_id;
use crate::game::rulebook::{same_rules, RulesRecord};

/// A recorded move replayed on the fast line `line`, when all of it is
/// plain: the game not over before it (`repeats` the occurrences of the
/// position), its canonical text plain SAN naming one legal move and
/// written exactly as the canonical writer writes it, and the text played
/// that one with or without its check mark. The move and the line after
/// it; `None` sends the move to the general replay, which decides all
/// about it.
fn plain_ply(
    line: &FastLine,
    m: &MoveRecord,
    repeats: usize,
    text: &mut String,
) -> Option<(Move, FastLine)> {
    // The general replay's "played after the game had ended": fivefold
    // repetition, seventy-five moves, a dead position (FI-5).
    if repeats >= 5 || line.ended_with_moves() {
        return None;
    }
    let (played, canonical) = (m.played.as_str(), m.canonical.as_str());
    if played != canonical && !matches!(canonical.strip_prefix(played), Some("+" | "#")) {
        return None;
    }
    let (san, fm, after) = play_plain(line, canonical)?;
    if san.glyph.is_some() {
        return None;
    }
    text.clear();
    write_fast(line, &fm, &after, san.names_no_origin(), text);
    (text == canonical).then(|| (Move::Piece(line.piece_move(&fm)), after))
}

fn is_ending(act: &Act) -> bool {
    matches!(
        act,
        Act::Resign
            | Act::DrawAccept
            | Act::Claim { .. }
            | Act::Adjudicate { .. }
            | Act::Abort { .. }
    )
}

impl Game {
    /// Reads and checks a state file's text.
    pub fn from_json(text: &str) -> Result<Game, GameError> {
        Game::from_file(GameFile::from_json(text)?)
    }

    /// Checks a file: replays the moves, compares the cache, derives the
    /// result from the moves and events.
    pub fn from_file(file: GameFile) -> Result<Game, GameError> {
        Game::from_file_with(file, true)
    }

    /// [`Game::from_file`], with the plain moves of chess and Gardner's
    /// minichess replayed on the bitboards ([`plain_ply`]) when `plain`.
    pub(super) fn from_file_with(file: GameFile, plain: bool) -> Result<Game, GameError> {
        // The rules the file plays are those it records it was started
        // with, before anything is played by them (issue 42).
        let file_rules = RulesRecord::of_file(&file)?;
        let recorded = RulesRecord::in_file(&file)?;
        if let Some(was) = &recorded {
            let id = file.id.clone().unwrap_or_else(|| derived_game_id(&file));
            same_rules(&id, was, &file_rules)?;
        }
        let variant = match &file.definition {
            Some(text) => crate::variant::defined::from_text(text, &file.variant)
                .map_err(|e| GameError::Corrupt(format!("the variant's definition: {e}")))?,
            None => Variant::from_name(&file.variant)
                .ok_or_else(|| GameError::Corrupt(format!("unknown variant {:?}", file.variant)))?,
        };
        let start = Position::from_text(variant, &file.start).map_err(|e| {
            GameError::Corrupt(format!(
                "the start position {:?} does not read: {e}",
                file.start
            ))
        })?;
        if file.moves.len() > MAX_PLIES {
            return Err(GameError::Corrupt(exceeds(
                "the game has",
                file.moves.len(),
                MAX_PLIES,
                "moves (half-moves)",
            )));
        }
        // An act is made with the moves on the board: at most every move
        // ever played, those taken back included.
        let retracted: usize = file
            .events
            .iter()
            .map(|e| match &e.act {
                Act::TakebackAccept { retracted } => retracted.len(),
                _ => 0,
            })
            .sum();
        let played = file.moves.len() + retracted;
        if let Some((i, e)) = file.events.iter().enumerate().find(|(_, e)| e.ply > played) {
            return Err(GameError::Corrupt(format!(
                "event {} ({}) is recorded at ply {}, but the game has only {played} moves",
                i + 1,
                e.describe(),
                e.ply
            )));
        }
        let rules = variant.rules();
        let words = dialect(variant);
        let mut positions = Positions::new(start);
        // And one more: the move a `postal move` plays after loading.
        positions.reserve(file.moves.len() + 1);
        let mut occurrences = Occurrences::new(variant);
        let mut repeats = occurrences.count(positions.recent(), None);
        let mut lane = plain.then(|| positions.current().fast_line()).flatten();
        let mut text = String::new();
        for (i, m) in file.moves.iter().enumerate() {
            if let Some(b) = &lane {
                if let Some((mv, after)) = plain_ply(b, m, repeats, &mut text) {
                    positions.play(mv);
                    repeats = occurrences.count(positions.recent(), positions.last_move());
                    lane = Some(after);
                    continue;
                }
            }
            let before = positions.current();
            let label = || format!("move {} ({} {})", i + 1, move_number(before), m.played);
            // The game must not have ended before the move. A move that
            // resolves and is checked legal (as `Position::play` checks
            // it) is a legal one, so the position's own ending is asked
            // knowing that there is one: no search for a legal move (on a
            // large Building board, a walk over the whole board each turn).
            let parsed = before.parse_move(&m.played);
            let checked = parsed.as_ref().ok().map(|mv| rules.check_legal(before, mv));
            let ended = match (&parsed, &checked) {
                (Ok(_), Some(Ok(()))) => {
                    ending_after(positions.recent(), repeats, rules.outcome(before, true))
                }
                _ => ending_with(positions.recent(), repeats),
            };
            if let Some(o) = ended {
                return Err(GameError::Corrupt(format!(
                    "{} was played after the game had ended ({})",
                    label(),
                    Ending::from_outcome(&o)
                )));
            }
            let mv = parsed.map_err(|e| GameError::Corrupt(format!("{}: {e}", label())))?;
            let mut text = words.write_move(before, &mv);
            if let Some(Err(e)) = checked {
                return Err(GameError::Corrupt(format!("{}: {e}", label())));
            }
            let label = label();
            // In a spare position's arrays (a large board's copy is the
            // most of a turn's cost).
            positions.play(mv);
            push_check_mark(&mut text, positions.current().check());
            if m.canonical != text {
                return Err(GameError::Corrupt(format!(
                    "{label}: recorded as {:?}, but the move played is {text}",
                    m.canonical
                )));
            }
            repeats = occurrences.count(positions.recent(), positions.last_move());
            if plain {
                lane = positions.current().fast_line();
            }
        }
        // The cache as this program writes it (the usual case) is the
        // text of the position the moves lead to; any other text is read
        // and written again before comparing (a position text reads back
        // as itself).
        let current = positions.current().to_text();
        if file.position != current {
            let cached = Position::from_text(variant, &file.position).map_err(|e| {
                GameError::Corrupt(format!(
                    "the cached position {:?} does not read: {e}",
                    file.position
                ))
            })?;
            if cached.to_text() != current {
                return Err(GameError::Corrupt(format!(
                    "the cached position {:?} disagrees with the moves, which lead to {current:?}",
                    file.position,
                )));
            }
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
        game.check_notices()?;
        game.check_conditional()?;
        // A file written before the record was kept gets it, written by
        // the next save, and its id fixed: the id a file without one is
        // given is derived from its variant among others, and the
        // player's record is found by it.
        if recorded.is_none() {
            file_rules.put_in(&mut game.file);
            if game.file.id.is_none() {
                game.file.id = Some(derived_game_id(&game.file));
            }
        }
        Ok(game)
    }

    /// The result the moves and events give: the automatic ending of the
    /// last position, or the act that ended the game (which must be the
    /// last event, made when the moves were as they are, and valid then).
    fn derive_result(&mut self) -> Result<Option<Ending>, GameError> {
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
        let auto = self.automatic_ending().map(|o| Ending::from_outcome(&o));
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
        // The act is checked against the game as it stood when it was
        // made: without it, and so without copying the game.
        let last = self.file.events.pop().expect("an ending event is last");
        let ending = self.ending_act(&last, n);
        self.file.events.push(last);
        ending.map(Some)
    }

    /// The ending of the act `last`, event `n`, made in the game as it is.
    fn ending_act(&self, last: &Event, n: usize) -> Result<Ending, GameError> {
        let bad =
            |e: GameError| GameError::Corrupt(format!("event {n} ({}): {e}", last.describe()));
        let ending = match &last.act {
            Act::Resign => self.resign_ending(last.side).map_err(bad)?,
            Act::DrawAccept => self
                .answer_check(true, Some(last.side))
                .map_err(bad)
                .map(|_| Ending::new(GameResult::Draw, "agreement", None))?,
            Act::Claim { claim } => {
                self.check_claim(*claim, Some(last.side), last.time)
                    .map_err(bad)?
                    .1
            }
            act @ (Act::Adjudicate { .. } | Act::Abort { .. }) => {
                crate::game::acts::referee_ending(act)
                    .ok_or_else(|| bad(GameError::Rule("no ending".into())))?
            }
            _ => unreachable!("is_ending"),
        };
        Ok(ending)
    }
}
