//! What every parser must do with any input: return (never panic, never
//! hang), point its errors at the text, and read back what it writes.
//! Shared by the fuzz targets (`fuzz_targets/`) and by the deterministic
//! test `tests/robustness.rs`, which includes this file as a module, so
//! it depends on `postal` alone.

use postal::error::{caret_snippet, Span};
use postal::game::Game;
use postal::mail::config::Config;
use postal::movement::parse_betza;
use postal::notation::{movetext, san, square};
use postal::perft::read_table;
use postal::record::game::Options;
use postal::record::verify::{read as read_record, Format};
use postal::variant::ini::{self, gen, Pos};
use postal::{Color, Move, PlayError, Position, Variant};

/// An error's span lies in the text, on character boundaries, and the
/// caret printer of the command line can show it.
pub fn span_in(text: &str, span: Span) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "span {span:?} outside the {} bytes of {text:?}",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "span {span:?} splits a character of {text:?}"
    );
    caret_snippet("<input>", text, span, "error");
}

/// The same position, whatever the layout of the board's array.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.variant == b.variant
        && a.turn == b.turn
        && a.castling == b.castling
        && a.ep == b.ep
        && a.halfmove == b.halfmove
        && a.fullmove == b.fullmove
        && a.extra == b.extra
        && a.board.bounds() == b.board.bounds()
        && a.board.same_placement(&b.board)
}

/// A position's text reads back to the same position, which writes the
/// same text again.
pub fn round_trip(pos: &Position) {
    let text = pos.to_text();
    let back = Position::from_text(pos.variant, &text)
        .unwrap_or_else(|e| panic!("{}: cannot read its own text {text:?}: {e}", pos.variant));
    assert!(
        same_position(pos, &back),
        "{}: {text:?} reads back as {:?}",
        pos.variant,
        back.to_text()
    );
    assert_eq!(back.to_text(), text, "{}: text not stable", pos.variant);
}

/// Reads a position text; a position read must round-trip.
pub fn position_text(variant: Variant, text: &str) -> Option<Position> {
    match Position::from_text(variant, text) {
        Ok(pos) => {
            round_trip(&pos);
            Some(pos)
        }
        Err(e) => {
            span_in(text, e.span);
            None
        }
    }
}

/// Move syntax alone, whole text and prefix.
pub fn move_syntax(text: &str) {
    if let Err(e) = san::parse_text(text) {
        span_in(text, e.span);
    }
    if let Ok((rest, _)) = san::parse_prefix(text) {
        assert!(text.ends_with(rest), "prefix parser invented text");
    }
}

/// Reads a move against a position. A move read is checked as by
/// [`legal_move`].
pub fn move_in(pos: &Position, text: &str) -> Option<Move> {
    let before = pos.clone();
    let read = pos.parse_move(text);
    assert_eq!(pos, &before, "parse_move changed the position");
    match read {
        Ok(mv) => {
            legal_move(pos, &mv);
            Some(mv)
        }
        Err(e) => {
            if let Some(span) = e.span() {
                span_in(text, span);
            }
            None
        }
    }
}

/// A legal move's canonical text reads back to it; playing it leaves the
/// position as it was (a position is a value) and gives the next position,
/// unless the game was already over.
pub fn legal_move(pos: &Position, mv: &Move) -> Option<Position> {
    let before = pos.clone();
    let written = pos.move_text(mv);
    match pos.parse_move(&written) {
        Ok(back) => assert_eq!(
            &back,
            mv,
            "{}: {written:?} reads as another move in {}",
            pos.variant,
            pos.to_text()
        ),
        Err(e) => panic!(
            "{}: cannot read its own move {written:?} in {}: {e}",
            pos.variant,
            pos.to_text()
        ),
    }
    let next = match pos.play(mv) {
        Ok(next) => Some(next),
        Err(PlayError::GameOver) => {
            assert!(pos.outcome().is_some(), "game over without an outcome");
            None
        }
        Err(e) => panic!(
            "{}: {written:?} was read as legal but does not play in {}: {e}",
            pos.variant,
            pos.to_text()
        ),
    };
    assert_eq!(pos, &before, "play changed the position");
    next
}

/// Plays a movetext from a position.
pub fn movetext_from(pos: &Position, text: &str) {
    match movetext::play(pos, text) {
        Ok(played) => {
            if let Some((_, last)) = played.last() {
                round_trip(last);
            }
        }
        Err((span, _)) => span_in(text, span),
    }
}

/// A square name read writes back to the same square.
pub fn square_name(text: &str) {
    if let Some(sq) = square::parse_square(text) {
        let written = sq.to_string();
        assert_eq!(square::parse_square(&written), Some(sq), "{written:?}");
    }
    if let Ok((rest, _)) = square::square(text) {
        assert!(text.ends_with(rest), "prefix parser invented text");
    }
}

/// A movement descriptor read expands to rays of at least one step; a
/// lame one is a leap.
pub fn betza(text: &str) {
    if let Ok(movement) = parse_betza(text) {
        for color in Color::ALL {
            for ray in movement.rays(color) {
                assert!(ray.range >= 1 && (ray.dx, ray.dy) != (0, 0), "{text:?}");
                assert!(!ray.lame || (ray.range == 1 && !ray.hop), "{text:?}");
            }
        }
    }
}

