//! Diagrams of positions: ASCII (the style of the rule pages, readable in a
//! plain-text mail), Unicode chess glyphs, SVG, PNG (the SVG rasterised by
//! resvg with a built-in font), and an HTML page that replays a game.
//!
//! Every output walks the board through one [`Diagram`]: the columns and
//! rows in the order they are drawn (flipped for Black's view), each square
//! with what stands on it and whether it is highlighted, the Corral prison
//! and the legend of fairy pieces. So a grown Building board (holes drawn
//! as gaps), Corral stacks and the prison draw the same way in every
//! format as a plain 8x8 board.
//!
//! The one entry point for a single position is [`render`]; a whole game
//! is [`html::game`], or [`score::score`] as published text.

pub mod ascii;
pub mod glyphs;
pub mod html;
pub mod png;
pub mod score;
pub mod svg;
pub mod unicode;

use crate::board::Board;
use crate::color::Color;
use crate::mv::Move;
use crate::piece::{Role, Stack};
use crate::position::Position;
pub use crate::record::commands::{Mark, MarkColour};
use crate::square::Square;
use crate::variant::Variant;

/// An output format of [`render`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Letters, as on the rule pages (upper case White).
    Ascii,
    /// Chess glyphs (♔ ♚ ...), circled letters for the fairy pieces.
    Unicode,
    Svg,
    Png,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Ascii, Format::Unicode, Format::Svg, Format::Png];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ascii => "ascii",
            Format::Unicode => "unicode",
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// True for the formats that are text (ASCII, Unicode, SVG).
    pub fn is_text(self) -> bool {
        self != Format::Png
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Pixels per square of SVG and PNG output when [`Options::size`] is 0
/// (the default) and no square holds a stack.
pub const DEFAULT_SQUARE_PIXELS: u32 = 40;
/// Pixels per square by default when a square holds a Corral stack: large
/// enough that each piece of a stack of four is drawn some 27 pixels high.
pub const STACK_SQUARE_PIXELS: u32 = 64;

/// Options common to every rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Draw the board from Black's side.
    pub flip: bool,
    /// The squares the last move went from and to, highlighted.
    pub last_move: Option<(Square, Square)>,
    /// Squares of kings in check, highlighted.
    pub check: Vec<Square>,
    /// File letters and rank numbers on the edges.
    pub coordinates: bool,
    /// Pixels per square of SVG and PNG output; 0 (the default) chooses
    /// [`DEFAULT_SQUARE_PIXELS`], or [`STACK_SQUARE_PIXELS`] for a board
    /// with stacks.
    pub size: u32,
    /// Moves in lists written with figurines (`♘f3`) for their letters.
    pub figurines: bool,
    /// Arrows and marked squares (a record's `[%cal]` and `[%csl]`),
    /// drawn over the pieces by SVG and PNG.
    pub marks: Vec<Mark>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flip: false,
            last_move: None,
            check: Vec::new(),
            coordinates: true,
            size: 0,
            figurines: false,
            marks: Vec::new(),
        }
    }
}

impl Options {
    /// Options that highlight what a position shows: the kings in check.
    /// `last` is the move that led to the position, if known.
    pub fn for_position(pos: &Position, last: Option<&Move>) -> Options {
        Options {
            last_move: last.map(|m| (m.from(), m.to())),
            check: check_squares(pos),
            ..Options::default()
        }
    }

    /// Pixels per square, never 0: the size asked for, else larger for a
    /// board with stacks (`stacks`) than for one without.
    pub fn square_pixels(&self, stacks: bool) -> u32 {
        match self.size {
            0 if stacks => STACK_SQUARE_PIXELS,
            0 => DEFAULT_SQUARE_PIXELS,
            n => n,
        }
    }
}

/// The squares of the side to move's kings when it is in check: the kings
/// that are attacked, or all its kings when the variant's notion of check
/// names none in particular.
pub fn check_squares(pos: &Position) -> Vec<Square> {
    if !pos.is_check() {
        return Vec::new();
    }
    let kings = pos.find(pos.turn, Role::King);
    let attacked: Vec<Square> = kings
        .iter()
        .filter(|&&i| pos.is_attacked(i, !pos.turn))
        .map(|&i| pos.board.square(i))
        .collect();
    if attacked.is_empty() {
        kings.iter().map(|&i| pos.board.square(i)).collect()
    } else {
        attacked
    }
}

