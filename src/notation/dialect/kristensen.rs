//! Kristensen's Game text (rules/kristensen.md): the double-step rights
//! field (KR-5), SAN with `x` for friendly captures and long pawn steps,
//! and why a text names no legal move.

use super::san::{resolve, write_long, write_san, MoveText, PieceText};
use super::Dialect;
use crate::error::MoveError;
use crate::mv::{Move, MoveKind};
use crate::notation::square;
use crate::piece::Role;
use crate::position::Position;
use crate::square::Square;
use crate::variant::kristensen::{rights, wing_color, Kristensen, State, WING_SQUARES};
use crate::variant::{Extra, Rules};

/// Kristensen's Game text.
pub struct KristensenDialect;

impl Dialect for KristensenDialect {
    fn extra_fields(&self, pos: &Position) -> Vec<String> {
        vec![write_rights(rights(pos))]
    }

    fn read_extra_fields(&self, pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        if pos.ep.is_some() {
            return Err(
                "Kristensen's Game has no en passant (KR-5): the en passant field must be '-'"
                    .into(),
            );
        }
        let state = match fields {
            [] => {
                // No rights field: every wing pawn on its start square.
                let mut s = State::NONE;
                for sq in WING_SQUARES {
                    if pos.board.piece_at(sq)
                        == Some(crate::piece::Piece::new(wing_color(sq), Role::Pawn))
                    {
                        s.grant(sq);
                    }
                }
                s
            }
            [f] => read_rights(pos, f)?,
            [_, extra, ..] => return Err(format!("unexpected field {extra:?}")),
        };
        pos.extra = Extra::Kristensen(state);
        Ok(())
    }

    fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
        match resolve(pos, text) {
            Err(MoveError::Illegal { reason, rule }) => match text {
                MoveText::Piece(t) => {
                    Err(explain(pos, t).unwrap_or(MoveError::Illegal { reason, rule }))
                }
                _ => Err(MoveError::Illegal { reason, rule }),
            },
            other => other,
        }
    }

    /// SAN, with `x` for captures of friendly pieces too, and pawn steps in
    /// long form where the short one would mislead or be ambiguous: every
    /// back step, and a forward step another pawn could also make.
    fn write_move(&self, pos: &Position, mv: &Move) -> String {
        let Move::Piece(m) = mv else {
            return write_san(pos, mv, &Kristensen.legal_moves(pos));
        };
        // SAN and the pawn test below look only at moves of the same kind
        // onto the same square.
        let legal = pos.legal_piece_moves_to(m.role, m.to);
        let target = pos.board.get(m.to).filter(|c| c.is_occupied());
        if m.role == Role::Pawn && target.is_none() {
            let back = m.to.rank - m.from.rank == -pos.turn.forward();
            let rival = legal
                .iter()
                .filter_map(|x| x.piece())
                .any(|x| x.role == Role::Pawn && x.to == m.to && x.from != m.from);
            if back || rival {
                return write_long(pos, mv);
            }
        }
        let mut s = write_san(pos, mv, &legal);
        if target.is_some_and(|c| c.color() == pos.turn) && m.kind == MoveKind::Normal {
            // A friendly capture (KR-6, KR-7): SAN's `x` before the square.
            let to = m.to.to_string();
            if let Some(at) = s.rfind(&to) {
                s.insert(at, 'x');
            }
        }
        s
    }
}

/// The rights field of the position text.
fn write_rights(state: State) -> String {
    let text: String = state.squares().map(|s| s.to_string()).collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// Reads the rights field against the board: each square must be a wing
/// start square holding a pawn of its side.
fn read_rights(pos: &Position, text: &str) -> Result<State, String> {
    let mut state = State::NONE;
    if text == "-" {
        return Ok(state);
    }
    let mut rest = text;
    while !rest.is_empty() {
        let (r, sq) = square::square(rest).map_err(|_| {
            format!("expected the double-step rights (KR-5): squares such as a2b2h8 or '-', found {rest:?}")
        })?;
        rest = r;
        if !state.grant(sq) {
            return Err(format!(
                "{sq} is not a wing pawn's start square (a2 b2 h2 i2 a8 b8 h8 i8); only wing pawns double-step (KR-5)"
            ));
        }
        let color = wing_color(sq);
        if !pos
            .board
            .get(sq)
            .is_some_and(|c| c.piece() == Some(crate::piece::Piece::new(color, Role::Pawn)))
        {
            return Err(format!(
                "the double-step right on {sq} needs a {} pawn there (KR-5)",
                color.name().to_lowercase()
            ));
        }
    }
    Ok(state)
}

/// Why no legal move matches a move text, for the cases this game's rules
/// decide (KR-5..KR-7); `None` leaves the general explanation.
fn explain(pos: &Position, t: &PieceText) -> Option<MoveError> {
    let us = pos.turn;
    let mover = t.mover();
    let target = pos.board.get(t.to)?.piece();
    if let Some(p) = target {
        let own = p.color == us;
        match (mover, own, p.role) {
            (Role::Barrier, true, Role::King) => {
                return Some(MoveError::illegal_by(
                    "KR-6",
                    "a barrier pawn may not take its own king",
                ))
            }
            (Role::Barrier, false, r) if r != Role::Barrier => {
                return Some(MoveError::illegal_by(
                    "KR-6",
                    format!(
                        "a barrier pawn takes only friendly pieces and the enemy barrier pawn, not the {p} on {}",
                        t.to
                    ),
                ))
            }
            (m, false, Role::Barrier) if m != Role::Barrier => {
                return Some(MoveError::illegal_by(
                    "KR-7",
                    "a barrier pawn can be taken only by the enemy barrier pawn or by its own king",
                ))
            }
            (m, true, r) if m != Role::Barrier && !(m == Role::King && r == Role::Barrier) => {
                return Some(MoveError::illegal_by(
                    "KR-6",
                    format!(
                        "only the barrier pawn may take a friendly piece (and the king its own barrier pawn); {} is {}'s own {}",
                        t.to,
                        us,
                        p.role.name()
                    ),
                ))
            }
            _ => {}
        }
    }
    // A double step by a pawn without the right.
    let fwd = us.forward();
    let from_rank = t.to.rank - 2 * fwd;
    if mover == Role::Pawn
        && target.is_none()
        && t.from_file.is_none_or(|f| f == t.to.file)
        && t.from_rank.is_none_or(|r| r == from_rank)
    {
        let from = Square::new(t.to.file, from_rank);
        if pos.board.piece_at(from) == Some(crate::piece::Piece::new(us, Role::Pawn))
            && !rights(pos).has(from)
        {
            return Some(MoveError::illegal_by(
                "KR-5",
                format!(
                    "the pawn on {from} may not step two squares: only a wing pawn that has not yet moved may"
                ),
            ));
        }
    }
    None
}
