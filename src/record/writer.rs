//! Writing games: canonical PGN, the position text after a ply, and JSON
//! of moves and positions (diagrams are output: `cli/convert.rs` draws
//! them from [`position_at`]). Everything written reads
//! back (the round-trip tests in tests/records.rs).

use super::game::{Game, PlayedMove};
use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use crate::variant::Variant;
use serde_json::{json, Value};

/// The position after `ply` plies of the main line (0 is the start);
/// `None` means the end.
pub fn position_at(game: &Game, ply: Option<usize>) -> Result<Position, String> {
    let n = ply.unwrap_or(game.moves.len());
    if n > game.moves.len() {
        return Err(format!(
            "game {} has {} plies; --ply goes from 0 to {}",
            game.index,
            game.moves.len(),
            game.moves.len()
        ));
    }
    let mut pos = game.start.clone();
    for m in &game.moves[..n] {
        pos = pos.play_unchecked(&m.mv);
    }
    Ok(pos)
}

/// The position text after `ply`.
pub fn fen(game: &Game, ply: Option<usize>) -> Result<String, String> {
    Ok(format!("{}\n", position_at(game, ply)?.to_text()))
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The result to write: as recorded, else as the rules decided, else `*`.
pub fn result_text(game: &Game) -> String {
    game.result
        .clone()
        .or_else(|| game.outcome.as_ref().map(|o| o.result.as_str().to_string()))
        .unwrap_or_else(|| "*".to_string())
}

/// Canonical PGN: the seven tag roster, the record's other tags, then
/// `Variant` (unless FIDE chess; the name other programs use, see
/// `Variant::tag`) and `SetUp`/`FEN` (unless the game starts from the
/// variant's start position); the main line in canonical notation with
/// check marks, the comments, NAGs and variations read with it, 80
/// columns wide.
pub fn pgn(game: &Game) -> String {
    let result = result_text(game);
    let mut out = String::new();
    let roster = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
    ];
    for (name, default) in roster {
        let v = game.tag(name).unwrap_or(default);
        out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let written = [
        "event", "site", "date", "round", "white", "black", "result", "variant", "setup", "fen",
    ];
    for (name, value) in &game.tags {
        if !written.contains(&name.to_ascii_lowercase().as_str()) {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
    }
    if game.variant != Variant::Chess {
        out.push_str(&format!("[Variant \"{}\"]\n", game.variant.tag()));
    }
    if game.start != Position::start(game.variant) {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", game.start.to_text()));
    }
    out.push('\n');
    let mut words: Vec<String> = game.comments.iter().map(|c| comment(c)).collect();
    movetext(&game.start, &game.moves, &mut words);
    words.push(result);
    let mut line = String::new();
    for w in words {
        let glue = line.ends_with('(') || w == ")";
        if !line.is_empty() && !glue && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() && !glue {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A comment in braces; a `}` inside would close it, so it is written `)`.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// One step of a line of moves as it is written, for the writers of
/// PGN, published text and the replay page alike ([`walk`]).
pub enum Step<'g> {
    /// A comment, where it stands among the moves.
    Comment(&'g str),
    /// A move: its number as written before it (`12.`, `12...`, or empty
    /// for Black's move right after White's), its canonical text, its
    /// NAGs, the positions before and after it, and how deep in
    /// variations it stands (0 for the main line).
    Move {
        number: String,
        text: String,
        /// A null move (`--`): `mv` means nothing.
        null: bool,
        mv: &'g Move,
        nags: &'g [u16],
        before: &'g Position,
        after: &'g Position,
        depth: usize,
    },
    /// A variation begins, an alternative to the move just walked.
    Open,
    /// The variation ends.
    Close,
}

/// Walks a line of moves from `pos`: comments before each move, the move
/// with its number where one is written (always for White, for Black at
/// the start of a line and after a comment or a variation), its NAGs,
/// comments after it, then its variations, each from the position
/// before it.
pub fn walk(pos: &Position, moves: &[PlayedMove], visit: &mut dyn FnMut(Step<'_>)) {
    walk_at(pos, moves, 0, visit);
}

fn walk_at(pos: &Position, moves: &[PlayedMove], depth: usize, visit: &mut dyn FnMut(Step<'_>)) {
    let mut pos = pos.clone();
    let mut number_due = true;
    for m in moves {
        for c in &m.before {
            visit(Step::Comment(c));
        }
        number_due |= !m.before.is_empty();
        let number = if pos.turn == Color::White {
            format!("{}.", pos.fullmove)
        } else if number_due {
            format!("{}...", pos.fullmove)
        } else {
            String::new()
        };
        let (after, text) = if m.null {
            (super::game::pass(&pos), "--".to_string())
        } else {
            (pos.play_unchecked(&m.mv), pos.move_text(&m.mv))
        };
        visit(Step::Move {
            number,
            null: m.null,
            text,
            mv: &m.mv,
            nags: &m.nags,
            before: &pos,
            after: &after,
            depth,
        });
        for c in &m.after {
            visit(Step::Comment(c));
        }
        for v in &m.variations {
            visit(Step::Open);
            walk_at(&pos, v, depth + 1, visit);
            visit(Step::Close);
        }
        number_due = !m.after.is_empty() || !m.variations.is_empty();
        pos = after;
    }
}

/// The words of a line of moves from `pos`: move numbers, moves,
/// comments, NAGs and, after each move, its variations in parentheses.
fn movetext(pos: &Position, moves: &[PlayedMove], words: &mut Vec<String>) {
    walk(pos, moves, &mut |step| match step {
        Step::Comment(c) => words.push(comment(c)),
        Step::Move {
            number, text, nags, ..
        } => {
            // A move number stays on the line of its move.
            words.push(if number.is_empty() {
                text
            } else {
                format!("{number} {text}")
            });
            words.extend(nags.iter().map(|n| format!("${n}")));
        }
        Step::Open => words.push("(".to_string()),
        Step::Close => words.push(")".to_string()),
    });
}

/// A game as JSON: its variant, tags, start, each move (number, side,
/// as written, canonical, position after) and the result.
pub fn json(game: &Game) -> Value {
    let mut pos = game.start.clone();
    let mut moves = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        let number = pos.fullmove;
        let side = pos.turn;
        let canonical = pos.move_text(&m.mv);
        pos = pos.play_unchecked(&m.mv);
        moves.push(json!({
            "ply": i + 1,
            "number": number,
            "side": side.name().to_lowercase(),
            "written": m.written,
            "move": canonical,
            "position": pos.to_text(),
        }));
    }
    let tags: serde_json::Map<String, Value> = game
        .tags
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    json!({
        "variant": game.variant.name(),
        "tags": tags,
        "start": game.start.to_text(),
        "moves": moves,
        "end": pos.to_text(),
        "result": result_text(game),
        "outcome": game.outcome.as_ref().map(|o| json!({
            "result": o.result.as_str(),
            "reason": o.reason,
            "rule": o.rule,
        })),
    })
}

/// All games as one JSON document: `{"format": "postal-record/1",
/// "games": [...]}`.
pub fn json_document(games: &[Game]) -> String {
    let doc = json!({
        "format": "postal-record/1",
        "games": games.iter().map(json).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