/// Renders one position in a format: UTF-8 text for ASCII, Unicode and
/// SVG, PNG bytes for PNG.
pub fn render(pos: &Position, format: Format, opts: &Options) -> Vec<u8> {
    match format {
        Format::Ascii => ascii::position(pos, opts.clone()).into_bytes(),
        Format::Unicode => unicode::position(pos, opts).into_bytes(),
        Format::Svg => svg::position(pos, opts).into_bytes(),
        Format::Png => png::position(pos, opts),
    }
}

/// One square of a diagram, in drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub square: Square,
    /// Column and row in the drawing (0, 0 is top left).
    pub col: usize,
    pub row: usize,
    pub stack: Stack,
    pub light: bool,
    /// The last move started or ended here.
    pub last_move: bool,
    /// A king in check stands here.
    pub check: bool,
}

/// A board laid out for drawing: what every format walks.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub variant: Option<Variant>,
    /// File of each column, left to right as drawn.
    pub files: Vec<i16>,
    /// Rank of each row, top to bottom as drawn.
    pub ranks: Vec<i16>,
    /// The squares on the board, row by row; holes have no cell.
    pub cells: Vec<Cell>,
    /// The Corral prison (CO-1), when the board has one, and the column it
    /// is drawn under (the c file's, "below c5").
    pub prison: Option<(Cell, usize)>,
    pub coordinates: bool,
    /// Fairy pieces to name in a legend (rules differ from FIDE's).
    pub legend: Vec<Role>,
    /// When the board spans more than [`MAX_DRAWN`] files or ranks, the
    /// diagram shows the part around the pieces, and this says so.
    pub part: Option<String>,
    /// The pieces in hand, in words, where the variant has drops
    /// ([`hand_note`]).
    pub hand: Option<String>,
}

/// The most files or ranks a diagram draws: a larger grown Building board
/// is drawn around its pieces ([`Diagram::part`]), so that every square
/// stays readable (a PNG at most `png::MAX_SIDE` pixels a side).
pub const MAX_DRAWN: i16 = 64;

/// The files (or ranks) `lo..=hi` of a board, cut to the part around the
/// pieces' `plo..=phi` when longer than [`MAX_DRAWN`]: the pieces and two
/// squares about them, at least `MAX_DRAWN` squares where the board has
/// them, centred on the pieces.
fn window(lo: i16, hi: i16, plo: i16, phi: i16) -> (i16, i16) {
    if (hi as i32 - lo as i32) < MAX_DRAWN as i32 {
        return (lo, hi);
    }
    let (mut a, mut b) = ((plo - 2).max(lo), (phi + 2).min(hi));
    let short = MAX_DRAWN as i32 - (b as i32 - a as i32 + 1);
    if short > 0 {
        let left = (short / 2).min(a as i32 - lo as i32);
        a -= left as i16;
        b = (b as i32 + (short - left)).min(hi as i32) as i16;
        a = (a as i32)
            .min(b as i32 - MAX_DRAWN as i32 + 1)
            .max(lo as i32) as i16;
    }
    (a, b)
}

