//! The builder: plays a record's moves on the variant's position and
//! collects every problem it meets.
//!
//! Moves go through the same two steps as everywhere else:
//! `notation::san::parse_text` (syntax, with the check mark and glyph as
//! written) and the variant's `Rules::resolve` (meaning: legal, illegal
//! with the reason and rule, or ambiguous with the candidates), then
//! `Position::play_with_effects` and `Rules::check_mark`. Nothing here
//! knows a variant's special rules, so Swap sequences, stacks and
//! placements verify as soon as their variant resolves them.
//!
//! After an error the builder has lost the position. It collects the moves
//! that follow and, once two or more are in hand, looks for the one legal
//! move at the failed turn after which they all play; if exactly one
//! fits, it takes it and goes on (a `resync` note says so). A diagram
//! written after the error sets the position outright.

use super::lexer::{glyph_nag, is_null_move, RawDiagram};
use super::{Event, Issue, IssueKind, Location, Severity};
use crate::board::Board;
use crate::color::Color;
use crate::error::{MoveError, Span};
use crate::mv::Move;
use crate::notation::san::{self, CheckMark};
use crate::piece::{Piece, Role, Roles, Stack};
use crate::position::{Castling, Outcome, Position};
use crate::square::Square;
use crate::variant::Variant;

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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: None,
            default_variant: Variant::Chess,
            legend: Vec::new(),
            keep_moves: false,
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
        }
    }
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

/// A diagram read into squares: each square with its contents (`None`
/// for a hole, a square the diagram leaves blank) and the span of its cell.
#[derive(Clone, Debug)]
pub struct DiagramBoard {
    pub cells: Vec<(Square, Option<Stack>, Span)>,
    pub prison: Option<(Stack, Span)>,
    pub span: Span,
    pub files: usize,
    pub ranks: usize,
}

/// Where the builder stands in one line of play (the main line or a
/// variation).
#[derive(Clone, Debug)]
struct Line {
    pos: Position,
    /// Positions before each move played in this line, oldest first.
    history: Vec<Position>,
    /// The move number just read, waiting for its move.
    number: Option<(u32, bool, Span)>,
    sync: Sync,
    /// Moves written in this line since its start (played or not).
    written: usize,
    main: bool,
}

impl Line {
    /// The end of the game at the current position, by the position or by
    /// the history that led to it (`Rules::history_outcome`).
    fn outcome(&mut self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| {
            self.history.push(self.pos.clone());
            let o = self.pos.variant.rules().history_outcome(&self.history);
            self.history.pop();
            o
        })
    }
}

#[derive(Clone, Debug)]
enum Sync {
    Yes,
    /// An error at `failed`; `before` is the position before it and
    /// `following` the moves written after it.
    Lost {
        before: Box<Position>,
        history_len: usize,
        failed: Span,
        label: String,
        following: Vec<(String, Span)>,
    },
    /// No way to go on until a diagram shows the position.
    Gone,
}

struct Current {
    game: Game,
    started: bool,
    variant_tag: Option<(String, Span)>,
    fen_tag: Option<(String, Span)>,
    result_tag: Option<(String, Span)>,
    setup: Option<DiagramBoard>,
    side_hint: Option<Color>,
    first_number: Option<(u32, bool)>,
    line: Line,
    saved: Vec<Line>,
    /// A diagram after a move, checked when the next move, diagram or the
    /// end of the game shows which position it means.
    pending: Option<DiagramBoard>,
    result_written: Option<(String, Span)>,
    legend_noted: bool,
    /// Tag names with their spans, to report a repeated tag.
    tag_spans: Vec<(String, Span)>,
    coordinates_noted: bool,
    /// With `keep_moves`: the moves of the variations being read, one
    /// list a level, and comments waiting for the next move of the line.
    variation_moves: Vec<Vec<PlayedMove>>,
    waiting_comments: Vec<String>,
}

/// Plays the events of readers into [`Game`]s.
pub struct Builder {
    opts: Options,
    cur: Option<Current>,
    /// A diagram at the end of a game that does not show its position,
    /// followed at once by a new game: that game's setup.
    carried: Option<DiagramBoard>,
    count: usize,
    /// Finished games, for the caller to take.
    pub done: Vec<Game>,
}

fn label(pos: &Position) -> String {
    match pos.turn {
        Color::White => format!("{}.", pos.fullmove),
        Color::Black => format!("{}...", pos.fullmove),
    }
}

fn side(color: Color) -> &'static str {
    color.name()
}

/// A variant by a PGN `Variant` tag: names and aliases as on the command
/// line, and the names other programs write for FIDE chess.
pub fn variant_from_tag(name: &str) -> Option<Variant> {
    Variant::from_name(name).or_else(|| {
        let key: String = name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        matches!(
            key.as_str(),
            "" | "fromposition" | "normal" | "classical" | "fide"
        )
        .then_some(Variant::Chess)
    })
}

