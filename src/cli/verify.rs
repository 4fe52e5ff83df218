//! `postal verify RECORD...`: replays every game of each record (PGN or a
//! score in published text) and reports each problem with `file:line:col`,
//! the source line, a caret, what was expected and found and the rule;
//! then a summary line. Exit 0 sound, 1 unsound, 2 unreadable. `--json`
//! prints the same report as data (format in `record::verify`).

use super::{emit, variant_arg, CliError};
use crate::diagnostic::{Level, Paint};
use crate::notation::language::{self, Language, LANGUAGES};
use crate::piece::Piece;
use crate::record::game::{Game, Options};
use crate::record::verify::{self, render_issue, Format, GameReport, Summary, Unreadable};
use crate::variant::Variant;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How to read a record file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// PGN: tag pairs and movetext.
    Pgn,
    /// Published text: a score inside prose, with ASCII diagrams.
    Text,
}

impl FormatArg {
    pub fn format(self) -> Format {
        match self {
            FormatArg::Pgn => Format::Pgn,
            FormatArg::Text => Format::Published,
        }
    }
}

/// Replay game records and check their moves, diagrams, check marks and
/// results.
///
/// Reads PGN (tags, comments, variations, NAGs, several games a file,
/// streamed game by game), scores printed in prose (move numbers, moves
/// in any notation, commentary in parentheses, ASCII diagrams checked
/// square by square; a move number going back to 1 starts a new game),
/// and game files (postal-game/1, read as the PGN of the game played).
/// Every move form `postal moves` prints reads in both (`Nc3 @f3`,
/// `e3 @(0,3)`, `QKc2-c4`, `Kc5-prison`, `Qd1/g4/g7`), as do Game
/// Courier's coordinates and parts joined by `;` (`b1-c3; @f3`) and
/// engines' `g1f3`, `e7e8q` (with a note). A byte-order mark, a tag
/// section without moves (a game of its own), a repeated tag and a move
/// number for the wrong side are warnings; null moves (`--`, `Z0`) errors.
/// Each problem is reported with file:line:col, the source line, a caret,
/// what was expected and found, and the rule id; a summary line ends the
/// report. After an error, verification picks the game up again when only
/// one legal move lets the next moves be played, or at the next diagram.
///
/// Exit status: 0 sound (warnings allowed), 1 unsound, 2 unreadable.
///
/// --json prints one document: {"format": "postal-verify/1", "files":
/// [{"file", "games": [{"index", "line", "variant", "white", "black",
/// "plies", "result", "sound", "issues": [{"severity", "kind", "line",
/// "column", "width", "source", "message", "expected", "found", "rule",
/// "move"}]}], "error"}], "summary": {"files", "games", "sound", "unsound",
/// "unreadable", "errors", "warnings", "notes"}}.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Record files: PGN, published text with a score in prose, or a
    /// game's state file (`-` reads standard input).
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<String>,
    /// The variant, overriding any Variant tag (default: the tag, else
    /// chess).
    #[arg(long, value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: Option<String>,
    /// Diagram letter X stands for piece letter Y, e.g. O=P for pages that
    /// draw White pawns as O (detected when a diagram has O and no P).
    #[arg(long, value_name = "X=Y")]
    pub legend: Vec<String>,
    /// The language of the piece letters (german: K D T L S, french: R D
    /// T F C, spanish, italian, dutch, and the rest of the PGN standard's
    /// list; default: found from the text, English unless its letters
    /// say otherwise).
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Read as PGN or as published text (default: PGN for .pgn files and
    /// texts that start with a tag pair).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)), for records whose Variant
    /// tag names one.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
}

/// Reads a record file, or a game's state file (`postal-game/1`) as the
/// record of the game played (its PGN, see `game::pgn`).
pub fn read_record(
    path: &str,
    format: Option<Format>,
    opts: &Options,
    on_game: &mut dyn FnMut(Game, u64),
) -> Result<usize, Unreadable> {
    match game_file_pgn(path)? {
        Some(pgn) => verify::read(path, pgn.as_bytes(), Some(Format::Pgn), opts, on_game),
        None => {
            let found = language_of(path, opts)?;
            let opts = &Options {
                language: opts.language.or(found),
                ..opts.clone()
            };
            verify::read_file(path, format, opts, on_game)
        }
    }
}

