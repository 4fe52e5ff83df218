//! Games as one self-contained HTML page (no network): for each game a
//! board for every position of it, those of its variations included (SVG,
//! drawn by `svg` and sharing one set of glyph definitions for the page),
//! the moves with their comments, NAGs and variations, and buttons and
//! arrow keys to step through it. A page of several games begins with an
//! index of them. One board a game is shown at a time; the script only
//! switches which, so what a reader sees is exactly what the renderer drew.
//!
//! Keys (on the game last clicked, else the first): Left / Right step back
//! and forward along the line of the board shown, Home / End go to the
//! start and the end of the main line; a click on any move shows the
//! position after it. `#ply=N` in the address opens the first game at ply
//! N. `#test` makes the page step through its first game by itself on
//! load, pressing the keys and buttons, and write what it showed after
//! each step into `<pre id="postal-test">` as JSON, for the browser test.

use super::svg::{self, escape, Parts};
use super::{check_squares, Diagram, Options};
use crate::color::Color;
use crate::error::PlayError;
use crate::mv::Move;
use crate::notation::san::with_figurines;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::record::game::{Game, PlayedMove};
use crate::record::lexer::nag_glyph;
use crate::record::tags::{date_words, time_control_words};
use crate::record::writer::{walk, Step};
use std::collections::BTreeSet;
use std::fmt::Write;

/// What the page says about a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// The heading; when empty, "White – Black" or the variant's name.
    pub title: String,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, with a reason if known.
    pub result: Option<String>,
    /// Other lines to show under the heading (event, date, ...).
    pub details: Vec<String>,
    /// The ply shown when the page opens (0: the start position).
    pub start_ply: usize,
}

impl GameInfo {
    /// The heading of a record's game from its tags: the players, then
    /// the event, site, date and round, leaving out those not known or
    /// not applicable (`?`, `????.??.??`, `-`), and the time control in
    /// words.
    pub fn of_record(game: &Game) -> GameInfo {
        let known = |name: &str| {
            game.tag(name)
                .map(str::trim)
                .filter(|v| v.chars().any(|c| !matches!(c, '?' | '.' | '-')))
        };
        let mut details = Vec::new();
        let place: Vec<&str> = ["Event", "Site"].into_iter().filter_map(known).collect();
        if !place.is_empty() {
            details.push(place.join(", "));
        }
        let mut when = Vec::new();
        if let Some(d) = known("Date") {
            when.push(date_words(d));
        }
        if let Some(r) = known("Round") {
            when.push(format!("round {r}"));
        }
        if !when.is_empty() {
            details.push(when.join(", "));
        }
        if let Some(t) = known("TimeControl").and_then(time_control_words) {
            details.push(format!("Time control: {t}"));
        }
        GameInfo {
            title: String::new(),
            white: known("White").unwrap_or_default().to_string(),
            black: known("Black").unwrap_or_default().to_string(),
            result: game.result.clone(),
            details,
            start_ply: 0,
        }
    }
}

/// A move of a game that could not be played: its ply (1 for the first
/// move) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub ply: usize,
    pub error: PlayError,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.error)
    }
}

impl std::error::Error for ReplayError {}

/// One game of a page: where it starts, its main line with the comments,
/// NAGs and variations read with it, the comments before its first move,
/// and its heading.
#[derive(Clone, Debug)]
pub struct PageGame {
    pub start: Position,
    pub moves: Vec<PlayedMove>,
    pub comments: Vec<String>,
    pub info: GameInfo,
}

impl PageGame {
    /// A game of bare moves, without annotations.
    pub fn of_moves(start: &Position, moves: &[Move], info: &GameInfo) -> PageGame {
        PageGame {
            start: start.clone(),
            moves: moves
                .iter()
                .map(|m| PlayedMove::new(m.clone(), String::new()))
                .collect(),
            comments: Vec::new(),
            info: info.clone(),
        }
    }

    /// A record's game, with its annotations and its heading from its
    /// tags.
    pub fn of_record(game: &Game) -> PageGame {
        PageGame {
            start: game.start.clone(),
            moves: game.moves.clone(),
            comments: game.comments.clone(),
            info: GameInfo::of_record(game),
        }
    }
}
/// The page's style sheet.
const PAGE_STYLE: &str = include_str!("html/page.css");

/// The page's script: stepping through the boards, and `#test`.
const SCRIPT: &str = include_str!("html/page.js");

/// The status line under the board at a ply: the move that led there and
/// whose turn it is, or how the game ended.
fn status(pos: &Position, number: Option<String>, result: Option<&str>) -> String {
    let mut s = match number {
        Some(n) => format!("After {n}: "),
        None => "Start: ".to_string(),
    };
    match pos.outcome() {
        Some(o) => {
            let _ = write!(s, "{} ({})", o.result.as_str(), o.reason);
        }
        None => {
            let _ = write!(s, "{} to move", pos.turn);
            if pos.is_check() {
                s.push_str(", in check");
            }
            if let Some(r) = result {
                let _ = write!(s, "; {r}");
            }
        }
    }
    s
}

