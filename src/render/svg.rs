//! SVG diagrams. Squares are `<rect class="sq light|dark">` with a
//! `data-square` name, so a stylesheet can recolour them; each glyph is
//! defined once in `<defs>` and placed with `<use>`; the pieces of one
//! square are a `<g data-square=.. data-pieces=..>` (a Corral stack shows
//! every piece, smaller, with a count); the ASCII board is in `<desc>`.
//! Holes of a Building board are gaps; the Corral prison is a cell drawn
//! under the c file; a legend under the board names the fairy pieces.
//!
//! Lengths are in units of 1/100 of a square; the `width` and `height`
//! attributes scale that to [`Options::size`] pixels per square.

use super::{glyphs, Cell, Diagram, Mark, Options};
use crate::color::Color;
use crate::piece::{Piece, Stack};
use crate::position::Position;
use crate::square::Square;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Units per square.
pub const UNIT: i64 = 100;
/// Margin around everything.
const PAD: i64 = 10;
/// Width of the rank-number band and height of the file-letter band.
const COORD: i64 = 44;
/// Height of one legend line, and the size of its glyph.
const LEGEND_LINE: i64 = 56;
const LEGEND_GLYPH: i64 = 50;
/// Font sizes, and a generous estimate of a character's width, used to
/// make room for the legend's text.
const COORD_FONT: i64 = 26;
const LEGEND_FONT: i64 = 22;
const CHAR_WIDTH: f64 = 0.56;

/// The font the text asks for: the one built into the PNG renderer, then
/// whatever a browser has.
pub const FONT_FAMILY: &str = "Go, 'DejaVu Sans', Arial, sans-serif";

/// The stylesheet of the squares and highlights.
pub const STYLE: &str = ".light{fill:#ede2c8}.dark{fill:#b0885e}.prison{fill:#8d8a84}\
.last{fill:#f2cf3a;fill-opacity:0.5}.check{fill:url(#check)}\
.coord{fill:#4a4a4a}.legend{fill:#222}";

/// The red glow under a king in check.
const CHECK_GRADIENT: &str = "<radialGradient id=\"check\"><stop offset=\"0\" stop-color=\"#ff1a1a\" stop-opacity=\"1\"/><stop offset=\"0.5\" stop-color=\"#e41010\" stop-opacity=\"0.8\"/><stop offset=\"1\" stop-color=\"#a00\" stop-opacity=\"0\"/></radialGradient>";

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Where things go in a drawing of a diagram.
struct Layout {
    /// Top-left corner of the board.
    x0: i64,
    y0: i64,
    /// Top of the prison row, if any.
    prison_y: Option<i64>,
    /// The legend: each fairy piece's top and its text in lines.
    legend: Vec<(i64, Vec<String>)>,
    /// The lines of [`super::OFF_GRID_KEY`] and their baselines.
    key: Vec<(i64, String)>,
    width: i64,
    height: i64,
}

fn text_width(text: &str, font: i64) -> i64 {
    (text.chars().count() as f64 * font as f64 * CHAR_WIDTH).ceil() as i64
}

/// Breaks text into lines of at most `width` units at spaces.
fn wrap(text: &str, width: i64) -> Vec<String> {
    wrap_in(text, width, LEGEND_FONT)
}

/// Breaks text set in `font` into lines of at most `width` at spaces.
fn wrap_in(text: &str, width: i64, font: i64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), font) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The prison's label, in two lines beside its cell.
const PRISON_LABEL: [&str; 2] = ["prison", "(below c5)"];
/// Line height of legend text.
const LEGEND_LEADING: i64 = 28;
/// The narrowest the legend's text may be, in units.
const LEGEND_MIN_WIDTH: i64 = 380;

/// Width of the rank-label band: [`COORD`], or wider for labels like
/// `(_,-1)`.
fn rank_band(d: &Diagram) -> i64 {
    (0..d.ranks.len())
        .map(|row| text_width(&d.rank_label(row), COORD_FONT) + 12)
        .chain([COORD])
        .max()
        .unwrap_or(COORD)
}

