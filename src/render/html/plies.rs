//! A game of a page laid out: the score as HTML (moves, comments with
//! their commands read, NAGs, variations, and a static diagram where an
//! annotator puts one: at ChessBase's `$220`/`$221`, at a `{D}` comment
//! and at the end), and every position it reaches as data for the
//! script: for each board the one it comes from and the squares that
//! changed, the last move, a king in check, the status, and the arrows
//! and marked squares of its move. The board itself is drawn once, as a
//! frame shared by every board of that shape ([`Frames`]).

use super::{PageGame, ReplayError};
use crate::color::Color;
use crate::mv::Move;
use crate::notation::san::with_figurines;
use crate::position::Position;
use crate::record::commands::{self, Commands, Mark};
use crate::record::lexer::nag_symbol;
use crate::record::writer::{walk, Step};
use crate::render::svg::{self, escape};
use crate::render::{check_squares, glyphs, Diagram, Options};
use crate::square::Square;
use crate::variant::Variant;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::hash::{Hash, Hasher};

/// ChessBase's diagram NAGs: a diagram after the move, from White's side
/// and from Black's.
pub const DIAGRAM_NAG: u16 = 220;
pub const DIAGRAM_FROM_BLACK_NAG: u16 = 221;

/// The empty boards of a page, each drawn once in its `<defs>` as
/// `<g id="fN">` and placed by every board of its shape.
#[derive(Default)]
pub struct Frames {
    by_key: HashMap<u64, usize>,
    /// Each frame's markup and size in units.
    pub drawn: Vec<(String, i64, i64)>,
    /// The glyphs the page's boards and legends use.
    pub pieces: BTreeSet<(Color, usize)>,
}

impl Frames {
    /// The frame of a diagram, drawn the first time its shape is seen.
    fn of(&mut self, d: &Diagram) -> usize {
        let mut h = DefaultHasher::new();
        (
            &d.files,
            &d.ranks,
            d.coordinates,
            &d.legend,
            &d.part,
            &d.hand,
        )
            .hash(&mut h);
        d.prison.as_ref().map(|(_, col)| *col).hash(&mut h);
        for c in &d.cells {
            (c.square, c.col, c.row).hash(&mut h);
        }
        d.variant.map(|v| v.name()).hash(&mut h);
        let key = h.finish();
        let (drawn, pieces) = (&mut self.drawn, &mut self.pieces);
        *self.by_key.entry(key).or_insert_with(|| {
            pieces.extend(d.legend.iter().map(|r| (Color::White, r.index())));
            drawn.push(svg::frame(d));
            drawn.len() - 1
        })
    }
}

/// One position of a game as the page knows it.
struct Board {
    pos: Position,
    last: Option<(Square, Square)>,
    /// `12... Nf6`, the move that led here, or `None` at the start.
    label: Option<String>,
    prev: Option<usize>,
    next: Option<usize>,
    /// Which line (0 the main line, then each variation) holds it.
    line: usize,
    frame: usize,
    stacks: bool,
    marks: Vec<Mark>,
}

/// A game laid out for its page.
pub struct Laid {
    /// The score: comments, moves (each a link to its board), NAGs,
    /// clocks and evaluations, variations, static diagrams, the result.
    pub html: String,
    /// The boards as JSON for the script.
    pub data: String,
}

/// The letters standing on each square.
fn placement(pos: &Position) -> BTreeMap<Square, String> {
    pos.board
        .occupied()
        .map(|(sq, st)| (sq, st.pieces().map(|p| p.char()).collect()))
        .collect()
}

/// The state of a position, for the script to spell: whose turn it is
/// (`w`, `b`), `+` when in check, and after a space how the game ended by
/// the rules, if it did.
fn state(pos: &Position) -> String {
    let mut s = match pos.turn {
        Color::White => "w",
        Color::Black => "b",
    }
    .to_string();
    if pos.is_check() {
        s.push('+');
    }
    if let Some(o) = pos.outcome() {
        let _ = write!(s, " {} ({})", o.result.as_str(), o.reason);
    }
    s
}

/// Board `i`, which the walk made before reaching it again.
fn board(boards: &mut [Option<Board>], i: usize) -> &mut Board {
    boards[i]
        .as_mut()
        .expect("a board is made before its moves")
}

/// A JSON string, safe inside a `<script>` element.
fn json_str(s: &str) -> String {
    serde_json::to_string(s)
        .unwrap_or_default()
        .replace("</", "<\\/")
}

/// The options a static diagram is drawn with: as a book prints it, the
/// pieces and the annotator's arrows, no highlights.
fn board_options(b: &Board, opts: &Options, flip: bool, size: u32) -> Options {
    Options {
        last_move: None,
        check: Vec::new(),
        marks: b.marks.clone(),
        flip: flip != opts.flip,
        size,
        ..opts.clone()
    }
}

