//! Swap Chess text (rules/swap.md, notation): the `ko=` field, resolving what a player wrote, with or without
//! P1's start square (rules/swap.md, notation), and offering the
//! sequences one step at a time for `postal moves` (`--after PREFIX`).

use super::san::{self, parse_text, write_swap, MoveText, SwapText};
use super::{divide_moves, Dialect};
use crate::error::MoveError;
use crate::mv::{Move, SwapSequence};
use crate::notation::fen;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::variant::swap::walk::{bit_of, square_of, NextStep, StepError, Walker};
use crate::variant::swap::{self, Swap};
use crate::variant::{Rules, Variant};

/// Most readings tried when a text leaves promotions out (four choices a
/// promotion).
const EXPANSION_LIMIT: usize = 256;

/// Walk states a listing may spend counting the turns under each choice.
const CHOICE_BUDGET: u64 = 50_000;

/// A written sequence resolved against the position: `as_turn` asks for a
/// legal turn; without it, for a prefix P1 may still go on from (legal as
/// far as it goes, the mover's king possibly in check, SW-6).
fn resolve_swap(pos: &Position, text: &SwapText, as_turn: bool) -> Result<SwapSequence, MoveError> {
    let us = pos.turn;
    let side = us.name().to_lowercase();
    let role = text.role.unwrap_or(Role::Pawn);
    let first = text.squares[0];
    // Each reading with how many written squares come before its steps,
    // so errors of the two readings compare by the square they fail at.
    let mut readings: Vec<(SwapSequence, usize)> = Vec::new();
    if first.promotion.is_none() && pos.board.piece_at(first.square) == Some(Piece::new(us, role)) {
        readings.push((
            SwapSequence {
                role,
                start: first.square,
                steps: text.squares[1..].to_vec(),
            },
            1,
        ));
    }
    // A letter lets the start square be left out: P1 is then the piece of
    // that letter attacking the first square written. When that square
    // holds one of the mover's pieces of the letter, it is the start: the
    // other reading would open by swapping two identical pieces, which
    // changes nothing on the board, so every text that writes its start
    // square (as output always does) would read both ways.
    if let (true, Some(_), Some(t)) = (readings.is_empty(), text.role, bit_of(first.square)) {
        let w = Walker::new(pos);
        for s in w.starts() {
            if w.piece(s).is_some_and(|p| p.role == role) && w.attacks(s, t) {
                readings.push((
                    SwapSequence {
                        role,
                        start: square_of(s),
                        steps: text.squares.clone(),
                    },
                    0,
                ));
            }
        }
    }
    if readings.is_empty() {
        return Err(if role == Role::King {
            MoveError::illegal_by("SW-3", "a king cannot start a swap sequence")
        } else if text.role.is_some() {
            MoveError::illegal_by(
                "SW-3",
                format!(
                    "no {side} {} stands on {} or attacks it",
                    role.name(),
                    first.square
                ),
            )
        } else {
            MoveError::illegal_by(
                "SW-3",
                format!("there is no {side} pawn on {}", first.square),
            )
        });
    }
    let mut legal: Vec<SwapSequence> = Vec::new();
    let mut best: Option<(usize, StepError)> = None;
    let mut tries = EXPANSION_LIMIT;
    for (seq, lead) in readings {
        expand(pos, seq, as_turn, lead, &mut legal, &mut best, &mut tries);
    }
    legal.dedup();
    match legal.len() {
        1 => Ok(legal.remove(0)),
        0 => {
            let e = best.map(|(_, e)| e).unwrap_or_else(|| StepError {
                step: 0,
                reason: "too many promotion choices left unwritten".into(),
                rule: "SW-7",
                missing_promotion: true,
            });
            Err(MoveError::illegal_by(e.rule, e.reason))
        }
        _ => Err(MoveError::Ambiguous {
            candidates: legal
                .iter()
                .map(|s| {
                    if as_turn {
                        pos.move_text(&Move::Swap(s.clone()))
                    } else {
                        write_swap(s)
                    }
                })
                .collect(),
        }),
    }
}