/// The language of a chess record's piece letters, found from its words
/// (the first 256 KiB) when `--language` did not name one: `None` for
/// English, for standard input, and for records of other variants, whose
/// letters are their own.
fn language_of(path: &str, opts: &Options) -> Result<Option<&'static Language>, Unreadable> {
    if opts.language.is_some() || path == "-" || opts.variant.is_some_and(|v| v != Variant::Chess) {
        return Ok(None);
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| {
        std::io::Read::read_to_end(&mut std::io::Read::take(f, 256 * 1024), &mut head)
    });
    if read.is_err() {
        // Reading the record itself says why.
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&head);
    let other_variant = text.lines().any(|l| {
        let l = l.trim_start();
        l.get(..9)
            .is_some_and(|t| t.eq_ignore_ascii_case("[variant "))
            && !l.to_ascii_lowercase().contains("\"chess\"")
            && !l.to_ascii_lowercase().contains("\"standard\"")
    });
    if other_variant {
        return Ok(None);
    }
    // Move numbers may stick to their move (`2.Sf3`).
    let words = text
        .split_whitespace()
        .map(|w| w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '('));
    language::detect(words).map_err(|e| Unreadable(e.to_string()))
}

/// The PGN of a game's state file; `None` for any other file.
fn game_file_pgn(path: &str) -> Result<Option<String>, Unreadable> {
    if path == "-" {
        return Ok(None);
    }
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .map_err(|e| Unreadable(e.to_string()))?;
    let head = String::from_utf8_lossy(&head[..n]);
    if !(head.trim_start().starts_with('{') && head.contains("\"postal-game/")) {
        return Ok(None);
    }
    let book = crate::game::RuleBook::from_env().map_err(|e| Unreadable(e.to_string()))?;
    let game = crate::game::store::load(std::path::Path::new(path), Some(&book))
        .map_err(|e| Unreadable(format!("a game file that does not load: {e}")))?;
    Ok(Some(crate::game::pgn::pgn(&game)))
}

/// The names `--language` takes.
pub fn language_names() -> Vec<String> {
    LANGUAGES.iter().map(|l| l.name.to_string()).collect()
}

/// Reads `--variant`, `--language` and `--legend` into builder options.
pub fn record_options(
    variant: Option<&str>,
    language: Option<&str>,
    legend: &[String],
) -> Result<Options, CliError> {
    let mut opts = Options::default();
    if let Some(v) = variant {
        opts.variant = Some(variant_arg(v)?);
    }
    if let Some(name) = language {
        opts.language = Some(Language::named(name).ok_or_else(|| {
            CliError::usage(format!(
                "--language {name:?}: not one of {}",
                language_names().join(", ")
            ))
        })?);
    }
    for entry in legend {
        let pair = entry.split_once('=').and_then(|(x, y)| {
            let (mut xs, mut ys) = (x.chars(), y.chars());
            match (xs.next(), xs.next(), ys.next(), ys.next()) {
                (Some(x), None, Some(y), None)
                    if x.is_ascii_alphabetic() && Piece::from_char(y).is_some() =>
                {
                    Some((x, y))
                }
                _ => None,
            }
        });
        match pair {
            Some(p) => opts.legend.push(p),
            None => {
                return Err(CliError::usage(format!(
                    "--legend {entry:?}: expected X=Y, a diagram letter and the piece letter it stands for, e.g. O=P"
                )))
            }
        }
    }
    Ok(opts)
}

