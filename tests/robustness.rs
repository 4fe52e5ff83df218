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
    for text in ["(32767,1)", "Q(-32767,5)", "Nb1-(32767,32767)", "a1-(32767,1)"] {
        assert!(pos.parse_move(text).is_err(), "{text}");
    }
}
