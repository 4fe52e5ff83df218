//! Game records (DESIGN.md, "Game records"): one lexer, two readers, one
//! builder.
//!
//! - [`lexer`] cuts PGN or published text into tokens; it never judges
//!   legality.
//! - [`pgn`] and [`published`] turn tokens into [`Event`]s: the structure
//!   of a record (games, tags, move numbers, moves as written, comments,
//!   variations, diagrams, results). They do not know the rules either.
//! - [`build`]'s builder (one line of play at a time, [`line`]) plays the moves on the variant's position through
//!   `Position::parse_move`'s two steps, `play_with_effects` and
//!   `Rules::check_mark`, and collects every problem as an [`Issue`], so a
//!   variant's own notation and rules need nothing here. It gives
//!   [`game::Game`]s; [`diagram`] reads and compares the diagrams.
//! - [`verify`] drives a file through a reader and the builder, streaming
//!   PGN game by game, and renders the report; [`writer`] writes PGN, FEN,
//!   ASCII and JSON.
//!
//! The events of one game arrive in this order:
//!
//! 1. `BeginGame`.
//! 2. `Tag` for each tag pair (PGN), in file order.
//! 3. Before the first move: `Diagram` (published text; the last one sets
//!    up the position) and `SideToMove` ("Black to move").
//! 4. The movetext, in order: `MoveNumber`, `Move`, `Nag`, `Comment`,
//!    `BeginVariation` ... `EndVariation` (nested, each variation an
//!    alternative to the move just before it), `Diagram` (the position
//!    after the last move), `Warning` for stray tokens, `Result`.
//! 5. `EndGame`, saying whether another game follows at once (a published
//!    move number that goes back to 1), so the builder can carry a
//!    diagram written just before it over as that game's setup.

pub mod build;
pub mod commands;
mod current;
pub mod diagram;
pub mod game;
mod lane;
pub mod lexer;
mod line;
pub mod pgn;
pub mod published;
pub mod tags;
pub mod verify;
pub mod writer;

use crate::color::Color;
use crate::error::Span;
use lexer::RawDiagram;
use serde::Serialize;
use std::borrow::Cow;

/// What a reader found, in the order of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    BeginGame {
        span: Span,
    },
    Tag {
        name: &'a str,
        value: Cow<'a, str>,
        value_span: Span,
    },
    /// `12.` or `12...`.
    MoveNumber {
        number: u32,
        black: bool,
        span: Span,
    },
    /// A move as written, glyphs and check marks included.
    Move {
        text: &'a str,
        span: Span,
    },
    Nag {
        nag: u16,
        span: Span,
    },
    Comment {
        text: &'a str,
        span: Span,
    },
    BeginVariation {
        span: Span,
    },
    EndVariation {
        span: Span,
    },
    Diagram {
        diagram: RawDiagram<'a>,
        span: Span,
    },
    /// "White to move" / "Black to move" in published text.
    SideToMove {
        color: Color,
        span: Span,
    },
    Result {
        text: &'a str,
        span: Span,
    },
    /// A problem the reader itself found (stray token, bad tag line).
    Issue(Issue),
    EndGame {
        next_follows: bool,
    },
}

/// How serious a problem is: errors make a record unsound; warnings
/// (a wrong check mark, a stray token) and notes do not.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// The kinds of problem, one a test (see tests/records.rs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IssueKind {
    /// Not a move in any notation the program reads.
    UnparsableMove,
    /// Well formed, but not legal in the position.
    IllegalMove,
    /// More than one legal move matches.
    AmbiguousMove,
    /// A diagram square that differs from the game's position, or a
    /// diagram that cannot be read.
    Diagram,
    /// A `+`/`#` that does not match the position (a warning).
    CheckMark,
    /// A result that does not match the final position or the Result tag.
    Result,
    /// A move number that does not match the move it stands before.
    MoveNumber,
    /// A token that is neither move, number, comment nor prose, skipped.
    StrayToken,
    /// A start position (FEN tag or setup diagram) that cannot be used.
    Setup,
    /// An unknown `Variant` tag.
    Variant,
    /// A malformed tag pair, an unclosed comment or variation.
    Syntax,
    /// Verification lost track after an error and picked it up again.
    Resync,
    /// A diagram letter read through a legend.
    Legend,
    /// A repeated tag, a tag section without moves.
    Tag,
    /// A move read in a notation other than the usual ones (coordinates
    /// without a separator: `g1f3`).
    Notation,
}

impl IssueKind {
    pub fn as_str(self) -> &'static str {
        match self {
            IssueKind::UnparsableMove => "unparsable-move",
            IssueKind::IllegalMove => "illegal-move",
            IssueKind::AmbiguousMove => "ambiguous-move",
            IssueKind::Diagram => "diagram",
            IssueKind::CheckMark => "check-mark",
            IssueKind::Result => "result",
            IssueKind::MoveNumber => "move-number",
            IssueKind::StrayToken => "stray-token",
            IssueKind::Setup => "setup",
            IssueKind::Variant => "variant",
            IssueKind::Syntax => "syntax",
            IssueKind::Resync => "resync",
            IssueKind::Legend => "legend",
            IssueKind::Tag => "tag",
            IssueKind::Notation => "notation",
        }
    }
}

