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
//!
//! Beside the cells the board keeps bit sets over the grid's indices: which
//! cells are on the board and which hold pieces of each side, updated by
//! every setter. Move generation and king searches visit the pieces of one
//! side through them instead of walking every cell of the array (on a grown
//! Building board most cells are holes), and in array order, so the order
//! of generated moves is the order of a walk over the cells.

use crate::color::Color;
use crate::piece::{Piece, Stack};
use crate::square::Square;

/// Cells of margin around the board: the longest leap of any variant's
/// pieces (knight, Fye'tin's A, Kristensen's rook) is two squares.
pub const MARGIN: i16 = 2;

#[derive(PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Square of the cell at index 0 (bottom-left corner of the array).
    f0: i16,
    r0: i16,
    width: i16,
    height: i16,
    /// Bit sets over the grid's cells, [`BLOCK`] words per 64 cells: the
    /// cells on the board, then those holding White's and Black's pieces
    /// (the prison is in none of them). A function of `cells` and the
    /// layout; kept before `cells` so that the derived comparison, which
    /// goes field by field, tells most unequal boards apart on these few
    /// words (repetition counts compare a position with all before it).
    bits: Vec<u64>,
    cells: Vec<Stack>,
    /// Whether the board has the prison cell, stored after the grid.
    prison: bool,
    /// Smallest and largest file and rank of the squares on the grid,
    /// kept up to date as squares are added (see [`Board::bounds`]).
    bounds: (i16, i16, i16, i16),
}

/// Words of [`Board::bits`] per 64 cells: on the board, White, Black.
const BLOCK: usize = 3;
const ON: usize = 0;

/// The word of [`Board::bits`] that holds the pieces of `color`.
#[inline]
fn side_word(color: Color) -> usize {
    1 + color as usize
}

/// Which word of a block a cell's contents set: `None` for an empty or
/// `OFF` cell.
#[inline]
fn occupancy(stack: Stack) -> Option<usize> {
    stack.is_occupied().then(|| side_word(stack.color()))
}

/// The set bits of a word, lowest first.
#[derive(Clone)]
struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The cells of one of the board's bit sets (see [`Board::cells_of`]),
/// in array order.
#[derive(Clone)]
pub struct Cells<'a> {
    blocks: std::slice::ChunksExact<'a, u64>,
    /// Words of a block OR-ed together to make the set.
    select: u8,
    base: usize,
    word: Ones,
}

