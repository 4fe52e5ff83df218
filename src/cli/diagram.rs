//! `postal diagram VARIANT`: draws a position (the start, `--position
//! TEXT`, then `--moves MOVETEXT` played on it) as ASCII, Unicode, SVG or
//! PNG. After `--moves`, the last move and a king in check are
//! highlighted. `--format html` writes the page that replays the moves.

use super::{start_position, variant_arg, write_output, CliError, Output};
use crate::mv::Move;
use crate::notation::movetext;
use crate::render::{self, html, Format, Options};
use clap::builder::PossibleValuesParser;
use std::io::Write;
use std::path::Path;

/// Draw a position as a diagram.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The variant (see `postal variants`).
    #[arg(value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: String,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Play these moves first (move numbers optional).
    #[arg(long, value_name = "MOVETEXT")]
    pub moves: Option<String>,
    /// Output format: a diagram of the position, or (html) a page that
    /// replays the moves.
    #[arg(long, default_value = "ascii", value_parser = PossibleValuesParser::new(["ascii", "unicode", "svg", "png", "html"]))]
    pub format: String,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Leave out the file letters and rank numbers.
    #[arg(long)]
    pub no_coordinates: bool,
    /// Pixels per square of SVG and PNG output [default: 40, or 64 when a
    /// square holds a stack].
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(8..=400))]
    pub size: Option<u32>,
    /// Write the diagram to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)); --position is then a FEN.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v = match super::ini::register(args.variants.as_deref(), &args.variant)? {
        Some(v) => v,
        None => variant_arg(&args.variant)?,
    };
    let from = start_position(v, args.position.as_deref(), None)?;
    let pos = start_position(v, args.position.as_deref(), args.moves.as_deref())?;
    // start_position has just played the movetext, so this cannot fail.
    let moves: Vec<Move> = match args.moves.as_deref() {
        Some(text) => movetext::play(&from, text)
            .map(|played| played.into_iter().map(|(m, _)| m).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let opts = Options {
        flip: args.flip,
        coordinates: !args.no_coordinates,
        size: args.size.unwrap_or(0),
        ..Options::for_position(&pos, moves.last())
    };
    let bytes = if args.format == "html" {
        let info = html::GameInfo {
            start_ply: moves.len(),
            ..html::GameInfo::default()
        };
        html::game(&from, &moves, &info, &opts)
            .map_err(|e| CliError::rule(e.to_string()))?
            .into_bytes()
    } else {
        let format = Format::from_name(&args.format)
            .ok_or_else(|| CliError::usage(format!("unknown format {:?}", args.format)))?;
        render::render(&pos, format, &opts)
    };
    let kind = if args.format == "png" {
        Output::Binary
    } else {
        Output::Text
    };
    write_output(
        out,
        args.output.as_deref().map(Path::new),
        &bytes,
        kind,
        &[],
    )
}
