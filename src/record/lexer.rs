//! The one lexer under both record readers (PGN and published text).
//!
//! It cuts text into tokens that borrow from it (copying only to unescape
//! a tag value) and never judges legality: a word is a word, whether it
//! turns out to be a move, a typo or prose is for the readers and the
//! builder to decide (pgn-reader's split, STYLE.md). Spans are byte
//! offsets in the text handed to [`Lexer::new`].
//!
//! The two modes differ where PGN and prose disagree: in PGN `(` `)` open
//! and close variations and `;` starts a comment to the end of the line; in
//! published text a parenthesis holds commentary (prose, not moves) and
//! ASCII diagrams are recognised as blocks of lines.

use crate::error::Span;
use crate::limits::MAX_NESTING;
use crate::notation::{san, square};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{map, map_res, opt, recognize};
use nom::{IResult, Parser};
use std::borrow::Cow;

/// Which grammar the text follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Pgn,
    Published,
}

/// One token and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// `[Name "value"]`; the value unescaped (`\"`, `\\`).
    Tag {
        name: &'a str,
        value: Cow<'a, str>,
        value_span: Span,
    },
    /// A line starting with `[` that is not a tag pair (PGN mode).
    BadTag(&'a str),
    /// `12.` (White's move follows) or `12...` / `12…` (Black's).
    MoveNumber {
        number: u32,
        black: bool,
    },
    /// `...` or `…` standing alone: Black's move follows.
    Ellipsis,
    /// Any other run of non-blank characters: a move, a typo or prose.
    Word(&'a str),
    /// `$n`.
    Nag(u16),
    /// `{...}`: the text between the braces.
    Comment(&'a str),
    /// `; ...` to the end of the line (PGN mode).
    LineComment(&'a str),
    /// `(...)` in published text: commentary, the text between.
    Commentary(&'a str),
    /// A `%` line (PGN escape).
    Escape(&'a str),
    /// `(` and `)` in PGN mode.
    Open,
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` (or `½-½`), and `*` in PGN mode.
    Result(&'a str),
    /// A `{` with no `}` after it: runs to the end of the text.
    Unclosed(&'a str),
    /// An ASCII diagram (published mode).
    Diagram(RawDiagram<'a>),
}

/// An ASCII diagram as written: rank lines of cell tokens with an optional
/// rank number, then a line of file labels; the Corral prison may follow on
/// a line of its own (as `render::ascii` writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawDiagram<'a> {
    pub ranks: Vec<RawRank<'a>>,
    pub files: Vec<FileLabel>,
    pub prison: Option<RawCell<'a>>,
}

/// One rank line: its cells left to right and its number, if written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRank<'a> {
    pub cells: Vec<RawCell<'a>>,
    pub label: Option<i16>,
    pub span: Span,
}

/// A cell token (`.`, `r`, `O`, `PPNB`) and its column (in characters from
/// the start of its line), by which it is matched to a file label when the
/// rank has holes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCell<'a> {
    pub text: &'a str,
    pub column: usize,
    pub span: Span,
}

/// A file label (`a`, or `(0)` for a file left of `a`) and its column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLabel {
    pub file: i16,
    pub column: usize,
    pub span: Span,
}

/// The tokens of a text, in order.
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    mode: Mode,
    /// True when `pos` is at the start of a line (before any blank).
    line_start: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str, mode: Mode) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            mode,
            line_start: true,
        }
    }

    fn token(&mut self, kind: TokenKind<'a>, start: usize, end: usize) -> Token<'a> {
        self.pos = end;
        Token {
            kind,
            span: Span::new(start, end),
        }
    }

    /// The length of the word at the start of `rest`: up to a blank or a
    /// delimiter, reading `(f,r)` squares (`Ra5-(0,5)`) as part of it.
    fn word_len(&self, rest: &str) -> usize {
        // ASCII byte by byte (most words), then by characters from the
        // first other byte on.
        let b = rest.as_bytes();
        let mut i = 0;
        while i < b.len() && b[i] < 0x80 {
            let c = b[i];
            if c == b'(' {
                if let Some(n) = coordinates_len(&rest[i..]) {
                    i += n;
                    continue;
                }
            }
            if i > 0 && self.is_word_end(c as char) {
                return i;
            }
            i += 1;
        }
        while let Some(ch) = rest[i..].chars().next() {
            if ch == '(' {
                if let Some(n) = coordinates_len(&rest[i..]) {
                    i += n;
                    continue;
                }
            }
            if i > 0 && self.is_word_end(ch) {
                break;
            }
            i += ch.len_utf8();
        }
        i
    }

    /// The second part of a turn after the move `word`, on the same line:
    /// a placement `@sq` after blanks (`Nc3 @f3`, `e3 @(0,3)`), or a part
    /// joined by `;` (Game Courier: `b1-c3; @f3`; in published text any
    /// move after `e2-e4;`, so that a part that does not fit is reported,
    /// not skipped). PGN keeps `;` for comments unless `@` follows. Returns
    /// the bytes to add to the word (0 for none).
    fn second_part_len(&self, word: &str, after: &str) -> usize {
        let blanks = |s: &str| s.len() - s.trim_start_matches([' ', '\t']).len();
        let (semicolon, at) = match self.mode {
            Mode::Pgn if after.starts_with(';') => (true, 1 + blanks(&after[1..])),
            Mode::Published if word.ends_with(';') => (true, blanks(after)),
            _ => (false, blanks(after)),
        };
        let part = &after[at..];
        let placement = part.starts_with('@');
        // Most words have no second part: look no further.
        if !(placement || (semicolon && self.mode == Mode::Published)) {
            return 0;
        }
        let part_len = self.word_len(part);
        let fits = if placement {
            part_len > 1 && (semicolon || self.mode == Mode::Pgn || is_move(word))
        } else {
            part_len > 0 && is_move(&part[..part_len])
        };
        if fits {
            at + part_len
        } else {
            0
        }
    }

    fn line_end(&self, from: usize) -> usize {
        memchr_newline(self.text, from)
    }

    fn is_word_end(&self, c: char) -> bool {
        c.is_whitespace()
            || c == '\u{feff}'
            || match self.mode {
                Mode::Pgn => matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';'),
                Mode::Published => matches!(c, '{' | '('),
            }
    }
}

fn memchr_newline(text: &str, from: usize) -> usize {
    text.as_bytes()[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| from + i)
        .unwrap_or(text.len())
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            if self.line_start {
                self.line_start = false;
                if self.mode == Mode::Published {
                    if let Some((d, end)) = diagram_block(self.text, self.pos) {
                        let start = self.pos;
                        self.line_start = true;
                        return Some(self.token(TokenKind::Diagram(d), start, end));
                    }
                }
                if self.mode == Mode::Pgn && self.text[self.pos..].starts_with('%') {
                    let start = self.pos;
                    let end = self.line_end(start);
                    return Some(self.token(
                        TokenKind::Escape(&self.text[start + 1..end]),
                        start,
                        end,
                    ));
                }
            }
            // Blanks inside a line, skipped a run at a time.
            let bytes = self.text.as_bytes();
            while bytes
                .get(self.pos)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r'))
            {
                self.pos += 1;
            }
            let rest = &self.text[self.pos..];
            let c = rest.chars().next()?;
            if c == '\n' {
                self.pos += 1;
                self.line_start = true;
                continue;
            }
            // A byte-order mark (Windows editors) counts as a blank.
            if c.is_whitespace() || c == '\u{feff}' {
                self.pos += c.len_utf8();
                continue;
            }
            let start = self.pos;
            match c {
                '[' => {
                    if let Ok((after, (name, value, vstart, vend))) = tag_pair(rest) {
                        let end = start + rest.len() - after.len();
                        let value_span = Span::new(start + vstart, start + vend);
                        return Some(self.token(
                            TokenKind::Tag {
                                name,
                                value,
                                value_span,
                            },
                            start,
                            end,
                        ));
                    }
                    if self.mode == Mode::Pgn {
                        let end = self.line_end(start);
                        let text = self.text[start..end].trim_end();
                        return Some(self.token(
                            TokenKind::BadTag(text),
                            start,
                            start + text.len(),
                        ));
                    }
                }
                '{' => {
                    return Some(match rest[1..].find('}') {
                        Some(i) => {
                            self.token(TokenKind::Comment(&rest[1..1 + i]), start, start + i + 2)
                        }
                        None => self.token(TokenKind::Unclosed(rest), start, self.text.len()),
                    });
                }
                // `(0,3)`, a square off the a-z grid, never opens a
                // variation or a commentary: it is (part of) a move.
                '(' if coordinates_len(rest).is_some() => {}
                '(' if self.mode == Mode::Pgn => {
                    return Some(self.token(TokenKind::Open, start, start + 1));
                }
                ')' if self.mode == Mode::Pgn => {
                    return Some(self.token(TokenKind::Close, start, start + 1));
                }
                '(' => {
                    if let Some(len) = commentary_len(rest) {
                        return Some(self.token(
                            TokenKind::Commentary(&rest[1..len - 1]),
                            start,
                            start + len,
                        ));
                    }
                }
                ';' if self.mode == Mode::Pgn => {
                    let end = self.line_end(start);
                    return Some(self.token(
                        TokenKind::LineComment(&self.text[start + 1..end]),
                        start,
                        end,
                    ));
                }
                '*' if self.mode == Mode::Pgn => {
                    return Some(self.token(TokenKind::Result("*"), start, start + 1));
                }
                '$' => {
                    if let Ok((after, n)) = nag(rest) {
                        let end = start + rest.len() - after.len();
                        return Some(self.token(TokenKind::Nag(n), start, end));
                    }
                }
                _ => {}
            }
            // A word: up to the next blank or delimiter, with the second
            // part of a turn glued on (`Nc3 @f3`, Game Courier's `b1-c3; @f3`).
            let mut len = self.word_len(rest);
            len += self.second_part_len(&rest[..len], &rest[len..]);
            let word = &rest[..len];
            // A move number or a result starts with a digit or `½`.
            if word.as_bytes()[0].is_ascii_digit() || word.starts_with('½') {
                if let Ok((tail, (number, black))) = move_number(word) {
                    // `12.e4`: the number alone; the move is the next token.
                    let end = start + word.len() - tail.len();
                    return Some(self.token(TokenKind::MoveNumber { number, black }, start, end));
                }
                if let Ok(("", r)) = result(word) {
                    return Some(self.token(TokenKind::Result(r), start, start + len));
                }
            }
            if word == "..." || word == "…" {
                return Some(self.token(TokenKind::Ellipsis, start, start + len));
            }
            return Some(self.token(TokenKind::Word(word), start, start + len));
        }
    }
}

// ---- token grammars (nom) ---------------------------------------------

/// The length of a `(f,r)` square at the start of `text`.
fn coordinates_len(text: &str) -> Option<usize> {
    square::coordinates(text)
        .ok()
        .map(|(rest, _)| text.len() - rest.len())
}

/// Does the word read as a move (syntax only)?
fn is_move(word: &str) -> bool {
    san::parse_text(word.trim_end_matches(';')).is_ok()
}

type TagParts<'a> = (&'a str, Cow<'a, str>, usize, usize);

/// `[Name "value"]`, returning the name, the unescaped value and the
/// value's byte range inside the quotes, relative to the input.
fn tag_pair(input: &str) -> IResult<&str, TagParts<'_>> {
    let (rest, (_, _, name, _, _)) = (
        char('['),
        space0,
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
        space0,
        char('"'),
    )
        .parse(input)?;
    let vstart = input.len() - rest.len();
    let bytes = rest.as_bytes();
    let mut i = 0;
    let mut escaped = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() => {
                escaped = true;
                i += 2;
                continue;
            }
            b'"' | b'\n' => break,
            _ => i += 1,
        }
    }
    if i >= bytes.len() || bytes[i] != b'"' {
        return Err(nom::Err::Error(nom::error::Error::new(
            rest,
            nom::error::ErrorKind::Char,
        )));
    }
    let raw = &rest[..i];
    let (after, _) = (char('"'), space0, char(']')).parse(&rest[i..])?;
    let value = if escaped {
        let mut s = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(n) = chars.next() {
                    s.push(n);
                }
            } else {
                s.push(c);
            }
        }
        Cow::Owned(s)
    } else {
        Cow::Borrowed(raw)
    };
    Ok((after, (name, value, vstart, vstart + i)))
}

/// `12.`, `12...`, `12…`, `12. ...` is two tokens. Read by hand (a move
/// number comes every other word): the digits, then dots (two or more:
/// Black's move follows) or `…`.
fn move_number(input: &str) -> IResult<&str, (u32, bool)> {
    let fail = || {
        Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Digit,
        )))
    };
    let digits = input.bytes().take_while(u8::is_ascii_digit).count();
    let Ok(number) = input[..digits].parse::<u32>() else {
        return fail();
    };
    let rest = &input[digits..];
    if let Some(after) = rest.strip_prefix('…') {
        return Ok((after, (number, true)));
    }
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 {
        return fail();
    }
    Ok((&rest[dots..], (number, dots >= 2)))
}

/// A game's result: PGN's `1-0`, `0-1`, `1/2-1/2`, and the forms of
/// printed scores and other programs (`½-½`; `1:0`, `0:1`, `½:½` in
/// German and Scandinavian sources).
fn result(input: &str) -> IResult<&str, &str> {
    alt((
        tag("1-0"),
        tag("0-1"),
        tag("1/2-1/2"),
        tag("½-½"),
        tag("1:0"),
        tag("0:1"),
        tag("½:½"),
    ))
    .parse(input)
}

fn nag(input: &str) -> IResult<&str, u16> {
    map_res(recognize((char('$'), digit1)), |s: &str| s[1..].parse()).parse(input)
}

/// The length of a parenthesised commentary at the start of `text`,
/// nesting allowed up to [`MAX_NESTING`] levels, when it closes before a
/// blank line; otherwise the parenthesis is prose punctuation. The nesting
/// limit bounds the scan from each `(`, so a text of unclosed parentheses
/// is read in linear time.
fn commentary_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut newline_run = false;
    for (i, c) in text.char_indices() {
        match c {
            '(' if depth == MAX_NESTING => return None,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            '\n' => {
                if newline_run {
                    return None;
                }
                newline_run = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            _ => {}
        }
        newline_run = false;
    }
    None
}

// ---- diagrams --------------------------------------------------------

/// A cell token: `.` or a run of letters of one case (a stack).
fn cell(input: &str) -> IResult<&str, &str> {
    alt((
        tag("."),
        take_while1(|c: char| c.is_ascii_uppercase()),
        take_while1(|c: char| c.is_ascii_lowercase()),
    ))
    .parse(input)
}

fn signed(input: &str) -> IResult<&str, i16> {
    map_res(recognize((opt(char('-')), digit1)), |s: &str| s.parse()).parse(input)
}

fn file_label(input: &str) -> IResult<&str, i16> {
    alt((
        map(
            nom::character::complete::satisfy(|c| c.is_ascii_lowercase()),
            |c| (c as u8 - b'a' + 1) as i16,
        ),
        // `(0,_)` as `render` writes a file off the grid; `(0)` as it did.
        nom::sequence::delimited(char('('), signed, alt((tag(",_)"), tag(")")))),
    ))
    .parse(input)
}

/// A rank label: its number, or `(_,0)` as `render` writes a rank off the
/// grid.
fn rank_label(input: &str) -> IResult<&str, i16> {
    alt((
        signed,
        nom::sequence::delimited(tag("(_,"), signed, char(')')),
    ))
    .parse(input)
}

/// Blank-separated tokens of a line with their byte offsets.
fn line_tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let rest = &line[pos..];
        let skip = rest.len() - rest.trim_start().len();
        let rest = &rest[skip..];
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let at = pos + skip;
        pos = at + len;
        Some((at, &rest[..len]))
    })
}

/// Is the whole token matched by the parser?
fn whole<'a, O>(p: impl Fn(&'a str) -> IResult<&'a str, O>, t: &'a str) -> Option<O> {
    match p(t) {
        Ok(("", o)) => Some(o),
        _ => None,
    }
}

fn column(line: &str, byte: usize) -> usize {
    line[..byte].chars().count()
}

/// A rank line: cells, then an optional rank number.
fn rank_line(line: &str, offset: usize) -> Option<RawRank<'_>> {
    let toks: Vec<(usize, &str)> = line_tokens(line).collect();
    let (label, cells) = match toks.split_last() {
        Some((&(_, last), rest)) if !rest.is_empty() => match whole(rank_label, last) {
            Some(n) => (Some(n), rest),
            None => (None, &toks[..]),
        },
        _ => (None, &toks[..]),
    };
    if cells.is_empty() || cells.len() > 64 {
        return None;
    }
    let mut out = Vec::with_capacity(cells.len());
    for &(at, t) in cells {
        // Several letters are a stack: piece letters only, so that a word
        // of prose is not taken for one.
        let stack_ok = t.len() == 1
            || t.chars()
                .all(|c| "KQRBNPFW".contains(c.to_ascii_uppercase()));
        if t.len() > 16 || !stack_ok || whole(cell, t).is_none() {
            return None;
        }
        out.push(RawCell {
            text: t,
            column: column(line, at),
            span: Span::new(offset + at, offset + at + t.len()),
        });
    }
    Some(RawRank {
        cells: out,
        label,
        span: Span::new(offset, offset + line.trim_end().len()),
    })
}

/// A line of file labels in ascending order: `a b c d e f g h`.
fn file_line(line: &str, offset: usize) -> Option<Vec<FileLabel>> {
    let mut out: Vec<FileLabel> = Vec::new();
    for (at, t) in line_tokens(line) {
        let file = whole(file_label, t)?;
        if out.last().is_some_and(|l| l.file + 1 != file) {
            return None;
        }
        out.push(FileLabel {
            file,
            column: column(line, at),
            span: Span::new(offset + at, offset + at + t.len()),
        });
    }
    (out.len() >= 2).then_some(out)
}

/// `prison (below c5): KQ`, as `render::ascii` writes the Corral prison.
fn prison_line(line: &str, offset: usize) -> Option<RawCell<'_>> {
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let (after, _) = (
        tag::<&str, &str, nom::error::Error<&str>>("prison"),
        take_while(|c| c != ':'),
        char(':'),
        space0,
    )
        .parse(t)
        .ok()?;
    let at = lead + t.len() - after.len();
    let text = after.trim_end();
    whole(cell, text)?;
    Some(RawCell {
        text,
        column: column(line, at),
        span: Span::new(offset + at, offset + at + text.len()),
    })
}

/// A diagram block starting at byte `start` (a line start): two or more
/// rank lines, up to two blank lines, a file-label line with at least as
/// many labels as the widest rank has cells, and an optional prison line.
/// Returns the diagram and the byte offset just after its last line.
pub fn diagram_block(text: &str, start: usize) -> Option<(RawDiagram<'_>, usize)> {
    let mut lines = LineIter { text, pos: start };
    let mut ranks = Vec::new();
    let mut blank = 0;
    let files = loop {
        let (off, line) = lines.next()?;
        if line.trim().is_empty() {
            if ranks.len() < 2 || blank == 2 {
                return None;
            }
            blank += 1;
            continue;
        }
        if blank == 0 {
            if let Some(r) = rank_line(line, off) {
                ranks.push(r);
                continue;
            }
        }
        if ranks.len() < 2 {
            return None;
        }
        break file_line(line, off)?;
    };
    let widest = ranks.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    if files.len() < widest {
        return None;
    }
    let mut end = lines.pos;
    let mut prison = None;
    let mut look = LineIter { text, pos: end };
    for _ in 0..2 {
        match look.next() {
            Some((_, l)) if l.trim().is_empty() => continue,
            Some((off, l)) => {
                if let Some(p) = prison_line(l, off) {
                    prison = Some(p);
                    end = look.pos;
                }
                break;
            }
            None => break,
        }
    }
    Some((
        RawDiagram {
            ranks,
            files,
            prison,
        },
        end,
    ))
}

/// Lines with their start offsets, without the newline (and `\r`).
struct LineIter<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for LineIter<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let end = memchr_newline(self.text, start);
        self.pos = if end < self.text.len() { end + 1 } else { end };
        Some((start, self.text[start..end].trim_end_matches('\r')))
    }
}

/// Splits glued standalone glyphs: `!`, `?`, `!!`, `??`, `!?`, `?!` as
/// their NAG numbers (1 to 6), for a word that is only a glyph.
pub fn glyph_nag(word: &str) -> Option<u16> {
    // Every word of a score is asked: the move glyphs begin with `!` or
    // `?`, and are the first six of the table.
    if !word.starts_with(['!', '?']) {
        return None;
    }
    NAGS[..6]
        .iter()
        .find(|(_, glyph, _)| *glyph == word)
        .map(|(n, _, _)| *n)
}

/// The standard NAGs (PGN standard, section 10) with the glyph printed
/// scores use and their meaning; the move glyphs `!` .. `?!` are 1 to 6.
pub const NAGS: &[(u16, &str, &str)] = &[
    (1, "!", "a good move"),
    (2, "?", "a poor move"),
    (3, "!!", "a very good move"),
    (4, "??", "a very poor move"),
    (5, "!?", "a speculative move"),
    (6, "?!", "a questionable move"),
    (7, "□", "a forced move"),
    (8, "□", "the only move"),
    (10, "=", "a drawish position"),
    (11, "=", "equal chances, quiet position"),
    (12, "=", "equal chances, active position"),
    (13, "∞", "an unclear position"),
    (14, "+=", "White has a slight advantage"),
    (15, "=+", "Black has a slight advantage"),
    (16, "±", "White has a moderate advantage"),
    (17, "∓", "Black has a moderate advantage"),
    (18, "+−", "White has a decisive advantage"),
    (19, "−+", "Black has a decisive advantage"),
    (20, "+−", "White has a crushing advantage"),
    (21, "−+", "Black has a crushing advantage"),
    (22, "⨀", "White is in zugzwang"),
    (23, "⨀", "Black is in zugzwang"),
    (32, "⟳", "White has a development advantage"),
    (33, "⟳", "Black has a development advantage"),
    (36, "↑", "White has the initiative"),
    (37, "↑", "Black has the initiative"),
    (40, "→", "White has the attack"),
    (41, "→", "Black has the attack"),
    (44, "=/∞", "White has compensation for the material"),
    (45, "=/∞", "Black has compensation for the material"),
    (132, "⇆", "White has counterplay"),
    (133, "⇆", "Black has counterplay"),
    (138, "⊕", "White is in time trouble"),
    (139, "⊕", "Black is in time trouble"),
    (140, "∆", "with the idea"),
    (146, "N", "a novelty"),
];

/// The glyph and meaning of NAG `n`, where the standard gives one.
pub fn nag_glyph(n: u16) -> Option<(&'static str, &'static str)> {
    NAGS.iter()
        .find(|(k, _, _)| *k == n)
        .map(|&(_, glyph, meaning)| (glyph, meaning))
}

/// ChessBase's NAGs beyond the standard's 139 (Wikipedia, "Numeric
/// Annotation Glyphs"), for pages that show them: the symbols its books
/// print. 220 and 221 ask for a diagram, which a page draws instead.
pub const CHESSBASE_NAGS: &[(u16, &str, &str)] = &[
    (141, "∇", "aimed against"),
    (142, "⌓", "better is"),
    (143, "≤", "worse is"),
    (144, "=", "equivalent is"),
    (145, "RR", "editorial comment"),
    (220, "◻", "diagram"),
    (221, "◼", "diagram from Black's side"),
    (238, "○", "space advantage"),
    (239, "⇔", "file"),
    (240, "⇗", "diagonal"),
    (241, "⊞", "centre"),
    (242, "⟫", "kingside"),
    (243, "⟪", "queenside"),
    (244, "✕", "weak point"),
    (245, "⊥", "ending"),
];

/// A NAG's symbol and meaning for a reader: the standard's
/// ([`nag_glyph`]), else ChessBase's ([`CHESSBASE_NAGS`]).
pub fn nag_symbol(n: u16) -> Option<(&'static str, &'static str)> {
    nag_glyph(n).or_else(|| {
        CHESSBASE_NAGS
            .iter()
            .find(|(k, _, _)| *k == n)
            .map(|&(_, glyph, meaning)| (glyph, meaning))
    })
}

/// `e.p.` after an en passant capture, as older texts write it (also
/// `ep`, as typed): a remark, not a move.
pub fn is_en_passant_mark(word: &str) -> bool {
    matches!(word, "e.p." | "e.p" | "ep." | "ep")
}

/// A null move, a pass as databases and engines write it: `--`, `Z0`,
/// `0000`.
pub fn is_null_move(word: &str) -> bool {
    matches!(
        word.trim_end_matches(['+', '#', '!', '?']),
        "--" | "Z0" | "0000"
    )
}

/// A word that is a whole number (a stray token inside a score).
pub fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests;
