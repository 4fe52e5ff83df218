//! `postal moves VARIANT` or `postal moves FILE`: the legal moves of a
//! position, one a line, in the variant's canonical notation. A game
//! file's moves are those of its current position. `--verbose` says what
//! each move does (captures, disintegrations wave by wave, squares added,
//! check, the end of the game).
//!
//! Swap Chess sequences can number hundreds of millions, so they are
//! listed one step at a time: the ordinary moves, then every first swap
//! that is a turn by itself; `--after PREFIX` lists the swaps that may
//! follow a prefix such as `Qd1/d2` (or `Qd1`: its first swaps).

use super::game::{game_error, load};
use super::{emit, start_position, variant_arg, CliError};
use crate::error::Span;
use crate::game::GameError;
use crate::mv::Move;
use crate::notation::dialect;
use crate::position::Position;
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
    /// Say what each move does, after a `#`.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Swap Chess: the swaps that may follow this prefix (`Qd1/d2`, `Qd1`).
    #[arg(long, value_name = "PREFIX")]
    pub after: Option<String>,
    /// Swap Chess: list at most this many swaps.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub limit: usize,
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)); their moves are listed in
    /// SAN as every variant's, --position is a FEN.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
    /// A defined variant's moves in UCI form, --moves read as UCI moves,
    /// as Fairy-Stockfish writes them (for comparisons with it).
    #[arg(long)]
    pub uci: bool,
}

/// What a move does, for `--verbose`.
fn describe(pos: &Position, mv: &Move) -> String {
    match pos.play_with_effects(mv) {
        Ok((after, effects)) => {
            let mut facts = effects.facts();
            if let Some(end) = after.outcome() {
                facts.push(format!(
                    "game over: {} by {} ({})",
                    end.result.as_str(),
                    end.reason,
                    end.rule
                ));
            } else if after.is_check() {
                facts.push("check".into());
            }
            facts.join("; ")
        }
        Err(e) => e.to_string(),
    }
}

/// Swap Chess: the next swaps, one a line.
fn swap_listing(pos: &Position, args: &Args, text: &mut String) -> Result<(), CliError> {
    let prefix = match &args.after {
        Some(p) => Some(dialect::swap::parse_prefix(pos, p).map_err(|e| {
            CliError::in_text(
                "--after",
                p,
                e.span().unwrap_or(Span::new(0, p.len())),
                &e.to_string(),
                if e.span().is_some() { 2 } else { 1 },
            )
        })?),
        None => None,
    };
    let steps = dialect::swap::swap_steps(pos, prefix.as_ref(), args.limit)
        .map_err(|e| CliError::rule(e.to_string()))?;
    for c in &steps.choices {
        if !c.is_turn && !args.verbose {
            continue;
        }
        text.push_str(&c.text);
        if args.verbose {
            let mut notes = Vec::new();
            if !c.is_turn {
                notes.push("not a turn by itself".to_string());
            }
            if c.gives_check {
                notes.push("gives check: the sequence ends here (SW-6)".to_string());
            }
            match c.count {
                Some(n) => notes.push(format!("{n} turns begin with it")),
                None => notes.push("too many turns to count here".to_string()),
            }
            text.push_str(&format!("  # {}", notes.join("; ")));
        }
        text.push('\n');
    }
    if args.verbose {
        text.push_str(&format!(
            "# {} of {} next swaps listed{}\n",
            steps.choices.len(),
            steps.total,
            match steps.count {
                Some(n) => format!("; {n} swap turns in all"),
                None => String::new(),
            }
        ));
    }
    Ok(())
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let defined = super::ini::register(args.variants.as_deref(), &args.variant)?;
    if args.uci && defined.is_none() {
        return Err(CliError::usage(
            "--uci lists the moves of a variant defined in a variants.ini file",
        ));
    }
    if let Some(d) = defined.filter(|_| args.uci).and_then(|v| v.defined()) {
        use crate::variant::ini::{end, gen};
        let def = &d.def;
        let pos = super::ini::position(def, args.position.as_deref(), args.moves.as_deref())?;
        let mut text = String::new();
        for m in gen::legal_moves(def, &pos) {
            text.push_str(&pos.uci(def, &m));
            if args.verbose {
                let after = gen::play(def, &pos, &m);
                if let Some(end) = end::outcome(def, &after) {
                    let result = ["0-1", "1/2-1/2", "1-0"][(end.white + 1) as usize];
                    text.push_str(&format!(" # game over: {result} by {}", end.why));
                } else if gen::in_check(def, &after) {
                    text.push_str(" # check");
                }
            }
            text.push('\n');
        }
        return emit(out, &text);
    }
    let path = Path::new(&args.variant);
    let pos = if let Some(v) = defined {
        start_position(v, args.position.as_deref(), args.moves.as_deref())?
    } else if path.is_file() {
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
    let is_swap = pos.variant == Variant::Swap;
    if args.after.is_some() && !is_swap {
        return Err(CliError::usage(
            "--after lists swap sequences: it is for Swap Chess",
        ));
    }
    let mut text = String::new();
    if args.after.is_none() {
        let moves = pos.legal_moves();
        for (m, written) in moves.iter().zip(pos.move_texts(&moves)) {
            text.push_str(&written);
            if args.verbose {
                let what = describe(&pos, m);
                if !what.is_empty() {
                    text.push_str("  # ");
                    text.push_str(&what);
                }
            }
            text.push('\n');
        }
    }
    if is_swap {
        swap_listing(&pos, &args, &mut text)?;
    }
    emit(out, &text)
}