/// The mail settings reader returns, whatever the text.
pub fn mail_config(text: &str) {
    let _ = Config::parse(text, "<input>");
}

/// The most plies [`variants_ini`] plays from each start position.
const INI_PLIES: usize = 8;

/// A variants.ini text: loading returns; every refusal points at a line
/// of the text and prints with its caret; every definition loaded has a
/// start position whose FEN reads back to itself, and a short game from
/// it (each side's first, then last, legal move in turn) whose every
/// position does the same, each move written in UCI read back to itself.
pub fn variants_ini(text: &str) {
    let loaded = ini::load(text, "<input>");
    let lines = text.split('\n').count();
    for r in &loaded.refused {
        assert!(
            (1..=lines).contains(&r.line) && r.col >= 1,
            "refusal {r} outside the {lines} lines of {text:?}"
        );
        assert!(
            r.col <= r.source_line.chars().count() + 1,
            "refusal {r}: column past the line {:?}",
            r.source_line
        );
        r.with_caret();
    }
    for def in &loaded.defs {
        let mut pos = def.start();
        for ply in 0..=INI_PLIES {
            let fen = pos.to_fen(def);
            let back = Pos::from_fen(def, &fen)
                .unwrap_or_else(|e| panic!("{}: cannot read its own FEN {fen:?}: {e}", def.name));
            assert_eq!(back.to_fen(def), fen, "{}: FEN not stable", def.name);
            if ini::end::outcome(def, &pos).is_some() || ply == INI_PLIES {
                break;
            }
            let moves = gen::legal_moves(def, &pos);
            let Some(mv) = (if ply % 2 == 0 {
                moves.first()
            } else {
                moves.last()
            }) else {
                break;
            };
            let uci = pos.uci(def, mv);
            assert_eq!(
                gen::parse_uci(def, &pos, &uci).as_ref(),
                Some(mv),
                "{}: {uci} in {fen} does not read back",
                def.name
            );
            pos = gen::play(def, &pos, mv);
        }
    }
}

/// A whole state file: loading returns; a file that loads asks nothing
/// that panics (deadline, pending offers, the move list), and writes a
/// text that loads back to the same text.
pub fn state_file(text: &str) {
    let Ok(game) = Game::from_json(text) else {
        return;
    };
    let _ = game.deadline();
    let _ = game.pending_draw_offer();
    let _ = game.pending_takeback();
    for i in 0..game.moves().len() {
        let _ = game.numbered_move(i);
    }
    let written = game.to_json();
    // Nothing read is dropped: every key of the text is in what it writes.
    if let (Ok(read), Ok(wrote)) = (
        serde_json::from_str::<serde_json::Value>(text),
        serde_json::from_str::<serde_json::Value>(&written),
    ) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        key_paths(&read, "", &mut a);
        key_paths(&wrote, "", &mut b);
        for k in &a {
            assert!(b.contains(k), "the key {k} was read and dropped on save");
        }
    }
    let back = Game::from_json(&written)
        .unwrap_or_else(|e| panic!("cannot read its own file: {e}\n{written}"));
    assert_eq!(back.to_json(), written, "the file is not stable");
}

/// Every object key of a JSON value, as a path (`/players/white/name`);
/// null values count as absent.
fn key_paths(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                if !x.is_null() {
                    let path = format!("{at}/{k}");
                    key_paths(x, &path, out);
                    out.push(path);
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                key_paths(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A record, as PGN and as published text: reading returns, with every
/// issue located inside the text.
pub fn record(bytes: &[u8]) {
    for format in [Format::Pgn, Format::Published] {
        let _ = read_record(
            "<input>",
            bytes,
            Some(format),
            &Options::default(),
            &mut |g, _| {
                for issue in &g.issues {
                    assert!(issue.location.line >= 1, "{issue:?}");
                }
            },
        );
    }
}

/// The start position of each variant whose start text reads. (A
/// placeholder variant may have none; its own tests say so.)
pub fn starts() -> Vec<Position> {
    Variant::ALL
        .iter()
        .filter_map(|&v| Position::from_text(v, v.spec().start).ok())
        .collect()
}

/// A few positions of a variant: the start, positions a fixed walk of
/// legal moves reaches from it, and the positions of its perft table in
/// `fixtures/perft/` when there is one (`root` is the project folder).
pub fn sample_positions(variant: Variant, root: &str) -> Vec<Position> {
    let Ok(start) = Position::from_text(variant, variant.spec().start) else {
        return Vec::new();
    };
    let mut out = vec![start.clone()];
    let mut pos = start;
    for ply in 1..=12usize {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(&moves[(ply * 7) % moves.len()]);
        if [2, 5, 12].contains(&ply) {
            out.push(pos.clone());
        }
    }
    let path = format!("{root}/fixtures/perft/{}.perft", variant.name());
    if let Ok(text) = std::fs::read_to_string(path) {
        for case in read_table(&text).unwrap_or_default() {
            if let Ok(p) = Position::from_text(variant, &case.fen) {
                out.push(p);
            }
        }
    }
    out
}
