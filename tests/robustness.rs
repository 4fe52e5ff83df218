//! Bad input never panics and never hangs. Regression tests for the bugs
//! the fuzz targets (`fuzz/`) and this file found, each named for what it
//! guards.

use postal::board::Board;
use postal::{Position, Square, Variant};

#[test]
fn a_square_far_from_the_board_is_not_on_it() {
    // (32767,1) minus the array's first file (-1) overflowed i16.
    let board = Board::rect(8, 8);
    for sq in [
        Square::new(i16::MAX, 1),
        Square::new(1, i16::MAX),
        Square::new(i16::MIN, 1),
        Square::new(-32767, -32767),
    ] {
        assert!(!board.contains(sq), "{sq:?}");
        assert_eq!(board.get(sq), None);
    }
    let pos = Position::start(Variant::Chess);
    for text in [
        "(32767,1)",
        "Q(-32767,5)",
        "Nb1-(32767,32767)",
        "a1-(32767,1)",
    ] {
        assert!(pos.parse_move(text).is_err(), "{text}");
    }
}

#[test]
fn clocks_at_their_largest_do_not_overflow() {
    // A position text may set both clocks to u32::MAX; writing a move
    // (which plays it to find the check mark), listing and playing moves
    // overflowed them.
    let max = u32::MAX;
    for text in [
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 {max}"),
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {max} 1"),
        format!("4k3/8/8/8/8/8/8/R3K3 b - - {max} {max}"),
    ] {
        let pos = Position::from_text(Variant::Chess, &text).unwrap();
        for mv in pos.legal_moves() {
            let written = pos.move_text(&mv);
            let next = pos.play_unchecked(&mv);
            assert!(next.halfmove <= max && next.fullmove >= pos.fullmove);
            assert!(!written.is_empty());
        }
    }
    let pos = Position::from_text(
        Variant::Chess,
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 {max}"),
    )
    .unwrap();
    let next = pos.play(&pos.parse_move("e5").unwrap()).unwrap();
    assert_eq!((next.fullmove, next.halfmove), (max, 0));
    assert_eq!(
        Position::from_text(Variant::Chess, &next.to_text()),
        Ok(next)
    );
}

#[test]
fn coordinates_never_name_the_prison() {
    // The prison is the square (-32768,-32768) inside; written as
    // coordinates it read as the prison, and its neighbours overflowed.
    use postal::notation::square::{parse_square, MAX_COORDINATE};
    assert_eq!(parse_square("(-32768,-32768)"), None);
    assert_eq!(parse_square("(32767,-32768)"), None);
    assert_eq!(parse_square("(10000,1)"), None);
    assert_eq!(parse_square("prison"), Some(Square::PRISON));
    let far = Square::new(-MAX_COORDINATE, MAX_COORDINATE);
    assert_eq!(parse_square(&far.to_string()), Some(far));
    let pos = Position::start(Variant::Chess);
    assert!(pos.parse_move("Kc5-(-32768,-32768)").is_err());
}

#[test]
fn a_far_origin_is_refused() {
    // The board's array spans a1 and the squares read: origin=(9999,9999)
    // allocated some 800 MB, and near i16::MAX the square numbers
    // overflowed. Only a variant whose board grows takes an origin at all.
    for variant in Variant::ALL {
        for origin in ["(9999,9999)", "(-9999,1)", "(1,1001)", "(-1001,-1001)"] {
            let text = format!("k4/5/5/5/4K w - - 0 1 origin={origin}");
            let e = Position::from_text(variant, &text).unwrap_err();
            assert!(e.message.contains("origin"), "{variant} {origin}: {e}");
            assert_eq!(&text[e.span.start..e.span.end], format!("origin={origin}"));
        }
        if variant.spec().board_grows {
            let text = "k4/5/5/5/4K w - - 0 1 origin=(-1000,1000)";
            if let Ok(pos) = Position::from_text(variant, text) {
                assert_eq!(pos.board.square_count(), 25);
            }
        }
    }
}

#[test]
fn an_origin_field_alone_is_no_placement() {
    // The origin field was looked for among all fields, the placement
    // too, and taking it away left no placement to index.
    for text in ["origin=(0,0)", "  origin=(0,0)  ", "origin=(0,0) w - - 0 1"] {
        let e = Position::from_text(Variant::Chess, text).unwrap_err();
        assert!(e.span.end <= text.len());
    }
}

#[test]
fn a_movement_range_too_large_is_an_error() {
    // W256 read as range 0, an unlimited rider.
    use postal::movement::parse_betza;
    for text in ["W256", "R99999999999999999999", "Q1000"] {
        assert!(parse_betza(text).is_err(), "{text}");
    }
    assert_eq!(parse_betza("W255").unwrap().atoms[0].range, 255);
    assert_eq!(parse_betza("WW").unwrap().atoms[0].range, 0);
}

#[test]
fn a_megabyte_of_movetext_fails_at_once() {
    // Kristensen pawns step back, so "a3 a6 a2 a7" never ends the game:
    // a megabyte of it played 333,000 plies and held every position
    // (about 500 MB). It now fails before playing anything.
    use postal::notation::movetext::{play, tokens, MAX_PLIES};
    let pos = Position::start(Variant::Kristensen);
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str("a3 a6 a2 a7 ");
    }
    let (span, e) = play(&pos, &text).unwrap_err();
    let past = &tokens(&text)[MAX_PLIES];
    assert_eq!(span, past.span);
    assert!(e.span().is_some(), "a syntax error: {e}");
    assert!(e.to_string().contains("more than"), "{e}");
    // Below the limit the same moves play.
    assert_eq!(play(&pos, "1. a3 a6 2. a2 a7 3. a3").unwrap().len(), 5);
}
