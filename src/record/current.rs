//! Where the builder stands in a game ([`Current`]): the moves of its
//! current line played and checked, the resync after an error, diagrams
//! after a move, and the result.

use super::diagram::{compare_diagram, setup_position, DiagramBoard};
use super::game::{Game, Options, PlayedMove};
use super::lexer::{glyph_nag, is_null_move};
use super::line::{History, Line, Sync};
use super::{Issue, IssueKind};
use crate::color::Color;
use crate::error::{MoveError, Span};
use crate::limits::MAX_PLIES;
use crate::mv::Move;
use crate::notation::movetext::move_number;
use crate::notation::san::{self, CheckMark};
use crate::position::Position;

pub(super) struct Current {
    pub(super) game: Game,
    pub(super) started: bool,
    pub(super) variant_tag: Option<(String, Span)>,
    pub(super) fen_tag: Option<(String, Span)>,
    pub(super) result_tag: Option<(String, Span)>,
    pub(super) setup: Option<DiagramBoard>,
    pub(super) side_hint: Option<Color>,
    pub(super) first_number: Option<(u32, bool)>,
    pub(super) line: Line,
    pub(super) saved: Vec<Line>,
    /// A diagram after a move, checked when the next move, diagram or the
    /// end of the game shows which position it means.
    pub(super) pending: Option<DiagramBoard>,
    pub(super) result_written: Option<(String, Span)>,
    pub(super) legend_noted: bool,
    /// Positions to copy into instead of allocating (see `Builder`).
    pub(super) spare: Vec<Position>,
    /// Where each of `game.tags` was written (its value), to report a
    /// repeated tag.
    pub(super) tag_spans: Vec<Span>,
    pub(super) coordinates_noted: bool,
    /// With `keep_moves`: the moves of the variations being read, one
    /// list a level, and comments waiting for the next move of the line.
    pub(super) variation_moves: Vec<Vec<PlayedMove>>,
    pub(super) waiting_comments: Vec<String>,
}

pub(super) fn side(color: Color) -> &'static str {
    color.name()
}

pub(super) fn normalize_result(r: &str) -> String {
    match r.trim() {
        "½-½" | "½:½" => "1/2-1/2".to_string(),
        "1:0" => "1-0".to_string(),
        "0:1" => "0-1".to_string(),
        other => other.to_string(),
    }
}

/// `g1f3`, `e7e8q`: a move written as two squares without a separator,
/// as engines write it.
fn is_coordinate_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(u8::is_ascii_lowercase) && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    (4..=6).contains(&b.len())
        && square(0)
        && (square(2) || square(3))
        && !text.contains(['-', 'x', ':'])
}

