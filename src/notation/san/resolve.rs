//! Resolving a move text against a position: which legal move it names,
//! or why none does (illegal, ambiguous), among a list of legal moves or
//! by generating only the moves of the kind and square the text names.

use super::{MoveText, PieceText};
use crate::error::MoveError;
use crate::mv::{Move, MoveKind, PieceMove};
use crate::piece::{Role, Roles};
use crate::position::Position;
use crate::square::Square;

/// Does the piece move `m` match what `t` says? The capture mark is not
/// required to match (older texts are loose about it); everything else is.
/// A move from square to square without a letter (`b1-c3`, `g1f3`, as
/// Game Courier and engines write) is a move of whatever stands there.
pub fn piece_matches(t: &PieceText, m: &PieceMove) -> bool {
    m.to == t.to
        && (m.role == t.mover()
            || (t.roles.is_empty() && t.from_file.is_some() && t.from_rank.is_some()))
        && m.carried == t.carried()
        && t.from_file.is_none_or(|f| f == m.from.file)
        && t.from_rank.is_none_or(|r| r == m.from.rank)
        && !matches!(m.kind, MoveKind::Castle { .. })
        && t.drop == (m.kind == MoveKind::Drop)
        && t.place.is_none_or(|p| m.place == Some(p))
        && (t.promotions.is_empty() || promotions_match(&t.promotions, m))
}

/// Are the promotions written those `m` makes? One promotion is the
/// mover's (of any kind, a defined variant's too); several are a Corral
/// stack's, a multiset whichever is written first (CO-16).
fn promotions_match(written: &[Role], m: &PieceMove) -> bool {
    if m.carried_promotions.is_empty() {
        return written.len() == 1 && m.promotion == Some(written[0]);
    }
    let written = written.iter().fold(Roles::EMPTY, |r, &x| r.with(x));
    let made = match m.promotion {
        Some(p) => m.carried_promotions.with(p),
        None => m.carried_promotions,
    };
    written == made
}

fn castle_matches(long: bool, m: &PieceMove) -> bool {
    matches!(m.kind, MoveKind::Castle { .. }) && (m.to.file < m.from.file) == long
}

/// Castling written as an engine writes a king's move (`e1g1`, `e8c8`),
/// or as the king taking its own rook (`e1h1`, as engines write castling
/// in Chess960): a move without a letter from the square of the side's
/// king, on its rank, two files aside or onto one of its own rooks.
/// Whether it is long.
pub fn coordinate_castling(pos: &Position, t: &PieceText) -> Option<bool> {
    let from = t.from_square()?;
    if !t.roles.is_empty() || !t.promotions.is_empty() || t.place.is_some() {
        return None;
    }
    if !pos.variant.spec().castling || from.rank != t.to.rank {
        return None;
    }
    let own = |sq: Square, role: Role| pos.board.get(sq).is_some_and(|s| s.has(pos.turn, role));
    if !own(from, Role::King) {
        return None;
    }
    let two_aside = (t.to.file - from.file).abs() == 2;
    (two_aside || own(t.to, Role::Rook)).then_some(t.to.file < from.file)
}

/// Resolves a move text against a list of legal moves; when none matches,
/// looks at the pseudo-legal moves to say why.
pub fn resolve_in_list(pos: &Position, text: &MoveText, legal: &[Move]) -> Result<Move, MoveError> {
    if let MoveText::Piece(t) = text {
        if let Some(long) = coordinate_castling(pos, t) {
            return resolve_in_list(pos, &MoveText::Castle { long }, legal);
        }
    }
    let matches = |mv: &&Move| match (text, mv) {
        (MoveText::Piece(t), Move::Piece(m)) => piece_matches(t, m),
        (MoveText::Castle { long }, Move::Piece(m)) => castle_matches(*long, m),
        _ => false,
    };
    let mut found: Vec<&Move> = legal.iter().filter(matches).collect();
    // Where a pawn may promote or stay a pawn (a defined variant without
    // `mandatoryPawnPromotion`), no promotion written is the pawn's stay.
    if let MoveText::Piece(t) = text {
        let stays = |m: &Move| m.piece().is_some_and(|p| p.promotion.is_none());
        if found.len() > 1
            && t.promotions.is_empty()
            && found.iter().filter(|m| stays(m)).count() == 1
        {
            found.retain(|m| stays(m));
        }
    }
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(explain_illegal(pos, text)),
        many => Err(MoveError::Ambiguous {
            candidates: many.iter().map(|m| pos.move_text(m)).collect(),
        }),
    }
}

/// Resolves a move text against the position: among the legal moves of
/// the kind the text names onto the square it names, where the rules can
/// list those alone ([`crate::variant::Rules::legal_moves_to`]), else
/// among all legal moves; the same answer either way.
pub fn resolve(pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
    if let MoveText::Piece(t) = text {
        if let Some(long) = coordinate_castling(pos, t) {
            return resolve(pos, &MoveText::Castle { long });
        }
    }
    let named = match text {
        // A coordinate move without a letter names its piece by its square
        // (see `piece_matches`): only that piece's kind can match.
        MoveText::Piece(t) if t.roles.is_empty() && t.from_square().is_some() => {
            let from = t.from_square().and_then(|sq| pos.board.piece_at(sq));
            Some((from.map_or(Role::Pawn, |p| p.role), t.to))
        }
        MoveText::Piece(t) => Some((t.mover(), t.to)),
        MoveText::Castle { long } => pos
            .board
            .occupied()
            .find(|(_, st)| st.has(pos.turn, Role::King))
            .map(|(king, _)| {
                (
                    Role::King,
                    Square::new(if *long { 3 } else { 7 }, king.rank),
                )
            }),
        MoveText::Swap(_) => None,
    };
    let listed = named.and_then(|(role, to)| pos.variant.rules().legal_moves_to(pos, role, to));
    match listed {
        Some(moves) => resolve_in_list(pos, text, &moves),
        None => resolve_in_list(pos, text, &pos.legal_moves()),
    }
}

