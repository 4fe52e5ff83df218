//! A game as built from a record: the build options, the moves played
//! and the checked game with its issues. The builder that makes it is
//! [`super::build`], one line of play `super::line`, diagrams
//! [`super::diagram`].

use super::{Issue, Location, Severity};
use crate::error::Span;
use crate::mv::Move;
use crate::notation::language::Language;
use crate::position::{Outcome, Position};
use crate::variant::Variant;

// The paths `record::game::{Builder, read_diagram, DiagramBoard, ...}` stay valid.
pub use super::build::{known_variants, variant_from_tag, Builder};
pub use super::diagram::{compare_diagram, read_diagram, setup_position, DiagramBoard};

/// How to read and build records.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--variant`: overrides any `Variant` tag.
    pub variant: Option<Variant>,
    /// The variant when neither `--variant` nor a tag says.
    pub default_variant: Variant,
    /// `--legend X=Y`: diagram letter X stands for piece letter Y (and the
    /// other case likewise).
    pub legend: Vec<(char, char)>,
    /// Keep the moves of the main line (for `convert`); verification alone
    /// does not need them.
    pub keep_moves: bool,
    /// Every move by the generic rules, none in the FIDE chess fast lane
    /// (`record/lane.rs`): for the tests that compare the two.
    pub generic_only: bool,
    /// `--language`, or the language found from the text: the piece
    /// letters moves are written with (`None`: English).
    pub language: Option<&'static Language>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: None,
            default_variant: Variant::Chess,
            legend: Vec::new(),
            keep_moves: false,
            generic_only: false,
            language: None,
        }
    }
}

/// A move as played, with what the record says about it (kept only with
/// `Options::keep_moves`, for `convert`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// The text as written in the record.
    pub written: String,
    /// Comments written before the move (at the start of a line).
    pub before: Vec<String>,
    /// Comments written after it.
    pub after: Vec<String>,
    /// NAGs after it, and the glyph written on it (`!` as 1).
    pub nags: Vec<u16>,
    /// Variations: each an alternative to this move, from the position
    /// before it.
    pub variations: Vec<Vec<PlayedMove>>,
    /// A null move (`--`, `Z0`: a pass, kept in variations as python-chess
    /// and ChessBase keep it); `mv` then means nothing.
    pub null: bool,
}

impl PlayedMove {
    pub fn new(mv: Move, written: impl Into<String>) -> PlayedMove {
        PlayedMove {
            mv,
            written: written.into(),
            before: Vec::new(),
            after: Vec::new(),
            nags: Vec::new(),
            variations: Vec::new(),
            null: false,
        }
    }

    /// A null move as written (`--`, `Z0`).
    pub fn null(written: impl Into<String>) -> PlayedMove {
        let nowhere = crate::square::Square::new(1, 1);
        PlayedMove {
            null: true,
            ..PlayedMove::new(
                crate::mv::PieceMove::new(crate::piece::Role::King, nowhere, nowhere).into(),
                written,
            )
        }
    }
}

/// The position after a null move: the other side to move, no en passant
/// capture, the clocks run on.
pub fn pass(pos: &Position) -> Position {
    let mut after = pos.clone();
    after.turn = !pos.turn;
    after.ep = None;
    after.halfmove += 1;
    if pos.turn == crate::color::Color::Black {
        after.fullmove += 1;
    }
    after
}

/// One game of a record, built and checked.
#[derive(Clone, Debug)]
pub struct Game {
    /// 1 for the first game of its file.
    pub index: usize,
    /// Where the game starts in its chunk; `location` once located.
    pub span: Span,
    pub location: Location,
    pub variant: Variant,
    pub tags: Vec<(String, String)>,
    pub start: Position,
    /// The main line's moves (kept only with `Options::keep_moves`).
    pub moves: Vec<PlayedMove>,
    /// Comments of a game without moves (with `Options::keep_moves`).
    pub comments: Vec<String>,
    /// Plies of the main line played.
    pub plies: usize,
    /// The result as written (movetext, else the Result tag).
    pub result: Option<String>,
    /// The position after the last move played.
    pub end: Position,
    /// How the game ended by the rules, if it did.
    pub outcome: Option<Outcome>,
    pub issues: Vec<Issue>,
    /// False when the game could not be read at all (unknown variant,
    /// unusable start position).
    pub readable: bool,
}

impl Game {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    pub fn count(&self, s: Severity) -> usize {
        self.issues.iter().filter(|i| i.severity == s).count()
    }

    /// Sound: readable, and no errors (warnings allowed).
    pub fn is_sound(&self) -> bool {
        self.readable && self.errors() == 0
    }
}
