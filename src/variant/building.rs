//! Building Chess (`building`), rules/gardner-building.md BU-1..BU-8:
//! Gardner minichess (GA-1..GA-4) in which a turn is a piece move followed
//! by the addition of one square to the board, so the board grows without
//! bound in every direction.
//!
//! Turns. A turn is a [`PieceMove`](crate::mv::PieceMove) whose `place` holds the added square
//! (BU-2). The square must be off the board, share an edge with a square on
//! it, and be light for White and dark for Black by the checkerboard
//! pattern with a1 dark (BU-3). Squares keep their names as the board grows
//! (BU-4); off the a-z / 1-99 grid they are written `(f,r)` with a = 1.
//!
//! Legality (BU-5, BU-6). Sliders stop at squares that are not on the board
//! and knights need only their destination: the shared generator already
//! walks the mailbox that way. The turn is judged after move and placement
//! together. Adding an empty square never blocks an attack, it can only
//! open a line: the new square is empty, so it attacks nothing itself, and
//! a leap does not care about the squares it passes. So a turn is legal
//! exactly when its move leaves the king safe on the board as it stands
//! after the move, and its placement does not fill the *first* gap on a
//! rank, file or diagonal from the king behind which, over empty squares,
//! an enemy slider waits. For each move there are at most eight such
//! closed placements; the turn list is kept factored ([`Turns`]): the legal
//! moves, each with its closed placements, and the placements open to the
//! side. A move that neither starts nor ends on a line from the king (and
//! is not a king move, while not in check) changes neither the king's
//! safety nor its closed placements, so those are computed once per
//! position. tests/building.rs checks all this against a brute-force
//! counter that knows none of it.
//!
//! One turn alone. A turn read, checked or written (a long game's replay
//! does all three for every turn) asks only for the legal moves of its
//! piece's kind onto its square (`legality::parts_to`), and whether any
//! legal turn exists stops at the first move with a placement open to it,
//! so neither walks the side's every move nor the board; a test compares
//! both with the full turn list.
//!
//! Size. Every board a legal game makes is played, however long the game
//! and whatever the board's shape: the board's cost grows with its squares
//! (`board.rs`), and the limits of `crate::limits` lie past what any game
//! of at most 20,000 half-moves from the start makes.
//!
//! Promotion stays on ranks 5 and 1 however the board grows (BU-7,
//! `Spec::promotion_ranks`); a position text with a white pawn on rank 5 or
//! above, or a black pawn on rank 1 or below, is refused. Checkmate and
//! stalemate count whole turns: no legal move, or no placement left to the
//! side to move, means no legal turn (BU-8). Repetition never applies: the
//! board grows every turn, so no position repeats.
//!
//! Position text: the Gardner FEN shape with no extra fields. The placement
//! covers the bounding box of the board, `*` marking squares inside it that
//! are not on the board, and `origin=(f,r)` follows when the box's
//! lower-left corner is not a1 (the board grew left of file a or below
//! rank 1). After `e3 @(0,3) a3 @(0,2) Nc3 @(1,0) b3 @(-1,3)`:
//! `**rnbqk/**2ppp/2ppN1P/*1PPPP1/**R1BQK/**1**** w - - 0 3 origin=(-1,0)`.
//!
//! Notation: the move in SAN, a space, `@` and the added square:
//! `Nc3 @f3`, `e3 @(0,3)`, check mark last (`Nc3 @f3+`). Long algebraic
//! (`Nb1-c3 @f3`) and `@` without the space are read too; a move without
//! its placement is refused (BU-2). Disambiguation is FIDE's, among the
//! legal turns that add the same square.
//!
//! Text forms (move text, position-text fields): `notation/dialect/building.rs`.

use super::chess::{FIDE_PIECES, FIDE_PROMOTION};
use super::{validate, Capability, Endings, Rules, Spec, Variant};
use crate::board::Board;
use crate::color::Color;
use crate::error::{MoveError, PlayError};
use crate::movegen::CellMove;
use crate::mv::Move;
use crate::piece::Role;
use crate::position::{Effects, GameResult, Outcome, Position};
use crate::square::Square;

