//! PNG diagrams: the SVG diagram rasterised by resvg (pure Rust) on a
//! white background, at [`Options::size`] pixels per square (40 by
//! default: an 8x8 board is 416 pixels wide, fit for a mail).
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

/// Rasterises an SVG document (one this module's sibling wrote) to PNG
/// bytes. `None` when the text is not SVG usvg can read.
pub fn from_svg(text: &str) -> Option<Vec<u8>> {
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(text, &options).ok()?;
    let size = tree.size();
    let longest = size.width().max(size.height()).max(1.0);
    let scale = (MAX_SIDE as f32 / longest).min(1.0);
    let width = ((size.width() * scale).round() as u32).max(1);
    let height = ((size.height() * scale).round() as u32).max(1);
    let mut pixmap = tiny_skia::Pixmap::new(width, height)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().ok()
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