/// The page for a game: `start` and the moves played from it, in order.
/// Fails on the first move that is not legal where it stands.
pub fn game(
    start: &Position,
    moves: &[Move],
    info: &GameInfo,
    opts: &Options,
) -> Result<String, ReplayError> {
    page(&[PageGame::of_moves(start, moves, info)], opts)
}

/// One board of a game: the position, how it was reached, and its place
/// in the line it belongs to.
struct Board {
    pos: Position,
    last_move: Option<(crate::square::Square, crate::square::Square)>,
    /// `12... Nf6`, the move that led here, or `None` at the start.
    label: Option<String>,
    /// The main line's ply, for a board of the main line.
    ply: Option<usize>,
    prev: Option<usize>,
    next: Option<usize>,
    /// Which line (0 the main line, then each variation) holds it.
    line: usize,
}

impl Board {
    /// A board of `pos`, not yet placed in a line.
    fn new(pos: Position) -> Board {
        Board {
            pos,
            last_move: None,
            label: None,
            ply: None,
            prev: None,
            next: None,
            line: 0,
        }
    }
}

/// The moves of a game laid out: its boards (the main line's first, by
/// ply) and the move list's HTML, each move a link to its board.
fn lay_out(g: &PageGame, figurines: bool) -> Result<(Vec<Board>, String), ReplayError> {
    // The main line is checked move by move; the variations come from a
    // record that played them.
    let mut pos = g.start.clone();
    for (i, m) in g.moves.iter().enumerate() {
        pos = pos
            .play(&m.mv)
            .map_err(|error| ReplayError { ply: i + 1, error })?;
    }
    let mut boards = vec![Board {
        ply: Some(0),
        ..Board::new(g.start.clone())
    }];
    let main = g.moves.len();
    // Room for the main line first: ply `i` is board `i`.
    boards.resize_with(main + 1, || Board::new(g.start.clone()));
    let mut html = String::new();
    for c in &g.comments {
        let _ = write!(html, "<span class=\"comment\">{}</span> ", escape(c));
    }
    // For each depth: the board the next move leaves from, and the one
    // the last move left from (a variation starts there).
    let mut at: Vec<usize> = vec![0];
    let mut left: Vec<usize> = vec![0];
    let mut lines = 0;
    let mut line_of: Vec<usize> = vec![0];
    let mut ply = 0;
    walk(&g.start, &g.moves, &mut |step| match step {
        Step::Comment(c) => {
            let _ = write!(html, "<span class=\"comment\">{}</span> ", escape(c));
        }
        Step::Move {
            number,
            text,
            mv,
            nags,
            after,
            depth,
            ..
        } => {
            let from = at[depth];
            let index = if depth == 0 {
                ply += 1;
                ply
            } else {
                boards.push(Board::new(after.clone()));
                boards.len() - 1
            };
            let label = if number.is_empty() {
                format!("{}... {text}", boards[from].pos.fullmove)
            } else {
                format!("{number} {text}")
            };
            let b = &mut boards[index];
            b.pos = after.clone();
            b.label = Some(label);
            b.ply = (depth == 0).then_some(ply);
            b.prev = Some(from);
            b.last_move = Some((mv.from(), mv.to()));
            b.line = line_of[depth];
            if boards[from].line == line_of[depth] {
                boards[from].next = Some(index);
            }
            left[depth] = from;
            at[depth] = index;
            if !number.is_empty() {
                let _ = write!(html, "<span class=\"num\">{}</span> ", escape(&number));
            }
            let ply_attr = if depth == 0 {
                format!(" data-ply=\"{ply}\"")
            } else {
                String::new()
            };
            let shown = if figurines {
                with_figurines(&text)
            } else {
                text.clone()
            };
            let _ = write!(
                html,
                "<a href=\"#ply={index}\" data-board=\"{index}\"{ply_attr} data-move=\"{}\">{}",
                escape(&text),
                escape(&shown)
            );
            for &n in nags.iter().filter(|&&n| n <= 6) {
                if let Some((glyph, meaning)) = nag_glyph(n) {
                    let _ = write!(
                        html,
                        "<span class=\"nag\" title=\"{meaning}\">{}</span>",
                        escape(glyph)
                    );
                }
            }
            html.push_str("</a> ");
            for &n in nags.iter().filter(|&&n| n > 6) {
                match nag_glyph(n) {
                    Some((glyph, meaning)) => {
                        let _ = write!(
                            html,
                            "<span class=\"nag\" title=\"{meaning}\">{}</span> ",
                            escape(glyph)
                        );
                    }
                    None => {
                        let _ = write!(html, "<span class=\"nag\">${n}</span> ");
                    }
                }
            }
        }
        Step::Open => {
            let depth = at.len() - 1;
            lines += 1;
            line_of.push(lines);
            at.push(left[depth]);
            left.push(left[depth]);
            html.push_str("<span class=\"variation\">(");
        }
        Step::Close => {
            at.pop();
            left.pop();
            line_of.pop();
            if html.ends_with(' ') {
                html.pop();
            }
            html.push_str(")</span> ");
        }
    });
    if let Some(r) = &g.info.result {
        let _ = write!(html, "<span class=\"result\">{}</span>", escape(r));
    }
    Ok((boards, html))
}

