//! `postal convert RECORD --to pgn|text|fen|ascii|json|svg|png|html [--ply N]
//! [-o OUT]`: a record (PGN, published text, or a game's state file) to
//! canonical PGN (comments and variations carried over), published text
//! with diagrams, the position text or a diagram (ASCII, SVG, PNG) after a
//! ply, JSON of its moves and positions, or a self-contained HTML page that
//! replays the game. Only sound records convert: otherwise the first error
//! is printed and nothing is written.

use super::verify::{read_record, record_options, FormatArg};
use super::CliError;
use crate::record::game::Game;
use crate::record::verify::{render_issue, Unreadable};
use crate::record::{writer, Severity};
use crate::render;
use std::io::Write;

/// What to convert to.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Canonical PGN with Variant, SetUp and FEN tags as needed, the
    /// comments, NAGs and variations carried over.
    Pgn,
    /// Published text: the score a move a line, with ASCII diagrams of
    /// the start, every ten moves and the end (verify reads it back).
    Text,
    /// The position text (FEN for chess) after --ply.
    Fen,
    /// An ASCII diagram after --ply, in the rule pages' style.
    Ascii,
    /// JSON of the moves and the position after each.
    Json,
    /// An SVG diagram after --ply, last move and check highlighted.
    Svg,
    /// A PNG diagram after --ply (write it with -o).
    Png,
    /// One self-contained HTML page replaying the game (opens at --ply).
    Html,
}

/// Convert a game record to another form.
///
/// Canonical PGN (Variant, SetUp and FEN tags as needed; comments, NAGs
/// and variations carried over), published text with diagrams, the
/// position text or an ASCII diagram after a ply, or JSON of the moves and
/// the position after each ({"format": "postal-record/1", "games":
/// [...]}). A game's state file converts as the record of the game played
/// (its moves' comments and the other acts as comments). Only sound
/// records convert: otherwise the first error is printed, nothing is
/// written, and the exit status is 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record: PGN, published text or a game's state file (`-` reads
    /// standard input).
    pub record: String,
    /// The output form.
    #[arg(long, value_enum)]
    pub to: Target,
    /// For fen and ascii: the position after this many plies (0 is the
    /// start; default: the end).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Which game of the record, from 1 (default: all for pgn and json,
    /// the first for fen and ascii).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
    /// The variant, overriding any Variant tag.
    #[arg(long)]
    pub variant: Option<String>,
    /// Diagram letter X stands for piece letter Y (e.g. O=P).
    #[arg(long, value_name = "X=Y")]
    pub legend: Vec<String>,
    /// Read as PGN or as published text (default: guessed).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut opts = record_options(args.variant.as_deref(), &args.legend)?;
    opts.keep_moves = true;
    let mut games: Vec<Game> = Vec::new();
    let path = args.record.as_str();
    read_record(
        path,
        args.format.map(FormatArg::format),
        &opts,
        &mut |g, _| games.push(g),
    )
    .map_err(|Unreadable(m)| CliError::usage(format!("{path}: cannot read the record: {m}")))?;
    for g in &games {
        if let Some(issue) = g.issues.iter().find(|i| i.severity == Severity::Error) {
            let text = render_issue(path, issue);
            let code = if g.readable { 1 } else { 2 };
            return Err(CliError {
                message: format!(
                    "game {} is not sound; nothing converted\n{}",
                    g.index,
                    text.trim_end()
                ),
                code,
            });
        }
    }
    let chosen: Vec<&Game> = match args.game {
        Some(n) => match games.get(n.wrapping_sub(1)) {
            Some(g) => vec![g],
            None => {
                return Err(CliError::usage(format!(
                    "--game {n}: the record has {} game{}",
                    games.len(),
                    if games.len() == 1 { "" } else { "s" }
                )))
            }
        },
        None => match args.to {
            Target::Pgn | Target::Text | Target::Json => games.iter().collect(),
            _ => games.iter().take(1).collect(),
        },
    };
    let diagram = |format| -> Result<Vec<u8>, CliError> {
        let g = chosen[0];
        let pos = writer::position_at(g, args.ply).map_err(CliError::usage)?;
        let n = args.ply.unwrap_or(g.moves.len());
        let last = n.checked_sub(1).map(|i| &g.moves[i].mv);
        let opts = render::Options::for_position(&pos, last);
        Ok(render::render(&pos, format, &opts))
    };
    let bytes: Vec<u8> = match args.to {
        Target::Pgn => chosen
            .iter()
            .map(|g| writer::pgn(g))
            .collect::<String>()
            .into_bytes(),
        Target::Text => chosen
            .iter()
            .map(|g| render::score::score(g, 10))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Target::Json => {
            let owned: Vec<Game> = chosen.iter().map(|g| (*g).clone()).collect();
            writer::json_document(&owned).into_bytes()
        }
        Target::Fen => writer::fen(chosen[0], args.ply)
            .map_err(CliError::usage)?
            .into_bytes(),
        Target::Ascii => ascii(chosen[0], args.ply)
            .map_err(CliError::usage)?
            .into_bytes(),
        Target::Svg => diagram(render::Format::Svg)?,
        Target::Png => {
            if args.output.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                return Err(CliError::usage(
                    "a PNG image is not for the terminal: write it with -o FILE",
                ));
            }
            diagram(render::Format::Png)?
        }
        Target::Html => {
            let g = chosen[0];
            let moves: Vec<_> = g.moves.iter().map(|m| m.mv.clone()).collect();
            let info = render::html::GameInfo {
                title: g.tag("Event").unwrap_or_default().to_string(),
                white: g.tag("White").unwrap_or_default().to_string(),
                black: g.tag("Black").unwrap_or_default().to_string(),
                result: g.result.clone(),
                details: Vec::new(),
                start_ply: args.ply.unwrap_or(0).min(moves.len()),
            };
            render::html::game(&g.start, &moves, &info, &render::Options::default())
                .map_err(|e| CliError::rule(e.to_string()))?
                .into_bytes()
        }
    };
    match &args.output {
        Some(file) => std::fs::write(file, bytes).map_err(|e| CliError::io(file, e)),
        None => out
            .write_all(&bytes)
            .map_err(|e| CliError::io("<stdout>", e)),
    }
}

/// An ASCII diagram after `ply`, in the rule pages' style.
fn ascii(game: &Game, ply: Option<usize>) -> Result<String, String> {
    Ok(render::ascii::position(
        &writer::position_at(game, ply)?,
        render::Options::default(),
    ))
}
