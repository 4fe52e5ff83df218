//! Tests of the board's geometry and contents.

use super::*;
use crate::piece::Role;

#[test]
fn rectangle_and_margin() {
    let b = Board::rect(5, 9);
    assert_eq!(b.square_count(), 45);
    assert!(b.contains(Square::new(1, 1)));
    assert!(b.contains(Square::new(5, 9)));
    assert!(!b.contains(Square::new(6, 1)));
    assert!(!b.contains(Square::new(0, 1)));
    assert!(!b.contains(Square::PRISON));
    let i = b.index(Square::new(1, 1)).unwrap();
    // A knight jump off the corner lands in the margin: OFF.
    assert!(b.cell(b.step(i, b.offset(-2, -1))).is_off());
    assert!(b.cell(b.step(i, b.offset(1, 2))).is_empty());
}

#[test]
fn wide_boards() {
    let b = Board::rect(10, 10);
    assert!(b.contains(Square::new(10, 10)));
    assert_eq!(Square::new(1, 10).to_string(), "a10");
}

#[test]
fn growth_keeps_names_and_contents() {
    // BU-4: the board grows in every direction; names never change.
    let mut b = Board::rect(5, 5);
    let q = Piece::new(Color::White, Role::Queen);
    b.set(Square::new(4, 1), Stack::single(q));
    let mut f = 0;
    for step in 0..20 {
        assert!(b.add_square(Square::new(f, 3)));
        f -= 1;
        assert!(b.add_square(Square::new(2, -step)));
        assert!(b.add_square(Square::new(6 + step, 4)));
        assert!(b.add_square(Square::new(3, 6 + step)));
    }
    assert_eq!(b.square_count(), 25 + 80);
    assert_eq!(b.piece_at(Square::new(4, 1)), Some(q));
    assert!(b.contains(Square::new(-19, 3)));
    assert!(b.contains(Square::new(2, -19)));
    assert!(!b.contains(Square::new(1, 0)));
    // Every step from a square lands on a cell of the array.
    for s in b.squares() {
        let i = b.index(s).unwrap();
        for (dx, dy) in [(-2, -2), (2, 2), (-2, 2), (2, -2)] {
            let j = b.step(i, b.offset(dx, dy));
            assert!(j < b.cells.len());
        }
    }
}

/// The bit sets against a walk over every cell (the margins' `EDGE`
/// cells are none of the board's).
fn assert_bits_match(b: &Board) {
    let all = (0..b.grid_len()).filter(|&i| b.cells[i] != Stack::EDGE);
    let on: Vec<usize> = all.clone().filter(|&i| !b.cells[i].is_off()).collect();
    assert_eq!(b.indices().collect::<Vec<_>>(), on);
    for color in Color::ALL {
        let mine: Vec<usize> = all
            .clone()
            .filter(|&i| b.cells[i].is_occupied() && b.cells[i].color() == color)
            .collect();
        assert_eq!(b.cells_of(color).collect::<Vec<_>>(), mine);
    }
    let occupied: Vec<usize> = all.filter(|&i| b.cells[i].is_occupied()).collect();
    assert_eq!(b.occupied_cells().collect::<Vec<_>>(), occupied);
    // A group's bit of a side is set exactly when one of its blocks holds
    // a piece of that side.
    for (block, words) in b.bits.chunks_exact(BLOCK).enumerate() {
        for k in 0..SIDES {
            let set = b.sides[block / GROUP * SIDES + k] & (1 << (block % GROUP)) != 0;
            assert_eq!(set, words[1 + k] != 0, "block {block}, side {k}");
        }
    }
}

