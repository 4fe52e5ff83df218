//! Geometry and contents: which squares exist and what stands on each.
//!
//! The board is a mailbox of tiles: its squares are grouped in tiles of
//! `iw x ih` squares, each stored rank by rank inside a margin of
//! [`MARGIN`] cells on every side, and a tile exists only where the board
//! has a square. A step of up to [`MARGIN`] files and ranks from a square
//! is a plain index addition that stays inside the square's tile, as in a
//! single rectangle with a margin: it lands on a square of the tile, or on
//! a margin cell, which is `OFF` where no tile lies beyond it (the edge of
//! the board, as a rider walking off it or a leaper jumping past it finds)
//! and `Stack::EDGE` where one does, so the step goes on to the cell of
//! the same square in that tile (a look-up in the table of each tile's
//! eight neighbours). Squares with holes (Building Chess) are `OFF` cells
//! of a tile. Named cells off the grid (the Corral prison, CO-1) follow
//! the tiles in the array and are never reached by stepping.
//!
//! A board made as a rectangle ([`Board::rect`]) or read from a position
//! text of up to 16 x 16 squares is one tile of exactly its squares, so
//! its cells are those of the rectangle with a margin that the board was
//! before it had tiles, in rank order, and no step ever finds an `EDGE`.
//! A growing board (BU-4) gains a tile of the same size when a square is
//! added where there is none; tiles are never moved, so a square's index
//! never changes once it has one, and the cost of every walk grows with
//! the tiles the squares occupy, not with the rectangle around them: a
//! Building board grown into a long strip or an L of 20,000 squares holds
//! a few hundred thousand cells, where its bounding rectangle would hold
//! hundreds of millions. The tiles' geometry is shared between copies of
//! a board and copied only when one of them gains a tile.
//!
//! Beside the cells the board keeps bit sets over the grid's indices: which
//! cells are on the board and which hold pieces of each side, updated by
//! every setter. Move generation and king searches visit the pieces of one
//! side through them instead of walking every cell of the array, and in
//! array order, so the order of generated moves is the order of a walk over
//! the cells: rank by rank within a tile, tiles in the order they were made.
//! A word a side per 64 blocks of those sets says which blocks hold any of
//! its pieces, so that such a visit costs the pieces, not the board.

use crate::color::Color;
use crate::piece::{Piece, Stack};
use crate::square::Square;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest step of any variant's pieces (knight, Fye'tin's A,
/// Kristensen's rook leap two squares): [`Board::offset`] takes steps of
/// at most this many files and ranks.
pub const MARGIN: i16 = 2;

/// [`MARGIN`] as an index.
const M: usize = MARGIN as usize;

/// In [`Tiles::around`], no tile on that side.
const NONE: u32 = u32::MAX;

/// The tiles of a board: where each lies and which tiles surround it.
#[derive(PartialEq, Eq, Hash, Debug, Clone)]
struct Tiles {
    /// Of each tile, its column and row among tiles.
    at: Vec<(i32, i32)>,
    /// Of each tile, the tiles around it, row by row from below-left
    /// (index 4 is the tile itself); [`NONE`] where there is none.
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
    /// Of each [`GROUP`] blocks of `bits`, which hold a piece of White's
    /// and which one of Black's: a word a side, so that a walk over one
    /// side's pieces skips the blocks without any, and costs the pieces and
    /// a word per [`GROUP`] blocks, not the board (a long Building game
    /// walks a side's pieces several times a turn).
    sides: Vec<u64>,
    cells: Vec<Stack>,
    /// The lower-left square of tile column 0, row 0, which is tile 0.
    f0: i16,
    r0: i16,
    /// Squares of a tile across and up, each at least [`MARGIN`] (so that
    /// a step crosses at most one tile's edge each way).
    iw: u16,
    ih: u16,
    /// Cells of a tile, and of all the tiles (the grid; the prison cell
    /// follows it), kept for the hot paths.
    tile: usize,
    grid: usize,
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

/// Blocks of [`Board::bits`] that one bit of [`Board::sides`] stands for.
const GROUP: usize = 64;

/// Words of [`Board::sides`] per [`GROUP`] blocks: White, Black.
const SIDES: usize = 2;

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
    bits: &'a [u64],
    /// [`Board::sides`], or empty for the squares of the board, whose
    /// blocks are all visited.
    sides: &'a [u64],
    /// Words of a block OR-ed together to make the set.
    select: u8,
    /// The next group of blocks, and the blocks of the current group left
    /// to visit.
    group: usize,
    blocks: Ones,
    base: usize,
    word: Ones,
}

