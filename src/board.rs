//! Geometry and contents: which squares exist and what stands on each.
//!
//! The board is a mailbox: a rectangle of cells that includes a margin of
//! cells that are `OFF` (not on the board) around every square that is, so
//! that a rider walking off the board or a leaper jumping up to two squares
//! always lands on a cell of the array and finds `OFF` there. Squares with
//! holes (Building Chess) are `OFF` cells inside the rectangle. Named cells
//! off the grid (the Corral prison, CO-1) follow the grid in the array and
//! are never reached by stepping.
//!
//! The rectangle grows when a square is added near its edge (BU-4); a
//! square's name never changes, only its index in the array.

use crate::color::Color;
use crate::piece::{Piece, Stack};
use crate::square::Square;

/// Cells of margin around the board: the longest leap of any variant's
/// pieces (knight, Fye'tin's A, Kristensen's rook) is two squares.
pub const MARGIN: i16 = 2;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Square of the cell at index 0 (bottom-left corner of the array).
    f0: i16,
    r0: i16,
    width: i16,
    height: i16,
    cells: Vec<Stack>,
    /// Whether the board has the prison cell, stored after the grid.
    prison: bool,
    /// Smallest and largest file and rank of the squares on the grid,
    /// kept up to date as squares are added (see [`Board::bounds`]).
    bounds: (i16, i16, i16, i16),
}

impl Board {
    /// A full rectangle of files `1..=files`, ranks `1..=ranks`, empty.
    pub fn rect(files: i16, ranks: i16) -> Board {
        let width = files + 2 * MARGIN;
        let height = ranks + 2 * MARGIN;
        let mut board = Board {
            f0: 1 - MARGIN,
            r0: 1 - MARGIN,
            width,
            height,
            cells: vec![Stack::OFF; (width as usize) * (height as usize)],
            prison: false,
            bounds: if files > 0 && ranks > 0 {
                (1, 1, files, ranks)
            } else {
                (1, 1, 0, 0)
            },
        };
        for r in 1..=ranks {
            for f in 1..=files {
                let i = board.grid_index(Square::new(f, r)).unwrap_or(0);
                board.cells[i] = Stack::EMPTY;
            }
        }
        board
    }

    /// A board with only the given squares on it, empty.
    pub fn from_squares(squares: &[Square]) -> Board {
        let mut board = Board::rect(0, 0);
        for &sq in squares {
            board.add_square(sq);
        }
        board
    }

    /// Adds the prison cell (CO-1).
    pub fn with_prison(mut self) -> Board {
        if !self.prison {
            self.cells.push(Stack::EMPTY);
            self.prison = true;
        }
        self
    }

    pub fn has_prison(&self) -> bool {
        self.prison
    }

    /// Array width: the offset of one rank step.
    pub fn stride(&self) -> isize {
        self.width as isize
    }

    /// The array offset of a step of `dx` files and `dy` ranks.
    #[inline]
    pub fn offset(&self, dx: i16, dy: i16) -> isize {
        dy as isize * self.width as isize + dx as isize
    }

    fn grid_index(&self, sq: Square) -> Option<usize> {
        // In i32: a square named in a move text may lie anywhere in the
        // i16 range, and the difference must not overflow.
        let c = sq.file as i32 - self.f0 as i32;
        let r = sq.rank as i32 - self.r0 as i32;
        if c < 0 || r < 0 || c >= self.width as i32 || r >= self.height as i32 {
            None
        } else {
            Some(r as usize * self.width as usize + c as usize)
        }
    }

    fn grid_len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The array index of a square on the board (`None` when the square is
    /// not part of the board).
    #[inline]
    pub fn index(&self, sq: Square) -> Option<usize> {
        if sq.is_prison() {
            return self.prison.then(|| self.grid_len());
        }
        self.grid_index(sq).filter(|&i| !self.cells[i].is_off())
    }

    /// The square of an array index.
    #[inline]
    pub fn square(&self, index: usize) -> Square {
        if index >= self.grid_len() {
            return Square::PRISON;
        }
        let w = self.width as usize;
        Square::new(self.f0 + (index % w) as i16, self.r0 + (index / w) as i16)
    }

    /// The cell at an array index (the index must come from this board).
    #[inline]
    pub fn cell(&self, index: usize) -> Stack {
        self.cells[index]
    }

    #[inline]
    pub fn set_cell(&mut self, index: usize, stack: Stack) {
        debug_assert!(!self.cells[index].is_off());
        self.cells[index] = stack;
    }

    /// The array index reached by `offset` from `index`. Stepping from a
    /// square of the board by at most [`MARGIN`] squares stays inside the
    /// array (the margin); callers check the result for `OFF`.
    #[inline]
    pub fn step(&self, index: usize, offset: isize) -> usize {
        (index as isize + offset) as usize
    }

    pub fn contains(&self, sq: Square) -> bool {
        self.index(sq).is_some()
    }

    /// What stands on a square; `None` when the square is not on the board.
    pub fn get(&self, sq: Square) -> Option<Stack> {
        self.index(sq).map(|i| self.cells[i])
    }

    /// The single piece on a square, if exactly one stands there.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.get(sq).and_then(|s| s.piece())
    }

    /// Puts `stack` on a square of the board. Returns false when the square
    /// is not on the board.
    pub fn set(&mut self, sq: Square, stack: Stack) -> bool {
        match self.index(sq) {
            Some(i) => {
                self.cells[i] = stack;
                true
            }
            None => false,
        }
    }

