//! Diagrams: golden ASCII, Unicode and SVG files of every variant's start
//! position, a grown Building board and a Corral stack position; the SVG
//! parsed and checked for structure; PNGs decoded and their pixels
//! checked; one committed PNG per variant's start (`fixtures/diagrams/`);
//! `postal diagram` on the command line; and the HTML replay page stepped
//! through in headless Chromium.
//!
//! `POSTAL_BLESS=1 cargo test --test suite render::` rewrites the golden files.
//! The browser test needs Debian's `chromium` (installed by `tests/run.sh`);
//! without it the test fails, unless `POSTAL_SKIP_BROWSER=1`.

use crate::common::postal;
use postal::board::Board;
use postal::notation::movetext;
use postal::piece::{Piece, Role, Roles, Stack};
use postal::render::{self, html, Format, Options};
use postal::{Color, Move, Position, Square, Variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn bless() -> bool {
    std::env::var_os("POSTAL_BLESS").is_some()
}

/// Compares `actual` with the committed file, or rewrites it when blessing.
fn golden(rel: &str, actual: &[u8]) {
    let path = fixtures().join(rel);
    if bless() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    if committed != actual {
        panic!(
            "fixtures/{rel} differs from the rendering:\n--- committed\n{}\n--- now\n{}\n\
             (run `POSTAL_BLESS=1 cargo test --test suite render::` if the change is meant)",
            String::from_utf8_lossy(&committed),
            String::from_utf8_lossy(actual)
        );
    }
}

/// A board read from the placement field of a position text, without the
/// variant's checks (the fairy variants' start positions need their own
/// pieces, which their placeholder modules in this branch do not list).
fn placement(text: &str) -> Board {
    let rows: Vec<&str> = text.split('/').collect();
    let mut cells: Vec<Vec<Option<Stack>>> = Vec::new();
    for row in &rows {
        let mut line = Vec::new();
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2;
                    chars.next();
                }
                line.extend((0..n).map(|_| Some(Stack::EMPTY)));
            } else if c == '*' {
                line.push(None);
            } else if c == '(' {
                let mut roles = Roles::EMPTY;
                let mut color = Color::White;
                for p in chars.by_ref() {
                    if p == ')' {
                        break;
                    }
                    let piece = Piece::from_char(p).unwrap();
                    color = piece.color;
                    roles = roles.with(piece.role);
                }
                line.push(Some(Stack::of(color, roles)));
            } else {
                line.push(Some(Stack::single(Piece::from_char(c).unwrap())));
            }
        }
        cells.push(line);
    }
    let height = cells.len() as i16;
    let mut squares = Vec::new();
    for (i, line) in cells.iter().enumerate() {
        for (f, c) in line.iter().enumerate() {
            if c.is_some() {
                squares.push(Square::new(f as i16 + 1, height - i as i16));
            }
        }
    }
    let mut board = Board::from_squares(&squares);
    for (i, line) in cells.iter().enumerate() {
        for (f, c) in line.iter().enumerate() {
            if let Some(st) = c {
                board.set(Square::new(f as i16 + 1, height - i as i16), *st);
            }
        }
    }
    board
}

/// The variant's start position: read from its text when the variant's
/// module can, else laid out from the placement (the placeholder case).
/// The Corral board has its prison (CO-1) either way.
fn start(v: Variant) -> Position {
    let mut pos = Position::from_text(v, v.spec().start).unwrap_or_else(|_| {
        let text = v.spec().start.split_whitespace().next().unwrap();
        Position::empty(v, placement(text))
    });
    if v == Variant::Corral && !pos.board.has_prison() {
        pos.board = pos.board.clone().with_prison();
    }
    pos
}

/// A Building board grown in every direction (BU-4), with holes: the
/// Gardner setup plus squares added left of file a, right of file e, below
/// rank 1 and above rank 5, some with pieces on them.
fn grown_building() -> Position {
    let mut pos = start(Variant::Gardner);
    pos.variant = Variant::Building;
    for sq in [(0, 3), (-1, 3), (6, 4), (3, 6), (3, 7), (2, 0)] {
        pos.board.add_square(Square::new(sq.0, sq.1));
    }
    pos.board.set(
        Square::new(-1, 3),
        Stack::single(Piece::new(Color::White, Role::Knight)),
    );
    pos.board.set(
        Square::new(3, 7),
        Stack::single(Piece::new(Color::Black, Role::Queen)),
    );
    pos.board.set(Square::new(4, 5), Stack::EMPTY);
    pos.board.set(
        Square::new(6, 4),
        Stack::single(Piece::new(Color::White, Role::Pawn)),
    );
    pos.turn = Color::Black;
    pos
}

