//! Kristensen's Game (`kristensen`), rules/kristensen.md KR-1..KR-12: FIDE
//! chess on 9x9 with a rook that also leaps like a knight (KR-3), a bishop
//! that also steps straight forward or back without capturing (KR-4), pawns
//! that also step back and of which only the unmoved wing pawns double-step
//! (KR-5), and a barrier pawn `W` that steps like a king, captures only
//! friendly pieces and the enemy barrier pawn, and is captured only by the
//! enemy barrier pawn or its own king (KR-6, KR-7). Stalemate loses (KR-9),
//! perpetual check loses for the checker (KR-10, decided from the history
//! by [`perpetual_check`]), and resigning is refused (KR-11).
//!
//! Movement is data ([`PIECES`]); the capture restrictions are
//! [`Rules::may_capture`], the double-step rights are [`State`].
//!
//! Position text: the FEN fields (castling always `-`, en passant always
//! `-`: KR-2, KR-5), then one extra field, the double-step rights: the
//! start squares of the wing pawns that have not yet moved, in the order
//! a2 b2 h2 i2 a8 b8 h8 i8, written together (`a2b2h2i2a8b8h8i8` at the
//! start, `-` when none is left), as FEN writes castling rights. Each square
//! named must hold a pawn of its side. When the field is missing, every
//! wing pawn on its start square is taken to have the right.
//!
//! Notation: SAN, with `W` for the barrier pawn (`We3`, `Wxd5`) and `x` for
//! every capture, a friendly piece's included (`Wxd1`, `Kxe2`). A pawn's
//! back step is written in long form (`e4-e3`), and so is a forward step
//! when another pawn could reach the same square.
//!
//! Text forms (move text, position-text fields): `notation/dialect/kristensen.rs`.

use super::{validate, Capability, Endings, PieceSpec, Rules, Spec, Variant};
use crate::color::Color;
use crate::movegen::{CellMove, Unmake};
use crate::mv::Move;
use crate::piece::Role;
use crate::position::{Effects, GameResult, Outcome, Position};
use crate::square::Square;
use crate::variant::Extra;

/// Piece movement (KR-2..KR-6). The barrier pawn's captures never attack
/// a king (KR-7), so it gives no check.
pub const PIECES: &[PieceSpec] = &[
    PieceSpec {
        role: Role::King,
        betza: "K",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Queen,
        betza: "Q",
        gives_check: true,
    },
    // KR-3: rook plus knight, both capturing.
    PieceSpec {
        role: Role::Rook,
        betza: "RN",
        gives_check: true,
    },
    // KR-4: bishop plus a non-capturing step straight forward or back.
    PieceSpec {
        role: Role::Bishop,
        betza: "BmvW",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Knight,
        betza: "N",
        gives_check: true,
    },
    // KR-5: FIDE pawn plus a non-capturing step straight back; the double
    // step is `may_double_step`, from the rights in `State`.
    PieceSpec {
        role: Role::Pawn,
        betza: "mfWcfFmbW",
        gives_check: true,
    },
    // KR-6: steps like a king; whom it may take is `may_capture`.
    PieceSpec {
        role: Role::Barrier,
        betza: "K",
        gives_check: false,
    },
];