/// Why no legal move matches a text: the king would be left attacked
/// (FI-3), or no piece of that kind can go there at all.
pub fn explain_illegal(pos: &Position, text: &MoveText) -> MoveError {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let side = pos.turn.name();
    match text {
        MoveText::Castle { long } => {
            let side_name = if *long { "queen side" } else { "king side" };
            if !pos.castling.get(pos.turn, !*long) {
                MoveError::illegal_by("FI-2", format!("{side} may no longer castle {side_name}"))
            } else {
                MoveError::illegal_by(
                    "FI-2",
                    format!("{side} cannot castle {side_name} now: squares between occupied, or the king in check, passing or landing on an attacked square"),
                )
            }
        }
        MoveText::Swap(_) => MoveError::illegal(format!(
            "{} has no swap sequences",
            pos.variant.spec().title
        )),
        MoveText::Piece(t) if t.drop => {
            let role = t.mover();
            let held = pos
                .hand(pos.turn)
                .unwrap_or_default()
                .iter()
                .any(|&(r, n)| r == role && n > 0);
            // The rules of where a piece may be dropped are the defined
            // variant's engine's (the shared generator makes no drops):
            // what can be said here is the hand and the square.
            if !held {
                MoveError::illegal(format!("{side} has no {} in hand", role.name()))
            } else if pos.board.get(t.to).is_some_and(|st| st.is_occupied()) {
                MoveError::illegal(format!(
                    "{} is taken: a piece is dropped onto an empty square",
                    t.to
                ))
            } else {
                MoveError::illegal(format!(
                    "a {} may not be dropped on {}: the variant does not allow it there, or it would leave the {} king attacked",
                    role.name(),
                    t.to,
                    side.to_lowercase()
                ))
            }
        }
        MoveText::Piece(t) => {
            if let Some(long) = king_two_aside(pos, t) {
                // FI-2: a king moves two squares only in castling.
                return match explain_illegal(pos, &MoveText::Castle { long }) {
                    MoveError::Illegal { reason, rule } => MoveError::Illegal {
                        reason: format!("a king moves two squares only in castling, and {reason}"),
                        rule,
                    },
                    other => other,
                };
            }
            if pseudo
                .iter()
                .any(|m| matches!(m, Move::Piece(pm) if piece_matches(t, pm)))
            {
                return MoveError::illegal_by(
                    "FI-3",
                    format!("it would leave the {} king attacked", side.to_lowercase()),
                );
            }
            let role = t.mover();
            let have = pos.board.occupied().any(|(_, st)| st.has(pos.turn, role));
            if !have {
                return MoveError::illegal(format!("{side} has no {}", role.name()));
            }
            let from = match (t.from_file, t.from_rank) {
                (Some(f), Some(r)) => {
                    let sq = Square::new(f, r);
                    match pos.board.get(sq) {
                        None => return MoveError::illegal(format!("{sq} is not on the board")),
                        Some(st) if !st.has(pos.turn, role) => {
                            return MoveError::illegal(format!(
                                "there is no {} {} on {sq}",
                                side.to_lowercase(),
                                role.name()
                            ))
                        }
                        _ => format!(" on {sq}"),
                    }
                }
                _ => String::new(),
            };
            if !pos.board.contains(t.to) {
                return MoveError::illegal(format!("{} is not on the board", t.to));
            }
            let any_to = pseudo.iter().any(|m| {
                matches!(m, Move::Piece(pm) if pm.role == role && pm.to == t.to
                    && t.from_file.is_none_or(|f| f == pm.from.file)
                    && t.from_rank.is_none_or(|r| r == pm.from.rank))
            });
            if any_to {
                MoveError::illegal(format!(
                    "the {} {}{from} can move to {}, but not as written (promotion, carried pieces or placement differ)",
                    side.to_lowercase(),
                    role.name(),
                    t.to
                ))
            } else {
                MoveError::illegal(format!(
                    "no {} {}{from} can move to {}",
                    side.to_lowercase(),
                    role.name(),
                    t.to
                ))
            }
        }
    }
}

/// A king's move written two files aside on its rank (`Kg1` from e1),
/// in a variant with castling: castling, long or short, as the rules see
/// it, for the message that says why it is illegal.
fn king_two_aside(pos: &Position, t: &PieceText) -> Option<bool> {
    if t.mover() != Role::King || t.roles.len() != 1 || !pos.variant.spec().castling {
        return None;
    }
    pos.board
        .occupied()
        .filter(|(_, st)| st.has(pos.turn, Role::King))
        .map(|(sq, _)| sq)
        .filter(|sq| {
            sq.rank == t.to.rank
                && (sq.file - t.to.file).abs() == 2
                && t.from_file.is_none_or(|f| f == sq.file)
                && t.from_rank.is_none_or(|r| r == sq.rank)
        })
        .map(|sq| t.to.file < sq.file)
        .next()
}