/// The known variants, for error messages.
pub fn known_variants() -> String {
    Variant::ALL
        .iter()
        .map(|v| format!("{} ({})", v.name(), v.spec().title))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Builder {
    pub fn new(opts: Options) -> Builder {
        Builder {
            opts,
            cur: None,
            carried: None,
            count: 0,
            done: Vec::new(),
        }
    }

    /// Handles one event of a reader.
    pub fn handle(&mut self, ev: Event<'_>) {
        match ev {
            Event::BeginGame { span } => self.begin(span),
            Event::Tag {
                name,
                value,
                value_span,
            } => {
                let cur = self.current(value_span);
                if let Some((_, first)) = cur
                    .tag_spans
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    // Readers differ on which value counts; the first is
                    // kept, and the reader is told.
                    let issue = Issue::warning(
                        IssueKind::Tag,
                        value_span,
                        format!("the tag {name} is given again; the first value is kept"),
                    )
                    .found(value.to_string())
                    .related(*first);
                    cur.game.issues.push(issue);
                    return;
                }
                cur.tag_spans.push((name.to_string(), value_span));
                let entry = (value.to_string(), value_span);
                match name.to_ascii_lowercase().as_str() {
                    "variant" => cur.variant_tag = Some(entry),
                    "fen" => cur.fen_tag = Some(entry),
                    "result" => cur.result_tag = Some(entry),
                    _ => {}
                }
                cur.game.tags.push((name.to_string(), value.into_owned()));
            }
            Event::MoveNumber {
                number,
                black,
                span,
            } => {
                let cur = self.current(span);
                if !cur.started {
                    cur.first_number = Some((number, black));
                }
                self.start();
                if let Some(cur) = self.cur.as_mut() {
                    cur.line.number = Some((number, black, span));
                }
            }
            Event::Move { text, span } => {
                self.current(span);
                self.start();
                if let Some(cur) = self.cur.as_mut() {
                    if cur.game.readable {
                        cur.on_move(text, span, &self.opts);
                    }
                }
            }
            Event::Nag { nag, .. } if self.opts.keep_moves => {
                if let Some(m) = self.cur.as_mut().and_then(Current::last_kept) {
                    m.nags.push(nag);
                }
            }
            Event::Comment { text, span } if self.opts.keep_moves => {
                let cur = self.current(span);
                let text = text.trim().to_string();
                match cur.last_kept() {
                    Some(m) => m.after.push(text),
                    None => cur.waiting_comments.push(text),
                }
            }
            Event::Nag { .. } | Event::Comment { .. } => {}
            Event::BeginVariation { span } => {
                self.current(span);
                self.start();
                if let Some(cur) = self.cur.as_mut() {
                    cur.begin_variation(span);
                    if self.opts.keep_moves {
                        cur.variation_moves.push(Vec::new());
                        cur.waiting_comments.clear();
                    }
                }
            }
            Event::EndVariation { .. } => {
                if let Some(cur) = self.cur.as_mut() {
                    if let Some(parent) = cur.saved.pop() {
                        cur.line = parent;
                        if let Some(moves) = cur.variation_moves.pop() {
                            cur.waiting_comments.clear();
                            if let Some(m) = cur.last_kept().filter(|_| !moves.is_empty()) {
                                m.variations.push(moves);
                            }
                        }
                    }
                }
            }
            Event::Diagram { diagram, span } => {
                let variant = self.variant_guess(span);
                let legend = self.opts.legend.clone();
                let cur = self.current(span);
                match read_diagram(
                    &diagram,
                    span,
                    variant,
                    &legend,
                    &mut cur.game.issues,
                    &mut cur.legend_noted,
                ) {
                    Some(board) => cur.on_diagram(board),
                    // A setup that cannot be read leaves no position to
                    // start from.
                    None if !cur.started => cur.game.readable = false,
                    None => {}
                }
            }
            Event::SideToMove { color, span } => {
                let cur = self.current(span);
                if !cur.started {
                    cur.side_hint = Some(color);
                }
            }
            Event::Result { text, span } => {
                self.current(span);
                self.start();
                if let Some(cur) = self.cur.as_mut() {
                    cur.on_result(text, span);
                }
            }
            Event::Issue(issue) => {
                let cur = self.current(issue.span);
                cur.game.issues.push(issue);
            }
            Event::EndGame { next_follows } => self.end(next_follows),
        }
    }

    /// Ends the game in progress, if any (at the end of the input).
    pub fn finish(&mut self) {
        if self.cur.is_some() {
            self.end(false);
        }
    }

    fn variant_guess(&mut self, span: Span) -> Variant {
        let opts_variant = self.opts.variant;
        let default = self.opts.default_variant;
        let cur = self.current(span);
        if cur.started {
            return cur.game.variant;
        }
        opts_variant
            .or_else(|| {
                cur.variant_tag
                    .as_ref()
                    .and_then(|(v, _)| variant_from_tag(v))
            })
            .unwrap_or(default)
    }

    fn begin(&mut self, span: Span) {
        if self.cur.is_some() {
            self.end(false);
        }
        self.count += 1;
        let variant = self.opts.variant.unwrap_or(self.opts.default_variant);
        let start = Position::start(variant);
        self.cur = Some(Current {
            game: Game {
                index: self.count,
                span,
                location: Location::default(),
                variant,
                tags: Vec::new(),
                start: start.clone(),
                moves: Vec::new(),
                comments: Vec::new(),
                plies: 0,
                result: None,
                end: start.clone(),
                outcome: None,
                issues: Vec::new(),
                readable: true,
            },
            started: false,
            variant_tag: None,
            fen_tag: None,
            result_tag: None,
            setup: self.carried.take(),
            side_hint: None,
            first_number: None,
            line: Line {
                pos: start,
                history: Vec::new(),
                number: None,
                sync: Sync::Yes,
                written: 0,
                main: true,
            },
            saved: Vec::new(),
            pending: None,
            result_written: None,
            legend_noted: false,
            tag_spans: Vec::new(),
            coordinates_noted: false,
            variation_moves: Vec::new(),
            waiting_comments: Vec::new(),
        });
    }

    fn current(&mut self, span: Span) -> &mut Current {
        if self.cur.is_none() {
            self.begin(span);
        }
        self.cur.as_mut().expect("a game was just begun")
    }

    /// Fixes the variant and the start position at the first movetext
    /// event: `--variant`, else the Variant tag; a setup diagram, else the
    /// FEN tag, else the variant's start.
    fn start(&mut self) {
        let opts = &self.opts;
        let Some(cur) = self.cur.as_mut() else { return };
        if cur.started {
            return;
        }
        cur.started = true;
        let variant = match (opts.variant, &cur.variant_tag) {
            (Some(v), _) => v,
            (None, Some((name, span))) => match variant_from_tag(name) {
                Some(v) => v,
                None => {
                    cur.game.readable = false;
                    cur.game.issues.push(
                        Issue::error(
                            IssueKind::Variant,
                            *span,
                            format!(
                                "unknown variant {name:?}; known variants: {}",
                                known_variants()
                            ),
                        )
                        .expected("a variant name or alias (see `postal variants`)")
                        .found(name.clone()),
                    );
                    return;
                }
            },
            (None, None) => opts.default_variant,
        };
        cur.game.variant = variant;
        let (number, black) = cur.first_number.unwrap_or((1, false));
        let start = if let Some(d) = cur.setup.take() {
            let turn = cur
                .side_hint
                .unwrap_or(if black { Color::Black } else { Color::White });
            match setup_position(variant, &d, turn, number.max(1), None) {
                Ok(p) => p,
                Err(msg) => {
                    cur.game.readable = false;
                    cur.game.issues.push(
                        Issue::error(
                            IssueKind::Setup,
                            d.span,
                            format!("the diagram cannot start a game: {msg}"),
                        )
                        .expected(format!("a position of {}", variant.spec().title)),
                    );
                    return;
                }
            }
        } else if let Some((fen, span)) = &cur.fen_tag {
            match Position::from_text(variant, fen) {
                Ok(p) => p,
                Err(e) => {
                    cur.game.readable = false;
                    let s = clip(
                        Span::new(
                            span.start + e.span.start,
                            span.start + e.span.end.max(e.span.start + 1),
                        ),
                        *span,
                    );
                    cur.game.issues.push(
                        Issue::error(
                            IssueKind::Setup,
                            s,
                            format!("cannot read the FEN tag: {}", e.message),
                        )
                        .expected(format!("a position text of {}", variant.spec().title))
                        .found(fen.clone()),
                    );
                    return;
                }
            }
        } else {
            Position::start(variant)
        };
        cur.game.start = start.clone();
        cur.game.end = start.clone();
        cur.line = Line {
            pos: start,
            history: Vec::new(),
            number: None,
            sync: Sync::Yes,
            written: 0,
            main: true,
        };
    }

    fn end(&mut self, next_follows: bool) {
        if self.cur.as_ref().is_some_and(|c| !c.started) {
            self.start();
        }
        let Some(mut cur) = self.cur.take() else {
            return;
        };
        while let Some(parent) = cur.saved.pop() {
            cur.line = parent;
        }
        cur.variation_moves.clear();
        let waiting = std::mem::take(&mut cur.waiting_comments);
        cur.game.comments.extend(waiting);
        if cur.game.readable {
            if let Some(d) = cur.pending.take() {
                if matches!(cur.line.sync, Sync::Yes) {
                    let mut issues = Vec::new();
                    let same = compare_diagram(&d, &cur.line.pos, &mut issues);
                    if !same && next_follows {
                        // Not this game's last position: the next game's
                        // start (a problem after a game, or a game after a
                        // problem's solution that is not drawn).
                        self.carried = Some(d);
                    } else {
                        cur.game.issues.extend(issues);
                    }
                }
            }
            cur.finish_line();
            cur.game.outcome = if matches!(cur.line.sync, Sync::Yes) {
                cur.line.outcome()
            } else {
                None
            };
            cur.check_result_tag();
            cur.game.end = cur.line.pos.clone();
            cur.game.plies = cur.line.written;
        }
        cur.game.result = cur
            .result_written
            .as_ref()
            .map(|(r, _)| r.clone())
            .or_else(|| cur.result_tag.as_ref().map(|(r, _)| normalize_result(r)));
        self.done.push(cur.game);
    }
}

