//! Move text: one grammar, read with `nom`, for every form the variants use
//! (DESIGN.md, "Notation"):
//!
//! - SAN `Nf3`, `exd5`, `e8=Q`, `O-O`, with FIDE disambiguation;
//! - long algebraic `Ng1-f3`, `e2-e4`, captures with `x` or `:`
//!   (`Nd5:c7`), and the short captures of older texts `R:c7`, `h:g7`;
//! - swap sequences `Qb6/b1/d3=N/c4/f7`, `e4/d5` (rules/swap.md);
//! - placements `Nb1-c3 @f3` (rules/gardner-building.md);
//! - stack moves `QKc2-c4`, `Kc5-prison`, `=Q=N` (rules/corral.md);
//! - suffixes `+`, `#`, `++`, and the glyphs `!`, `?`, `!!`, `??`, `!?`, `?!`.
//!
//! Reading is in two steps, as in shakmaty: [`parse_text`] is syntax only
//! (a [`ParsedMove`]); resolving it against a position (the variant's
//! `Dialect::resolve`) gives a legal [`Move`] or says why there is none.

use crate::error::{MoveError, ParseError, Span};
use crate::mv::{Move, SwapStep};
use crate::notation::square::{file, rank, square};
use crate::piece::{Role, Roles};
use crate::position::Position;
use crate::square::Square;
use nom::branch::alt;
use nom::character::complete::{anychar, char, satisfy, space0};
use nom::combinator::{map, map_opt, opt, success};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

pub use crate::position::CheckMark;

/// `+` or `#` (also `++` when read) after a move.
impl CheckMark {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckMark::Check => "+",
            CheckMark::Mate => "#",
        }
    }
}

/// A piece move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceText {
    /// Letters before the squares: the mover, then carried pieces (CO-8).
    /// Empty for a pawn written without a letter.
    pub roles: Vec<Role>,
    pub from_file: Option<i16>,
    pub from_rank: Option<i16>,
    /// Written with `x` or `:`.
    pub capture: bool,
    pub to: Square,
    /// `=X` promotions, the mover's first (CO-16 for several).
    pub promotions: Vec<Role>,
    /// `@sq`: the square a Building Chess turn adds.
    pub place: Option<Square>,
    /// A drop from the hand, `N@f3` (`@e4` or `P@e4` for a pawn): the
    /// piece, no origin, the square.
    pub drop: bool,
}

impl PieceText {
    /// The mover's kind (a pawn when no letter is written).
    pub fn mover(&self) -> Role {
        self.roles.first().copied().unwrap_or(Role::Pawn)
    }

    /// The carried pieces named after the mover.
    pub fn carried(&self) -> Roles {
        self.roles
            .iter()
            .skip(1)
            .fold(Roles::EMPTY, |r, &x| r.with(x))
    }

    pub fn from_square(&self) -> Option<Square> {
        match (self.from_file, self.from_rank) {
            (Some(f), Some(r)) => Some(Square::new(f, r)),
            _ => None,
        }
    }
}

/// A swap sequence as written: an optional piece letter and the squares.
/// Whether the first square is P1's start or its first partner is decided
/// against the position (rules/swap.md, notation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapText {
    pub role: Option<Role>,
    pub squares: Vec<SwapStep>,
}

/// What the text of a move says, before it is checked against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Castle { long: bool },
    Piece(PieceText),
    Swap(SwapText),
}

/// A parsed move with its suffixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    pub text: MoveText,
    pub check: Option<CheckMark>,
    /// `!`, `?`, `!!`, `??`, `!?` or `?!`.
    pub glyph: Option<&'static str>,
}

