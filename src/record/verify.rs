//! Reading record files and reporting on them.
//!
//! [`read_file`] drives one file through its reader and the builder: PGN
//! streams game by game (constant memory, whatever the file's size),
//! published text is read whole. Each finished game, its issues located
//! (`file:line:col` and the source line), goes to the caller.
//!
//! The report (`postal verify`) prints each problem as a caret diagnostic
//! and ends with a summary line; `--json` prints the same as one JSON
//! document, streamed game by game:
//!
//! ```text
//! {"format": "postal-verify/1",
//!  "files": [{"file": "game.pgn", "error": null, "games": [
//!     {"index": 1, "line": 1, "variant": "chess", "white": "A", "black": "B",
//!      "plies": 41, "result": "1-0", "sound": false, "issues": [
//!        {"severity": "error", "kind": "illegal-move", "line": 12, "column": 5,
//!         "width": 6, "source": "10. Bf1-c4? ...", "message": "...",
//!         "expected": "...", "found": "Bf1-c4", "rule": "FI-3", "move": "10.",
//!         "related_line": null}]}]}],
//!  "summary": {"files": 1, "games": 1, "sound": 0, "unsound": 1,
//!              "unreadable": 0, "errors": 1, "warnings": 0, "notes": 0}}
//! ```
//!
//! `severity` is `error`, `warning` or `note`; `kind` one of the
//! [`IssueKind`] names (`unparsable-move`,
//! `illegal-move`, `ambiguous-move`, `diagram`, `check-mark`, `result`,
//! `move-number`, `stray-token`, `setup`, `variant`, `syntax`, `resync`,
//! `legend`, `tag`, `notation`); `line` and `column` count from 1, the column in characters;
//! `expected`, `found`, `rule`, `move` and `related_line` (where a
//! repeated tag was first given) may be null. A file that cannot
//! be read has `error` set and no games. These names are stable.

use super::game::{Builder, Game, Options};
use super::pgn::{Chunk, Chunker};
use super::{published, Issue, IssueKind, Locator, Severity};
use crate::diagnostic::{Diagnostic, Level, Paint};
use crate::error::{char_offset, Span};
use crate::limits::{exceeds, MAX_ISSUES, MAX_PUBLISHED_BYTES, MAX_RECORD_BYTES};
use serde::Serialize;
use std::io::{BufRead, BufReader, Read};

/// Which reader a file needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Published,
}

/// Guesses the format: `.pgn` files are PGN; otherwise a text whose
/// first non-blank line is a tag pair is PGN, anything else published.
pub fn detect(path: &str, head: &[u8]) -> Format {
    if path.to_ascii_lowercase().ends_with(".pgn") {
        return Format::Pgn;
    }
    let text = String::from_utf8_lossy(head);
    let first = text
        .lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'))
        .find(|l| !l.is_empty());
    match first {
        Some(l) if l.starts_with('[') && l.contains('"') && l.ends_with(']') => Format::Pgn,
        _ => Format::Published,
    }
}

/// Why a file could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

fn to_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        // Old pages and mails are often Latin-1: every byte is a char.
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}

/// Locates a game's issues (in one pass over its text) and keeps the
/// first [`MAX_ISSUES`] of them, the errors first, with a note counting
/// the rest; so a game of garbage costs its length, not its length times
/// its problems.
fn finish_game(mut game: Game, text: &str, first_line: usize) -> Game {
    if game.issues.len() > MAX_ISSUES {
        let total = game.issues.len();
        // Errors decide soundness: keep them before warnings and notes.
        game.issues
            .sort_by_key(|i| (i.severity != Severity::Error, i.span.start));
        let last = game.issues[MAX_ISSUES - 1].span;
        game.issues.truncate(MAX_ISSUES - 1);
        game.issues.push(Issue::note(
            IssueKind::Syntax,
            last,
            format!(
                "{} more problems in this game not shown: {}",
                total - (MAX_ISSUES - 1),
                exceeds("it has", total, MAX_ISSUES, "problems")
            ),
        ));
    }
    game.issues.sort_by_key(|i| i.span.start);
    let mut locator = Locator::new(text, first_line);
    game.location = locator.locate(game.span);
    for issue in &mut game.issues {
        issue.location = locator.locate(issue.span);
        // The place a repeated tag was first given lies before the issue,
        // where the forward-only locator has passed: located on its own.
        if let Some(r) = issue.related {
            issue.related_line = Some(super::locate(text, first_line, r).line);
        }
    }
    game.issues
        .sort_by_key(|i| (i.location.line, i.location.column));
    game
}