impl Iterator for Cells<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if let Some(i) = self.word.next() {
                return Some(self.base + i);
            }
            let block = self.blocks.next()?;
            self.base = self.base.wrapping_add(64);
            let mut w = 0;
            for (k, &word) in block.iter().enumerate() {
                if self.select & (1 << k) != 0 {
                    w |= word;
                }
            }
            self.word = Ones(w);
        }
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            f0: self.f0,
            r0: self.r0,
            width: self.width,
            height: self.height,
            cells: self.cells.clone(),
            prison: self.prison,
            bounds: self.bounds,
            bits: self.bits.clone(),
        }
    }

    /// Copies into the arrays this board already has (perft's scratch
    /// positions copy a board per node without allocating).
    fn clone_from(&mut self, source: &Board) {
        self.f0 = source.f0;
        self.r0 = source.r0;
        self.width = source.width;
        self.height = source.height;
        self.cells.clone_from(&source.cells);
        self.prison = source.prison;
        self.bounds = source.bounds;
        self.bits.clone_from(&source.bits);
    }
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
            bits: Vec::new(),
        };
        for r in 1..=ranks {
            for f in 1..=files {
                let i = board.grid_index(Square::new(f, r)).unwrap_or(0);
                board.cells[i] = Stack::EMPTY;
            }
        }
        board.rebuild_bits();
        board
    }

    /// Recomputes the bit sets from the cells (after a new layout).
    fn rebuild_bits(&mut self) {
        let n = self.grid_len();
        self.bits.clear();
        self.bits.resize(n.div_ceil(64) * BLOCK, 0);
        for i in 0..n {
            let c = self.cells[i];
            if !c.is_off() {
                self.bits[i / 64 * BLOCK + ON] |= 1 << (i % 64);
            }
            if let Some(k) = occupancy(c) {
                self.bits[i / 64 * BLOCK + k] |= 1 << (i % 64);
            }
        }
    }

    /// Writes a cell, keeping the bit sets up to date.
    #[inline]
    fn write(&mut self, index: usize, stack: Stack) {
        let old = std::mem::replace(&mut self.cells[index], stack);
        let (was, now) = (occupancy(old), occupancy(stack));
        if was != now && index < self.grid_len() {
            let (w, bit) = (index / 64 * BLOCK, 1u64 << (index % 64));
            if let Some(k) = was {
                self.bits[w + k] &= !bit;
            }
            if let Some(k) = now {
                self.bits[w + k] |= bit;
            }
        }
    }

    fn cells_in(&self, select: u8) -> Cells<'_> {
        Cells {
            blocks: self.bits.chunks_exact(BLOCK),
            select,
            // The first block read moves it to 0.
            base: 0usize.wrapping_sub(64),
            word: Ones(0),
        }
    }

    /// Cells of the grid holding pieces of `color`, in array order (rank 1
    /// first, files left to right; the prison is not included).
    #[inline]
    pub fn cells_of(&self, color: Color) -> Cells<'_> {
        self.cells_in(1 << side_word(color))
    }

    /// Occupied cells of the grid, in array order (the prison is not
    /// included).
    #[inline]
    pub fn occupied_cells(&self) -> Cells<'_> {
        self.cells_in(1 << side_word(Color::White) | 1 << side_word(Color::Black))
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
        debug_assert!(!self.cells[index].is_off() && !stack.is_off());
        self.write(index, stack);
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
                self.write(i, stack);
                if stack.is_off() && i < self.grid_len() {
                    // A hole made by hand: off the board from now on.
                    self.bits[i / 64 * BLOCK + ON] &= !(1 << (i % 64));
                }
                true
            }
            None => false,
        }
    }

    /// All squares of the grid part of the board, rank 1 first, files left
    /// to right (the prison, if any, is not included).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.indices().map(|i| self.square(i))
    }

    /// Indices of the grid cells on the board, in array order.
    pub fn indices(&self) -> Cells<'_> {
        self.cells_in(1 << ON)
    }

    /// Number of squares on the grid.
    pub fn square_count(&self) -> usize {
        self.indices().count()
    }

    /// Occupied squares with what stands there.
    pub fn occupied(&self) -> impl Iterator<Item = (Square, Stack)> + '_ {
        self.occupied_cells()
            .map(|i| (self.square(i), self.cells[i]))
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
        self.bits[i / 64 * BLOCK + ON] |= 1 << (i % 64);
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

    /// Takes back [`Board::add_square`] of `sq`, which must be empty:
    /// the square leaves the board and the bounds return to `bounds`, what
    /// they were before it was added. The array keeps its layout.
    pub fn remove_square(&mut self, sq: Square, bounds: (i16, i16, i16, i16)) {
        if let Some(i) = self.grid_index(sq).filter(|&i| self.cells[i].is_empty()) {
            self.cells[i] = Stack::OFF;
            self.bits[i / 64 * BLOCK + ON] &= !(1 << (i % 64));
            self.bounds = bounds;
        }
    }

    /// Lays the array out so that `n` squares added one after another,
    /// each sharing an edge with the board, leave every cell where it is:
    /// a search that adds squares and takes them back keeps its cell
    /// indices valid.
    pub fn reserve(&mut self, n: i16) {
        let (minf, minr, maxf, maxr) = self.bounds;
        if minf > maxf {
            return;
        }
        let need = MARGIN + n;
        let f0 = self.f0.min(minf - need);
        let r0 = self.r0.min(minr - need);
        let f1 = (self.f0 + self.width - 1).max(maxf + need);
        let r1 = (self.r0 + self.height - 1).max(maxr + need);
        if (f0, r0, f1 - f0 + 1, r1 - r0 + 1) != (self.f0, self.r0, self.width, self.height) {
            self.relayout(f0, r0, f1 - f0 + 1, r1 - r0 + 1);
        }
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
        self.rebuild_bits();
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

    /// The bit sets against a walk over every cell.
    fn assert_bits_match(b: &Board) {
        let all = 0..b.grid_len();
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
