//! Records in every variant's notation and from every source (issue 17):
//! random games written by postal as PGN and as published text read back
//! sound, and a corrupted copy is refused at the corrupted move; a played
//! game (`postal-game/1`) is a record for verify, convert and show, and
//! its PGN loads in python-chess and Fairy-Stockfish; the quirks of real
//! PGN files; Game Courier's `;`; convert keeps comments and variations.

use crate::playout::{random_game, Rng};
use assert_cmd::Command;
use postal::record::game::{Game, Options, PlayedMove};
use postal::record::verify::{self, Format};
use postal::record::{locate, pgn, published, writer, Event, IssueKind, Location, Severity};
use postal::{Move, Position, Span, Variant};
use std::path::PathBuf;

fn postal() -> Command {
    crate::common::postal()
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
        moves: moves
            .iter()
            .map(|m| PlayedMove::new(m.clone(), ""))
            .collect(),
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
    verify::read("x", text.as_bytes(), Some(format), opts, &mut |g, _| {
        out.push(g)
    })
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
    let Some(bad) = texts
        .iter()
        .find(|t| matches!(pos.parse_move(t), Err(postal::MoveError::Illegal { .. })))
    else {
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
                (
                    Format::Published,
                    postal::render::score::score(&game, 10, false),
                ),
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

/// A variation after a Building turn whose placement is off the grid:
/// `(0,1)` never opens a variation, `(1. d3 @(0,5))` does.
#[test]
fn coordinate_squares_never_open_a_variation() {
    let text = "[Variant \"Building Chess\"]\n\n1. e3 @(0,1) (1. d3 @(0,5)) 1... a3 @(0,2) 2. Ra1-(0,1) @(0,3) *\n";
    let opts = Options {
        keep_moves: true,
        ..Options::default()
    };
    let g = &read(text, Format::Pgn, &opts)[0];
    assert!(g.is_sound() && g.issues.is_empty(), "{:?}", problems(g));
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.moves[0].variations.len(), 1);
    assert!(
        writer::pgn(g).contains("1. e3 @(0,1) (1. d3 @(0,5)) 1... a3 @(0,2) 2. R(0,1) @(0,3) *")
    );
    // The same in published text, where a parenthesis is commentary.
    let text = "Building Chess\n\n1. e3 @(0,1) a3 @(0,2) (a fine square) 2. Ra1-(0,1)@(0,3)\n";
    let opts = Options {
        variant: Some(Variant::Building),
        ..Options::default()
    };
    let g = &read(text, Format::Published, &opts)[0];
    assert!(g.is_sound() && g.issues.is_empty(), "{:?}", problems(g));
    assert_eq!(g.plies, 3);
}

// ---- a played game as a record (deliverable 2) ---------------------------

fn in_dir(dir: &std::path::Path, args: &[&str]) -> String {
    let out = postal()
        .current_dir(dir)
        .env("POSTAL_NOW", "2025-03-01T09:00:00Z")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Runs fixtures/records/pgn_check.py: python-chess and pyffish load the
/// games of the PGN file and end where postal does (`ends`, one for each
/// game). Missing packages fail with the install line.
fn python_agrees(pgn: &std::path::Path, variant: &str, ends: &[String]) {
    let script = format!(
        "{}/fixtures/records/pgn_check.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(variant)
        .arg(pgn)
        .args(ends)
        .output()
        .expect("python3 runs (the mail tests need it too)");
    let said = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(0) => {}
        Some(3) => panic!(
            "a Python package is missing: {said} (run `python3 -m pip install chess pyffish`, as tests/run.sh does)"
        ),
        _ => panic!(
            "{variant}: {said}{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(pgn).unwrap()
        ),
    }
}

/// Issue 17, deliverable 2: a game file verifies, converts to every form
/// (with --ply) and shows as PGN and HTML; its PGN has the roster, the
/// time control, the comments and the acts, reads back sound, and loads
/// in python-chess and Fairy-Stockfish.
#[test]
fn a_played_game_is_a_record_everywhere_a_record_is_read() {
    let dir = scratch("played");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    in_dir(
        &dir,
        &[
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
            "--time-control",
            "3d",
        ],
    );
    for args in [
        &["move", "game.json", "e4", "--comment", "best by test"][..],
        &["draw", "offer", "game.json", "--as", "black"],
        &["move", "game.json", "e5"],
        &["move", "game.json", "Nf3"],
        &["takeback", "request", "game.json", "--as", "white"],
        &["takeback", "accept", "game.json", "--as", "black"],
        &["move", "game.json", "Nc3"],
        &["move", "game.json", "Nf6"],
    ] {
        in_dir(&dir, args);
    }
    let report = in_dir(&dir, &["verify", "game.json"]);
    assert!(
        report.starts_with("verified 1 game in 1 file: 1 sound"),
        "{report}"
    );
    let pgn = in_dir(&dir, &["convert", "game.json", "--to", "pgn"]);
    for part in [
        "[Event \"FIDE chess by mail\"]\n[Site \"?\"]\n[Date \"2025.03.01\"]\n[Round \"-\"]\n[White \"Ana\"]\n[Black \"Ben\"]\n[Result \"*\"]\n[TimeControl \"1/259200\"]\n",
        "1. e4 {best by test} {Black offers a draw} 1... e5",
        "{White asks to take back a move} {Black agrees to take back Nf3} 2. Nc3 Nf6 *",
    ] {
        assert!(pgn.contains(part), "{part:?} missing:\n{pgn}");
    }
    assert_eq!(in_dir(&dir, &["show", "game.json", "--format", "pgn"]), pgn);
    std::fs::write(dir.join("game.pgn"), &pgn).unwrap();
    let report = in_dir(&dir, &["verify", "game.pgn"]);
    assert!(report.contains("1 sound, 0 unsound"), "{report}");
    let end = in_dir(&dir, &["show", "game.json", "--format", "fen"]);
    assert_eq!(in_dir(&dir, &["convert", "game.json", "--to", "fen"]), end);
    assert_eq!(
        in_dir(&dir, &["convert", "game.json", "--to", "fen", "--ply", "1"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
    let ascii = in_dir(
        &dir,
        &["convert", "game.json", "--to", "ascii", "--ply", "2"],
    );
    assert!(ascii.contains(" p p p p . p p p  7"), "{ascii}");
    let json = in_dir(&dir, &["convert", "game.json", "--to", "json"]);
    assert!(
        json.contains("\"written\": \"e4\"") && json.contains("postal-record/1"),
        "{json}"
    );
    let svg = in_dir(&dir, &["convert", "game.json", "--to", "svg", "--ply", "3"]);
    assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{svg:.80}");
    in_dir(
        &dir,
        &["convert", "game.json", "--to", "png", "-o", "board.png"],
    );
    assert!(std::fs::read(dir.join("board.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
    for page in [
        in_dir(
            &dir,
            &["convert", "game.json", "--to", "html", "--ply", "2"],
        ),
        in_dir(
            &dir,
            &["show", "game.json", "--format", "html", "--ply", "2"],
        ),
    ] {
        assert!(
            page.contains("<html") && page.contains("Nc3"),
            "{page:.200}"
        );
    }
    python_agrees(&dir.join("game.pgn"), "chess", &[end.trim().to_string()]);

    // Gardner from a position of its own, ended by resignation: Variant
    // "gardner", SetUp and FEN; python-chess reads it, pyffish plays it.
    in_dir(
        &dir,
        &[
            "new",
            "gardner",
            "-o",
            "mini.json",
            "--position",
            "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
            "--time-control",
            "10d+1d",
        ],
    );
    for args in [
        &["move", "mini.json", "c3"][..],
        &["move", "mini.json", "a3"],
        &["move", "mini.json", "Qb3"],
        &["move", "mini.json", "cxb3"],
        &["resign", "mini.json", "--as", "white"],
    ] {
        in_dir(&dir, args);
    }
    let pgn = in_dir(&dir, &["show", "mini.json", "--format", "pgn"]);
    for part in [
        "[Result \"0-1\"]",
        "[TimeControl \"864000+86400\"]",
        "[Variant \"gardner\"]",
        "2. Qb3 cxb3 {White resigns} {Game over: 0-1",
    ] {
        assert!(pgn.contains(part), "{part:?} missing:\n{pgn}");
    }
    std::fs::write(dir.join("mini.pgn"), &pgn).unwrap();
    assert!(in_dir(&dir, &["verify", "mini.pgn"]).contains("1 sound"));
    let end = in_dir(&dir, &["show", "mini.json", "--format", "fen"]);
    python_agrees(&dir.join("mini.pgn"), "gardner", &[end.trim().to_string()]);
}

/// Deliverable 2 for random games: chess and Gardner PGN written by postal
/// load in python-chess and pyffish and end in the same position.
#[test]
fn random_chess_and_gardner_pgn_load_in_python_chess_and_fairy_stockfish() {
    for (v, name) in [(Variant::Chess, "chess"), (Variant::Gardner, "gardner")] {
        let start = Position::start(v);
        let mut file = String::new();
        let mut ends = Vec::new();
        for seed in 0..4 {
            let moves = random_game(&start, 60, &mut Rng::new(1717 + seed));
            let g = record(&start, &moves, name);
            file.push_str(&writer::pgn(&g));
            ends.push(g.end.to_text());
        }
        let path = scratch(&format!("random-{name}.pgn"));
        std::fs::write(&path, file).unwrap();
        python_agrees(&path, name, &ends);
    }
}

// ---- the quirks of real PGN files (deliverable 4) -------------------------

/// The games of a text read as a file named `path` would be (format
/// guessed, PGN streamed game by game).
fn read_as(path: &str, text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    verify::read(
        path,
        text.as_bytes(),
        None,
        &Options::default(),
        &mut |g, _| out.push(g),
    )
    .unwrap();
    out
}

fn kinds(g: &Game) -> Vec<(&'static str, Severity, usize, usize)> {
    g.issues
        .iter()
        .map(|i| {
            (
                i.kind.as_str(),
                i.severity,
                i.location.line,
                i.location.column,
            )
        })
        .collect()
}

#[test]
fn a_byte_order_mark_starts_no_game_of_its_own() {
    let text = "\u{feff}[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n";
    // As .pgn, and as a file whose format is guessed from its first line.
    for path in ["bom.pgn", "bom.txt"] {
        let games = read_as(path, text);
        assert_eq!(games.len(), 2, "{path}");
        assert_eq!(games[0].tag("Event"), Some("a"));
        assert_eq!(games[1].tag("Event"), Some("b"));
        assert!(games.iter().all(|g| g.is_sound() && g.issues.is_empty()));
        assert_eq!(games[1].location.line, 5);
    }
}

#[test]
fn a_tag_section_without_moves_is_a_game_of_its_own_with_a_warning() {
    let text = "[Event \"a\"]\n[White \"X\"]\n\n[Event \"b\"]\n[White \"Y\"]\n\n1. e4 e5 *\n";
    let games = read_as("t.pgn", text);
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].tag("White"), games[0].plies), (Some("X"), 0));
    assert_eq!(kinds(&games[0]), vec![("tag", Severity::Warning, 1, 1)]);
    assert!(games[0].issues[0].message.contains("without moves"));
    assert_eq!((games[1].tag("White"), games[1].plies), (Some("Y"), 2));
    assert!(games[1].issues.is_empty(), "{:?}", games[1].issues);
    // The same when the reader is handed the whole text at once.
    let mut begun = 0;
    pgn::read(text, &mut |e| {
        begun += matches!(e, Event::BeginGame { .. }) as usize
    });
    assert_eq!(begun, 2);
}

#[test]
fn a_repeated_tag_is_a_warning_naming_both_lines() {
    let text = "[White \"A\"]\n[Black \"B\"]\n[white \"C\"]\n\n1. e4 *\n";
    let g = &read_as("d.pgn", text)[0];
    assert_eq!(kinds(g), vec![("tag", Severity::Warning, 3, 9)]);
    assert_eq!(g.issues[0].related_line, Some(1));
    assert_eq!(g.tag("White"), Some("A"));
    assert!(g.is_sound());
    let path = scratch("repeated.pgn");
    std::fs::write(&path, text).unwrap();
    let out = postal().arg("verify").arg(&path).assert().success();
    let report = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        report.contains("repeated.pgn:3:9: warning: the tag white is given again")
            && report.contains("= first given on: line 1"),
        "{report}"
    );
}

#[test]
fn a_move_number_for_the_wrong_side_is_a_warning() {
    let g = &read_as("n.pgn", "1. e4 1. e5 2. Nf3 *\n")[0];
    assert_eq!(kinds(g), vec![("move-number", Severity::Warning, 1, 7)]);
    assert!(g.issues[0].message.contains("Black's move 1..."));
    assert_eq!((g.plies, g.is_sound()), (3, true));
}

#[test]
fn escape_lines_and_semicolon_comments_are_read_and_kept() {
    let text = "% exported by a database\n[Event \"x\"]\n\n1. e4 ; the king's pawn\n% another escape\ne5 2. Nf3 *\n";
    let opts = Options {
        keep_moves: true,
        ..Options::default()
    };
    let g = &read(text, Format::Pgn, &opts)[0];
    assert!(g.is_sound() && g.issues.is_empty(), "{:?}", g.issues);
    assert_eq!(g.plies, 3);
    assert!(writer::pgn(g).contains("1. e4 {the king's pawn} 1... e5 2. Nf3 *"));
}

#[test]
fn null_moves_are_a_clear_error() {
    for (text, col) in [
        ("1. e4 -- 2. d4 *", 7),
        ("1. e4 Z0 2. d4 *", 7),
        ("1. e4 e5 2. -- d5 *", 13),
    ] {
        let g = &read_as("z.pgn", text)[0];
        let e = &g.issues[0];
        assert_eq!(
            (e.kind, e.severity, e.location.line, e.location.column),
            (IssueKind::UnparsableMove, Severity::Error, 1, col),
            "{text}"
        );
        assert!(e.message.contains("is a null move"), "{}", e.message);
    }
    // In published text too (`Z0`; `--` there is a dash of prose).
    let g = &read_as("z.txt", "A game: 1. e4 Z0 2. d4\n")[0];
    assert_eq!(g.issues[0].kind, IssueKind::UnparsableMove);
    assert!(g.issues[0].message.contains("is a null move"));
}

#[test]
fn coordinate_moves_without_a_separator_are_read_with_a_note() {
    let g = &read_as("c.pgn", "1. g1f3 e7e5 2. e2e4 *\n")[0];
    assert_eq!(kinds(g), vec![("notation", Severity::Note, 1, 4)]);
    assert!(
        g.issues[0].message.contains("taken for Nf3"),
        "{}",
        g.issues[0].message
    );
    assert_eq!((g.plies, g.is_sound()), (3, true));
    // A promotion, with the check mark engines leave out (a warning).
    let text = "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a7a8q Kd7 *\n";
    let g = &read_as("q.pgn", text)[0];
    assert!(g.is_sound(), "{:?}", g.issues);
    let note = g
        .issues
        .iter()
        .find(|i| i.kind == IssueKind::Notation)
        .unwrap();
    assert!(note.message.contains("taken for a8=Q+"), "{}", note.message);
}

// ---- Game Courier's `;` (deliverable 5) -----------------------------------

#[test]
fn game_courier_parts_joined_by_semicolons_are_one_turn() {
    let building = Options {
        variant: Some(Variant::Building),
        ..Options::default()
    };
    // Coordinates without a piece letter, and the placement as a part.
    for text in [
        "1. b1-c3; @f3 b4xc3;@b6 2. e2-e3; @(0,3)\n",
        "1. Nb1-c3;@f3 b4xc3; @b6 2. e3 @(0,3)\n",
    ] {
        let g = &read(text, Format::Published, &building)[0];
        assert!(
            g.is_sound() && g.issues.is_empty(),
            "{text}: {:?}",
            problems(g)
        );
        assert_eq!(g.plies, 3, "{text}");
    }
    let pgn = "[Variant \"Building Chess\"]\n\n1. b1-c3; @f3 b4xc3 @b6 *\n";
    let g = &read(pgn, Format::Pgn, &Options::default())[0];
    assert!(g.is_sound() && g.issues.is_empty(), "{:?}", problems(g));
    // Where a turn has one part, the second is refused, never skipped.
    let g = &read(
        "1. e2-e4; e7-e5 2. Nf3\n",
        Format::Published,
        &Options::default(),
    )[0];
    let e = &g.issues[0];
    assert_eq!(
        (e.kind, e.location.line, e.location.column, e.location.width),
        (IssueKind::UnparsableMove, 1, 4, 12)
    );
    assert!(
        e.message.contains("`;` joins the parts of one turn"),
        "{}",
        e.message
    );
    let g = &read("1. e2-e4;\n", Format::Published, &Options::default())[0];
    assert_eq!(g.issues[0].kind, IssueKind::UnparsableMove);
    // And on the command line.
    postal()
        .args([
            "perft",
            "building",
            "1",
            "--moves",
            "1. b1-c3; @f3 b4xc3; @b6",
        ])
        .assert()
        .success();
    let out = postal()
        .args(["perft", "chess", "1", "--moves", "1. e2-e4; e7-e5"])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("`;` joins the parts of one turn"), "{err}");
}

// ---- convert keeps what it can (deliverable 6) ----------------------------

#[test]
fn convert_to_pgn_carries_comments_nags_and_variations_over() {
    let text = "[Event \"x\"]\n\n{Before} 1. e4 {king's pawn} (1. d4 {queen's pawn} 1... d5 (1... Nf6 $5)) 1... e5! 2. Nf3 $1 {develops} *\n";
    let path = scratch("commented.pgn");
    std::fs::write(&path, text).unwrap();
    let out = postal()
        .arg("convert")
        .arg(&path)
        .args(["--to", "pgn"])
        .assert()
        .success();
    let pgn = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let want = "{Before} 1. e4 {king's pawn} (1. d4 {queen's pawn} 1... d5 (1... Nf6 $5))\n1... e5 $1 2. Nf3 $1 {develops} *\n";
    assert!(pgn.contains(want), "{pgn}");
    let again = scratch("commented-again.pgn");
    std::fs::write(&again, &pgn).unwrap();
    let out = postal()
        .arg("convert")
        .arg(&again)
        .args(["--to", "pgn"])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        pgn
    );
}

// ---- variant names (deliverable 3) ----------------------------------------

#[test]
fn variant_tags_other_tools_write_are_read_and_listed() {
    for tag in [
        "gardner",
        "GARDNER",
        "Gardner minichess",
        "MiniChess",
        "gardner's minichess",
    ] {
        let text = format!("[Variant \"{tag}\"]\n\n1. c3 a3 *\n");
        let g = &read(&text, Format::Pgn, &Options::default())[0];
        assert_eq!((g.variant, g.is_sound()), (Variant::Gardner, true), "{tag}");
    }
    for tag in ["chess", "Standard", "From Position", "CHESS"] {
        let text = format!("[Variant \"{tag}\"]\n\n1. e4 *\n");
        assert_eq!(
            read(&text, Format::Pgn, &Options::default())[0].variant,
            Variant::Chess
        );
    }
    let out = postal().arg("variants").assert().success();
    let list = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for v in Variant::ALL {
        assert!(
            list.contains(&format!("PGN tag [Variant \"{}\"]", v.tag())),
            "{list}"
        );
    }
    assert!(
        list.contains("also read: Gardner minichess, minichess"),
        "{list}"
    );
}
