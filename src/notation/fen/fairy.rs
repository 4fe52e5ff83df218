//! Position text in Fairy-Stockfish's conventions, for the variants a
//! variants.ini defines: FEN with decimal runs of empty squares (`10` on
//! wide boards), castling rights `KQkq` found as Fairy-Stockfish finds
//! them, an en passant square only where a pawn could take there. Pieces
//! in hand are written in brackets after the board (`RNBQKBNR[Qp]`), a
//! promoted piece that goes back to hand as a pawn with `~` after its
//! letter (`Q~`), as Fairy-Stockfish writes them. A position is checked
//! as Fairy-Stockfish's `validate_fen` checks one a user gives (the
//! kings, the castling rights); an error has the span of what it is
//! about.

use super::fields;
use crate::color::Color;
use crate::error::{ParseError, Span};
use crate::position::Position;
use crate::variant::ini::board::{Man, Pos, Right, MOST_IN_HAND};
use crate::variant::ini::def::{Def, FILES};
use std::fmt::Write;

impl Position {
    /// Reads a FEN and checks it as Fairy-Stockfish's `validate_fen`
    /// checks a position given by a user (the kings, the castling
    /// rights). An error has the span of the part it is about.
    pub fn from_fen(def: &Def, fen: &str) -> Result<Pos, ParseError> {
        Pos::read(def, fen, true)
    }

