//! The builder: plays a record's moves on the variant's position and
//! collects every problem it meets.
//!
//! Moves go through the same two steps as everywhere else:
//! `notation::san::parse_text` (syntax, with the check mark and glyph as
//! written) and the variant's `Dialect::resolve` (meaning: legal, illegal
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

use super::current::{normalize_result, Current};
use super::diagram::{compare_diagram, read_diagram, setup_position, DiagramBoard};
use super::game::{Game, Options};
use super::line::{History, Line, Sync};
use super::{Event, Issue, IssueKind, Location};
use crate::color::Color;
use crate::error::Span;
use crate::position::Position;
use crate::variant::{FastLine, Variant};

/// Plays the events of readers into [`Game`]s.
pub struct Builder {
    opts: Options,
    cur: Option<Current>,
    /// A diagram at the end of a game that does not show its position,
    /// followed at once by a new game: that game's setup.
    carried: Option<DiagramBoard>,
    count: usize,
    /// Positions no longer used, kept for the next game's history so that
    /// playing a move allocates nothing.
    spare: Vec<Position>,
    /// The fast lane's trail ([`Line::take_trail`]), emptied, for the next game.
    trail: Vec<FastLine>,
    /// Finished games, for the caller to take.
    pub done: Vec<Game>,
}

/// Most positions kept in [`Builder::spare`]: a long game's worth.
const SPARE: usize = 1024;

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
            spare: Vec::new(),
            trail: Vec::new(),
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
                // `tag_spans[i]` is where `game.tags[i]` was written.
                if let Some(i) = cur
                    .game
                    .tags
                    .iter()
                    .position(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    // Readers differ on which value counts; the first is
                    // kept, and the reader is told.
                    let issue = Issue::warning(
                        IssueKind::Tag,
                        value_span,
                        format!("the tag {name} is given again; the first value is kept"),
                    )
                    .found(value.to_string())
                    .related(cur.tag_spans[i]);
                    cur.game.issues.push(issue);
                    return;
                }
                cur.tag_spans.push(value_span);
                let slot = if name.eq_ignore_ascii_case("variant") {
                    Some(&mut cur.variant_tag)
                } else if name.eq_ignore_ascii_case("fen") {
                    Some(&mut cur.fen_tag)
                } else if name.eq_ignore_ascii_case("result") {
                    Some(&mut cur.result_tag)
                } else {
                    None
                };
                if let Some(slot) = slot {
                    *slot = Some((value.to_string(), value_span));
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
            line: Line::new(start, History::default(), Sync::Yes, true)
                .with_trail(std::mem::take(&mut self.trail)),
            saved: Vec::new(),
            pending: None,
            result_written: None,
            legend_noted: false,
            spare: std::mem::take(&mut self.spare),
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
        let trail = cur.line.take_trail();
        cur.line = Line::new(start, History::default(), Sync::Yes, true).with_trail(trail);
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
                    let same = compare_diagram(&d, cur.line.pos(), &mut issues);
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
            cur.game.end = cur.line.pos().clone();
            cur.game.plies = cur.line.written;
        }
        cur.game.result = cur
            .result_written
            .as_ref()
            .map(|(r, _)| r.clone())
            .or_else(|| cur.result_tag.as_ref().map(|(r, _)| normalize_result(r)));
        self.spare = std::mem::take(&mut cur.spare);
        let room = SPARE.saturating_sub(self.spare.len());
        self.trail = cur.line.take_trail();
        cur.line.recycle(&mut self.spare, room);
        self.done.push(cur.game);
    }
}

/// `span` clipped to `outer` (a FEN error inside a tag value whose
/// escapes made it shorter than the text).
fn clip(span: Span, outer: Span) -> Span {
    let start = span.start.clamp(outer.start, outer.end);
    Span::new(start, span.end.clamp(start, outer.end.max(start)))
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
}
