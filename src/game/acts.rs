//! The acts on a game: playing a move, resigning, draw offers, take-backs
//! and claims (`impl Game` continued), and what a move did ([`MoveReport`]).

use super::clock::format_time;
use super::file::{Act, Claim, Ending, MoveRecord};
use super::state::{canonical_text, move_number, Game};
use super::GameError;
use crate::color::Color;
use crate::position::{Effects, GameResult};
use chrono::{DateTime, Utc};

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
    /// The conditional answer the move set off, played at once.
    pub answer: Option<Box<MoveReport>>,
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

impl Game {
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

    /// Plays a move for the side to move, and the opponent's conditional
    /// answer to it when one was left (`super::conditional`).
    pub fn play(
        &mut self,
        text: &str,
        comment: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<MoveReport, GameError> {
        let mut report = self.play_one(text, comment, now)?;
        let Some(answer) = self.take_answer(report.mover, &report.canonical) else {
            return Ok(report);
        };
        if report.ending.is_none() {
            // The answer was checked legal here when it was left.
            let mut a = self.play_one(&answer, None, now)?;
            if let Some(m) = self.file.moves.last_mut() {
                m.conditional = true;
            }
            if a.ending.is_some() {
                self.file.conditional = None;
            }
            a.answer = None;
            report.answer = Some(Box::new(a));
        } else {
            self.file.conditional = None;
        }
        Ok(report)
    }

    /// Plays one move for the side to move.
    fn play_one(
        &mut self,
        text: &str,
        comment: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<MoveReport, GameError> {
        self.not_over()?;
        if self.file.moves.len() >= crate::limits::MAX_PLIES {
            return Err(GameError::Rule(format!(
                "the game has {} half-moves, the most a game file may hold",
                crate::limits::MAX_PLIES
            )));
        }
        let before = self.current().clone();
        let move_error = |error| GameError::Move {
            text: text.to_string(),
            error,
        };
        let mv = before.parse_move(text).map_err(move_error)?;
        let (next, effects) = before
            .play_with_effects(&mv)
            .map_err(|e| move_error(e.into()))?;
        let canonical = canonical_text(&before, &mv, &next);
        let check = next.is_check();
        self.file.moves.push(MoveRecord {
            played: text.trim().to_string(),
            canonical: canonical.clone(),
            time: now,
            comment: comment.filter(|c| !c.is_empty()),
            via: None,
            conditional: false,
        });
        self.positions.push(mv, next);
        self.sync_cache();
        let ending = self.automatic_ending().map(|o| Ending::from_outcome(&o));
        self.file.result = ending.clone();
        Ok(MoveReport {
            mover: before.turn,
            number: move_number(&before),
            canonical,
            effects,
            check,
            ending,
            answer: None,
        })
    }

    pub(super) fn resign_ending(&self, side: Color) -> Result<Ending, GameError> {
        self.not_over()?;
        if let Some(why) = self.variant.spec().no_resigning {
            return Err(GameError::Rule(why.to_string()));
        }
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
    pub(super) fn answer_check(
        &self,
        draw: bool,
        side: Option<Color>,
    ) -> Result<(Color, Color), GameError> {
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
                self.file.conditional = None;
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
    pub(super) fn check_claim(
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
                if self.file.no_forfeit {
                    return Err(GameError::Rule(
                        "this game has no forfeit on time: a passed deadline is for the referee to adjudicate".into(),
                    ));
                }
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
                let endings = self.variant.spec().endings;
                if !endings.claims {
                    return Err(GameError::Rule(format!(
                        "no draw is claimed in {}: its repetitions and move count end the game by themselves ({})",
                        self.variant.name(),
                        endings.rule
                    )));
                }
                if claim == Claim::Repetition {
                    let n = self.repetitions();
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

/// The referee's acts (`postal referee adjudicate|abort|extend`), recorded
/// as events of the side to move.
impl Game {
    /// Ends the game with the referee's `result` (`1-0`, `0-1`,
    /// `1/2-1/2`) and why.
    pub fn adjudicate(
        &mut self,
        result: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<Ending, GameError> {
        self.not_over()?;
        let result = match result.trim() {
            "1-0" | "0-1" | "1/2-1/2" => result.trim().to_string(),
            "½-½" | "draw" => "1/2-1/2".to_string(),
            other => {
                return Err(GameError::Usage(format!(
                    "a result is 1-0, 0-1 or 1/2-1/2, not {other:?}"
                )))
            }
        };
        let reason = one_line(reason)?;
        let side = self.turn();
        self.push_event(side, Act::Adjudicate { result, reason }, now);
        self.referee_ending()
    }

    /// Ends the game without a result (PGN's `*`), and why.
    pub fn abort(&mut self, reason: &str, now: DateTime<Utc>) -> Result<Ending, GameError> {
        self.not_over()?;
        let reason = one_line(reason)?;
        let side = self.turn();
        self.push_event(side, Act::Abort { reason }, now);
        self.referee_ending()
    }

    /// Gives the side to move `by` (`2d`, `12h`) more for this move; the
    /// new deadline.
    pub fn extend(&mut self, by: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, GameError> {
        self.not_over()?;
        if self.file.time_control.is_none() {
            return Err(GameError::Rule(
                "the game has no time control, so no deadline to extend".into(),
            ));
        }
        match super::time_control::parse_span(by) {
            Ok(d) if d > chrono::Duration::zero() => {}
            _ => {
                return Err(GameError::Usage(format!(
                    "extend by a span such as 2d, 12h or 30m, not {by:?}"
                )))
            }
        }
        let side = self.turn();
        self.push_event(
            side,
            Act::Extend {
                by: by.trim().to_string(),
            },
            now,
        );
        self.deadline()
            .ok_or_else(|| GameError::Rule("the game has no deadline".into()))
    }

    /// The ending the last event (the referee's) gives, recorded.
    fn referee_ending(&mut self) -> Result<Ending, GameError> {
        let ending = self
            .file
            .events
            .last()
            .and_then(|e| referee_ending(&e.act))
            .ok_or_else(|| GameError::Rule("no referee's ending".into()))?;
        self.file.result = Some(ending.clone());
        Ok(ending)
    }
}

/// The ending a referee's act gives: its result (`*` for an abort, as
/// PGN writes a game without one) and why.
pub(super) fn referee_ending(act: &Act) -> Option<Ending> {
    match act {
        Act::Adjudicate { result, reason } => Some(Ending {
            result: result.clone(),
            reason: format!("adjudicated by the referee: {reason}"),
            rule: None,
        }),
        Act::Abort { reason } => Some(Ending {
            result: "*".into(),
            reason: format!("aborted by the referee: {reason}"),
            rule: None,
        }),
        _ => None,
    }
}

/// A reason as one line of text, control characters refused.
fn one_line(text: &str) -> Result<String, GameError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(GameError::Usage("give a reason (--reason TEXT)".into()));
    }
    if t.chars().any(char::is_control) {
        return Err(GameError::Usage(
            "a reason is one line, without control characters".into(),
        ));
    }
    Ok(t.to_string())
}
