use super::*;
use crate::variant::Variant;

const U: u8 = u8::MAX;
const B: Mode = Mode::Both;
const M: Mode = Mode::Move;
const C: Mode = Mode::Capture;

/// A ray as `(dx, dy, range, mode)`.
type R = (i16, i16, u8, Mode);

/// The rays of every movement the built-in tables use, for White and for
/// Black, as `(dx, dy, range, mode)` in the order the tables list them:
/// the output of the Betza subset this program read before Fairy-
/// Stockfish's reading was its only one. Move lists (`postal moves`,
/// `perft --divide`) follow this order, so it may not change.
#[rustfmt::skip]
const BUILT_IN: &[(&str, &[R], &[R])] = &[
    ("K",
     &[(1, 0, 1, B), (-1, 0, 1, B), (0, 1, 1, B), (0, -1, 1, B), (1, 1, 1, B), (-1, 1, 1, B), (1, -1, 1, B), (-1, -1, 1, B)],
     &[(1, 0, 1, B), (-1, 0, 1, B), (0, -1, 1, B), (0, 1, 1, B), (1, -1, 1, B), (-1, -1, 1, B), (1, 1, 1, B), (-1, 1, 1, B)]),
    ("Q",
     &[(1, 0, U, B), (-1, 0, U, B), (0, 1, U, B), (0, -1, U, B), (1, 1, U, B), (-1, 1, U, B), (1, -1, U, B), (-1, -1, U, B)],
     &[(1, 0, U, B), (-1, 0, U, B), (0, -1, U, B), (0, 1, U, B), (1, -1, U, B), (-1, -1, U, B), (1, 1, U, B), (-1, 1, U, B)]),
    ("R",
     &[(1, 0, U, B), (-1, 0, U, B), (0, 1, U, B), (0, -1, U, B)],
     &[(1, 0, U, B), (-1, 0, U, B), (0, -1, U, B), (0, 1, U, B)]),
    ("B",
     &[(1, 1, U, B), (-1, 1, U, B), (1, -1, U, B), (-1, -1, U, B)],
     &[(1, -1, U, B), (-1, -1, U, B), (1, 1, U, B), (-1, 1, U, B)]),
    ("N",
     &[(1, 2, 1, B), (-1, 2, 1, B), (1, -2, 1, B), (-1, -2, 1, B), (2, 1, 1, B), (-2, 1, 1, B), (2, -1, 1, B), (-2, -1, 1, B)],
     &[(1, -2, 1, B), (-1, -2, 1, B), (1, 2, 1, B), (-1, 2, 1, B), (2, -1, 1, B), (-2, -1, 1, B), (2, 1, 1, B), (-2, 1, 1, B)]),
    ("mfWcfF",
     &[(0, 1, 1, M), (1, 1, 1, C), (-1, 1, 1, C)],
     &[(0, -1, 1, M), (1, -1, 1, C), (-1, -1, 1, C)]),
    ("Q4",
     &[(1, 0, 4, B), (-1, 0, 4, B), (0, 1, 4, B), (0, -1, 4, B), (1, 1, 4, B), (-1, 1, 4, B), (1, -1, 4, B), (-1, -1, 4, B)],
     &[(1, 0, 4, B), (-1, 0, 4, B), (0, -1, 4, B), (0, 1, 4, B), (1, -1, 4, B), (-1, -1, 4, B), (1, 1, 4, B), (-1, 1, 4, B)]),
    ("R4",
     &[(1, 0, 4, B), (-1, 0, 4, B), (0, 1, 4, B), (0, -1, 4, B)],
     &[(1, 0, 4, B), (-1, 0, 4, B), (0, -1, 4, B), (0, 1, 4, B)]),
    ("B4",
     &[(1, 1, 4, B), (-1, 1, 4, B), (1, -1, 4, B), (-1, -1, 4, B)],
     &[(1, -1, 4, B), (-1, -1, 4, B), (1, 1, 4, B), (-1, 1, 4, B)]),
    ("W2A",
     &[(1, 0, 2, B), (-1, 0, 2, B), (0, 1, 2, B), (0, -1, 2, B), (2, 2, 1, B), (-2, 2, 1, B), (2, -2, 1, B), (-2, -2, 1, B)],
     &[(1, 0, 2, B), (-1, 0, 2, B), (0, -1, 2, B), (0, 1, 2, B), (2, -2, 1, B), (-2, -2, 1, B), (2, 2, 1, B), (-2, 2, 1, B)]),
    ("RN",
     &[(1, 0, U, B), (-1, 0, U, B), (0, 1, U, B), (0, -1, U, B), (1, 2, 1, B), (-1, 2, 1, B), (1, -2, 1, B), (-1, -2, 1, B),
       (2, 1, 1, B), (-2, 1, 1, B), (2, -1, 1, B), (-2, -1, 1, B)],
     &[(1, 0, U, B), (-1, 0, U, B), (0, -1, U, B), (0, 1, U, B), (1, -2, 1, B), (-1, -2, 1, B), (1, 2, 1, B), (-1, 2, 1, B),
       (2, -1, 1, B), (-2, -1, 1, B), (2, 1, 1, B), (-2, 1, 1, B)]),
    ("BmvW",
     &[(1, 1, U, B), (-1, 1, U, B), (1, -1, U, B), (-1, -1, U, B), (0, 1, 1, M), (0, -1, 1, M)],
     &[(1, -1, U, B), (-1, -1, U, B), (1, 1, U, B), (-1, 1, U, B), (0, -1, 1, M), (0, 1, 1, M)]),
    ("mfWcfFmbW",
     &[(0, 1, 1, M), (1, 1, 1, C), (-1, 1, 1, C), (0, -1, 1, M)],
     &[(0, -1, 1, M), (1, -1, 1, C), (-1, -1, 1, C), (0, 1, 1, M)]),
];