#[test]
fn side_walks_skip_the_groups_without_pieces() {
    // A strip of 20,000 squares: some 5,000 blocks in 80 groups. Pieces
    // come and go far apart, and a walk over a side finds exactly them.
    let q = Stack::single(Piece::new(Color::White, Role::Queen));
    let k = Stack::single(Piece::new(Color::Black, Role::King));
    let mut b = Board::rect(5, 5);
    for f in 6..=20_000 {
        b.add_square(Square::new(f, 1));
    }
    assert!(b.bits.len() / BLOCK > 40 * GROUP);
    for f in [1, 7_000, 7_001, 19_999, 20_000] {
        b.set(Square::new(f, 1), q);
    }
    b.set(Square::new(12_345, 1), k);
    assert_bits_match(&b);
    assert_eq!(b.cells_of(Color::White).count(), 5);
    for f in [7_000, 7_001, 20_000] {
        b.set(Square::new(f, 1), Stack::EMPTY);
    }
    b.set(Square::new(12_345, 1), q);
    assert_bits_match(&b);
    let whites: Vec<Square> = b.cells_of(Color::White).map(|i| b.square(i)).collect();
    assert_eq!(
        whites,
        [1, 12_345, 19_999].map(|f| Square::new(f, 1)).to_vec()
    );
    assert_eq!(b.cells_of(Color::Black).count(), 0);
}

#[test]
fn bit_sets_follow_every_change() {
    let q = Stack::single(Piece::new(Color::White, Role::Queen));
    let k = Stack::single(Piece::new(Color::Black, Role::King));
    let mut b = Board::rect(9, 9).with_prison();
    assert_bits_match(&b);
    b.set(Square::new(1, 1), q);
    b.set(Square::new(9, 9), k);
    b.set(Square::PRISON, q);
    assert_bits_match(&b);
    let i = b.index(Square::new(9, 9)).unwrap();
    b.set_cell(i, q);
    assert_bits_match(&b);
    b.set_cell(i, Stack::EMPTY);
    assert!(!b.set(Square::new(10, 9), q));
    assert_bits_match(&b);
    // Setting OFF makes a hole.
    b.set(Square::new(2, 2), q);
    assert!(b.set(Square::new(2, 2), Stack::OFF));
    assert!(!b.contains(Square::new(2, 2)));
    assert_bits_match(&b);
    // Growth re-lays the array; the sets follow.
    for f in 10..80 {
        b.add_square(Square::new(f, 5));
        b.set(Square::new(f, 5), if f % 2 == 0 { q } else { k });
    }
    assert_bits_match(&b);
    assert_eq!(b.cells_of(Color::White).count(), 36);
}

#[test]
fn reserve_then_add_and_take_back_keeps_cells() {
    // BU-4 in a search: squares added next to the board and taken back
    // leave every cell index as it was.
    let mut b = Board::rect(5, 5);
    b.set(
        Square::new(3, 3),
        Stack::single(Piece::new(Color::White, Role::King)),
    );
    b.reserve(3);
    let before = b.clone();
    let king = b.index(Square::new(3, 3));
    let mut added = Vec::new();
    for sq in [Square::new(6, 1), Square::new(7, 1), Square::new(8, 1)] {
        let bounds = b.bounds();
        assert!(b.add_square(sq));
        added.push((sq, bounds));
        assert_eq!(b.index(Square::new(3, 3)), king);
        assert_bits_match(&b);
    }
    assert_eq!(b.bounds(), (1, 1, 8, 5));
    for (sq, bounds) in added.into_iter().rev() {
        b.remove_square(sq, bounds);
    }
    assert_eq!(b, before);
    assert_bits_match(&b);
}

#[test]
fn same_placement_whatever_the_layout() {
    // Same corner and width, different heights: the same squares.
    let mut a = Board::rect(5, 5);
    let mut b = Board::rect(5, 5);
    b.add_square(Square::new(1, 6));
    a.add_square(Square::new(1, 6));
    b.add_square(Square::new(1, 7));
    assert!(!a.same_placement(&b));
    a.add_square(Square::new(1, 7));
    let c = Board::from_squares(&a.squares().collect::<Vec<_>>());
    assert!(a.same_placement(&b) && b.same_placement(&c) && c.same_placement(&a));
    let mut d = Board::rect(5, 5);
    d.add_square(Square::new(1, 0));
    let e = Board::from_squares(&d.squares().collect::<Vec<_>>());
    // The grown board has tiles of 5 x 5 from a1, the one read whole a
    // tile of 5 x 6 from a0.
    assert!(d.r0 != e.r0 && d.same_placement(&e) && e.same_placement(&d));
}

