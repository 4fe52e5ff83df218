//! A whole game as one self-contained HTML page (no network): a board for
//! every position of the game (SVG, drawn by `svg` and sharing one set of
//! glyph definitions), the move list, and buttons and arrow keys to step
//! through it. One board is shown at a time; the script only switches
//! which, so what a reader sees is exactly what the renderer drew.
//!
//! Keys: Left / Right step back and forward, Home / End go to the start
//! and the end. `#ply=N` in the address opens the page at ply N. `#test`
//! makes the page step through the game by itself on load, pressing the
//! keys and buttons, and write what it showed after each step into
//! `<pre id="postal-test">` as JSON, for the browser test to read.

use super::svg::{self, escape, Parts};
use super::{check_squares, Diagram, Options};
use crate::color::Color;
use crate::error::PlayError;
use crate::mv::Move;
use crate::notation::movetext::move_number;
use crate::piece::{Piece, Role};
use crate::position::Position;
use std::collections::BTreeSet;
use std::fmt::Write;

/// What the page says about the game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// The page title; when empty, "White – Black" or the variant's name.
    pub title: String,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, with a reason if known.
    pub result: Option<String>,
    /// Other lines to show under the title (event, date, ...).
    pub details: Vec<String>,
    /// The ply shown when the page opens (0: the start position).
    pub start_ply: usize,
}

/// A move of the game that could not be played: its ply (1 for the first
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