/// `span` clipped to `outer` (a FEN error inside a tag value whose
/// escapes made it shorter than the text).
fn clip(span: Span, outer: Span) -> Span {
    let start = span.start.clamp(outer.start, outer.end);
    Span::new(start, span.end.clamp(start, outer.end.max(start)))
}

fn normalize_result(r: &str) -> String {
    match r.trim() {
        "½-½" => "1/2-1/2".to_string(),
        other => other.to_string(),
    }
}

/// `g1f3`, `e7e8q`: a move written as two squares without a separator,
/// as engines write it.
fn is_coordinate_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(u8::is_ascii_lowercase)
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    (4..=6).contains(&b.len()) && square(0) && (square(2) || square(3)) && !text.contains(['-', 'x', ':'])
}

impl Current {
    /// Keeps a move played on the current line (with `keep_moves`), the
    /// comments waiting for it before it.
    fn keep(&mut self, mut m: PlayedMove) {
        m.before = std::mem::take(&mut self.waiting_comments);
        let list = if self.line.main {
            &mut self.game.moves
        } else {
            match self.variation_moves.last_mut() {
                Some(l) => l,
                None => return,
            }
        };
        list.push(m);
    }

    /// The last move kept on the current line.
    fn last_kept(&mut self) -> Option<&mut PlayedMove> {
        if self.line.main {
            self.game.moves.last_mut()
        } else {
            self.variation_moves.last_mut()?.last_mut()
        }
    }

