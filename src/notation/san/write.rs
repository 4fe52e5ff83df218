//! Writing moves: SAN disambiguated as FIDE does, on the general position
//! or on the fast line (one writer of a piece's move serves both), long
//! algebraic, swap sequences, and the check mark.

use super::CheckMark;
use crate::mv::{Move, MoveKind, MovePattern, PieceMove, SwapSequence};
use crate::piece::{Role, MOVE_ORDER};
use crate::position::Position;
use crate::variant::{FastLine, FastMove};

/// The move in the variant's canonical notation with its check mark.
pub fn write_move(pos: &Position, mv: &Move) -> String {
    let mut text = crate::notation::dialect(pos.variant).write_move(pos, mv);
    push_check_mark(&mut text, pos.play_unchecked(mv).check());
    text
}

/// Writes the check mark of a move that gives `check` (nothing for none).
pub fn push_check_mark(out: &mut String, check: Option<CheckMark>) {
    if let Some(c) = check {
        out.push_str(c.as_str());
    }
}

/// Several moves of one position, each as [`write_move`] writes it, in
/// time linear in their number (see `Dialect::write_moves`).
pub fn write_moves(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut texts = crate::notation::dialect(pos.variant).write_moves(pos, moves);
    for (text, mv) in texts.iter_mut().zip(moves) {
        push_check_mark(text, pos.play_unchecked(mv).check());
    }
    texts
}

/// Is the move a capture (of an enemy piece) in this position?
pub fn is_capture(pos: &Position, m: &PieceMove) -> bool {
    matches!(m.kind, MoveKind::EnPassant { .. })
        || pos
            .board
            .get(m.to)
            .is_some_and(|c| c.is_occupied() && c.color() != pos.turn)
}

fn promotion_suffix(m: &PieceMove) -> String {
    let mut s = String::new();
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(p.char());
    }
    for r in m.carried_promotions.iter_in(&MOVE_ORDER) {
        s.push('=');
        s.push(r.char());
    }
    s
}

/// SAN without check mark, disambiguated against `legal` as FIDE does
/// (file, else rank, else both).
pub fn write_san(pos: &Position, mv: &Move, legal: &[Move]) -> String {
    let m = match mv {
        Move::Swap(s) => return write_swap(s),
        Move::Piece(m) => m,
    };
    let mut s = String::new();
    // A drop (`N@f3`) is told from a board move by its `@`, never by an
    // origin: neither is the other's rival.
    write_piece_san(&mut s, m, is_capture(pos, m), |file, rank| {
        !legal.iter().filter_map(|x| x.piece()).any(|x| {
            x.role == m.role
                && x.to == m.to
                && x.from != m.from
                && (x.kind == MoveKind::Drop) == (m.kind == MoveKind::Drop)
                && x.carried == m.carried
                && file.is_none_or(|f| x.from.file == f)
                && rank.is_none_or(|r| x.from.rank == r)
        })
    });
    s
}

/// The canonical text of `m`, played on the fast line `line` to reach
/// `after`, check mark included: what [`write_move`] writes for the move
/// (a test compares the two). `alone` says the move is already known to
/// be the only legal one of its kind onto its square (found without a
/// file or rank), so that there are no rivals to look for.
pub fn write_fast(line: &FastLine, m: &FastMove, after: &FastLine, alone: bool, out: &mut String) {
    let pm = line.piece_move(m);
    // FIDE's pawns never share a step's square: one alone.
    let pawn = pm.role == Role::Pawn && pm.carried.is_empty();
    write_piece_san(out, &pm, line.captures(m), |file, rank| {
        ((alone || pawn) && file.is_none() && rank.is_none())
            || line.names_one(&MovePattern::Piece {
                role: pm.role,
                to: pm.to,
                from_file: file,
                from_rank: rank,
                promotion: None,
            })
    });
    push_check_mark(out, after.check());
}