mod legality;

use legality::each_move;
pub(crate) use legality::part_of;
pub use legality::{parts, parts_to, Part};

pub static SPEC: Spec = Spec {
    name: "building",
    title: "Building Chess",
    aliases: &[],
    summary: "Gardner minichess on a board that grows: each turn adds a square",
    // BU-1: Gardner's board and setup (GA-1).
    files: 5,
    ranks: 5,
    start: "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
    pieces: FIDE_PIECES,
    promotion: FIDE_PROMOTION,
    // BU-7: the ranks of the starting board, however far it grows.
    promotion_ranks: Some((5, 1)),
    // GA-2: no double step, no en passant, no castling.
    double_step_ranks: &[],
    en_passant: false,
    castling: false,
    // BU-4: the board grows and the position text may have holes.
    board_grows: true,
    stacks: false,
    rules_text: include_str!("../../doc/rules/gardner-building.md"),
    variant: Variant::Building,
    // A board that grows never repeats a position, nor returns to one: a
    // position can recur only since the clock's reset, vacuously, and a
    // game keeps only the positions since it (a long game's boards are
    // large).
    repetitions_since_reset: true,
    never_repeats: true,
    looks_back: false,
    rules_version: 1,
    no_resigning: None,
    endings: Endings::FIDE,
};

pub struct Building;

/// The squares `color` may add (BU-3): off the board, sharing an edge with a
/// square on it, light for White and dark for Black. Listed rank by rank
/// from the lowest, files left to right.
pub fn placements(board: &Board, color: Color) -> Vec<Square> {
    let mut found: Vec<Square> = placement_walk(board, color).collect();
    // Rank by rank from the lowest, files left to right.
    found.sort_unstable_by_key(|s| (s.rank, s.file));
    found.dedup();
    found
}

/// Whether `color` may add `sq` (BU-3): what membership of
/// [`placements`] says, asked of the square and its four neighbours
/// instead of a walk over the board.
pub fn may_add(board: &Board, color: Color, sq: Square) -> bool {
    placement_error(board, color, sq).is_none()
}

/// Why `color` may not add `sq` here (BU-3), or `None` when it may.
pub(crate) fn placement_error(board: &Board, color: Color, sq: Square) -> Option<MoveError> {
    let reason = if board.contains(sq) {
        format!("{sq} is already on the board")
    } else if !edge_neighbours(sq).any(|n| board.contains(n)) {
        format!("{sq} shares no edge with the board")
    } else if let Some(why) = too_large(board, sq) {
        format!("adding {sq}: {why}")
    } else if sq.is_light() != (color == Color::White) {
        let (shade, may) = match color {
            Color::White => ("dark", "light"),
            Color::Black => ("light", "dark"),
        };
        format!("{sq} is {shade}; {color} adds {may} squares")
    } else {
        return None;
    };
    Some(MoveError::illegal_by("BU-3", reason))
}

/// The squares `color` may add, each as often as a square of the board
/// borders it, in no particular order: a walk over the board's squares
/// that a caller may stop early (see `Building::has_legal_move`).
fn placement_walk(board: &Board, color: Color) -> impl Iterator<Item = Square> + '_ {
    let light = color == Color::White;
    let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|(dx, dy)| ((dx, dy), board.offset(dx, dy)));
    board
        .indices()
        .map(move |i| (i, board.square(i)))
        // A square differs in colour from its edge-neighbours, so only
        // squares of the other colour border the mover's placements.
        .filter(move |&(_, sq)| sq.is_light() != light)
        .flat_map(move |(i, sq)| {
            steps
                .into_iter()
                .filter(move |&(_, s)| board.cell(board.step(i, s)).is_off())
                // The square by its name, however the step found it `OFF`.
                .map(move |((dx, dy), _)| sq.offset(dx, dy))
        })
        .filter(move |&sq| too_large(board, sq).is_none())
}