impl Diagram {
    /// Lays out a board. `variant` decides the glyph set and the legend.
    pub fn new(board: &Board, variant: Option<Variant>, opts: &Options) -> Diagram {
        let full = board.bounds();
        let (minf, minr, maxf, maxr) = full;
        // The pieces' box (the whole board when it has none).
        let mut pieces = (maxf, maxr, minf, minr);
        for (sq, _) in board.occupied().filter(|(s, _)| !s.is_prison()) {
            pieces = (
                pieces.0.min(sq.file),
                pieces.1.min(sq.rank),
                pieces.2.max(sq.file),
                pieces.3.max(sq.rank),
            );
        }
        if pieces.0 > pieces.2 {
            pieces = full;
        }
        let (minf, maxf) = window(minf, maxf, pieces.0, pieces.2);
        let (minr, maxr) = window(minr, maxr, pieces.1, pieces.3);
        let part = ((minf, minr, maxf, maxr) != full).then(|| {
            format!(
                "Part of the board: files {} to {}, ranks {} to {} of {} to {}, {} to {} ({} squares).",
                file_label(minf),
                file_label(maxf),
                rank_label(minr),
                rank_label(maxr),
                file_label(full.0),
                file_label(full.2),
                rank_label(full.1),
                rank_label(full.3),
                board.square_count()
            )
        });
        let mut files: Vec<i16> = (minf..=maxf).collect();
        let mut ranks: Vec<i16> = (minr..=maxr).rev().collect();
        if opts.flip {
            files.reverse();
            ranks.reverse();
        }
        let cell = |square: Square, col: usize, row: usize, stack: Stack| Cell {
            square,
            col,
            row,
            stack,
            // The prison is off the grid: no checkerboard colour.
            light: !square.is_prison() && square.is_light(),
            last_move: opts
                .last_move
                .is_some_and(|(a, b)| a == square || b == square),
            check: opts.check.contains(&square),
        };
        // By the board's squares, not its box: a grown board's box can
        // be mostly holes.
        let at = |v: i16, lo: i16, hi: i16, n: usize, flip: bool| {
            (lo..=hi).contains(&v).then(|| {
                let k = (v - lo) as usize;
                if flip {
                    n - 1 - k
                } else {
                    k
                }
            })
        };
        let mut cells: Vec<Cell> = board
            .squares()
            .filter_map(|sq| {
                let col = at(sq.file, minf, maxf, files.len(), opts.flip)?;
                let row = at(sq.rank, minr, maxr, ranks.len(), !opts.flip)?;
                Some(cell(sq, col, row, board.get(sq)?))
            })
            .collect();
        cells.sort_unstable_by_key(|c| (c.row, c.col));
        let prison = board.get(Square::PRISON).map(|stack| {
            // CO-1: the prison lies below c5; draw it under the c file.
            let col = files
                .iter()
                .position(|&f| f == 3)
                .unwrap_or(files.len() / 2);
            (cell(Square::PRISON, col, ranks.len(), stack), col)
        });
        let mut legend: Vec<Role> = match variant {
            Some(Variant::Disintegration) => vec![Role::Fyetin],
            Some(Variant::Kristensen) => vec![Role::Rook, Role::Bishop, Role::Barrier],
            _ => Vec::new(),
        };
        // A defined variant's kinds beyond FIDE's are named too, in the
        // order of their letters.
        let mut others: Vec<Role> = match variant {
            Some(Variant::Defined(_)) => board
                .occupied()
                .flat_map(|(_, st)| st.pieces())
                .map(|p| p.role)
                .filter(|&r| {
                    !matches!(
                        r,
                        Role::King
                            | Role::Queen
                            | Role::Rook
                            | Role::Bishop
                            | Role::Knight
                            | Role::Pawn
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        others.sort_by_key(|r| r.char());
        others.dedup();
        for role in [Role::Fyetin, Role::Barrier].into_iter().chain(others) {
            let present = board
                .occupied()
                .any(|(_, st)| st.pieces().any(|p| p.role == role));
            if present && !legend.contains(&role) {
                legend.push(role);
            }
        }
        Diagram {
            variant,
            files,
            ranks,
            cells,
            prison,
            coordinates: opts.coordinates,
            legend,
            part,
            hand: None,
        }
    }

    /// Lays out a position's board.
    pub fn of_position(pos: &Position, opts: &Options) -> Diagram {
        Diagram {
            hand: hand_note(pos),
            ..Diagram::new(&pos.board, Some(pos.variant), opts)
        }
    }

    /// The notes under the board: where the off-grid coordinates come
    /// from, the part drawn, the pieces in hand.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        (self.coordinates && self.off_grid())
            .then_some(OFF_GRID_KEY)
            .into_iter()
            .chain(self.part.as_deref())
            .chain(self.hand.as_deref())
    }

    /// The label of a column: its file letter, or `(n,_)` off the a-z
    /// grid (see [`file_label`]).
    pub fn file_label(&self, col: usize) -> String {
        file_label(self.files[col])
    }

    /// The label of a row: its rank number, or `(_,n)` off the 1-99 grid.
    pub fn rank_label(&self, row: usize) -> String {
        rank_label(self.ranks[row])
    }

    /// True when some square is off the a1 grid, so that the diagram
    /// shows [`OFF_GRID_KEY`].
    pub fn off_grid(&self) -> bool {
        self.files.iter().any(|f| !(1..=26).contains(f))
            || self.ranks.iter().any(|r| !(1..=99).contains(r))
    }

    /// True when some square holds more than one piece (a Corral stack).
    pub fn has_stacks(&self) -> bool {
        self.cells
            .iter()
            .chain(self.prison.iter().map(|(c, _)| c))
            .any(|c| c.stack.pieces().nth(1).is_some())
    }

    /// The cell at a column and row, if that square is on the board.
    pub fn cell_at(&self, col: usize, row: usize) -> Option<&Cell> {
        let i = self
            .cells
            .binary_search_by(|c| (c.row, c.col).cmp(&(row, col)))
            .ok()?;
        self.cells.get(i)
    }

    /// True when the variant's rook and bishop are Kristensen's (KR-3,
    /// KR-4), drawn with their own glyphs.
    pub fn kristensen(&self) -> bool {
        self.variant == Some(Variant::Kristensen)
    }

    /// What the legend says of a kind: a defined variant's name for it
    /// and its movement (issue 33), else the built-in words.
    pub fn legend_text(&self, role: Role) -> String {
        match self.variant.and_then(Variant::defined) {
            Some(d) => match d.piece_name(role) {
                Some(name) => name,
                None => role.name().to_string(),
            },
            None => glyphs::legend_text(role, self.kristensen()).to_string(),
        }
    }
}

/// A file's label: its letter, or for a file off the a-z grid (a grown
/// Building board) `(n,_)`, the square name as moves write it with the
/// rank left blank: `(0,_)` above `3` is `(0,3)`.
pub fn file_label(file: i16) -> String {
    Square::new(file, 1)
        .file_char()
        .map(|c| c.to_string())
        .unwrap_or_else(|| format!("({file},_)"))
}

/// A rank's label: its number, or for a rank off the 1-99 grid `(_,n)`,
/// the square name as moves write it with the file left blank, to be
/// filled in as a number (a = 1): `(_,0)` beside `b` is `(2,0)`.
pub fn rank_label(rank: i16) -> String {
    if (1..=99).contains(&rank) {
        rank.to_string()
    } else {
        format!("(_,{rank})")
    }
}

/// The line under a diagram with squares off the a1 grid: how to name them.
/// (No move-like word in it, so a reader of published scores takes it
/// for prose.)
pub const OFF_GRID_KEY: &str =
    "squares off the grid are (file,rank), with files counted from a = 1";

/// Whose move it is and what the highlights mean, under a text board.
/// The pieces each side holds in hand, in words, where the variant has
/// drops: `in hand: White Q N P P; Black none`.
pub fn hand_note(pos: &Position) -> Option<String> {
    let side = |color: Color| -> Option<String> {
        let hand = pos.hand(color)?;
        if hand.is_empty() {
            return Some("none".into());
        }
        let letters: Vec<String> = hand
            .iter()
            .flat_map(|&(role, n)| std::iter::repeat_n(role.char().to_string(), n as usize))
            .collect();
        Some(letters.join(" "))
    };
    Some(format!(
        "in hand: White {}; Black {}",
        side(Color::White)?,
        side(Color::Black)?
    ))
}

fn status_lines(turn: Color, opts: &Options) -> String {
    let mut out = format!("{turn} to move");
    if !opts.check.is_empty() {
        let squares: Vec<String> = opts.check.iter().map(|s| s.to_string()).collect();
        out.push_str(&format!(", in check ({})", squares.join(", ")));
    }
    out.push('\n');
    if let Some((from, to)) = opts.last_move {
        out.push_str(&format!("last move from {from} to {to}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_the_geometry() {
        let p = Position::start(Variant::Gardner);
        let d = Diagram::of_position(&p, &Options::default());
        assert_eq!(d.files, vec![1, 2, 3, 4, 5]);
        assert_eq!(d.ranks, vec![5, 4, 3, 2, 1]);
        assert_eq!(d.cells.len(), 25);
        assert_eq!(d.cell_at(0, 0).map(|c| c.square), Some(Square::new(1, 5)));
        let flipped = Diagram::of_position(
            &p,
            &Options {
                flip: true,
                ..Options::default()
            },
        );
        assert_eq!(
            flipped.cell_at(0, 0).map(|c| c.square),
            Some(Square::new(5, 1))
        );
    }

    #[test]
    fn holes_have_no_cell() {
        let mut b = Board::rect(2, 2);
        b.add_square(Square::new(0, 1));
        let d = Diagram::new(&b, None, &Options::default());
        assert_eq!(d.files, vec![0, 1, 2]);
        assert_eq!(d.cells.len(), 5);
        assert!(d.cell_at(0, 0).is_none());
        assert_eq!(d.file_label(0), "(0,_)");
        assert!(d.off_grid());
        assert_eq!(rank_label(0), "(_,0)");
        assert_eq!(rank_label(-1), "(_,-1)");
        assert_eq!(rank_label(99), "99");
        assert_eq!(file_label(-1), "(-1,_)");
    }

    #[test]
    fn check_highlights_the_attacked_king() {
        let p = Position::from_text(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R b K - 0 1").unwrap();
        assert!(check_squares(&p).is_empty());
        let p = Position::from_text(Variant::Chess, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        assert_eq!(check_squares(&p), vec![Square::new(5, 8)]);
    }

    #[test]
    fn formats_by_name() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        assert_eq!(Format::from_name("PNG"), Some(Format::Png));
        assert_eq!(Format::from_name("gif"), None);
    }
}