    fn on_move(&mut self, text: &str, span: Span, opts: &Options) {
        self.line.written += 1;
        if self.line.main {
            if let (Some(d), Sync::Yes) = (self.pending.take(), &self.line.sync) {
                compare_diagram(&d, &self.line.pos, &mut self.game.issues);
            }
        }
        match &mut self.line.sync {
            Sync::Gone => {}
            Sync::Lost { following, .. } => {
                following.push((text.to_string(), span));
                self.try_resync(false, opts);
            }
            Sync::Yes => {
                self.play(text, span, opts);
            }
        }
    }

    /// Plays one written move on the current line; on failure reports it
    /// and marks the line lost.
    fn play(&mut self, text: &str, span: Span, opts: &Options) -> bool {
        let pos = &self.line.pos;
        let at = label(pos);
        if let Some((n, black, nspan)) = self.line.number.take() {
            if n != pos.fullmove || black != (pos.turn == Color::Black) {
                let written = format!("{n}{}", if black { "..." } else { "." });
                self.game.issues.push(
                    Issue::warning(
                        IssueKind::MoveNumber,
                        nspan,
                        format!(
                            "move number {written} stands before {}'s move {at}",
                            side(pos.turn)
                        ),
                    )
                    .expected(at.clone())
                    .found(written),
                );
            }
        }
        let parsed = match san::parse_text(text) {
            Ok(p) => p,
            Err(_) if is_null_move(text) => {
                let issue = Issue::error(
                    IssueKind::UnparsableMove,
                    span,
                    format!("{text:?} is a null move (a pass, as databases and engines write one): no variant here lets a side pass, so the game cannot be followed past it"),
                )
                .expected(format!("a move for {}", side(pos.turn)))
                .found(text);
                return self.fail(issue, &at, span);
            }
            Err(e) => {
                // The caret goes under the whole token; the message says
                // where in it the trouble starts.
                let (detail, wanted) = match e.message.split_once("; expected ") {
                    Some((d, x)) => (format!(": {d}"), x.to_string()),
                    None => (
                        String::new(),
                        e.message
                            .strip_prefix("expected ")
                            .unwrap_or(&e.message)
                            .to_string(),
                    ),
                };
                let issue = Issue::error(
                    IssueKind::UnparsableMove,
                    span,
                    format!("cannot read the move {text:?}{detail}"),
                )
                .expected(wanted)
                .found(text);
                return self.fail(issue, &at, span);
            }
        };
        let rules = pos.variant.rules();
        // `Position::play_with_effects` in two steps: `Rules::resolve`
        // already returns only legal moves, so its legality check is not
        // made twice (that halves the work per move); the game-over check
        // stays.
        let mv = match rules.resolve(pos, &parsed.text) {
            Ok(mv) => mv,
            Err(e) => {
                let issue = self.move_error(e, text, span);
                return self.fail(issue, &at, span);
            }
        };
        if pos.outcome().is_some() {
            let issue = self.move_error(MoveError::illegal("the game is over"), text, span);
            return self.fail(issue, &at, span);
        }
        let after = pos.play_unchecked(&mv);
        let expected = rules.check_mark(&after);
        let found = parsed.check.map(CheckMark::as_str).unwrap_or("");
        if expected != found {
            let mark_at = text.find(['+', '#']);
            let s = match mark_at {
                Some(i) => Span::new(
                    span.start + i,
                    span.start + text.trim_end_matches(['!', '?']).len(),
                ),
                None => span,
            };
            let message = match (expected, found) {
                ("+", "") => "the move gives check but is not marked +",
                ("#", "") => "the move mates but is not marked #",
                ("#", _) => "the move mates: the mark should be #",
                ("+", _) => "the move gives check but does not mate: the mark should be +",
                (_, "#") => "the move does not mate",
                _ => "the move does not give check",
            };
            let rule = if expected == "#" || found == "#" {
                after.outcome().map(|o| o.rule).or(Some("FI-4"))
            } else {
                None
            };
            let shown = |m: &str| {
                if m.is_empty() {
                    "no mark".to_string()
                } else {
                    m.to_string()
                }
            };
            self.game.issues.push(Issue {
                at_move: Some(at.clone()),
                ..Issue::warning(IssueKind::CheckMark, s, message)
                    .expected(shown(expected))
                    .found(shown(found))
                    .rule(rule)
            });
        }
        if is_coordinate_move(text) && !self.coordinates_noted {
            self.coordinates_noted = true;
            let taken = pos.move_text(&mv);
            self.game.issues.push(
                Issue::note(
                    IssueKind::Notation,
                    span,
                    format!("{text:?} read as a coordinate move (from square, to square, promotion), taken for {taken}; later moves written so are read the same way"),
                )
                .found(taken),
            );
        }
        if opts.keep_moves {
            let mut kept = PlayedMove::new(mv, text);
            kept.nags.extend(parsed.glyph.and_then(glyph_nag));
            self.keep(kept);
        }
        let before = std::mem::replace(&mut self.line.pos, after);
        self.line.history.push(before);
        true
    }