/// KR-5: promotion to this game's queen, rook, bishop or knight.
pub const PROMOTION: &[Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

pub static SPEC: Spec = Spec {
    name: "kristensen",
    title: "Kristensen's Game",
    aliases: &[],
    summary: "9x9 chess with knight-rooks, stepping bishops, back-stepping pawns and barrier pawns",
    files: 9,
    ranks: 9,
    // KR-1
    start: "rnbqkqbnr/pp2w2pp/2pp1pp2/9/9/9/2PP1PP2/PP2W2PP/RNBQKQBNR w - - 0 1 a2b2h2i2a8b8h8i8",
    pieces: PIECES,
    promotion: PROMOTION,
    promotion_ranks: None,
    // KR-5: double steps start on the second rank, but only for the wing
    // pawns that still have the right (`may_double_step` decides).
    double_step_ranks: &[2],
    en_passant: false,
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: concat!(
        include_str!("../../doc/rules/kristensen.md"),
        "\n## As implemented\n\n",
        "- Position text: the FEN fields (castling and en passant always `-`), then\n",
        "  the double-step rights: the start squares of the wing pawns that have not\n",
        "  moved, e.g. `a2b2h2i2a8b8h8i8` at the start, `-` when none is left.\n",
        "- Moves are written in SAN with `x` for every capture, a friendly piece's\n",
        "  included (`Wxd3`, `Kxe2`); a pawn's back step in long form (`c3-c2`).\n",
        "- KR-10 is applied after every move from the game's history; KR-11\n",
        "  refuses `postal resign` with its reason.\n",
    ),
    variant: Variant::Kristensen,
    // KR-5: pawns step back.
    repetitions_since_reset: false,
    // KR-10.
    never_repeats: false,
    looks_back: true,
    // KR-11.
    rules_version: 1,
    no_resigning: Some(
        "resigning is forbidden in Kristensen's Game (KR-11): play on, or agree a draw",
    ),
    endings: Endings::FIDE,
};

/// The start squares of the wing pawns (KR-5), in the order of the
/// position text's rights field; bit `i` of [`State`] is `WING_SQUARES[i]`.
pub const WING_SQUARES: [Square; 8] = [
    Square::new(1, 2),
    Square::new(2, 2),
    Square::new(8, 2),
    Square::new(9, 2),
    Square::new(1, 8),
    Square::new(2, 8),
    Square::new(8, 8),
    Square::new(9, 8),
];

/// Variant state kept in the position: which wing pawns may still make
/// their double step (KR-5). A right belongs to the pawn on its start
/// square and is lost for good once that square is left or taken, so a
/// pawn that moves and comes back no longer has it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    rights: u8,
}

impl State {
    /// Every wing pawn still has its double step (the start).
    pub const ALL: State = State { rights: 0xff };
    pub const NONE: State = State { rights: 0 };

    fn bit(sq: Square) -> Option<u8> {
        WING_SQUARES.iter().position(|&w| w == sq).map(|i| 1 << i)
    }

    /// Does the pawn on `sq` still have its double step?
    pub fn has(self, sq: Square) -> bool {
        State::bit(sq).is_some_and(|b| self.rights & b != 0)
    }

    /// Removes the right of the pawn on `sq`, if it had one.
    pub fn clear(&mut self, sq: Square) {
        if let Some(b) = State::bit(sq) {
            self.rights &= !b;
        }
    }

    /// Grants the right of the pawn on `sq` (a wing start square).
    pub fn grant(&mut self, sq: Square) -> bool {
        match State::bit(sq) {
            Some(b) => {
                self.rights |= b;
                true
            }
            None => false,
        }
    }

    /// The squares whose pawns have the right, in [`WING_SQUARES`] order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        WING_SQUARES.into_iter().filter(move |&s| self.has(s))
    }
}

/// The double-step rights of a position (none when it holds other state).
pub fn rights(pos: &Position) -> State {
    match &pos.extra {
        Extra::Kristensen(s) => *s,
        _ => State::NONE,
    }
}

/// Which side a wing start square belongs to.
pub(crate) fn wing_color(sq: Square) -> Color {
    if sq.rank <= 2 {
        Color::White
    } else {
        Color::Black
    }
}

/// KR-10: perpetual check loses for the checking player. `history` holds
/// the positions from the game's start, one per ply, the current one last.
/// When the current position occurs for the third time (same placement,
/// side to move and double-step rights) and every move one player made
/// since its first occurrence gave check while the other player's did not
/// all give check, the checking player loses. Otherwise (fewer than three
/// occurrences, both players always checking, or neither) it decides
/// nothing: an ordinary repetition is a draw claim, as in FIDE.
pub fn perpetual_check(history: &[Position]) -> Option<Outcome> {
    let last = history.last()?;
    let same = |p: &Position| {
        p.turn == last.turn
            && p.extra == last.extra
            && p.castling == last.castling
            && p.ep == last.ep
            && p.board.same_placement(&last.board)
    };
    let occurrences: Vec<usize> = (0..history.len()).filter(|&i| same(&history[i])).collect();
    if occurrences.len() < 3 {
        return None;
    }
    let first = occurrences[0];
    // Per side: made a move in the window, and every such move gave check.
    let mut moved = [false; 2];
    let mut always_checked = [true; 2];
    for k in first + 1..history.len() {
        let mover = history[k - 1].turn;
        moved[mover.index()] = true;
        if !Kristensen.in_check(&history[k]) {
            always_checked[mover.index()] = false;
        }
    }
    let checker = |c: Color| moved[c.index()] && always_checked[c.index()];
    let loser = match (checker(Color::White), checker(Color::Black)) {
        (true, false) => Color::White,
        (false, true) => Color::Black,
        _ => return None,
    };
    Some(Outcome::new(
        GameResult::win_for(!loser),
        format!("perpetual check by {loser}"),
        "KR-10",
    ))
}

