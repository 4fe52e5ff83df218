//! Disintegration Chess (`disintegration`), rules/disintegration.md
//! DI-1..DI-14: Gary Gifford's 5x9 game with three kings a side, where
//! there is no check to answer; a king attacked by any enemy piece (an
//! enemy king included) disintegrates at once, and removing kings can open
//! lines, so the removals run in waves until no king is attacked.
//!
//! Movement is data ([`SPEC`]: the Fye'tin is `W2A`, DI-5); this module is
//! the code for what data cannot say: the file-based double step (DI-6),
//! the disintegration waves (DI-8), no capture of kings (DI-9), the last
//! move and the game's end (DI-10..DI-14).
//!
//! Position text: the FEN fields, then one optional field for DI-10's last
//! move (see [`LastMove`]):
//!
//! - `last=w` (or `last=b`): the side to move lost its last king on the
//!   opponent's turn and owes its last move;
//! - `last=w-played` (or `last=b-played`): that side has made its last
//!   move; the game is over, and the other side, to move, wins if it kept
//!   a king (DI-10).
//!
//! The field is written only when it applies. When it is absent, a side to
//! move with no kings against an opponent with some owes its last move, so
//! a position text written by hand needs no field; one where the side not
//! to move has no kings reads as a finished game (DI-11 or DI-12). A side
//! may have 0 to 3 kings; no king may be attacked (it would already be
//! gone, DI-8).
//!
//! Check marks: there is no check (DI-7), so canonical move text carries
//! no `+` or `#`; a `+` or `#` in a text read is accepted and ignored. What
//! a move does is reported by its [`Effects`]: `Effects::disintegrated`
//! lists the kings removed, wave by wave. [`preview`] gives the effects of
//! a move without playing it and [`describe`] says them in words, for
//! `postal moves --verbose`.
//!
//! Text forms (move text, position-text fields): `notation/dialect/disintegration.rs`.

use super::{Capability, Endings, Extra, PieceSpec, Rules, Spec, Tables, Variant};
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::movegen::{CellMove, Unmake};
use crate::mv::Move;
use crate::piece::{Piece, Role, Stack};
use crate::position::{attacked, Effects, GameResult, Outcome, Position};
use crate::square::Square;

/// DI-2: the start position, the one table to correct should a better
/// source for the setup turn up (the page's diagram is an image; this is
/// the project's reconstruction): White Ka1 Rb1 Kc1 Fd1 Ke1, pawns a2-e2;
/// Black mirrored on ranks 9 and 8.
pub const SETUP: &str = "krkfk/ppppp/5/5/5/5/5/PPPPP/KRKFK w - - 0 1";

/// DI-3..DI-6: king and rook as in FIDE, the Fye'tin `F` (one- or
/// two-square orthogonal slide `W2`, two-square diagonal leap `A`, never
/// one diagonal step), the FIDE pawn.
pub const PIECES: &[PieceSpec] = &[
    PieceSpec {
        role: Role::King,
        betza: "K",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Rook,
        betza: "R",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Fyetin,
        betza: "W2A",
        gives_check: true,
    },
    PieceSpec {
        role: Role::Pawn,
        betza: "mfWcfF",
        gives_check: true,
    },
];

/// DI-6: a pawn promotes to a rook or a Fye'tin only.
pub const PROMOTION: &[Role] = &[Role::Rook, Role::Fyetin];

/// DI-6: the files whose pawns may double-step (b, c, d); the a- and
/// e-pawns never do.
pub const DOUBLE_STEP_FILES: &[i16] = &[2, 3, 4];

/// DI-2: at most three kings a side.
pub const MAX_KINGS: usize = 3;

