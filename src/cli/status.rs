//! `postal status DIR`: a table of the games in a folder (its `*.json`
//! files): variant, players, whose turn, deadline, result. A file that
//! does not load is listed with the reason.

use super::game::{clock, rule_book, TIME_HELP};
use super::{emit, CliError};
use crate::color::Color;
use crate::game::clock::{format_time, relative};
use crate::game::store;
use std::io::Write;
use std::path::PathBuf;

/// List the games in a folder.
#[derive(clap::Args, Debug)]
#[command(after_help = TIME_HELP)]
pub struct Args {
    /// The folder holding the state files.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

const HEADER: [&str; 7] = [
    "FILE", "VARIANT", "WHITE", "BLACK", "TO MOVE", "DEADLINE", "RESULT",
];

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let now = clock()?.now();
    let dir_name = args.dir.display().to_string();
    let entries = std::fs::read_dir(&args.dir).map_err(|e| CliError::io(&dir_name, e))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|x| x == "json")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    let mut rows: Vec<[String; 7]> = vec![HEADER.map(str::to_string)];
    let book = rule_book()?;
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let row = match store::load(&path, Some(&book)) {
            Ok(game) => {
                let p = &game.file().players;
                let (turn, deadline, result) = match game.result() {
                    Some(end) => ("-".to_string(), "-".to_string(), end.to_string()),
                    None => (
                        game.turn().name().to_string(),
                        game.deadline()
                            .map(|d| format!("{} ({})", format_time(d), relative(d, now)))
                            .unwrap_or_else(|| "-".to_string()),
                        "-".to_string(),
                    ),
                };
                [
                    name,
                    game.variant().name().to_string(),
                    p.white.short(Color::White),
                    p.black.short(Color::Black),
                    turn,
                    deadline,
                    result,
                ]
            }
            Err(e) => {
                let why = e.to_string();
                let first = why.lines().next().unwrap_or("").to_string();
                [
                    name,
                    "?".into(),
                    "".into(),
                    "".into(),
                    "".into(),
                    "".into(),
                    format!("unreadable: {first}"),
                ]
            }
        };
        rows.push(row);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for r in &rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < r.len() {
                line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    emit(out, &text)
}
