//! Plain SAN read without the grammar: the forms most records are written
//! in (`e4`, `Nbd7`, `exd8=Q+`, `O-O-O#!`), read by hand for speed; any
//! other text goes to the `nom` grammar in [`super::san`].

use super::san::{CheckMark, MoveText, ParsedMove, PieceText};
use crate::piece::Role;
use crate::square::Square;
use crate::variant::chess::bits::{self, square, BitMove, Bits, Found, Kind};
use std::fmt::Write;

/// A plain SAN text as values, without allocating: what [`plain_san`]
/// reads (the record verifier's fast lane takes it straight).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlainSan {
    /// `Some(long)` for castling; the other move fields are then unused.
    pub castle: Option<bool>,
    /// The piece letter; `None` for a pawn.
    pub role: Option<Role>,
    pub from_file: Option<i16>,
    pub from_rank: Option<i16>,
    pub capture: bool,
    pub to: Square,
    pub promotion: Option<Role>,
    pub check: Option<CheckMark>,
    pub glyph: Option<&'static str>,
}

/// The common forms of a whole move text read without the grammar: plain
/// SAN on files a-h and ranks 1-9 (`e4`, `Nbd7`, `R1xe2`, `exd8=Q+`,
/// `O-O-O#!`), with the same [`ParsedMove`] that [`parse_prefix`](super::san::parse_prefix) gives.
/// `None` for anything else, which goes to the grammar; so this decides
/// nothing the grammar would decide otherwise (a test compares the two on
/// every short text over their letters).
pub(super) fn parse_plain(body: &str) -> Option<ParsedMove> {
    let p = plain_san(body)?;
    let text = match p.castle {
        Some(long) => MoveText::Castle { long },
        None => MoveText::Piece(PieceText {
            roles: p.role.into_iter().collect(),
            from_file: p.from_file,
            from_rank: p.from_rank,
            capture: p.capture,
            to: p.to,
            promotions: p.promotion.into_iter().collect(),
            place: None,
        }),
    };
    Some(ParsedMove {
        text,
        check: p.check,
        glyph: p.glyph,
    })
}

/// [`parse_plain`]'s reading as values: the text trimmed, as
/// `san::parse_text` trims it.
pub fn plain_san(text: &str) -> Option<PlainSan> {
    let body = text.trim();
    let b = body.as_bytes();
    let mut i = 0;
    let mut p = PlainSan {
        castle: None,
        role: None,
        from_file: None,
        from_rank: None,
        capture: false,
        to: Square::new(0, 0),
        promotion: None,
        check: None,
        glyph: None,
    };
    if b.starts_with(b"O-O") || b.starts_with(b"0-0") {
        let long = b.len() >= 5 && b[3] == b'-' && b[4] == b[0];
        i = if long { 5 } else { 3 };
        p.castle = Some(long);
    } else {
        if let Some(&c) = b.first() {
            if matches!(c, b'K' | b'Q' | b'R' | b'B' | b'N') {
                p.role = Some(Role::from_char(c as char)?);
                i = 1;
            }
        }
        // The squares part as tokens: a file a-h, a one-digit rank, `x`.
        let mut tokens = [0u8; 5];
        let mut n = 0;
        while i < b.len() && n < 5 {
            let c = b[i];
            let kind = match c {
                b'a'..=b'h' => b'f',
                b'1'..=b'9' if !b.get(i + 1).is_some_and(u8::is_ascii_digit) => b'r',
                b'0'..=b'9' => return None,
                b'x' => b'x',
                _ => break,
            };
            tokens[n] = kind;
            n += 1;
            i += 1;
        }
        let start = i - n;
        let at = |k: usize| b[start + k];
        let file_of = |c: u8| (c - b'a' + 1) as i16;
        let rank_of = |c: u8| (c - b'0') as i16;
        (p.from_file, p.from_rank, p.capture) = match &tokens[..n] {
            b"fr" => (None, None, false),
            b"xfr" => (None, None, true),
            b"ffr" => (Some(file_of(at(0))), None, false),
            b"fxfr" => (Some(file_of(at(0))), None, true),
            b"rfr" => (None, Some(rank_of(at(0))), false),
            b"rxfr" => (None, Some(rank_of(at(0))), true),
            b"frfr" => (Some(file_of(at(0))), Some(rank_of(at(1))), false),
            b"frxfr" => (Some(file_of(at(0))), Some(rank_of(at(1))), true),
            _ => return None,
        };
        p.to = Square::new(file_of(at(n - 2)), rank_of(at(n - 1)));
        if b.get(i) == Some(&b'=') {
            let c = *b.get(i + 1)?;
            if !c.is_ascii_uppercase() || b.get(i + 2) == Some(&b'=') {
                return None;
            }
            p.promotion = Some(Role::from_char(c as char)?);
            i += 2;
        }
    }
    let rest = &body[i..];
    let rest = if let Some(r) = rest.strip_prefix("++") {
        p.check = Some(CheckMark::Mate);
        r
    } else if let Some(r) = rest.strip_prefix('#') {
        p.check = Some(CheckMark::Mate);
        r
    } else if let Some(r) = rest.strip_prefix('+') {
        p.check = Some(CheckMark::Check);
        r
    } else {
        rest
    };
    p.glyph = match rest {
        "" => None,
        "!!" => Some("!!"),
        "??" => Some("??"),
        "!?" => Some("!?"),
        "?!" => Some("?!"),
        "!" => Some("!"),
        "?" => Some("?"),
        _ => return None,
    };
    Some(p)
}