fn layout(d: &Diagram) -> Layout {
    let coord = if d.coordinates { COORD } else { 0 };
    let band = if d.coordinates { rank_band(d) } else { 0 };
    let x0 = PAD + band;
    let y0 = PAD;
    let cols = d.files.len() as i64;
    let rows = d.ranks.len() as i64;
    let mut width = x0 + cols * UNIT + PAD;
    let mut y = y0 + rows * UNIT + coord;
    let mut key = Vec::new();
    let room = (cols * UNIT).max(LEGEND_MIN_WIDTH);
    for note in d.notes() {
        for line in wrap(note, room) {
            width = width.max(x0 + text_width(&line, LEGEND_FONT) + PAD);
            key.push((y + LEGEND_FONT * 35 / 100 + LEGEND_LEADING / 2, line));
            y += LEGEND_LEADING;
        }
    }
    let prison_y = d.prison.as_ref().map(|(_, col)| {
        let top = y + 20;
        y = top + UNIT;
        let label = PRISON_LABEL
            .iter()
            .map(|l| text_width(l, LEGEND_FONT))
            .max();
        width = width.max(x0 + (*col as i64 + 1) * UNIT + 16 + label.unwrap_or(0) + PAD);
        top
    });
    let mut legend = Vec::new();
    if !d.legend.is_empty() {
        y += 20;
        let text_x = x0 + LEGEND_GLYPH + 10;
        let room = (cols * UNIT - LEGEND_GLYPH - 10).max(LEGEND_MIN_WIDTH);
        for &role in &d.legend {
            let lines = wrap(&d.legend_text(role), room);
            let widest = lines.iter().map(|l| text_width(l, LEGEND_FONT)).max();
            width = width.max(text_x + widest.unwrap_or(0) + PAD);
            let height = (lines.len() as i64 * LEGEND_LEADING + 14).max(LEGEND_LINE);
            legend.push((y, lines));
            y += height;
        }
    }
    Layout {
        x0,
        y0,
        prison_y,
        legend,
        key,
        width,
        height: y + PAD,
    }
}

/// Where a cell's square is drawn: its top-left corner.
fn cell_origin(l: &Layout, c: &Cell) -> (i64, i64) {
    match l.prison_y {
        Some(py) if c.square.is_prison() => (l.x0 + c.col as i64 * UNIT, py),
        _ => (l.x0 + c.col as i64 * UNIT, l.y0 + c.row as i64 * UNIT),
    }
}

/// The glyphs a diagram needs, in a stable order.
fn pieces_used(d: &Diagram) -> BTreeSet<(Color, usize)> {
    let mut set = BTreeSet::new();
    let cells = d.cells.iter().chain(d.prison.iter().map(|(c, _)| c));
    for c in cells {
        for p in c.stack.pieces() {
            set.insert((p.color, p.role.index()));
        }
    }
    for &role in &d.legend {
        set.insert((Color::White, role.index()));
    }
    set
}

/// `<defs>`: the check glow and the glyphs of `pieces`.
pub fn defs(pieces: impl IntoIterator<Item = Piece>, kristensen: bool) -> String {
    let mut out = String::from("<defs>");
    out.push_str(CHECK_GRADIENT);
    out.push('\n');
    for p in pieces {
        out.push_str(&glyphs::def(p, kristensen));
        out.push('\n');
    }
    out.push_str("</defs>\n");
    out
}

/// The pieces standing on one square: one glyph filling the square, or a
/// stack's glyphs in a grid with a count in the corner.
fn stack_svg(out: &mut String, x: i64, y: i64, square: &str, stack: Stack, kristensen: bool) {
    let pieces: Vec<Piece> = stack.pieces().collect();
    if pieces.is_empty() {
        return;
    }
    if square.is_empty() && pieces.len() == 1 {
        // A bare piece: its glyph alone.
        let _ = write!(
            out,
            "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
            glyphs::id(pieces[0], kristensen)
        );
        return;
    }
    let letters: String = pieces.iter().map(|p| p.char()).collect();
    let _ = write!(
        out,
        "<g class=\"pieces\" data-square=\"{square}\" data-pieces=\"{letters}\">"
    );
    if pieces.len() == 1 {
        let _ = write!(
            out,
            "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
            glyphs::id(pieces[0], kristensen)
        );
    } else {
        // A grid of smaller glyphs in the lower left 86% of the square,
        // leaving the top right corner to the count.
        let n = pieces.len();
        let k = (1..).find(|k| k * k >= n).unwrap_or(n) as i64;
        let cell = UNIT * 86 / 100 / k;
        let scale = cell as f64 / UNIT as f64;
        let rows = (n as i64 + k - 1) / k;
        let top = y + UNIT - rows * cell;
        for (i, p) in pieces.iter().enumerate() {
            let px = x + (i as i64 % k) * cell;
            let py = top + (i as i64 / k) * cell;
            let _ = write!(
                out,
                "<use href=\"#{}\" transform=\"translate({px} {py}) scale({scale:.4})\"/>",
                glyphs::id(*p, kristensen)
            );
        }
        let _ = write!(
            out,
            "<g class=\"count\"><circle cx=\"{}\" cy=\"{}\" r=\"14\" fill=\"#a01818\" stroke=\"#fff\" stroke-width=\"2\"/>\
<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-family=\"{FONT_FAMILY}\" font-size=\"20\" font-weight=\"bold\" fill=\"#fff\">{n}</text></g>",
            x + UNIT - 15,
            y + 15,
            x + UNIT - 15,
            y + 22,
        );
    }
    out.push_str("</g>\n");
}

