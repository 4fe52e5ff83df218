//! Square names: `e4`, `a10`, `(0,3)` for squares off the a-z / 1-99 grid
//! (rules/gardner-building.md), and `prison` (rules/corral.md).

use crate::square::Square;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{anychar, char, digit1, space0};
use nom::combinator::{map, map_opt, map_res, opt, recognize, verify};
use nom::sequence::delimited;
use nom::{IResult, Parser};

/// The number of a file letter, from 1: `a`..`w` (`x` is the capture
/// mark, so files past `w` are written `(f,r)`; see
/// [`Square::is_algebraic`]). The one definition of a file letter, for the
/// grammar ([`file()`]) and the plain reader (`notation::plain`).
pub fn file_number(c: char) -> Option<i16> {
    ('a'..='w')
        .contains(&c)
        .then(|| (c as u8 - b'a' + 1) as i16)
}

/// A rank number at the start of `text`: 1..99, no leading zero, not
/// followed by another digit; with the length read. The one definition of
/// a rank, for [`rank`] and the plain reader.
pub fn rank_prefix(text: &str) -> Option<(i16, usize)> {
    let digit = |i: usize| {
        text.as_bytes()
            .get(i)
            .filter(|b| b.is_ascii_digit())
            .map(|b| i16::from(b - b'0'))
    };
    match (digit(0), digit(1), digit(2)) {
        (Some(1..=9), None, _) => digit(0).map(|r| (r, 1)),
        (Some(a @ 1..=9), Some(b), None) => Some((a * 10 + b, 2)),
        _ => None,
    }
}

/// A file letter as a file number ([`file_number`]).
pub fn file(input: &str) -> IResult<&str, i16> {
    map_opt(anychar, file_number).parse(input)
}

/// A rank number 1..99 ([`rank_prefix`]).
pub fn rank(input: &str) -> IResult<&str, i16> {
    match rank_prefix(input) {
        Some((r, n)) => Ok((&input[n..], r)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Digit,
        ))),
    }
}

/// The largest file or rank number written as `(f,r)`: the furthest a
/// board may reach (`crate::limits::MAX_REACH`, past any legal game's).
/// Keeping squares read from text this small keeps square arithmetic in
/// `i16` and `(-32768,-32768)`, the prison's internal name, out of reach.
pub const MAX_COORDINATE: i16 = crate::limits::MAX_REACH;

fn signed(input: &str) -> IResult<&str, i16> {
    verify(
        map_res(recognize((opt(char('-')), digit1)), |d: &str| {
            d.parse::<i16>()
        }),
        |n: &i16| (-MAX_COORDINATE..=MAX_COORDINATE).contains(n),
    )
    .parse(input)
}

/// `(f,r)`: file and rank as integers, a = 1.
pub fn coordinates(input: &str) -> IResult<&str, Square> {
    map(
        delimited(
            (char('('), space0),
            (signed, (space0, char(','), space0), signed),
            (space0, char(')')),
        ),
        |(f, _, r)| Square::new(f, r),
    )
    .parse(input)
}

/// Any square name: algebraic, coordinates or `prison`.
pub fn square(input: &str) -> IResult<&str, Square> {
    alt((
        map((file, rank), |(f, r)| Square::new(f, r)),
        coordinates,
        map(tag("prison"), |_| Square::PRISON),
    ))
    .parse(input)
}

/// Reads a whole text as one square.
pub fn parse_square(text: &str) -> Option<Square> {
    match square(text) {
        Ok(("", s)) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form() {
        assert_eq!(parse_square("e4"), Some(Square::new(5, 4)));
        assert_eq!(parse_square("a10"), Some(Square::new(1, 10)));
        assert_eq!(parse_square("i9"), Some(Square::new(9, 9)));
        assert_eq!(parse_square("(0,3)"), Some(Square::new(0, 3)));
        assert_eq!(parse_square("( -2 , 0 )"), Some(Square::new(-2, 0)));
        assert_eq!(parse_square("(1,1)"), Some(Square::new(1, 1)));
        assert_eq!(parse_square("prison"), Some(Square::PRISON));
        assert_eq!(parse_square("e0"), None);
        assert_eq!(parse_square("e"), None);
        assert_eq!(parse_square("E4"), None);
        assert_eq!(parse_square("x1"), None);
        assert_eq!(parse_square("z5"), None);
        assert_eq!(parse_square("(24,1)"), Some(Square::new(24, 1)));
    }

    #[test]
    fn round_trip() {
        for f in -3..30 {
            for r in -3..102 {
                let s = Square::new(f, r);
                assert_eq!(parse_square(&s.to_string()), Some(s));
            }
        }
    }
}
