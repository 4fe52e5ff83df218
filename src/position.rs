//! Positions and the mechanics that several variants share: attacks,
//! sliding and leaping by the variant's movement tables, FIDE pawns and
//! castling, king safety, applying a piece move. The generator and the
//! king-safety filter themselves live in `movegen`, in array cells.
//!
//! A [`Position`] is a value: [`Position::play`] returns a new position and
//! leaves the original untouched, so a rejected move can never damage state.
//! The variant's own rules live in `variant/<name>.rs`; the methods here
//! delegate to them.

use crate::board::Board;
use crate::color::Color;
use crate::error::PlayError;
use crate::movegen::KingSafety;
use crate::mv::{Move, MoveKind, PieceMove};
use crate::piece::{Piece, Role, Stack};
use crate::square::Square;
use crate::variant::{AttackDir, Extra, FastLine, Tables, Variant};

/// Castling rights, FIDE style: king side and queen side per colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling {
    pub white_king: bool,
    pub white_queen: bool,
    pub black_king: bool,
    pub black_queen: bool,
}

impl Castling {
    pub const NONE: Castling = Castling {
        white_king: false,
        white_queen: false,
        black_king: false,
        black_queen: false,
    };

    pub fn get(&self, color: Color, king_side: bool) -> bool {
        match (color, king_side) {
            (Color::White, true) => self.white_king,
            (Color::White, false) => self.white_queen,
            (Color::Black, true) => self.black_king,
            (Color::Black, false) => self.black_queen,
        }
    }

    pub fn set(&mut self, color: Color, king_side: bool, v: bool) {
        match (color, king_side) {
            (Color::White, true) => self.white_king = v,
            (Color::White, false) => self.white_queen = v,
            (Color::Black, true) => self.black_king = v,
            (Color::Black, false) => self.black_queen = v,
        }
    }

    pub fn any(&self) -> bool {
        self.white_king || self.white_queen || self.black_king || self.black_queen
    }
}

/// A position of some variant.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub variant: Variant,
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    pub castling: Castling,
    /// The square a pawn's double step passed over, when an en passant
    /// capture of it may follow.
    pub ep: Option<Square>,
    /// Half-moves since the last capture or pawn move (fifty-move rule).
    pub halfmove: u32,
    /// Move number, starting at 1, incremented after Black moves.
    pub fullmove: u32,
    /// State only one variant needs (documented in that variant's module).
    pub extra: Extra,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            variant: self.variant,
            board: self.board.clone(),
            turn: self.turn,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            extra: self.extra.clone(),
        }
    }

    /// Copies into the board's arrays already allocated (perft's scratch
    /// positions).
    fn clone_from(&mut self, source: &Position) {
        self.variant = source.variant;
        self.board.clone_from(&source.board);
        self.turn = source.turn;
        self.castling = source.castling;
        self.ep = source.ep;
        self.halfmove = source.halfmove;
        self.fullmove = source.fullmove;
        self.extra.clone_from(&source.extra);
    }
}

/// What a move gives: check, or mate (check with no legal move left).
/// Written `+` and `#` after the move (`notation::san`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckMark {
    Check,
    Mate,
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// Why a game ended, as far as the position alone (and, for repetitions,
/// the history) decides it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub result: GameResult,
    /// A short reason: `checkmate`, `stalemate`, `dead position`, ...
    pub reason: String,
    /// The rule id that decides it.
    pub rule: &'static str,
}

impl Outcome {
    pub fn new(result: GameResult, reason: impl Into<String>, rule: &'static str) -> Outcome {
        Outcome {
            result,
            reason: reason.into(),
            rule,
        }
    }
}

/// What a move did beyond moving its piece: for reports to players.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Effects {
    /// Pieces captured, with the squares they stood on.
    pub captured: Vec<(Square, Piece)>,
    /// Kings removed by disintegration, wave by wave (DI-8).
    pub disintegrated: Vec<Vec<(Square, Piece)>>,
    /// A square added to the board (BU-2).
    pub added: Option<Square>,
    /// Promotions made: the square and the new piece.
    pub promoted: Vec<(Square, Piece)>,
}

