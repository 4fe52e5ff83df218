//! The piece glyphs of the SVG (and so PNG and HTML) diagrams, drawn for
//! this project from simple geometric shapes in a 100 x 100 box, standing
//! on a common pedestal. Each is emitted once in `<defs>` and placed with
//! `<use>`.
//!
//! Besides FIDE's six there are the fairy pieces: the Fye'tin (DI-5), a
//! diamond; the barrier pawn (KR-6), a pawn's head over a brick wall; and
//! Kristensen's rook and bishop (KR-3, KR-4), FIDE's shapes marked so a
//! reader sees they move differently: the rook carries a knight's "L", the
//! bishop a "+" for its straight step where FIDE's bishop has its slit.

use crate::color::Color;
use crate::piece::{Piece, Role};

/// Outline colour of every glyph.
const INK: &str = "#1b1b1b";
/// Body colours.
const WHITE_BODY: &str = "#fbfbf8";
const BLACK_BODY: &str = "#262626";
/// Colour of the inner lines of a black glyph (white ones use the ink).
const BLACK_DETAIL: &str = "#ececec";

/// The pedestal every glyph stands on.
const BASE: &str = "M22 88V80Q22 75 27 75H73Q78 75 78 80V88Z";

/// The glyph's id in `<defs>`: colour letter, piece letter, and `k` for
/// Kristensen's rook and bishop (`wK`, `bP`, `wRk`).
pub fn id(piece: Piece, kristensen: bool) -> String {
    let c = match piece.color {
        Color::White => 'w',
        Color::Black => 'b',
    };
    let k = if is_kristensen_role(piece.role, kristensen) {
        "k"
    } else {
        ""
    };
    format!("{c}{}{k}", piece.role.char())
}

/// True when the role has a glyph of its own in Kristensen's Game.
fn is_kristensen_role(role: Role, kristensen: bool) -> bool {
    kristensen && matches!(role, Role::Rook | Role::Bishop)
}

/// Filled shapes (outlined) and inner lines (stroked only) of a glyph, in
/// drawing order, and small filled dots in the detail colour.
struct Shape {
    bodies: &'static [&'static str],
    lines: &'static [&'static str],
    dots: &'static [(u32, u32, u32)],
}

fn shape(role: Role, kristensen: bool) -> Shape {
    match (role, kristensen) {
        (Role::King, _) => Shape {
            bodies: &[
                "M28 75Q20 52 31 41Q50 30 69 41Q80 52 72 75Z",
                "M46 6H54V13H61V21H54V33H46V21H39V13H46Z",
            ],
            lines: &["M30 63Q50 57 70 63", "M50 40V57"],
            dots: &[],
        },
        (Role::Queen, _) => Shape {
            bodies: &[
                "M30 75L20 32L33 54L35 22L45 50L50 17L55 50L65 22L67 54L80 32L70 75Z",
                "M20 31m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0",
                "M35 21m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0",
                "M50 15m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0",
                "M65 21m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0",
                "M80 31m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0",
            ],
            lines: &["M31 64Q50 58 69 64"],
            dots: &[],
        },
        (Role::Rook, false) => Shape {
            bodies: &[
                "M34 75V41H66V75Z",
                "M28 41V17H38V25H45V17H55V25H62V17H72V41Z",
            ],
            lines: &["M34 66H66"],
            dots: &[],
        },
        (Role::Rook, true) => Shape {
            bodies: &[
                "M34 75V41H66V75Z",
                "M28 41V17H38V25H45V17H55V25H62V17H72V41Z",
            ],
            // A knight's move: two up, one across (KR-3).
            lines: &["M44 68V48H57"],
            dots: &[(57, 48, 4)],
        },
        (Role::Bishop, false) => Shape {
            bodies: &[
                "M40 63C30 50 33 32 50 19C67 32 70 50 60 63Z",
                "M50 14m-6 0a6 6 0 1 0 12 0a6 6 0 1 0-12 0",
                "M36 75L40 63H60L64 75Z",
            ],
            lines: &["M57 31L46 46"],
            dots: &[],
        },
        (Role::Bishop, true) => Shape {
            bodies: &[
                "M40 63C30 50 33 32 50 19C67 32 70 50 60 63Z",
                "M50 14m-6 0a6 6 0 1 0 12 0a6 6 0 1 0-12 0",
                "M36 75L40 63H60L64 75Z",
            ],
            // The straight step (KR-4) in place of the slit.
            lines: &["M50 30V54", "M40 42H60"],
            dots: &[],
        },
        (Role::Knight, _) => Shape {
            bodies: &[
                "M33 75Q33 58 45 47L32 51Q22 54 20 46L23 39L41 23L44 12L52 21Q72 25 72 50L70 75Z",
            ],
            lines: &["M53 27Q63 35 64 50"],
            dots: &[(38, 32, 3)],
        },
        (Role::Pawn, _) => Shape {
            bodies: &[
                "M35 75Q37 57 44 49H56Q63 57 65 75Z",
                "M36 49Q36 44 50 44Q64 44 64 49Z",
                "M50 31m-12 0a12 12 0 1 0 24 0a12 12 0 1 0-24 0",
            ],
            lines: &[],
            dots: &[],
        },
        (Role::Fyetin, _) => Shape {
            bodies: &["M50 11L77 43L50 75L23 43Z"],
            lines: &["M50 28L63 43L50 58L37 43Z"],
            dots: &[(50, 43, 4)],
        },
        (Role::Barrier, _) => Shape {
            bodies: &[
                "M26 75V40H74V75Z",
                "M50 25m-10 0a10 10 0 1 0 20 0a10 10 0 1 0-20 0",
            ],
            lines: &[
                "M26 52H74",
                "M26 64H74",
                "M50 40V52",
                "M38 52V64",
                "M62 52V64",
                "M50 64V75",
            ],
            dots: &[],
        },
        // A kind without a drawing of its own: a ring.
        _ => Shape {
            bodies: &["M50 43m-27 0a27 27 0 1 0 54 0a27 27 0 1 0-54 0"],
            lines: &[],
            dots: &[],
        },
    }
}

