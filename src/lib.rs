//! `postal`: chess variants by mail. The library holds everything; the
//! binary only parses arguments and prints.
//!
//! Data flows one way: text -> syntax -> rules -> state -> output
//! (DESIGN.md, "Layers").
//!
//! The library is safe Rust throughout, and the binary (`src/main.rs`)
//! only calls [`cli::main`].
#![forbid(unsafe_code)]

pub mod board;
pub mod cli;
pub mod color;
pub mod diagnostic;
pub mod error;
pub mod files;
pub mod game;
pub mod limits;
pub mod mail;
pub mod movegen;
pub mod movement;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod referee;
pub mod render;
pub mod square;
pub mod variant;

pub use color::{ByColor, Color};
pub use error::{MoveError, ParseError, PlayError, Span};
pub use mv::{Move, MoveKind, PieceMove, SwapSequence, SwapStep};
pub use piece::{Piece, Role, Roles, Stack};
pub use position::{Effects, GameResult, Outcome, Position};
pub use square::Square;
pub use variant::Variant;