    /// All squares of the grid part of the board, rank 1 first, files left
    /// to right (the prison, if any, is not included).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.grid_len())
            .filter(|&i| !self.cells[i].is_off())
            .map(|i| self.square(i))
    }

    /// Indices of the grid cells on the board.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.grid_len()).filter(|&i| !self.cells[i].is_off())
    }

    /// Number of squares on the grid.
    pub fn square_count(&self) -> usize {
        self.indices().count()
    }

    /// Occupied squares with what stands there.
    pub fn occupied(&self) -> impl Iterator<Item = (Square, Stack)> + '_ {
        self.squares()
            .map(|s| (s, self.get(s).unwrap_or(Stack::EMPTY)))
            .filter(|(_, st)| st.is_occupied())
            .chain(
                self.prison
                    .then(|| (Square::PRISON, self.cells[self.grid_len()]))
                    .filter(|(_, st)| st.is_occupied()),
            )
    }

    /// Squares holding a piece of `color` and of the role of `piece`.
    pub fn find(&self, piece: Piece) -> impl Iterator<Item = Square> + '_ {
        self.occupied()
            .filter(move |(_, st)| st.has(piece.color, piece.role))
            .map(|(s, _)| s)
    }

    /// Smallest and largest file and rank of the squares on the grid:
    /// `(min_file, min_rank, max_file, max_rank)`.
    pub fn bounds(&self) -> (i16, i16, i16, i16) {
        self.bounds
    }

    /// Adds an empty square to the board (BU-2), growing the array when the
    /// square lies inside the margin. Returns false when it was already on
    /// the board.
    pub fn add_square(&mut self, sq: Square) -> bool {
        if self.contains(sq) || sq.is_prison() {
            return false;
        }
        let c = sq.file - self.f0;
        let r = sq.rank - self.r0;
        if c < MARGIN || r < MARGIN || c >= self.width - MARGIN || r >= self.height - MARGIN {
            // Regrow generously so a board that grows one square a turn
            // re-lays its array only now and then.
            let grow = MARGIN + 4;
            let (minf, minr, maxf, maxr) = if self.bounds.0 > self.bounds.2 {
                (sq.file, sq.rank, sq.file, sq.rank)
            } else {
                let b = self.bounds;
                (
                    b.0.min(sq.file),
                    b.1.min(sq.rank),
                    b.2.max(sq.file),
                    b.3.max(sq.rank),
                )
            };
            // An empty board's array says nothing about where its squares
            // will be: lay out around the new square alone (a far
            // `origin=` must not allocate the space between it and a1).
            let (old_f0, old_r0, old_f1, old_r1) = if self.bounds.0 > self.bounds.2 {
                (i16::MAX, i16::MAX, i16::MIN, i16::MIN)
            } else {
                (
                    self.f0,
                    self.r0,
                    self.f0 + self.width - 1,
                    self.r0 + self.height - 1,
                )
            };
            let f0 = (minf - MARGIN).min(old_f0).min(minf - grow + 2);
            let r0 = (minr - MARGIN).min(old_r0).min(minr - grow + 2);
            let f1 = (maxf + MARGIN).max(old_f1).max(maxf + grow - 2);
            let r1 = (maxr + MARGIN).max(old_r1).max(maxr + grow - 2);
            self.relayout(f0, r0, f1 - f0 + 1, r1 - r0 + 1);
        }
        let i = self.grid_index(sq).unwrap_or(0);
        self.cells[i] = Stack::EMPTY;
        let b = self.bounds;
        self.bounds = if b.0 > b.2 {
            (sq.file, sq.rank, sq.file, sq.rank)
        } else {
            (
                b.0.min(sq.file),
                b.1.min(sq.rank),
                b.2.max(sq.file),
                b.3.max(sq.rank),
            )
        };
        true
    }

    fn relayout(&mut self, f0: i16, r0: i16, width: i16, height: i16) {
        let mut cells = vec![Stack::OFF; width as usize * height as usize];
        for i in 0..self.grid_len() {
            if self.cells[i].is_off() {
                continue;
            }
            let s = self.square(i);
            let j = (s.rank - r0) as usize * width as usize + (s.file - f0) as usize;
            cells[j] = self.cells[i];
        }
        if self.prison {
            cells.push(self.cells[self.grid_len()]);
        }
        self.f0 = f0;
        self.r0 = r0;
        self.width = width;
        self.height = height;
        self.cells = cells;
    }

    /// True when two boards have the same squares with the same contents,
    /// whatever their array layout.
    pub fn same_placement(&self, other: &Board) -> bool {
        if self.width == other.width
            && self.height == other.height
            && self.f0 == other.f0
            && self.r0 == other.r0
        {
            return self.cells == other.cells;
        }
        self.square_count() == other.square_count()
            && self.squares().all(|s| self.get(s) == other.get(s))
            && self.get(Square::PRISON) == other.get(Square::PRISON)
    }

    /// All squares of pieces of one side.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.occupied()
            .filter(move |(_, st)| st.color() == color)
            .map(|(s, _)| s)
    }
}

#[cfg(test)]
mod tests {
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
        // Every square keeps the margin around it.
        for s in b.squares() {
            let i = b.index(s).unwrap();
            for (dx, dy) in [(-2, -2), (2, 2), (-2, 2), (2, -2)] {
                let j = b.step(i, b.offset(dx, dy));
                assert!(j < b.cells.len());
            }
        }
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
        assert_eq!((d.width, d.f0, d.r0), (e.width, e.f0, e.r0));
        // (These two are laid out with the same corner and width but
        // different heights.)
        assert!(d.height != e.height && d.same_placement(&e));
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
}