impl Cells<'_> {
    /// The blocks of group `g` that may hold a cell of the set.
    #[inline]
    fn blocks_of(&self, g: usize) -> u64 {
        if self.sides.is_empty() {
            let left = self.bits.len() / BLOCK - g * GROUP;
            if left >= 64 {
                u64::MAX
            } else {
                (1 << left) - 1
            }
        } else {
            let words = &self.sides[g * SIDES..(g + 1) * SIDES];
            (0..SIDES)
                .filter(|&k| self.select & (1 << (1 + k)) != 0)
                .fold(0, |w, k| w | words[k])
        }
    }
}

impl Iterator for Cells<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if let Some(i) = self.word.next() {
                return Some(self.base + i);
            }
            let b = loop {
                if let Some(b) = self.blocks.next() {
                    break (self.group - 1) * GROUP + b;
                }
                if self.group * GROUP * BLOCK >= self.bits.len() {
                    return None;
                }
                self.blocks = Ones(self.blocks_of(self.group));
                self.group += 1;
            };
            self.base = b * 64;
            let block = &self.bits[b * BLOCK..(b + 1) * BLOCK];
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
            sides: self.sides.clone(),
            cells: self.cells.clone(),
            f0: self.f0,
            r0: self.r0,
            iw: self.iw,
            ih: self.ih,
            tile: self.tile,
            grid: self.grid,
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
        self.sides.clone_from(&source.sides);
        self.cells.clone_from(&source.cells);
        self.f0 = source.f0;
        self.r0 = source.r0;
        self.iw = source.iw;
        self.ih = source.ih;
        self.tile = source.tile;
        self.grid = source.grid;
        if !Arc::ptr_eq(&self.tiles, &source.tiles) {
            self.tiles = Arc::clone(&source.tiles);
        }
        self.prison = source.prison;
        self.bounds = source.bounds;
        self.count = source.count;
    }
}

/// Sides of a board made whole into one tile: up to 16 squares.
const ONE_TILE: i32 = 16;

/// Tile side, in squares, of a board whose squares spread further.
const TILE: i32 = 8;

/// The tile side for `n` squares on a side: all of them up to
/// [`ONE_TILE`], else [`TILE`]; at least [`MARGIN`].
fn tile_side(n: i32) -> u16 {
    (if n <= ONE_TILE { n } else { TILE }).max(MARGIN as i32) as u16
}

impl Board {
    /// An empty board with no square and no tile, tiles of `iw x ih`
    /// squares whose tile (0, 0) has its lower-left square on `(f0, r0)`.
    fn empty(f0: i16, r0: i16, iw: u16, ih: u16) -> Board {
        Board {
            bits: Vec::new(),
            sides: Vec::new(),
            cells: Vec::new(),
            f0,
            r0,
            iw,
            ih,
            tile: (iw as usize + 2 * M) * (ih as usize + 2 * M),
            grid: 0,
            tiles: Arc::new(Tiles {
                at: Vec::new(),
                around: Vec::new(),
                by_place: BTreeMap::new(),
            }),
            prison: false,
            bounds: (1, 1, 0, 0),
            count: 0,
        }
    }

    /// A full rectangle of files `1..=files`, ranks `1..=ranks`, empty:
    /// one tile up to 16 x 16.
    pub fn rect(files: i16, ranks: i16) -> Board {
        let mut board = Board::empty(1, 1, tile_side(files as i32), tile_side(ranks as i32));
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
        let side = |lo: i16, hi: i16| tile_side(hi as i32 - lo as i32 + 1);
        let mut board = Board::empty(minf, minr, side(minf, maxf), side(minr, maxr));
        for &sq in squares {
            board.add_square(sq);
        }
        board
    }

    /// Cells of a tile's rank: its squares and the margin on both sides.
    #[inline(always)]
    fn width(&self) -> usize {
        self.iw as usize + 2 * M
    }

    /// Cells of one tile.
    #[inline(always)]
    fn tile_len(&self) -> usize {
        self.tile
    }