/// Why adding `sq` would make the board larger than postal allows
/// (`crate::limits`: squares, and how far a square may lie), or `None`. No
/// legal game from the start meets these limits; a placement past them is
/// not offered, so a hand-made board at a limit may leave no placement
/// (BU-8).
fn too_large(board: &Board, sq: Square) -> Option<String> {
    let (f, r) = (sq.file as i32, sq.rank as i32);
    crate::limits::board_error((f, r, f, r), board.square_count() + 1)
}

/// The legal turns of a position, factored: the placements open to the side
/// to move and the legal moves, each with its closed placements. A turn is a
/// move with any placement not closed to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turns {
    pub placements: Vec<Square>,
    pub parts: Vec<Part>,
}

impl Turns {
    pub fn new(pos: &Position) -> Turns {
        Turns {
            placements: placements(&pos.board, pos.turn),
            parts: parts(pos),
        }
    }

    /// The number of legal turns.
    pub fn count(&self) -> u64 {
        let n = self.placements.len();
        // Closed placements are placements (see `closed_placements`).
        self.parts.iter().map(|p| (n - p.closed.len()) as u64).sum()
    }

    /// The placements open to a move.
    pub fn open<'a>(&'a self, part: &'a Part) -> impl Iterator<Item = Square> + 'a {
        self.placements
            .iter()
            .copied()
            .filter(move |sq| !part.closed.contains(sq))
    }

    /// All legal turns: moves in the generator's order, each with its open
    /// placements in [`placements`] order.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(self.count() as usize);
        for part in &self.parts {
            for sq in self.open(part) {
                let mut m = part.mv.clone();
                m.place = Some(sq);
                out.push(Move::Piece(m));
            }
        }
        out
    }
}

/// The number of legal turns of `pos`, as [`Turns::count`] counts them,
/// without listing the moves.
pub fn count_turns(pos: &Position) -> u64 {
    let mut parts = 0u64;
    let mut closed = 0u64;
    let placements = placements(&pos.board, pos.turn);
    each_move(pos, |_, c| {
        parts += 1;
        closed += c.len() as u64;
        false
    });
    // Closed placements are placements (see `closed_placements`).
    parts * placements.len() as u64 - closed
}

/// The four squares sharing an edge with `sq` (fewer at the edge of the
/// coordinate range, which no board reaches).
fn edge_neighbours(sq: Square) -> impl Iterator<Item = Square> {
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            Some(Square::new(
                sq.file.checked_add(df)?,
                sq.rank.checked_add(dr)?,
            ))
        })
}

impl Rules for Building {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    /// One king a side, the side not to move not in check, and no pawn on
    /// or beyond its promotion rank (BU-7).
    fn validate(&self, pos: &Position) -> Result<(), String> {
        validate::one_king_each(pos, "this variant")?;
        for (sq, stack) in pos.board.occupied() {
            for p in stack.pieces().filter(|p| p.role == Role::Pawn) {
                let rank = pos.promotion_rank(p.color);
                let beyond = match p.color {
                    Color::White => sq.rank >= rank,
                    Color::Black => sq.rank <= rank,
                };
                if beyond {
                    return Err(format!(
                        "the {p} on {sq} stands on or beyond its promotion rank {rank} (BU-7)"
                    ));
                }
            }
        }
        validate::side_not_to_move_not_in_check(pos)
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        Turns::new(pos).moves()
    }