/// Reads one record from `input` (named `path` for format detection),
/// handing each game to `on_game` with the bytes read so far. Returns the
/// number of games.
pub fn read(
    path: &str,
    input: impl Read,
    format: Option<Format>,
    opts: &Options,
    on_game: &mut dyn FnMut(Game, u64),
) -> Result<usize, Unreadable> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let head = input
        .fill_buf()
        .map_err(|e| Unreadable(e.to_string()))?
        .to_vec();
    let format = format.unwrap_or_else(|| detect(path, &head));
    let mut builder = Builder::new(opts.clone());
    let mut games = 0;
    match format {
        Format::Pgn => {
            let mut chunker = Chunker::new(input);
            let mut chunk = Chunk::default();
            while chunker
                .next_chunk(&mut chunk)
                .map_err(|e| Unreadable(e.to_string()))?
            {
                super::pgn::read(&chunk.text, &mut |ev| builder.handle(ev));
                builder.finish();
                for mut game in builder.done.drain(..) {
                    if let Some(size) = chunk.oversize {
                        game.readable = false;
                        game.issues.push(Issue::error(
                            IssueKind::Syntax,
                            Span::new(0, 1),
                            format!(
                                "{}; only its first part was read, the rest skipped to the next game",
                                exceeds("this game has", size as usize, MAX_RECORD_BYTES, "bytes")
                            ),
                        ));
                    }
                    games += 1;
                    on_game(
                        finish_game(game, &chunk.text, chunk.first_line),
                        chunker.bytes_read,
                    );
                }
            }
        }
        Format::Published => {
            let mut bytes = Vec::new();
            input
                .by_ref()
                .take(MAX_PUBLISHED_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| Unreadable(e.to_string()))?;
            if bytes.len() > MAX_PUBLISHED_BYTES {
                // Count the rest without keeping it.
                let rest = std::io::copy(&mut input, &mut std::io::sink())
                    .map_err(|e| Unreadable(e.to_string()))?;
                return Err(Unreadable(
                    exceeds(
                        "the text has",
                        bytes.len() + rest as usize,
                        MAX_PUBLISHED_BYTES,
                        "bytes",
                    ) + " (a published text is read whole; PGN is streamed game by game)",
                ));
            }
            if let Some(at) = bytes.iter().position(|&b| b == 0) {
                let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                return Err(Unreadable(format!(
                    "line {line}: a NUL byte: this is binary data, not a text record"
                )));
            }
            let text = to_text(bytes);
            published::read(&text, &mut |ev| builder.handle(ev));
            builder.finish();
            for game in builder.done.drain(..) {
                games += 1;
                on_game(finish_game(game, &text, 1), text.len() as u64);
            }
        }
    }
    if games == 0 {
        return Err(Unreadable(
            "no game found: no moves, no diagram, no tag pairs".into(),
        ));
    }
    Ok(games)
}

/// Opens and reads a file (`-` for standard input).
pub fn read_file(
    path: &str,
    format: Option<Format>,
    opts: &Options,
    on_game: &mut dyn FnMut(Game, u64),
) -> Result<usize, Unreadable> {
    if path == "-" {
        return read(path, std::io::stdin().lock(), format, opts, on_game);
    }
    let file = std::fs::File::open(path).map_err(|e| Unreadable(e.to_string()))?;
    read(path, file, format, opts, on_game)
}

/// Counts for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub sound: usize,
    pub unsound: usize,
    /// Games and files that could not be read.
    pub unreadable: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl Summary {
    pub fn add(&mut self, game: &Game) {
        self.games += 1;
        if !game.readable {
            self.unreadable += 1;
        } else if game.is_sound() {
            self.sound += 1;
        } else {
            self.unsound += 1;
        }
        self.errors += game.count(Severity::Error);
        self.warnings += game.count(Severity::Warning);
        self.notes += game.count(Severity::Note);
    }

    /// 0 sound, 1 unsound, 2 unreadable.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            2
        } else if self.errors > 0 {
            1
        } else {
            0
        }
    }

    pub fn line(&self) -> String {
        let plural = |n: usize, word: &str| {
            if n == 1 {
                format!("{n} {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        format!(
            "verified {} in {}: {} sound, {} unsound, {} unreadable; {}, {}, {}",
            plural(self.games, "game"),
            plural(self.files, "file"),
            self.sound,
            self.unsound,
            self.unreadable,
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.notes, "note"),
        )
    }
}

/// One issue as a caret diagnostic:
///
/// ```text
/// game.pgn:12:5: error: illegal move: no white bishop on f1 can move to c4
///    |
/// 12 | 10. Bf1-c4?  Qh4/h2/h1/g1+
///    |     ^^^^^^^
///    = expected: a legal move for White at 10.
///    = found: Bf1-c4?
///    = rule: FI-3
/// ```
pub fn render_issue(file: &str, issue: &Issue, paint: Paint) -> String {
    let loc = &issue.location;
    let start = char_offset(&loc.source, loc.caret.saturating_sub(1));
    let end = start + char_offset(&loc.source[start..], loc.width);
    let level = match issue.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Note => Level::Note,
    };
    let mut d = Diagnostic::in_line(
        file,
        loc.line,
        loc.column,
        &loc.source,
        start,
        end,
        level,
        &issue.message,
    );
    let first = issue.related_line.map(|l| format!("line {l}"));
    for (name, value) in [
        ("expected", &issue.expected),
        ("found", &issue.found),
        ("rule", &issue.rule),
        ("first given on", &first),
    ] {
        if let Some(v) = value {
            d.notes.push((name.to_string(), v.clone()));
        }
    }
    d.render(paint) + "\n"
}