/// The title of a game: as given, else its players, else its variant.
fn title_of(g: &PageGame) -> String {
    let info = &g.info;
    if !info.title.is_empty() {
        info.title.clone()
    } else if !info.white.is_empty() || !info.black.is_empty() {
        format!(
            "{} – {}",
            if info.white.is_empty() {
                "?"
            } else {
                &info.white
            },
            if info.black.is_empty() {
                "?"
            } else {
                &info.black
            }
        )
    } else {
        g.start.variant.spec().title.to_string()
    }
}

/// The heading of a game: its title and what is known of it.
fn heading(g: &PageGame, level: u8, page: &mut String) {
    let variant = g.start.variant;
    let info = &g.info;
    let title = title_of(g);
    let _ = writeln!(page, "<h{level}>{}</h{level}>", escape(&title));
    if title != variant.spec().title {
        let _ = writeln!(
            page,
            "<p class=\"meta\">{}</p>",
            escape(variant.spec().title)
        );
    }
    for line in &info.details {
        let _ = writeln!(page, "<p class=\"meta\">{}</p>", escape(line));
    }
}

/// The title of a page's games: "White – Black" of each, else its number.
fn short_title(g: &PageGame, n: usize) -> String {
    let info = &g.info;
    if !info.white.is_empty() || !info.black.is_empty() {
        format!("{} – {}", info.white, info.black)
    } else if !info.title.is_empty() {
        info.title.clone()
    } else {
        format!("Game {n}")
    }
}