    fn check_legal(&self, pos: &Position, mv: &Move) -> Result<(), PlayError> {
        let illegal = |e: MoveError| match e {
            MoveError::Illegal { reason, rule } => PlayError::Illegal { reason, rule },
            other => PlayError::Illegal {
                reason: other.to_string(),
                rule: None,
            },
        };
        let Move::Piece(m) = mv else {
            return Err(illegal(MoveError::illegal(
                "Building Chess has no swap sequences",
            )));
        };
        let Some(place) = m.place else {
            return Err(illegal(no_placement()));
        };
        // The moves of that kind onto that square, not the side's every
        // move: a long game's replay checks thousands of turns.
        let parts = parts_to(pos, m.role, m.to);
        let Some(part) = part_of(&parts, m) else {
            return Err(PlayError::Illegal {
                reason: "not a legal move in this position".into(),
                rule: None,
            });
        };
        if let Some(e) = placement_error(&pos.board, pos.turn, place) {
            return Err(illegal(e));
        }
        if part.closed.contains(&place) {
            return Err(illegal(exposes_king(pos, place)));
        }
        Ok(())
    }

    /// Stops at the first move with a placement open to it: a move has
    /// one when the side has more placements than are closed to the move
    /// (closed placements are placements), so the placements are walked
    /// only until there are more than that (a few squares of the board,
    /// unless the side has hardly any).
    fn has_legal_move(&self, pos: &Position) -> bool {
        let mut walk = placement_walk(&pos.board, pos.turn).fuse();
        let mut found: Vec<Square> = Vec::new();
        let mut any = false;
        each_move(pos, |_, closed| {
            while found.len() <= closed.len() {
                match walk.next() {
                    Some(sq) if !found.contains(&sq) => found.push(sq),
                    Some(_) => {}
                    None => break,
                }
            }
            any = closed.len() < found.len();
            any
        });
        any
    }

    /// Moves the piece, then adds the square (BU-2); a new square is empty
    /// (BU-6).
    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        let Move::Piece(m) = mv else {
            return Effects::default();
        };
        let mut effects = pos.apply_piece_move(m);
        if let Some(sq) = m.place {
            if pos.board.add_square(sq) {
                effects.added = Some(sq);
            }
        }
        effects
    }

    /// BU-8: no legal turn ends the game; GA-4's seventy-five moves too.
    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        if !known_move && !self.has_legal_move(pos) {
            return Some(if self.in_check(pos) {
                Outcome::new(GameResult::win_for(!pos.turn), "checkmate", "BU-8")
            } else {
                Outcome::new(GameResult::Draw, "stalemate", "BU-8")
            });
        }
        pos.fide_outcome(true, false)
    }

    /// GA-2: no double step. (The default would look at the board's
    /// lowest rank, which moves as the board grows.)
    fn may_double_step(&self, _pos: &Position, _from: Square) -> bool {
        false
    }

    /// FIDE's captures; perft by whole turns (`perft`).
    fn capability(&self) -> Capability {
        Capability {
            fide_captures: true,
            perft: Some(perft),
            ..Capability::default()
        }
    }
}

/// Whole turns (BU-8, rules notation): each legal move times its open
/// placements, counted in bulk at the last turn. Played in place: the
/// array is laid out once with room for every square the search adds,
/// so cell moves and their undo stay valid while squares come and go.
fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut work = pos.clone();
    work.board.reserve(depth as i16);
    perft_in_place(&mut work, depth)
}

/// Building perft on a position whose array has room for `depth` more
/// squares (see [`Board::reserve`]).
fn perft_in_place(pos: &mut Position, depth: u32) -> u64 {
    if depth == 1 {
        return count_turns(pos);
    }
    let mut moves: Vec<(CellMove, Vec<Square>)> = Vec::with_capacity(32);
    let placements = placements(&pos.board, pos.turn);
    each_move(pos, |m, closed| {
        moves.push((*m, closed.to_vec()));
        false
    });
    let mut nodes = 0;
    for (m, closed) in &moves {
        let undo = pos.make(m);
        for &sq in placements.iter().filter(|sq| !closed.contains(sq)) {
            let bounds = pos.board.bounds();
            pos.board.add_square(sq);
            nodes += perft_in_place(pos, depth - 1);
            pos.board.remove_square(sq, bounds);
        }
        pos.unmake(undo);
    }
    nodes
}

pub(crate) fn no_placement() -> MoveError {
    MoveError::illegal_by(
        "BU-2",
        "a turn also adds a square: write it after the move, e.g. Nc3 @f3",
    )
}

