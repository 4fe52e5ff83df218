//! Movetext: a list of moves as people write them, move numbers optional
//! (`1. e4 e5 2. Nf3`, `1. e2-e4 e7-e5 2. Qd1/g4`, `Nb1-c3 @f3`). Used by
//! `--moves` on the command line; records have their own reader.

use crate::error::{MoveError, ParseError, Span};
use crate::mv::Move;
use crate::position::Position;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1};
use nom::combinator::recognize;
use nom::multi::many1;
use nom::{IResult, Parser};

/// One move token with its byte span in the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub span: Span,
}

fn move_number(input: &str) -> IResult<&str, &str> {
    recognize((digit1, many1(char('.')))).parse(input)
}

fn word(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(input)
}

/// Splits movetext into move tokens: move numbers (`12.`, `12...`) are
/// dropped, also when glued to the move (`1.e4`); a placement written after
/// a space (`Nb1-c3 @f3`) joins the move before it, as does a part after
/// `;` (Game Courier: `b1-c3; @f3`); results (`1-0`, `0-1`,
/// `1/2-1/2`, `*`) end the list.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out: Vec<Token> = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            break;
        }
        let start = text.len() - trimmed.len();
        let Ok((after, w)) = word(trimmed) else { break };
        rest = after;
        let (w, start) = match move_number(w) {
            Ok((tail, num)) => (tail, start + num.len()),
            Err(_) => (w, start),
        };
        if w.is_empty() {
            continue;
        }
        if matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") {
            break;
        }
        let end = start + w.len();
        // A placement, or any part after Game Courier's `;`, belongs to
        // the turn before it (and is refused there if it does not fit).
        if w.starts_with('@') || out.last().is_some_and(|p| p.text.ends_with(';')) {
            if let Some(prev) = out.last_mut() {
                prev.span.end = end;
                prev.text = &text[prev.span.start..end];
                continue;
            }
        }
        out.push(Token {
            text: w,
            span: Span::new(start, end),
        });
    }
    out
}

/// The most moves a movetext may hold. Every position after a move is
/// kept, and in a variant whose pawns step back a game need never end, so
/// without a bound a megabyte of movetext held half a gigabyte of
/// positions. The longest possible FIDE game has under 18,000 plies.
pub const MAX_PLIES: usize = 20_000;

/// Plays a movetext from a position, returning each move and the position
/// after it, or the span of the first move that fails with why. A movetext
/// of more than [`MAX_PLIES`] moves fails at once, at the first move past
/// the limit, as a syntax error.
pub fn play(pos: &Position, text: &str) -> Result<Vec<(Move, Position)>, (Span, MoveError)> {
    let tokens = tokens(text);
    if let Some(tok) = tokens.get(MAX_PLIES) {
        let message = format!("more than {MAX_PLIES} moves; split the movetext");
        let error = ParseError::new(Span::new(0, tok.text.len()), message);
        return Err((tok.span, MoveError::Syntax(error)));
    }
    let mut out = Vec::new();
    let mut cur = pos.clone();
    for tok in tokens {
        let mv = cur.parse_move(tok.text).map_err(|e| {
            let span = match e.span() {
                Some(s) => s.shift(tok.span.start),
                None => tok.span,
            };
            (span, e)
        })?;
        let next = cur.play(&mv).map_err(|e| (tok.span, MoveError::from(e)))?;
        out.push((mv, next.clone()));
        cur = next;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn numbers_and_placements() {
        let t: Vec<&str> = tokens("1. e4 e5 2.Nf3 2... Nc6 Nb1-c3 @f3 1-0 e4")
            .iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(t, vec!["e4", "e5", "Nf3", "Nc6", "Nb1-c3 @f3"]);
    }

    #[test]
    fn error_span_is_in_the_movetext() {
        let p = Position::start(Variant::Chess);
        let (span, _) = play(&p, "1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(span, Span::new(12, 15));
        assert_eq!(play(&p, "1. e4 e5 2. Nf3").unwrap().len(), 3);
    }
}
