//! The two sides, and a container holding one value per side.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A side. White moves first and starts at rank 1 (rules/README.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The rank direction this side's pawns move in: +1 for White, -1 for Black.
    pub fn forward(self) -> i16 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// `w` or `b`, as in the position text.
    pub fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}