    fn move_error(&self, e: MoveError, text: &str, span: Span) -> Issue {
        let pos = &self.line.pos;
        let at = label(pos);
        match e {
            MoveError::Syntax(p) => Issue::error(
                IssueKind::UnparsableMove,
                span,
                format!("cannot read the move {text:?}"),
            )
            .expected(p.message)
            .found(text),
            MoveError::Illegal { reason, rule } => {
                if let Some(o) = pos.outcome() {
                    return Issue::error(
                        IssueKind::IllegalMove,
                        span,
                        format!(
                            "the game is already over ({}, {})",
                            o.reason,
                            o.result.as_str()
                        ),
                    )
                    .expected("no more moves")
                    .found(text)
                    .rule(Some(o.rule));
                }
                Issue::error(
                    IssueKind::IllegalMove,
                    span,
                    format!("illegal move: {reason}"),
                )
                .expected(format!("a legal move for {} at {at}", side(pos.turn)))
                .found(text)
                .rule(rule)
            }
            MoveError::Ambiguous { candidates } => Issue::error(
                IssueKind::AmbiguousMove,
                span,
                format!("ambiguous move: could be {}", candidates.join(" or ")),
            )
            .expected(format!("one of {}", candidates.join(", ")))
            .found(text),
        }
    }

    fn fail(&mut self, mut issue: Issue, at: &str, span: Span) -> bool {
        issue.at_move = Some(at.to_string());
        self.game.issues.push(issue);
        self.line.sync = Sync::Lost {
            before: Box::new(self.line.pos.clone()),
            history_len: self.line.history.len(),
            failed: span,
            label: at.to_string(),
            following: Vec::new(),
        };
        false
    }

