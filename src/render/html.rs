//! Games as one self-contained HTML page (no network), light enough for
//! a collection of hundreds of games: for each game its heading, its
//! score with comments, NAGs, clocks, evaluations and variations, and a
//! static diagram where an annotator puts one (`$220`, `{D}`, the end),
//! so that a reader without JavaScript still has the game as a printed
//! book gives it. The board is drawn once: each board shape is a frame in
//! the page's `<defs>`, the glyphs are defined there too, and every
//! diagram places them with `<use>`. The positions are data (a JSON
//! script element per game: for each board the squares that changed,
//! `html/plies.rs`), from which the script draws the pieces on one live board
//! a game, kept in view beside the notes (above them on a narrow screen)
//! with buttons and arrow keys to step through the game.
//!
//! Keys (on the game last clicked, else the first): Left / Right step back
//! and forward along the line of the board shown, Home / End go to the
//! start and the end of the main line; a click on any move shows the
//! position after it. Move links are `#gN-B` (game N, board B), unique on
//! the page. `#ply=N` in the address opens the first game at ply N.
//! `#test` makes the page step through its first game by itself on load,
//! pressing the keys and buttons, and write what it showed after each
//! step into `<pre id="postal-test">` as JSON, for the browser test.

mod plies;

use super::svg::{self, escape};
use super::Options;
use crate::error::PlayError;
use crate::mv::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::record::game::{Game, PlayedMove};
use crate::record::tags::{date_words, time_control_words};
use std::fmt::Write;

pub use plies::{DIAGRAM_FROM_BLACK_NAG, DIAGRAM_NAG};

/// What the page says about a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// The heading; when empty, "White – Black" or the variant's name.
    pub title: String,
    pub white: String,
    pub black: String,
    /// The players' ratings (`WhiteElo`, `BlackElo`), when known.
    pub white_elo: String,
    pub black_elo: String,
    /// `1-0`, `0-1`, `1/2-1/2`, with a reason if known.
    pub result: Option<String>,
    /// Other lines to show under the heading (event, date, ...).
    pub details: Vec<String>,
    /// The ply shown when the page opens (0: the start position).
    pub start_ply: usize,
}