    /// Reads a FEN, checked where `check`; the start position's own
    /// board is read unchecked to check another against it.
    fn read(def: &Def, fen: &str, check: bool) -> Result<Pos, ParseError> {
        let fields = fields(fen);
        let Some(&(board, bspan)) = fields.first() else {
            return Err(ParseError::new(
                Span::new(0, fen.len()),
                "empty position text",
            ));
        };
        // The text at byte `at` of the board field, `len` long.
        let part = |at: usize, len: usize| Span::new(bspan.start + at, bspan.start + at + len);
        let mut pos = Position::empty_of(def);
        // The hand: in brackets after the board, or as one more rank.
        let (board, hand) = match board.split_once('[') {
            Some((b, h)) => match h.strip_suffix(']') {
                Some(h) => (b, Some((h, b.len() + 1))),
                None => {
                    let at = part(b.len(), h.len() + 1);
                    return Err(ParseError::new(at, format!("`[{h}` has no closing `]`")));
                }
            },
            None if def.piece_drops && board.split('/').count() == def.ranks as usize + 1 => board
                .rsplit_once('/')
                .map_or((board, None), |(b, h)| (b, Some((h, b.len() + 1)))),
            None => (board, None),
        };
        if let Some((hand, at)) = hand {
            pos.read_hand(def, hand)
                .map_err(|m| ParseError::new(part(at, hand.len()), m))?;
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != def.ranks as usize {
            return Err(ParseError::new(
                part(0, board.len()),
                format!(
                    "{} ranks in the board, the variant has {}",
                    rows.len(),
                    def.ranks
                ),
            ));
        }
        let mut row_at = 0;
        for (i, row) in rows.iter().enumerate() {
            let rank = def.ranks - 1 - i as i8;
            let whole = part(row_at, row.len());
            let mut file: i16 = 0;
            let mut run = 0i16;
            // The square of the piece just read, which a `~` marks as
            // promoted.
            let mut promoted_next: Option<u8> = None;
            // Where a `+` stands before a piece promoted shogi-style.
            let mut plus: Option<Span> = None;
            for (at, c) in row.char_indices() {
                let here = part(row_at + at, c.len_utf8());
                let fail = |m: String| Err(ParseError::new(here, m));
                if c == '~' {
                    let Some(sq) = promoted_next.take() else {
                        return fail("`~` (a promoted piece) must follow a piece's letter".into());
                    };
                    pos.state_mut().promoted |= 1u128 << sq;
                    continue;
                }
                promoted_next = None;
                if c == '+' {
                    plus = Some(here);
                    continue;
                }
                if let (Some(at), false) = (plus, c.is_ascii_alphabetic()) {
                    return Err(ParseError::new(
                        at,
                        "`+` (a promoted piece) must stand before a piece's letter",
                    ));
                }
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as i16;
                    if run > def.files as i16 {
                        return fail(format!("rank {} is too long", rank + 1));
                    }
                    continue;
                }
                file += run;
                run = 0;
                if c == '*' {
                    return fail(
                        "`*` (a wall, or a square off the board) is not supported: postal's \
                         boards are whole rectangles"
                            .into(),
                    );
                }
                let Some(mut kind) = def.kind_of(c) else {
                    return fail(format!("`{c}` is not a piece of this variant"));
                };
                // `+S`: the piece a silver promotes to, which was a silver.
                let first = match plus.take() {
                    Some(at) => match def.promotes_to[kind] {
                        Some(promoted) => Some(std::mem::replace(&mut kind, promoted)),
                        None => {
                            return Err(ParseError::new(
                                at,
                                format!("`+{c}`: the {} does not promote", def.kinds[kind].name),
                            ))
                        }
                    },
                    None => None,
                };
                let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                let Some(sq) = pos.sq(file as i8, rank).filter(|_| file < def.files as i16) else {
                    return fail(format!("rank {} is too long", rank + 1));
                };
                pos.put(
                    def,
                    sq,
                    Some(Man {
                        kind: kind as u8,
                        color,
                    }),
                );
                file += 1;
                if let Some(first) = first {
                    pos.state_mut().promoted |= 1u128 << sq;
                    pos.state_mut().set_unpromoted(sq, Some(first as u8));
                }
                promoted_next = Some(sq);
            }
            if let Some(at) = plus {
                return Err(ParseError::new(
                    at,
                    "`+` (a promoted piece) must stand before a piece's letter",
                ));
            }
            file += run;
            if file != def.files as i16 {
                return Err(ParseError::new(
                    whole,
                    format!(
                        "rank {} has {file} squares, the variant has {} files",
                        rank + 1,
                        def.files
                    ),
                ));
            }
            row_at += row.len() + 1;
        }
        let field = |i: usize| fields.get(i).copied();
        let end = Span::new(fen.len(), fen.len());
        pos.turn = match field(1) {
            None | Some(("w", _)) => Color::White,
            Some(("b", _)) => Color::Black,
            Some((t, at)) => {
                return Err(ParseError::new(
                    at,
                    format!("`{t}` is not a side to move (w or b)"),
                ))
            }
        };
        // The fields after the side are read as Fairy-Stockfish reads
        // them: castling rights skip digits (`w 0 1` has none); an en
        // passant field that is not a square gives up its first
        // character and leaves the rest to the clocks (`w - 0 1` is
        // halfmove 1); missing clocks are 0 and 1.
        if check {
            pos.check_kings(def)
                .map_err(|m| ParseError::new(part(0, board.len()), m))?;
        }
        // A third field that starts with a digit: no castling rights nor
        // en passant square; the clocks are read from there on as
        // Fairy-Stockfish's stream reads two numbers (`w 7+7 0 1` is
        // halfmove 7, move 7; the rest is left unread).
        if let Some((first, at)) =
            field(2).filter(|f| f.0.starts_with(|c: char| c.is_ascii_digit()))
        {
            let _ = first;
            let (halfmove, rest) = leading_number(&fen[at.start..]);
            let (fullmove, _) = leading_number(rest);
            if let Some(h) = halfmove {
                pos.halfmove = u32::try_from(h).unwrap_or(0);
            }
            if let Some(f) = fullmove {
                pos.fullmove = u32::try_from(f).unwrap_or(1).max(1);
            }
            pos.sync();
            return Ok(pos);
        }
        let (castling, cspan) = field(2).unwrap_or(("-", end));
        let mut rights = Vec::new();
        for c in castling.chars() {
            if c == '-' || c.is_ascii_digit() {
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(ParseError::new(
                    cspan,
                    format!("`{castling}` is not castling rights"),
                ));
            }
            rights.push(c);
        }
        if check && def.castling {
            pos.check_castling(def, &rights)
                .map_err(|m| ParseError::new(cspan, m))?;
        }
        for c in rights {
            pos.add_right(def, c)
                .map_err(|m| ParseError::new(cspan, m))?;
        }
        let mut clocks: Vec<(&str, Span)> = Vec::new();
        match field(3) {
            None | Some(("-", _)) => {}
            Some((ep, at)) if ep.starts_with(|c: char| c.is_ascii_lowercase()) => {
                // One square or several (`e3e4`: a piece's initial move),
                // as Fairy-Stockfish writes them, in square order.
                let bad = || ParseError::new(at, format!("`{ep}` is not a square"));
                let starts: Vec<usize> = ep
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_lowercase())
                    .map(|(i, _)| i)
                    .collect();
                for (n, &i) in starts.iter().enumerate() {
                    let end = starts.get(n + 1).copied().unwrap_or(ep.len());
                    let sq = pos.parse_square(&ep[i..end]).ok_or_else(bad)?;
                    if pos.ep_possible(def, sq) && !pos.state().ep.contains(&sq) {
                        pos.state_mut().ep.push(sq);
                    }
                }
                pos.state_mut().ep.sort_unstable();
            }
            Some((ep, at)) if ep.starts_with(|c: char| c.is_ascii_digit()) => {
                if ep.len() > 1 {
                    clocks.push((&ep[1..], Span::new(at.start + 1, at.end)));
                }
            }
            Some((ep, at)) => return Err(ParseError::new(at, format!("`{ep}` is not a square"))),
        }
        let mut rest = fields.iter().skip(4).copied();
        clocks.extend(rest.by_ref().take(2 - clocks.len()));
        if let Some(&(h, at)) = clocks.first() {
            pos.halfmove = h
                .parse()
                .map_err(|_| ParseError::new(at, format!("`{h}` is not a halfmove count")))?;
        }
        if let Some(&(f, at)) = clocks.get(1) {
            pos.fullmove = f
                .parse()
                .map_err(|_| ParseError::new(at, format!("`{f}` is not a move number")))?;
        }
        if let Some((extra, at)) = rest.next() {
            return Err(ParseError::new(
                at,
                format!("unexpected `{extra}` after the move number"),
            ));
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
        let start = Pos::read(def, &def.start_fen, false).map_err(|e| e.message)?;
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
                while !is_rook(self, f) && f < FILES - 1 {
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
    /// Fairy-Stockfish decides: in the region, and, in a variant of its
    /// fast attacks whose side to move takes en passant with pawns alone,
    /// attacked by a pawn of the side to move, an enemy pawn just past it,
    /// nothing on it or behind.
    fn ep_possible(&self, def: &Def, sq: u8) -> bool {
        let us = self.us();
        if !self.region_has(def.en_passant_region[us as usize], sq) {
            return false;
        }
        let rules = &def.pawn_kinds;
        if !rules.fast_attacks || rules.en_passant_beyond_pawn[us as usize] {
            return true;
        }
        let Some(pawn) = def.pawn() else { return false };
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
                        if let Some(first) = self.state().unpromoted_at(square as u8) {
                            s.push('+');
                            s.push(Pos::letter(def, Man { kind: first, ..m }));
                            continue;
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
}

/// The number at the start of `text` after blanks, as a C++ stream reads
/// one (`+7` is 7, `7+7` is 7 with `+7` left), and the text after it;
/// `None` where there is none.
fn leading_number(text: &str) -> (Option<i64>, &str) {
    let t = text.trim_start();
    let sign = usize::from(t.starts_with(['+', '-']));
    let digits = t[sign..].bytes().take_while(u8::is_ascii_digit).count();
    match t[..sign + digits].parse::<i64>() {
        Ok(n) if digits > 0 => (Some(n), &t[sign + digits..]),
        _ => (None, t),
    }
}

#[cfg(test)]
mod tests {
    use crate::variant::ini;

    /// Each error's span is the part of the text it is about.
    #[test]
    fn an_error_has_the_span_of_its_part() {
        let text =
            "[small:chess]\nmaxFile = 4\nmaxRank = 4\nstartFen = rnbk/pppp/PPPP/RNBK w - - 0 1\n";
        let loaded = ini::load(text, "t.ini");
        let def = loaded.find("small").expect("loaded");
        let cases = [
            ("rnbk/ppxp/PPPP/RNBK w - - 0 1", "x", "not a piece"),
            ("rnbk/pppp/PPPP/RNB w - - 0 1", "RNB", "has 3 squares"),
            ("rnbk/pppp/PPPP/RNBK x - - 0 1", "x", "side to move"),
            ("rnbk/pppp/PPPP/RNBK w K+ - 0 1", "K+", "castling rights"),
            ("rnbk/pppp/PPPP/RNBK w - z9 0 1", "z9", "not a square"),
            ("rnbk/pppp/PPPP/RNBK w - - x 1", "x", "halfmove"),
            ("rnbk/pppp/PPPP/RNBK w - - 0 1 more", "more", "unexpected"),
            (
                "rnbk/pppp/PPPP/RNBR w - - 0 1",
                "rnbk/pppp/PPPP/RNBR",
                "kings",
            ),
        ];
        for (fen, part, why) in cases {
            let e = super::Pos::from_fen(def, fen).expect_err(fen);
            assert_eq!(&fen[e.span.start..e.span.end], part, "{fen}: {e}");
            assert!(e.message.contains(why), "{fen}: {e}");
        }
    }

    /// Without castling and en passant fields, the clocks are read as
    /// Fairy-Stockfish reads them (its file's `rookmate` starts
    /// `w 7+7 0 1`, which pyffish reads as `w - - 7 7`).
    #[test]
    fn clocks_after_the_side_are_read_as_fairy_stockfish_reads_them() {
        let text =
            "[small:chess]\nmaxFile = 4\nmaxRank = 4\nstartFen = rnbk/pppp/PPPP/RNBK w 0 1\n";
        let def = ini::load(text, "t.ini").defs[0].clone();
        for (fen, out) in [
            (
                "rnbk/pppp/PPPP/RNBK w 7+7 0 1",
                "rnbk/pppp/PPPP/RNBK w - - 7 7",
            ),
            ("rnbk/pppp/PPPP/RNBK b 0 1", "rnbk/pppp/PPPP/RNBK b - - 0 1"),
            (
                "rnbk/pppp/PPPP/RNBK w 5 12",
                "rnbk/pppp/PPPP/RNBK w - - 5 12",
            ),
        ] {
            let pos = super::Pos::from_fen(&def, fen).unwrap();
            assert_eq!(pos.to_fen(&def), out);
        }
    }
}