    /// Looks for the one legal move at the failed turn after which the
    /// moves written since all play. `force` decides with what there is
    /// (at the end of the game).
    fn try_resync(&mut self, force: bool, opts: &Options) {
        let Sync::Lost {
            before,
            failed,
            label: at,
            following,
            ..
        } = &self.line.sync
        else {
            return;
        };
        if following.is_empty() || (following.len() < 2 && !force) {
            return;
        }
        let fits: Vec<Move> = before
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let mut p = before.play_unchecked(m);
                following.iter().all(|(t, _)| {
                    match p
                        .parse_move(t)
                        .and_then(|mv| p.play(&mv).map_err(MoveError::from))
                    {
                        Ok(next) => {
                            p = next;
                            true
                        }
                        Err(_) => false,
                    }
                })
            })
            .collect();
        let n = following.len();
        match fits.as_slice() {
            [one] => {
                let taken = before.move_text(one);
                let after = before.play_unchecked(one);
                let following = following.clone();
                let note = Issue::note(
                    IssueKind::Resync,
                    *failed,
                    format!(
                        "picked up again: the move at {at} taken as {taken}, the only legal move after which the next {n} written moves are legal"
                    ),
                )
                .found(taken.clone());
                let before = before.clone();
                self.game.issues.push(note);
                self.line.history.push(*before);
                self.line.pos = after;
                self.line.sync = Sync::Yes;
                if opts.keep_moves {
                    self.keep(PlayedMove::new(one.clone(), taken));
                }
                self.line.number = None;
                for (t, s) in following {
                    if !self.play(&t, s, opts) {
                        break;
                    }
                }
            }
            [] => {
                self.game.issues.push(Issue::note(
                    IssueKind::Resync,
                    *failed,
                    format!("cannot pick the game up again: no legal move at {at} lets the moves written after it be played; they are not checked until a diagram shows the position"),
                ));
                self.line.sync = Sync::Gone;
            }
            _ if n >= 6 || force => {
                self.game.issues.push(Issue::note(
                    IssueKind::Resync,
                    *failed,
                    format!("cannot pick the game up again: {} legal moves at {at} fit the moves written after it; they are not checked until a diagram shows the position", fits.len()),
                ));
                self.line.sync = Sync::Gone;
            }
            _ => {}
        }
    }

    /// At the end of a line: a last try to pick up a lost game.
    fn finish_line(&mut self) {
        if matches!(self.line.sync, Sync::Lost { .. }) {
            let opts = Options::default();
            self.try_resync(true, &opts);
        }
    }

    fn begin_variation(&mut self, span: Span) {
        let parent = self.line.clone();
        let (pos, history, sync) = match &parent.sync {
            Sync::Yes => match parent.history.split_last() {
                Some((last, rest)) => (last.clone(), rest.to_vec(), Sync::Yes),
                None => {
                    self.game.issues.push(
                        Issue::error(
                            IssueKind::Syntax,
                            span,
                            "a variation needs a move before it to stand for",
                        )
                        .expected("a move")
                        .found("("),
                    );
                    (parent.pos.clone(), Vec::new(), Sync::Gone)
                }
            },
            // The failed move was the last one written: the variation is
            // an alternative to it, from the position before it.
            Sync::Lost {
                before,
                history_len,
                following,
                ..
            } if following.is_empty() => (
                before.as_ref().clone(),
                parent.history[..*history_len].to_vec(),
                Sync::Yes,
            ),
            _ => (parent.pos.clone(), Vec::new(), Sync::Gone),
        };
        self.saved.push(parent);
        self.line = Line {
            pos,
            history,
            number: None,
            sync,
            written: 0,
            main: false,
        };
    }

    fn on_diagram(&mut self, d: DiagramBoard) {
        if !self.started {
            // Before the first move: the last diagram sets up the game.
            self.setup = Some(d);
            return;
        }
        if !self.game.readable {
            return;
        }
        if !self.line.main {
            compare_diagram(&d, &self.line.pos, &mut self.game.issues);
            return;
        }
        match &self.line.sync {
            Sync::Yes => {
                if let Some(prev) = self.pending.take() {
                    compare_diagram(&prev, &self.line.pos, &mut self.game.issues);
                }
                self.pending = Some(d);
            }
            Sync::Lost { .. } | Sync::Gone => {
                let base = match &self.line.sync {
                    Sync::Lost { before, .. } => before.castling,
                    _ => self.line.pos.castling,
                };
                // The diagram shows the position after the last move
                // written: whose turn follows from how many were written.
                let start = &self.game.start;
                let written = self.line.written;
                let turn = if written.is_multiple_of(2) {
                    start.turn
                } else {
                    !start.turn
                };
                let black_first = (start.turn == Color::Black) as usize;
                let fullmove = start.fullmove + ((written + black_first) / 2) as u32;
                match setup_position(self.game.variant, &d, turn, fullmove, Some(base)) {
                    Ok(p) => {
                        // The history before the gap is no use for
                        // repetitions or variations any more.
                        self.line.pos = p;
                        self.line.history.clear();
                        self.line.sync = Sync::Yes;
                        self.game.issues.push(Issue::note(
                            IssueKind::Resync,
                            d.span,
                            "picked up again from this diagram",
                        ));
                    }
                    Err(msg) => self.game.issues.push(Issue::error(
                        IssueKind::Diagram,
                        d.span,
                        format!("the diagram cannot be read as a position: {msg}"),
                    )),
                }
            }
        }
    }

    fn on_result(&mut self, text: &str, span: Span) {
        if !self.line.main || !self.game.readable {
            return;
        }
        let written = normalize_result(text);
        self.result_written = Some((written.clone(), span));
        if !matches!(self.line.sync, Sync::Yes) {
            return;
        }
        if let Some(o) = self.line.outcome() {
            let right = o.result.as_str();
            if written != right {
                let issue = if written == "*" {
                    Issue::warning(
                        IssueKind::Result,
                        span,
                        format!(
                            "the game is over ({}) but the result is written *",
                            o.reason
                        ),
                    )
                } else {
                    Issue::error(
                        IssueKind::Result,
                        span,
                        format!(
                            "the result does not match the final position ({})",
                            o.reason
                        ),
                    )
                };
                self.game
                    .issues
                    .push(issue.expected(right).found(written).rule(Some(o.rule)));
            }
        }
    }

    /// The Result tag against the movetext's result and the position.
    fn check_result_tag(&mut self) {
        let Some((tag, tspan)) = self.result_tag.clone() else {
            return;
        };
        let tag = normalize_result(&tag);
        match &self.result_written {
            Some((r, _)) if *r != tag => {
                self.game.issues.push(
                    Issue::error(
                        IssueKind::Result,
                        tspan,
                        format!("the Result tag says {tag}, the movetext {r}"),
                    )
                    .expected(r.clone())
                    .found(tag),
                );
            }
            Some(_) => {}
            None => {
                if let Some(o) = &self.game.outcome {
                    if tag != o.result.as_str() && tag != "*" {
                        self.game.issues.push(
                            Issue::error(
                                IssueKind::Result,
                                tspan,
                                format!(
                                    "the result does not match the final position ({})",
                                    o.reason
                                ),
                            )
                            .expected(o.result.as_str())
                            .found(tag)
                            .rule(Some(o.rule)),
                        );
                    }
                }
            }
        }
    }
}

// ---- diagrams -------------------------------------------------------------

fn cell_stack(text: &str, legend: &[(char, char)], variant: Variant) -> Result<Stack, String> {
    if text == "." {
        return Ok(Stack::EMPTY);
    }
    let spec = variant.spec();
    let mut color = None;
    let mut roles = Roles::EMPTY;
    for c in text.chars() {
        let mapped = legend
            .iter()
            .find(|(from, _)| *from == c)
            .map(|(_, to)| *to)
            .unwrap_or(c);
        let p = Piece::from_char(mapped).ok_or_else(|| {
            let pawn = if c.is_ascii_uppercase() { 'P' } else { 'p' };
            format!("'{c}' is not a piece letter; say what it stands for with --legend {c}={pawn}")
        })?;
        if !spec.pieces.iter().any(|s| s.role == p.role) {
            return Err(format!("{} has no piece '{mapped}'", spec.title));
        }
        if color.is_some_and(|col| col != p.color) {
            return Err("a stack holds pieces of one side only".into());
        }
        color = Some(p.color);
        roles = roles.with(p.role);
    }
    if text.chars().count() > 1 && !spec.stacks {
        return Err(format!("{} has no stacks; one letter a square", spec.title));
    }
    Ok(Stack::of(color.unwrap_or(Color::White), roles))
}

