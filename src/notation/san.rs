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
use crate::mv::{Move, MoveKind, MovePattern, PieceMove, SwapSequence, SwapStep};
use crate::notation::square::{file, rank, square};
use crate::piece::{Role, Roles, MOVE_ORDER};
use crate::position::Position;
use crate::square::Square;
use crate::variant::{FastLine, FastMove};
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
/// in lower case (`o-o`, as typed in mail and some web scores): whether it
/// is long, and the length read. Lower case is castling only where no
/// digit follows (`o-o5` is a pawn's move on a board of 15 files or more).
pub fn castle_prefix(text: &str) -> Option<(bool, usize)> {
    const FORMS: [(&str, bool); 6] = [
        ("O-O-O", true),
        ("0-0-0", true),
        ("o-o-o", true),
        ("O-O", false),
        ("0-0", false),
        ("o-o", false),
    ];
    if !text.starts_with(['O', '0', 'o']) {
        return None;
    }
    FORMS
        .into_iter()
        .find(|(t, _)| {
            text.starts_with(t)
                && !(t.starts_with('o')
                    && text[t.len()..].starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(|(t, long)| (long, t.len()))
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
    };
    Ok((rest, MoveText::Piece(text)))
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
        (alt((castle, swap_move, piece_move)), check_mark, glyph),
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

/// Does the piece move `m` match what `t` says? The capture mark is not
/// required to match (older texts are loose about it); everything else is.
/// A move from square to square without a letter (`b1-c3`, `g1f3`, as
/// Game Courier and engines write) is a move of whatever stands there.
pub fn piece_matches(t: &PieceText, m: &PieceMove) -> bool {
    m.to == t.to
        && (m.role == t.mover()
            || (t.roles.is_empty() && t.from_file.is_some() && t.from_rank.is_some()))
        && m.carried == t.carried()
        && t.from_file.is_none_or(|f| f == m.from.file)
        && t.from_rank.is_none_or(|r| r == m.from.rank)
        && !matches!(m.kind, MoveKind::Castle { .. })
        && t.place.is_none_or(|p| m.place == Some(p))
        && (t.promotions.is_empty() || promotions_match(&t.promotions, m))
}

/// Are the promotions written those `m` makes? One promotion is the
/// mover's (of any kind, a defined variant's too); several are a Corral
/// stack's, a multiset whichever is written first (CO-16).
fn promotions_match(written: &[Role], m: &PieceMove) -> bool {
    if m.carried_promotions.is_empty() {
        return written.len() == 1 && m.promotion == Some(written[0]);
    }
    let written = written.iter().fold(Roles::EMPTY, |r, &x| r.with(x));
    let made = match m.promotion {
        Some(p) => m.carried_promotions.with(p),
        None => m.carried_promotions,
    };
    written == made
}

fn castle_matches(long: bool, m: &PieceMove) -> bool {
    matches!(m.kind, MoveKind::Castle { .. }) && (m.to.file < m.from.file) == long
}

/// Castling written as an engine writes a king's move (`e1g1`, `e8c8`),
/// or as the king taking its own rook (`e1h1`, as engines write castling
/// in Chess960): a move without a letter from the square of the side's
/// king, on its rank, two files aside or onto one of its own rooks.
/// Whether it is long.
pub fn coordinate_castling(pos: &Position, t: &PieceText) -> Option<bool> {
    let from = t.from_square()?;
    if !t.roles.is_empty() || !t.promotions.is_empty() || t.place.is_some() {
        return None;
    }
    if !pos.variant.spec().castling || from.rank != t.to.rank {
        return None;
    }
    let own = |sq: Square, role: Role| pos.board.get(sq).is_some_and(|s| s.has(pos.turn, role));
    if !own(from, Role::King) {
        return None;
    }
    let two_aside = (t.to.file - from.file).abs() == 2;
    (two_aside || own(t.to, Role::Rook)).then_some(t.to.file < from.file)
}

/// Resolves a move text against a list of legal moves; when none matches,
/// looks at the pseudo-legal moves to say why.
pub fn resolve_in_list(pos: &Position, text: &MoveText, legal: &[Move]) -> Result<Move, MoveError> {
    if let MoveText::Piece(t) = text {
        if let Some(long) = coordinate_castling(pos, t) {
            return resolve_in_list(pos, &MoveText::Castle { long }, legal);
        }
    }
    let matches = |mv: &&Move| match (text, mv) {
        (MoveText::Piece(t), Move::Piece(m)) => piece_matches(t, m),
        (MoveText::Castle { long }, Move::Piece(m)) => castle_matches(*long, m),
        _ => false,
    };
    let mut found: Vec<&Move> = legal.iter().filter(matches).collect();
    // Where a pawn may promote or stay a pawn (a defined variant without
    // `mandatoryPawnPromotion`), no promotion written is the pawn's stay.
    if let MoveText::Piece(t) = text {
        let stays = |m: &Move| m.piece().is_some_and(|p| p.promotion.is_none());
        if found.len() > 1
            && t.promotions.is_empty()
            && found.iter().filter(|m| stays(m)).count() == 1
        {
            found.retain(|m| stays(m));
        }
    }
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(explain_illegal(pos, text)),
        many => Err(MoveError::Ambiguous {
            candidates: many.iter().map(|m| pos.move_text(m)).collect(),
        }),
    }
}

/// [`resolve_in_list`] against the shared generator's legal moves
/// ([`Position::legal_piece_moves`]), for a variant whose turns are those:
/// the same answer, found by generating only the moves of the kind the
/// text names onto the square it names.
pub fn resolve_shared(pos: &Position, text: &MoveText) -> Result<Move, MoveError> {
    if let MoveText::Piece(t) = text {
        if let Some(long) = coordinate_castling(pos, t) {
            return resolve_shared(pos, &MoveText::Castle { long });
        }
    }
    let (role, to) = match text {
        // A coordinate move without a letter names its piece by its square
        // (see `piece_matches`): only that piece's kind can match.
        MoveText::Piece(t) if t.roles.is_empty() && t.from_square().is_some() => {
            let from = t.from_square().and_then(|sq| pos.board.piece_at(sq));
            (from.map_or(Role::Pawn, |p| p.role), t.to)
        }
        MoveText::Piece(t) => (t.mover(), t.to),
        MoveText::Castle { long } => {
            let rank = match pos.turn {
                crate::color::Color::White => 1,
                crate::color::Color::Black => 8,
            };
            (Role::King, Square::new(if *long { 3 } else { 7 }, rank))
        }
        MoveText::Swap(_) => return Err(explain_illegal(pos, text)),
    };
    let Some(to) = pos.board.index(to) else {
        return Err(explain_illegal(pos, text));
    };
    let matches = |m: &PieceMove| match text {
        MoveText::Piece(t) => piece_matches(t, m),
        MoveText::Castle { long } => castle_matches(*long, m),
        MoveText::Swap(_) => false,
    };
    let mut first = None;
    let mut count = 0;
    crate::movegen::KingSafety::with(|safety| {
        pos.for_each_legal_to(safety, role, to, |c| {
            let m = pos.piece_move(&c);
            if matches(&m) {
                count += 1;
                if first.is_none() {
                    first = Some(m);
                }
            }
        })
    });
    match (count, first) {
        (1, Some(m)) => Ok(Move::Piece(m)),
        (0, _) | (_, None) => Err(explain_illegal(pos, text)),
        _ => {
            let mut all = Vec::new();
            crate::movegen::KingSafety::with(|safety| {
                pos.for_each_legal_to(safety, role, to, |c| {
                    let m = pos.piece_move(&c);
                    if matches(&m) {
                        all.push(Move::Piece(m));
                    }
                })
            });
            Err(MoveError::Ambiguous {
                candidates: all.iter().map(|m| pos.move_text(m)).collect(),
            })
        }
    }
}

/// Why no legal move matches a text: the king would be left attacked
/// (FI-3), or no piece of that kind can go there at all.
pub fn explain_illegal(pos: &Position, text: &MoveText) -> MoveError {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let side = pos.turn.name();
    match text {
        MoveText::Castle { long } => {
            let side_name = if *long { "queen side" } else { "king side" };
            if !pos.castling.get(pos.turn, !*long) {
                MoveError::illegal_by("FI-2", format!("{side} may no longer castle {side_name}"))
            } else {
                MoveError::illegal_by(
                    "FI-2",
                    format!("{side} cannot castle {side_name} now: squares between occupied, or the king in check, passing or landing on an attacked square"),
                )
            }
        }
        MoveText::Swap(_) => MoveError::illegal(format!(
            "{} has no swap sequences",
            pos.variant.spec().title
        )),
        MoveText::Piece(t) => {
            if let Some(long) = king_two_aside(pos, t) {
                // FI-2: a king moves two squares only in castling.
                return match explain_illegal(pos, &MoveText::Castle { long }) {
                    MoveError::Illegal { reason, rule } => MoveError::Illegal {
                        reason: format!("a king moves two squares only in castling, and {reason}"),
                        rule,
                    },
                    other => other,
                };
            }
            if pseudo
                .iter()
                .any(|m| matches!(m, Move::Piece(pm) if piece_matches(t, pm)))
            {
                return MoveError::illegal_by(
                    "FI-3",
                    format!("it would leave the {} king attacked", side.to_lowercase()),
                );
            }
            let role = t.mover();
            let have = pos.board.occupied().any(|(_, st)| st.has(pos.turn, role));
            if !have {
                return MoveError::illegal(format!("{side} has no {}", role.name()));
            }
            let from = match (t.from_file, t.from_rank) {
                (Some(f), Some(r)) => {
                    let sq = Square::new(f, r);
                    match pos.board.get(sq) {
                        None => return MoveError::illegal(format!("{sq} is not on the board")),
                        Some(st) if !st.has(pos.turn, role) => {
                            return MoveError::illegal(format!(
                                "there is no {} {} on {sq}",
                                side.to_lowercase(),
                                role.name()
                            ))
                        }
                        _ => format!(" on {sq}"),
                    }
                }
                _ => String::new(),
            };
            if !pos.board.contains(t.to) {
                return MoveError::illegal(format!("{} is not on the board", t.to));
            }
            let any_to = pseudo.iter().any(|m| {
                matches!(m, Move::Piece(pm) if pm.role == role && pm.to == t.to
                    && t.from_file.is_none_or(|f| f == pm.from.file)
                    && t.from_rank.is_none_or(|r| r == pm.from.rank))
            });
            if any_to {
                MoveError::illegal(format!(
                    "the {} {}{from} can move to {}, but not as written (promotion, carried pieces or placement differ)",
                    side.to_lowercase(),
                    role.name(),
                    t.to
                ))
            } else {
                MoveError::illegal(format!(
                    "no {} {}{from} can move to {}",
                    side.to_lowercase(),
                    role.name(),
                    t.to
                ))
            }
        }
    }
}

/// The move in the variant's canonical notation with its check mark.
pub fn write_move(pos: &Position, mv: &Move) -> String {
    let mut text = super::dialect(pos.variant).write_move(pos, mv);
    push_check_mark(&mut text, pos.play_unchecked(mv).check());
    text
}

/// Writes the check mark of a move that gives `check` (nothing for none).
pub fn push_check_mark(out: &mut String, check: Option<CheckMark>) {
    if let Some(c) = check {
        out.push_str(c.as_str());
    }
}

/// Several moves of one position, each as [`write_move`] writes it, in
/// time linear in their number (see `Dialect::write_moves`).
pub fn write_moves(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut texts = super::dialect(pos.variant).write_moves(pos, moves);
    for (text, mv) in texts.iter_mut().zip(moves) {
        push_check_mark(text, pos.play_unchecked(mv).check());
    }
    texts
}

/// Is the move a capture (of an enemy piece) in this position?
pub fn is_capture(pos: &Position, m: &PieceMove) -> bool {
    matches!(m.kind, MoveKind::EnPassant { .. })
        || pos
            .board
            .get(m.to)
            .is_some_and(|c| c.is_occupied() && c.color() != pos.turn)
}

fn promotion_suffix(m: &PieceMove) -> String {
    let mut s = String::new();
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(p.char());
    }
    for r in m.carried_promotions.iter_in(&MOVE_ORDER) {
        s.push('=');
        s.push(r.char());
    }
    s
}

/// SAN without check mark, disambiguated against `legal` as FIDE does
/// (file, else rank, else both).
pub fn write_san(pos: &Position, mv: &Move, legal: &[Move]) -> String {
    let m = match mv {
        Move::Swap(s) => return write_swap(s),
        Move::Piece(m) => m,
    };
    let mut s = String::new();
    write_piece_san(&mut s, m, is_capture(pos, m), |file, rank| {
        !legal.iter().filter_map(|x| x.piece()).any(|x| {
            x.role == m.role
                && x.to == m.to
                && x.from != m.from
                && x.carried == m.carried
                && file.is_none_or(|f| x.from.file == f)
                && rank.is_none_or(|r| x.from.rank == r)
        })
    });
    s
}

/// The canonical text of `m`, played on the fast line `line` to reach
/// `after`, check mark included: what [`write_move`] writes for the move
/// (a test compares the two). `alone` says the move is already known to
/// be the only legal one of its kind onto its square (found without a
/// file or rank), so that there are no rivals to look for.
pub fn write_fast(line: &FastLine, m: &FastMove, after: &FastLine, alone: bool, out: &mut String) {
    let pm = line.piece_move(m);
    // FIDE's pawns never share a step's square: one alone.
    let pawn = pm.role == Role::Pawn && pm.carried.is_empty();
    write_piece_san(out, &pm, line.captures(m), |file, rank| {
        ((alone || pawn) && file.is_none() && rank.is_none())
            || line.names_one(&MovePattern::Piece {
                role: pm.role,
                to: pm.to,
                from_file: file,
                from_rank: rank,
                promotion: None,
            })
    });
    push_check_mark(out, after.check());
}

/// The one SAN writer of a single piece's move, without check mark:
/// castling, a pawn's move (its file before a capture), or the piece's
/// letters, its origin as FIDE disambiguates it (nothing, else the file,
/// else the rank, else the square), the capture mark, the square, the
/// promotions and a Building placement. `alone(file, rank)` says whether
/// the move is the only legal one of its kind (and carried pieces) onto
/// its square from a square on that file and rank (either may be open).
fn write_piece_san(
    s: &mut String,
    m: &PieceMove,
    capture: bool,
    alone: impl Fn(Option<i16>, Option<i16>) -> bool,
) {
    use std::fmt::Write;
    if let MoveKind::Castle { .. } = m.kind {
        s.push_str(if m.to.file < m.from.file {
            "O-O-O"
        } else {
            "O-O"
        });
        return;
    }
    if m.role == Role::Pawn && m.carried.is_empty() {
        // A pawn's file before a capture; before a step too where another
        // pawn steps there (a defined variant's pawn that moves aside).
        if capture || !alone(None, None) {
            if m.from.is_algebraic() && (capture || alone(Some(m.from.file), None)) {
                s.push(m.from.file_char().unwrap_or('?'));
            } else {
                let _ = write!(s, "{}", m.from);
            }
        }
        if capture {
            s.push('x');
        }
    } else {
        s.push(m.role.char());
        for r in m.carried.iter_in(&MOVE_ORDER) {
            s.push(r.char());
        }
        if !alone(None, None) {
            // A file letter `x` would read back as a capture mark.
            let file_letter = m.from.is_algebraic() && m.from.file_char() != Some('x');
            if file_letter && alone(Some(m.from.file), None) {
                s.push(m.from.file_char().unwrap_or('?'));
            } else if m.from.is_algebraic() && alone(None, Some(m.from.rank)) {
                let _ = write!(s, "{}", m.from.rank);
            } else {
                let _ = write!(s, "{}", m.from);
            }
        }
        if capture {
            s.push('x');
        }
    }
    let _ = write!(s, "{}", m.to);
    s.push_str(&promotion_suffix(m));
    if let Some(p) = m.place {
        let _ = write!(s, " @{p}");
    }
}

/// A king's move written two files aside on its rank (`Kg1` from e1),
/// in a variant with castling: castling, long or short, as the rules see
/// it, for the message that says why it is illegal.
fn king_two_aside(pos: &Position, t: &PieceText) -> Option<bool> {
    if t.mover() != Role::King || t.roles.len() != 1 || !pos.variant.spec().castling {
        return None;
    }
    pos.board
        .occupied()
        .filter(|(_, st)| st.has(pos.turn, Role::King))
        .map(|(sq, _)| sq)
        .filter(|sq| {
            sq.rank == t.to.rank
                && (sq.file - t.to.file).abs() == 2
                && t.from_file.is_none_or(|f| f == sq.file)
                && t.from_rank.is_none_or(|r| r == sq.rank)
        })
        .map(|sq| t.to.file < sq.file)
        .next()
}

/// Long algebraic: `Ng1-f3`, `e7xd8=Q`, `QKc2-c4`, `Kc5-prison`, with the
/// placement of a Building turn after a space: `Nb1-c3 @f3`.
pub fn write_long(pos: &Position, mv: &Move) -> String {
    let m = match mv {
        Move::Swap(s) => return write_swap(s),
        Move::Piece(m) => m,
    };
    if let MoveKind::Castle { .. } = m.kind {
        return if m.to.file < m.from.file {
            "O-O-O"
        } else {
            "O-O"
        }
        .to_string();
    }
    let mut s = String::new();
    if m.role != Role::Pawn || !m.carried.is_empty() {
        s.push(m.role.char());
    }
    for r in m.carried.iter_in(&MOVE_ORDER) {
        s.push(r.char());
    }
    s.push_str(&m.from.to_string());
    s.push(if is_capture(pos, m) { 'x' } else { '-' });
    s.push_str(&m.to.to_string());
    s.push_str(&promotion_suffix(m));
    if let Some(p) = m.place {
        s.push_str(" @");
        s.push_str(&p.to_string());
    }
    s
}

/// A swap sequence with its start square: `Qb6/b1/d3=N/c4/f7`, `e4/d5`.
pub fn write_swap(s: &SwapSequence) -> String {
    let mut out = String::new();
    if s.role != Role::Pawn {
        out.push(s.role.char());
    }
    out.push_str(&s.start.to_string());
    for step in &s.steps {
        out.push('/');
        out.push_str(&step.square.to_string());
        if let Some(p) = step.promotion {
            out.push('=');
            out.push(p.char());
        }
    }
    out
}

#[cfg(test)]
mod tests;
