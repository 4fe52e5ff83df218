//! A position of a user-defined variant, and its text in Fairy-Stockfish's
//! conventions: FEN with decimal runs of empty squares (`10` on wide
//! boards), castling rights `KQkq` found as Fairy-Stockfish finds them,
//! an en passant square only where a pawn could take there; moves in UCI
//! form (`e2e4`, `a9a10q`, castling as the king's move `e1g1`, a drop
//! `N@f3`). Pieces in hand are written in brackets after the board
//! (`RNBQKBNR[Qp]`), a promoted piece that goes back to hand as a pawn
//! with `~` after its letter (`Q~`), as Fairy-Stockfish writes them.

use super::def::{bit, Def, Part, Region};
use crate::board::{Board, MARGIN};
use crate::color::Color;
use crate::movegen::{CellKind, CellMove};
use crate::piece::{Piece, Stack};
use crate::position::{Castling, Position};
use crate::square::Square;
use crate::variant::{Extra, Variant};
use std::fmt::Write;

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
}

/// The state of a position that is not a defined variant's: no squares.
static NO_STATE: State = State {
    files: 0,
    ranks: 0,
    castling: [[None; 2]; 2],
    ep: Vec::new(),
    hands: [Vec::new(), Vec::new()],
    promoted: 0,
};

impl State {
    /// Whether `other` is this state for repetitions, as Fairy-Stockfish's
    /// key tells positions apart: castling rights, en passant squares and
    /// the pieces in hand; which pieces were promoted aside.
    pub fn repeats(&self, other: &State) -> bool {
        self.castling == other.castling && self.ep == other.ep && self.hands == other.hands
    }