/// A page of games: one, or several after an index of them. Fails on the
/// first main-line move of a game that is not legal where it stands.
pub fn page(games: &[PageGame], opts: &Options) -> Result<String, ReplayError> {
    let laid: Vec<(Vec<Board>, String)> = games
        .iter()
        .map(|g| lay_out(g, opts.figurines))
        .collect::<Result<_, _>>()?;
    let title = match games {
        [one] => title_of(one),
        _ => format!("{} games", games.len()),
    };
    let boards_total: usize = laid.iter().map(|(b, _)| b.len()).sum();
    let mut page = String::with_capacity(16384 + 8192 * boards_total);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"postal\">\n<title>{}</title>\n<style>\n{PAGE_STYLE}{}\n</style>\n</head>\n<body>\n",
        escape(&title),
        svg::STYLE
    );
    // One set of glyphs for every board of the page, each board of a game
    // at one size (the larger one if any has a stack, so the board does
    // not change size as the game is stepped).
    let mut used: BTreeSet<(Color, usize)> = BTreeSet::new();
    let mut kristensen = false;
    let mut drawn: Vec<Vec<(Diagram, Options)>> = Vec::new();
    for (boards, _) in &laid {
        let diagrams: Vec<(Diagram, Options)> = boards
            .iter()
            .map(|b| {
                let o = Options {
                    last_move: b.last_move,
                    check: check_squares(&b.pos),
                    ..opts.clone()
                };
                (Diagram::of_position(&b.pos, &o), o)
            })
            .collect();
        let stacks = diagrams.iter().any(|(d, _)| d.has_stacks());
        let diagrams: Vec<(Diagram, Options)> = diagrams
            .into_iter()
            .map(|(d, o)| {
                let size = o.square_pixels(stacks);
                (d, Options { size, ..o })
            })
            .collect();
        for (d, _) in &diagrams {
            let cells = d.cells.iter().chain(d.prison.iter().map(|(c, _)| c));
            for c in cells {
                for p in c.stack.pieces() {
                    used.insert((p.color, p.role.index()));
                }
            }
            for &r in &d.legend {
                used.insert((Color::White, r.index()));
            }
        }
        kristensen |= boards[0].pos.variant == crate::variant::Variant::Kristensen;
        drawn.push(diagrams);
    }
    page.push_str(
        "<svg class=\"glyphs\" width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\">",
    );
    page.push_str(&svg::defs(
        used.iter()
            .map(|&(c, r)| Piece::new(c, Role::from_index(r))),
        kristensen,
    ));
    page.push_str("</svg>\n");
    let several = games.len() > 1;
    if several {
        let _ = writeln!(page, "<h1>{}</h1>\n<ol class=\"index\">", escape(&title));
        for (n, g) in games.iter().enumerate() {
            let _ = write!(
                page,
                "<li><a href=\"#game-{}\">{}</a>",
                n + 1,
                escape(&short_title(g, n + 1))
            );
            if let Some(first) = g.info.details.first() {
                let _ = write!(page, " · {}", escape(first));
            }
            if let Some(r) = &g.info.result {
                let _ = write!(page, " · {}", escape(r));
            }
            page.push_str("</li>\n");
        }
        page.push_str("</ol>\n");
    }
    for (n, ((g, (boards, moves_html)), diagrams)) in
        games.iter().zip(&laid).zip(&drawn).enumerate()
    {
        let main = g.moves.len();
        let start_ply = g.info.start_ply.min(main);
        let _ = writeln!(
            page,
            "<section class=\"game\" id=\"game-{}\" data-start=\"{start_ply}\" data-last=\"{main}\">",
            n + 1
        );
        heading(g, if several { 2 } else { 1 }, &mut page);
        page.push_str("<div class=\"play\">\n<div>\n<div class=\"boards\">\n");
        for (i, ((d, o), b)) in diagrams.iter().zip(boards).enumerate() {
            let result = if b.ply == Some(main) {
                g.info.result.as_deref()
            } else {
                None
            };
            let parts = Parts {
                standalone: false,
                title: match &b.label {
                    Some(n) => format!("After {n}"),
                    None => "Start position".to_string(),
                },
                desc: super::ascii::position(&b.pos, o.clone()),
                attributes: String::new(),
            };
            let attr = |name: &str, v: Option<usize>| {
                v.map(|v| format!(" {name}=\"{v}\"")).unwrap_or_default()
            };
            let _ = write!(
                page,
                "<div class=\"board\" data-board=\"{i}\"{}{}{} data-position=\"{}\" data-status=\"{}\"{}>",
                attr("data-ply", b.ply),
                attr("data-prev", b.prev),
                attr("data-next", b.next),
                escape(&b.pos.to_text()),
                escape(&status(&b.pos, b.label.clone(), result)),
                if i == start_ply { "" } else { " hidden" }
            );
            page.push_str(&svg::document(d, o, &parts));
            page.push_str("</div>\n");
        }
        page.push_str("</div>\n<p class=\"status\" aria-live=\"polite\"></p>\n");
        page.push_str(
            "<nav>\
<button class=\"first\" type=\"button\" title=\"Start (Home)\" aria-label=\"Start\">«</button>\
<button class=\"prev\" type=\"button\" title=\"Back (Left arrow)\" aria-label=\"Back\">‹</button>\
<button class=\"next\" type=\"button\" title=\"Forward (Right arrow)\" aria-label=\"Forward\">›</button>\
<button class=\"last\" type=\"button\" title=\"End (End)\" aria-label=\"End\">»</button>\
</nav>\n<p class=\"keys\">Keys: ← → step, Home / End.</p>\n</div>\n",
        );
        let _ = writeln!(
            page,
            "<div class=\"moves\">{moves_html}</div>\n</div>\n</section>"
        );
    }
    page.push_str("<pre id=\"postal-test\" hidden></pre>\n<script>\n");
    page.push_str(SCRIPT);
    page.push_str("</script>\n</body>\n</html>\n");
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::movetext;
    use crate::variant::Variant;

    #[test]
    fn a_board_per_ply_and_a_link_per_move() {
        let start = Position::start(Variant::Chess);
        let played = movetext::play(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5").unwrap();
        let moves: Vec<Move> = played.into_iter().map(|(m, _)| m).collect();
        let page = game(&start, &moves, &GameInfo::default(), &Options::default()).unwrap();
        assert_eq!(page.matches("<div class=\"board\"").count(), 6);
        assert_eq!(page.matches("data-ply=\"").count(), 6 + 5);
        assert!(page.contains(">Bb5</a>"));
        assert!(page.contains("<span class=\"num\">3.</span> <a href=\"#ply=5\""));
        // Glyphs are defined once for the page, not per board.
        assert_eq!(page.matches("id=\"wK\"").count(), 1);
        // Self-contained: nothing to fetch.
        assert!(!page.contains("<link") && !page.contains(" src="));
    }

    #[test]
    fn an_illegal_move_names_its_ply() {
        let start = Position::start(Variant::Chess);
        let e4 = start.parse_move("e4").unwrap();
        let err = game(
            &start,
            &[e4.clone(), e4],
            &GameInfo::default(),
            &Options::default(),
        )
        .unwrap_err();
        assert_eq!(err.ply, 2);
    }
}