pub static SPEC: Spec = Spec {
    name: "disintegration",
    title: "Disintegration Chess",
    aliases: &["disintegration chess"],
    summary: "5x9, three kings a side; an attacked king disintegrates, in chain reactions",
    // DI-1
    files: 5,
    ranks: 9,
    start: SETUP,
    pieces: PIECES,
    promotion: PROMOTION,
    promotion_ranks: None,
    // DI-6: from the pawn's first square, on the files of DOUBLE_STEP_FILES.
    double_step_ranks: &[2],
    en_passant: true,
    // DI-3
    castling: false,
    board_grows: false,
    stacks: false,
    rules_text: concat!(
        include_str!("../../doc/rules/disintegration.md"),
        "
## As implemented

- Position text: the FEN fields, then `last=w` / `last=b` when the side to
  move owes its last move (DI-10), or `last=w-played` / `last=b-played`
  once that side has made it (the game is over). Without the field, a side
  to move with no kings against an opponent with some owes its last move.
  Each side has 0 to 3 kings and no king is attacked.
- No check marks are written (DI-7); `+` and `#` are accepted and ignored
  when reading.
- The kings a move disintegrates are reported wave by wave.
"
    ),
    variant: Variant::Disintegration,
    // Kings disintegrate without a capture; pawns move sideways (DI-5).
    repetitions_since_reset: false,
    never_repeats: false,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

/// DI-10's last move, kept in the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LastMove {
    /// This side, to move, lost its last king on the opponent's turn and
    /// owes its last move.
    Owed(Color),
    /// This side has made its last move; the game is over.
    Played(Color),
}

/// Variant state kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    pub last_move: Option<LastMove>,
}

pub struct Disintegration;

/// The state of a position of this variant (the default when the position
/// was built without one).
pub fn state(pos: &Position) -> State {
    match &pos.extra {
        Extra::Disintegration(s) => s.clone(),
        _ => State::default(),
    }
}

/// Kings on the board, per side.
pub fn king_counts(board: &Board) -> ByColor<usize> {
    let mut n = ByColor::new(0, 0);
    for i in king_cells(board) {
        n[board.cell(i).color()] += 1;
    }
    n
}

/// The last-move state in force: the stored one, or, when none is stored,
/// `Owed` for a side to move with no kings against an opponent with some
/// (a position text written by hand need not say it).
pub fn last_move(pos: &Position) -> Option<LastMove> {
    state(pos).last_move.or_else(|| {
        let kings = king_counts(&pos.board);
        (kings[pos.turn] == 0 && kings[!pos.turn] > 0).then_some(LastMove::Owed(pos.turn))
    })
}

/// DI-8: removes every king attacked by an enemy piece, all at once, and
/// repeats while removals leave kings attacked. Returns the waves, each
/// in board order (rank 1 first, files left to right).
pub fn disintegrate(board: &mut Board, tables: &Tables) -> Vec<Vec<(Square, Piece)>> {
    let mut kings: Vec<usize> = king_cells(board).collect();
    let mut waves: Vec<Vec<(Square, Piece)>> = Vec::new();
    let n = kings.len();
    remove_attacked_kings(board, tables, &mut kings, n, |board, i, wave| {
        if wave == waves.len() {
            waves.push(Vec::new());
        }
        let piece = Piece::new(board.cell(i).color(), Role::King);
        waves[wave].push((board.square(i), piece));
    });
    waves
}

/// The cells of the kings on the board, in board order.
fn king_cells(board: &Board) -> impl Iterator<Item = usize> + '_ {
    board
        .occupied_cells()
        .filter(|&i| board.cell(i).roles().contains(Role::King))
}

/// DI-8's waves on `board`, whose kings stand on `kings[..n]` (in board
/// order; the slice is used as scratch). `removing(board, cell, wave)` is
/// called before each king is removed, wave by wave from 0.
fn remove_attacked_kings(
    board: &mut Board,
    tables: &Tables,
    kings: &mut [usize],
    mut n: usize,
    mut removing: impl FnMut(&Board, usize, usize),
) {
    for wave in 0.. {
        // Decide the whole wave before removing anything: kings attacked
        // at this moment go together (a king stepping next to an enemy
        // king removes both).
        // (The 5x9 board holds fewer than 64 kings.)
        let mut attacked_now = [false; 64];
        let mut any = false;
        for (a, &i) in attacked_now.iter_mut().zip(&kings[..n]) {
            *a = attacked(board, tables, i, !board.cell(i).color());
            any |= *a;
        }
        if !any {
            return;
        }
        let mut kept = 0;
        for k in 0..n {
            let i = kings[k];
            if attacked_now[k] {
                removing(board, i, wave);
                board.set_cell(i, Stack::EMPTY);
            } else {
                kings[kept] = i;
                kept += 1;
            }
        }
        n = kept;
    }
}