    /// The tile column and row of a square, and its cell within the tile.
    #[inline]
    fn place(&self, sq: Square) -> ((i32, i32), usize) {
        // In i32: a square named in a move text may lie anywhere in the
        // i16 range.
        let c = sq.file as i32 - self.f0 as i32;
        let r = sq.rank as i32 - self.r0 as i32;
        let (iw, ih) = (self.iw as i32, self.ih as i32);
        let (tile, lx, ly) = if (c as u32) < iw as u32 && (r as u32) < ih as u32 {
            ((0, 0), c, r)
        } else {
            (
                (c.div_euclid(iw), r.div_euclid(ih)),
                c.rem_euclid(iw),
                r.rem_euclid(ih),
            )
        };
        (tile, (ly as usize + M) * self.width() + lx as usize + M)
    }

    /// The cells of one side of a tile's margin: `k` as in
    /// [`Tiles::around`] (0 below-left, 1 below, ..., 8 above-right).
    fn margin(&self, tile: usize, k: usize) -> impl Iterator<Item = usize> {
        let (w, base) = (self.width(), tile * self.tile_len());
        let span = |side: usize, n: usize| match side {
            0 => 0..M,
            1 => M..M + n,
            _ => M + n..2 * M + n,
        };
        let (xs, ys) = (span(k % 3, self.iw as usize), span(k / 3, self.ih as usize));
        ys.flat_map(move |y| xs.clone().map(move |x| base + y * w + x))
    }

    /// Makes the tile at `place` (and, when the geometry is shared with
    /// other boards, a copy of the geometry first), marks the margins it
    /// shares with the tiles around it `EDGE`; returns its number.
    fn make_tile(&mut self, mut place: (i32, i32)) -> u32 {
        if self.grid == 0 {
            // The first tile is tile (0, 0), wherever it lies, for
            // `grid_index`.
            self.f0 = (self.f0 as i32 + place.0 * self.iw as i32) as i16;
            self.r0 = (self.r0 as i32 + place.1 * self.ih as i32) as i16;
            place = (0, 0);
        }
        let id = self.tiles.at.len() as u32;
        let tiles = Arc::make_mut(&mut self.tiles);
        tiles.at.push(place);
        tiles.by_place.insert(place, id);
        let mut around = [NONE; 9];
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
        self.grid += self.tile;
        self.cells.resize(self.grid, Stack::OFF);
        for (k, &n) in around.iter().enumerate() {
            if k != 4 && n != NONE {
                for i in self
                    .margin(id as usize, k)
                    .chain(self.margin(n as usize, 8 - k))
                {
                    self.cells[i] = Stack::EDGE;
                }
            }
        }
        self.cells.extend(prison);
        let blocks = self.grid_len().div_ceil(64);
        self.bits.resize(blocks * BLOCK, 0);
        self.sides.resize(blocks.div_ceil(GROUP) * SIDES, 0);
        id
    }

    /// Writes a cell, keeping the bit sets up to date.
    #[inline]
    fn write(&mut self, index: usize, stack: Stack) {
        let old = std::mem::replace(&mut self.cells[index], stack);
        let (was, now) = (occupancy(old), occupancy(stack));
        if was != now && index < self.grid_len() {
            let (w, bit) = (index / 64 * BLOCK, 1u64 << (index % 64));
            let (g, gbit) = (index / 64 / GROUP * SIDES, 1u64 << (index / 64 % GROUP));
            if let Some(k) = was {
                self.bits[w + k] &= !bit;
                if self.bits[w + k] == 0 {
                    self.sides[g + k - 1] &= !gbit;
                }
            }
            if let Some(k) = now {
                self.bits[w + k] |= bit;
                self.sides[g + k - 1] |= gbit;
            }
        }
    }

    fn cells_in(&self, select: u8) -> Cells<'_> {
        Cells {
            bits: &self.bits,
            // The squares' blocks are all walked; the pieces' through the
            // groups that hold any.
            sides: if select & (1 << ON) != 0 {
                &[]
            } else {
                &self.sides
            },
            select,
            group: 0,
            blocks: Ones(0),
            base: 0,
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
        self.width() as isize
    }

    /// The step of `dx` files and `dy` ranks, each at most [`MARGIN`], for
    /// [`Board::step`].
    #[inline(always)]
    pub fn offset(&self, dx: i16, dy: i16) -> isize {
        debug_assert!(dx.abs() <= MARGIN && dy.abs() <= MARGIN);
        dy as isize * self.width() as isize + dx as isize
    }

