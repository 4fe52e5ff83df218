//! Corral Chess (`corral`), rules/corral.md CO-1..CO-16: Doug Chatham's
//! 5x9 game of stacks, where checkmate is illegal and the way to win is to
//! force the enemy king on c5 into the prison below it.
//!
//! - Board (CO-1): the 5x9 grid and the prison cell ([`Square::PRISON`],
//!   written `prison`), added by [`crate::board::Board::with_prison`].
//! - Pieces (CO-3..CO-5) are data: range-4 riders `R4`, `B4`, `Q4`, FIDE
//!   knight, king and pawn. Castling does not exist (CO-4).
//! - Stacks (CO-2, CO-6..CO-8): a cell is a [`crate::piece::Stack`]; this
//!   module generates its own moves (`movegen`): the mover's powers decide
//!   where a group may go, and a move is identified by its squares, the
//!   multiset of pieces that leave and the multiset of promotions (CO-16).
//! - Legality: own king never left attacked, carried or not (CO-12);
//!   checkmate is illegal (CO-10), decided by a reply search after every
//!   checking move; `Kc5-prison` is always legal (CO-13).
//! - Endings: a king in the prison loses (CO-9); in check with no legal
//!   move loses (CO-14); stalemate draws (CO-11); seventy-five moves draw.
//!
//! Readings where the rule file leaves a gap (recorded here and tested):
//!
//! - CO-16 makes a move its squares and its multiset of pieces, so when
//!   several pieces of a group could make the move (`KQc2-c3`, `QKc2-c3`),
//!   it is one move. The mover written is the first of them in the order
//!   K Q R B N P; either is read.
//! - Hence a move that takes a pawn two squares straight ahead from its
//!   second rank, over an empty square, to a square without enemy pieces,
//!   is that pawn's double step whichever piece is named as mover
//!   (`RPb2-b4` is `PRb2-b4`): en passant may take the whole group (CO-8),
//!   and a king in it must not stand next to an enemy pawn (CO-12).
//! - En passant is a capture, so it is not the same move as a plain move of
//!   the same pieces to the same square (`PBd5xe6` e.p. against `BPd5-e6`).
//! - A pawn promotes whenever it arrives on its last rank, carried or not;
//!   when the mover is a pawn, its own promotion is written first and the
//!   choices are written queens first (`PPa8-a9=Q=N`).
//! - The game is over once a king is in the prison: that position has no
//!   legal moves (perft stops there).
//!
//! Position text: FEN shape, stacks in parentheses in the order P N B R Q K
//! (`(PPNB)`), castling always `-`, then these extra fields:
//!
//! - `ep=LETTERS` when an en passant square is given: the pieces that made
//!   the double step, in their side's case (`ep=P`, `ep=pk`). En passant
//!   takes these and leaves what already stood on the square (CO-8). When
//!   missing, a lone pawn is meant.
//! - `prison=K` or `prison=k` when a king is in the prison (the game is
//!   over).
//!
//! Notation: a lone piece in SAN (`Nc4`, `b4`, `bxc3`, `a9=Q`, with FIDE
//! disambiguation); a group in long form, mover first then the carried
//! pieces in the order K Q R B N P (`QKc2-c4`, `NBPPb2xc4`); the prison
//! move `Kc5-prison`; one `=X` per promoting pawn.
//!
//! Text forms (move text, position-text fields): `notation/dialect/corral.rs`.

pub(crate) mod movegen;

pub use movegen::{last_rank, second_rank, Work, PRISON_DOOR};

use self::movegen::{
    apply_step, move_group, to_piece_move, EpChance, Judge, Refusal, Step, StepKind,
};
use super::{Capability, Endings, Extra, PieceSpec, Rules, Spec, Variant};
use crate::color::Color;
use crate::error::PlayError;
use crate::mv::{Move, MoveKind, PieceMove};
use crate::piece::{Piece, Role, Roles, STACK_ORDER};
use crate::position::{Effects, GameResult, Outcome, Position};
use crate::square::Square;