/// Walks one reading; a step that needs a promotion the text leaves out is
/// tried with each choice (as SAN's `a8` stands for four moves).
fn expand(
    pos: &Position,
    seq: SwapSequence,
    as_turn: bool,
    lead: usize,
    legal: &mut Vec<SwapSequence>,
    best: &mut Option<(usize, StepError)>,
    tries: &mut usize,
) {
    if *tries == 0 {
        return;
    }
    *tries -= 1;
    match Walker::new(pos).walk(&seq, as_turn) {
        Ok(_) => legal.push(seq),
        Err(e) if e.missing_promotion => {
            for &r in pos.variant.spec().promotion {
                let mut s = seq.clone();
                s.steps[e.step - 1].promotion = Some(r);
                expand(pos, s, as_turn, lead, legal, best, tries);
            }
            if legal.is_empty() && best.as_ref().is_none_or(|(at, _)| *at < e.step + lead) {
                *best = Some((e.step + lead, e));
            }
        }
        Err(e) => {
            if best.as_ref().is_none_or(|(at, _)| *at < e.step + lead) {
                *best = Some((e.step + lead, e));
            }
        }
    }
}

/// Reads the prefix a listing continues (`--after`): a swap sequence
/// legal as far as it goes (`Qd1/g4`), or P1 alone (`Qd1`, `e2`) for its
/// first swaps.
pub fn parse_prefix(pos: &Position, text: &str) -> Result<SwapSequence, MoveError> {
    let parsed = parse_text(text).map_err(MoveError::Syntax)?;
    match parsed.text {
        MoveText::Swap(t) => resolve_swap(pos, &t, false),
        MoveText::Piece(t)
            if t.roles.len() <= 1
                && t.from_file.is_none()
                && t.from_rank.is_none()
                && !t.capture
                && t.promotions.is_empty()
                && t.place.is_none() =>
        {
            let role = t.mover();
            let side = pos.turn.name().to_lowercase();
            if pos.board.piece_at(t.to) != Some(Piece::new(pos.turn, role)) {
                return Err(MoveError::illegal_by(
                    "SW-3",
                    format!("there is no {side} {} on {}", role.name(), t.to),
                ));
            }
            if role == Role::King {
                return Err(MoveError::illegal_by(
                    "SW-3",
                    "a king cannot start a swap sequence",
                ));
            }
            Ok(SwapSequence {
                role,
                start: t.to,
                steps: Vec::new(),
            })
        }
        _ => Err(MoveError::illegal(
            "expected a swap sequence such as Qd1/g4, or the piece that starts one, such as Qd1",
        )),
    }
}

/// One next swap offered by [`swap_steps`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapChoice {
    /// The sequence so far, ending with this swap.
    pub sequence: SwapSequence,
    /// Its canonical text, with `+` or `#` when it is a legal turn.
    pub text: String,
    /// The sequence ending here is a legal turn (the mover's king safe,
    /// no KO).
    pub is_turn: bool,
    /// This swap gives check, so the sequence cannot go on (SW-6).
    pub gives_check: bool,
    /// Legal turns beginning with this sequence, itself included, when
    /// they could be counted cheaply.
    pub count: Option<u64>,
}

/// The swaps that may come next, at most `limit` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapSteps {
    pub choices: Vec<SwapChoice>,
    /// How many next swaps there are in all.
    pub total: usize,
    /// Legal turns continuing the prefix (or all swap turns, without
    /// one), when every choice could be counted.
    pub count: Option<u64>,
}

/// The swap sequences of a position one step at a time: without `after`,
/// every first swap of every piece that may start one; with it, the swaps
/// that may follow that prefix (see [`parse_prefix`]). Each choice says
/// whether it is a legal turn as it stands, whether it must end there,
/// and how many turns begin with it when that is cheap to count.
pub fn swap_steps(
    pos: &Position,
    after: Option<&SwapSequence>,
    limit: usize,
) -> Result<SwapSteps, MoveError> {
    let mut w = Walker::new(pos);
    let mut branches: Vec<(SwapSequence, Vec<NextStep>)> = Vec::new();
    match after {
        None => {
            for s in w.starts() {
                let role = w.piece(s).map(|p| p.role).unwrap_or(Role::Pawn);
                let next = w.next_steps(s, 0, CHOICE_BUDGET);
                let prefix = SwapSequence {
                    role,
                    start: square_of(s),
                    steps: Vec::new(),
                };
                branches.push((prefix, next));
            }
        }
        Some(prefix) if prefix.steps.is_empty() => {
            let start = bit_of(prefix.start)
                .filter(|&b| {
                    w.piece(b) == Some(Piece::new(pos.turn, prefix.role))
                        && prefix.role != Role::King
                })
                .ok_or_else(|| {
                    MoveError::illegal_by(
                        "SW-3",
                        format!(
                            "no {} {} on {} may start a swap sequence",
                            pos.turn.name().to_lowercase(),
                            prefix.role.name(),
                            prefix.start
                        ),
                    )
                })?;
            let next = w.next_steps(start, 0, CHOICE_BUDGET);
            branches.push((prefix.clone(), next));
        }
        Some(prefix) => {
            let end = w
                .walk(prefix, false)
                .map_err(|e| MoveError::illegal_by(e.rule, e.reason))?;
            if end.gives_check {
                return Err(MoveError::illegal_by(
                    "SW-6",
                    format!(
                        "{} gives check at its last swap, so it cannot go on",
                        write_swap(prefix)
                    ),
                ));
            }
            let next = w.next_steps(end.p1, end.used, CHOICE_BUDGET);
            branches.push((prefix.clone(), next));
        }
    }
    let total = branches.iter().map(|(_, n)| n.len()).sum();
    let count = branches
        .iter()
        .flat_map(|(_, n)| n.iter().map(|s| s.count))
        .sum::<Option<u64>>();
    let mut choices = Vec::new();
    for (prefix, next) in branches {
        for s in next {
            if choices.len() >= limit {
                break;
            }
            let mut sequence = prefix.clone();
            sequence.steps.push(s.step);
            let text = if s.is_turn {
                pos.move_text(&Move::Swap(sequence.clone()))
            } else {
                write_swap(&sequence)
            };
            choices.push(SwapChoice {
                sequence,
                text,
                is_turn: s.is_turn,
                gives_check: s.gives_check,
                count: s.count,
            });
        }
    }
    Ok(SwapSteps {
        choices,
        total,
        count,
    })
}