/// The parts of a board drawing.
pub struct Parts {
    /// Whether to include `<style>` and `<defs>` (false when a page shares
    /// one set among many boards).
    pub standalone: bool,
    /// `<title>` text.
    pub title: String,
    /// `<desc>` text: the ASCII board.
    pub desc: String,
    /// Extra attributes for the root element (already escaped).
    pub attributes: String,
}

/// Draws a diagram.
pub fn document(d: &Diagram, opts: &Options, parts: &Parts) -> String {
    let l = layout(d);
    let kristensen = d.kristensen();
    let mut out = String::with_capacity(8192);
    let (pw, ph) = pixels(d, opts);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"postal-board\" viewBox=\"0 0 {w} {h}\" width=\"{pw}\" height=\"{ph}\"{attrs}>",
        w = l.width,
        h = l.height,
        attrs = parts.attributes,
    );
    out.push('\n');
    let _ = writeln!(out, "<title>{}</title>", escape(&parts.title));
    let _ = writeln!(out, "<desc>\n{}</desc>", escape(&parts.desc));
    if parts.standalone {
        let _ = writeln!(out, "<style>{STYLE}</style>");
        let pieces = pieces_used(d)
            .into_iter()
            .map(|(c, r)| Piece::new(c, crate::piece::Role::from_index(r)));
        out.push_str(&defs(pieces, kristensen));
    }
    // Squares, then highlights, then pieces, so nothing hides a piece.
    squares(&mut out, d, &l);
    out.push_str(&contents(d, opts));
    labels(&mut out, d, &l);
    out.push_str("</svg>\n");
    out
}

/// The size of a diagram's drawing in pixels, at the options' size.
pub fn pixels(d: &Diagram, opts: &Options) -> (i64, i64) {
    let l = layout(d);
    let px = opts.square_pixels(d.has_stacks()) as i64;
    (
        (l.width * px + UNIT / 2) / UNIT,
        (l.height * px + UNIT / 2) / UNIT,
    )
}

/// The empty board of a diagram, with its coordinates, notes, prison and
/// legend, and its size in units: what stays the same while the pieces
/// move, drawn once by a page ([`super::html`]) and shared by its boards.
pub fn frame(d: &Diagram) -> (String, i64, i64) {
    let l = layout(d);
    let mut out = String::new();
    squares(&mut out, d, &l);
    labels(&mut out, d, &l);
    (out, l.width, l.height)
}

/// The squares of a diagram, each a `rect` with its name.
fn squares(out: &mut String, d: &Diagram, l: &Layout) {
    out.push_str("<g class=\"squares\">\n");
    for c in d.cells.iter().chain(d.prison.iter().map(|(c, _)| c)) {
        let (x, y) = cell_origin(l, c);
        let class = if c.square.is_prison() {
            "prison"
        } else if c.light {
            "light"
        } else {
            "dark"
        };
        let _ = writeln!(
            out,
            "<rect class=\"sq {class}\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\" data-square=\"{}\"/>",
            c.square
        );
    }
    out.push_str("</g>\n");
}

/// What stands on a diagram's frame ([`frame`]): the highlights of the
/// last move and of a king in check, the pieces, and the options' arrows
/// and marked squares.
pub fn contents(d: &Diagram, opts: &Options) -> String {
    contents_in(d, opts, true)
}

/// [`contents`] with the pieces bare, without naming their squares: the
/// static diagrams of a page, where every byte counts a few hundred times.
pub fn bare_contents(d: &Diagram, opts: &Options) -> String {
    contents_in(d, opts, false)
}