/// Kings [`Disintegration`]'s perft in place can follow: what an
/// [`Unmake`] has room for besides the move's own cells.
const IN_PLACE_KINGS: usize = 8;

/// Turns are the shared generator's moves, all of them legal (DI-7);
/// `after` is what [`Rules::apply`] adds to the piece move.
impl crate::perft::InPlace for Disintegration {
    const KING_SAFETY: bool = false;

    /// [`decided`] without its words: the last move made, or, with no
    /// last move owed, the side not to move without kings (DI-11, DI-12).
    fn finished(&self, pos: &Position) -> bool {
        match state(pos).last_move {
            Some(LastMove::Played(_)) => true,
            Some(LastMove::Owed(_)) => false,
            None => !king_cells(&pos.board).any(|i| pos.board.cell(i).color() != pos.turn),
        }
    }

    fn after(&self, pos: &mut Position, _m: &CellMove, undo: &mut Unmake) {
        let mover = !pos.turn;
        let mut kings = [0; IN_PLACE_KINGS];
        let mut n = 0;
        let mut count = ByColor::new(0, 0);
        for i in king_cells(&pos.board) {
            count[pos.board.cell(i).color()] += 1;
            kings[n] = i;
            n += 1;
        }
        // Kings are never taken (DI-9): the counts are those before the
        // move, from which `last_move` would have judged.
        let before = state(pos)
            .last_move
            .or_else(|| (count[mover] == 0 && count[!mover] > 0).then_some(LastMove::Owed(mover)));
        let tables = pos.tables();
        remove_attacked_kings(&mut pos.board, tables, &mut kings, n, |board, i, _| {
            count[board.cell(i).color()] -= 1;
            let saved = undo.save(board, i);
            debug_assert!(saved, "IN_PLACE_KINGS fits the undo record");
        });
        pos.extra = Extra::Disintegration(State {
            last_move: next_last_move(before, mover, count),
        });
    }
}

/// DI-10: the last-move state after `mover`'s move, from the state in
/// force before it and the kings left after its waves.
fn next_last_move(
    before: Option<LastMove>,
    mover: Color,
    kings: ByColor<usize>,
) -> Option<LastMove> {
    match before {
        Some(LastMove::Owed(c)) if c == mover => Some(LastMove::Played(mover)),
        // DI-10: a move that leaves the opponent kingless and the mover
        // a king grants the opponent one last move; DI-12 and DI-11
        // (the mover kingless) grant none.
        _ if kings[mover] > 0 && kings[!mover] == 0 => Some(LastMove::Owed(!mover)),
        _ => None,
    }
}

/// The end decided by the kings alone (DI-10, DI-11, DI-12): when it
/// holds, no move may be made.
pub fn decided(pos: &Position) -> Option<Outcome> {
    let kings = king_counts(&pos.board);
    let us = pos.turn;
    match last_move(pos) {
        Some(LastMove::Owed(_)) => None,
        Some(LastMove::Played(last)) => {
            let first = !last;
            Some(if kings[first] > 0 {
                Outcome::new(
                    GameResult::win_for(first),
                    format!("disintegration: {last} lost its kings and its last move left {first} a king"),
                    "DI-10",
                )
            } else {
                Outcome::new(
                    GameResult::Draw,
                    format!("disintegration: {last}'s last move disintegrated {first}'s last king"),
                    "DI-10",
                )
            })
        }
        None => match (kings[us] > 0, kings[!us] > 0) {
            (true, true) => None,
            (false, false) => Some(Outcome::new(
                GameResult::Draw,
                "disintegration: one move left both sides without kings",
                "DI-11",
            )),
            (true, false) => Some(Outcome::new(
                GameResult::win_for(us),
                format!("disintegration: {} disintegrated its own last king", !us),
                "DI-12",
            )),
            // `last_move` makes this `Owed`.
            (false, true) => None,
        },
    }
}