/// The one SAN writer of a single piece's move, without check mark:
/// castling, a pawn's move (its file before a capture), or the piece's
/// letters, its origin as FIDE disambiguates it (nothing, else the file,
/// else the rank, else the square), the capture mark, the square, the
/// promotions and a Building placement. `alone(file, rank)` says whether
/// the move is the only legal one of its kind (and carried pieces) onto
/// its square from a square on that file and rank (either may be open).
fn write_piece_san(
    s: &mut String,
    m: &PieceMove,
    capture: bool,
    alone: impl Fn(Option<i16>, Option<i16>) -> bool,
) {
    use std::fmt::Write;
    if let MoveKind::Castle { .. } = m.kind {
        s.push_str(if m.to.file < m.from.file {
            "O-O-O"
        } else {
            "O-O"
        });
        return;
    }
    if m.kind == MoveKind::Drop {
        // As Fairy-Stockfish writes a drop, a pawn's with its letter too;
        // a piece dropped promoted (`dropPromoted`) as it is in hand, with
        // what it becomes: `L@c3=G`.
        let _ = write!(s, "{}@{}{}", m.role.char(), m.to, promotion_suffix(m));
        return;
    }
    if m.role == Role::Pawn && m.carried.is_empty() {
        // A pawn's file before a capture; before a step too where another
        // pawn steps there (a defined variant's pawn that moves aside);
        // its square where its file does not tell it from another (a
        // defined variant's pawn that takes as a king does).
        let unique = alone(None, None);
        if capture || !unique {
            if m.from.is_algebraic() && (unique || alone(Some(m.from.file), None)) {
                s.push(m.from.file_char().unwrap_or('?'));
            } else {
                let _ = write!(s, "{}", m.from);
            }
        }
        if capture {
            s.push('x');
        }
    } else {
        s.push(m.role.char());
        for r in m.carried.iter_in(&MOVE_ORDER) {
            s.push(r.char());
        }
        if !alone(None, None) {
            // A file letter `x` would read back as a capture mark.
            let file_letter = m.from.is_algebraic() && m.from.file_char() != Some('x');
            if file_letter && alone(Some(m.from.file), None) {
                s.push(m.from.file_char().unwrap_or('?'));
            } else if m.from.is_algebraic() && alone(None, Some(m.from.rank)) {
                let _ = write!(s, "{}", m.from.rank);
            } else {
                let _ = write!(s, "{}", m.from);
            }
        }
        if capture {
            s.push('x');
        }
    }
    let _ = write!(s, "{}", m.to);
    s.push_str(&promotion_suffix(m));
    if let Some(p) = m.place {
        let _ = write!(s, " @{p}");
    }
}

/// Long algebraic: `Ng1-f3`, `e7xd8=Q`, `QKc2-c4`, `Kc5-prison`, with the
/// placement of a Building turn after a space: `Nb1-c3 @f3`.
pub fn write_long(pos: &Position, mv: &Move) -> String {
    let m = match mv {
        Move::Swap(s) => return write_swap(s),
        Move::Piece(m) => m,
    };
    if let MoveKind::Castle { .. } = m.kind {
        return if m.to.file < m.from.file {
            "O-O-O"
        } else {
            "O-O"
        }
        .to_string();
    }
    if m.kind == MoveKind::Drop {
        return format!("{}@{}{}", m.role.char(), m.to, promotion_suffix(m));
    }
    let mut s = String::new();
    if m.role != Role::Pawn || !m.carried.is_empty() {
        s.push(m.role.char());
    }
    for r in m.carried.iter_in(&MOVE_ORDER) {
        s.push(r.char());
    }
    s.push_str(&m.from.to_string());
    s.push(if is_capture(pos, m) { 'x' } else { '-' });
    s.push_str(&m.to.to_string());
    s.push_str(&promotion_suffix(m));
    if let Some(p) = m.place {
        s.push_str(" @");
        s.push_str(&p.to_string());
    }
    s
}

/// A swap sequence with its start square: `Qb6/b1/d3=N/c4/f7`, `e4/d5`.
pub fn write_swap(s: &SwapSequence) -> String {
    let mut out = String::new();
    if s.role != Role::Pawn {
        out.push(s.role.char());
    }
    out.push_str(&s.start.to_string());
    for step in &s.steps {
        out.push('/');
        out.push_str(&step.square.to_string());
        if let Some(p) = step.promotion {
            out.push('=');
            out.push(p.char());
        }
    }
    out
}