/// Where an issue stands in its file: line and column from 1 (the column
/// in characters, as editors count them), the width of the marked text in
/// characters, and the source line. The caret is laid out by display
/// width when it is drawn (`error::mark`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub width: usize,
    /// The source line, cut around the problem when it is longer than
    /// [`MAX_SOURCE_CHARS`] (with `…` where it is cut).
    pub source: String,
    /// The caret's column in `source` (equal to `column` unless the line
    /// was cut).
    #[serde(skip)]
    pub caret: usize,
}

/// One problem in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Issue {
    pub severity: Severity,
    pub kind: IssueKind,
    /// Byte span in the text the reader was given (a PGN game's chunk).
    #[serde(skip)]
    pub span: Span,
    #[serde(flatten)]
    pub location: Location,
    pub message: String,
    pub expected: Option<String>,
    pub found: Option<String>,
    /// The rule id that decides it (`FI-3`, `SW-9`), where one does.
    pub rule: Option<String>,
    /// The move it concerns, as `10.` or `10...`.
    #[serde(rename = "move")]
    pub at_move: Option<String>,
    /// Another place the issue concerns (where a repeated tag was first
    /// given), and its line once located.
    #[serde(skip)]
    pub related: Option<Span>,
    pub related_line: Option<usize>,
}

impl Issue {
    pub fn new(
        severity: Severity,
        kind: IssueKind,
        span: Span,
        message: impl Into<String>,
    ) -> Issue {
        Issue {
            severity,
            kind,
            span,
            location: Location::default(),
            message: message.into(),
            expected: None,
            found: None,
            rule: None,
            at_move: None,
            related: None,
            related_line: None,
        }
    }

    pub fn error(kind: IssueKind, span: Span, message: impl Into<String>) -> Issue {
        Issue::new(Severity::Error, kind, span, message)
    }

    pub fn warning(kind: IssueKind, span: Span, message: impl Into<String>) -> Issue {
        Issue::new(Severity::Warning, kind, span, message)
    }

    pub fn note(kind: IssueKind, span: Span, message: impl Into<String>) -> Issue {
        Issue::new(Severity::Note, kind, span, message)
    }

    pub fn expected(mut self, text: impl Into<String>) -> Issue {
        self.expected = Some(text.into());
        self
    }

    pub fn found(mut self, text: impl Into<String>) -> Issue {
        self.found = Some(text.into());
        self
    }

    pub fn related(mut self, span: Span) -> Issue {
        self.related = Some(span);
        self
    }

    pub fn rule(mut self, rule: Option<&str>) -> Issue {
        self.rule = rule.map(str::to_string);
        self
    }
}

/// Line, column, caret width and source line of a span.
pub fn locate(text: &str, first_line: usize, span: Span) -> Location {
    Locator::new(text, first_line).locate(span)
}

/// The most characters of a source line a [`Location`] keeps: a longer
/// line is cut around the span, with `…` where it is cut, so that a
/// report on a file of one huge line stays small.
pub const MAX_SOURCE_CHARS: usize = 160;

/// Locates spans in one forward pass over the text: spans given in order
/// of their start cost the text once in all, not once each (a span before
/// the last one located restarts from the top).
pub struct Locator<'a> {
    text: &'a str,
    first_line: usize,
    /// Where the newline count stands: the byte `at`, on line `line`
    /// (counted from 0) that starts at byte `line_start`.
    at: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str, first_line: usize) -> Locator<'a> {
        Locator {
            text,
            first_line,
            at: 0,
            line: 0,
            line_start: 0,
        }
    }

    pub fn locate(&mut self, span: Span) -> Location {
        let text = self.text;
        let start = floor_char(text, span.start.min(text.len()));
        let end = floor_char(text, span.end.clamp(start, text.len()));
        if start < self.at {
            self.at = 0;
            self.line = 0;
            self.line_start = 0;
        }
        for (i, &b) in text.as_bytes()[self.at..start].iter().enumerate() {
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.at + i + 1;
            }
        }
        self.at = start;
        let line_start = self.line_start;
        let line_end = text[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(text.len());
        let line = text[line_start..line_end].trim_end_matches('\r');
        let column = text[line_start..start].chars().count() + 1;
        let width = text[start..end.min(line_end)].chars().count().max(1);
        let (source, caret) = excerpt(line, column);
        Location {
            line: self.first_line + self.line,
            column,
            width: width.min(MAX_SOURCE_CHARS),
            source,
            caret,
        }
    }
}

/// A line cut to [`MAX_SOURCE_CHARS`] around `column`, and the column of
/// the caret in what is kept.
fn excerpt(line: &str, column: usize) -> (String, usize) {
    let total = line.chars().count();
    if total <= MAX_SOURCE_CHARS {
        return (line.to_string(), column);
    }
    let from = column.saturating_sub(1 + MAX_SOURCE_CHARS / 4);
    let kept: String = line.chars().skip(from).take(MAX_SOURCE_CHARS).collect();
    let mut out = String::new();
    let mut caret = column - from;
    if from > 0 {
        out.push('…');
        caret += 1;
    }
    out.push_str(&kept);
    if from + MAX_SOURCE_CHARS < total {
        out.push('…');
    }
    (out, caret)
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