/// Cells of the array: the tiles' and the prison's.
fn cells(b: &Board) -> usize {
    b.cells.len()
}

#[test]
fn boards_in_one_tile_keep_rank_order() {
    // A rectangle of up to 16 x 16 is one tile: its squares in array
    // order are rank by rank, as the generators' order expects, and its
    // cells are the rectangle with a margin of two `OFF` cells, where
    // every step is an addition (no cell is `EDGE`).
    for (f, r) in [(5, 5), (8, 8), (5, 9), (9, 9), (16, 16)] {
        let b = Board::rect(f, r);
        let squares: Vec<Square> = b.squares().collect();
        let mut sorted = squares.clone();
        sorted.sort_by_key(|s| (s.rank, s.file));
        assert_eq!(squares, sorted);
        assert_eq!(b.tiles.at.len(), 1, "{f}x{r}");
        assert_eq!(cells(&b), (f as usize + 4) * (r as usize + 4), "{f}x{r}");
        assert!(!b.cells.contains(&Stack::EDGE), "{f}x{r}");
        let (i, j) = (
            b.index(Square::new(1, 1)).unwrap(),
            b.index(Square::new(f, r)).unwrap(),
        );
        assert_eq!(b.step(i, b.offset(2, 1)), i + 2 + b.width());
        assert!(b.cell(b.step(j, b.offset(1, 2))).is_off());
    }
}

#[test]
fn growth_costs_the_squares_not_the_rectangle() {
    // BU-4: a strip 4,000 files long and an L of 20,000 squares hold
    // cells in proportion to their squares (grown from a 5 x 5 board, a
    // tile of 9 x 9 cells, its squares and their margin, for every five
    // squares of a line); their rectangles would hold 20,000 and 25
    // million cells.
    let mut strip = Board::rect(5, 5);
    for f in 6..=4000 {
        strip.add_square(Square::new(f, 3));
    }
    assert_eq!(strip.square_count(), 25 + 3995);
    assert!(cells(&strip) <= 81 * 4020 / 5, "{}", cells(&strip));
    let mut l = Board::rect(5, 5);
    for k in 6..=10_000 {
        l.add_square(Square::new(k, 1));
        l.add_square(Square::new(1, k - 5000));
    }
    assert!(l.square_count() >= 19_990);
    assert!(cells(&l) <= 81 * 20_000 / 5 + 81 * 2, "{}", cells(&l));
    assert_bits_match(&l);
    // Every square keeps its name and index.
    for s in l.squares() {
        assert_eq!(l.square(l.index(s).unwrap()), s);
    }
}

#[test]
fn steps_across_tiles_match_the_names() {
    // A step of up to two files and ranks from any square lands on the
    // cell of the square it names: on the board or `OFF`.
    let mut b = Board::rect(5, 5);
    for k in 0..40 {
        b.add_square(Square::new(6 + k, 3 + k / 3));
        b.add_square(Square::new(2 - k / 2, -k));
    }
    b.set(Square::new(3, 3), Stack::OFF);
    for s in b.squares() {
        let i = b.index(s).unwrap();
        for dx in -MARGIN..=MARGIN {
            for dy in -MARGIN..=MARGIN {
                let j = b.step(i, b.offset(dx, dy));
                let t = s.offset(dx, dy);
                match b.index(t) {
                    Some(k) => assert_eq!(j, k, "{s} + ({dx},{dy})"),
                    None => assert!(b.cell(j).is_off(), "{s} + ({dx},{dy})"),
                }
            }
        }
    }
}

#[test]
fn prison_is_a_named_cell() {
    // CO-1: the prison lies off the grid.
    let mut b = Board::rect(5, 9).with_prison();
    assert!(b.contains(Square::PRISON));
    assert_eq!(b.squares().count(), 45);
    let k = Piece::new(Color::Black, Role::King);
    b.set(Square::PRISON, Stack::single(k));
    assert_eq!(b.piece_at(Square::PRISON), Some(k));
    assert_eq!(b.find(k).collect::<Vec<_>>(), vec![Square::PRISON]);
}