/// A static diagram of a board: `<use>` of its frame, then what stands
/// on it.
fn drawing(b: &Board, frames: &mut Frames, opts: &Options) -> String {
    let d = Diagram::of_position(&b.pos, opts);
    let frame = frames.of(&d);
    let (_, w, h) = &frames.drawn[frame];
    let (pw, ph) = svg::pixels(&d, opts);
    format!(
        "<svg class=\"postal-board static\" viewBox=\"0 0 {w} {h}\" width=\"{pw}\" height=\"{ph}\" aria-hidden=\"true\"><use href=\"#f{frame}\"/>{}</svg>",
        svg::bare_contents(&d, opts)
    )
}

/// The caption of a board: after which move, or the start.
fn caption(b: &Board) -> String {
    match &b.label {
        Some(l) => format!("After {l}"),
        None => "Start position".to_string(),
    }
}

/// Lays out game `n` (from 1) of a page. Fails on the first main-line
/// move that is not legal where it stands.
pub fn lay_out(
    g: &PageGame,
    n: usize,
    opts: &Options,
    frames: &mut Frames,
) -> Result<Laid, ReplayError> {
    // The main line is checked move by move; the variations come from a
    // record that played them.
    let mut pos = g.start.clone();
    for (i, m) in g.moves.iter().enumerate() {
        pos = pos
            .play(&m.mv)
            .map_err(|error| ReplayError { ply: i + 1, error })?;
    }
    let new_board = |pos: Position, frames: &mut Frames| {
        // The live board's frame stays as the pieces move: no hand in it
        // (the script puts the hand in the status line, from `data`).
        let d = Diagram {
            hand: None,
            ..Diagram::of_position(&pos, opts)
        };
        for (_, st) in pos.board.occupied() {
            frames
                .pieces
                .extend(st.pieces().map(|p| (p.color, p.role.index())));
        }
        Board {
            frame: frames.of(&d),
            stacks: d.has_stacks(),
            pos,
            last: None,
            label: None,
            prev: None,
            next: None,
            line: 0,
            marks: Vec::new(),
        }
    };
    let main = g.moves.len();
    // Room for the main line first: ply `i` is board `i`; the
    // variations' boards follow.
    let mut boards: Vec<Option<Board>> = Vec::with_capacity(main + 1);
    boards.push(Some(new_board(g.start.clone(), frames)));
    boards.resize_with(main + 1, || None);
    let mut html = String::new();
    // Diagrams are drawn once the boards' marks are known: each is the
    // place in `html` it goes, its board and whether from Black's side.
    let mut diagrams: Vec<(usize, usize, bool)> = Vec::new();
    let mut pending: Option<(usize, bool)> = None;
    let flush = |pending: &mut Option<(usize, bool)>,
                 html: &mut String,
                 diagrams: &mut Vec<(usize, usize, bool)>| {
        if let Some((b, flip)) = pending.take() {
            diagrams.push((html.len(), b, flip));
        }
    };
    let mut game_commands = Commands::default();
    for c in &g.comments {
        let prose = commands::read(c, &mut game_commands);
        if is_diagram_comment(&prose) {
            pending = Some((0, false));
        } else if !prose.is_empty() {
            let _ = write!(html, "<span class=c>{}</span> ", escape(&prose));
        }
    }
    if let Some(b) = boards[0].as_mut() {
        b.marks = game_commands.marks;
    }

    // For each depth: the board the next move leaves from, and the one
    // the last move left from (a variation starts there).
    let mut at: Vec<usize> = vec![0];
    let mut left: Vec<usize> = vec![0];
    let mut lines = 0;
    let mut line_of: Vec<usize> = vec![0];
    let mut last_walked = 0;
    let mut ply = 0;
    walk(&g.start, &g.moves, &mut |step| match step {
        Step::Comment(c) => {
            let mut cmds = Commands::default();
            let prose = commands::read(c, &mut cmds);
            write_commands(&mut html, &cmds);
            board(&mut boards, last_walked).marks.extend(cmds.marks);
            if is_diagram_comment(&prose) {
                pending = Some((last_walked, false));
            } else if !prose.is_empty() {
                let _ = write!(html, "<span class=c>{}</span> ", escape(&prose));
            }
        }
        Step::Move {
            number,
            text,
            null,
            mv,
            nags,
            after,
            depth,
            ..
        } => {
            flush(&mut pending, &mut html, &mut diagrams);
            let from = at[depth];
            let mut b = new_board(after.clone(), frames);
            b.label = Some(if number.is_empty() {
                format!("{}... {text}", board(&mut boards, from).pos.fullmove)
            } else {
                format!("{number} {text}")
            });
            b.prev = Some(from);
            b.last = (!null).then(|| last_squares(mv));
            b.line = line_of[depth];
            let index = if depth == 0 {
                ply += 1;
                boards[ply] = Some(b);
                ply
            } else {
                boards.push(Some(b));
                boards.len() - 1
            };
            let from_board = board(&mut boards, from);
            if from_board.line == line_of[depth] {
                from_board.next = Some(index);
            }
            left[depth] = from;
            at[depth] = index;
            last_walked = index;
            if !number.is_empty() {
                let _ = write!(html, "{} ", escape(&number));
            }
            // With figurines, the move as written is kept as data.
            if opts.figurines {
                let _ = write!(
                    html,
                    "<a href=#g{n}-{index} data-move=\"{}\">{}",
                    escape(&text),
                    escape(&with_figurines(&text))
                );
            } else {
                let _ = write!(html, "<a href=#g{n}-{index}>{}", escape(&text));
            }
            for &k in nags.iter().filter(|&&k| k <= 6) {
                write_nag(&mut html, k);
            }
            html.push_str("</a> ");
            for &k in nags.iter().filter(|&&k| k > 6) {
                match k {
                    DIAGRAM_NAG => pending = Some((index, false)),
                    DIAGRAM_FROM_BLACK_NAG => pending = Some((index, true)),
                    _ => {
                        write_nag(&mut html, k);
                        html.push(' ');
                    }
                }
            }
        }
        Step::Open => {
            flush(&mut pending, &mut html, &mut diagrams);
            let depth = at.len() - 1;
            lines += 1;
            line_of.push(lines);
            at.push(left[depth]);
            left.push(left[depth]);
            html.push_str("<span class=v>(");
        }
        Step::Close => {
            flush(&mut pending, &mut html, &mut diagrams);
            at.pop();
            left.pop();
            line_of.pop();
            if html.ends_with(' ') {
                html.pop();
            }
            html.push_str(")</span> ");
        }
    });
    let boards: Vec<Board> = boards
        .into_iter()
        .map(|b| b.expect("the walk made every board"))
        .collect();
    flush(&mut pending, &mut html, &mut diagrams);
    if let Some(r) = &g.info.result {
        let _ = write!(html, "<span class=result>{}</span>", escape(r));
    }
    // The final position, as books close a game, unless a diagram of it
    // is already there.
    if !diagrams.iter().any(|&(_, b, _)| b == main) {
        diagrams.push((html.len(), main, false));
    }
    let stacks = boards.iter().any(|b| b.stacks);
    let size = opts.square_pixels(stacks);
    // Insert the diagrams from the last, so the places stay right.
    diagrams.sort_by_key(|&(at, _, _)| at);
    for &(at, b, flip) in diagrams.iter().rev() {
        let board = &boards[b];
        let o = board_options(board, opts, flip, size);
        let figure = format!(
            "<figure class=\"diagram\">{}<figcaption>{}</figcaption></figure>",
            drawing(board, frames, &o),
            escape(&caption(board)),
        );
        html.insert_str(at, &figure);
    }
    let data = data(g, &boards, size);
    Ok(Laid { html, data })
}