/// Swap Chess text: SAN and swap sequences, the `ko=` field, `divide`
/// grouping the sequences by their first swap.
pub struct SwapDialect;

impl Dialect for SwapDialect {
    fn extra_fields(&self, pos: &Position) -> Vec<String> {
        match swap::ko(pos) {
            Some(b) => vec![format!("ko={}", fen::write_placement(b))],
            None => Vec::new(),
        }
    }

    fn read_extra_fields(&self, pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        let mut board = None;
        for f in fields {
            match f.strip_prefix("ko=") {
                Some("-") if board.is_none() => {}
                Some(text) if board.is_none() => {
                    let p = fen::read_unvalidated(Variant::Swap, text)
                        .map_err(|e| format!("in the KO placement: {e}"))?;
                    board = Some(p.board);
                }
                Some(_) => return Err("the KO placement is given twice".into()),
                None => {
                    return Err(format!(
                        "unexpected field {f:?}; Swap Chess has only ko=PLACEMENT (SW-9)"
                    ))
                }
            }
        }
        swap::set_ko(pos, board);
        Ok(())
    }

    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        match text {
            MoveText::Swap(t) => resolve_swap(pos, t, true).map(Move::Swap),
            _ => san::resolve_in_list(pos, text, &Swap.legal_moves(pos)),
        }
    }

    fn write_move(&self, pos: &Position, mv: &Move) -> String {
        match mv {
            Move::Swap(s) => san::write_swap(s),
            Move::Piece(_) => san::write_san(pos, mv, &Swap.legal_moves(pos)),
        }
    }

    /// The FIDE moves one by one, then the swap sequences grouped by
    /// their first swap: `Qd1/g4/*` counts every turn that begins with
    /// `Qd1/g4`, itself included (they are too many to list one by one).
    fn divide(&self, pos: &Position, depth: u32) -> Vec<(String, u64)> {
        let mut out = divide_moves(pos, &Swap.legal_moves(pos), depth);
        let label = |seq: &SwapSequence| {
            let first = SwapSequence {
                role: seq.role,
                start: seq.start,
                steps: seq.steps[..1].to_vec(),
            };
            format!("{}/*", san::write_swap(&first))
        };
        let mut walker = Walker::new(pos);
        if depth <= 1 {
            for s in walker.starts() {
                let role = walker.piece(s).map(|p| p.role).unwrap_or(Role::Pawn);
                for next in walker.next_steps(s, 0, u64::MAX) {
                    if next.count == Some(0) {
                        continue;
                    }
                    let seq = SwapSequence {
                        role,
                        start: square_of(s),
                        steps: vec![next.step],
                    };
                    out.push((label(&seq), next.count.unwrap_or(0)));
                }
            }
            return out;
        }
        let mut groups: Vec<(String, u64)> = Vec::new();
        walker.for_each_turn(&mut |seq| {
            let n = crate::perft::perft(&pos.play_unchecked(&Move::Swap(seq.clone())), depth - 1);
            let key = label(&seq);
            match groups.last_mut() {
                Some((k, total)) if *k == key => *total += n,
                _ => groups.push((key, n)),
            }
        });
        out.extend(groups);
        out
    }
}
