//! `postal convert RECORD --to pgn|text|fen|ascii|json|svg|png|html [--ply N]
//! [-o OUT]`: a record (PGN, published text, or a game's state file) to
//! canonical PGN (comments and variations carried over), published text
//! with diagrams, the position text or a diagram (ASCII, SVG, PNG) after a
//! ply, JSON of its moves and positions, or a self-contained HTML page that
//! replays the games. Sound games convert; each unsound one is reported
//! with its first error, on standard error before the summary that counts
//! them, and the exit status is 1.

use super::verify::{read_record, record_options, FormatArg};
use super::{write_output, CliError, Output};
use crate::diagnostic::Paint;
use crate::record::commands;
use crate::record::game::Game;
use crate::record::verify::{render_issue, Unreadable};
use crate::record::{writer, Severity};
use crate::render;
use std::io::Write;
use std::path::Path;

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
/// (its moves' comments and the other acts as comments). Every sound game
/// converts (the single-board forms draw one: --game, or the first); each
/// unsound one is reported with its first error and location, and the
/// exit status is then 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record: PGN, published text or a game's state file (`-` reads
    /// standard input).
    pub record: String,
    /// The output form.
    #[arg(long, value_enum, value_name = "FORMAT")]
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
    #[arg(long, value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: Option<String>,
    /// The language of the piece letters, as for verify (default: found
    /// from the text).
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Option<String>,
    /// Diagram letter X stands for piece letter Y (e.g. O=P).
    #[arg(long, value_name = "X=Y")]
    pub legend: Vec<String>,
    /// For text and html: moves with figurines (`♘f3`) for their letters.
    #[arg(long)]
    pub figurine: bool,
    /// Read as PGN or as published text (default: guessed).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)), for records whose Variant
    /// tag names one.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::ini::register_all(args.variants.as_deref())?;
    let mut opts = record_options(
        args.variant.as_deref(),
        args.language.as_deref(),
        &args.legend,
    )?;
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
    // The first error of each unsound game, printed before the summary
    // that counts them.
    let first_error = |g: &Game| {
        g.issues
            .iter()
            .find(|i| i.severity == Severity::Error)
            .cloned()
    };
    let total = games.len();
    let mut unsound = Vec::new();
    let mut sound = Vec::new();
    for g in games {
        match first_error(&g) {
            Some(issue) => unsound.push((g, issue)),
            None => sound.push(g),
        }
    }
    let report = |unsound: &[(Game, crate::record::Issue)]| {
        for (g, issue) in unsound {
            eprint!("{}", render_issue(path, issue, Paint::PLAIN));
            eprintln!("postal: game {} is not sound: not converted\n", g.index);
        }
    };
    // The games written: `converted` is how many, said only when true.
    let summary = |unsound: &[(Game, crate::record::Issue)], converted: usize| {
        // Unreadable (2) only when nothing converted and no game could
        // even be read; a rule said no (1) otherwise.
        // (The exit status as before: whether other games were sound.)
        let others = total > unsound.len();
        let code = if !others && unsound.iter().all(|(g, _)| !g.readable) {
            2
        } else {
            1
        };
        // The first three named with where their first error is.
        let mut named: Vec<String> = unsound
            .iter()
            .take(3)
            .map(|(g, issue)| {
                format!(
                    "game {} at {path}:{}:{}: {}",
                    g.index, issue.location.line, issue.location.column, issue.message
                )
            })
            .collect();
        if unsound.len() > 3 {
            named.push(format!("{} more", unsound.len() - 3));
        }
        CliError {
            message: format!(
                "{} of {total} game{} not sound ({}); {}",
                unsound.len(),
                if total == 1 { " is" } else { "s are" },
                named.join("; "),
                match converted {
                    0 => "nothing converted".to_string(),
                    1 if total - unsound.len() == 1 => "the other game converted".to_string(),
                    n if n == total - unsound.len() => format!("the other {n} converted"),
                    n => format!("{n} of the others converted"),
                }
            ),
            code,
            diagnostic: None,
        }
    };
    let single = !matches!(
        args.to,
        Target::Pgn | Target::Text | Target::Json | Target::Html
    );
    let chosen: Vec<&Game> = match args.game {
        Some(n) => {
            if let Some(i) = unsound.iter().position(|(g, _)| g.index == n) {
                report(&unsound[i..=i]);
                return Err(summary(&unsound[i..=i], 0));
            }
            match sound.iter().find(|g| g.index == n) {
                Some(g) => vec![g],
                None => {
                    return Err(CliError::usage(format!(
                        "--game {n}: the record has {total} game{}",
                        if total == 1 { "" } else { "s" }
                    )))
                }
            }
        }
        None if single => match sound.first() {
            Some(g) => {
                if total > 1 {
                    eprintln!(
                        "postal: note: {path} has {total} games; drawn: game {} (--game N draws another)",
                        g.index
                    );
                }
                vec![g]
            }
            None => {
                report(&unsound);
                return Err(summary(&unsound, 0));
            }
        },
        None => sound.iter().collect(),
    };
    if chosen.is_empty() {
        report(&unsound);
        return Err(summary(&unsound, 0));
    }
    let diagram = |format| -> Result<Vec<u8>, CliError> {
        let g = chosen[0];
        let pos = writer::position_at(g, args.ply).map_err(CliError::usage)?;
        let n = args.ply.unwrap_or(g.moves.len());
        let last = n.checked_sub(1).map(|i| &g.moves[i]);
        // The arrows and marked squares of the move's comments.
        let marks = last
            .map(|m| commands::of_comments(&m.after).0.marks)
            .unwrap_or_default();
        let opts = render::Options {
            marks,
            ..render::Options::for_position(&pos, last.map(|m| &m.mv))
        };
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
            .map(|g| render::score::score(g, 10, args.figurine))
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
        Target::Png => diagram(render::Format::Png)?,
        Target::Html => {
            let mut pages: Vec<render::html::PageGame> = chosen
                .iter()
                .map(|g| render::html::PageGame::of_record(g))
                .collect();
            if let (Some(first), Some(ply)) = (pages.first_mut(), args.ply) {
                first.info.start_ply = ply;
            }
            let opts = render::Options {
                figurines: args.figurine,
                ..render::Options::default()
            };
            render::html::page(&pages, &opts)
                .map_err(|e| CliError::rule(e.to_string()))?
                .into_bytes()
        }
    };
    let kind = if matches!(args.to, Target::Png) {
        Output::Binary
    } else {
        Output::Text
    };
    let input = Path::new(path);
    let inputs: &[&Path] = if path == "-" { &[] } else { &[input] };
    write_output(
        out,
        args.output.as_deref().map(Path::new),
        &bytes,
        kind,
        inputs,
    )?;
    if single || args.game.is_some() || unsound.is_empty() {
        return Ok(());
    }
    report(&unsound);
    Err(summary(&unsound, chosen.len()))
}

/// An ASCII diagram after `ply`, in the rule pages' style.
fn ascii(game: &Game, ply: Option<usize>) -> Result<String, String> {
    Ok(render::ascii::position(
        &writer::position_at(game, ply)?,
        render::Options::default(),
    ))
}