/// A `{D}` comment: the annotator asks for a diagram here.
fn is_diagram_comment(prose: &str) -> bool {
    matches!(prose, "D" | "[D]" | "#")
}

/// The squares a move's highlight marks: where it went from and to.
fn last_squares(mv: &Move) -> (Square, Square) {
    (mv.from(), mv.to())
}

fn write_nag(html: &mut String, k: u16) {
    match nag_symbol(k) {
        Some((glyph, meaning)) => {
            let _ = write!(
                html,
                "<span class=nag title=\"{meaning}\">{}</span>",
                escape(glyph)
            );
        }
        None => {
            let _ = write!(html, "<span class=nag>${k}</span>");
        }
    }
}

/// The clock, the time used and the evaluation of a move, beside it.
fn write_commands(html: &mut String, c: &Commands) {
    if let Some(clock) = &c.clock {
        let _ = write!(html, "<span class=clk>{}</span> ", escape(clock));
    }
    if let Some(used) = &c.elapsed {
        let _ = write!(html, "<span class=emt>{}</span> ", escape(used));
    }
    if let Some(eval) = &c.eval {
        let _ = write!(html, "<span class=ev>{}</span> ", escape(eval));
    }
}

/// The boards as JSON: `{"result", "last", "size", "glyphs", "boards"}`:
/// the result, the main line's last board, the pixels a square, the
/// glyph of each piece letter, and the boards, each one
/// string of fields separated by `|`, an empty field meaning the usual
/// value (page.js reads it):
///
/// 1. the board it comes from (empty: the one before it; `-`: none);
/// 2. the board after it on its line (empty: the one after it; `-`: none);
/// 3. its squares: `=` and every occupied square (`a1:R b1:N ..`) for the
///    first board and any whose frame differs from the one it comes
///    from, else the squares that changed (`e2: e4:P`);
/// 4. the squares of the last move (empty: the square emptied and the
///    square filled, when those are the two changes; `-`: none);
/// 5. the squares of a king in check;
/// 6. the state: `w` or `b` to move, `+` when in check, then after a
///    space how the game ended by the rules, if it did;
/// 7. its frame (empty: that of the board it comes from);
/// 8. its move number (empty: the one before it, plus one after Black
///    moved);
/// 9. the arrows (`Ge2>e4`) and marked squares (`Rd4`) of its move, as
///    the colour's letter and the squares;
/// 10. the pieces in hand, in words, only where the variant has them
///     ([`crate::render::hand_note`]).
fn data(g: &PageGame, boards: &[Board], size: u32) -> String {
    let mut out = String::with_capacity(32 * boards.len());
    let kristensen = g.start.variant == Variant::Kristensen;
    let mut glyph_ids: BTreeMap<char, String> = BTreeMap::new();
    for b in boards {
        for (_, st) in b.pos.board.occupied() {
            for p in st.pieces() {
                glyph_ids
                    .entry(p.char())
                    .or_insert_with(|| glyphs::id(p, kristensen));
            }
        }
    }
    let glyph_ids: Vec<String> = glyph_ids
        .iter()
        .map(|(c, id)| format!("{}:{}", json_str(&c.to_string()), json_str(id)))
        .collect();
    let _ = write!(
        out,
        "{{\"result\":{},\"last\":{},\"size\":{size},\"glyphs\":{{{}}},\"boards\":[",
        json_str(g.info.result.as_deref().unwrap_or("")),
        g.moves.len(),
        glyph_ids.join(",")
    );
    let placements: Vec<BTreeMap<Square, String>> =
        boards.iter().map(|b| placement(&b.pos)).collect();
    for (i, b) in boards.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        let link = |other: Option<usize>, usual: Option<usize>| match other {
            o if o == usual => String::new(),
            Some(o) => o.to_string(),
            None => "-".to_string(),
        };
        let from = b.prev.map(|p| &boards[p]);
        let (squares, emptied, filled) = match b.prev {
            Some(p) if boards[p].frame == b.frame => {
                let (before, now) = (&placements[p], &placements[i]);
                let mut changed: Vec<String> = Vec::new();
                let (mut emptied, mut filled) = (Vec::new(), Vec::new());
                for sq in before.keys() {
                    if !now.contains_key(sq) {
                        changed.push(format!("{sq}:"));
                        emptied.push(*sq);
                    }
                }
                for (sq, letters) in now {
                    if before.get(sq) != Some(letters) {
                        changed.push(format!("{sq}:{letters}"));
                        filled.push(*sq);
                    }
                }
                (changed.join(" "), emptied, filled)
            }
            _ => {
                let all: Vec<String> = placements[i]
                    .iter()
                    .map(|(sq, l)| format!("{sq}:{l}"))
                    .collect();
                (format!("={}", all.join(" ")), Vec::new(), Vec::new())
            }
        };
        let usual_last = match (emptied.as_slice(), filled.as_slice()) {
            ([a], [z]) => Some((*a, *z)),
            _ => None,
        };
        let last = match b.last {
            l if l == usual_last => String::new(),
            Some((a, z)) => format!("{a} {z}"),
            None => "-".to_string(),
        };
        let check: Vec<String> = check_squares(&b.pos)
            .iter()
            .map(|s| s.to_string())
            .collect();
        let frame = match from {
            Some(f) if f.frame == b.frame => String::new(),
            _ => b.frame.to_string(),
        };
        let number = match from {
            Some(f)
                if b.pos.fullmove
                    == f.pos.fullmove
                        + u32::from(f.pos.turn == Color::Black && b.pos.turn == Color::White) =>
            {
                String::new()
            }
            _ => b.pos.fullmove.to_string(),
        };
        let marks: Vec<String> = b
            .marks
            .iter()
            .map(|m| match *m {
                Mark::Arrow { from, to, colour } => format!("{}{from}>{to}", colour.letter()),
                Mark::Square { square, colour } => format!("{}{square}", colour.letter()),
            })
            .collect();
        let mut fields = vec![
            link(b.prev, i.checked_sub(1)),
            link(b.next, Some(i + 1)),
            squares,
            last,
            check.join(" "),
            state(&b.pos),
            frame,
            number,
            marks.join(" "),
        ];
        fields.extend(crate::render::hand_note(&b.pos));
        out.push_str(&json_str(&fields.join("|")));
    }
    out.push_str("]}");
    out
}
