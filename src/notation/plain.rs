//! Plain SAN read without the grammar: the forms most records are written
//! in (`e4`, `Nbd7`, `exd8=Q+`, `O-O-O#!`), read by hand for speed from
//! the same definitions of a piece letter, a square, a capture mark and a
//! check mark as the `nom` grammar in [`super::san`], to which any other
//! text goes.

use super::san::{
    castle_prefix, check_mark_prefix, glyph_prefix, is_capture_mark, piece_letter, CheckMark,
    MoveText, ParsedMove, PieceText,
};
use super::square::{file_number, rank_prefix};
use crate::mv::MovePattern;
use crate::square::Square;
use crate::variant::{FastLine, FastMove};
use std::sync::atomic::{AtomicU64, Ordering};

/// A plain SAN text as values, without allocating: what [`plain_san`]
/// reads. Its `pattern` is what the rules find the move by (the fast
/// lines of `variant::FastLine` take it straight).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlainSan {
    pub pattern: MovePattern,
    /// Written with a piece letter (a pawn's move is written without).
    pub lettered: bool,
    /// Written with a capture mark.
    pub capture: bool,
    pub check: Option<CheckMark>,
    pub glyph: Option<&'static str>,
}

impl PlainSan {
    /// Whether the text names the move's origin by neither file nor rank.
    pub fn names_no_origin(&self) -> bool {
        matches!(
            self.pattern,
            MovePattern::Castle { .. }
                | MovePattern::Piece {
                    from_file: None,
                    from_rank: None,
                    ..
                }
        )
    }
}

/// The common forms of a whole move text read without the grammar: plain
/// SAN (`e4`, `Nbd7`, `R1xe2`, `exd8=Q+`, `O-O-O#!`), with the same
/// [`ParsedMove`] that [`parse_prefix`](super::san::parse_prefix) gives.
/// `None` for anything else, which goes to the grammar; so this decides
/// nothing the grammar would decide otherwise (a test compares the two on
/// every short text over their letters).
pub(super) fn parse_plain(body: &str) -> Option<ParsedMove> {
    let p = plain_san(body)?;
    let text = match p.pattern {
        MovePattern::Castle { long } => MoveText::Castle { long },
        MovePattern::Piece {
            role,
            to,
            from_file,
            from_rank,
            promotion,
        } => MoveText::Piece(PieceText {
            roles: if p.lettered { vec![role] } else { Vec::new() },
            from_file,
            from_rank,
            capture: p.capture,
            to,
            promotions: promotion.into_iter().collect(),
            place: None,
            drop: false,
        }),
    };
    Some(ParsedMove {
        text,
        check: p.check,
        glyph: p.glyph,
    })
}

/// One part of the squares of a plain SAN text.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Part {
    File(i16),
    Rank(i16),
    Capture,
}

/// Plies played on a fast line by [`play_plain`] in this process: what
/// tests read to see that the fast lane is taken where it should be.
static FAST_PLIES: AtomicU64 = AtomicU64::new(0);

/// How many plies [`play_plain`] has played so far in this process.
pub fn fast_plies() -> u64 {
    FAST_PLIES.load(Ordering::Relaxed)
}

/// The fast lane's one way in: a plain SAN text ([`plain_san`]) played on
/// a fast line, when it names exactly one legal move there. The text's
/// reading, the move and the line after it; `None` sends the caller to
/// the general path. The record verifier (`record::lane`) and the game's
/// replay (`game::state`) both play their plain moves through it.
pub fn play_plain(line: &FastLine, text: &str) -> Option<(PlainSan, FastMove, FastLine)> {
    let san = plain_san(text)?;
    let (m, after) = line.play(&san.pattern)?;
    FAST_PLIES.fetch_add(1, Ordering::Relaxed);
    Some((san, m, after))
}

/// `parse_plain`'s reading as values: the text trimmed, as
/// `san::parse_text` trims it.
pub fn plain_san(text: &str) -> Option<PlainSan> {
    let body = text.trim();
    let mut rest = body;
    let mut capture = false;
    let mut lettered = false;
    let pattern = if let Some((long, n)) = castle_prefix(rest) {
        rest = &rest[n..];
        MovePattern::Castle { long }
    } else {
        let mut role = None;
        if let Some((r, c)) = rest
            .chars()
            .next()
            .and_then(|c| Some((piece_letter(c)?, c)))
        {
            role = Some(r);
            lettered = true;
            rest = &rest[c.len_utf8()..];
        }
        // The squares: files, ranks and capture marks, five at most.
        let mut parts = [Part::Capture; 5];
        let mut n = 0;
        while n < 5 {
            let c = rest.chars().next();
            let (part, len) = if let Some(f) = c.and_then(file_number) {
                (Part::File(f), 1)
            } else if let Some((r, len)) = rank_prefix(rest) {
                (Part::Rank(r), len)
            } else if c.is_some_and(is_capture_mark) {
                (Part::Capture, 1)
            } else {
                break;
            };
            parts[n] = part;
            n += 1;
            rest = &rest[len..];
        }
        use Part::{Capture as X, File as F, Rank as R};
        let (from_file, from_rank, to) = match parts[..n] {
            [F(f), R(r)] => (None, None, (f, r)),
            [X, F(f), R(r)] => {
                capture = true;
                (None, None, (f, r))
            }
            [F(a), F(f), R(r)] => (Some(a), None, (f, r)),
            [F(a), X, F(f), R(r)] => {
                capture = true;
                (Some(a), None, (f, r))
            }
            [R(a), F(f), R(r)] => (None, Some(a), (f, r)),
            [R(a), X, F(f), R(r)] => {
                capture = true;
                (None, Some(a), (f, r))
            }
            [F(a), R(b), F(f), R(r)] => (Some(a), Some(b), (f, r)),
            [F(a), R(b), X, F(f), R(r)] => {
                capture = true;
                (Some(a), Some(b), (f, r))
            }
            _ => return None,
        };
        let mut promotion = None;
        if let Some(after) = rest.strip_prefix('=') {
            let c = after.chars().next()?;
            let p = piece_letter(c)?;
            let after = &after[c.len_utf8()..];
            if after.starts_with('=') {
                return None;
            }
            promotion = Some(p);
            rest = after;
        }
        MovePattern::Piece {
            role: role.unwrap_or(crate::piece::Role::Pawn),
            to: Square::new(to.0, to.1),
            from_file,
            from_rank,
            promotion,
        }
    };
    let check = check_mark_prefix(rest).map(|(c, n)| {
        rest = &rest[n..];
        c
    });
    let glyph = match rest {
        "" => None,
        g => Some(glyph_prefix(g).filter(|x| x.len() == g.len())?),
    };
    Some(PlainSan {
        pattern,
        lettered,
        capture,
        check,
        glyph,
    })
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
        let odd = texts("♘♟o-e45x=♕", 4);
        let long = texts("Rbex18=Q+", 6);
        for text in short.iter().chain(&long).chain(&odd) {
            if let Some(plain) = parse_plain(text) {
                taken += 1;
                assert_eq!(parse_prefix(text), Ok(("", plain)), "{text:?}");
            }
        }
        assert!(taken > 1000, "{taken}");
    }
}