/// Corral stacks in the middle of a game, and a king in the prison (CO-9).
fn corral_stacks() -> Position {
    let mut board =
        placement("r3r/p2(ppnb)p/2(ppq)2/5/1(NBP)3/2(KQ)2/5/P(PPNB)(PP)1P/R3R").with_prison();
    board.set(
        Square::PRISON,
        Stack::single(Piece::new(Color::Black, Role::King)),
    );
    Position::empty(Variant::Corral, board)
}

/// The positions that have golden files: each variant's start, then the
/// two special boards.
fn golden_positions() -> Vec<(String, Position)> {
    let mut out: Vec<(String, Position)> = Variant::ALL
        .iter()
        .map(|&v| (v.name().to_string(), start(v)))
        .collect();
    out.push(("building-grown".to_string(), grown_building()));
    out.push(("corral-stacks".to_string(), corral_stacks()));
    out
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

#[test]
fn golden_ascii_unicode_and_svg() {
    for (name, pos) in golden_positions() {
        let opts = Options::default();
        golden(
            &format!("render/{name}.txt"),
            &render::render(&pos, Format::Ascii, &opts),
        );
        golden(
            &format!("render/{name}.unicode.txt"),
            &render::render(&pos, Format::Unicode, &opts),
        );
        golden(
            &format!("render/{name}.svg"),
            &render::render(&pos, Format::Svg, &opts),
        );
    }
    // Black's view of the grown board.
    let flipped = Options {
        flip: true,
        ..Options::default()
    };
    golden(
        "render/building-grown-flipped.txt",
        &render::render(&grown_building(), Format::Ascii, &flipped),
    );
}

#[test]
fn ascii_of_a_grown_board_leaves_holes_blank() {
    let t = text(render::render(
        &grown_building(),
        Format::Ascii,
        &Options::default(),
    ));
    let lines: Vec<&str> = t.lines().collect();
    // Files -1 and 0 exist only on rank 3; rank 7 only on file c. Labels
    // off the grid are written as moves write the squares: (0,_) over 3
    // is (0,3), (_,0) beside b is (2,0).
    assert_eq!(lines[0], "                             q  7");
    assert_eq!(lines[7], "                      .  (_,0)");
    assert_eq!(lines[4], " N      .      .      .      .      .      .  3");
    assert!(lines
        .iter()
        .any(|l| l.starts_with(" (-1,_) (0,_)  a      b")));
    assert!(t.contains(&format!("\n {}\n", render::OFF_GRID_KEY)));
}

#[test]
fn ascii_of_stacks_and_the_prison() {
    let t = text(render::render(
        &corral_stacks(),
        Format::Ascii,
        &Options::default(),
    ));
    assert!(t.contains(" PPNB "), "{t}");
    assert!(t.contains("\n prison (below c5): k\n"), "{t}");
}

/// What a parsed SVG shows: squares by name, pieces by square.
struct SvgBoard {
    squares: Vec<(String, String)>,
    pieces: BTreeMap<String, (String, usize)>,
    glyph_ids: Vec<String>,
    hrefs: Vec<String>,
    desc: String,
    size: (u32, u32),
}

fn parse_svg(text: &str) -> SvgBoard {
    let doc = roxmltree::Document::parse(text).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let size = (
        root.attribute("width").unwrap().parse().unwrap(),
        root.attribute("height").unwrap().parse().unwrap(),
    );
    let mut board = SvgBoard {
        squares: Vec::new(),
        pieces: BTreeMap::new(),
        glyph_ids: Vec::new(),
        hrefs: Vec::new(),
        desc: String::new(),
        size,
    };
    for n in root.descendants().filter(|n| n.is_element()) {
        let class = n.attribute("class").unwrap_or("");
        match n.tag_name().name() {
            "rect" if class.split(' ').any(|c| c == "sq") => board.squares.push((
                n.attribute("data-square").unwrap().to_string(),
                class.to_string(),
            )),
            "g" if class == "pieces" => {
                let uses = n.children().filter(|c| c.has_tag_name("use")).count();
                board.pieces.insert(
                    n.attribute("data-square").unwrap().to_string(),
                    (n.attribute("data-pieces").unwrap().to_string(), uses),
                );
            }
            "g" if class == "glyph" => board.glyph_ids.push(n.attribute("id").unwrap().to_string()),
            "use" => board.hrefs.push(
                n.attribute("href")
                    .unwrap()
                    .trim_start_matches('#')
                    .to_string(),
            ),
            "desc" => board.desc = n.text().unwrap_or("").to_string(),
            _ => {}
        }
    }
    board
}

/// Occupied squares of a position with their letters.
fn occupied(pos: &Position) -> BTreeMap<String, String> {
    pos.board
        .occupied()
        .map(|(sq, st)| (sq.to_string(), st.pieces().map(|p| p.char()).collect()))
        .collect()
}

#[test]
fn svg_structure_matches_the_position() {
    for (name, pos) in golden_positions() {
        let svg = text(render::render(&pos, Format::Svg, &Options::default()));
        let b = parse_svg(&svg);
        let prison = usize::from(pos.board.has_prison());
        assert_eq!(
            b.squares.len(),
            pos.board.square_count() + prison,
            "{name}: one rect per square"
        );
        for (sq, class) in &b.squares {
            assert!(
                class.contains("light") || class.contains("dark") || sq == "prison",
                "{name}: {sq} has class {class}"
            );
        }
        let expected = occupied(&pos);
        let shown: BTreeMap<String, String> = b
            .pieces
            .iter()
            .map(|(sq, (letters, _))| (sq.clone(), letters.clone()))
            .collect();
        assert_eq!(shown, expected, "{name}: pieces per square");
        for (sq, (letters, uses)) in &b.pieces {
            assert_eq!(*uses, letters.len(), "{name}: every piece of {sq} is drawn");
        }
        // Each glyph defined once, and every <use> refers to one.
        let mut ids = b.glyph_ids.clone();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), b.glyph_ids.len(), "{name}: glyphs defined once");
        for h in &b.hrefs {
            assert!(b.glyph_ids.contains(h), "{name}: <use href=#{h}> undefined");
        }
        let ascii = text(render::render(&pos, Format::Ascii, &Options::default()));
        assert_eq!(b.desc.trim_start_matches('\n'), ascii, "{name}: <desc>");
        assert!(b.size.0 > 100 && b.size.1 > 100);
    }
}