pub struct Kristensen;

/// Turns are the shared generator's moves; `after` is what [`Rules::apply`]
/// adds to the piece move.
impl crate::perft::InPlace for Kristensen {
    fn after(&self, pos: &mut Position, m: &CellMove, _undo: &mut Unmake) {
        pos.ep = None;
        if m.role == Role::Barrier {
            pos.halfmove = 0;
        }
        let mut state = rights(pos);
        if state != State::NONE {
            state.clear(pos.board.square(m.from as usize));
            state.clear(pos.board.square(m.to as usize));
        }
        pos.extra = Extra::Kristensen(state);
    }
}

impl Rules for Kristensen {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// FIDE's checks (one king each, the side not to move not in check),
    /// and no pawn on its promotion rank.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        for color in Color::ALL {
            validate::one_king(pos, color, "Kristensen's Game")?;
            if let Some(sq) = validate::pawn_on_promotion_rank(pos, color) {
                return Err(format!(
                    "a {} pawn stands on {sq}, its promotion rank (KR-5)",
                    color.name().to_lowercase(),
                ));
            }
        }
        validate::side_not_to_move_not_in_check(pos)
    }

    /// KR-6, KR-7: the barrier pawn takes friendly pieces other than the
    /// king, and the enemy barrier pawn; a barrier pawn is taken only by
    /// the enemy barrier pawn or its own king; no other piece takes a
    /// friendly piece.
    fn may_capture(&self, pos: &Position, role: Role, _from: usize, to: usize) -> bool {
        let cell = pos.board.cell(to);
        let own = cell.color() == pos.turn;
        let Some(target) = cell.roles().single() else {
            return false;
        };
        match (role, target) {
            (Role::Barrier, Role::King) => false,
            (Role::Barrier, Role::Barrier) => true,
            (Role::Barrier, _) => own,
            (Role::King, Role::Barrier) => own,
            (_, Role::Barrier) => false,
            _ => !own,
        }
    }

    /// KR-5: only a wing pawn that has not moved (its right still in the
    /// position's [`State`]) double-steps.
    fn may_double_step(&self, pos: &Position, from: Square) -> bool {
        rights(pos).has(from)
    }

    /// FIDE's move, then: no en passant square (KR-5), the fifty-move
    /// count reset by barrier-pawn moves too (KR-12), and the double-step
    /// right lost by a pawn that leaves its square or is taken (KR-5).
    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        let Move::Piece(m) = mv else {
            return Effects::default();
        };
        let effects = pos.apply_piece_move(m);
        pos.ep = None;
        if m.role == Role::Barrier {
            pos.halfmove = 0;
        }
        let mut state = rights(pos);
        state.clear(m.from);
        state.clear(m.to);
        pos.extra = Extra::Kristensen(state);
        effects
    }

    /// KR-8 checkmate wins, KR-9 stalemate loses for the stalemated side;
    /// FIDE's seventy-five-move rule stands.
    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        if !known_move && !self.has_legal_move(pos) {
            let winner = !pos.turn;
            return Some(if self.in_check(pos) {
                Outcome::new(GameResult::win_for(winner), "checkmate", "KR-8")
            } else {
                Outcome::new(
                    GameResult::win_for(winner),
                    format!("stalemate: {} cannot move and loses", pos.turn),
                    "KR-9",
                )
            });
        }
        pos.fide_outcome(true, false)
    }

    /// KR-10.
    fn history_outcome(&self, history: &[Position]) -> Option<Outcome> {
        perpetual_check(history)
    }

    /// The turns are the shared generator's legal moves, played in place
    /// for perft.
    fn capability(&self) -> Capability {
        Capability {
            shared_moves: true,
            perft: Some(|pos, depth| crate::perft::perft_in_place(&Kristensen, pos, depth)),
            ..Capability::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        Position::from_text(Variant::Kristensen, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn kr1_start_text_round_trip() {
        let p = Position::start(Variant::Kristensen);
        assert_eq!(p.to_text(), SPEC.start);
        assert_eq!(rights(&p), State::ALL);
    }

    #[test]
    fn kr5_rights_field_is_checked() {
        let base = "rnbqkqbnr/pp2w2pp/2pp1pp2/9/9/9/2PP1PP2/PP2W2PP/RNBQKQBNR w - - 0 1";
        assert_eq!(rights(&pos(base)), State::ALL);
        assert_eq!(rights(&pos(&format!("{base} -"))), State::NONE);
        let p = pos(&format!("{base} i8b2"));
        assert_eq!(p.to_text(), format!("{base} b2i8"));
        assert!(Position::from_text(Variant::Kristensen, &format!("{base} c3")).is_err());
        assert!(Position::from_text(Variant::Kristensen, &format!("{base} a2 x")).is_err());
        let moved = "rnbqkqbnr/pp2w2pp/2pp1pp2/9/9/P8/2PP1PP2/1P2W2PP/RNBQKQBNR w - - 0 1";
        assert!(Position::from_text(Variant::Kristensen, &format!("{moved} a2")).is_err());
        assert!(!rights(&pos(moved)).has(Square::new(1, 2)));
    }

    #[test]
    fn kr7_barrier_pawn_gives_no_check() {
        // The white barrier pawn on e8 stands next to the black king.
        let p = pos("4k4/4W4/9/9/9/9/9/9/4K4 b - - 0 1 -");
        assert!(!p.is_check());
    }

    #[test]
    fn kr10_needs_three_occurrences() {
        assert_eq!(perpetual_check(&[]), None);
        let p = Position::start(Variant::Kristensen);
        assert_eq!(perpetual_check(&[p.clone(), p]), None);
    }

    #[test]
    fn kr10_both_players_checking_is_an_ordinary_repetition() {
        // A cycle of four positions, each with the side to move in check
        // (the rules of the cycle's moves do not matter to the count).
        let a = pos("4k4/9/9/9/4r4/9/R8/9/4K4 w - - 0 1 -");
        let b = pos("4k4/9/9/9/r8/9/9/4R4/4K4 b - - 0 1 -");
        let c = pos("4k4/9/9/9/4r4/9/1R7/9/4K4 w - - 0 1 -");
        let d = pos("4k4/9/9/9/1r7/9/9/4R4/4K4 b - - 0 1 -");
        assert!([&a, &b, &c, &d].iter().all(|p| p.is_check()));
        let cycle = [a.clone(), b, c, d];
        let mut history: Vec<Position> = cycle.iter().chain(&cycle).cloned().collect();
        history.push(a.clone());
        assert_eq!(perpetual_check(&history), None);
        // With White's checks replaced by quiet positions, Black alone
        // checked on every move and loses.
        let quiet_b = pos("4k4/9/9/9/r8/9/9/9/4K4 b - - 0 1 -");
        let quiet_d = pos("4k4/9/9/9/1r7/9/9/9/4K4 b - - 0 1 -");
        assert!(!quiet_b.is_check() && !quiet_d.is_check());
        let cycle = [a.clone(), quiet_b, cycle[2].clone(), quiet_d];
        let mut history: Vec<Position> = cycle.iter().chain(&cycle).cloned().collect();
        history.push(a);
        let o = perpetual_check(&history).unwrap();
        assert_eq!((o.result, o.rule), (GameResult::WhiteWins, "KR-10"));
        assert!(o.reason.contains("Black"), "{}", o.reason);
    }
}
