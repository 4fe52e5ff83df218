//! Corral Chess text (rules/corral.md, "Notation"): the `ep=` and `prison=`
//! fields, reading a parsed move
//! against the position's stacks, explaining why a text names no legal
//! move, and writing the canonical form.

use super::san::{write_long, write_san, MoveText, PieceText};
use super::Dialect;
use crate::board::Board;
use crate::error::MoveError;
use crate::mv::Move;
use crate::piece::{Role, Roles, Stack, MOVE_ORDER};
use crate::position::Position;
use crate::square::Square;
use crate::variant::corral::movegen::{to_piece_move, Refusal, Step, PRISON_DOOR};
use crate::variant::corral::{
    ep_chance, group_letters, judge_for, prisoner, read_group, refusal_reason, second_rank, Corral,
    State,
};
use crate::variant::{Extra, Rules};

/// The canonical text of a move, without check mark: SAN for a piece
/// moving alone, the long form for a group and for the prison.
pub fn write(pos: &Position, mv: &Move, legal: &[Move]) -> String {
    match mv {
        Move::Piece(m) if m.to.is_prison() || !m.carried.is_empty() => write_long(pos, mv),
        _ => write_san(pos, mv, legal),
    }
}

/// The multiset of promotions written.
fn written_promotions(t: &PieceText) -> Roles {
    t.promotions.iter().fold(Roles::EMPTY, |r, &p| r.with(p))
}

/// Does the text name this step, promotions aside? The mover named must be
/// able to make it by its own powers (CO-8); the carried pieces are a
/// multiset (CO-16); the capture mark is not checked.
fn names_step(pos: &Position, t: &PieceText, s: &Step) -> bool {
    let from = pos.board.square(s.from);
    pos.board.square(s.to) == t.to
        && t.from_file.is_none_or(|f| f == from.file)
        && t.from_rank.is_none_or(|r| r == from.rank)
        && t.place.is_none()
        && s.group == t.carried().with(t.mover())
        && s.movers & 1u8.checked_shl(t.mover().index() as u32).unwrap_or(0) != 0
}

fn promotions_match(t: &PieceText, s: &Step) -> bool {
    t.promotions.is_empty() || written_promotions(t) == s.promotions
}

/// Resolves a parsed move to the one legal move it names.
pub fn resolve(pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
    let t = match text {
        MoveText::Castle { .. } => {
            return Err(MoveError::illegal_by(
                "CO-4",
                "Corral Chess has no castling",
            ))
        }
        MoveText::Swap(_) => return Err(MoveError::illegal("Corral Chess has no swap sequences")),
        MoveText::Piece(t) => t,
    };
    if prisoner(pos).is_some() {
        return Err(MoveError::illegal_by(
            "CO-9",
            "the game is over: a king is in the prison",
        ));
    }
    let mut judge = judge_for(pos);
    let mut steps = Vec::with_capacity(64);
    // Only a stack holding the group the text names, on its file and
    // rank, can make a step the text names (`names_step`).
    let group = t.carried().with(t.mover());
    judge.pseudo_steps_from(
        |board, from| {
            let sq = board.square(from);
            board.cell(from).roles().includes(group)
                && t.from_file.is_none_or(|f| f == sq.file)
                && t.from_rank.is_none_or(|r| r == sq.rank)
        },
        &mut steps,
    );
    let named: Vec<Step> = steps
        .iter()
        .copied()
        .filter(|s| names_step(pos, t, s))
        .collect();
    let matching: Vec<Step> = named
        .iter()
        .copied()
        .filter(|s| promotions_match(t, s))
        .collect();
    if matching.is_empty() {
        return Err(if named.is_empty() {
            explain_unreachable(pos, t)
        } else {
            let pawns = named[0].group.count(Role::Pawn);
            MoveError::illegal_by(
                "CO-16",
                format!(
                    "this move promotes {pawns} pawn{}: write one =X (Q, R, B or N) for each",
                    if pawns == 1 { "" } else { "s" }
                ),
            )
        });
    }
    let mut legal = Vec::new();
    let mut first_refusal = None;
    for s in &matching {
        match judge.judge(s) {
            Ok(()) => legal.push(*s),
            Err(r) => {
                first_refusal.get_or_insert((*s, r));
            }
        }
    }
    match legal.as_slice() {
        [one] => Ok(Move::Piece(to_piece_move(&pos.board, one))),
        [] => {
            let (s, r) = first_refusal.unwrap_or((matching[0], Refusal::OwnKing));
            let (rule, reason) = refusal_reason(pos, &s, r);
            Err(MoveError::illegal_by(rule, reason))
        }
        many => Err(MoveError::Ambiguous {
            candidates: many
                .iter()
                .map(|s| pos.move_text(&Move::Piece(to_piece_move(&pos.board, s))))
                .collect(),
        }),
    }
}