fn contents_in(d: &Diagram, opts: &Options, named: bool) -> String {
    let l = layout(d);
    let kristensen = d.kristensen();
    let mut out = String::new();
    let cells: Vec<&Cell> = d
        .cells
        .iter()
        .chain(d.prison.iter().map(|(c, _)| c))
        .collect();
    for c in cells.iter().filter(|c| c.last_move) {
        let (x, y) = cell_origin(&l, c);
        let _ = writeln!(
            out,
            "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\"/>"
        );
    }
    for c in cells.iter().filter(|c| c.check) {
        let (x, y) = cell_origin(&l, c);
        let _ = writeln!(
            out,
            "<rect class=\"check\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\"/>"
        );
    }
    for c in &cells {
        let (x, y) = cell_origin(&l, c);
        let square = if named {
            c.square.to_string()
        } else {
            String::new()
        };
        stack_svg(&mut out, x, y, &square, c.stack, kristensen);
    }
    out.push_str(&marks(d, &opts.marks));
    out
}

/// Arrows and marked squares over a diagram, as lichess draws them: a
/// ring in the square, an arrow from centre to centre. Marks on squares
/// not drawn are left out.
pub fn marks(d: &Diagram, marks: &[Mark]) -> String {
    if marks.is_empty() {
        return String::new();
    }
    let l = layout(d);
    let centre = |sq: Square| {
        d.cells
            .iter()
            .chain(d.prison.iter().map(|(c, _)| c))
            .find(|c| c.square == sq)
            .map(|c| {
                let (x, y) = cell_origin(&l, c);
                ((x + UNIT / 2) as f64, (y + UNIT / 2) as f64)
            })
    };
    let mut out = String::from("<g class=\"marks\" opacity=\"0.8\">");
    for m in marks {
        match *m {
            Mark::Square { square, colour } => {
                if let Some((x, y)) = centre(square) {
                    let _ = write!(
                        out,
                        "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"8\" data-mark=\"{}{square}\"/>",
                        UNIT / 2 - 6,
                        colour.css(),
                        colour.letter()
                    );
                }
            }
            Mark::Arrow { from, to, colour } => {
                let (Some(a), Some(b)) = (centre(from), centre(to)) else {
                    continue;
                };
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt();
                if len == 0.0 {
                    continue;
                }
                let (ux, uy) = (dx / len, dy / len);
                // Shaft half width, head half width and length, in units.
                let (w, hw, hl) = (7.5, 22.0, 40.0);
                let base = (b.0 - ux * hl, b.1 - uy * hl);
                let p = |x: f64, y: f64, s: f64| format!("{:.1},{:.1}", x - uy * s, y + ux * s);
                let points = [
                    p(a.0, a.1, w),
                    p(base.0, base.1, w),
                    p(base.0, base.1, hw),
                    p(b.0, b.1, 0.0),
                    p(base.0, base.1, -hw),
                    p(base.0, base.1, -w),
                    p(a.0, a.1, -w),
                ];
                let _ = write!(
                    out,
                    "<polygon points=\"{}\" fill=\"{}\" data-mark=\"{}{from}{to}\"/>",
                    points.join(" "),
                    colour.css(),
                    colour.letter()
                );
            }
        }
    }
    out.push_str("</g>\n");
    out
}