/// CO-3, CO-4: range-4 riders, FIDE knight, king and pawn.
pub const CORRAL_PIECES: &[PieceSpec] = &[
    PieceSpec {
        role: Role::King,
        betza: "K",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Queen,
        betza: "Q4",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Rook,
        betza: "R4",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Bishop,
        betza: "B4",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Knight,
        betza: "N",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Pawn,
        betza: "mfWcfF",
        gives_check: true,
    },
];

pub static SPEC: Spec = Spec {
    name: "corral",
    title: "Corral Chess",
    aliases: &["corral chess"],
    summary: "5x9 with stacks and a prison under c5; checkmate is illegal (Doug Chatham)",
    files: 5,
    ranks: 9,
    // CO-2
    start: "r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/5/5/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1",
    pieces: CORRAL_PIECES,
    promotion: &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    promotion_ranks: Some((9, 1)),
    double_step_ranks: &[2],
    en_passant: true,
    castling: false,
    board_grows: false,
    stacks: true,
    rules_text: include_str!("../../../doc/rules/corral.md"),
    variant: Variant::Corral,
    // A captured king returns from the prison (CO-5).
    repetitions_since_reset: false,
    never_repeats: false,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

/// Corral state kept in the position besides the board (whose prison cell
/// holds a king that entered it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// The pieces that made the last double step, when `Position::ep` is
    /// set: what en passant takes (CO-8). Empty otherwise.
    pub ep_group: Roles,
}

pub struct Corral;

/// The state of a Corral position (the default when none is set).
fn state(pos: &Position) -> State {
    match &pos.extra {
        Extra::Corral(s) => s.clone(),
        _ => State::default(),
    }
}

/// The en passant chance of the side to move, in cells.
pub(crate) fn ep_chance(pos: &Position) -> Option<EpChance> {
    let passed_sq = pos.ep?;
    let reached_sq = passed_sq.offset(0, -pos.turn.forward());
    let group = state(pos).ep_group;
    Some(EpChance {
        passed: pos.board.index(passed_sq)?,
        reached: pos.board.index(reached_sq)?,
        group: if group.is_empty() {
            Roles::one(Role::Pawn)
        } else {
            group
        },
    })
}

/// CO-9: the game won by the side whose enemy's king entered the prison.
fn imprisoned(pos: &Position) -> Option<Outcome> {
    prisoner(pos).map(|loser| {
        Outcome::new(
            GameResult::win_for(!loser),
            format!(
                "the {} king entered the prison",
                loser.name().to_lowercase()
            ),
            "CO-9",
        )
    })
}

/// The king in the prison, if one entered it.
pub(crate) fn prisoner(pos: &Position) -> Option<Color> {
    pos.board
        .get(Square::PRISON)
        .filter(|c| c.is_occupied())
        .map(|c| c.color())
}

pub(crate) fn judge_for(pos: &Position) -> Judge<'static> {
    Judge::new(pos.tables(), pos.board.clone(), pos.turn, ep_chance(pos))
}

/// The legal steps of the side to move, at most `limit` of them.
fn legal_steps(pos: &Position, limit: usize, ban: bool, work: Option<&mut Work>) -> Vec<Step> {
    if prisoner(pos).is_some() {
        return Vec::new();
    }
    let mut judge = judge_for(pos);
    judge.ban = ban;
    let mut steps = Vec::with_capacity(128);
    judge.pseudo_steps(&mut steps);
    let mut legal = Vec::with_capacity(steps.len());
    for s in steps {
        if judge.judge(&s).is_ok() {
            legal.push(s);
            if legal.len() >= limit {
                break;
            }
        }
    }
    if let Some(w) = work {
        let total = *w;
        *w = Work {
            steps: total.steps + judge.work.steps,
            checks: total.checks + judge.work.checks,
            replies: total.replies + judge.work.replies,
        };
    }
    legal
}