/// The legend with each letter's other case added (`O=P` also maps `o`
/// to `p`, `x=p` maps `X` to `P`).
fn full_legend(legend: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = legend.to_vec();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    for &(f, t) in legend {
        let (lf, lt) = (swap(f), swap(t));
        if !out.iter().any(|(x, _)| *x == lf) {
            out.push((lf, lt));
        }
    }
    out
}

/// Reads a diagram's cells into squares with the legend; problems go to
/// `issues` and make the diagram unusable (`None`). A diagram that draws
/// `O` and no `P` is read with `O=P` (the Swap Chess page's White pawns),
/// with a note the first time in a game.
pub fn read_diagram(
    raw: &RawDiagram<'_>,
    span: Span,
    variant: Variant,
    legend: &[(char, char)],
    issues: &mut Vec<Issue>,
    noted: &mut bool,
) -> Option<DiagramBoard> {
    let mut map = full_legend(legend);
    let letters = || {
        raw.ranks
            .iter()
            .flat_map(|r| r.cells.iter())
            .chain(raw.prison.iter())
            .flat_map(|c| c.text.chars())
    };
    let has = |ch: char| letters().any(|c| c == ch);
    let mut auto = false;
    for (o, p) in [('O', 'P'), ('o', 'p')] {
        if !map.iter().any(|(f, _)| *f == o) && has(o) && !has(p) {
            map.push((o, p));
            auto = true;
        }
    }
    if auto && !*noted {
        *noted = true;
        issues.push(
            Issue::note(
                IssueKind::Legend,
                span,
                "this diagram draws pawns as O and has no P: read as P (--legend O=P)",
            )
            .found("O"),
        );
    }
    let nranks = raw.ranks.len();
    let mut cells = Vec::new();
    let mut ok = true;
    for (ri, rank) in raw.ranks.iter().enumerate() {
        let r = rank.label.unwrap_or((nranks - ri) as i16);
        let by_order = rank.cells.len() == raw.files.len();
        let mut used = vec![false; raw.files.len()];
        for (ci, cell) in rank.cells.iter().enumerate() {
            let fi = if by_order {
                Some(ci)
            } else {
                raw.files
                    .iter()
                    .position(|f| f.column == cell.column)
                    .or_else(|| {
                        raw.files
                            .iter()
                            .position(|f| f.column.abs_diff(cell.column) <= 1)
                    })
            };
            let Some(fi) = fi.filter(|&i| !used[i]) else {
                issues.push(
                    Issue::error(
                        IssueKind::Diagram,
                        cell.span,
                        "this diagram cell stands under no file letter",
                    )
                    .expected("one cell under each file letter")
                    .found(cell.text),
                );
                ok = false;
                continue;
            };
            used[fi] = true;
            let sq = Square::new(raw.files[fi].file, r);
            match cell_stack(cell.text, &map, variant) {
                Ok(st) => cells.push((sq, Some(st), cell.span)),
                Err(msg) => {
                    issues.push(
                        Issue::error(IssueKind::Diagram, cell.span, format!("{sq}: {msg}"))
                            .expected("a piece letter, a stack of them, or . for an empty square")
                            .found(cell.text),
                    );
                    ok = false;
                }
            }
        }
        for (fi, u) in used.iter().enumerate() {
            if !u {
                cells.push((Square::new(raw.files[fi].file, r), None, rank.span));
            }
        }
    }
    let prison = match &raw.prison {
        None => None,
        Some(c) => match cell_stack(c.text, &map, variant) {
            Ok(st) => Some((st, c.span)),
            Err(msg) => {
                issues.push(
                    Issue::error(IssueKind::Diagram, c.span, format!("prison: {msg}"))
                        .found(c.text),
                );
                ok = false;
                None
            }
        },
    };
    ok.then_some(DiagramBoard {
        cells,
        prison,
        span,
        files: raw.files.len(),
        ranks: nranks,
    })
}

fn show(cell: Option<Stack>) -> String {
    match cell {
        None => "no square".to_string(),
        Some(st) if st.is_empty() => ".".to_string(),
        Some(st) => st.pieces().map(|p| p.char()).collect(),
    }
}

/// Does the diagram's shape match the board's? Needed for boards that do
/// not grow; a growing board is compared square by square.
fn shape_matches(d: &DiagramBoard, board: &Board) -> bool {
    let on: Vec<Square> = d
        .cells
        .iter()
        .filter(|c| c.1.is_some())
        .map(|c| c.0)
        .collect();
    on.len() == board.square_count() && on.iter().all(|&s| board.contains(s))
}