/// A progress line on stderr while many games are verified, shown only on
/// a terminal and only once verification has run for half a second.
struct Progress {
    on: bool,
    start: Instant,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        let now = Instant::now();
        Progress {
            on: std::io::stderr().is_terminal(),
            start: now,
            last: now,
            shown: false,
        }
    }

    fn tick(&mut self, path: &str, games: usize, bytes: u64, total: u64) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if now - self.start < Duration::from_millis(500)
            || now - self.last < Duration::from_millis(100)
        {
            return;
        }
        self.last = now;
        let rate = games as f64 / (now - self.start).as_secs_f64();
        let frac = if total > 0 {
            (bytes as f64 / total as f64).min(1.0)
        } else {
            0.0
        };
        let filled = (frac * 30.0) as usize;
        eprint!(
            "\r{path} [{}{}] {:3.0}% {games} games {rate:.0}/s\x1b[K",
            "#".repeat(filled),
            "-".repeat(30 - filled),
            frac * 100.0
        );
        self.shown = true;
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}

fn game_text(path: &str, game: &Game, json: bool, first: bool, paint: Paint) -> String {
    if json {
        let sep = if first { "\n" } else { ",\n" };
        format!(
            "{sep}{}",
            serde_json::to_string(&GameReport::of(game)).unwrap_or_default()
        )
    } else {
        game.issues
            .iter()
            .map(|i| render_issue(path, i, paint) + "\n")
            .collect()
    }
}

pub fn run(args: Args, out: &mut dyn Write, paint: Paint) -> Result<(), CliError> {
    super::ini::register_all(args.variants.as_deref())?;
    let opts = record_options(
        args.variant.as_deref(),
        args.language.as_deref(),
        &args.legend,
    )?;
    let format = args.format.map(FormatArg::format);
    let json = args.json;
    let mut summary = Summary::default();
    let mut progress = Progress::new();
    if json {
        emit(out, "{\"format\": \"postal-verify/1\", \"files\": [")?;
    }
    for (k, path) in args.records.iter().enumerate() {
        summary.files += 1;
        let total = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if json {
            let sep = if k == 0 { "" } else { "," };
            emit(
                out,
                &format!(
                    "{sep}\n{{\"file\": {}, \"games\": [",
                    serde_json::to_string(path).unwrap_or_default()
                ),
            )?;
        }
        let mut first = true;
        let mut failed_write = None;
        let res = read_record(path, format, &opts, &mut |game, bytes| {
            summary.add(&game);
            let text = game_text(path, &game, json, first, paint);
            first = false;
            if !text.is_empty() {
                // The report goes on a line of its own, not after the bar.
                progress.clear();
            }
            progress.tick(path, summary.games, bytes, total);
            if failed_write.is_none() && !text.is_empty() {
                if let Err(e) = emit(out, &text) {
                    failed_write = Some(e);
                }
            }
        });
        progress.clear();
        if let Some(e) = failed_write {
            return Err(e);
        }
        match res {
            Ok(_) => {
                if json {
                    emit(out, "], \"error\": null}")?;
                }
            }
            Err(Unreadable(msg)) => {
                summary.unreadable += 1;
                if json {
                    emit(
                        out,
                        &format!(
                            "], \"error\": {}}}",
                            serde_json::to_string(&msg).unwrap_or_default()
                        ),
                    )?;
                } else {
                    let mut line = String::new();
                    paint.headline(
                        &mut line,
                        &format!("{path}: "),
                        Level::Error,
                        &format!(": cannot read the record: {msg}"),
                    );
                    emit(out, &format!("{line}\n\n"))?;
                }
            }
        }
    }
    if json {
        emit(
            out,
            &format!(
                "],\n\"summary\": {}}}\n",
                serde_json::to_string(&summary).unwrap_or_default()
            ),
        )?;
    } else {
        emit(out, &format!("{}\n", summary.line()))?;
    }
    match summary.exit_code() {
        0 => Ok(()),
        1 => Err(CliError::rule(format!(
            "unsound: {} of {} games have errors",
            summary.unsound, summary.games
        ))),
        code => Err(CliError {
            message: format!(
                "{} record{} or game{} could not be read",
                summary.unreadable,
                if summary.unreadable == 1 { "" } else { "s" },
                if summary.unreadable == 1 { "" } else { "s" }
            ),
            code,
            diagnostic: None,
        }),
    }
}