/// A game as it appears in the JSON report.
#[derive(Serialize)]
pub struct GameReport<'a> {
    pub index: usize,
    pub line: usize,
    /// The variant played, or for a game whose Variant tag names none
    /// known, the name the tag gives (`Crazyhouse`).
    pub variant: &'a str,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    pub plies: usize,
    pub result: Option<&'a str>,
    pub sound: bool,
    pub issues: &'a [Issue],
}

impl<'a> GameReport<'a> {
    pub fn of(game: &'a Game) -> GameReport<'a> {
        GameReport {
            index: game.index,
            line: game.location.line,
            variant: match game.tag("Variant") {
                Some(tag) if !game.readable && super::game::variant_from_tag(tag).is_none() => tag,
                _ => game.variant.name(),
            },
            white: game.tag("White"),
            black: game.tag("Black"),
            plies: game.plies,
            result: game.result.as_deref(),
            sound: game.is_sound(),
            issues: &game.issues,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::IssueKind;
    use crate::Variant;

    fn games(text: &str, variant: Variant) -> Vec<Game> {
        let opts = Options {
            variant: Some(variant),
            ..Options::default()
        };
        let mut out = Vec::new();
        read("x.txt", text.as_bytes(), None, &opts, &mut |g, _| {
            out.push(g)
        })
        .unwrap();
        out
    }

    fn kinds(g: &Game) -> Vec<(&'static str, usize, usize)> {
        g.issues
            .iter()
            .map(|i| (i.kind.as_str(), i.location.line, i.location.column))
            .collect()
    }

    #[test]
    fn a_clean_pgn_game() {
        let g = games(
            "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7# 1-0\n",
            Variant::Chess,
        );
        assert_eq!(g.len(), 1);
        assert!(g[0].issues.is_empty(), "{:?}", g[0].issues);
        assert_eq!(g[0].plies, 7);
        assert_eq!(g[0].outcome.as_ref().unwrap().reason, "checkmate");
    }

    #[test]
    fn each_kind_of_move_problem() {
        let g = games(
            "[Result \"*\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. Bxd7+ *\n",
            Variant::Chess,
        );
        assert_eq!(kinds(&g[0]), vec![("illegal-move", 2, 45)]);
        let g = games(
            "[Round \"1\"]\n1. e4 e5 2. Nf3 Nc6 3. Zz9 *",
            Variant::Chess,
        );
        assert_eq!(g[0].issues[0].kind, IssueKind::UnparsableMove);
        let g = games(
            "[FEN \"4k3/8/8/8/8/8/4K3/R6R w - - 0 1\"]\n1. Rd1 *",
            Variant::Chess,
        );
        assert_eq!(g[0].issues[0].kind, IssueKind::AmbiguousMove);
    }

    #[test]
    fn check_marks_and_results() {
        let g = games("1. f3 e5 2. g4 Qh4 0-1", Variant::Chess);
        assert_eq!(kinds(&g[0]), vec![("check-mark", 1, 16)]);
        assert!(g[0].is_sound());
        let g = games("1. f3 e5 2. g4 Qh4# 1-0", Variant::Chess);
        assert_eq!(kinds(&g[0]), vec![("result", 1, 21)]);
    }

    #[test]
    fn en_passant_marks_are_remarks() {
        let g = games("1. e4 Nf6 2. e5 d5 3. exd6 e.p. cxd6 *", Variant::Chess);
        assert!(g[0].issues.is_empty(), "{:?}", g[0].issues);
        assert_eq!(g[0].plies, 6);
        let g = games(
            "[A \"b\"]\n1. e4 Nf6 2. e5 d5 3. exd6 e.p. cxd6 *",
            Variant::Chess,
        );
        assert!(g[0].issues.is_empty(), "{:?}", g[0].issues);
    }

    #[test]
    fn resync_after_an_error() {
        // 3. Bb4 is illegal; the only legal move after which 3... a6 4. Ba4
        // play is 3. Bb5.
        let g = games(
            "1. e4 e5 2. Nf3 Nc6 3. Bb4 a6 4. Ba4 Nf6 5. Q9x *",
            Variant::Chess,
        );
        let k = kinds(&g[0]);
        assert_eq!(k[0], ("illegal-move", 1, 24));
        assert_eq!(k[1], ("resync", 1, 24));
        assert_eq!(k[2].0, "unparsable-move");
    }
}