/// What `mv` would do in `pos`, without playing it (no legality check):
/// captures, promotions, and the kings it disintegrates, wave by wave
/// (DI-8). For `postal moves --verbose`.
pub fn preview(pos: &Position, mv: &Move) -> Effects {
    let mut next = pos.clone();
    pos.variant.rules().apply(&mut next, mv)
}

/// The disintegrations of a move and what follows from them, in words:
/// `wave 1: Kb3 ka4 kb4; wave 2: ka5; Black owes its last move (DI-10)`.
/// Empty when the move removes no king and does not end the game. Piece
/// letters are those of the position text (upper case White).
pub fn describe(pos: &Position, mv: &Move) -> String {
    let mut next = pos.clone();
    let effects = pos.variant.rules().apply(&mut next, mv);
    let mut parts: Vec<String> = effects
        .disintegrated
        .iter()
        .enumerate()
        .map(|(n, wave)| {
            let kings: Vec<String> = wave
                .iter()
                .map(|(sq, p)| format!("{}{sq}", p.char()))
                .collect();
            format!("wave {}: {}", n + 1, kings.join(" "))
        })
        .collect();
    if let Some(o) = next.outcome() {
        parts.push(format!("{} {} ({})", o.result.as_str(), o.reason, o.rule));
    } else if let Some(LastMove::Owed(c)) = last_move(&next) {
        parts.push(format!("{c} owes its last move (DI-10)"));
    }
    parts.join("; ")
}