/// "queen carrying the king and a pawn".
fn describe(mover: Role, carried: Roles) -> String {
    let mut s = mover.name().to_string();
    let names: Vec<String> = MOVE_ORDER
        .iter()
        .filter(|&&r| carried.count(r) > 0)
        .map(|&r| match (r, carried.count(r)) {
            (Role::King, _) => "the king".to_string(),
            (r, 1) => format!("a {}", r.name()),
            (r, n) => format!("{n} {}s", r.name()),
        })
        .collect();
    if let Some((last, rest)) = names.split_last() {
        s.push_str(" carrying ");
        if !rest.is_empty() {
            s.push_str(&rest.join(", "));
            s.push_str(" and ");
        }
        s.push_str(last);
    }
    s
}

/// Why no pseudo-legal move matches the text.
fn explain_unreachable(pos: &Position, t: &PieceText) -> MoveError {
    let side = pos.turn.name().to_lowercase();
    let mover = t.mover();
    let carried = t.carried();
    let group = carried.with(mover);
    if t.place.is_some() {
        return MoveError::illegal("Corral Chess has no placements");
    }
    if t.to.is_prison() {
        if mover != Role::King || !carried.is_empty() {
            return MoveError::illegal_by(
                "CO-9",
                "only a king may enter the prison, and it carries nothing there",
            );
        }
        return MoveError::illegal_by(
            "CO-9",
            format!("a king enters the prison only from {PRISON_DOOR}"),
        );
    }
    if !pos.board.contains(t.to) {
        return MoveError::illegal(format!("{} is not on the board", t.to));
    }
    let what = describe(mover, carried);
    let froms: Vec<Square> = pos
        .board
        .occupied()
        .filter(|(sq, st)| {
            !sq.is_prison()
                && st.color() == pos.turn
                && st.roles().includes(group)
                && t.from_file.is_none_or(|f| f == sq.file)
                && t.from_rank.is_none_or(|r| r == sq.rank)
        })
        .map(|(sq, _)| sq)
        .collect();
    if froms.is_empty() {
        return MoveError::illegal(match t.from_square() {
            Some(sq) => format!("there is no {side} {what} on {sq} (CO-8)"),
            None => format!("no {side} stack holds a {what} (CO-8)"),
        });
    }
    // The reason from the one square whose mover comes close (right
    // shape of move, but too far, blocked, or a pawn rule); else none.
    let close: Vec<(Square, String)> = froms
        .iter()
        .filter_map(|&f| mover_reason(pos, mover, f, t.to).map(|r| (f, r)))
        .collect();
    let (at, why) = match (close.as_slice(), froms.as_slice()) {
        ([(f, r)], _) => (format!(" on {f}"), r.clone()),
        ([], [f]) => (format!(" on {f}"), shape_reason(mover)),
        _ => (String::new(), String::new()),
    };
    MoveError::illegal(format!("no {side} {what}{at} can move to {}{why}", t.to))
}

/// What a piece of this kind does (CO-3, CO-4), when the move has not its
/// shape.
fn shape_reason(mover: Role) -> String {
    match mover {
        Role::King => format!(
            ": a king steps one square (CO-4), and enters the prison only from {PRISON_DOOR} (CO-9)"
        ),
        Role::Knight => ": that is not a knight's leap (CO-4)".into(),
        Role::Rook => ": a rook moves straight, at most four squares (CO-4)".into(),
        Role::Bishop => ": a bishop moves diagonally, at most four squares (CO-4)".into(),
        Role::Queen => ": a queen moves straight or diagonally, at most four squares (CO-4)".into(),
        Role::Pawn => ": a pawn steps forward, or diagonally forward to capture (CO-3)".into(),
        _ => String::new(),
    }
}

