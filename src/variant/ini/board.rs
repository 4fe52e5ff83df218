//! A position of a user-defined variant: the [`State`] its board does not
//! hold, its squares numbered from a1 rank by rank, and its moves in UCI
//! form (`e2e4`, `a9a10q`, castling as the king's move `e1g1`, a drop
//! `N@f3`). Its text in Fairy-Stockfish's conventions is read and written
//! in `notation::fen`.

use super::def::{bit, Def, Part, Region};
use super::promote::Change;
use crate::board::{Board, MARGIN};
use crate::color::Color;
use crate::movegen::{CellKind, CellMove};
use crate::piece::{Piece, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::{Extra, Variant};

/// The most pieces of one kind a side may hold in hand: more than any
/// game can capture, and small enough for a byte.
pub const MOST_IN_HAND: u8 = 200;

/// A piece: kind index into [`Def::kinds`] and side (0 White, 1 Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    pub kind: u8,
    pub color: u8,
}

/// A castling right: where the king and the rook stand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Right {
    pub king: u8,
    pub rook: u8,
}

/// What a position of a defined variant holds beyond the board, the side
/// to move and the move counters, which are the [`Position`]'s own: the
/// board's size, the castling rights with their king's and rook's
/// squares, the en passant squares, the hands and the promoted pieces.
/// [`Position::castling`] and [`Position::ep`] say the same for the rest
/// of the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub files: i8,
    pub ranks: i8,
    /// `[color][0 kingside, 1 queenside]`.
    pub castling: [[Option<Right>; 2]; 2],
    pub ep: Vec<u8>,
    /// Pieces in hand, `[color][kind]`; empty without `pieceDrops`.
    pub hands: [Vec<u8>; 2],
    /// The squares of promoted pieces, as bits by square (which go back
    /// to hand as pawns when taken); only with `capturesToHand`.
    pub promoted: u128,
    /// The pieces promoted shogi-style, by square, with the kind each
    /// was (written `+P`; back to hand as that kind), in square order.
    pub unpromoted: Vec<(u8, u8)>,
    /// The kind of the piece the last move dropped, if it was a drop
    /// (`shogiPawnDropMateIllegal` asks); not part of a position's text.
    pub last_drop: Option<u8>,
    /// The side of the castling the last move was, if it was one (0
    /// kingside, 1 queenside: `castlingWins` asks); not part of a
    /// position's text.
    pub castled: Option<u8>,
}

/// The state of a position that is not a defined variant's: no squares.
static NO_STATE: State = State {
    files: 0,
    ranks: 0,
    castling: [[None; 2]; 2],
    ep: Vec::new(),
    hands: [Vec::new(), Vec::new()],
    promoted: 0,
    unpromoted: Vec::new(),
    last_drop: None,
    castled: None,
};

impl State {
    /// Whether `other` is this state for repetitions, as Fairy-Stockfish's
    /// key tells positions apart: castling rights, en passant squares (by
    /// [`State::ep_key`]) and the pieces in hand; which pieces were
    /// promoted aside.
    pub fn repeats(&self, other: &State) -> bool {
        self.castling == other.castling
            && self.ep_key() == other.ep_key()
            && self.hands == other.hands
    }

    /// The en passant squares as Fairy-Stockfish's key holds them: each
    /// square's file, twice being none (a piece's initial move leaves two
    /// on one file, which its key cannot tell from none).
    pub fn ep_key(&self) -> u16 {
        self.ep
            .iter()
            .fold(0, |k, &s| k ^ 1 << (s % self.files as u8))
    }

    /// The state with the promoted pieces and the last move's drop or
    /// castling forgotten, and the en passant squares as the key has them
    /// (one on each file of [`State::ep_key`]):
    /// equal to another's exactly when [`State::repeats`] says so.
    pub fn without_promotions(&self) -> State {
        let key = self.ep_key();
        State {
            promoted: 0,
            unpromoted: Vec::new(),
            last_drop: None,
            castled: None,
            ep: (0..16).filter(|f| key & 1 << f != 0).collect(),
            ..self.clone()
        }
    }

    /// The kind the piece on `sq` was before a shogi-style promotion.
    pub fn unpromoted_at(&self, sq: u8) -> Option<u8> {
        self.unpromoted
            .iter()
            .find(|&&(s, _)| s == sq)
            .map(|&(_, k)| k)
    }

    /// Sets (or, with `None`, forgets) what the piece on `sq` was.
    pub fn set_unpromoted(&mut self, sq: u8, kind: Option<u8>) {
        self.unpromoted.retain(|&(s, _)| s != sq);
        if let Some(k) = kind {
            let at = self.unpromoted.partition_point(|&(s, _)| s < sq);
            self.unpromoted.insert(at, (sq, k));
        }
    }
}

