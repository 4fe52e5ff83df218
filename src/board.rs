//! Geometry and contents: which squares exist and what stands on each.
//!
//! The board is a mailbox of tiles: its cells are grouped in tiles of
//! `W x H` cells (powers of two, at least 4), each tile a rectangle of
//! squares stored rank by rank, and a tile exists only where the board has
//! a square. Tile 0 is a tile of `OFF` cells that stands for every tile
//! that does not exist, so a rider walking off the board or a leaper
//! jumping up to [`MARGIN`] squares always lands on a cell and finds `OFF`
//! there; squares with holes (Building Chess) are `OFF` cells of a tile.
//! A step is an index computation within the tile and, across its edge, a
//! look-up in the table of each tile's eight neighbours. Named cells off
//! the grid (the Corral prison, CO-1) follow the tiles in the array and are
//! never reached by stepping.
//!
//! A board made as a rectangle ([`Board::rect`]) or read from a position
//! text of up to 16 x 16 squares fits one tile, so its cells are in rank
//! order as in a plain rectangle. A growing board (BU-4) gains a tile when
//! a square is added where there is none; tiles are never moved, so a
//! square's index never changes once it has one, and the cost of every
//! walk grows with the tiles the squares occupy, not with the rectangle
//! around them: a Building board grown into a long strip or an L of 20,000
//! squares holds a few tens of thousands of cells, where its bounding
//! rectangle would hold hundreds of millions. The tiles' geometry is
//! shared between copies of a board and copied only when one of them gains
//! a tile.
//!
//! Beside the cells the board keeps bit sets over the grid's indices: which
//! cells are on the board and which hold pieces of each side, updated by
//! every setter. Move generation and king searches visit the pieces of one
//! side through them instead of walking every cell of the array, and in
//! array order, so the order of generated moves is the order of a walk over
//! the cells: rank by rank within a tile, tiles in the order they were made.

use crate::color::Color;
use crate::piece::{Piece, Stack};
use crate::square::Square;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest step of any variant's pieces (knight, Fye'tin's A,
/// Kristensen's rook leap two squares): [`Board::offset`] takes steps of
/// at most this many files and ranks.
pub const MARGIN: i16 = 2;

/// The tiles of a board: where each lies and which tiles surround it.
/// Tile 0 is the tile of `OFF` cells that stands for missing tiles.
#[derive(PartialEq, Eq, Hash, Debug, Clone)]
struct Tiles {
    /// Of each tile, its column and row among tiles (tile 0: none).
    at: Vec<(i32, i32)>,
    /// Of each tile, the tiles around it, row by row from below-left
    /// (index 4 is the tile itself); 0 where there is none.
    around: Vec<[u32; 9]>,
    /// The tile at a column and row.
    by_place: BTreeMap<(i32, i32), u32>,
}

#[derive(PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Bit sets over the grid's cells, [`BLOCK`] words per 64 cells: the
    /// cells on the board, then those holding White's and Black's pieces
    /// (the prison is in none of them). A function of `cells` and the
    /// layout; kept first so that the derived comparison, which goes field
    /// by field, tells most unequal boards apart on these few words
    /// (repetition counts compare a position with all before it).
    bits: Vec<u64>,
    cells: Vec<Stack>,
    /// The square at the lower-left corner of tile column 0, row 0.
    f0: i16,
    r0: i16,
    /// Tile width and height as powers of two, and their masks.
    wbits: u32,
    hbits: u32,
    tiles: Arc<Tiles>,
    /// Whether the board has the prison cell, stored after the grid.
    prison: bool,
    /// Smallest and largest file and rank of the squares on the grid,
    /// kept up to date as squares are added (see [`Board::bounds`]).
    bounds: (i16, i16, i16, i16),
    /// Squares on the grid.
    count: usize,
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
            bits: self.bits.clone(),
            cells: self.cells.clone(),
            f0: self.f0,
            r0: self.r0,
            wbits: self.wbits,
            hbits: self.hbits,
            tiles: Arc::clone(&self.tiles),
            prison: self.prison,
            bounds: self.bounds,
            count: self.count,
        }
    }

    /// Copies into the arrays this board already has (perft's scratch
    /// positions copy a board per node without allocating).
    fn clone_from(&mut self, source: &Board) {
        self.bits.clone_from(&source.bits);
        self.cells.clone_from(&source.cells);
        self.f0 = source.f0;
        self.r0 = source.r0;
        self.wbits = source.wbits;
        self.hbits = source.hbits;
        if !Arc::ptr_eq(&self.tiles, &source.tiles) {
            self.tiles = Arc::clone(&source.tiles);
        }
        self.prison = source.prison;
        self.bounds = source.bounds;
        self.count = source.count;
    }
}

