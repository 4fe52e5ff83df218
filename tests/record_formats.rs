//! Records in every variant's notation and from every source (issue 17):
//! random games written by postal as PGN and as published text read back
//! sound, and a corrupted copy is refused at the corrupted move; a played
//! game (`postal-game/1`) is a record for verify, convert and show, and
//! its PGN loads in python-chess and Fairy-Stockfish; the quirks of real
//! PGN files; Game Courier's `;`; convert keeps comments and variations.

mod playout;

use assert_cmd::Command;
use playout::{random_game, Rng};
use postal::record::game::{Game, Options, PlayedMove};
use postal::record::verify::{self, Format};
use postal::record::{locate, pgn, published, writer, Event, IssueKind, Location, Severity};
use postal::{Move, Position, Span, Variant};
use std::path::PathBuf;

fn postal() -> Command {
    Command::cargo_bin("postal").expect("binary built")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A record of `moves` from `start`, as the builder would keep it.
fn record(start: &Position, moves: &[Move], white: &str) -> Game {
    let mut history = vec![start.clone()];
    for m in moves {
        let next = history.last().unwrap().play_unchecked(m);
        history.push(next);
    }
    let end = history.last().unwrap().clone();
    let outcome = end
        .outcome()
        .or_else(|| start.variant.rules().history_outcome(&history));
    Game {
        index: 1,
        span: Span::default(),
        location: Location::default(),
        variant: start.variant,
        tags: vec![
            ("White".into(), white.into()),
            ("Black".into(), "Random".into()),
        ],
        start: start.clone(),
        moves: moves.iter().map(|m| PlayedMove::new(m.clone(), "")).collect(),
        comments: Vec::new(),
        plies: moves.len(),
        result: None,
        end,
        outcome,
        issues: Vec::new(),
        readable: true,
    }
}

/// The games of a text read in a format.
fn read(text: &str, format: Format, opts: &Options) -> Vec<Game> {
    let mut out = Vec::new();
    verify::read("x", text.as_bytes(), Some(format), opts, &mut |g, _| out.push(g))
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    out
}

/// The spans of the main line's moves as a reader sees them (the random
/// games have no variations).
fn move_spans(text: &str, format: Format) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut sink = |e: Event| {
        if let Event::Move { span, .. } = e {
            spans.push(span);
        }
    };
    match format {
        Format::Pgn => pgn::read(text, &mut sink),
        Format::Published => published::read(text, &mut sink),
    }
    spans
}

fn problems(g: &Game) -> Vec<String> {
    g.issues
        .iter()
        .filter(|i| i.severity != Severity::Note)
        .map(|i| {
            format!(
                "{}:{} {} {}",
                i.location.line,
                i.location.column,
                i.kind.as_str(),
                i.message
            )
        })
        .collect()
}

/// Replaces the move at ply `k` with the text of another ply that is
/// illegal there; checks that the copy is refused at that move, with its
/// line and column, and with no error before it. False when no other
/// ply's text is illegal at `k`.
fn corrupted_copy_is_refused(
    text: &str,
    format: Format,
    positions: &[Position],
    texts: &[String],
    k: usize,
) -> bool {
    let spans = move_spans(text, format);
    assert_eq!(spans.len(), texts.len(), "{format:?}: moves read\n{text}");
    let pos = &positions[k];
    let Some(bad) = texts.iter().find(|t| {
        matches!(
            pos.parse_move(t),
            Err(postal::MoveError::Illegal { .. })
        )
    }) else {
        return false;
    };
    let span = spans[k];
    let copy = format!("{}{bad}{}", &text[..span.start], &text[span.end..]);
    let want = locate(&copy, 1, Span::new(span.start, span.start + bad.len()));
    let games = read(&copy, format, &Options::default());
    let g = &games[0];
    let first = g
        .issues
        .iter()
        .find(|i| i.severity == Severity::Error)
        .unwrap_or_else(|| panic!("{format:?}: {bad:?} at ply {k} not refused\n{copy}"));
    assert_eq!(
        (first.kind, first.location.line, first.location.column),
        (IssueKind::IllegalMove, want.line, want.column),
        "{format:?}: {bad:?} at ply {k}: {:?}\n{copy}",
        problems(g)
    );
    assert!(!g.is_sound());
    true
}

/// Issue 17, deliverable 1: for every variant, random games of 60 turns
/// written by postal as PGN and as published text (with diagrams) verify
/// sound, move for move, and a copy with one move made illegal is refused
/// at that move and nowhere before it.
#[test]
fn random_games_of_every_variant_round_trip_through_pgn_and_published_text() {
    for v in Variant::ALL {
        let start = Position::start(v);
        for seed in 0..3 {
            let mut rng = Rng::new(1700 + seed);
            let moves = random_game(&start, 60, &mut rng);
            let game = record(&start, &moves, v.name());
            let mut positions = vec![start.clone()];
            let mut texts = Vec::new();
            for m in &moves {
                let pos = positions.last().unwrap();
                texts.push(pos.move_text(m));
                positions.push(pos.play_unchecked(m));
            }
            for (format, text) in [
                (Format::Pgn, writer::pgn(&game)),
                (Format::Published, writer::text(&game, 10)),
            ] {
                let games = read(&text, format, &Options::default());
                assert_eq!(games.len(), 1, "{v} {format:?}\n{text}");
                let g = &games[0];
                assert_eq!(g.variant, v, "{format:?}\n{text}");
                assert!(
                    g.is_sound() && problems(g).is_empty(),
                    "{v} seed {seed} {format:?}: {:?}\n{text}",
                    problems(g)
                );
                assert_eq!(g.plies, moves.len(), "{v} {format:?}\n{text}");
                let end = positions.last().unwrap().to_text();
                assert_eq!(g.end.to_text(), end, "{v} {format:?}");
                let mut refused = 0;
                for k in [moves.len() / 3, moves.len() / 2, moves.len() - 1] {
                    if corrupted_copy_is_refused(&text, format, &positions, &texts, k) {
                        refused += 1;
                    }
                }
                assert!(refused > 0, "{v} {format:?}: no corruption tried");
            }
        }
    }
}
