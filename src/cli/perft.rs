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
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)); for them, --position is a
    /// FEN.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
    /// A defined variant's first moves (--divide) in UCI form, --moves
    /// read as UCI moves, as Fairy-Stockfish writes them (for
    /// comparisons with it).
    #[arg(long)]
    pub uci: bool,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let defined = super::ini::register(args.variants.as_deref(), &args.variant)?;
    if args.uci {
        let Some(d) = defined.and_then(|v| v.defined()) else {
            return Err(CliError::usage(
                "--uci counts a variant defined in a variants.ini file",
            ));
        };
        let pos = super::ini::position(&d.def, args.position.as_deref(), args.moves.as_deref())?;
        return emit(out, &defined_perft(d, &pos, args.depth, args.divide));
    }
    let v = match defined {
        Some(v) => v,
        None => variant_arg(&args.variant)?,
    };
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

/// Perft of a variant defined in a variants.ini file from a position in
/// Fairy-Stockfish's conventions, counted by the one perft
/// ([`perft::perft`]); with `divide`, the count under each first move in
/// UCI form (`--uci`).
fn defined_perft(
    d: &crate::variant::defined::Defined,
    pos: &crate::variant::ini::Pos,
    depth: u32,
    divide: bool,
) -> String {
    use crate::variant::ini::gen;
    let def = &d.def;
    let mut text = String::new();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for m in gen::legal_moves(def, pos) {
            let n = perft::perft(&d.position(gen::play(def, pos, &m)), depth - 1);
            text.push_str(&format!("{}: {n}\n", pos.uci(def, &m)));
            total += n;
        }
        text.push('\n');
        total
    } else {
        perft::perft(&d.position(pos.clone()), depth)
    };
    text.push_str(&format!("{total}\n"));
    text
}