const PAGE_STYLE: &str = "\
body{font-family:system-ui,'DejaVu Sans',Arial,sans-serif;margin:1.5em;color:#222;background:#fafaf7}
h1{font-size:1.4em;margin:0 0 .2em}
.meta{margin:.1em 0;color:#555}
main{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start;margin-top:1em}
.board svg{max-width:100%;height:auto;display:block}
nav{margin:.6em 0;display:flex;gap:.4em}
nav button{font-size:1.2em;min-width:2.4em;padding:.2em .5em;cursor:pointer}
#status{margin:.3em 0;font-weight:600}
#moves{font-size:1.05em;line-height:1.8;max-width:28em}
#moves .pair{white-space:nowrap;margin-right:.5em}
#moves .num{color:#777}
#moves a{color:#123;text-decoration:none;padding:.1em .3em;border-radius:.2em}
#moves a:hover{background:#e6e2d6}
#moves a.current{background:#2f5f8a;color:#fff}
.result{font-weight:600;margin-left:.6em}
.keys{color:#777;font-size:.9em}
";

const SCRIPT: &str = r#"(function () {
  var boards = Array.prototype.slice.call(document.querySelectorAll('#boards .board'));
  var links = Array.prototype.slice.call(document.querySelectorAll('#moves a[data-ply]'));
  var status = document.getElementById('status');
  var last = boards.length - 1;
  var ply = 0;
  function show(n) {
    ply = Math.max(0, Math.min(last, n));
    boards.forEach(function (b, i) { b.hidden = i !== ply; });
    links.forEach(function (a) {
      var on = Number(a.getAttribute('data-ply')) === ply;
      a.classList.toggle('current', on);
      if (on) { a.setAttribute('aria-current', 'step'); } else { a.removeAttribute('aria-current'); }
    });
    status.textContent = boards[ply].getAttribute('data-status');
  }
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(ply - 1); });
  document.getElementById('next').addEventListener('click', function () { show(ply + 1); });
  document.getElementById('last').addEventListener('click', function () { show(last); });
  links.forEach(function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault();
      show(Number(a.getAttribute('data-ply')));
    });
  });
  document.addEventListener('keydown', function (e) {
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  var m = /^#ply=(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : Number(document.getElementById('boards').getAttribute('data-start')));
  if (location.hash !== '#test') { return; }
  // Self-test: step through the game with the keys and buttons a reader
  // uses and record what is on screen after each step.
  var log = [];
  function snap(action) {
    var shown = boards.filter(function (b) { return getComputedStyle(b).display !== 'none'; });
    var current = links.filter(function (a) { return a.classList.contains('current'); });
    var placement = shown.length === 1
      ? Array.prototype.map.call(shown[0].querySelectorAll('g.pieces'), function (g) {
          return g.getAttribute('data-square') + ':' + g.getAttribute('data-pieces');
        })
      : [];
    log.push({
      action: action,
      shown: shown.map(function (b) { return Number(b.getAttribute('data-ply')); }),
      current: current.map(function (a) { return Number(a.getAttribute('data-ply')); }),
      move: current.length === 1 ? current[0].textContent : '',
      placement: placement,
      status: status.textContent
    });
  }
  function key(k) { document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); snap('key ' + k); }
  function click(id) { document.getElementById(id).click(); snap('click ' + id); }
  show(0);
  snap('start');
  for (var i = 0; i < last; i++) { key('ArrowRight'); }
  key('ArrowRight');
  for (var j = 0; j < last; j++) { click('prev'); }
  click('prev');
  click('last');
  for (var k = 0; k < last; k++) { key('ArrowLeft'); }
  click('next');
  key('End');
  key('Home');
  if (links.length > 0) {
    var mid = links[Math.floor(links.length / 2)];
    mid.click();
    snap('click move ' + mid.getAttribute('data-ply'));
  }
  var out = document.getElementById('postal-test');
  out.textContent = JSON.stringify({ plies: last, log: log });
  out.setAttribute('data-done', 'true');
})();
"#;

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
    let mut positions = vec![start.clone()];
    let mut texts = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        let pos = &positions[i];
        let text = pos.move_text(mv);
        let next = pos
            .play(mv)
            .map_err(|error| ReplayError { ply: i + 1, error })?;
        texts.push(text);
        positions.push(next);
    }
    // "12." before White's move, "12..." before Black's.
    let numbered: Vec<String> = (0..moves.len())
        .map(|i| {
            let p = &positions[i];
            format!("{} {}", move_number(p), texts[i])
        })
        .collect();
    let last = moves.len();
    let start_ply = info.start_ply.min(last);
    let variant = start.variant;
    let title = if !info.title.is_empty() {
        info.title.clone()
    } else if !info.white.is_empty() || !info.black.is_empty() {
        format!("{} – {}", info.white, info.black)
    } else {
        variant.spec().title.to_string()
    };

    let mut page = String::with_capacity(16384 + 8192 * positions.len());
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"postal\">\n<title>{}</title>\n<style>\n{PAGE_STYLE}{}\n</style>\n</head>\n<body>\n",
        escape(&title),
        svg::STYLE
    );
    let _ = writeln!(page, "<h1>{}</h1>", escape(&title));
    if title != variant.spec().title {
        let _ = writeln!(
            page,
            "<p class=\"meta\">{}</p>",
            escape(variant.spec().title)
        );
    }
    if !info.white.is_empty() || !info.black.is_empty() {
        let _ = writeln!(
            page,
            "<p class=\"meta\">White: {} · Black: {}</p>",
            escape(&info.white),
            escape(&info.black)
        );
    }
    for line in &info.details {
        let _ = writeln!(page, "<p class=\"meta\">{}</p>", escape(line));
    }

    // One set of glyphs for every board.
    let kristensen = variant == crate::variant::Variant::Kristensen;
    let mut used: BTreeSet<(Color, usize)> = BTreeSet::new();
    let diagrams: Vec<(Diagram, Options)> = positions
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let o = Options {
                last_move: (i > 0).then(|| (moves[i - 1].from(), moves[i - 1].to())),
                check: check_squares(pos),
                ..opts.clone()
            };
            (Diagram::of_position(pos, &o), o)
        })
        .collect();
    // Every board of the page at one size: the larger one if any has a
    // stack, so the board does not change size as the game is stepped.
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
    page.push_str(
        "<svg class=\"glyphs\" width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\">",
    );
    page.push_str(&svg::defs(
        used.iter()
            .map(|&(c, r)| Piece::new(c, Role::from_index(r))),
        kristensen,
    ));
    page.push_str("</svg>\n<main>\n<section>\n");
    let _ = writeln!(page, "<div id=\"boards\" data-start=\"{start_ply}\">");
    for (i, ((d, o), pos)) in diagrams.iter().zip(&positions).enumerate() {
        let number = (i > 0).then(|| numbered[i - 1].clone());
        let result = if i == last {
            info.result.as_deref()
        } else {
            None
        };
        let parts = Parts {
            standalone: false,
            title: match &number {
                Some(n) => format!("After {n}"),
                None => "Start position".to_string(),
            },
            desc: super::ascii::position(pos, o.clone()),
            attributes: String::new(),
        };
        let _ = write!(
            page,
            "<div class=\"board\" data-ply=\"{i}\" data-position=\"{}\" data-status=\"{}\"{}>",
            escape(&pos.to_text()),
            escape(&status(pos, number, result)),
            if i == start_ply { "" } else { " hidden" }
        );
        page.push_str(&svg::document(d, o, &parts));
        page.push_str("</div>\n");
    }
    page.push_str("</div>\n<p id=\"status\" aria-live=\"polite\"></p>\n");
    page.push_str(
        "<nav>\
<button id=\"first\" type=\"button\" title=\"Start (Home)\" aria-label=\"Start\">«</button>\
<button id=\"prev\" type=\"button\" title=\"Back (Left arrow)\" aria-label=\"Back\">‹</button>\
<button id=\"next\" type=\"button\" title=\"Forward (Right arrow)\" aria-label=\"Forward\">›</button>\
<button id=\"last\" type=\"button\" title=\"End (End)\" aria-label=\"End\">»</button>\
</nav>\n<p class=\"keys\">Keys: ← → step, Home / End.</p>\n</section>\n",
    );
    // A move number and its moves stay on one line.
    page.push_str("<section>\n<div id=\"moves\">");
    for (i, text) in texts.iter().enumerate() {
        let pos = &positions[i];
        if pos.turn == Color::White || i == 0 {
            if i > 0 {
                page.push_str("</span> ");
            }
            let _ = write!(
                page,
                "<span class=\"pair\"><span class=\"num\">{}</span> ",
                move_number(pos)
            );
        }
        let _ = write!(
            page,
            "<a href=\"#ply={}\" data-ply=\"{}\">{}</a> ",
            i + 1,
            i + 1,
            escape(text)
        );
    }
    if !texts.is_empty() {
        page.push_str("</span> ");
    }
    if let Some(r) = &info.result {
        let _ = write!(page, "<span class=\"result\">{}</span>", escape(r));
    }
    page.push_str("</div>\n</section>\n</main>\n");
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
        assert!(page.contains("<span class=\"pair\"><span class=\"num\">3.</span> "));
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