fn rays(text: &str, color: Color) -> Vec<R> {
    parse_betza(text)
        .unwrap()
        .rays(color)
        .into_iter()
        .map(|r| (r.dx, r.dy, r.range, r.mode))
        .collect()
}

fn sorted(text: &str, color: Color) -> Vec<R> {
    let mut v = rays(text, color);
    v.sort_by_key(|x| (x.0, x.1, x.2));
    v
}

#[test]
fn the_built_in_tables_keep_their_rays_and_order() {
    let mut seen = std::collections::BTreeSet::new();
    for variant in Variant::ALL {
        let tables = variant.tables();
        for piece in variant.spec().pieces {
            let Some((_, white, black)) = BUILT_IN.iter().find(|e| e.0 == piece.betza) else {
                panic!("{variant}: no expected rays for {:?}", piece.betza);
            };
            seen.insert(piece.betza);
            for (color, expected) in [(Color::White, white), (Color::Black, black)] {
                let got: Vec<_> = tables.rays[piece.role.index()][color]
                    .iter()
                    .map(|r| (r.dx, r.dy, r.range, r.mode))
                    .collect();
                assert_eq!(&got, expected, "{variant} {} {color:?}", piece.betza);
                assert_eq!(rays(piece.betza, color), got);
            }
        }
    }
    assert_eq!(
        seen.len(),
        BUILT_IN.len(),
        "an expected entry no table uses"
    );
}

#[test]
fn the_old_letters_mean_the_same_in_fairy_stockfish_reading() {
    let m = parse_betza("W2A").unwrap();
    assert_eq!(m.quiet, m.capture);
    assert_eq!(m.quiet.slides.len(), 4);
    assert!(m.quiet.slides.values().all(|&v| v == 2));
    assert_eq!(
        m.quiet.leaps.keys().copied().collect::<Vec<_>>(),
        [(-2, -2), (-2, 2), (2, -2), (2, 2)]
    );
    let ww = parse_betza("WW").unwrap();
    let r = parse_betza("R").unwrap();
    assert_eq!((&ww.quiet, &ww.capture), (&r.quiet, &r.capture));
    assert_eq!(rays("WW", Color::Black), rays("R", Color::Black));
    let pawn = parse_betza("mfWcfF").unwrap();
    assert_eq!(
        pawn.quiet.leaps.keys().copied().collect::<Vec<_>>(),
        [(1, 0)]
    );
    assert_eq!(
        pawn.capture.leaps.keys().copied().collect::<Vec<_>>(),
        [(1, -1), (1, 1)]
    );
    let k = parse_betza("mfWcfFmbW").unwrap();
    assert_eq!(
        k.quiet.leaps.keys().copied().collect::<Vec<_>>(),
        [(-1, 0), (1, 0)]
    );
    let kb = parse_betza("BmvW").unwrap();
    assert_eq!(
        kb.quiet.leaps.keys().copied().collect::<Vec<_>>(),
        [(-1, 0), (1, 0)]
    );
    assert!(kb.capture.leaps.is_empty());
    assert!(parse_betza("Q4")
        .unwrap()
        .quiet
        .slides
        .values()
        .all(|&v| v == 4));
    assert_eq!(parse_betza("RN").unwrap().capture.leaps.len(), 8);
    assert_eq!(parse_betza("K").unwrap().quiet.leaps.len(), 8);
    assert_eq!(parse_betza("W2").unwrap().quiet.slides.len(), 4);
}