pub(crate) fn exposes_king(pos: &Position, place: Square) -> MoveError {
    MoveError::illegal_by(
        "BU-6",
        format!(
            "adding {place} after this move would open a line onto the {} king",
            pos.turn.name().to_lowercase()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        Position::from_text(Variant::Building, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn texts(p: &Position) -> Vec<String> {
        p.legal_moves().iter().map(|m| p.move_text(m)).collect()
    }

    fn play(p: &Position, moves: &[&str]) -> Position {
        moves.iter().fold(p.clone(), |p, t| {
            let m = p.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            p.play(&m).unwrap_or_else(|e| panic!("{t}: {e}"))
        })
    }

    fn err_rule(e: MoveError) -> Option<&'static str> {
        match e {
            MoveError::Illegal { rule, .. } => rule,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bu1_starts_as_gardner() {
        let b = Position::start(Variant::Building);
        let g = Position::start(Variant::Gardner);
        assert_eq!(b.to_text(), g.to_text());
        assert_eq!(b.board.square_count(), 25);
    }

    #[test]
    fn bu2_a_turn_is_a_move_and_a_compulsory_placement() {
        let p = Position::start(Variant::Building);
        let e = p.parse_move("Nc3").unwrap_err();
        assert_eq!(err_rule(e), Some("BU-2"));
        let m = p.parse_move("Nc3 @f3").unwrap();
        let mut bare = m.piece().unwrap().clone();
        bare.place = None;
        assert!(p.play(&Move::Piece(bare)).is_err());
        let (after, effects) = p.play_with_effects(&m).unwrap();
        assert_eq!(effects.added, Some(Square::new(6, 3)));
        assert_eq!(after.board.square_count(), 26);
        assert_eq!(after.to_text(), "rnbqk*/ppppp*/2N3/PPPPP*/R1BQK* b - - 1 1");
    }

    #[test]
    fn bu3_placements_adjacent_and_coloured() {
        let p = Position::start(Variant::Building);
        let white = placements(&p.board, Color::White);
        // 20 squares around the 5x5 board; the corners' neighbours are
        // light, so White has 12 and Black 8.
        assert_eq!(white.len(), 12);
        assert_eq!(placements(&p.board, Color::Black).len(), 8);
        assert!(white.iter().all(|s| s.is_light() && !p.board.contains(*s)));
        assert!(white.contains(&Square::new(0, 1)));
        assert!(!white.contains(&Square::new(0, 0)));
        assert_eq!(p.legal_moves().len(), 7 * 12);
        for (text, why) in [
            ("Nc3 @c3", "already on the board"),
            ("Nc3 @g3", "shares no edge"),
            ("Nc3 @f2", "is dark"),
            ("Nc3 @(0,0)", "shares no edge"),
            ("Nc3 @prison", "shares no edge"),
            ("Nc3 @(9999,5)", "shares no edge"),
        ] {
            let e = p.parse_move(text).unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
            assert_eq!(err_rule(e), Some("BU-3"), "{text}");
        }
        // Black adds dark squares.
        let b = play(&p, &["Nc3 @f3"]);
        assert!(b.parse_move("a3 @f2").is_ok());
        assert!(b.parse_move("a3 @(0,2)").is_ok());
        let e = b.parse_move("a3 @(0,3)").unwrap_err();
        assert!(e.to_string().contains("Black adds dark squares"), "{e}");
    }

    #[test]
    fn bu4_grows_left_and_below_and_names_stay() {
        let p = play(
            &Position::start(Variant::Building),
            &["e3 @(0,3)", "a3 @(0,2)", "Nc3 @(1,0)", "b3 @(-1,3)"],
        );
        assert_eq!(p.board.square_count(), 29);
        for sq in [(0, 3), (0, 2), (1, 0), (-1, 3)] {
            assert!(p.board.contains(Square::new(sq.0, sq.1)));
        }
        assert_eq!(
            p.board.piece_at(Square::new(3, 3)).map(|p| p.role),
            Some(Role::Knight)
        );
        assert_eq!(
            p.to_text(),
            "**rnbqk/**2ppp/2ppN1P/*1PPPP1/**R1BQK/**1**** w - - 0 3 origin=(-1,0)"
        );
        let q = play(&p, &["Nb5 @(-1,2)"]);
        assert!(q.board.contains(Square::new(-1, 2)));
    }

    #[test]
    fn bu5_sliders_stop_at_gaps_knights_leap() {
        // The rook on a1 cannot cross the gap at b1; the knight on b3 leaps
        // to d2 and to (0,2) once that square exists.
        let p = pos("4k/5/1N3/5/R*2K w - - 0 1");
        let t = texts(&p);
        assert!(t.iter().any(|m| m.starts_with("Ra2 ")), "{t:?}");
        assert!(!t
            .iter()
            .any(|m| m.starts_with("Rb1 ") || m.starts_with("Rc1 ")));
        assert!(t.iter().any(|m| m.starts_with("Nd2 ")));
        assert!(!t.iter().any(|m| m.starts_with("N(0,")));
        // No piece may land on a gap.
        assert!(p.parse_move("Rb1 @(0,3)").is_err());
        let q = play(&p, &["Kd2 @b1", "Ke4 @(0,2)"]);
        assert!(q.parse_move("N(0,2) @(0,3)").is_ok());
        // The added square opened the rank.
        assert!(q.parse_move("Rc1 @(0,3)").is_ok());
    }

    #[test]
    fn bu6_placement_gives_check() {
        // The rook on a3 faces the black king over the gap d3 (light):
        // White adds it and gives check.
        let p = pos("5/5/R2*k/5/K4 w - - 0 1");
        let m = p.parse_move("Kb1 @d3").unwrap();
        assert_eq!(p.move_text(&m), "Kb1 @d3+");
        assert!(p.play(&m).unwrap().is_check());
    }

    #[test]
    fn bu6_placement_exposing_own_king_is_illegal() {
        // White's king on e3 and the black rook on a3 face each other over
        // the light gap d3: while the king stays on rank 3, White may not
        // add d3.
        let p = pos("k4/5/r2*K/5/4N w - - 0 1");
        let e = p.parse_move("Nc2 @d3").unwrap_err();
        assert!(e.to_string().contains("white king"), "{e}");
        assert_eq!(err_rule(e), Some("BU-6"));
        assert!(p.parse_move("Nc2 @(0,3)").is_ok());
        assert!(p.parse_move("Ke4 @d3").is_ok());
        assert!(p.parse_move("Kd4 @d3").is_ok());
        let d3 = Some(Square::new(4, 3));
        assert!(p.legal_moves().iter().all(|m| {
            let m = m.piece().unwrap();
            m.place != d3 || m.role == Role::King
        }));
        // Playing the move value with the closed placement says why.
        let mut m = p.parse_move("Nc2 @(0,3)").unwrap().piece().unwrap().clone();
        m.place = d3;
        assert!(matches!(
            p.play(&Move::Piece(m)),
            Err(PlayError::Illegal {
                rule: Some("BU-6"),
                ..
            })
        ));
        // Black cannot add the light d3 at all.
        let q = pos("k4/5/r2*K/5/4N b - - 0 1");
        assert_eq!(err_rule(q.parse_move("Rb3 @d3").unwrap_err()), Some("BU-3"));
    }

    #[test]
    fn bu6_only_the_first_gap_and_only_addable_gaps() {
        // Two gaps between the rook and the king: adding the light one
        // leaves the dark one closed.
        let p = pos("4k/5/r**1K/5/4N w - - 0 1");
        assert!(p.parse_move("Nc2 @b3").is_ok());
        // The light d3 lies between the black bishop on e4 and the king on
        // b1, but shares no edge with the board: nobody can add it, so it
        // closes nothing.
        let p = pos("k4/3*b/2***/3*1/1K3 w - - 0 1");
        let turns = Turns::new(&p);
        assert!(turns.parts.iter().all(|part| part.closed.is_empty()));
        assert!(!turns.placements.contains(&Square::new(4, 3)));
    }

    #[test]
    fn bu7_promotion_on_rank_five_whatever_the_board() {
        // The board has grown above rank 5; the pawn still promotes on c5.
        let p = pos("**k**/**1**/2P2/5/5/K4 w - - 0 1");
        let t = texts(&p);
        assert!(
            t.iter()
                .any(|m| m.starts_with("c5=Q+ @") || m.starts_with("c5=Q @")),
            "{t:?}"
        );
        assert!(!t.iter().any(|m| m.starts_with("c5 @")));
        // A pawn on or beyond its promotion rank cannot stand on the board.
        assert!(Position::from_text(Variant::Building, "**k**/**P**/5/5/5/K4 w - - 0 1").is_err());
        assert!(Position::from_text(Variant::Building, "4k/5/5/5/K3p w - - 0 1").is_err());
        // Black promotes on rank 1 though the board goes lower.
        let p = pos("4k/5/5/p4/4K/1**** b - - 0 1 origin=(1,0)");
        let m = p.parse_move("a1=N @(0,2)").unwrap();
        assert_eq!(p.move_text(&m), "a1=N @(0,2)");
    }

    #[test]
    fn bu8_no_legal_turn_without_a_placement() {
        // A diamond board: every square on its rim is dark, so every square
        // next to it is light and Black has nothing to add. The black king
        // can step, but a turn needs a placement too.
        let stalemate = pos("**k**/*3*/5/*3*/**K** b - - 0 1");
        assert!(stalemate.legal_moves().is_empty());
        let o = stalemate.outcome().unwrap();
        assert_eq!(
            (o.result, o.reason.as_str(), o.rule),
            (GameResult::Draw, "stalemate", "BU-8")
        );
        let mate = pos("**k**/*3*/2R2/*3*/**K** b - - 0 1");
        assert!(mate.is_check());
        let o = mate.outcome().unwrap();
        assert_eq!(
            (o.result, o.reason.as_str(), o.rule),
            (GameResult::WhiteWins, "checkmate", "BU-8")
        );
        // White, to move there, has placements.
        let white = pos("**k**/*3*/5/*3*/**K** w - - 0 1");
        assert!(!white.legal_moves().is_empty());
    }

    #[test]
    fn bu8_checkmate() {
        // The rook on a1 checks the king on a5; the queen covers b4 and b5.
        let p = pos("k4/2Q2/5/5/R3K b - - 0 1");
        assert!(p.is_check());
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.result, o.reason.as_str(), o.rule),
            (GameResult::WhiteWins, "checkmate", "BU-8")
        );
    }

    #[test]
    fn repetition_cannot_happen() {
        // Rules notation: the board grows every turn, so no position
        // repeats.
        let p = Position::start(Variant::Building);
        let q = play(&p, &["Nc3 @f3", "Na3 @(0,2)", "Nb1 @f1", "Nb5 @(0,4)"]);
        assert_eq!(q.board.square_count(), 29);
        assert_ne!(p.repetition_key(), q.repetition_key());
    }

    #[test]
    fn notation_forms() {
        let p = Position::start(Variant::Building);
        let canonical = p.move_text(&p.parse_move("Nb1-c3 @f3").unwrap());
        assert_eq!(canonical, "Nc3 @f3");
        for t in ["Nc3@f3", "Nb1-c3@f3", "Nc3 @ f3", "Nb1c3 @f3", "Nc3 @(6,3)"] {
            assert_eq!(p.move_text(&p.parse_move(t).unwrap()), canonical, "{t}");
        }
        let m = p.parse_move("e2-e3 @(0,3)").unwrap();
        assert_eq!(p.move_text(&m), "e3 @(0,3)");
        assert!(p.parse_move("O-O @f3").is_err());
    }
}