/// A piece letter: the kind of piece an upper-case letter names (`N` of
/// `Nf3`, `Q` of `e8=Q`). With [`is_capture_mark`], [`check_mark_prefix`],
/// [`glyph_prefix`], [`castle_prefix`] and the squares of
/// `notation::square`, the one definition of each part of a move's text,
/// read by this grammar and by the plain reader (`notation::plain`) alike.
/// The figurines of either side (`♘f3`, `♞c6`, as typeset scores and
/// ChessBase's figurine output write them) name their piece kind too.
pub fn piece_letter(c: char) -> Option<Role> {
    if c.is_ascii_uppercase() {
        // Any letter: a defined variant names its pieces as it likes
        // (Capablanca's `A`, `C`); the position says whether it has one.
        return Role::from_letter(c);
    }
    FIGURINES
        .iter()
        .find(|(_, white, black)| c == *white || c == *black)
        .map(|(role, _, _)| *role)
}

/// The figurines of FIDE's pieces, White's and Black's.
const FIGURINES: [(Role, char, char); 6] = [
    (Role::King, '♔', '♚'),
    (Role::Queen, '♕', '♛'),
    (Role::Rook, '♖', '♜'),
    (Role::Bishop, '♗', '♝'),
    (Role::Knight, '♘', '♞'),
    (Role::Pawn, '♙', '♟'),
];

/// A move's text with figurines for its piece letters (`♘f3`, `e8=♕`),
/// as typeset scores print them: one set, White's outlines, for both
/// sides. Letters of pieces without a figurine (`W`, `F`) stay.
pub fn with_figurines(text: &str) -> String {
    text.chars()
        .map(|c| {
            let figurine = c
                .is_ascii_uppercase()
                .then(|| Role::from_char(c))
                .flatten()
                .filter(|&r| r != Role::Pawn)
                .and_then(|r| FIGURINES.iter().find(|(role, _, _)| *role == r))
                .map(|(_, white, _)| *white);
            figurine.unwrap_or(c)
        })
        .collect()
}

/// A capture mark between squares: `x`, or `:` in older texts.
pub fn is_capture_mark(c: char) -> bool {
    matches!(c, 'x' | ':')
}

/// The check marks as read, longest first: `++` (mate, in older texts),
/// `#` and `+`.
const CHECK_MARKS: [(&str, CheckMark); 3] = [
    ("++", CheckMark::Mate),
    ("#", CheckMark::Mate),
    ("+", CheckMark::Check),
];

/// The check mark at the start of `text`, with its length.
pub fn check_mark_prefix(text: &str) -> Option<(CheckMark, usize)> {
    if !text.starts_with(['+', '#']) {
        return None;
    }
    CHECK_MARKS
        .iter()
        .find(|(t, _)| text.starts_with(t))
        .map(|&(t, c)| (c, t.len()))
}

/// The move glyphs (annotation symbols), longest first.
const GLYPHS: [&str; 6] = ["!!", "??", "!?", "?!", "!", "?"];

/// The glyph at the start of `text`.
pub fn glyph_prefix(text: &str) -> Option<&'static str> {
    GLYPHS.into_iter().find(|g| text.starts_with(g))
}