/// The `<g id=...>` definition of a glyph, for `<defs>`.
pub fn def(piece: Piece, kristensen: bool) -> String {
    let kristensen = is_kristensen_role(piece.role, kristensen);
    let s = shape(piece.role, kristensen);
    let (body, detail) = match piece.color {
        Color::White => (WHITE_BODY, INK),
        Color::Black => (BLACK_BODY, BLACK_DETAIL),
    };
    let mut out = format!(
        "<g id=\"{}\" class=\"glyph\" fill=\"{body}\" stroke=\"{INK}\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\">",
        id(piece, kristensen)
    );
    out.push_str(&format!("<path d=\"{BASE}\"/>"));
    for d in s.bodies {
        out.push_str(&format!("<path d=\"{d}\"/>"));
    }
    for d in s.lines {
        out.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"{detail}\"/>"
        ));
    }
    if !piece.role.is_built_in() {
        // A defined variant's piece: its letter in the ring, in the
        // built-in font (`png`), so it reads the same in SVG and PNG.
        out.push_str(&format!(
            "<text x=\"50\" y=\"55\" text-anchor=\"middle\" font-family=\"Go\" font-size=\"34\" fill=\"{detail}\" stroke=\"none\">{}</text>",
            piece.role.char()
        ));
    }
    for (x, y, r) in s.dots {
        out.push_str(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{detail}\" stroke=\"none\"/>"
        ));
    }
    out.push_str("</g>");
    out
}

/// What a legend says about a fairy piece (and about Kristensen's rook and
/// bishop, which look like FIDE's but move differently).
pub fn legend_text(role: Role, kristensen: bool) -> &'static str {
    match (role, kristensen) {
        (Role::Fyetin, _) => "Fye'tin (F): one or two squares straight, or a two-square diagonal leap (DI-5)",
        (Role::Barrier, _) => "barrier pawn (W): one step any way; only the enemy barrier pawn or its own king takes it (KR-6, KR-7)",
        (Role::Rook, true) => "Kristensen's rook: rook and knight moves (KR-3)",
        (Role::Bishop, true) => "Kristensen's bishop: bishop moves, or one step straight without capturing (KR-4)",
        (role, _) => role.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_distinct() {
        let mut ids = std::collections::HashSet::new();
        for color in Color::ALL {
            for role in Role::ALL {
                for k in [false, true] {
                    ids.insert(id(Piece::new(color, role), k));
                }
            }
        }
        // 8 roles x 2 colours, plus Kristensen's rook and bishop.
        assert_eq!(ids.len(), 20);
        assert_eq!(id(Piece::new(Color::White, Role::King), true), "wK");
        assert_eq!(id(Piece::new(Color::Black, Role::Rook), true), "bRk");
    }
}