/// Compares a diagram with a position square by square, reporting each
/// difference; true when they agree.
pub fn compare_diagram(d: &DiagramBoard, pos: &Position, issues: &mut Vec<Issue>) -> bool {
    let spec = pos.variant.spec();
    let (minf, minr, maxf, maxr) = pos.board.bounds();
    if !spec.board_grows && !shape_matches(d, &pos.board) {
        issues.push(
            Issue::error(
                IssueKind::Diagram,
                d.span,
                format!(
                    "the diagram has {}x{} squares; the board of {} has {}x{}",
                    d.files,
                    d.ranks,
                    spec.title,
                    maxf - minf + 1,
                    maxr - minr + 1
                ),
            )
            .expected(format!("{}x{}", maxf - minf + 1, maxr - minr + 1))
            .found(format!("{}x{}", d.files, d.ranks)),
        );
        return false;
    }
    let mut same = true;
    let mut differ =
        |sq: String, shows: String, has: String, span: Span, issues: &mut Vec<Issue>| {
            same = false;
            issues.push(
                Issue::error(
                    IssueKind::Diagram,
                    span,
                    format!("{sq}: diagram shows {shows}, game has {has}"),
                )
                .expected(has)
                .found(shows),
            );
        };
    for &(sq, cell, span) in &d.cells {
        let game = pos.board.get(sq);
        if cell != game {
            differ(sq.to_string(), show(cell), show(game), span, issues);
        }
    }
    for sq in pos.board.squares() {
        if !d.cells.iter().any(|c| c.0 == sq) {
            differ(
                sq.to_string(),
                "no square".into(),
                show(pos.board.get(sq)),
                d.span,
                issues,
            );
        }
    }
    if let Some((st, span)) = d.prison {
        let game = pos.board.get(Square::PRISON);
        if game != Some(st) {
            differ("prison".into(), show(Some(st)), show(game), span, issues);
        }
    }
    same
}

/// A position from a diagram: the variant's start position with the
/// diagram's board, `turn` to move, move number `fullmove`, no en passant;
/// castling where king and rook stand on their start squares (and, with
/// `castling_base`, only rights that were not lost before). Checked by the
/// variant's `Rules::validate`.
pub fn setup_position(
    variant: Variant,
    d: &DiagramBoard,
    turn: Color,
    fullmove: u32,
    castling_base: Option<Castling>,
) -> Result<Position, String> {
    let spec = variant.spec();
    let start = Position::start(variant);
    let mut board = if spec.board_grows {
        let squares: Vec<Square> = d
            .cells
            .iter()
            .filter(|c| c.1.is_some())
            .map(|c| c.0)
            .collect();
        Board::from_squares(&squares)
    } else {
        if !shape_matches(d, &start.board) {
            return Err(format!(
                "it has {}x{} squares; {} is played on {}x{}",
                d.files, d.ranks, spec.title, spec.files, spec.ranks
            ));
        }
        let mut b = start.board.clone();
        for sq in start.board.squares() {
            b.set(sq, Stack::EMPTY);
        }
        b
    };
    if start.board.has_prison() || d.prison.is_some() {
        board = board.with_prison();
        board.set(Square::PRISON, Stack::EMPTY);
    }
    for &(sq, cell, _) in &d.cells {
        if let Some(st) = cell {
            board.set(sq, st);
        }
    }
    if let Some((st, _)) = d.prison {
        board.set(Square::PRISON, st);
    }
    let mut pos = start.clone();
    pos.board = board;
    pos.turn = turn;
    pos.fullmove = fullmove.max(1);
    pos.halfmove = 0;
    pos.ep = None;
    let mut castling = Castling::NONE;
    for color in Color::ALL {
        let rank = match color {
            Color::White => 1,
            Color::Black => 8,
        };
        for (king_side, rook_file) in [(true, 8), (false, 1)] {
            let right = start.castling.get(color, king_side)
                && castling_base.is_none_or(|c| c.get(color, king_side))
                && pos.board.piece_at(Square::new(5, rank)) == Some(Piece::new(color, Role::King))
                && pos.board.piece_at(Square::new(rook_file, rank))
                    == Some(Piece::new(color, Role::Rook));
            castling.set(color, king_side, right);
        }
    }
    pos.castling = castling;
    variant.rules().validate(&pos)?;
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_tags_by_name_or_alias_ignoring_case() {
        for tag in ["Swap", "Swap Chess", "swap chess", "SWAP"] {
            assert_eq!(variant_from_tag(tag), Some(Variant::Swap), "{tag}");
        }
        assert_eq!(
            variant_from_tag("Kristensen's Game"),
            Some(Variant::Kristensen)
        );
        assert_eq!(variant_from_tag("Standard"), Some(Variant::Chess));
        assert_eq!(variant_from_tag("From Position"), Some(Variant::Chess));
        assert_eq!(
            variant_from_tag("gardner minichess"),
            Some(Variant::Gardner)
        );
        assert_eq!(variant_from_tag("Chess960"), None);
        assert!(known_variants().starts_with("chess (FIDE chess), gardner"));
    }

    #[test]
    fn legend_letters_map_both_cases() {
        let map = full_legend(&[('O', 'P'), ('x', 'n')]);
        assert!(map.contains(&('o', 'p')));
        assert!(map.contains(&('X', 'N')));
        assert_eq!(
            cell_stack("O", &map, Variant::Chess),
            Ok(Stack::single(Piece::new(Color::White, Role::Pawn)))
        );
        assert!(cell_stack("PP", &map, Variant::Chess).is_err());
        assert!(cell_stack("Z", &map, Variant::Chess).is_err());
    }
}
