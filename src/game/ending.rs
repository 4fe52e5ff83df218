//! The game's own endings (what the position decides, the variant's
//! history rule, fivefold repetition, seventy-five moves) and the counting
//! of repetitions they need, for [`super::state::Game`]: at its loading,
//! which counts as it replays ([`Occurrences`]), and after each act.

use crate::board::Board;
use crate::color::Color;
use crate::mv::Move;
use crate::position::Castling;
use crate::position::{GameResult, Outcome, Position};
use crate::square::Square;
use crate::variant::Variant;
use crate::variant::{Endings, Extra, Relative};
use std::collections::HashMap;

/// The game-level ending of the position after `positions` (the start
/// first, the current last): what the position decides, then the
/// variant's history rule (KR-10), then the repetition and the move
/// count of the variant's [`Endings`](crate::variant::Endings): FI-5's
/// fivefold repetition and seventy-five moves in the built-in games (a
/// board that grows, as in Building Chess, simply never repeats), a
/// definition's `nFoldRule`.
pub fn automatic_ending(positions: &[Position]) -> Option<Outcome> {
    ending_with(positions, repetitions(positions))
}

/// [`automatic_ending`] with the occurrences of the last position already
/// counted (a file's loading counts them as it goes).
pub(super) fn ending_with(positions: &[Position], repeats: usize) -> Option<Outcome> {
    let cur = positions.last()?;
    ending_after(positions, repeats, cur.outcome())
}

/// [`ending_with`] once the position's own ending, `own`, is known (for
/// a position in which a legal move has been found, the cheaper
/// [`Rules::outcome_with_move`](crate::variant::Rules::outcome_with_move)).
pub(super) fn ending_after(
    positions: &[Position],
    repeats: usize,
    own: Option<Outcome>,
) -> Option<Outcome> {
    let cur = positions.last()?;
    if own.is_some() {
        return own;
    }
    if let Some(o) = cur.variant.rules().history_outcome(positions) {
        return Some(o);
    }
    let endings = cur.variant.spec().endings;
    if endings.repetition > 0 && repeats >= endings.repetition as usize {
        if endings.perpetual_check {
            if let Some(o) = perpetual_check(positions, repeats) {
                return Some(o);
            }
        }
        return Some(repetition_outcome(cur.turn, repeats, &endings));
    }
    if endings.seventy_five_moves {
        return cur.seventy_five_moves(endings.rule);
    }
    None
}

/// The end by the `times`th occurrence of a position, `mover` to move.
fn repetition_outcome(mover: Color, times: usize, endings: &Endings) -> Outcome {
    let side = if endings.repetition_absolute {
        Color::White
    } else {
        mover
    };
    let result = match endings.repetition_result {
        Relative::Draw => GameResult::Draw,
        Relative::Win => GameResult::win_for(side),
        Relative::Loss => GameResult::win_for(!side),
    };
    let reason = match times {
        5 => "fivefold repetition".to_string(),
        n => format!("the position's {} occurrence", ordinal(n)),
    };
    Outcome::new(result, reason, endings.rule)
}

/// The end of a repetition by perpetual check (`Endings::perpetual_check`),
/// as Fairy-Stockfish's `is_game_end` finds it: between the last position
/// and its `times`th occurrence back, the side to move was in check in
/// each position where it was to move (the other side gave perpetual
/// check, and loses), or the other side in each of its own, or both (a
/// draw). `None`: no such check; the repetition's own result stands.
fn perpetual_check(positions: &[Position], times: usize) -> Option<Outcome> {
    let cur = positions.last()?;
    let last = positions.len() - 1;
    // The earliest occurrence counted: the `times`th, the last included.
    let first = (0..=last)
        .rev()
        .step_by(2)
        .filter(|&i| positions[i].repeats(cur))
        .nth(times - 1)?;
    let rules = cur.variant.rules();
    let checked = |from: usize| {
        (from..=last)
            .step_by(2)
            .all(|i| rules.in_check(&positions[i]))
    };
    let by_them = checked(first);
    let by_us = checked(first + 1);
    let result = match (by_them, by_us) {
        (false, false) => return None,
        (true, false) => GameResult::win_for(cur.turn),
        (false, true) => GameResult::win_for(!cur.turn),
        (true, true) => GameResult::Draw,
    };
    let reason = match (by_them, by_us) {
        (true, true) => "a repetition with perpetual check by both sides",
        _ => "a repetition by perpetual check",
    };
    Some(Outcome::new(
        result,
        reason.to_string(),
        "perpetualCheckIllegal",
    ))
}

/// "3rd", "4th", "21st".
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How often the last position has occurred (itself included): by
/// comparison ([`Position::repeats`]) with the positions that can equal
/// it, in FIDE's rules those since the last capture or pawn move with
/// the same side to move (see `Spec::repetitions_since_reset`), else all.
pub fn repetitions(positions: &[Position]) -> usize {
    let Some(cur) = positions.last() else {
        return 0;
    };
    if cur.variant.spec().repetitions_since_reset {
        // The last one itself counted, not compared (a whole board).
        1 + window(positions).skip(1).filter(|p| p.repeats(cur)).count()
    } else {
        positions.iter().filter(|p| p.repeats(cur)).count()
    }
}

/// The positions that can equal the last one where the halfmove clock
/// bounds repetitions (`Spec::repetitions_since_reset`): those after the
/// last reset (the clock counts the plies since it; a start position's
/// clock may count plies played before the start, hence the bound) with
/// the same side to move, which alternates with every ply. The last one
/// itself included.
fn window(positions: &[Position]) -> impl Iterator<Item = &Position> {
    let last = positions.len().saturating_sub(1);
    let back = positions.last().map_or(0, |p| p.halfmove as usize);
    positions[last - back.min(last)..].iter().rev().step_by(2)
}

type RepetitionKey = (Board, Color, Castling, Option<Square>, Extra);

/// The occurrences of the last position, counted as a file is replayed:
/// by [`repetitions`] where the halfmove clock bounds the positions to
/// compare (a few dozen at most), else by a table of every position seen,
/// so that a long game of another variant stays linear.
pub(super) enum Occurrences {
    Window,
    Seen(HashMap<RepetitionKey, usize>),
}

impl Occurrences {
    pub(super) fn new(variant: Variant) -> Occurrences {
        if variant.spec().repetitions_since_reset {
            Occurrences::Window
        } else {
            Occurrences::Seen(HashMap::new())
        }
    }

    /// Counts the last of `positions`, just added (by `last`, when it was
    /// made by a move); returns its occurrences.
    pub(super) fn count(&mut self, positions: &[Position], last: Option<&Move>) -> usize {
        match self {
            Occurrences::Window => match last {
                Some(Move::Piece(m)) => {
                    // An earlier position can equal this one only where
                    // the piece just moved stands as now, on both the
                    // squares it left and reached: two cells to look at
                    // before comparing whole positions.
                    let cur = positions.last().expect("a position was added");
                    let same = |p: &Position| {
                        p.board.get(m.to) == cur.board.get(m.to)
                            && p.board.get(m.from) == cur.board.get(m.from)
                            && p.repeats(cur)
                    };
                    1 + window(positions).skip(1).filter(|p| same(p)).count()
                }
                _ => repetitions(positions),
            },
            Occurrences::Seen(seen) => {
                let Some(pos) = positions.last() else {
                    return 0;
                };
                let n = seen.entry(pos.repetition_key()).or_insert(0);
                *n += 1;
                *n
            }
        }
    }
}