    #[inline]
    fn grid_index(&self, sq: Square) -> Option<usize> {
        let c = sq.file as i32 - self.f0 as i32;
        let r = sq.rank as i32 - self.r0 as i32;
        if (c as u32) < self.iw as u32 && (r as u32) < self.ih as u32 && self.grid != 0 {
            // Tile 0, at (0, 0).
            return Some((r as usize + M) * self.width() + c as usize + M);
        }
        let (place, cell) = self.place(sq);
        let t = *self.tiles.by_place.get(&place)?;
        Some(t as usize * self.tile_len() + cell)
    }

    #[inline(always)]
    fn grid_len(&self) -> usize {
        self.grid
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

    /// The square of an array index (of a tile's cell, margins included:
    /// the square a step off the board names).
    #[inline]
    pub fn square(&self, index: usize) -> Square {
        if index >= self.grid_len() {
            return Square::PRISON;
        }
        let w = self.width();
        let tile = self.tile_len();
        let ((tx, ty), cell) = if index < tile {
            // Tile 0, at (0, 0).
            ((0, 0), index)
        } else {
            (self.tiles.at[index / tile], index % tile)
        };
        let (lx, ly) = ((cell % w) as i32 - M as i32, (cell / w) as i32 - M as i32);
        Square::new(
            (self.f0 as i32 + tx * self.iw as i32 + lx) as i16,
            (self.r0 as i32 + ty * self.ih as i32 + ly) as i16,
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

    /// The array index reached by `offset` ([`Board::offset`]) from the
    /// index of a square: a square of the board, or an `OFF` cell where
    /// the step leaves it. Callers check the result for `OFF`. Steps from
    /// an `OFF` cell that the board's own steps found keep within the
    /// margin only while they total at most [`MARGIN`] files and ranks
    /// from the square they started on.
    // Always: the dev profile (opt-level 1) inlines little else, and
    // move generation steps (with `offset` and `cell`) in its innermost
    // loops.
    #[inline(always)]
    pub fn step(&self, index: usize, offset: isize) -> usize {
        let to = index.wrapping_add_signed(offset);
        // A board of one tile has no `EDGE` cell to look for.
        if self.grid != self.tile && self.cells[to] == Stack::EDGE {
            self.cross(to)
        } else {
            to
        }
    }

    /// The cell in the tile next door of the square that the `EDGE` cell
    /// `at` of a tile's margin stands for.
    #[cold]
    #[inline(never)]
    fn cross(&self, at: usize) -> usize {
        let (tile, w) = (self.tile_len(), self.width());
        let (t, cell) = (at / tile, at % tile);
        let (x, y) = (cell % w, cell / w);
        // Which side of the tile, 0, 1 or 2 each way, and where the cell
        // lies in the tile on that side.
        let side = |v: usize, n: usize| match v {
            v if v < M => (0, v + n),
            v if v < M + n => (1, v),
            v => (2, v - n),
        };
        let ((sx, nx), (sy, ny)) = (side(x, self.iw as usize), side(y, self.ih as usize));
        let next = self.tiles.around[t][sy * 3 + sx] as usize;
        next * tile + ny * w + nx
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
                t * self.tile_len() + cell
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
    ///
    /// A board of one tile whose squares and `n` more on every side fit
    /// `ONE_TILE` squares a side is laid out again as one tile that
    /// holds them all, so that the search steps as on a fixed board (a
    /// perft from Building's start); its cells' indices change.
    pub fn reserve(&mut self, n: i16) {
        if self.count == 0 {
            return;
        }
        let (f0, r0, f1, r1) = self.bounds;
        let side = |lo: i16, hi: i16| hi as i32 - lo as i32 + 1 + 2 * n as i32;
        let (w, h) = (side(f0, f1), side(r0, r1));
        if self.grid == self.tile && w <= ONE_TILE && h <= ONE_TILE {
            let mut board = Board::empty(f0 - n, r0 - n, w as u16, h as u16);
            for sq in self.squares() {
                board.add_square(sq);
            }
            if self.prison {
                board = board.with_prison();
            }
            for (sq, stack) in self.occupied() {
                board.set(sq, stack);
            }
            *self = board;
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
        if (self.f0, self.r0, self.iw, self.ih) == (other.f0, other.r0, other.iw, other.ih)
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