#[test]
fn svg_glyph_sets_and_legend_follow_the_variant() {
    let k = text(render::render(
        &start(Variant::Kristensen),
        Format::Svg,
        &Options::default(),
    ));
    // KR-3, KR-4: Kristensen's rook and bishop have glyphs of their own.
    for id in ["wRk", "bRk", "wBk", "bBk", "wW", "bW"] {
        assert!(k.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(!k.contains("id=\"wR\""));
    assert!(k.contains("Kristensen&#39;s rook"));
    assert!(k.contains("barrier pawn (W)"));
    let d = text(render::render(
        &start(Variant::Disintegration),
        Format::Svg,
        &Options::default(),
    ));
    assert!(d.contains("id=\"wF\"") && d.contains("id=\"bF\""));
    assert!(d.contains("Fye&#39;tin (F)"));
    let c = text(render::render(
        &start(Variant::Chess),
        Format::Svg,
        &Options::default(),
    ));
    assert!(c.contains("id=\"wR\"") && !c.contains("class=\"legend\""));
}

#[test]
fn svg_highlights_last_move_and_check() {
    let s = start(Variant::Chess);
    let played = movetext::play(&s, "1. f3 e5 2. g4 Qd8-h4").unwrap();
    let (mv, pos) = played.last().unwrap().clone();
    let opts = Options::for_position(&pos, Some(&mv));
    assert_eq!(opts.check, vec![Square::new(5, 1)]);
    let svg = text(render::render(&pos, Format::Svg, &opts));
    assert_eq!(svg.matches("<rect class=\"last\"").count(), 2);
    assert_eq!(svg.matches("<rect class=\"check\"").count(), 1);
    let t = text(render::render(&pos, Format::Ascii, &opts));
    assert!(t.contains("White to move, in check (e1)\nlast move from d8 to h4\n"));
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf)
}

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * img.0 + x) * 4) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (*x as i32 - y as i32).abs() <= 3)
}