/// A position of a defined variant is a [`Position`] whose [`Extra`] is
/// its [`State`]; the engine names squares by number, `rank * files +
/// file` from a1 = 0.
pub type Pos = Position;

/// The variant of a position read before its definition is registered
/// (while a file loads); [`crate::variant::defined`] sets the real one.
pub const UNREGISTERED: Variant = Variant::Defined(u16::MAX);

fn side(c: u8) -> Color {
    if c == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl Position {
    /// An empty position of the definition, White to move.
    pub fn empty_of(def: &Def) -> Position {
        let hand_size = if def.piece_drops { def.kinds.len() } else { 0 };
        Position {
            variant: UNREGISTERED,
            board: Board::rect(def.files as i16, def.ranks as i16),
            turn: Color::White,
            castling: Castling::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            extra: Extra::Defined(Box::new(State {
                files: def.files,
                ranks: def.ranks,
                castling: [[None; 2]; 2],
                ep: Vec::new(),
                hands: [vec![0; hand_size], vec![0; hand_size]],
                promoted: 0,
                unpromoted: Vec::new(),
                last_drop: None,
                castled: None,
            })),
        }
    }

    /// The defined variant's state of this position.
    pub fn state(&self) -> &State {
        match &self.extra {
            Extra::Defined(s) => s,
            _ => &NO_STATE,
        }
    }

    pub fn state_mut(&mut self) -> &mut State {
        if !matches!(self.extra, Extra::Defined(_)) {
            self.extra = Extra::Defined(Box::new(NO_STATE.clone()));
        }
        match &mut self.extra {
            Extra::Defined(s) => s,
            _ => unreachable!("set just above"),
        }
    }

    /// The side to move: 0 White, 1 Black.
    pub fn us(&self) -> u8 {
        u8::from(self.turn == Color::Black)
    }

    /// How many squares the board has.
    pub fn square_count(&self) -> u8 {
        let s = self.state();
        (s.files as i16 * s.ranks as i16) as u8
    }

    /// The board's square of an engine's square.
    pub fn square_of(&self, sq: u8) -> Square {
        let (f, r) = self.file_rank(sq);
        Square::new(f as i16 + 1, r as i16 + 1)
    }

    /// The engine's square of a board's square.
    pub fn number_of(&self, sq: Square) -> Option<u8> {
        self.sq((sq.file - 1) as i8, (sq.rank - 1) as i8)
    }

    /// The board's array index of an engine's square. A defined variant's
    /// board is one rectangle of at most 12 x 10 squares from a1, so one
    /// tile, whose cells lie rank by rank inside the margin.
    #[inline]
    pub fn cell_index(&self, sq: u8) -> usize {
        let files = self.state().files as usize;
        let (f, r) = (sq as usize % files, sq as usize / files);
        let i = (r + MARGIN as usize) * self.board.stride() as usize + f + MARGIN as usize;
        debug_assert_eq!(Some(i), self.board.index(self.square_of(sq)));
        i
    }

    /// The engine's square of a board's array index ([`Self::cell_index`]).
    #[inline]
    pub fn number_at(&self, index: usize) -> u8 {
        let stride = self.board.stride() as usize;
        let (f, r) = (
            index % stride - MARGIN as usize,
            index / stride - MARGIN as usize,
        );
        (r * self.state().files as usize + f) as u8
    }

    /// The squares of the men of `color`, in the order of their numbers.
    pub fn squares_of(&self, color: u8) -> impl Iterator<Item = u8> + '_ {
        self.board
            .cells_of(side(color))
            .map(move |i| self.number_at(i))
    }

    /// The man on an engine's square.
    #[inline]
    pub fn man(&self, def: &Def, sq: u8) -> Option<Man> {
        let piece = self.board.cell(self.cell_index(sq)).piece()?;
        Some(Man {
            kind: def.kind_of_role(piece.role)? as u8,
            color: u8::from(piece.color == Color::Black),
        })
    }

    /// The piece on an engine's square.
    #[inline]
    pub fn piece_at(&self, sq: u8) -> Option<Piece> {
        self.board.cell(self.cell_index(sq)).piece()
    }

    /// Puts a man on an engine's square, or empties it.
    pub fn put(&mut self, def: &Def, sq: u8, man: Option<Man>) {
        let stack = match man {
            Some(m) => Stack::single(Piece::new(side(m.color), def.role(m.kind as usize))),
            None => Stack::EMPTY,
        };
        let i = self.cell_index(sq);
        self.board.set_cell(i, stack);
    }

    /// Takes the man off an engine's square.
    pub fn take(&mut self, def: &Def, sq: u8) -> Option<Man> {
        let m = self.man(def, sq);
        self.put(def, sq, None);
        m
    }

    /// Whether an engine's square is empty.
    #[inline]
    pub fn is_empty_at(&self, sq: u8) -> bool {
        self.board.cell(self.cell_index(sq)).is_empty()
    }

    /// Sets [`Position::castling`] and [`Position::ep`] from the state.
    pub fn sync(&mut self) {
        let s = self.state();
        let right = |c: usize, side: usize| s.castling[c][side].is_some();
        let castling = Castling {
            white_king: right(0, 0),
            white_queen: right(0, 1),
            black_king: right(1, 0),
            black_queen: right(1, 1),
        };
        // The first en passant square the repetition key holds
        // ([`State::ep_key`]).
        let key = s.ep_key();
        let ep =
            s.ep.iter()
                .find(|&&e| key & 1 << (e % s.files as u8) != 0)
                .map(|&e| self.square_of(e));
        self.castling = castling;
        self.ep = ep;
    }

    pub fn sq(&self, file: i8, rank: i8) -> Option<u8> {
        if (0..self.state().files).contains(&file) && (0..self.state().ranks).contains(&rank) {
            Some((rank as i16 * self.state().files as i16 + file as i16) as u8)
        } else {
            None
        }
    }

    pub fn file_rank(&self, sq: u8) -> (i8, i8) {
        (
            (sq as i16 % self.state().files as i16) as i8,
            (sq as i16 / self.state().files as i16) as i8,
        )
    }

    pub fn region_has(&self, region: Region, sq: u8) -> bool {
        let (f, r) = self.file_rank(sq);
        region & bit(f, r) != 0
    }

    pub fn square_name(&self, sq: u8) -> String {
        let (f, r) = self.file_rank(sq);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    pub fn parse_square(&self, text: &str) -> Option<u8> {
        let b = text.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_lowercase() {
            return None;
        }
        let r: i8 = text[1..].parse().ok()?;
        self.sq((b[0] - b'a') as i8, r - 1)
    }

    pub fn letter(def: &Def, man: Man) -> char {
        let c = def.kinds[man.kind as usize].letter;
        if man.color == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The castling rank of `color`, counted from White's side.
    pub fn castling_rank(&self, def: &Def, color: u8) -> i8 {
        if color == 0 {
            def.castling_rank
        } else {
            self.state().ranks - 1 - def.castling_rank
        }
    }

    /// The UCI text of a move.
    pub fn uci(&self, def: &Def, mv: &CellMove) -> String {
        let letter = |role| def.kind_of_role(role).map_or('?', |k| def.kinds[k].letter);
        let (from, to) = (
            self.number_at(mv.from as usize),
            self.number_at(mv.to as usize),
        );
        // Castling is the king's move to its square, unless a plain move
        // of the king goes there too: then, as Fairy-Stockfish writes
        // it, the king's move onto its rook.
        let change = super::promote::change(def, self, mv);
        let to = match mv.kind {
            CellKind::Drop if change == Some(Change::Promote) => {
                return format!("+{}@{}", letter(mv.role), self.square_name(to))
            }
            CellKind::Drop => return format!("{}@{}", letter(mv.role), self.square_name(to)),
            CellKind::Castle { rook, .. }
                if super::gen::plain_move_reaches(def, self, from, to) =>
            {
                self.number_at(rook as usize)
            }
            _ => to,
        };
        let mut s = format!("{}{}", self.square_name(from), self.square_name(to));
        match (mv.promotion, change) {
            (Some(_), Some(Change::Promote)) => s.push('+'),
            (Some(_), Some(Change::Demote)) => s.push('-'),
            (Some(p), _) => s.push(letter(p).to_ascii_lowercase()),
            (None, _) => {}
        }
        s
    }

    /// Counts the pieces of `color` of kind `kind` (`None`: all).
    pub fn count(&self, def: &Def, color: u8, kind: Option<usize>) -> i32 {
        self.squares_of(color)
            .filter(|&s| {
                kind.is_none_or(|k| self.man(def, s).is_some_and(|m| m.kind as usize == k))
            })
            .count() as i32
    }

    pub fn king_square(&self, def: &Def, color: u8) -> Option<u8> {
        let king = def.king()?;
        let king = Piece::new(side(color), def.role(king));
        self.squares_of(color)
            .find(|&s| self.piece_at(s) == Some(king))
    }

    pub fn part(&self, def: &Def, sq: u8) -> Option<Part> {
        self.man(def, sq).map(|m| def.kinds[m.kind as usize].part)
    }
}