/// Castling at the start of `text`, `O-O-O` or `O-O`, also with zeros or
/// in lower case (`o-o`, as typed in mail and some web scores) and with
/// typeset dashes (`0–0`, [`is_castle_dash`]): whether it is long, and
/// the length read in bytes. Lower case is castling only where no
/// digit follows (`o-o5` is a pawn's move on a board of 15 files or more).
pub fn castle_prefix(text: &str) -> Option<(bool, usize)> {
    let mut chars = text.char_indices();
    let letter = match chars.next() {
        Some((_, c @ ('O' | '0' | 'o'))) => c,
        _ => return None,
    };
    // `O-O`, then `-O` again for the long side; the dash as typed or as
    // typeset (`0–0`, `0—0`). `ends[0]` ends the short form, `ends[1]`
    // the long one.
    let mut ends = [0; 2];
    let mut n = 0;
    while n < 2 {
        match (chars.next(), chars.next()) {
            (Some((_, d)), Some((i, c))) if is_castle_dash(d) && c == letter => {
                ends[n] = i + c.len_utf8();
                n += 1;
            }
            _ => break,
        }
    }
    // Longest first; in lower case, not where a digit follows.
    ends[..n]
        .iter()
        .enumerate()
        .rev()
        .find(|&(_, &end)| {
            !(letter == 'o' && text[end..].starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(|(i, &end)| (i == 1, end))
}

/// The dashes castling is written with: the hyphen-minus as typed, and
/// the hyphen, figure dash, en dash, em dash and minus sign of typeset
/// scores.
pub fn is_castle_dash(c: char) -> bool {
    matches!(
        c,
        '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}'
    )
}

/// A `nom` parser of what `read` reads at the start of its input.
fn prefix<T>(read: impl Fn(&str) -> Option<(T, usize)>) -> impl Fn(&str) -> IResult<&str, T> {
    move |input| match read(input) {
        Some((value, n)) => Ok((&input[n..], value)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        ))),
    }
}

fn role_letter(input: &str) -> IResult<&str, Role> {
    map_opt(anychar, piece_letter).parse(input)
}

fn promotion(input: &str) -> IResult<&str, Vec<Role>> {
    alt((
        many1(preceded(char('='), role_letter)),
        map(delimited(char('('), role_letter, char(')')), |r| vec![r]),
        map(role_letter, |r| vec![r]),
        success(Vec::new()),
    ))
    .parse(input)
}

fn separator(input: &str) -> IResult<&str, bool> {
    map(satisfy(|c| c == '-' || is_capture_mark(c)), |c| c != '-').parse(input)
}

type Origin = (Option<i16>, Option<i16>, bool, Square);

fn squares_part(input: &str) -> IResult<&str, Origin> {
    alt((
        map((square, separator, square), |(f, c, t)| {
            (Some(f.file), Some(f.rank), c, t)
        }),
        map((square, square), |(f, t)| {
            (Some(f.file), Some(f.rank), false, t)
        }),
        // Before the file alternative, so that the `x` of `Rxd1` is read
        // as a capture mark and not as a file letter.
        map((separator, square), |(c, t)| (None, None, c, t)),
        map((file, opt(separator), square), |(f, c, t)| {
            (Some(f), None, c.unwrap_or(false), t)
        }),
        map((rank, opt(separator), square), |(r, c, t)| {
            (None, Some(r), c.unwrap_or(false), t)
        }),
        map((opt(separator), square), |(c, t)| {
            (None, None, c.unwrap_or(false), t)
        }),
    ))
    .parse(input)
}

/// `@f3` after the move, after blanks or Game Courier's `;` joining the
/// parts of a turn (`b1-c3; @f3`).
fn placement(input: &str) -> IResult<&str, Option<Square>> {
    opt(preceded(
        (space0, opt((char(';'), space0)), char('@'), space0),
        square,
    ))
    .parse(input)
}

/// The promotion of a coordinate move as engines write it: `e7e8q`.
fn coordinate_promotion(input: &str) -> IResult<&str, Vec<Role>> {
    let role = |c: char| Role::from_letter(c).filter(|&r| r != Role::Pawn);
    map(
        satisfy(move |c| c.is_ascii_lowercase() && role(c).is_some()),
        move |c| role(c).into_iter().collect(),
    )
    .parse(input)
}

fn piece_move(input: &str) -> IResult<&str, MoveText> {
    let (rest, roles) = many0(role_letter).parse(input)?;
    let (rest, (from_file, from_rank, capture, to)) = squares_part(rest)?;
    let coordinates = roles.is_empty() && from_file.is_some() && from_rank.is_some();
    let (rest, promotions) = if coordinates {
        alt((coordinate_promotion, promotion)).parse(rest)?
    } else {
        promotion(rest)?
    };
    let (rest, place) = placement(rest)?;
    let text = PieceText {
        roles,
        from_file,
        from_rank,
        capture,
        to,
        promotions,
        place,
        drop: false,
    };
    Ok((rest, MoveText::Piece(text)))
}

/// A drop from the hand as Fairy-Stockfish and lichess write it: `N@f3`,
/// `P@e4` (or `@e4` for a pawn); one dropped promoted with what it
/// becomes, `L@c3=G`.
fn drop_move(input: &str) -> IResult<&str, MoveText> {
    map(
        (opt(role_letter), char('@'), square, promotion),
        |(role, _, to, promotions)| {
            MoveText::Piece(PieceText {
                roles: role.into_iter().collect(),
                from_file: None,
                from_rank: None,
                capture: false,
                to,
                promotions,
                place: None,
                drop: true,
            })
        },
    )
    .parse(input)
}

fn swap_step(input: &str) -> IResult<&str, SwapStep> {
    map(
        (square, opt(preceded(char('='), role_letter))),
        |(sq, p)| SwapStep {
            square: sq,
            promotion: p,
        },
    )
    .parse(input)
}

fn swap_move(input: &str) -> IResult<&str, MoveText> {
    map(
        (
            opt(role_letter),
            swap_step,
            many1(preceded(char('/'), swap_step)),
        ),
        |(role, first, rest)| {
            let mut squares = vec![first];
            squares.extend(rest);
            MoveText::Swap(SwapText { role, squares })
        },
    )
    .parse(input)
}

fn castle(input: &str) -> IResult<&str, MoveText> {
    map(prefix(castle_prefix), |long| MoveText::Castle { long }).parse(input)
}

fn check_mark(input: &str) -> IResult<&str, Option<CheckMark>> {
    opt(prefix(check_mark_prefix)).parse(input)
}

fn glyph(input: &str) -> IResult<&str, Option<&'static str>> {
    opt(prefix(|t| glyph_prefix(t).map(|g| (g, g.len())))).parse(input)
}