/// Pixel of a point `(dx, dy)` hundredths into the square at a column
/// and row, at 40 pixels a square, coordinates on.
fn square_point(col: u32, row: u32, dx: u32, dy: u32) -> (u32, u32) {
    // Board origin: 10 units of margin plus 44 of rank numbers.
    let x = (54 + col * 100 + dx) * 40 / 100;
    let y = (10 + row * 100 + dy) * 40 / 100;
    (x, y)
}

const LIGHT: [u8; 3] = [0xed, 0xe2, 0xc8];
const DARK: [u8; 3] = [0xb0, 0x88, 0x5e];
const WHITE: [u8; 3] = [0xff, 0xff, 0xff];

#[test]
fn png_size_and_colours() {
    let pos = start(Variant::Chess);
    let img = decode_png(&render::render(&pos, Format::Png, &Options::default()));
    // 8 squares of 100 units, 10 + 44 units of margin and numbers on the
    // left, 10 on the right: 864 units; 40 pixels a square.
    assert_eq!((img.0, img.1), (346, 346));
    let (x, y) = square_point(4, 4, 50, 50); // e4, light
    assert!(near(pixel(&img, x, y), LIGHT), "{:?}", pixel(&img, x, y));
    let (x, y) = square_point(3, 4, 50, 50); // d4, dark
    assert!(near(pixel(&img, x, y), DARK), "{:?}", pixel(&img, x, y));
    let (x, y) = square_point(4, 7, 40, 50); // the white king's body on e1
    assert!(
        near(pixel(&img, x, y), [0xfb, 0xfb, 0xf8]),
        "{:?}",
        pixel(&img, x, y)
    );
    let (x, y) = square_point(4, 0, 40, 50); // the black king's body on e8
    assert!(
        near(pixel(&img, x, y), [0x26, 0x26, 0x26]),
        "{:?}",
        pixel(&img, x, y)
    );
    assert!(near(pixel(&img, 2, 2), WHITE));

    // Larger squares make a larger image; flipping puts a1 top right.
    let big = decode_png(&render::render(
        &pos,
        Format::Png,
        &Options {
            size: 80,
            ..Options::default()
        },
    ));
    assert_eq!((big.0, big.1), (691, 691));
}

#[test]
fn png_highlights_and_holes() {
    let s = start(Variant::Chess);
    let played = movetext::play(&s, "1. f3 e5 2. g4 Qd8-h4").unwrap();
    let (mv, pos) = played.last().unwrap().clone();
    let img = decode_png(&render::render(
        &pos,
        Format::Png,
        &Options::for_position(&pos, Some(&mv)),
    ));
    // d8 (empty now, light) is tinted yellow by the last-move highlight.
    let (x, y) = square_point(3, 0, 50, 50);
    let p = pixel(&img, x, y);
    assert!(!near(p, LIGHT) && p[0] > 200 && p[2] < 150, "{p:?}");
    // The king on e1 glows red at the edge of its square.
    let (x, y) = square_point(4, 7, 12, 50);
    let p = pixel(&img, x, y);
    assert!(p[0] as i32 > p[1] as i32 + 60, "{p:?}");

    // A hole of a grown Building board is a gap: the white background.
    let img = decode_png(&render::render(
        &grown_building(),
        Format::Png,
        &Options::default(),
    ));
    // Columns: files -1, 0, a..e, 6; rows: ranks 7 down to 0. (-1, 7) is
    // a hole, c7 (column 4, row 0) a square. The rank band is wider than
    // usual for labels like (_,0): the SVG says where c7 is.
    let svg = text(render::render(
        &grown_building(),
        Format::Svg,
        &Options::default(),
    ));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let c7 = doc
        .descendants()
        .find(|n| n.has_tag_name("rect") && n.attribute("data-square") == Some("c7"))
        .unwrap();
    let unit = |a: &str| c7.attribute(a).unwrap().parse::<u32>().unwrap();
    let (cx, cy) = (unit("x"), unit("y"));
    let at = |ux: u32, uy: u32| (ux * 40 / 100, uy * 40 / 100);
    let (x, y) = at(cx - 400 + 50, cy + 50);
    assert!(near(pixel(&img, x, y), WHITE));
    let (x, y) = at(cx + 8, cy + 8);
    let p = pixel(&img, x, y);
    assert!(near(p, LIGHT) || near(p, DARK), "{p:?}");
    assert!(cx > 54 + 400, "the rank band grew for (_,0): c7 at {cx}");
}