/// Why the mover cannot go from `from` to `to` although the move has the
/// shape of one of its moves; `None` when it has not that shape.
fn mover_reason(pos: &Position, mover: Role, from: Square, to: Square) -> Option<String> {
    let (dx, dy) = (to.file - from.file, to.rank - from.rank);
    let (ax, ay) = (dx.abs(), dy.abs());
    let us = pos.turn;
    let fwd = us.forward();
    let stack = |sq: Square| pos.board.get(sq).unwrap_or(Stack::EMPTY);
    let enemy = |sq: Square| {
        let c = stack(sq);
        c.is_occupied() && c.color() != us
    };
    let path_clear = || {
        let steps = ax.max(ay);
        let (sx, sy) = (dx.signum(), dy.signum());
        (1..steps).all(|k| stack(from.offset(sx * k, sy * k)).is_empty())
    };
    let line = |straight: bool, diagonal: bool, name: &str| {
        let is_straight = (dx == 0) != (dy == 0);
        let is_diagonal = ax == ay && ax > 0;
        if !(straight && is_straight || diagonal && is_diagonal) {
            None
        } else if ax.max(ay) > 4 {
            Some(format!(": a {name} moves at most four squares (CO-4)"))
        } else if !path_clear() {
            Some(": the squares it passes must be empty; only a knight jumps (CO-5)".to_string())
        } else {
            None
        }
    };
    match mover {
        Role::Rook => line(true, false, "rook"),
        Role::Bishop => line(false, true, "bishop"),
        Role::Queen => line(true, true, "queen"),
        Role::Pawn => {
            if dx == 0 && dy == fwd && enemy(to) {
                Some(": a pawn moves forward only onto squares without enemy pieces (CO-7)".into())
            } else if ax == 1 && dy == fwd {
                Some(": a pawn moves diagonally only to capture (CO-7)".into())
            } else if dx == 0 && dy == 2 * fwd {
                Some(if from.rank != second_rank(us) {
                    ": a pawn double-steps only from its second rank (CO-3, CO-15)".into()
                } else if !stack(from.offset(0, fwd)).is_empty() {
                    ": the square a double step passes must be empty (CO-3)".into()
                } else {
                    ": a pawn moves forward only onto squares without enemy pieces (CO-7)".into()
                })
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Corral Chess text: stack moves, the `ep=` and `prisoner=` fields.
pub struct CorralDialect;

impl Dialect for CorralDialect {
    fn extra_fields(&self, pos: &Position) -> Vec<String> {
        let mut out = Vec::new();
        if pos.ep.is_some() {
            let group = ep_chance(pos).map(|e| e.group).unwrap_or_default();
            out.push(format!("ep={}", group_letters(!pos.turn, group)));
        }
        if let Some(p) = pos.board.get(Square::PRISON).filter(|c| c.is_occupied()) {
            out.push(format!("prison={}", group_letters(p.color(), p.roles())));
        }
        out
    }

    fn read_extra_fields(&self, pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        // CO-1: every Corral board has the prison.
        let board = std::mem::replace(&mut pos.board, Board::rect(0, 0));
        pos.board = board.with_prison();
        let mut ep_group = None;
        let mut prison = None;
        for f in fields {
            if let Some(v) = f.strip_prefix("ep=") {
                if ep_group.is_some() {
                    return Err("ep= given twice".into());
                }
                let (color, roles) = read_group(v, "ep=")?;
                if color == pos.turn {
                    return Err(format!(
                        "ep=: the double step was {}'s, who moved last",
                        !pos.turn
                    ));
                }
                ep_group = Some(roles);
            } else if let Some(v) = f.strip_prefix("prison=") {
                if prison.is_some() {
                    return Err("prison= given twice".into());
                }
                prison = Some(read_group(v, "prison=")?);
            } else {
                return Err(format!(
                    "unexpected field {f:?}; Corral Chess reads ep=PIECES and prison=K"
                ));
            }
        }
        if ep_group.is_some() && pos.ep.is_none() {
            return Err("ep= needs an en passant square in the fourth field".into());
        }
        if let Some((color, roles)) = prison {
            pos.board
                .set(Square::PRISON, crate::piece::Stack::of(color, roles));
        }
        let ep_group = match (pos.ep, ep_group) {
            (Some(_), None) => Roles::one(Role::Pawn),
            (_, g) => g.unwrap_or_default(),
        };
        pos.extra = Extra::Corral(State { ep_group });
        Ok(())
    }

    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        resolve(pos, text)
    }

    fn write_move(&self, pos: &Position, mv: &Move) -> String {
        write(pos, mv, &Corral.legal_moves(pos))
    }
}
