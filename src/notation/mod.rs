//! Text forms: squares, moves (SAN, long algebraic and the variants'
//! forms), position text. Everything written here reads back to the same
//! value.

pub mod fen;
pub mod movetext;
pub mod san;
pub mod square;