/// The step a move value stands for, found among the pseudo-legal steps by
/// what makes moves the same (CO-16): squares, pieces, promotions, and
/// whether it is en passant. Also says whether the mover named can make it.
fn find_step(pos: &Position, judge: &mut Judge, m: &PieceMove) -> Option<(Step, bool)> {
    let from = pos.board.index(m.from)?;
    let to = pos.board.index(m.to)?;
    let (group, promotions) = move_group(m);
    let ep = matches!(m.kind, MoveKind::EnPassant { .. });
    let mut steps = Vec::new();
    judge.pseudo_steps(&mut steps);
    steps
        .into_iter()
        .find(|s| {
            s.from == from
                && s.to == to
                && s.group == group
                && s.promotions == promotions
                && matches!(s.kind, StepKind::EnPassant(_)) == ep
        })
        .map(|s| {
            (
                s,
                s.movers & 1u8.checked_shl(m.role.index() as u32).unwrap_or(0) != 0,
            )
        })
}

pub(crate) fn refusal_reason(pos: &Position, s: &Step, r: Refusal) -> (&'static str, String) {
    let side = pos.turn.name().to_lowercase();
    let other = (!pos.turn).name();
    match r {
        Refusal::OwnKing if s.group.contains(Role::King) => (
            "CO-12",
            format!("it would carry the {side} king onto an attacked square"),
        ),
        Refusal::OwnKing => ("CO-12", format!("it would leave the {side} king attacked")),
        Refusal::EpKing => (
            "CO-12",
            format!(
                "the {side} king carried by the double step could be taken en passant by the pawn beside it"
            ),
        ),
        Refusal::Checkmate => (
            "CO-10",
            format!("it would checkmate {other}, and checkmate is illegal"),
        ),
    }
}

/// Perft with counters of the checkmate ban's work, and with the ban
/// switched off when `ban` is false: for the benchmark, which measures
/// what the reply search costs. With the ban off the counts are not those
/// of Corral Chess.
pub fn perft_work(pos: &Position, depth: u32, ban: bool, work: &mut Work) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One scratch position per turn below the first, copied into without
    // allocating.
    let mut scratch: Vec<Position> = (1..depth).map(|_| pos.clone()).collect();
    perft_steps(pos, ban, work, &mut scratch)
}

/// The nodes `scratch.len() + 1` turns below `pos`, counting legal steps
/// at the last turn (no move values made there).
fn perft_steps(pos: &Position, ban: bool, work: &mut Work, scratch: &mut [Position]) -> u64 {
    let steps = legal_steps(pos, usize::MAX, ban, Some(work));
    let Some((next, deeper)) = scratch.split_first_mut() else {
        return steps.len() as u64;
    };
    let mut nodes = 0;
    for s in &steps {
        next.clone_from(pos);
        Corral.apply(next, &Move::Piece(to_piece_move(&pos.board, s)));
        nodes += perft_steps(next, ban, work, deeper);
    }
    nodes
}

/// Letters of a group in its side's case, in position-text order.
pub(crate) fn group_letters(color: Color, roles: Roles) -> String {
    roles
        .iter_in(&STACK_ORDER)
        .map(|r| Piece::new(color, r).char())
        .collect()
}

/// Reads letters of one side's pieces into a multiset.
pub(crate) fn read_group(text: &str, what: &str) -> Result<(Color, Roles), String> {
    let mut color = None;
    let mut roles = Roles::EMPTY;
    for c in text.chars() {
        let p = Piece::from_char(c)
            .filter(|p| CORRAL_PIECES.iter().any(|s| s.role == p.role))
            .ok_or_else(|| format!("{what}: {c:?} is not a Corral Chess piece letter"))?;
        if color.is_some_and(|k| k != p.color) {
            return Err(format!("{what}: pieces of one side only"));
        }
        color = Some(p.color);
        roles = roles.with(p.role);
    }
    color
        .map(|c| (c, roles))
        .ok_or_else(|| format!("{what}: expected piece letters"))
}

