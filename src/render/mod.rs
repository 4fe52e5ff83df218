//! Diagrams of positions: ASCII (the style of the rule pages, readable in a
//! plain-text mail) and the other renderings, all walking the board by its
//! geometry, so grown Building boards, Corral stacks and the prison draw
//! the same way as a plain 8x8 board.

pub mod ascii;
pub mod unicode;

/// Options common to every rendering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw the board from Black's side.
    pub flip: bool,
}
