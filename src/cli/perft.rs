//! `postal perft VARIANT DEPTH`: counts legal turns DEPTH plies deep; the
//! node count stands alone on the last line.

use super::{emit, start_position, variant_arg, CliError};
use crate::perft;
use std::io::Write;

/// Count the leaf nodes of the game tree (perft).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The variant (see `postal variants`).
    #[arg(value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: String,
    /// How many turns deep.
    pub depth: u32,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Play these moves first (move numbers optional).
    #[arg(long, value_name = "MOVETEXT")]
    pub moves: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v = variant_arg(&args.variant)?;
    let pos = start_position(v, args.position.as_deref(), args.moves.as_deref())?;
    let mut text = String::new();
    let total = if args.divide && args.depth > 0 {
        let split = crate::notation::divide(&pos, args.depth);
        for (m, n) in &split {
            text.push_str(&format!("{m}: {n}\n"));
        }
        let total: u64 = split.iter().map(|(_, n)| n).sum();
        text.push('\n');
        total
    } else {
        perft::perft(&pos, args.depth)
    };
    text.push_str(&format!("{total}\n"));
    emit(out, &text)
}
