//! `postal show FILE`: the current position of a game (or the one after
//! `--ply N`) as an ASCII or Unicode diagram with the game's state, an SVG
//! or PNG image (last move and check highlighted), position text, or JSON;
//! or the whole game as PGN or as an HTML page that replays it.

use super::game::{clock, load, players, standing, TIME_HELP};
use super::{write_output, CliError, Output};
use crate::game::clock::format_time;
use crate::game::store;
use crate::game::Game;
use crate::render::{self, ascii, unicode, Options};
use chrono::{DateTime, Utc};
use std::io::Write;
use std::path::PathBuf;

/// The renderings `show` knows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A diagram in letters, as on the rule pages, with the game's state.
    Ascii,
    /// A diagram in Unicode chess symbols, with the game's state.
    Unicode,
    /// The position text alone (FEN for chess).
    Fen,
    /// The position and the game's state as JSON.
    Json,
    /// An SVG image of the board.
    Svg,
    /// A PNG image of the board (write it with -o).
    Png,
    /// The game's record as PGN: tags, moves, comments, and the other
    /// acts as comments (--ply is not used).
    Pgn,
    /// A self-contained HTML page replaying the game, open at --ply.
    Html,
}

/// Show a game's position.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The game's state file.
    pub file: PathBuf,
    #[arg(long, value_enum, default_value = "ascii")]
    pub format: Format,
    /// The position after this many half-moves (0: the start).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// What a diagram says under the board about the position shown.
fn caption(game: &Game, ply: usize, now: DateTime<Utc>) -> String {
    let total = game.moves().len();
    let mut out = players(game);
    if ply == total {
        if let Some(last) = ply.checked_sub(1) {
            out.push_str(&format!("Last move: {}\n", game.numbered_move(last)));
        }
        out.push_str(&standing(game, now));
    } else {
        match ply.checked_sub(1) {
            Some(last) => out.push_str(&format!(
                "After {} (ply {ply} of {total})\n",
                game.numbered_move(last)
            )),
            None => out.push_str(&format!("The start (ply 0 of {total})\n")),
        }
        out.push_str(&format!("{} to move\n", game.turn_at(ply)));
    }
    out
}

fn json(game: &Game, ply: usize, now: DateTime<Utc>) -> String {
    let pos = game.position(ply);
    let current = ply == game.moves().len();
    let value = serde_json::json!({
        "variant": game.variant().name(),
        "ply": ply,
        "position": pos.to_text(),
        "turn": pos.turn.name().to_lowercase(),
        "check": pos.is_check(),
        "last_move": ply.checked_sub(1).map(|i| game.moves()[i].canonical.clone()),
        "players": game.file().players,
        "result": if current { game.result().cloned() } else { None },
        "deadline": if current { game.deadline().map(format_time) } else { None },
        "overdue": current && game.deadline().is_some_and(|d| d < now),
        "draw_offer": if current { game.pending_draw_offer().map(|c| c.name().to_lowercase()) } else { None },
        "takeback_request": if current { game.pending_takeback().map(|c| c.name().to_lowercase()) } else { None },
    });
    let mut s = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    s.push('\n');
    s
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = load(&args.file)?;
    let now = clock()?.now();
    let total = game.moves().len();
    let ply = args.ply.unwrap_or(total);
    if ply > total {
        return Err(CliError::usage(format!(
            "--ply {ply}: the game has {total} half-moves"
        )));
    }
    let pos = game.position(ply);
    // The move that led here, for highlighting.
    let last = ply.checked_sub(1).map(|i| game.move_played(i));
    let opts = Options {
        flip: args.flip,
        ..Options::for_position(pos, last)
    };
    let bytes = match args.format {
        Format::Ascii => format!(
            "{}\n{}",
            ascii::position_board(pos, opts.clone()),
            caption(&game, ply, now)
        )
        .into_bytes(),
        Format::Unicode => format!(
            "{}\n{}",
            unicode::board(pos, &opts),
            caption(&game, ply, now)
        )
        .into_bytes(),
        Format::Svg => render::render(pos, render::Format::Svg, &opts),
        Format::Png => render::render(pos, render::Format::Png, &opts),
        Format::Fen => format!("{}\n", pos.to_text()).into_bytes(),
        Format::Json => json(&game, ply, now).into_bytes(),
        Format::Pgn => crate::game::pgn::pgn(&game).into_bytes(),
        Format::Html => {
            let record = crate::game::pgn::record(&game);
            let moves: Vec<_> = record.moves.iter().map(|m| m.mv.clone()).collect();
            let p = &game.file().players;
            let info = render::html::GameInfo {
                title: String::new(),
                white: p.white.short(crate::color::Color::White),
                black: p.black.short(crate::color::Color::Black),
                result: game.result().map(|e| e.to_string()),
                details: record
                    .tag("TimeControl")
                    .and_then(crate::record::tags::time_control_words)
                    .map(|t| format!("Time control: {t}"))
                    .into_iter()
                    .collect(),
                start_ply: ply,
                ..render::html::GameInfo::default()
            };
            render::html::game(&record.start, &moves, &info, &opts)
                .map_err(|e| CliError::rule(e.to_string()))?
                .into_bytes()
        }
    };
    let kind = if matches!(args.format, Format::Png) {
        Output::Binary
    } else {
        Output::Text
    };
    write_output(
        out,
        args.output.as_deref(),
        &bytes,
        kind,
        &[args.file.as_path(), store::lock_path(&args.file).as_path()],
    )
}
