//! `postal moves VARIANT` or `postal moves FILE`: the legal moves of a
//! position, one a line, in the variant's canonical notation. A game
//! file's moves are those of its current position.

use super::game::{game_error, load};
use super::{emit, start_position, variant_arg, CliError};
use crate::game::GameError;
use crate::variant::Variant;
use std::io::Write;
use std::path::Path;

/// List the legal moves of a position.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The variant (see `postal variants`), or a game's state file: the
    /// moves of its current position.
    #[arg(value_name = "VARIANT|FILE")]
    pub variant: String,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Play these moves first (move numbers optional).
    #[arg(long, value_name = "MOVETEXT")]
    pub moves: Option<String>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let path = Path::new(&args.variant);
    let pos = if path.is_file() {
        if args.position.is_some() || args.moves.is_some() {
            return Err(CliError::usage(
                "--position and --moves apply to a variant, not to a game file",
            ));
        }
        let game = load(path)?;
        if let Some(end) = game.result() {
            return Err(game_error(
                path,
                GameError::Rule(format!("the game is over: {end}")),
            ));
        }
        game.current().clone()
    } else {
        let looks_like_a_file =
            args.variant.contains(['/', '\\']) || args.variant.ends_with(".json");
        if looks_like_a_file && Variant::from_name(&args.variant).is_none() {
            return Err(CliError::usage(format!(
                "{}: no such game file",
                args.variant
            )));
        }
        let v = variant_arg(&args.variant)?;
        start_position(v, args.position.as_deref(), args.moves.as_deref())?
    };
    let mut text = String::new();
    for m in pos.legal_moves() {
        text.push_str(&pos.move_text(&m));
        text.push('\n');
    }
    emit(out, &text)
}