impl Rules for Disintegration {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// 0 to 3 kings a side (DI-2), no king attacked (DI-8: it would be
    /// gone), and a last-move field that fits the kings and the turn.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        let kings = king_counts(&pos.board);
        for color in Color::ALL {
            if kings[color] > MAX_KINGS {
                return Err(format!(
                    "{color} has {} kings; Disintegration Chess has at most {MAX_KINGS} a side (DI-2)",
                    kings[color]
                ));
            }
        }
        for i in pos.board.indices() {
            let c = pos.board.cell(i);
            if c.is_occupied() && c.roles().contains(Role::King) && pos.is_attacked(i, !c.color()) {
                return Err(format!(
                    "the {} king on {} is attacked, so it would already have disintegrated (DI-8)",
                    c.color().name().to_lowercase(),
                    pos.board.square(i)
                ));
            }
        }
        match state(pos).last_move {
            None => Ok(()),
            Some(LastMove::Owed(c)) => {
                if c != pos.turn {
                    Err(format!(
                        "last={} says {c} owes its last move, but it is {}'s move (DI-10)",
                        c.char(),
                        pos.turn
                    ))
                } else if kings[c] > 0 || kings[!c] == 0 {
                    Err(format!(
                        "last={} needs {c} without kings and {} with some (DI-10)",
                        c.char(),
                        !c
                    ))
                } else {
                    Ok(())
                }
            }
            Some(LastMove::Played(c)) => {
                if c == pos.turn || kings[c] > 0 {
                    Err(format!(
                        "last={}-played needs {c} without kings and {}'s move (DI-10)",
                        c.char(),
                        !c
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// DI-7: every pseudo-legal move is legal; none once the kings have
    /// decided the game (DI-10..DI-12).
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if decided(pos).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(32);
        pos.pseudo_moves(&mut moves);
        moves
    }

    /// The piece move, then the disintegration waves (DI-8), then the
    /// last-move state (DI-10). A disintegration is not a capture: the
    /// fifty-move count is left to the piece move (DI-13).
    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        let Move::Piece(m) = mv else {
            return Effects::default();
        };
        let mover = pos.turn;
        let before = last_move(pos);
        let tables = pos.tables();
        let mut effects = pos.apply_piece_move(m);
        effects.disintegrated = disintegrate(&mut pos.board, tables);
        let last_move = next_last_move(before, mover, king_counts(&pos.board));
        pos.extra = Extra::Disintegration(State { last_move });
        effects
    }

    /// DI-7: there is no check.
    fn in_check(&self, _pos: &Position) -> bool {
        false
    }

    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        if let Some(o) = decided(pos) {
            return Some(o);
        }
        if !known_move && !self.has_legal_move(pos) {
            return Some(match last_move(pos) {
                // DI-14
                Some(LastMove::Owed(c)) => Outcome::new(
                    GameResult::win_for(!c),
                    format!("disintegration: {c} has no kings and no last move to make"),
                    "DI-14",
                ),
                _ => Outcome::new(GameResult::Draw, "stalemate", "DI-13"),
            });
        }
        // DI-13: FIDE's seventy-five-move rule.
        pos.seventy_five_moves("DI-13")
    }

    /// DI-9: a king is never captured by displacement. In a valid position
    /// no king is attacked, so no move reaches one; this guards positions
    /// built without validation.
    fn may_capture(&self, pos: &Position, _role: Role, _from: usize, to: usize) -> bool {
        let c = pos.board.cell(to);
        c.color() != pos.turn && !c.roles().contains(Role::King)
    }

    /// DI-6: only the b-, c- and d-pawns, from their first square.
    fn may_double_step(&self, pos: &Position, from: Square) -> bool {
        let own_rank = match pos.turn {
            Color::White => from.rank - pos.first_rank(Color::White) + 1,
            Color::Black => pos.first_rank(Color::Black) - from.rank + 1,
        };
        DOUBLE_STEP_FILES.contains(&from.file) && SPEC.double_step_ranks.contains(&own_rank)
    }

    fn capability(&self) -> Capability {
        Capability {
            perft: Some(perft),
            ..Capability::default()
        }
    }
}

/// Perft played in place while the kings fit the undo record (they never
/// grow in number: DI-9, DI-6).
fn perft(pos: &Position, depth: u32) -> u64 {
    if king_cells(&pos.board).count() <= IN_PLACE_KINGS {
        crate::perft::perft_in_place(&Disintegration, pos, depth)
    } else {
        crate::perft::perft_by_copy(&Disintegration, pos, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn di2_setup_table_is_the_start() {
        let p = Position::start(Variant::Disintegration);
        assert_eq!(p.to_text(), SETUP);
        assert_eq!(king_counts(&p.board), ByColor::new(3, 3));
    }

    #[test]
    fn di8_waves_are_simultaneous_then_repeat() {
        // CASE 1 after Ka2-b3, before the waves: b3, a4, b4 together, then a5.
        // Such a board is not a valid position (kings attacked), so it is
        // built by hand.
        let tables = Variant::Disintegration.tables();
        let mut board = Board::rect(5, 9);
        for (sq, piece) in [
            ("a1", 'R'),
            ("b3", 'K'),
            ("c2", 'K'),
            ("e2", 'K'),
            ("a4", 'k'),
            ("b4", 'k'),
            ("a5", 'k'),
            ("d7", 'r'),
        ] {
            let sq = crate::notation::square::parse_square(sq).unwrap();
            board.set(sq, Stack::single(Piece::from_char(piece).unwrap()));
        }
        let waves = disintegrate(&mut board, tables);
        let names: Vec<Vec<String>> = waves
            .iter()
            .map(|w| w.iter().map(|(s, p)| format!("{}{s}", p.char())).collect())
            .collect();
        assert_eq!(names, vec![vec!["Kb3", "ka4", "kb4"], vec!["ka5"]]);
    }

    #[test]
    fn di6_double_step_files() {
        let p = Position::start(Variant::Disintegration);
        let r = Disintegration;
        let sq = |f, r| Square::new(f, r);
        assert!(!r.may_double_step(&p, sq(1, 2)));
        assert!(r.may_double_step(&p, sq(2, 2)));
        assert!(r.may_double_step(&p, sq(3, 2)));
        assert!(r.may_double_step(&p, sq(4, 2)));
        assert!(!r.may_double_step(&p, sq(5, 2)));
        assert!(!r.may_double_step(&p, sq(3, 3)));
    }
}