#[test]
fn png_of_a_huge_board_is_bounded() {
    let mut board = Board::rect(5, 5);
    for f in 6..=150 {
        board.add_square(Square::new(f, 1));
    }
    let pos = Position::empty(Variant::Building, board);
    let img = decode_png(&render::render(&pos, Format::Png, &Options::default()));
    assert_eq!(img.0, render::png::MAX_SIDE);
    assert!(img.1 < 400);
}

/// Corral stacks are drawn on larger squares by default, so each piece of
/// a stack of four is some 27 pixels high in the PNG a mail carries; a
/// board without stacks keeps the usual 40 pixels a square.
#[test]
fn corral_stacks_are_legible_at_the_default_size() {
    let pixels_per_square = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let root = doc.root_element();
        let width: f64 = root.attribute("width").unwrap().parse().unwrap();
        let view: f64 = root
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        width / view * 100.0
    };
    let svg = text(render::render(
        &corral_stacks(),
        Format::Svg,
        &Options::default(),
    ));
    let px = pixels_per_square(&svg);
    assert!(
        (px - render::STACK_SQUARE_PIXELS as f64).abs() < 0.5,
        "{px}"
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let d8 = doc
        .descendants()
        .find(|n| n.attribute("data-square") == Some("d8") && n.has_tag_name("g"))
        .unwrap();
    let mut glyphs = 0;
    for u in d8.children().filter(|c| c.has_tag_name("use")) {
        let t = u.attribute("transform").unwrap();
        let scale: f64 = t
            .split("scale(")
            .nth(1)
            .unwrap()
            .trim_end_matches(')')
            .parse()
            .unwrap();
        assert!(scale * px >= 24.0, "a stacked piece is {} px", scale * px);
        glyphs += 1;
    }
    assert_eq!(glyphs, 4);
    let plain = text(render::render(
        &start(Variant::Chess),
        Format::Svg,
        &Options::default(),
    ));
    assert!((pixels_per_square(&plain) - 40.0).abs() < 0.5);
    // An explicit size is kept.
    let small = Options {
        size: 30,
        ..Options::default()
    };
    let svg = text(render::render(&corral_stacks(), Format::Svg, &small));
    assert!((pixels_per_square(&svg) - 30.0).abs() < 0.5);
}

/// The committed PNG of each variant's start (`fixtures/diagrams/`) is
/// what the renderer draws now (allowing for a few pixels of rounding).
#[test]
fn committed_pngs_are_current() {
    for v in Variant::ALL {
        let rel = format!("diagrams/{}.png", v.name());
        let bytes = render::render(&start(v), Format::Png, &Options::default());
        let path = fixtures().join(&rel);
        if bless() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let committed = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("fixtures/{rel}: {e} (bless to create it)"));
        let (a, b) = (decode_png(&committed), decode_png(&bytes));
        assert_eq!((a.0, a.1), (b.0, b.1), "{rel}: size");
        let differ =
            a.2.chunks(4)
                .zip(b.2.chunks(4))
                .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
                .count();
        assert!(
            differ * 1000 < (a.0 * a.1) as usize,
            "fixtures/{rel} is stale ({differ} pixels differ): run `POSTAL_BLESS=1 cargo test --test suite render::`"
        );
    }
}

