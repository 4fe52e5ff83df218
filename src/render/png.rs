//! PNG diagrams: the SVG diagram rasterised by resvg (pure Rust) on a
//! white background, at [`Options::size`] pixels per square (40 by
//! default: an 8x8 board is 416 pixels wide, fit for a mail).
//!
//! A diagram longer than [`MAX_SIDE`] pixels (a grown Building board whose
//! pieces span more than about a hundred files or ranks) is drawn smaller
//! to fit, and says so: a line under it, at its full size, and the same
//! words in the PNG's `Comment` text chunk (ISO/IEC 15948, 11.3.4.3).
//!
//! The text (coordinates, legend, stack counts) is set in the Go font,
//! built into the program (`font/Go-Regular.ttf`, BSD licence, see
//! `font/LICENSE`), and no system font is consulted, so a diagram renders
//! to the same pixels on any machine.

use super::{svg, Options};
use crate::position::Position;
use resvg::tiny_skia;
use resvg::usvg;
use std::sync::{Arc, OnceLock};

/// The built-in font.
pub const FONT: &[u8] = include_bytes!("font/Go-Regular.ttf");
/// Its family name, as the SVG asks for it.
pub const FONT_NAME: &str = "Go";
/// The longest side of a PNG, in pixels: a big grown Building board is
/// drawn smaller rather than as a huge image.
pub const MAX_SIDE: u32 = 4096;

fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            // Every generic family is the built-in font.
            db.set_serif_family(FONT_NAME);
            db.set_sans_serif_family(FONT_NAME);
            db.set_monospace_family(FONT_NAME);
            db.set_cursive_family(FONT_NAME);
            db.set_fantasy_family(FONT_NAME);
            Arc::new(db)
        })
        .clone()
}

/// The keyword of the text chunk that holds the note of a diagram drawn
/// smaller ("Comment": ISO/IEC 15948, 11.3.4.2).
pub const NOTE_KEYWORD: &str = "Comment";

/// The narrowest a shrunk diagram is drawn, in pixels, so that its note
/// stays readable whatever the board's shape.
const NOTE_WIDTH: u32 = 480;

/// What a diagram drawn at `scale` of its size says of it.
fn shrink_note(scale: f32) -> String {
    format!(
        "Drawn at {}% of its size to fit the PNG's {},{:03}-pixel side.",
        ((scale * 100.0).floor() as u32).max(1),
        MAX_SIDE / 1000,
        MAX_SIDE % 1000
    )
}

/// Rasterises an SVG document (one this module's sibling wrote) to PNG
/// bytes, drawn smaller and with a note when longer than [`MAX_SIDE`].
/// `None` when the text is not SVG usvg can read.
pub fn from_svg(text: &str) -> Option<Vec<u8>> {
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(text, &options).ok()?;
    let size = tree.size();
    let (w, h) = (size.width().max(1.0), size.height().max(1.0));
    let side = MAX_SIDE as f32;
    let pixels = |v: f32, scale: f32| ((v * scale).round() as u32).max(1);
    if w.max(h) <= side {
        let mut pixmap = tiny_skia::Pixmap::new(pixels(w, 1.0), pixels(h, 1.0))?;
        pixmap.fill(tiny_skia::Color::WHITE);
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        return encode(&pixmap, None);
    }
    // The note is a band under the board at its own full size, as wide
    // as the board drawn to fit (at least NOTE_WIDTH), so the board shrinks
    // a little more when it is the height that is too long.
    // (The band's height is that of the longest note, "99%".)
    let band_width = pixels(w, side / w.max(h)).clamp(NOTE_WIDTH, MAX_SIDE);
    let longest = svg::note(&shrink_note(0.99), band_width);
    let band_height = usvg::Tree::from_str(&longest, &options)
        .ok()?
        .size()
        .height()
        .ceil();
    let scale = (side / w).min((side - band_height - 1.0) / h);
    let words = shrink_note(scale);
    let band = usvg::Tree::from_str(&svg::note(&words, band_width), &options).ok()?;
    let board_height = pixels(h, scale);
    let mut pixmap = tiny_skia::Pixmap::new(
        band_width.max(pixels(w, scale)),
        board_height + band_height as u32,
    )?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    resvg::render(
        &band,
        tiny_skia::Transform::from_translate(0.0, board_height as f32),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap, Some(&words))
}

/// PNG bytes of an opaque picture (so its premultiplied pixels are the
/// plain ones), with `note` in a text chunk.
fn encode(pixmap: &tiny_skia::Pixmap, note: Option<&str>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    if let Some(note) = note {
        encoder
            .add_text_chunk(NOTE_KEYWORD.to_string(), note.to_string())
            .ok()?;
    }
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(pixmap.data()).ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// A PNG of a position.
pub fn position(pos: &Position, opts: &Options) -> Vec<u8> {
    // The SVG is this program's own; failing to read it is a bug, which
    // the tests (that decode every PNG) would show as an empty image.
    from_svg(&svg::position(pos, opts)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn a_png_of_the_start() {
        let p = Position::start(Variant::Gardner);
        let bytes = position(&p, &Options::default());
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
}