impl Effects {
    /// What the move did beyond moving its piece, one fact a line, for
    /// players: captures, disintegrations wave by wave (DI-8), the square
    /// added (BU-2), promotions.
    pub fn facts(&self) -> Vec<String> {
        let list = |items: &[(Square, Piece)]| {
            items
                .iter()
                .map(|(sq, p)| format!("the {p} on {sq}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = Vec::new();
        if !self.captured.is_empty() {
            out.push(format!("captures {}", list(&self.captured)));
        }
        for (i, wave) in self.disintegrated.iter().enumerate() {
            out.push(format!("disintegration, wave {}: {}", i + 1, list(wave)));
        }
        if let Some(sq) = self.added {
            out.push(format!("adds the square {sq}"));
        }
        for (sq, p) in &self.promoted {
            out.push(format!("promotes to a {} on {sq}", p.role.name()));
        }
        out
    }
}

impl Position {
    /// An empty position on `board`, White to move.
    pub fn empty(variant: Variant, board: Board) -> Position {
        Position {
            variant,
            board,
            turn: Color::White,
            castling: Castling::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            extra: Extra::default(),
        }
    }

    pub fn tables(&self) -> &'static Tables {
        self.variant.tables()
    }

    /// All legal turns (see `Rules::legal_moves` for Swap Chess's bound).
    pub fn legal_moves(&self) -> Vec<Move> {
        self.variant.rules().legal_moves(self)
    }

    pub fn is_legal(&self, mv: &Move) -> bool {
        self.variant.rules().check_legal(self, mv).is_ok()
    }

    /// Plays a move, returning the new position; the original is untouched.
    pub fn play(&self, mv: &Move) -> Result<Position, PlayError> {
        self.play_with_effects(mv).map(|(p, _)| p)
    }

    /// Plays a move and says what it did.
    pub fn play_with_effects(&self, mv: &Move) -> Result<(Position, Effects), PlayError> {
        let rules = self.variant.rules();
        if rules.outcome(self, false).is_some() {
            return Err(PlayError::GameOver);
        }
        rules.check_legal(self, mv)?;
        let mut next = self.clone();
        let effects = rules.apply(&mut next, mv);
        Ok((next, effects))
    }

    /// Plays a move already known to be legal.
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let mut next = self.clone();
        self.variant.rules().apply(&mut next, mv);
        next
    }

    /// The pieces `color` holds in hand to drop, by kind with how many
    /// (a defined variant with drops,
    /// [`crate::variant::defined::Defined::hand`]); `None` where the
    /// variant has no hands.
    pub fn hand(&self, color: Color) -> Option<Vec<(Role, u8)>> {
        self.variant.defined()?.hand(self, color)
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        self.variant.rules().in_check(self)
    }

    /// The end of the game decided by the position, if any.
    pub fn outcome(&self) -> Option<Outcome> {
        self.variant.rules().outcome(self, false)
    }

    /// Whether the side to move is in check, and if so mated (it has no
    /// legal move): what the move that led here gives.
    pub fn check(&self) -> Option<CheckMark> {
        let rules = self.variant.rules();
        if !rules.in_check(self) {
            None
        } else if rules.has_legal_move(self) {
            Some(CheckMark::Check)
        } else {
            Some(CheckMark::Mate)
        }
    }

    /// A line of play from here on a faster board, where the variant has
    /// one and it can hold the position ([`Capability::fast_line`](crate::variant::Capability::fast_line)).
    pub fn fast_line(&self) -> Option<FastLine> {
        self.variant
            .rules()
            .capability()
            .fast_line
            .and_then(|f| f(self))
    }

    // ---- shared mechanics ------------------------------------------------

    /// Array indices of the pieces of `role` and `color`.
    pub fn find(&self, color: Color, role: Role) -> Vec<usize> {
        self.board
            .cells_of(color)
            .filter(|&i| self.board.cell(i).has(color, role))
            .collect()
    }

    /// Is the cell at `index` attacked by a piece of `by`? "Attacked" means
    /// a piece of `by` could capture there by its own capture powers
    /// (rules/README.md), whatever stands on the cell.
    pub fn is_attacked(&self, index: usize, by: Color) -> bool {
        attacked(&self.board, self.tables(), index, by)
    }

    /// Is any king of `color` attacked? False when it has none (SW-12).
    pub fn king_attacked(&self, color: Color) -> bool {
        let board = &self.board;
        board
            .cells_of(color)
            .any(|i| board.cell(i).roles().contains(Role::King) && self.is_attacked(i, !color))
    }

    /// The promotion rank of a side's pawns: the variant's fixed rank
    /// (BU-7) or the far edge of the board.
    pub fn promotion_rank(&self, color: Color) -> i16 {
        let spec = self.variant.spec();
        match (spec.promotion_ranks, color) {
            (Some((w, _)), Color::White) => w,
            (Some((_, b)), Color::Black) => b,
            (None, Color::White) => self.board.bounds().3,
            (None, Color::Black) => self.board.bounds().1,
        }
    }

    /// A side's first rank, counted as the board's near edge.
    pub fn first_rank(&self, color: Color) -> i16 {
        match color {
            Color::White => self.board.bounds().1,
            Color::Black => self.board.bounds().3,
        }
    }

    /// Pseudo-legal moves of single pieces by the movement tables: leaps,
    /// slides, pawn steps, double steps, en passant, promotions, and FIDE
    /// castling where the variant has it. Stacks are not handled here (the
    /// Corral module generates its own). See [`Position::for_each_pseudo`].
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.for_each_pseudo(|m| out.push(Move::Piece(self.piece_move(&m))));
    }