impl Current {
    /// Keeps a move played on the current line (with `keep_moves`), the
    /// comments waiting for it before it.
    pub(super) fn keep(&mut self, mut m: PlayedMove) {
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
    pub(super) fn last_kept(&mut self) -> Option<&mut PlayedMove> {
        if self.line.main {
            self.game.moves.last_mut()
        } else {
            self.variation_moves.last_mut()?.last_mut()
        }
    }

    pub(super) fn on_move(&mut self, text: &str, span: Span, opts: &Options) {
        // A score in another language's piece letters is read in English.
        let english;
        let text = match opts.language {
            Some(l) => {
                english = l.to_english(text);
                english.as_ref()
            }
            None => text,
        };
        self.line.written += 1;
        if self.line.main && self.pending.is_some() {
            let d = self.pending.take();
            if let (Some(d), Sync::Yes) = (d, &self.line.sync) {
                compare_diagram(&d, self.line.pos(), &mut self.game.issues);
            }
        }
        let plies = self.line.plies();
        match &mut self.line.sync {
            Sync::Gone => {}
            Sync::Lost { following, .. } => {
                following.push((text.to_string(), span));
                self.try_resync(false, opts);
            }
            Sync::Yes if plies >= MAX_PLIES => {
                self.game.issues.push(
                    Issue::error(
                        IssueKind::Syntax,
                        span,
                        format!(
                            "the line is longer than the limit of {MAX_PLIES} half-moves a game; it is not checked from here on"
                        ),
                    )
                    .expected(format!("at most {MAX_PLIES} half-moves"))
                    .found(text.to_string()),
                );
                self.line.sync = Sync::Gone;
            }
            Sync::Yes => {
                if !self.play_fast(text, opts) {
                    self.play(text, span, opts);
                }
            }
        }
    }

    /// Plays one written move on the current line; on failure reports it
    /// and marks the line lost.
    pub(super) fn play(&mut self, text: &str, span: Span, opts: &Options) -> bool {
        let number = self.line.number.take();
        // Puzzle collections number the first move of a set-up position
        // 0 (`0. Ra8#`, `0... Qxe2`), as python-chess reads them.
        let first_of_setup = number.is_some_and(|(n, _, _)| n == 0)
            && self.line.plies() == 0
            && self.game.start != crate::position::Position::start(self.game.variant);
        let in_variation = !self.line.main;
        let pos = self.line.pos();
        let at = move_number(pos);
        let puzzle_zero = |n: u32| n == 0 && pos.fullmove == 1 && first_of_setup;
        if let Some((n, black, nspan)) = number {
            if (n != pos.fullmove && !puzzle_zero(n)) || black != (pos.turn == Color::Black) {
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
            // A null move in a variation of FIDE chess or Gardner's: kept,
            // the variation going on from the position passed to the
            // other side. The main line must still be legal.
            Err(_)
                if is_null_move(text)
                    && in_variation
                    && matches!(
                        pos.variant,
                        crate::variant::Variant::Chess | crate::variant::Variant::Gardner
                    )
                    && !pos.is_check() =>
            {
                let after = super::game::pass(pos);
                if opts.keep_moves {
                    self.keep(PlayedMove::null("--"));
                }
                self.line.advance(after);
                return true;
            }
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
        // `Position::play_with_effects` in two steps: `Dialect::resolve`
        // already returns only legal moves, so its legality check is not
        // made twice (that halves the work per move); the game-over check
        // stays.
        let mv = match crate::notation::dialect(pos.variant).resolve(pos, &parsed.text) {
            Ok(mv) => mv,
            Err(e) => {
                let issue = self.move_error(e, text, span);
                return self.fail(issue, &at, span);
            }
        };
        if rules.outcome(pos, true).is_some() {
            let issue = self.move_error(MoveError::illegal("the game is over"), text, span);
            return self.fail(issue, &at, span);
        }
        // The position after the move, in a copy from the pool (no
        // allocation once the pool is warm).
        let mut after = self.spare.pop().unwrap_or_else(|| pos.clone());
        after.clone_from(pos);
        rules.apply(&mut after, &mv);
        let expected = after.check().map(CheckMark::as_str).unwrap_or("");
        let found = parsed.check.map(CheckMark::as_str).unwrap_or("");
        // UCI's coordinates (`e2e4`) never carry a mark: no warning.
        if expected != found && !(found.is_empty() && is_uci(text)) {
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
                at_move: Some(move_number(pos)),
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
        self.line.advance(after);
        true
    }

    pub(super) fn move_error(&mut self, e: MoveError, text: &str, span: Span) -> Issue {
        let pos = self.line.pos();
        let at = move_number(pos);
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

    pub(super) fn fail(&mut self, mut issue: Issue, at: &str, span: Span) -> bool {
        issue.at_move = Some(at.to_string());
        self.game.issues.push(issue);
        let history_len = self.line.history().len();
        self.line.sync = Sync::Lost {
            before: Box::new(self.line.pos().clone()),
            history_len,
            failed: span,
            label: at.to_string(),
            following: Vec::new(),
        };
        false
    }

    /// Looks for the one legal move at the failed turn after which the
    /// moves written since all play. `force` decides with what there is
    /// (at the end of the game).
    pub(super) fn try_resync(&mut self, force: bool, opts: &Options) {
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
                // The line stands before the failed move, where it stood
                // when it was lost.
                let before = before.clone();
                self.game.issues.push(note);
                self.line.restart_after(*before, after);
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
    pub(super) fn finish_line(&mut self) {
        if matches!(self.line.sync, Sync::Lost { .. }) {
            let opts = Options::default();
            self.try_resync(true, &opts);
        }
    }

    pub(super) fn begin_variation(&mut self, span: Span) {
        self.line.history();
        let mut parent = self.line.clone();
        let parent_sync = parent.sync.clone();
        let (pos, history, sync) = match &parent_sync {
            Sync::Yes => match parent.history().split_last() {
                Some((last, rest)) => (last.clone(), rest, Sync::Yes),
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
                    (parent.pos().clone(), History::default(), Sync::Gone)
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
                parent.history().prefix(*history_len),
                Sync::Yes,
            ),
            _ => (parent.pos().clone(), History::default(), Sync::Gone),
        };
        self.saved.push(parent);
        self.line = Line::new(pos, history, sync, false);
    }

    pub(super) fn on_diagram(&mut self, d: DiagramBoard) {
        if !self.started {
            // Before the first move: the last diagram sets up the game.
            self.setup = Some(d);
            return;
        }
        if !self.game.readable {
            return;
        }
        if !self.line.main {
            compare_diagram(&d, self.line.pos(), &mut self.game.issues);
            return;
        }
        match &self.line.sync {
            Sync::Yes => {
                if let Some(prev) = self.pending.take() {
                    compare_diagram(&prev, self.line.pos(), &mut self.game.issues);
                }
                self.pending = Some(d);
            }
            Sync::Lost { .. } | Sync::Gone => {
                let base = match &self.line.sync {
                    Sync::Lost { before, .. } => before.castling,
                    _ => self.line.pos().castling,
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
                        self.line.restart(p);
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

    pub(super) fn on_result(&mut self, text: &str, span: Span) {
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
    pub(super) fn check_result_tag(&mut self) {
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

/// A move in UCI's coordinates, from square and to square run together
/// and a promotion letter (`e2e4`, `e7e8q`), as engines write them.
fn is_uci(text: &str) -> bool {
    let t = text.trim_end_matches(['q', 'r', 'b', 'n']);
    t.is_ascii()
        && t.len() >= 4
        && (2..t.len() - 1).any(|i| {
            crate::notation::square::parse_square(&t[..i]).is_some()
                && crate::notation::square::parse_square(&t[i..]).is_some()
        })
}