impl Rules for Corral {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// One king a side (on the board or in the prison: stacks hold kings,
    /// CO-2), nothing but a king in the prison, no pawn on its last rank, an
    /// en passant square that a double step could have left, and the side
    /// that just moved not in check.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        if let Some(p) = pos.board.get(Square::PRISON).filter(|c| c.is_occupied()) {
            if p.roles() != Roles::one(Role::King) {
                return Err("only a king may be in the prison (CO-9)".into());
            }
            if p.color() == pos.turn {
                return Err(format!(
                    "the {} king entered the prison, so it is not {}'s move",
                    pos.turn.name().to_lowercase(),
                    pos.turn
                ));
            }
        }
        for color in Color::ALL {
            let kings: u32 = pos
                .board
                .occupied()
                .filter(|(_, st)| st.color() == color)
                .map(|(_, st)| st.roles().count(Role::King))
                .sum();
            if kings != 1 {
                return Err(format!(
                    "{color} has {kings} kings; Corral Chess needs exactly one"
                ));
            }
            let last = last_rank(color);
            if pos
                .board
                .occupied()
                .any(|(sq, st)| sq.rank == last && st.has(color, Role::Pawn))
            {
                return Err(format!(
                    "a {} pawn stands on rank {last}, where it would have promoted (CO-3)",
                    color.name().to_lowercase()
                ));
            }
        }
        if let Some(sq) = pos.ep {
            let them = !pos.turn;
            let group = state(pos).ep_group;
            let reached = sq.offset(0, them.forward());
            let ok = sq.rank == second_rank(them) + them.forward()
                && pos.board.get(sq).is_some_and(|c| c.is_empty())
                && pos.board.get(reached).is_some_and(|c| {
                    c.is_occupied() && c.color() == them && c.roles().includes(group)
                })
                && group.contains(Role::Pawn);
            if !ok {
                return Err(format!(
                    "en passant square {sq}: no {} double step ({}) could have passed it (CO-3, CO-8)",
                    them.name().to_lowercase(),
                    group_letters(them, group)
                ));
            }
        }
        if pos.king_attacked(!pos.turn) {
            return Err(format!(
                "{} is in check but it is {}'s move",
                !pos.turn, pos.turn
            ));
        }
        Ok(())
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        legal_steps(pos, usize::MAX, true, None)
            .iter()
            .map(|s| Move::Piece(to_piece_move(&pos.board, s)))
            .collect()
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        !legal_steps(pos, 1, true, None).is_empty()
    }

    fn check_legal(&self, pos: &Position, mv: &Move) -> Result<(), PlayError> {
        let illegal =
            |rule: Option<&'static str>, reason: String| PlayError::Illegal { reason, rule };
        let Move::Piece(m) = mv else {
            return Err(illegal(None, "Corral Chess has no swap sequences".into()));
        };
        if prisoner(pos).is_some() {
            return Err(PlayError::GameOver);
        }
        let mut judge = judge_for(pos);
        match find_step(pos, &mut judge, m) {
            None => Err(illegal(None, "not a legal move in this position".into())),
            Some((_, false)) => Err(illegal(
                Some("CO-8"),
                format!(
                    "the {} cannot make this move: the mover's powers decide",
                    m.role.name()
                ),
            )),
            Some((s, true)) => judge.judge(&s).map_err(|r| {
                let (rule, reason) = refusal_reason(pos, &s, r);
                illegal(Some(rule), reason)
            }),
        }
    }

    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        let mut effects = Effects::default();
        let Move::Piece(m) = mv else {
            return effects;
        };
        let us = pos.turn;
        let board = &pos.board;
        let (Some(from), Some(to)) = (board.index(m.from), board.index(m.to)) else {
            return effects;
        };
        let (group, promotions) = move_group(m);
        let dst = board.cell(to);
        let fwd = us.forward();
        // CO-3, CO-16: a double step is a pawn's two squares straight ahead
        // from its second rank, whichever piece of the group is named.
        let double = group.contains(Role::Pawn)
            && m.from.rank == second_rank(us)
            && m.to == m.from.offset(0, 2 * fwd)
            && board
                .get(m.from.offset(0, fwd))
                .is_some_and(|c| c.is_empty())
            && !(dst.is_occupied() && dst.color() != us);
        let pawns = group.count(Role::Pawn);
        let arriving = if promotions.is_empty() {
            group
        } else {
            let mut g = group;
            for _ in 0..pawns.min(promotions.len()) {
                g = g.without(Role::Pawn);
            }
            g.union(promotions)
        };
        let kind = if m.to.is_prison() {
            StepKind::Prison
        } else if let MoveKind::EnPassant { captured } = m.kind {
            match board.index(captured) {
                Some(c) => StepKind::EnPassant(c),
                None => StepKind::Normal,
            }
        } else if double {
            StepKind::Double
        } else {
            StepKind::Normal
        };
        let step = Step {
            from,
            to,
            group,
            arriving,
            promotions,
            mover: m.role,
            movers: 1u8.checked_shl(m.role.index() as u32).unwrap_or(0),
            kind,
        };
        if dst.is_occupied() && dst.color() != us {
            effects.captured.extend(dst.pieces().map(|p| (m.to, p)));
        }
        let ep_group = ep_chance(pos).map(|e| e.group).unwrap_or_default();
        if let StepKind::EnPassant(c) = kind {
            let sq = pos.board.square(c);
            effects.captured.extend(
                ep_group
                    .iter_in(&STACK_ORDER)
                    .map(|r| (sq, Piece::new(!us, r))),
            );
        }
        effects.promoted.extend(
            promotions
                .iter_in(&STACK_ORDER)
                .map(|r| (m.to, Piece::new(us, r))),
        );
        let mut undo = Vec::new();
        apply_step(&mut pos.board, us, &step, ep_group, &mut undo);
        let chance = movegen::ep_chance_after(&pos.board, us, &step);
        pos.ep = chance.map(|e| pos.board.square(e.passed));
        pos.extra = Extra::Corral(State {
            ep_group: chance.map(|e| e.group).unwrap_or_default(),
        });
        // CO-15: moving or carrying a pawn, or any capture, resets the count.
        if group.contains(Role::Pawn) || !effects.captured.is_empty() {
            pos.halfmove = 0;
        } else {
            pos.halfmove = pos.halfmove.saturating_add(1);
        }
        pos.end_turn();
        effects
    }

    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        if let Some(o) = imprisoned(pos) {
            return Some(o);
        }
        if !known_move && !self.has_legal_move(pos) {
            return Some(if self.in_check(pos) {
                Outcome::new(
                    GameResult::win_for(!pos.turn),
                    "in check with no legal move",
                    "CO-14",
                )
            } else {
                Outcome::new(GameResult::Draw, "stalemate", "CO-11")
            });
        }
        pos.seventy_five_moves("CO-11")
    }

    /// Nobody is in check once a king has entered the prison, which ends
    /// the game by itself (a move that puts it there is marked neither
    /// `+` nor `#`); `#` is only for CO-14 (in check, no legal move).
    fn in_check(&self, pos: &Position) -> bool {
        prisoner(pos).is_none() && pos.king_attacked(pos.turn)
    }

    /// Perft counts legal steps, as `legal_moves` would list them (CO-16:
    /// one step per distinct move).
    fn capability(&self) -> Capability {
        Capability {
            perft: Some(|pos, depth| perft_work(pos, depth, true, &mut Work::default())),
            ..Capability::default()
        }
    }
}