    /// The pseudo-legal moves that leave no king of the mover attacked
    /// (FI-3). Only king moves, en passant, moves of pinned pieces and moves
    /// made in check are tested (see [`KingSafety`]).
    pub fn legal_piece_moves(&self, out: &mut Vec<Move>) {
        let mut safety = KingSafety::default();
        self.for_each_legal(&mut safety, |m| out.push(Move::Piece(self.piece_move(&m))));
    }

    /// Is `mv` one of the shared generator's legal moves
    /// ([`Position::legal_piece_moves`])? Only the moves of its piece kind
    /// onto its target square are generated.
    pub fn is_legal_piece_move(&self, mv: &Move) -> bool {
        let Move::Piece(m) = mv else {
            return false;
        };
        let Some(to) = self.board.index(m.to) else {
            return false;
        };
        let mut found = false;
        KingSafety::with(|safety| {
            self.for_each_legal_to(safety, m.role, to, |c| {
                found = found || self.piece_move(&c) == *m;
            })
        });
        found
    }

    /// The shared generator's legal moves of kind `role` onto `to`: the
    /// moves of [`Position::legal_piece_moves`] a SAN text naming them must
    /// be told apart from.
    pub fn legal_piece_moves_to(&self, role: Role, to: Square) -> Vec<Move> {
        let mut out = Vec::new();
        if let Some(to) = self.board.index(to) {
            KingSafety::with(|safety| {
                self.for_each_legal_to(safety, role, to, |c| {
                    out.push(Move::Piece(self.piece_move(&c)))
                })
            });
        }
        out
    }