/// The power of two, at least 4, that holds `n` squares on a side.
fn tile_bits(n: i32) -> u32 {
    (n.max(4) as u32).next_power_of_two().trailing_zeros()
}

/// Sides of a board read whole into one tile: up to 16 squares.
const ONE_TILE: i32 = 16;

/// Tile side, as a power of two, of a board whose squares spread further.
const TILE_BITS: u32 = 3;

impl Board {
    /// An empty board with no square, tiles of `2^wbits x 2^hbits` cells
    /// whose tile (0, 0) has its lower-left corner on `(f0, r0)`.
    fn empty(f0: i16, r0: i16, wbits: u32, hbits: u32) -> Board {
        let tile = 1usize << (wbits + hbits);
        Board {
            bits: vec![0; tile.div_ceil(64) * BLOCK],
            cells: vec![Stack::OFF; tile],
            f0,
            r0,
            wbits,
            hbits,
            tiles: Arc::new(Tiles {
                at: vec![(i32::MIN, i32::MIN)],
                around: vec![[0; 9]],
                by_place: BTreeMap::new(),
            }),
            prison: false,
            bounds: (1, 1, 0, 0),
            count: 0,
        }
    }

    /// A full rectangle of files `1..=files`, ranks `1..=ranks`, empty.
    pub fn rect(files: i16, ranks: i16) -> Board {
        let mut board = Board::empty(1, 1, tile_bits(files as i32), tile_bits(ranks as i32));
        for r in 1..=ranks {
            for f in 1..=files {
                board.add_square(Square::new(f, r));
            }
        }
        board
    }

    /// A board with only the given squares on it, empty. Squares that fit
    /// a 16 x 16 box share one tile, in rank order.
    pub fn from_squares(squares: &[Square]) -> Board {
        let Some(first) = squares.first() else {
            return Board::rect(0, 0);
        };
        let (mut minf, mut minr, mut maxf, mut maxr) =
            (first.file, first.rank, first.file, first.rank);
        for s in squares {
            minf = minf.min(s.file);
            minr = minr.min(s.rank);
            maxf = maxf.max(s.file);
            maxr = maxr.max(s.rank);
        }
        let side = |lo: i16, hi: i16| {
            let n = hi as i32 - lo as i32 + 1;
            if n <= ONE_TILE {
                tile_bits(n)
            } else {
                TILE_BITS
            }
        };
        let mut board = Board::empty(minf, minr, side(minf, maxf), side(minr, maxr));
        for &sq in squares {
            board.add_square(sq);
        }
        board
    }

    /// Cells of one tile.
    #[inline]
    fn tile_len(&self) -> usize {
        1 << (self.wbits + self.hbits)
    }

    /// The tile column and row of a square, and its cell within the tile.
    #[inline]
    fn place(&self, sq: Square) -> ((i32, i32), usize) {
        let c = sq.file as i32 - self.f0 as i32;
        let r = sq.rank as i32 - self.r0 as i32;
        let (wm, hm) = ((1 << self.wbits) - 1, (1 << self.hbits) - 1);
        (
            (c >> self.wbits, r >> self.hbits),
            (((r & hm) << self.wbits) | (c & wm)) as usize,
        )
    }