#[test]
fn leapers() {
    assert_eq!(sorted("N", Color::White).len(), 8);
    assert_eq!(sorted("W", Color::White).len(), 4);
    assert_eq!(sorted("F", Color::White).len(), 4);
    assert_eq!(sorted("A", Color::White).len(), 4);
    assert_eq!(sorted("D", Color::White).len(), 4);
    assert!(sorted("A", Color::White).iter().all(|r| r.2 == 1));
    assert_eq!(sorted("K", Color::White).len(), 8);
    // The old subset's order for a dabbaba: sideways first.
    assert_eq!(
        rays("D", Color::White),
        [(2, 0, 1, B), (-2, 0, 1, B), (0, 2, 1, B), (0, -2, 1, B)]
    );
}

#[test]
fn riders_and_ranges() {
    assert!(sorted("R", Color::White).iter().all(|r| r.2 == u8::MAX));
    assert!(sorted("Q4", Color::White).iter().all(|r| r.2 == 4));
    assert_eq!(sorted("Q4", Color::White).len(), 8);
    assert!(sorted("W2", Color::White).iter().all(|r| r.2 == 2));
    assert_eq!(sorted("WW", Color::White), sorted("R", Color::White));
    // DI-5: the Fye'tin: W2 slide plus A leap, never one diagonal step.
    let fyetin = sorted("W2A", Color::White);
    assert_eq!(fyetin.len(), 8);
    assert!(!fyetin.iter().any(|r| r.0.abs() == 1 && r.1.abs() == 1));
}

#[test]
fn pawn_directions_turn_with_the_side() {
    let w = sorted("mfWcfF", Color::White);
    assert_eq!(w, vec![(-1, 1, 1, C), (0, 1, 1, M), (1, 1, 1, C)]);
    let b = sorted("mfWcfF", Color::Black);
    assert_eq!(b, vec![(-1, -1, 1, C), (0, -1, 1, M), (1, -1, 1, C)]);
    // KR-5: the back step of a Kristensen pawn.
    assert_eq!(sorted("mbW", Color::White), vec![(0, -1, 1, M)]);
    // KR-4: the bishop's vertical non-capturing step.
    let kb = sorted("BmvW", Color::White);
    assert!(kb.contains(&(0, 1, 1, M)));
    assert!(kb.contains(&(0, -1, 1, M)));
    assert!(!kb.contains(&(1, 0, 1, M)));
    // Black's are White's turned half round, so a piece that is not
    // symmetric turns too: `rF` steps to White's right (towards the
    // h-file), and to Black's right (towards the a-file).
    assert_eq!(rays("rF", Color::White), [(1, 1, 1, B), (1, -1, 1, B)]);
    assert_eq!(rays("rF", Color::Black), [(-1, -1, 1, B), (-1, 1, 1, B)]);
}

#[test]
fn quiet_and_capture_with_the_same_reach_are_one_ray() {
    assert_eq!(rays("mWcW", Color::White), rays("W", Color::White));
    assert_eq!(rays("cRmR", Color::Black), rays("R", Color::Black));
    // Different ranges stay apart.
    assert_eq!(rays("mfRcfR2", Color::White), [(0, 1, U, M), (0, 1, 2, C)]);
}

#[test]
fn hops_are_hop_rays_and_lame_leaps_lame_ones() {
    let cannon = parse_betza("pR").unwrap().rays(Color::White);
    assert!(
        cannon.iter().all(|r| r.hop && r.range == u8::MAX),
        "{cannon:?}"
    );
    assert_eq!(cannon.len(), 4);
    let grasshopper = parse_betza("gQ").unwrap().rays(Color::Black);
    assert!(
        grasshopper.iter().all(|r| r.hop && r.range == 1),
        "{grasshopper:?}"
    );
    assert_eq!(grasshopper.len(), 8);
    let horse = parse_betza("WnN").unwrap().rays(Color::White);
    assert_eq!(horse.len(), 12);
    assert!(horse
        .iter()
        .all(|r| r.lame == (r.dx.abs() + r.dy.abs() == 3)));
    let rook = parse_betza("R").unwrap().rays(Color::White);
    assert!(rook.iter().all(|r| !r.hop && !r.lame));
}