impl GameInfo {
    /// The heading of a record's game from its tags: the players and
    /// their ratings, then the event, site, date and round, the opening
    /// (ECO code and name), the annotator, and the time control in words,
    /// leaving out those not known or not applicable (`?`, `????.??.??`,
    /// `-`).
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
        let opening: Vec<&str> = ["ECO", "Opening", "Variation"]
            .into_iter()
            .filter_map(known)
            .collect();
        if !opening.is_empty() {
            details.push(opening.join(" "));
        }
        if let Some(a) = known("Annotator") {
            details.push(format!("Annotated by {a}"));
        }
        if let Some(t) = known("TimeControl").and_then(time_control_words) {
            details.push(format!("Time control: {t}"));
        }
        GameInfo {
            title: String::new(),
            white: known("White").unwrap_or_default().to_string(),
            black: known("Black").unwrap_or_default().to_string(),
            white_elo: known("WhiteElo").unwrap_or_default().to_string(),
            black_elo: known("BlackElo").unwrap_or_default().to_string(),
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

/// The page's script: the live boards, and `#test`.
const SCRIPT: &str = include_str!("html/page.js");

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

/// The title of a game: as given, else its players, else its variant.
fn title_of(g: &PageGame) -> String {
    let info = &g.info;
    if !info.title.is_empty() {
        info.title.clone()
    } else if !info.white.is_empty() || !info.black.is_empty() {
        let player = |name: &str, elo: &str| {
            let name = if name.is_empty() { "?" } else { name };
            if elo.is_empty() {
                name.to_string()
            } else {
                format!("{name} ({elo})")
            }
        };
        format!(
            "{} – {}",
            player(&info.white, &info.white_elo),
            player(&info.black, &info.black_elo)
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
    let mut frames = plies::Frames::default();
    let laid: Vec<plies::Laid> = games
        .iter()
        .enumerate()
        .map(|(n, g)| plies::lay_out(g, n + 1, opts, &mut frames))
        .collect::<Result<_, _>>()?;
    let title = match games {
        [one] => title_of(one),
        _ => format!("{} games", games.len()),
    };
    let size: usize = laid.iter().map(|l| l.html.len() + l.data.len()).sum();
    let mut page = String::with_capacity(16384 + size * 11 / 10);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"postal\">\n<title>{}</title>\n<style>\n{PAGE_STYLE}{}\n</style>\n</head>\n<body>\n",
        escape(&title),
        svg::STYLE
    );
    // One set of glyphs and frames for every board of the page.
    let kristensen = games
        .iter()
        .any(|g| g.start.variant == crate::variant::Variant::Kristensen);
    page.push_str(
        "<svg class=\"glyphs\" width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\">",
    );
    let mut defs = svg::defs(
        frames
            .pieces
            .iter()
            .map(|&(c, r)| Piece::new(c, Role::from_index(r))),
        kristensen,
    );
    defs.truncate(defs.len() - "</defs>\n".len());
    for (i, (markup, w, h)) in frames.drawn.iter().enumerate() {
        let _ = writeln!(
            defs,
            "<g id=\"f{i}\" data-w=\"{w}\" data-h=\"{h}\">{markup}</g>"
        );
    }
    defs.push_str("</defs>\n");
    page.push_str(&defs);
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
    for (n, (g, l)) in games.iter().zip(&laid).enumerate() {
        let main = g.moves.len();
        let start_ply = g.info.start_ply.min(main);
        let _ = writeln!(
            page,
            "<section class=\"game\" id=\"game-{}\" data-start=\"{start_ply}\" data-last=\"{main}\" data-game=\"{}\">",
            n + 1,
            n + 1
        );
        heading(g, if several { 2 } else { 1 }, &mut page);
        // The live board is the script's: it puts one before the moves.
        page.push_str("<div class=\"play\">\n");
        let _ = writeln!(
            page,
            "<div class=\"moves\">{}</div>\n</div>\n</section>",
            l.html
        );
    }
    // The live board and its buttons, which the script puts in each game.
    page.push_str(
        "<template id=\"postal-pane\"><div class=\"pane\">\
<svg class=\"postal-board live\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"board\"><use class=\"frame\"/></svg>\
<p class=\"status\" aria-live=\"polite\"></p><nav>\
<button class=\"first\" type=\"button\" title=\"Start (Home)\" aria-label=\"Start\">«</button>\
<button class=\"prev\" type=\"button\" title=\"Back (Left arrow)\" aria-label=\"Back\">‹</button>\
<button class=\"next\" type=\"button\" title=\"Forward (Right arrow)\" aria-label=\"Forward\">›</button>\
<button class=\"last\" type=\"button\" title=\"End (End)\" aria-label=\"End\">»</button>\
</nav><p class=\"keys\">Keys: ← → step, Home / End.</p></div></template>\n",
    );
    // The positions of every game, in one element: the parser meets one
    // script element, not one a game.
    page.push_str("<script type=\"application/json\" id=\"postal-games\">[");
    for (i, l) in laid.iter().enumerate() {
        if i > 0 {
            page.push_str(",\n");
        }
        page.push_str(&l.data);
    }
    page.push_str("]</script>\n");
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
    fn the_board_is_drawn_once_and_the_positions_are_data() {
        let start = Position::start(Variant::Chess);
        let played = movetext::play(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5").unwrap();
        let moves: Vec<Move> = played.into_iter().map(|(m, _)| m).collect();
        let page = game(&start, &moves, &GameInfo::default(), &Options::default()).unwrap();
        // One frame of squares, a template for the live board, one
        // static diagram (the end), and a board of data for each ply.
        assert_eq!(page.matches("<rect class=\"sq ").count(), 64);
        assert_eq!(page.matches("class=\"postal-board live\"").count(), 1);
        assert_eq!(page.matches("<figure class=\"diagram\"").count(), 1);
        let data = &page[page.find("id=\"postal-games\">").unwrap()..];
        let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
        let data: serde_json::Value = serde_json::from_str(data).unwrap();
        let boards = data[0]["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 6);
        // After 1. e4: the squares that changed, the last move found
        // from them, Black to move.
        assert_eq!(boards[1], "||e2: e4:P|||b|||");
        assert!(page.contains(">Bb5</a>"));
        assert!(page.contains("3. <a href=#g1-5>Bb5"));
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
