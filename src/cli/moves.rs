//! `postal moves VARIANT`: the legal moves of a position, one a line, in
//! the variant's canonical notation.

use super::{emit, start_position, variant_arg, CliError};
use std::io::Write;

/// List the legal moves of a position.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The variant (see `postal variants`).
    pub variant: String,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Play these moves first (move numbers optional).
    #[arg(long, value_name = "MOVETEXT")]
    pub moves: Option<String>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v = variant_arg(&args.variant)?;
    let pos = start_position(v, args.position.as_deref(), args.moves.as_deref())?;
    let mut text = String::new();
    for m in pos.legal_moves() {
        text.push_str(&pos.move_text(&m));
        text.push('\n');
    }
    emit(out, &text)
}