/// The legal moves of `b` a plain SAN text names ([`Bits::find`], or
/// [`Bits::castle`]). A pawn's move written with both coordinates
/// (`e2e4`) is a coordinate move, which the generic path reads and notes:
/// none here.
pub fn find_plain(b: &Bits, san: &PlainSan) -> Found {
    if let Some(long) = san.castle {
        return b.castle(long);
    }
    if san.role.is_none() && san.from_file.is_some() && san.from_rank.is_some() {
        return Found::None;
    }
    match bits::index(san.to) {
        Some(to) => b.find(
            san.role.unwrap_or(Role::Pawn),
            to,
            san.from_file,
            san.from_rank,
            san.promotion,
        ),
        None => Found::None,
    }
}

/// Whether the game is over in `b` by a rule the position alone decides
/// and that leaves legal moves: seventy-five moves without capture or pawn
/// move, or a dead position (FI-5, GA-4). A mate or stalemate has no legal
/// move to find, and repetitions are the game's to count.
pub fn over_by_clock_or_material(b: &Bits) -> bool {
    crate::position::seventy_five_moves(b.halfmove, "FI-5").is_some() || b.is_dead()
}

/// The check mark a move leading to `after` earns: check, mate or none.
pub fn mark_after(after: &Bits) -> Option<CheckMark> {
    if !after.in_check() {
        None
    } else if after.has_legal_move() {
        Some(CheckMark::Check)
    } else {
        Some(CheckMark::Mate)
    }
}

/// Writes a rank's number: on the boards the bitboards play, one digit,
/// pushed without the formatter.
fn push_rank(out: &mut String, rank: i16) {
    match u8::try_from(rank) {
        Ok(r @ 0..=9) => out.push(char::from(b'0' + r)),
        _ => {
            let _ = write!(out, "{rank}");
        }
    }
}

/// The canonical text of `m`, played in `b` to reach `after`, check mark
/// included, written on the bitboards: what [`super::san::write_move`]
/// writes for the move in chess and Gardner's minichess (a test compares
/// the two). Rival moves are told apart as FIDE does, by the file, else
/// the rank, else both, each tried with [`Bits::find`]; `alone` says the
/// move is already known to be the only legal one of its kind onto its
/// square (found without a file or rank), so that there is none to try.
pub fn write_plain(b: &Bits, m: &BitMove, after: &Bits, alone: bool, out: &mut String) {
    let (from, to) = (square(m.from), square(m.to));
    let file = |s: Square| (b'a' + (s.file - 1) as u8) as char;
    if m.kind == Kind::Castle {
        out.push_str(if m.to < m.from { "O-O-O" } else { "O-O" });
    } else {
        let capture = b.captures(m);
        if m.role == Role::Pawn {
            if capture {
                out.push(file(from));
                out.push('x');
            }
        } else {
            out.push(m.role.char());
            let one = |f, r| matches!(b.find(m.role, m.to, f, r, None), Found::One(..));
            if !alone && !one(None, None) {
                if one(Some(from.file), None) {
                    out.push(file(from));
                } else if one(None, Some(from.rank)) {
                    push_rank(out, from.rank);
                } else {
                    out.push(file(from));
                    push_rank(out, from.rank);
                }
            }
            if capture {
                out.push('x');
            }
        }
        out.push(file(to));
        push_rank(out, to.rank);
        if let Some(p) = m.promotion {
            out.push('=');
            out.push(p.char());
        }
    }
    match mark_after(after) {
        Some(CheckMark::Check) => out.push('+'),
        Some(CheckMark::Mate) => out.push('#'),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::san::parse_prefix;
    use super::*;

    /// Every text over `alphabet` of up to `len` characters.
    fn texts(alphabet: &str, len: usize) -> Vec<String> {
        let letters: Vec<char> = alphabet.chars().collect();
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..len {
            last = last
                .iter()
                .flat_map(|t| letters.iter().map(move |c| format!("{t}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn plain_reading_agrees_with_the_grammar() {
        for text in ["e4", "Nbd7", "R1xe2", "exd8=Q+", "O-O-O#!", "Ng1f3", "0-0"] {
            assert!(parse_plain(text).is_some(), "{text}");
        }
        let mut taken = 0;
        let short = texts("NKbdexh1089=Q+#!?O-/@:", 4);
        let long = texts("Rbex18=Q+", 6);
        for text in short.iter().chain(&long) {
            if let Some(plain) = parse_plain(text) {
                taken += 1;
                assert_eq!(parse_prefix(text), Ok(("", plain)), "{text:?}");
            }
        }
        assert!(taken > 1000, "{taken}");
    }
}