// ---- command line ----------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn diagram_command_draws_every_format() {
    let out = postal()
        .args(["diagram", "gardner"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        " r n b q k  5\n p p p p p  4\n . . . . .  3\n P P P P P  2\n R N B Q K  1\n\n a b c d e\n\nWhite to move\n"
    );
    let out = postal()
        .args(["diagram", "chess", "--format", "unicode", "--flip"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out)
        .unwrap()
        .starts_with(" ♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖  1\n"));
    let out = postal()
        .args([
            "diagram",
            "chess",
            "--moves",
            "1. f3 e5 2. g4 Qh4",
            "--format",
            "svg",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let svg = String::from_utf8(out).unwrap();
    assert!(svg.starts_with("<svg "));
    assert_eq!(svg.matches("<rect class=\"last\"").count(), 2);
    assert_eq!(svg.matches("<rect class=\"check\"").count(), 1);

    let out = postal()
        .args([
            "diagram",
            "gardner",
            "--moves",
            "1. d2-d3 e4-e3",
            "--format",
            "html",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    // One live board, the positions as data.
    assert_eq!(page.matches("class=\"postal-board live\"").count(), 1);
    // It opens at the last move.
    assert!(page.contains("<section class=\"game\" id=\"game-1\" data-start=\"2\""));

    let dir = scratch("cli");
    let file = dir.join("board.png");
    postal()
        .args(["diagram", "corral", "--format", "png", "--size", "30", "-o"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    let img = decode_png(&std::fs::read(&file).unwrap());
    assert!(img.0 > 150 && img.1 > 270, "{}x{}", img.0, img.1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diagram_command_rejects_bad_input_and_writes_nothing() {
    let dir = scratch("bad");
    let file = dir.join("out.svg");
    postal()
        .args(["diagram", "chess", "--format", "gif"])
        .assert()
        .code(2);
    postal()
        .args(["diagram", "chess", "--position", "8/8 w - - 0 1", "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::starts_with("postal: error: --position:1:"));
    postal()
        .args(["diagram", "chess", "--moves", "1. e4 e5 2. Ke3", "-o"])
        .arg(&file)
        .assert()
        .code(1);
    assert!(!file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the HTML replay page in a browser --------------------------------------

/// Finds headless Chromium: `POSTAL_CHROMIUM`, else Debian's `chromium`
/// (or `chromium-browser`) on the PATH.
pub(crate) fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("POSTAL_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Loads `file#test` in headless Chromium and returns the DOM it ends with.
/// Bounded: the browser is killed after two minutes.
fn dump_dom(browser: &Path, file: &Path, profile: &Path) -> String {
    dump_dom_with(browser, file, profile, &[])
}

/// [`dump_dom`] with more of Chromium's switches (a window size, scripts
/// off: `--blink-settings=scriptEnabled=false`).
pub(crate) fn dump_dom_with(browser: &Path, file: &Path, profile: &Path, extra: &[&str]) -> String {
    let url = format!("file://{}#test", file.display());
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{} did not finish loading {url} in 120 s",
                    browser.display()
                );
            }
        }
    }
    reader.join().unwrap()
}

pub(crate) fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Steps a game page in the browser and checks that after every step the
/// one board shown is the position after the move highlighted in the list.
fn check_page_in_browser(browser: &Path, name: &str, start: &Position, movetext_: &str) {
    let played = movetext::play(start, movetext_).unwrap();
    let moves: Vec<Move> = played.iter().map(|(m, _)| m.clone()).collect();
    let mut positions = vec![start.clone()];
    positions.extend(played.iter().map(|(_, p)| p.clone()));
    let texts: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| positions[i].move_text(m))
        .collect();
    let info = html::GameInfo {
        white: "Ana <ana@example.org>".to_string(),
        black: "Ben".to_string(),
        result: Some("*".to_string()),
        ..html::GameInfo::default()
    };
    let page = html::game(start, &moves, &info, &Options::default()).unwrap();
    let dir = scratch(name);
    let file = dir.join("game.html");
    std::fs::write(&file, &page).unwrap();
    let dom = dump_dom(browser, &file, &dir.join("profile"));
    let open = dom
        .find("<pre id=\"postal-test\"")
        .unwrap_or_else(|| panic!("{name}: no result element in the page:\n{dom}"));
    let body = &dom[open..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    assert!(
        dom[open..].contains("data-done=\"true\""),
        "{name}: the page's self-test did not finish:\n{body}"
    );
    let result: serde_json::Value = serde_json::from_str(&unescape(body)).unwrap();
    let last = moves.len();
    assert_eq!(result["plies"], last);
    let log = result["log"].as_array().unwrap();
    assert!(log.len() >= 3 * last + 8, "{name}: {} steps", log.len());
    let mut ply = 0usize;
    for entry in log {
        let action = entry["action"].as_str().unwrap();
        // Where each action should lead, by the reader's rules.
        ply = match action {
            "start" | "key Home" | "click first" => 0,
            "key ArrowRight" | "click next" => (ply + 1).min(last),
            "key ArrowLeft" | "click prev" => ply.saturating_sub(1),
            "key End" | "click last" => last,
            a if a.starts_with("click move ") => a["click move ".len()..].parse().unwrap(),
            a => panic!("unknown action {a}"),
        };
        let shown: Vec<u64> = entry["shown"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(shown, vec![ply as u64], "{name}: {action}: boards shown");
        let current: Vec<u64> = entry["current"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let expected_current: Vec<u64> = if ply == 0 { vec![] } else { vec![ply as u64] };
        assert_eq!(
            current, expected_current,
            "{name}: {action}: move highlighted"
        );
        let move_text = entry["move"].as_str().unwrap();
        if ply > 0 {
            assert_eq!(move_text, texts[ply - 1], "{name}: {action}");
        }
        let placement: BTreeMap<String, String> = entry["placement"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let (sq, letters) = v.as_str().unwrap().split_once(':').unwrap();
                (sq.to_string(), letters.to_string())
            })
            .collect();
        assert_eq!(
            placement,
            occupied(&positions[ply]),
            "{name}: {action}: the board shown is the position after ply {ply}"
        );
        let status = entry["status"].as_str().unwrap();
        assert!(
            status.contains(&format!("{} to move", positions[ply].turn))
                || positions[ply].outcome().is_some(),
            "{name}: {action}: status {status:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn html_replay_steps_through_the_game_in_chromium() {
    if std::env::var("POSTAL_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("POSTAL_SKIP_BROWSER=1: the browser test is skipped");
        return;
    }
    let browser = chromium().unwrap_or_else(|| {
        panic!(
            "headless Chromium is needed for this test and was not found: install Debian's \
             `chromium` package (tests/run.sh does), point POSTAL_CHROMIUM at a browser, or set \
             POSTAL_SKIP_BROWSER=1 to skip it"
        )
    });
    check_page_in_browser(
        &browser,
        "chess",
        &start(Variant::Chess),
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bb5-c6 dxc6 5. O-O f6 6. d4 Bg4 7. d4-e5 Qd8-d1 8. Rf1-d1+",
    );
    // Stacks on the board (CO-2), and single pieces moving beside them.
    let corral = Position::from_text(
        Variant::Corral,
        "k3r/p(ppnb)(ppq)(ppnb)p/5/5/2p2/2P2/5/P(PPNB)(PPQ)(PPNB)P/K3R w - - 0 1",
    )
    .unwrap();
    check_page_in_browser(
        &browser,
        "corral",
        &corral,
        "1. e2-e3 e8-e7 2. Re1-e2 Re9-e8",
    );
}

/// An annotated record of two games as one page (issue 31): an index,
/// then each game with its heading from the tags (unknown ones left out,
/// the time control in words), its comments, NAGs as glyphs with their
/// meaning, and its variations nested; in the browser, every move of a
/// variation shows the position after it.
#[test]
fn html_page_of_an_annotated_file_in_chromium() {
    let pgn = format!(
        "{}/fixtures/records/forms/annotated.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = scratch("annotated");
    let file = dir.join("games.html");
    postal()
        .args([
            "convert",
            &pgn,
            "--to",
            "html",
            "-o",
            file.to_str().unwrap(),
        ])
        .assert()
        .success();
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.contains("<ol class=\"index\">"), "an index");
    assert!(page.contains("<a href=\"#game-2\">Ben – Ana</a>"));
    assert!(page.contains("<h2>Ana – Ben</h2>"));
    assert!(page.contains("<p class=\"meta\">Annotated</p>"));
    assert!(page.contains("<p class=\"meta\">2024</p>"));
    assert!(page.contains("<p class=\"meta\">Time control: 3 days a move</p>"));
    assert!(page.contains("<p class=\"meta\">Second game, Aarhus</p>"));
    assert!(page.contains("<p class=\"meta\">round 2</p>"));
    assert!(
        !page.contains(">?<") && !page.contains("????"),
        "unknown tags left out"
    );
    assert!(page.contains("<span class=c>Opening remark</span> 1. <a href=#g1-1>e4"));
    assert!(page.contains("e4<span class=nag title=\"a good move\">!</span>"));
    assert!(page.contains("title=\"White has a slight advantage\">+=</span>"));
    assert!(page.contains("Qh5<span class=nag title=\"a questionable move\">?!</span>"));
    assert!(page.contains("<span class=v>(2. <a href=#g1-"), "nested");
    if std::env::var("POSTAL_SKIP_BROWSER").as_deref() == Ok("1") {
        return;
    }
    let browser =
        chromium().expect("headless Chromium (see html_replay_steps_through_the_game_in_chromium)");
    let dom = dump_dom(&browser, &file, &dir.join("profile"));
    let open = dom
        .find("<pre id=\"postal-test\"")
        .expect("the result element");
    let body = &dom[open..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    let result: serde_json::Value = serde_json::from_str(&unescape(body)).unwrap();
    assert_eq!(result["plies"], 7);
    // The variations' moves, in order, and the positions after them.
    let start = Position::start(Variant::Chess);
    let e4 = start.play(&start.parse_move("e4").unwrap()).unwrap();
    let after = |from: &Position, moves: &[&str]| {
        moves.iter().fold(from.clone(), |p, m| {
            p.play(&p.parse_move(m).unwrap()).unwrap()
        })
    };
    let expected = [
        ("c5", after(&e4, &["c5"])),
        ("Nf3", after(&e4, &["c5", "Nf3"])),
        ("c3", after(&e4, &["c5", "c3"])),
        ("d5", after(&e4, &["c5", "c3", "d5"])),
        ("d6", after(&e4, &["c5", "Nf3", "d6"])),
    ];
    let seen = result["variations"].as_array().unwrap();
    assert_eq!(seen.len(), expected.len(), "{seen:?}");
    for (v, (text, pos)) in seen.iter().zip(&expected) {
        assert_eq!(v["move"], *text);
        assert_eq!(v["shown"], serde_json::json!([v["board"]]), "{v}");
        let placement: BTreeMap<String, String> = v["placement"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let (sq, letters) = v.as_str().unwrap().split_once(':').unwrap();
                (sq.to_string(), letters.to_string())
            })
            .collect();
        assert_eq!(placement, occupied(pos), "{text}");
        assert_eq!(v["current"], true);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn html_page_is_self_contained() {
    let s = start(Variant::Gardner);
    let moves: Vec<Move> = movetext::play(&s, "1. d2-d3 e4-e3")
        .map(|v| v.into_iter().map(|(m, _)| m).collect())
        .unwrap_or_default();
    let page = html::game(&s, &moves, &html::GameInfo::default(), &Options::default()).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    for needle in ["<link", " src=", "https://", "@import", "url(http"] {
        assert!(!page.contains(needle), "{needle}");
    }
    assert!(page.contains("ArrowRight") && page.contains("class=\"next\""));
}

#[test]
fn svg_flipped_puts_a1_top_right() {
    let pos = start(Variant::Chess);
    let rect_of = |svg: &str, sq: &str| -> (i64, i64) {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let n = doc
            .descendants()
            .find(|n| n.has_tag_name("rect") && n.attribute("data-square") == Some(sq))
            .unwrap();
        (
            n.attribute("x").unwrap().parse().unwrap(),
            n.attribute("y").unwrap().parse().unwrap(),
        )
    };
    let normal = text(render::render(&pos, Format::Svg, &Options::default()));
    let flipped = text(render::render(
        &pos,
        Format::Svg,
        &Options {
            flip: true,
            ..Options::default()
        },
    ));
    assert_eq!(rect_of(&normal, "a1"), (54, 710));
    assert_eq!(rect_of(&flipped, "a1"), (754, 10));
    assert_eq!(rect_of(&flipped, "h8"), (54, 710));
    // Without coordinates the board starts at the margin.
    let bare = text(render::render(
        &pos,
        Format::Svg,
        &Options {
            coordinates: false,
            ..Options::default()
        },
    ));
    assert_eq!(rect_of(&bare, "a8"), (10, 10));
    assert!(!bare.contains("class=\"coord\""));
}