/// Parses a move with its suffixes from the start of `input`, leaving the
/// rest (for readers that scan running text).
pub fn parse_prefix(input: &str) -> IResult<&str, ParsedMove> {
    map(
        (
            alt((castle, swap_move, drop_move, piece_move)),
            check_mark,
            glyph,
        ),
        |(text, check, glyph)| ParsedMove { text, check, glyph },
    )
    .parse(input)
}

/// Parses a whole text as one move. Spans in errors are byte offsets in
/// `text`.
pub fn parse_text(text: &str) -> Result<ParsedMove, ParseError> {
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    if body.is_empty() {
        return Err(ParseError::new(
            Span::new(0, text.len()),
            "expected a move, found nothing",
        ));
    }
    if let Some(parsed) = super::plain::parse_plain(body) {
        return Ok(parsed);
    }
    let expected =
        "expected a move such as Nf3, e2-e4, exd5, e8=Q, O-O, Qd1/g4, QKc2-c4 or Nb1-c3 @f3";
    match parse_prefix(body) {
        Ok(("", parsed)) => Ok(parsed),
        Ok((rest, _)) => {
            let at = lead + body.len() - rest.len();
            let message = match rest.trim_start().strip_prefix(';') {
                // Game Courier joins the parts of one turn with `;`.
                Some(part) => format!(
                    "`;` joins the parts of one turn, and {:?} is no part of a turn: only a Building Chess turn has a second part, the square it adds (`Nb1-c3; @f3`); write one move a turn",
                    part.trim()
                ),
                None => format!("unexpected {rest:?} after the move"),
            };
            Err(ParseError::new(
                Span::new(at, lead + body.len()),
                format!("{message}; {expected}"),
            ))
        }
        Err(_) => Err(ParseError::new(
            Span::new(lead, lead + body.len()),
            expected.to_string(),
        )),
    }
}

/// Reads a move text and resolves it against the position.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let parsed = parse_text(text).map_err(MoveError::Syntax)?;
    super::dialect(pos.variant).resolve(pos, &parsed.text)
}

mod resolve;
mod write;

pub use resolve::{coordinate_castling, explain_illegal, piece_matches, resolve, resolve_in_list};
pub use write::{
    is_capture, push_check_mark, write_fast, write_long, write_move, write_moves, write_san,
    write_swap,
};

#[cfg(test)]
mod tests;