    /// Makes the tile at `place` (and, when the geometry is shared with
    /// other boards, a copy of the geometry first); returns its number.
    fn make_tile(&mut self, place: (i32, i32)) -> u32 {
        let id = self.tiles.at.len() as u32;
        let tiles = Arc::make_mut(&mut self.tiles);
        tiles.at.push(place);
        tiles.by_place.insert(place, id);
        let mut around = [0u32; 9];
        for (k, slot) in around.iter_mut().enumerate() {
            let (dx, dy) = (k as i32 % 3 - 1, k as i32 / 3 - 1);
            if (dx, dy) == (0, 0) {
                *slot = id;
            } else if let Some(&n) = tiles.by_place.get(&(place.0 + dx, place.1 + dy)) {
                *slot = n;
                tiles.around[n as usize][8 - k] = id;
            }
        }
        tiles.around.push(around);
        // The new tile's cells go before the prison cell, which follows
        // the grid.
        let prison = self.prison.then(|| self.cells.pop()).flatten();
        self.cells
            .resize(self.cells.len() + self.tile_len(), Stack::OFF);
        self.cells.extend(prison);
        self.bits.resize(self.grid_len().div_ceil(64) * BLOCK, 0);
        id
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

    /// Cells of the grid holding pieces of `color`, in array order (rank by
    /// rank within a tile; the prison is not included).
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

    /// The offset of one rank step (see [`Board::offset`]).
    pub fn stride(&self) -> isize {
        self.offset(0, 1)
    }

    /// The step of `dx` files and `dy` ranks, each at most [`MARGIN`], for
    /// [`Board::step`].
    #[inline(always)]
    pub fn offset(&self, dx: i16, dy: i16) -> isize {
        debug_assert!(dx.abs() <= MARGIN && dy.abs() <= MARGIN);
        // The step within a tile in the high bits, the files and ranks
        // (biased by 8) in the low byte.
        let within = ((dy as isize) << self.wbits) + dx as isize;
        (within << 8) | ((dy as isize + 8) << 4) | (dx as isize + 8)
    }

    fn grid_index(&self, sq: Square) -> Option<usize> {
        // In i32: a square named in a move text may lie anywhere in the
        // i16 range.
        let (place, cell) = self.place(sq);
        let tiles = &*self.tiles;
        let t = if tiles.at.get(1) == Some(&place) {
            1
        } else {
            *tiles.by_place.get(&place)?
        };
        Some(((t as usize) << (self.wbits + self.hbits)) | cell)
    }

    fn grid_len(&self) -> usize {
        self.tiles.at.len() << (self.wbits + self.hbits)
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

    /// The square of an array index (of a cell of a tile: a cell that a
    /// step from the board finds `OFF` in tile 0 has no square).
    #[inline]
    pub fn square(&self, index: usize) -> Square {
        if index >= self.grid_len() {
            return Square::PRISON;
        }
        let (tx, ty) = self.tiles.at[index >> (self.wbits + self.hbits)];
        let lx = (index & ((1 << self.wbits) - 1)) as i32;
        let ly = ((index >> self.wbits) & ((1 << self.hbits) - 1)) as i32;
        Square::new(
            (self.f0 as i32 + (tx << self.wbits) + lx) as i16,
            (self.r0 as i32 + (ty << self.hbits) + ly) as i16,
        )
    }

    /// The cell at an array index (the index must come from this board).
    #[inline(always)]
    pub fn cell(&self, index: usize) -> Stack {
        self.cells[index]
    }

    #[inline]
    pub fn set_cell(&mut self, index: usize, stack: Stack) {
        debug_assert!(!self.cells[index].is_off() && !stack.is_off());
        self.write(index, stack);
    }

    /// The array index reached by `offset` ([`Board::offset`]) from
    /// `index`: a cell of the same tile or of one around it, or of tile 0,
    /// all `OFF`, where there is none. Callers check the result for `OFF`.
    // Always: the dev profile (opt-level 1) inlines little else, and
    // move generation steps (with `offset` and `cell`) in its innermost
    // loops.
    #[inline(always)]
    pub fn step(&self, index: usize, offset: isize) -> usize {
        let dx = (offset & 15) - 8;
        let dy = ((offset >> 4) & 15) - 8;
        let (wb, hb) = (self.wbits, self.hbits);
        let shift = wb + hb;
        let lx = (index & ((1 << wb) - 1)) as isize + dx;
        let ly = ((index >> wb) & ((1 << hb) - 1)) as isize + dy;
        if (lx as usize) < (1 << wb) && (ly as usize) < (1 << hb) {
            // Within the tile: the plain mailbox step.
            return (index as isize + (offset >> 8)) as usize;
        }
        // -1, 0 or 1 tiles across and up (a step is shorter than a tile).
        let k = (((ly >> hb) + 1) * 3 + (lx >> wb) + 1) as usize;
        let t = self.tiles.around[index >> shift][k] as usize;
        (t << shift) | (((ly as usize) & ((1 << hb) - 1)) << wb) | ((lx as usize) & ((1 << wb) - 1))
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
                    self.count -= 1;
                }
                true
            }
            None => false,
        }
    }

    /// All squares of the grid part of the board, in array order (the
    /// prison, if any, is not included).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.indices().map(|i| self.square(i))
    }

    /// Indices of the grid cells on the board, in array order.
    pub fn indices(&self) -> Cells<'_> {
        self.cells_in(1 << ON)
    }

    /// Number of squares on the grid.
    pub fn square_count(&self) -> usize {
        self.count
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

    /// Adds an empty square to the board (BU-2), making its tile when it
    /// has none. Returns false when it was already on the board.
    pub fn add_square(&mut self, sq: Square) -> bool {
        if sq.is_prison() || self.contains(sq) {
            return false;
        }
        let i = match self.grid_index(sq) {
            Some(i) => i,
            None => {
                let (place, cell) = self.place(sq);
                let t = self.make_tile(place) as usize;
                (t << (self.wbits + self.hbits)) | cell
            }
        };
        self.cells[i] = Stack::EMPTY;
        self.bits[i / 64 * BLOCK + ON] |= 1 << (i % 64);
        self.count += 1;
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
    /// they were before it was added. Every other cell keeps its index.
    pub fn remove_square(&mut self, sq: Square, bounds: (i16, i16, i16, i16)) {
        if let Some(i) = self.grid_index(sq).filter(|&i| self.cells[i].is_empty()) {
            self.cells[i] = Stack::OFF;
            self.bits[i / 64 * BLOCK + ON] &= !(1 << (i % 64));
            self.count -= 1;
            self.bounds = bounds;
        }
    }

    /// Makes the tiles of every square within `n` squares of the board,
    /// so that a search that adds up to `n` squares next to it and takes
    /// them back makes no tile, hence never copies the shared geometry.
    /// (Cell indices never change as squares come and go.)
    pub fn reserve(&mut self, n: i16) {
        if self.count == 0 {
            return;
        }
        let mut wanted = Vec::new();
        for i in self.indices() {
            let s = self.square(i);
            let (lo, _) = self.place(s.offset(-n, -n));
            let (hi, _) = self.place(s.offset(n, n));
            for ty in lo.1..=hi.1 {
                for tx in lo.0..=hi.0 {
                    wanted.push((tx, ty));
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        for place in wanted {
            if !self.tiles.by_place.contains_key(&place) {
                self.make_tile(place);
            }
        }
    }

    /// True when two boards have the same squares with the same contents,
    /// whatever their array layout.
    pub fn same_placement(&self, other: &Board) -> bool {
        if (self.f0, self.r0, self.wbits, self.hbits)
            == (other.f0, other.r0, other.wbits, other.hbits)
            && self.tiles == other.tiles
        {
            return self.cells == other.cells;
        }
        self.square_count() == other.square_count()
            && self.squares().all(|s| self.get(s) == other.get(s))
            && self.get(Square::PRISON) == other.get(Square::PRISON)
    }
}

#[cfg(test)]
mod tests;