#[test]
#[should_panic(expected = "is not for the built-in tables: the hop")]
fn a_built_in_constant_may_not_hop() {
    Movement::betza("pR");
}

#[test]
#[should_panic(expected = "is not for the built-in tables: the lame leap")]
fn a_built_in_constant_may_not_leap_lame() {
    Movement::betza("nN");
}

#[test]
#[should_panic(expected = "bad movement descriptor")]
fn a_malformed_constant_panics() {
    Movement::betza("W2x");
}

#[test]
fn malformed_is_an_error() {
    assert!(parse_betza("X").is_err());
    assert!(parse_betza("W2x").is_err());
    // Fairy-Stockfish reads an empty text as a piece with no moves.
    assert_eq!(parse_betza(""), Ok(Movement::default()));
    let e = parse_betza("mfWix").unwrap_err();
    assert_eq!(e.offset, 4);
    assert!(e.why.contains("`x`"), "{}", e.why);
    assert_eq!(parse_betza("mfWi").unwrap_err().offset, 4);
    assert!(parse_betza("mfW").is_ok());
    assert_eq!(parse_betza("Wmf").unwrap_err().offset, 3);
}

#[test]
fn letters_outside_the_supported_forms_are_refused() {
    assert!(parse_betza("CC").is_err());
    assert!(parse_betza("pH").is_err());
    let b = parse_betza("fsW").unwrap();
    assert_eq!(b.quiet.leaps.len(), 3);
}

#[test]
fn initial_moves_are_quiet_moves_of_their_own() {
    // Fairy-Stockfish's `allwayspawns` pawn: quiet steps every way, forward
    // diagonal captures, and from the double-step region a lame forward
    // dabbaba.
    let b = parse_betza("mWfceFifmnD").unwrap();
    assert_eq!(b.quiet.leaps.len(), 4);
    assert_eq!(
        b.capture.leaps.keys().copied().collect::<Vec<_>>(),
        [(1, -1), (1, 1)]
    );
    assert_eq!(
        b.initial.leaps.into_iter().collect::<Vec<_>>(),
        [((2, 0), -1)]
    );
    assert!(b.initial.slides.is_empty() && b.initial.hops.is_empty());
    // No initial captures in Fairy-Stockfish: `iD` moves only, `icD` is
    // nothing.
    let b = parse_betza("KiD").unwrap();
    assert_eq!(b.initial.leaps.len(), 4);
    assert_eq!(b.capture.leaps.len(), 8);
    assert!(parse_betza("KicD").unwrap().initial.is_empty());
    // The rays of the built-in tables leave them out.
    assert_eq!(
        parse_betza("KifmnD").unwrap().rays(Color::White),
        parse_betza("K").unwrap().rays(Color::White)
    );
}

#[test]
fn en_passant_letter_is_skipped_as_fairy_stockfish_skips_it() {
    assert_eq!(parse_betza("fmWfceF"), parse_betza("fmWfcF"));
}

#[test]
#[should_panic(expected = "is not for the built-in tables: initial moves")]
fn a_built_in_constant_may_not_have_initial_moves() {
    Movement::betza("WiD");
}

#[test]
fn a_lame_leap_passes_the_square_of_its_longer_leg() {
    // Fairy-Stockfish's xiangqi horse (`nN`) is blocked on the square
    // next to it along the longer leg; a lame alfil (`nA`) at the
    // diagonal step; a lame dabbaba (`nD`) at the orthogonal one.
    assert_eq!(lame_step(1, 2), Some((0, 1)));
    assert_eq!(lame_step(-2, 1), Some((-1, 0)));
    assert_eq!(lame_step(2, -2), Some((1, -1)));
    assert_eq!(lame_step(0, -2), Some((0, -1)));
    assert_eq!(lame_step(1, 1), None);
    assert_eq!(lame_step(0, 1), None);
}

#[test]
#[should_panic(expected = "is not for the built-in tables: the lame leap")]
fn built_in_tables_refuse_lame_leaps() {
    Movement::betza("nN");
}