    /// Applies a single-piece move: moves the piece, captures, en passant,
    /// castling's rook, promotion, castling rights, the en passant square,
    /// the clocks and the turn. No legality check.
    pub fn apply_piece_move(&mut self, m: &PieceMove) -> Effects {
        let us = self.turn;
        let mut effects = Effects::default();
        let board = &mut self.board;
        let captured = board.get(m.to).filter(|c| c.is_occupied());
        if let Some(c) = captured {
            for p in c.pieces() {
                effects.captured.push((m.to, p));
            }
        }
        if let MoveKind::EnPassant { captured } = m.kind {
            if let Some(p) = board.piece_at(captured) {
                effects.captured.push((captured, p));
            }
        }
        apply_on_board(board, us, m);
        if let Some(p) = m.promotion {
            effects.promoted.push((m.to, Piece::new(us, p)));
        }
        if self.variant.spec().castling {
            self.castling.lose_rights(m.from, m.to);
        }
        self.ep = None;
        if m.kind == MoveKind::DoubleStep {
            let passed = Square::new(m.to.file, (m.from.rank + m.to.rank) / 2);
            let enemy_pawn_beside = [-1, 1].iter().any(|&df| {
                self.board
                    .get(m.to.offset(df, 0))
                    .is_some_and(|c| c.has(!us, Role::Pawn))
            });
            if enemy_pawn_beside {
                self.ep = Some(passed);
            }
        }
        if m.role == Role::Pawn || !effects.captured.is_empty() {
            self.halfmove = 0;
        } else {
            // Saturating: a position text may set the clocks to u32::MAX.
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.end_turn();
        effects
    }

    /// Passes the turn: flips the side, counts the move number.
    pub fn end_turn(&mut self) {
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
    }

    /// The FIDE ending of a position (FI-4, FI-5's seventy-five moves):
    /// checkmate, stalemate, or the seventy-five-move rule.
    pub fn fide_outcome(&self, has_move: bool, in_check: bool) -> Option<Outcome> {
        fide_ending(self.turn, self.halfmove, has_move, in_check)
    }

    /// The seventy-five-move rule (FI-5, and the variants that take it
    /// over under their own rule id): a draw after 75 moves by each side
    /// without capture or pawn move.
    pub fn seventy_five_moves(&self, rule: &'static str) -> Option<Outcome> {
        seventy_five_moves(self.halfmove, rule)
    }

    /// Is this the same position as `other` for repetitions: equal
    /// [`Position::repetition_key`]s, compared without copying them.
    pub fn repeats(&self, other: &Position) -> bool {
        self.turn == other.turn
            && self.castling == other.castling
            && self.ep == other.ep
            && self.extra.repeats(&other.extra)
            && self.board == other.board
    }

    /// The placement key used for repetitions: the board, the side to move,
    /// castling rights, the en passant square and the variant state.
    pub fn repetition_key(&self) -> (Board, Color, Castling, Option<Square>, Extra) {
        (
            self.board.clone(),
            self.turn,
            self.castling,
            self.ep,
            self.extra.repetition_key(),
        )
    }
}

/// [`Position::fide_outcome`] of a position with `turn` to move and the
/// half-move clock at `halfmove`.
pub fn fide_ending(turn: Color, halfmove: u32, has_move: bool, in_check: bool) -> Option<Outcome> {
    if !has_move {
        return Some(if in_check {
            Outcome::new(GameResult::win_for(!turn), "checkmate", "FI-4")
        } else {
            Outcome::new(GameResult::Draw, "stalemate", "FI-4")
        });
    }
    seventy_five_moves(halfmove, "FI-5")
}

/// [`Position::seventy_five_moves`] with the half-move clock at `halfmove`.
pub fn seventy_five_moves(halfmove: u32, rule: &'static str) -> Option<Outcome> {
    (halfmove >= 150).then(|| {
        Outcome::new(
            GameResult::Draw,
            "seventy-five moves without capture or pawn move",
            rule,
        )
    })
}

/// Moves the piece of a single-piece move on a board, with en passant's
/// capture, castling's rook and promotion.
fn apply_on_board(board: &mut Board, us: Color, m: &PieceMove) {
    let (Some(from), Some(to)) = (board.index(m.from), board.index(m.to)) else {
        return;
    };
    let moving = board.cell(from);
    board.set_cell(from, Stack::EMPTY);
    let placed = match (m.kind, m.promotion) {
        (MoveKind::Drop, _) => Stack::single(Piece::new(us, m.role)),
        (_, Some(p)) => Stack::single(Piece::new(us, p)),
        (_, None) => moving,
    };
    board.set_cell(to, placed);
    match m.kind {
        MoveKind::EnPassant { captured } => {
            if let Some(c) = board.index(captured) {
                board.set_cell(c, Stack::EMPTY);
            }
        }
        MoveKind::Castle { rook, rook_to } => {
            if let (Some(r), Some(rt)) = (board.index(rook), board.index(rook_to)) {
                let rook_cell = board.cell(r);
                board.set_cell(r, Stack::EMPTY);
                board.set_cell(rt, rook_cell);
            }
        }
        _ => {}
    }
}

/// Is the cell at `index` attacked by a piece of `by` (see
/// [`Position::is_attacked`])? Walks each attack direction backwards from
/// the cell to the first piece and asks whether a piece of that kind and
/// side captures along that direction that far.
#[inline]
pub fn attacked(board: &Board, tables: &Tables, index: usize, by: Color) -> bool {
    attacked_with(board, tables, index, by, |i| board.cell(i))
}

/// [`attacked`] on the board as `cell` says it is: the board with some
/// cells changed, as after a move not yet played.
#[inline]
pub fn attacked_with(
    board: &Board,
    tables: &Tables,
    index: usize,
    by: Color,
    cell: impl Fn(usize) -> Stack,
) -> bool {
    for dir in &tables.attacks[by] {
        let off = board.offset(-dir.dx, -dir.dy);
        let mut i = index;
        for k in 0..dir.max as usize {
            i = board.step(i, off);
            let c = cell(i);
            if c.is_empty() {
                continue;
            }
            if !c.is_off() && c.color() == by && dir.hits(c, k) && passes(board, dir, i, &cell) {
                return true;
            }
            break;
        }
    }
    // Hops: the hurdle at most `max` cells back, then the hopper behind it.
    for dir in &tables.hops[by] {
        let off = board.offset(-dir.dx, -dir.dy);
        let mut i = index;
        let Some(k) = (0..dir.max as usize).find(|_| {
            i = board.step(i, off);
            !cell(i).is_empty()
        }) else {
            continue;
        };
        if cell(i).is_off() {
            continue;
        }
        loop {
            i = board.step(i, off);
            let c = cell(i);
            if c.is_empty() {
                continue;
            }
            if !c.is_off() && c.color() == by && dir.hits(c, k) {
                return true;
            }
            break;
        }
    }
    false
}

/// Whether the piece on cell `from` that captures along `dir` gets past
/// the square its leap passes, if it is a lame leap: that square is empty.
#[inline(always)]
pub fn passes(board: &Board, dir: &AttackDir, from: usize, cell: &impl Fn(usize) -> Stack) -> bool {
    dir.pass
        .is_none_or(|(x, y)| cell(board.step(from, board.offset(x, y))).is_empty())
}

/// Roles that capture along a direction at distance `k`, as a mask over
/// [`Roles`](crate::piece::Roles) nibbles.
pub fn role_nibbles(roles: &[Role]) -> u32 {
    roles.iter().fold(0, |m, r| m | (0xf << (4 * r.index())))
}