    /// The state with the promoted pieces forgotten: equal to another's
    /// exactly when [`State::repeats`] says so.
    pub fn without_promotions(&self) -> State {
        State {
            promoted: 0,
            ..self.clone()
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
        let ep = s.ep.first().map(|&e| self.square_of(e));
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

    /// Reads a FEN and checks it as Fairy-Stockfish's `validate_fen`
    /// checks a position given by a user (the kings, the castling
    /// rights). Errors name the offending part.
    pub fn from_fen(def: &Def, fen: &str) -> Result<Pos, String> {
        Pos::read(def, fen, true)
    }

    /// Reads a FEN, checked where `check`; the start position's own
    /// board is read unchecked to check another against it.
    fn read(def: &Def, fen: &str, check: bool) -> Result<Pos, String> {
        let mut parts = fen.split_whitespace();
        let board = parts.next().ok_or("empty position text")?;
        let mut pos = Position::empty_of(def);
        // The hand: in brackets after the board, or as one more rank.
        let (board, hand) = match board.split_once('[') {
            Some((b, h)) => match h.strip_suffix(']') {
                Some(h) => (b, Some(h)),
                None => return Err(format!("`[{h}` has no closing `]`")),
            },
            None if def.piece_drops && board.split('/').count() == def.ranks as usize + 1 => board
                .rsplit_once('/')
                .map_or((board, None), |(b, h)| (b, Some(h))),
            None => (board, None),
        };
        if let Some(hand) = hand {
            pos.read_hand(def, hand)?;
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != def.ranks as usize {
            return Err(format!(
                "{} ranks in the board, the variant has {}",
                rows.len(),
                def.ranks
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = def.ranks - 1 - i as i8;
            let mut file: i16 = 0;
            let mut run = 0i16;
            // The square of the piece just read, which a `~` marks as
            // promoted.
            let mut promoted_next: Option<u8> = None;
            for c in row.chars() {
                if c == '~' {
                    let sq = promoted_next
                        .take()
                        .ok_or("`~` (a promoted piece) must follow a piece's letter")?;
                    pos.state_mut().promoted |= 1u128 << sq;
                    continue;
                }
                promoted_next = None;
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as i16;
                    if run > def.files as i16 {
                        return Err(format!("rank {} is too long", rank + 1));
                    }
                    continue;
                }
                file += run;
                run = 0;
                if c == '*' {
                    return Err(
                        "`*` (a wall, or a square off the board) is not supported: postal's boards \
                         are whole rectangles"
                            .into(),
                    );
                }
                let kind = def
                    .kind_of(c)
                    .ok_or_else(|| format!("`{c}` is not a piece of this variant"))?;
                if file >= def.files as i16 {
                    return Err(format!("rank {} is too long", rank + 1));
                }
                let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                let sq = pos.sq(file as i8, rank).ok_or("square off the board")?;
                pos.put(
                    def,
                    sq,
                    Some(Man {
                        kind: kind as u8,
                        color,
                    }),
                );
                file += 1;
                promoted_next = Some(sq);
                continue;
            }
            file += run;
            if file != def.files as i16 {
                return Err(format!(
                    "rank {} has {file} squares, the variant has {} files",
                    rank + 1,
                    def.files
                ));
            }
        }
        pos.turn = match parts.next().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            t => return Err(format!("`{t}` is not a side to move (w or b)")),
        };
        // The fields after the side are read as Fairy-Stockfish reads
        // them: castling rights skip digits (`w 0 1` has none); an en
        // passant field that is not a square gives up its first
        // character and leaves the rest to the clocks (`w - 0 1` is
        // halfmove 1); missing clocks are 0 and 1.
        if check {
            pos.check_kings(def)?;
        }
        let castling = parts.next().unwrap_or("-");
        let mut rights = Vec::new();
        for c in castling.chars() {
            if c == '-' || c.is_ascii_digit() {
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(format!("`{castling}` is not castling rights"));
            }
            rights.push(c);
        }
        if check && def.castling {
            pos.check_castling(def, &rights)?;
        }
        for c in rights {
            pos.add_right(def, c)?;
        }
        let mut clocks: Vec<&str> = Vec::new();
        match parts.next() {
            None | Some("-") => {}
            Some(ep) if ep.starts_with(|c: char| c.is_ascii_lowercase()) => {
                let sq = pos
                    .parse_square(ep)
                    .ok_or_else(|| format!("`{ep}` is not a square"))?;
                if pos.ep_possible(def, sq) {
                    pos.state_mut().ep.push(sq);
                }
            }
            Some(ep) if ep.starts_with(|c: char| c.is_ascii_digit()) => {
                if ep.len() > 1 {
                    clocks.push(&ep[1..]);
                }
            }
            Some(ep) => return Err(format!("`{ep}` is not a square")),
        }
        clocks.extend(parts.by_ref().take(2 - clocks.len()));
        if let Some(h) = clocks.first() {
            pos.halfmove = h
                .parse()
                .map_err(|_| format!("`{h}` is not a halfmove count"))?;
        }
        if let Some(f) = clocks.get(1) {
            pos.fullmove = f
                .parse()
                .map_err(|_| format!("`{f}` is not a move number"))?;
        }
        if let Some(extra) = parts.next() {
            return Err(format!("unexpected `{extra}` after the move number"));
        }
        pos.sync();
        Ok(pos)
    }

    /// Reads the pieces in hand: letters of the variant's pieces, White's
    /// in upper case, Black's in lower case, in any order.
    fn read_hand(&mut self, def: &Def, hand: &str) -> Result<(), String> {
        if !def.piece_drops {
            return Err(format!(
                "`{hand}`: pieces in hand, and this variant has no drops"
            ));
        }
        for c in hand.chars() {
            if c == '-' {
                continue;
            }
            let kind = def
                .kind_of(c)
                .ok_or_else(|| format!("`{c}` in hand is not a piece of this variant"))?;
            let color = usize::from(!c.is_ascii_uppercase());
            let n = &mut self.state_mut().hands[color][kind];
            *n = n
                .checked_add(1)
                .filter(|&n| n <= MOST_IN_HAND)
                .ok_or_else(|| format!("more than {MOST_IN_HAND} of `{c}` in hand"))?;
        }
        Ok(())
    }

    /// The hand as Fairy-Stockfish writes it: White's pieces, then
    /// Black's, each from the last kind in its order of types to the
    /// first (`QRBNPqrbnp`).
    fn write_hand(&self, def: &Def, out: &mut String) {
        let mut kinds: Vec<usize> = (0..def.kinds.len()).collect();
        kinds.sort_by_key(|&k| std::cmp::Reverse(def.kinds[k].order));
        for color in 0..2u8 {
            for &k in &kinds {
                let n = self.state().hands[color as usize]
                    .get(k)
                    .copied()
                    .unwrap_or(0);
                let letter = Pos::letter(
                    def,
                    Man {
                        kind: k as u8,
                        color,
                    },
                );
                out.extend(std::iter::repeat_n(letter, n as usize));
            }
        }
    }

    /// The first square, from a1 rank by rank, holding a man of `color`
    /// and a kind `is` accepts (as Fairy-Stockfish's validator finds it).
    fn first(&self, def: &Def, color: u8, is: impl Fn(usize) -> bool) -> Option<u8> {
        (0..self.square_count()).find(|&s| self.is(def, s, color, &is))
    }

    /// The square's name: `e4`, `a10`.
    fn name(&self, sq: u8) -> String {
        let (f, r) = self.file_rank(sq);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// Where the variant has a royal king: each side has as many kings
    /// as in the start position, at most one, and two kings that move as
    /// kings do not stand side by side (`validate_fen`'s kings).
    fn check_kings(&self, def: &Def) -> Result<(), String> {
        let Some(king) = def.king() else {
            return Ok(());
        };
        let letter = def.kinds[king].letter;
        let start = def.start_fen.split([' ', '[']).next().unwrap_or("");
        for (color, side, c) in [
            (0, "White", letter),
            (1, "Black", letter.to_ascii_lowercase()),
        ] {
            let n = (0..self.square_count())
                .filter(|&s| self.is(def, s, color, |k| k == king))
                .count();
            let wanted = start.chars().filter(|&x| x == c).count();
            if n > 1 {
                return Err(format!("{side} has {n} kings: a side has at most one"));
            }
            if n != wanted {
                return Err(format!(
                    "{side} has {n} king{}, where the start position has {wanted}",
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        let at = |color| self.first(def, color, |k| k == king);
        if def.kinds[king].betza_text == "K" {
            if let (Some(w), Some(b)) = (at(0), at(1)) {
                let ((wf, wr), (bf, br)) = (self.file_rank(w), self.file_rank(b));
                let (df, dr) = (i32::from(wf - bf), i32::from(wr - br));
                if df * df + dr * dr <= 2 {
                    return Err(format!(
                        "the kings on {} and {} stand next to each other",
                        self.name(w),
                        self.name(b)
                    ));
                }
            }
        }
        Ok(())
    }

    /// Castling rights as `validate_fen` checks them: for `K`/`Q` the
    /// side's castling king on its castling rank with a castling rook
    /// between it and that edge, both on their squares of the start
    /// position; for a file letter, a piece on that file of the castling
    /// rank.
    fn check_castling(&self, def: &Def, rights: &[char]) -> Result<(), String> {
        if rights.is_empty() {
            return Ok(());
        }
        let start = Pos::read(def, &def.start_fen, false)?;
        for color in [0, 1] {
            let side = if color == 0 { "White" } else { "Black" };
            let mine: Vec<char> = rights
                .iter()
                .copied()
                .filter(|c| c.is_ascii_uppercase() == (color == 0))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let rank = self.castling_rank(def, color);
            let name = &def.castling_king[color as usize];
            let king = def.kinds.iter().position(|k| &k.name == name);
            let is_king = |k: usize| Some(k) == king;
            let rooks = &def.castling_rooks[color as usize];
            let king_at = self.first(def, color, is_king);
            for &c in &mine {
                let lower = c.to_ascii_lowercase();
                if lower != 'k' && lower != 'q' {
                    let f = (lower as u8 - b'a') as i8;
                    if self.sq(f, rank).and_then(|s| self.man(def, s)).is_none() {
                        return Err(format!(
                            "castling right `{c}`: nothing stands on the {lower} file of {side}'s castling rank"
                        ));
                    }
                    continue;
                }
                let Some(k) = king_at.filter(|&s| self.file_rank(s).1 == rank) else {
                    return Err(format!(
                        "castling right `{c}`: {side}'s king is not on its castling rank ({})",
                        rank + 1
                    ));
                };
                let kf = self.file_rank(k).0;
                let files: Vec<i8> = if lower == 'k' {
                    (kf + 1..self.state().files).collect()
                } else {
                    (0..kf).collect()
                };
                let rook = files.iter().any(|&f| {
                    self.sq(f, rank)
                        .is_some_and(|s| self.is(def, s, color, |k| rooks.contains(k)))
                });
                if !rook {
                    return Err(format!(
                        "castling right `{c}`: {side} has no castling rook on that side of its king"
                    ));
                }
            }
            if king_at != start.first(def, color, is_king) {
                return Err(format!(
                    "castling rights `{}`: {side}'s king is not on its start square",
                    mine.iter().collect::<String>()
                ));
            }
            // Fairy-Stockfish takes the first two castling rooks of the
            // start position, counted from a1, for the queen's and the
            // king's side; here, as there for a start with its rooks on
            // the castling rank, a rook of the start position's on that
            // side of the king still stands (a start with a rook
            // elsewhere, where that count would fail a position reached in
            // play, reads as well).
            let king_file = king_at.map_or(0, |s| self.file_rank(s).0);
            for (letter, wing) in [('q', "queen's"), ('k', "king's")] {
                if !mine.iter().any(|c| c.to_ascii_lowercase() == letter) {
                    continue;
                }
                let stands = (0..self.state().files).any(|f| {
                    (f < king_file) == (letter == 'q')
                        && f != king_file
                        && self.sq(f, rank).is_some_and(|s| {
                            start.is(def, s, color, |k| rooks.contains(k))
                                && self.is(def, s, color, |k| rooks.contains(k))
                        })
                });
                if !stands {
                    return Err(format!(
                        "castling right `{}`: {side}'s {wing} rook is not on its start square",
                        if color == 0 {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    /// The castling rank of `color`, counted from White's side.
    pub fn castling_rank(&self, def: &Def, color: u8) -> i8 {
        if color == 0 {
            def.castling_rank
        } else {
            self.state().ranks - 1 - def.castling_rank
        }
    }

    fn is(&self, def: &Def, sq: u8, color: u8, pred: impl Fn(usize) -> bool) -> bool {
        matches!(self.man(def, sq), Some(m) if m.color == color && pred(m.kind as usize))
    }

    /// Adds the castling right written `c`, as Fairy-Stockfish reads it
    /// (its rook found from the outer file inwards); a right whose king or
    /// rook is missing is dropped, as there.
    fn add_right(&mut self, def: &Def, c: char) -> Result<(), String> {
        if !def.castling {
            return Ok(());
        }
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        let rank = self.castling_rank(def, color);
        let rooks = &def.castling_rooks[color as usize];
        let is_rook = |p: &Pos, f: i8| {
            p.sq(f, rank)
                .is_some_and(|s| p.is(def, s, color, |k| rooks.contains(k)))
        };
        let up = c.to_ascii_uppercase();
        let rook_file = match up {
            'K' => {
                let mut f = def.castling_rook_kingside_file;
                while !is_rook(self, f) && f > 0 {
                    f -= 1;
                }
                f
            }
            'Q' => {
                let mut f = def.castling_rook_queenside_file;
                while !is_rook(self, f) && f < super::def::FILES - 1 {
                    f += 1;
                }
                f
            }
            'A'..='L' => (up as u8 - b'A') as i8,
            _ => return Err(format!("`{c}` is not a castling right")),
        };
        let name = &def.castling_king[color as usize];
        let Some(king) = def.kinds.iter().position(|k| &k.name == name) else {
            return Ok(());
        };
        let kings: Vec<i8> = (0..self.state().files)
            .filter(|&f| {
                self.sq(f, rank)
                    .is_some_and(|s| self.is(def, s, color, |k| k == king))
            })
            .collect();
        let king_file = match kings.as_slice() {
            [f] => *f,
            [] => return Ok(()),
            _ => def.castling_king_file,
        };
        if !kings.contains(&king_file) || !is_rook(self, rook_file) {
            return Ok(());
        }
        let (Some(k), Some(r)) = (self.sq(king_file, rank), self.sq(rook_file, rank)) else {
            return Ok(());
        };
        let side = if king_file < rook_file { 0 } else { 1 };
        self.state_mut().castling[color as usize][side] = Some(Right { king: k, rook: r });
        Ok(())
    }

    /// Whether an en passant square written in a FEN stands, as
    /// Fairy-Stockfish decides: in the region, attacked by a pawn of the
    /// side to move, an enemy pawn just past it, nothing on it or behind.
    fn ep_possible(&self, def: &Def, sq: u8) -> bool {
        let Some(pawn) = def.pawn() else { return false };
        let us = self.us();
        if !self.region_has(def.en_passant_region[us as usize], sq) {
            return false;
        }
        let (f, r) = self.file_rank(sq);
        let back = if us == 0 { -1 } else { 1 };
        let attacked = [-1, 1].iter().any(|df| {
            self.sq(f + df, r + back)
                .is_some_and(|s| self.is(def, s, us, |k| k == pawn))
        });
        let them = 1 - us;
        let pawn_past = [1, 2].iter().any(|n| {
            self.sq(f, r + back * n)
                .is_some_and(|s| self.is(def, s, them, |k| k == pawn))
        });
        let clear = [0, -back]
            .iter()
            .all(|d| self.sq(f, r + d).is_none_or(|s| self.is_empty_at(s)));
        attacked && pawn_past && clear
    }

    pub fn to_fen(&self, def: &Def) -> String {
        let mut s = String::new();
        let (files, ranks) = (self.state().files, self.state().ranks);
        for rank in (0..ranks).rev() {
            let mut run = 0;
            for file in 0..files {
                let square = rank as u32 * files as u32 + file as u32;
                match self.man(def, square as u8) {
                    None => run += 1,
                    Some(m) => {
                        if run > 0 {
                            let _ = write!(s, "{run}");
                            run = 0;
                        }
                        s.push(Pos::letter(def, m));
                        if self.state().promoted & (1u128 << square) != 0
                            && def.captures_to_hand
                            && !def.drop_loop
                        {
                            s.push('~');
                        }
                    }
                }
            }
            if run > 0 {
                let _ = write!(s, "{run}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if def.piece_drops {
            s.push('[');
            self.write_hand(def, &mut s);
            s.push(']');
        }
        s.push_str(if self.us() == 0 { " w " } else { " b " });
        let mut rights = String::new();
        for (color, letters) in [(0, ['K', 'Q']), (1, ['k', 'q'])] {
            for (right, letter) in self.state().castling[color].iter().zip(letters) {
                if right.is_some() {
                    rights.push(letter);
                }
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        s.push_str(&rights);
        if self.state().ep.is_empty() {
            s.push_str(" -");
        } else {
            s.push(' ');
            for &e in &self.state().ep {
                s.push_str(&self.square_name(e));
            }
        }
        let _ = write!(s, " {} {}", self.halfmove, self.fullmove);
        s
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
        let to = match mv.kind {
            CellKind::Drop => return format!("{}@{}", letter(mv.role), self.square_name(to)),
            CellKind::Castle { rook, .. }
                if super::gen::plain_move_reaches(def, self, from, to) =>
            {
                self.number_at(rook as usize)
            }
            _ => to,
        };
        let mut s = format!("{}{}", self.square_name(from), self.square_name(to));
        if let Some(p) = mv.promotion {
            s.push(letter(p).to_ascii_lowercase());
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