/// The coordinates, the off-grid key, the prison's label and the legend.
fn labels(out: &mut String, d: &Diagram, l: &Layout) {
    let kristensen = d.kristensen();
    let text_attrs = format!("font-family=\"{FONT_FAMILY}\" text-anchor=\"middle\"");
    if d.coordinates {
        let _ = write!(
            out,
            "<g class=\"coord\" {text_attrs} font-size=\"{COORD_FONT}\" fill=\"#4a4a4a\">"
        );
        let baseline = COORD_FONT * 35 / 100;
        for row in 0..d.ranks.len() {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                PAD + rank_band(d) / 2 - 2,
                l.y0 + row as i64 * UNIT + UNIT / 2 + baseline,
                escape(&d.rank_label(row))
            );
        }
        let y = l.y0 + d.ranks.len() as i64 * UNIT + COORD / 2 + baseline;
        for col in 0..d.files.len() {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{y}\">{}</text>",
                l.x0 + col as i64 * UNIT + UNIT / 2,
                escape(&d.file_label(col))
            );
        }
        out.push_str("</g>\n");
        for (baseline, line) in &l.key {
            let _ = writeln!(
                out,
                "<text class=\"key\" x=\"{}\" y=\"{baseline}\" font-family=\"{FONT_FAMILY}\" font-size=\"{LEGEND_FONT}\" fill=\"#222\">{}</text>",
                l.x0,
                escape(line)
            );
        }
    }
    if let (Some((c, _)), Some(py)) = (&d.prison, l.prison_y) {
        let (x, _) = cell_origin(l, c);
        let _ = write!(
            out,
            "<text class=\"legend\" font-family=\"{FONT_FAMILY}\" font-size=\"{LEGEND_FONT}\" fill=\"#222\">"
        );
        for (i, line) in PRISON_LABEL.iter().enumerate() {
            let _ = write!(
                out,
                "<tspan x=\"{}\" y=\"{}\">{line}</tspan>",
                x + UNIT + 16,
                py + UNIT / 2 - LEGEND_LEADING / 2
                    + LEGEND_FONT * 35 / 100
                    + i as i64 * LEGEND_LEADING
            );
        }
        out.push_str("</text>\n");
    }
    if !l.legend.is_empty() {
        out.push_str("<g class=\"legend\">\n");
        let scale = LEGEND_GLYPH as f64 / UNIT as f64;
        for (&role, (top, lines)) in d.legend.iter().zip(&l.legend) {
            let _ = write!(
                out,
                "<use href=\"#{}\" transform=\"translate({} {top}) scale({scale:.2})\"/>\
<text font-family=\"{FONT_FAMILY}\" font-size=\"{LEGEND_FONT}\" fill=\"#222\">",
                glyphs::id(Piece::new(Color::White, role), kristensen),
                l.x0,
            );
            for (i, line) in lines.iter().enumerate() {
                let _ = write!(
                    out,
                    "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                    l.x0 + LEGEND_GLYPH + 10,
                    top + 20 + LEGEND_FONT * 35 / 100 + i as i64 * LEGEND_LEADING,
                    escape(line)
                );
            }
            out.push_str("</text>\n");
        }
        out.push_str("</g>\n");
    }
}

/// Size of a note's text in pixels ([`note`]).
const NOTE_FONT: i64 = 16;

/// A band `width` pixels wide holding `text` in lines, in pixels: the note
/// under a PNG diagram drawn smaller than its size, which is not itself
/// drawn smaller.
pub fn note(text: &str, width: u32) -> String {
    let (pad, leading) = (8, NOTE_FONT * 3 / 2);
    let lines = wrap_in(text, width as i64 - 2 * pad, NOTE_FONT);
    let height = lines.len() as i64 * leading + 2 * pad;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"postal-note\" width=\"{width}\" height=\"{height}\">\n\
<text class=\"key\" font-family=\"{FONT_FAMILY}\" font-size=\"{NOTE_FONT}\" fill=\"#222\">"
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = write!(
            out,
            "<tspan x=\"{pad}\" y=\"{}\">{}</tspan>",
            pad + i as i64 * leading + NOTE_FONT,
            escape(line)
        );
    }
    out.push_str("</text>\n</svg>\n");
    out
}

/// The `<title>` of a position's diagram: variant and side to move.
pub fn title(pos: &Position) -> String {
    format!("{}, {} to move", pos.variant.spec().title, pos.turn)
}

/// A standalone SVG document of a position.
pub fn position(pos: &Position, opts: &Options) -> String {
    let d = Diagram::of_position(pos, opts);
    let parts = Parts {
        standalone: true,
        title: title(pos),
        desc: super::ascii::position(pos, opts.clone()),
        attributes: format!(" data-variant=\"{}\"", pos.variant.name()),
    };
    document(&d, opts, &parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn one_rect_per_square_and_one_use_per_piece() {
        let p = Position::start(Variant::Chess);
        let svg = position(&p, &Options::default());
        assert_eq!(svg.matches("<rect class=\"sq ").count(), 64);
        assert_eq!(svg.matches("<use ").count(), 32);
        // Each glyph defined once: 12 kinds on the board.
        assert_eq!(svg.matches("class=\"glyph\"").count(), 12);
        assert!(svg.contains("<desc>\n r n b q k b n r  8\n"));
    }

    #[test]
    fn escapes() {
        assert_eq!(escape("a<b & 'c'"), "a&lt;b &amp; &#39;c&#39;");
    }
}
