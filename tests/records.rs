//! Game records (issue 8): `postal verify` and `postal convert` against the
//! files in fixtures/records/, one test per kind of problem, the Swap
//! Chess page, round trips, and a 10,000-game file read in constant memory.

use crate::common::postal;
use postal::record::game::{read_diagram, Options};
use postal::record::verify::{self, Format};
use postal::record::{published, Event, IssueKind, Severity};
use postal::{Position, Variant};
use predicates::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/records/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn stdout_of(args: &[&str], code: i32) -> String {
    let out = postal()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The report of one problem fixture, with the summary line last.
fn report(name: &str, code: i32) -> String {
    stdout_of(&["verify", &fixture(&format!("problems/{name}"))], code)
}

// ---- sound records ------------------------------------------------------

#[test]
fn a_clean_pgn_file_is_sound() {
    let out = stdout_of(&["verify", &fixture("clean.pgn")], 0);
    assert_eq!(
        out,
        "verified 4 games in 1 file: 4 sound, 0 unsound, 0 unreadable; 0 errors, 0 warnings, 0 notes\n"
    );
}

#[test]
fn a_published_score_with_diagrams_and_a_problem_after_it() {
    // The diagram after 12...Rd8 is checked square by square; the problem
    // diagram after the game does not show its end, and a move number 1
    // follows, so it sets up the second game.
    let out = stdout_of(&["verify", &fixture("published.txt")], 0);
    assert!(
        out.starts_with("verified 2 games in 1 file: 2 sound"),
        "{out}"
    );
    let fen = stdout_of(
        &[
            "convert",
            &fixture("published.txt"),
            "--to",
            "fen",
            "--game",
            "2",
            "--ply",
            "0",
        ],
        0,
    );
    assert_eq!(fen, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\n");
    let end = stdout_of(&["convert", &fixture("published.txt"), "--to", "fen"], 0);
    assert_eq!(
        end,
        "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17\n"
    );
}

#[test]
fn several_games_a_file_with_and_without_tags() {
    let out = stdout_of(&["verify", &fixture("multi.pgn")], 1);
    assert!(
        out.ends_with("verified 5 games in 1 file: 4 sound, 1 unsound, 0 unreadable; 1 error, 0 warnings, 0 notes\n"),
        "{out}"
    );
    assert!(
        out.starts_with("multi.pgn:16:13: error: illegal move: no white king can move to e3")
            || out.contains("multi.pgn:16:13: error: illegal move: no white king can move to e3"),
        "{out}"
    );
}

// ---- one test per kind of problem ---------------------------------------

#[test]
fn an_unparsable_move() {
    let out = report("unparsable.pgn", 1);
    assert!(out.contains(
        "unparsable.pgn:3:17: error: cannot read the move \"Nc6x\": unexpected \"x\" after the move\n  |\n3 | 1. e4 e5 2. Nf3 Nc6x 3. Bb5 *\n  |                 ^^^^\n  = expected: a move such as Nf3, e2-e4, exd5, e8=Q, O-O, Qd1/g4, QKc2-c4 or Nb1-c3 @f3\n"
    ), "{out}");
    assert!(out.contains("  = found: Nc6x\n"), "{out}");
}

#[test]
fn an_illegal_move_says_why_and_names_the_rule() {
    let out = report("illegal.pgn", 1);
    assert!(out.starts_with(
        "fixtures/records/problems/illegal.pgn:3:18: error: illegal move: it would leave the black king attacked\n  |\n3 | 1. e4 d5 2. Bb5+ Kd7 3. Nf3 *\n  |                  ^^^\n  = expected: a legal move for Black at 2...\n  = found: Kd7\n  = rule: FI-3\n"
    ) || out.contains(
        "illegal.pgn:3:18: error: illegal move: it would leave the black king attacked\n  |\n3 | 1. e4 d5 2. Bb5+ Kd7 3. Nf3 *\n  |                  ^^^\n  = expected: a legal move for Black at 2...\n  = found: Kd7\n  = rule: FI-3\n"
    ), "{out}");
}

#[test]
fn an_ambiguous_move_lists_the_candidates() {
    let out = report("ambiguous.pgn", 1);
    assert!(out.contains(
        "ambiguous.pgn:5:4: error: ambiguous move: could be Rad1 or Rhd1\n  |\n5 | 1. Rd1 *\n  |    ^^^\n  = expected: one of Rad1, Rhd1\n  = found: Rd1\n"
    ), "{out}");
}

#[test]
fn wrong_check_marks_are_warnings() {
    let out = report("check-mark.pgn", 0);
    assert!(
        out.contains("check-mark.pgn:4:6: warning: the move does not give check\n"),
        "{out}"
    );
    assert!(out.contains(
        "check-mark.pgn:4:40: warning: the move mates: the mark should be #\n  |\n4 | 1. e4+ e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ 1-0\n  |                                        ^\n  = expected: #\n  = found: +\n  = rule: FI-4\n"
    ), "{out}");
    assert!(
        out.ends_with("1 sound, 0 unsound, 0 unreadable; 0 errors, 2 warnings, 0 notes\n"),
        "{out}"
    );
}

#[test]
fn a_result_that_does_not_match() {
    let out = report("result.pgn", 1);
    assert!(
        out.contains("result.pgn:2:10: error: the Result tag says 0-1, the movetext 1-0\n"),
        "{out}"
    );
    assert!(out.contains(
        "result.pgn:4:21: error: the result does not match the final position (checkmate)\n  |\n4 | 1. f3 e5 2. g4 Qh4# 1-0\n  |                     ^^^\n  = expected: 0-1\n  = found: 1-0\n  = rule: FI-4\n"
    ), "{out}");
}

#[test]
fn a_diagram_is_checked_square_by_square() {
    let out = report("diagram.txt", 1);
    assert!(out.contains("diagram.txt:8:12: error: f3: diagram shows ., game has N\n  |\n8 |  . . . . . . . N  3\n  |            ^\n"), "{out}");
    assert!(
        out.contains("diagram.txt:8:16: error: h3: diagram shows N, game has .\n"),
        "{out}"
    );
    assert!(out.ends_with("2 errors, 0 warnings, 0 notes\n"), "{out}");
}

#[test]
fn a_stray_token_is_a_warning_and_skipped() {
    let out = report("stray.txt", 0);
    assert!(out.starts_with(
        &format!("{}:3:4: warning: stray token `1` skipped\n  |\n3 | 1. 1 e2-e4 e7-e5 2. Ng1-f3\n  |    ^\n", fixture("problems/stray.txt"))
    ), "{out}");
}

#[test]
fn a_move_number_out_of_step_is_a_warning() {
    let out = report("move-number.pgn", 0);
    assert!(
        out.contains(
            "move-number.pgn:3:10: warning: move number 3. stands before White's move 2.\n"
        ),
        "{out}"
    );
}

#[test]
fn variations_are_checked_from_the_position_before_their_move() {
    let out = report("variation.pgn", 1);
    assert!(
        out.contains("variation.pgn:3:21: error: illegal move: no white bishop can move to b4\n"),
        "{out}"
    );
    assert!(out.ends_with("1 error, 0 warnings, 0 notes\n"), "{out}");
}

#[test]
fn after_an_error_verification_picks_the_game_up_again() {
    let out = report("resync.pgn", 1);
    assert!(
        out.contains("resync.pgn:3:24: error: illegal move: no white bishop can move to b4\n"),
        "{out}"
    );
    assert!(
        out.contains("resync.pgn:3:24: note: picked up again: the move at 3. taken as Bb5"),
        "{out}"
    );
    // The game goes on and the next error, 14 moves later, is found.
    assert!(
        out.contains("resync.pgn:5:39: error: illegal move: q9 is not on the board\n"),
        "{out}"
    );
}

#[test]
fn an_unknown_variant_lists_the_known_ones_and_exits_2() {
    let out = report("unknown-variant.pgn", 2);
    assert!(out.contains("unknown-variant.pgn:2:11: error: unknown variant \"Shogi\"; known variants: chess (FIDE chess), gardner (Gardner minichess), swap (Swap Chess)"), "{out}");
}

#[test]
fn an_unreadable_fen_points_into_the_tag() {
    let out = report("bad-fen.pgn", 2);
    assert!(
        out.contains("bad-fen.pgn:3:49: error: cannot read the FEN tag: expected a piece letter"),
        "{out}"
    );
    assert!(
        out.contains("\n  |                                                 ^\n"),
        "{out}"
    );
}

#[test]
fn carets_stand_under_the_token_on_lines_with_multibyte_text() {
    let out = report("utf8.pgn", 1);
    // `Bb4` is the 31st character of its line (and the 37th byte).
    assert!(out.contains(
        "utf8.pgn:3:31: error: illegal move: no white bishop can move to b4\n  |\n3 | 1. e4 {Zürich – «ok» ☃} e5 2. Bb4 *\n  |                               ^^^\n"
    ), "{out}");
}

#[test]
fn a_missing_file_is_unreadable() {
    postal()
        .args(["verify", "/nonexistent/game.pgn"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "/nonexistent/game.pgn: error: cannot read the record",
        ));
}

// ---- variants, tags and options -------------------------------------------

#[test]
fn variant_tags_are_names_or_aliases_and_the_option_overrides_them() {
    let file = scratch("gardner.pgn");
    std::fs::write(
        &file,
        "[Variant \"GARDNER Minichess\"]\n1. d3 cxd3 2. exd3 Nc3 *\n\n[Variant \"gardner\"]\n1. d3 *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    stdout_of(&["verify", f], 0);
    // As FIDE chess the same moves do not play.
    let out = stdout_of(&["verify", f, "--variant", "chess"], 1);
    assert!(out.contains("error: illegal move"), "{out}");
    postal()
        .args(["verify", f, "--variant", "shogi"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known variants: chess"));
}

#[test]
fn a_diagram_must_have_the_variant_board_shape() {
    let file = scratch("shape.txt");
    std::fs::write(
        &file,
        "1. e2-e4\n\n r n b q k  5\n p p p p p  4\n . . . . .  3\n P P P P P  2\n R N B Q K  1\n\n a b c d e\n",
    )
    .unwrap();
    let out = stdout_of(&["verify", file.to_str().unwrap()], 1);
    assert!(
        out.contains("error: the diagram has 5x5 squares; the board of FIDE chess has 8x8\n"),
        "{out}"
    );
}

#[test]
fn a_legend_maps_other_letters() {
    let file = scratch("legend.txt");
    std::fs::write(
        &file,
        " r n b q k b n r  8\n x x x x x x x x  7\n . . . . . . . .  6\n . . . . . . . .  5\n . . . . . . . .  4\n . . . . . . . .  3\n P P P P P P P P  2\n R N B Q K B N R  1\n\n a b c d e f g h\n\n1. e2-e4\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = stdout_of(&["verify", f], 2);
    assert!(
        out.contains(
            "error: a7: 'x' is not a piece letter; say what it stands for with --legend x=p"
        ),
        "{out}"
    );
    stdout_of(&["verify", f, "--legend", "x=p"], 0);
    postal()
        .args(["verify", f, "--legend", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--legend \"x\": expected X=Y"));
}

#[test]
fn the_json_report_has_the_same_content() {
    let out = stdout_of(&["verify", "--json", &fixture("problems/illegal.pgn")], 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v["format"], "postal-verify/1");
    let game = &v["files"][0]["games"][0];
    assert_eq!(game["sound"], false);
    assert_eq!(game["variant"], "chess");
    let issue = &game["issues"][0];
    assert_eq!(issue["severity"], "error");
    assert_eq!(issue["kind"], "illegal-move");
    assert_eq!(issue["line"], 3);
    assert_eq!(issue["column"], 18);
    assert_eq!(issue["width"], 3);
    assert_eq!(issue["source"], "1. e4 d5 2. Bb5+ Kd7 3. Nf3 *");
    assert_eq!(issue["found"], "Kd7");
    assert_eq!(issue["rule"], "FI-3");
    assert_eq!(issue["move"], "2...");
    assert_eq!(v["summary"]["errors"], 1);
    assert_eq!(v["summary"]["games"], 1);
    let out = stdout_of(
        &[
            "verify",
            "--json",
            "/nonexistent.pgn",
            &fixture("clean.pgn"),
        ],
        2,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["files"][0]["error"].is_string());
    assert_eq!(v["files"][1]["games"].as_array().unwrap().len(), 4);
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    postal()
        .args(["verify", &fixture("clean.pgn")])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

#[test]
fn standard_input_is_read_with_a_dash() {
    postal()
        .args(["verify", "-"])
        .write_stdin("1. e4 e5 2. Nf3 Nc6 *\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("1 sound"));
}

// ---- convert --------------------------------------------------------------

#[test]
fn canonical_pgn_reads_back_to_itself() {
    let pgn = stdout_of(&["convert", &fixture("clean.pgn"), "--to", "pgn"], 0);
    // The tag value other programs know (issue 17).
    assert!(pgn.contains("[Variant \"gardner\"]\n"), "{pgn}");
    // Comments (`;` ones too), NAGs, glyphs and variations are kept.
    assert!(
        pgn.contains("{a line comment} 1. f3 {a weak move} 1... e5 $2 2. g4 $6 (2. e4 Qh4+ 3. g3\nQxg3+ (3... Qxe4+ 4. Qe2) 4. hxg3 Bc5) 2... Qh4# 0-1"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.contains(
            "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7\n"
        ),
        "{pgn}"
    );
    let file = scratch("canonical.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let again = stdout_of(&["convert", file.to_str().unwrap(), "--to", "pgn"], 0);
    assert_eq!(again, pgn);
    // Published long algebraic becomes SAN.
    let pgn = stdout_of(
        &[
            "convert",
            &fixture("published.txt"),
            "--to",
            "pgn",
            "--game",
            "1",
        ],
        0,
    );
    assert!(
        pgn.contains("10. Nxb5 $1 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8\n{White gives up"),
        "{pgn}"
    );
}

#[test]
fn an_ascii_diagram_reads_back_as_the_same_position() {
    for (game, ply) in [("1", "5"), ("1", "24"), ("4", "3")] {
        let ascii = stdout_of(
            &[
                "convert",
                &fixture("clean.pgn"),
                "--to",
                "ascii",
                "--game",
                game,
                "--ply",
                ply,
            ],
            0,
        );
        let fen = stdout_of(
            &[
                "convert",
                &fixture("clean.pgn"),
                "--to",
                "fen",
                "--game",
                game,
                "--ply",
                ply,
            ],
            0,
        );
        let file = scratch(&format!("diagram-{game}-{ply}.txt"));
        std::fs::write(&file, &ascii).unwrap();
        let variant = if game == "4" { "gardner" } else { "chess" };
        let back = stdout_of(
            &[
                "convert",
                file.to_str().unwrap(),
                "--to",
                "fen",
                "--variant",
                variant,
            ],
            0,
        );
        let fields = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&back), fields(&fen), "{ascii}");
    }
}

#[test]
fn stacks_and_the_prison_read_back_from_the_ascii_renderer() {
    // Corral Chess: stacks in widened columns, 5x9.
    let start = Position::start(Variant::Corral);
    let text = postal::render::ascii::position(&start, Default::default());
    let opts = Options {
        variant: Some(Variant::Corral),
        ..Options::default()
    };
    let mut games = Vec::new();
    verify::read(
        "x.txt",
        text.as_bytes(),
        Some(Format::Published),
        &opts,
        &mut |g, _| games.push(g),
    )
    .unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].issues.is_empty(), "{:?}\n{text}", games[0].issues);
    assert!(games[0].start.board.same_placement(&start.board), "{text}");
}

#[test]
fn holes_read_back_from_the_ascii_renderer() {
    // A grown Building Chess board: blank cells are squares not on it.
    let mut board = postal::board::Board::rect(3, 2);
    board.add_square(postal::Square::new(0, 1));
    let text = postal::render::ascii::board(&board, Default::default());
    let (raw, _) = postal::record::lexer::diagram_block(&text, 0).expect("a diagram");
    let mut issues = Vec::new();
    let d = read_diagram(
        &raw,
        Default::default(),
        Variant::Building,
        &[],
        &mut issues,
        &mut false,
    )
    .unwrap();
    assert!(issues.is_empty());
    let mut on: Vec<_> = d
        .cells
        .iter()
        .filter(|c| c.1.is_some())
        .map(|c| c.0)
        .collect();
    let mut want: Vec<_> = board.squares().collect();
    on.sort();
    want.sort();
    assert_eq!(on, want, "{text}");
    assert_eq!(d.cells.iter().filter(|c| c.1.is_none()).count(), 1);
}

/// A file of several games converts every sound one and names each
/// unsound one, with its location, before the summary (exit 1).
#[test]
fn convert_writes_the_sound_games_and_names_the_unsound() {
    let clean = std::fs::read_to_string(fixture("clean.pgn")).unwrap();
    let bad = std::fs::read_to_string(fixture("problems/illegal.pgn")).unwrap();
    let path = scratch("mixed.pgn");
    std::fs::write(&path, format!("{clean}\n{bad}\n{clean}")).unwrap();
    let output = postal()
        .args(["convert", path.to_str().unwrap(), "--to", "pgn"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let pgn = String::from_utf8(output.stdout).unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    let per_copy = clean.matches("[Event ").count();
    assert_eq!(pgn.matches("[Event ").count(), 2 * per_copy, "{pgn}");
    assert!(err.contains("mixed.pgn:"), "{err}");
    let bad_index = per_copy + 1;
    let total = 2 * per_copy + 1;
    assert!(
        err.contains(&format!(
            "postal: game {bad_index} is not sound: not converted"
        )),
        "{err}"
    );
    let summary = err
        .find(&format!(
            "postal: error: 1 of {total} games are not sound (game {bad_index} at {}:",
            path.display()
        ))
        .expect(&err);
    assert!(err.find("mixed.pgn:").unwrap() < summary, "{err}");
    // A single board says which game it drew.
    postal()
        .args(["convert", path.to_str().unwrap(), "--to", "fen"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "has {total} games; drawn: game 1"
        )));
}

#[test]
fn convert_refuses_an_unsound_record_and_bad_plies() {
    let out = postal()
        .args(["convert", &fixture("problems/illegal.pgn"), "--to", "pgn"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    let summary = err
        .find("postal: error: 1 of 1 game is not sound (game 1 at ")
        .expect(&err);
    // The diagnostic comes before the summary that refers to it.
    let diagnostic = err.find("illegal.pgn:").expect(&err);
    assert!(diagnostic < summary, "{err}");
    postal()
        .args([
            "convert",
            &fixture("clean.pgn"),
            "--to",
            "fen",
            "--ply",
            "99",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--ply goes from 0 to 33"));
}

#[test]
fn convert_writes_json_and_files() {
    let out = scratch("out.json");
    postal()
        .args([
            "convert",
            &fixture("clean.pgn"),
            "--to",
            "json",
            "--game",
            "3",
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["format"], "postal-record/1");
    let g = &v["games"][0];
    assert_eq!(g["start"], "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30");
    assert_eq!(g["moves"][0]["move"], "Ra8#");
    assert_eq!(g["moves"][0]["number"], 30);
    assert_eq!(g["outcome"]["reason"], "checkmate");
}

// ---- the Swap Chess page --------------------------------------------------

fn swap_page() -> String {
    std::fs::read_to_string(fixture("swap-chess.txt")).unwrap()
}

#[test]
fn the_swap_page_reads_as_a_problem_then_a_game() {
    let text = swap_page();
    let mut games: Vec<Vec<String>> = Vec::new();
    let mut diagrams = Vec::new();
    let mut strays = Vec::new();
    let mut comments = 0;
    let mut restarts = 0;
    published::read(&text, &mut |e| match e {
        Event::BeginGame { .. } => games.push(Vec::new()),
        Event::Move { text, .. } => games.last_mut().unwrap().push(text.to_string()),
        Event::Diagram { diagram, span } => diagrams.push((games.len(), diagram, span)),
        Event::Issue(i) => strays.push((i.kind, i.span)),
        Event::Comment { .. } => comments += 1,
        Event::EndGame { next_follows: true } => restarts += 1,
        _ => {}
    });
    assert_eq!(games.len(), 2);
    assert_eq!(restarts, 1);
    assert_eq!(games[0], vec!["Qb6/b1/d3=N/c4/f7++"]);
    assert_eq!(games[1].len(), 71);
    assert_eq!(games[1][..4], ["e2-e4", "e7-e5", "Nb1-c3", "Nb8-c6"]);
    assert_eq!(games[1][6], "Qd1/g4/g7/h8");
    assert_eq!(games[1][70], "Rc7:c8++");
    // The rules' numbered list is prose, the stray `1` of `1. 1 Qb6/...`
    // a warning.
    assert_eq!(strays.len(), 1);
    assert_eq!(strays[0].0, IssueKind::StrayToken);
    let at = text.find("1. 1 Qb6").unwrap() + 3;
    assert_eq!(strays[0].1.start, at);
    // Parenthesised commentary: 8 remarks in the game.
    assert_eq!(comments, 8);
    // Two diagrams in the problem, twelve in the game; all read, White
    // pawns drawn as O detected (one note per game).
    assert_eq!(diagrams.iter().filter(|d| d.0 == 1).count(), 2);
    assert_eq!(diagrams.iter().filter(|d| d.0 == 2).count(), 12);
    let mut issues = Vec::new();
    let mut noted = false;
    let boards: Vec<_> = diagrams
        .iter()
        .map(|(_, raw, span)| {
            read_diagram(raw, *span, Variant::Chess, &[], &mut issues, &mut noted)
                .expect("diagram reads")
        })
        .collect();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(
        (issues[0].kind, issues[0].severity),
        (IssueKind::Legend, Severity::Note)
    );
    let placement = |d: &postal::record::game::DiagramBoard| {
        let mut b = postal::board::Board::rect(8, 8);
        for &(sq, st, _) in &d.cells {
            b.set(sq, st.unwrap());
        }
        postal::notation::fen::write_placement(&b)
    };
    assert_eq!(placement(&boards[0]), "3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6");
    assert_eq!(placement(&boards[1]), "3rk3/5Q2/1B6/8/2r5/3b4/5R2/1n6");
    assert_eq!(
        placement(&boards[2]),
        "r1bqk1nQ/pppp1prp/2n5/2b1p3/4P1p1/2N5/PPPP1P1P/R1BPKBNR"
    );
    // The final position.
    assert_eq!(
        placement(&boards[13]),
        "1kR5/p7/2Q2p2/1PP5/p2Kb2r/3p2r1/1PP5/P1P1P3"
    );
}

#[test]
fn the_swap_page_first_diagram_sets_up_game_one() {
    // Game one starts from the problem diagram (which has no white king:
    // SW-12 allows it), game two from the start position.
    let opts = Options {
        variant: Some(Variant::Swap),
        ..Options::default()
    };
    let mut games = Vec::new();
    verify::read(
        "swap-chess.txt",
        swap_page().as_bytes(),
        None,
        &opts,
        &mut |g, _| games.push(g),
    )
    .unwrap();
    assert_eq!(games.len(), 2);
    assert!(games[0].issues.iter().all(|i| i.kind != IssueKind::Setup));
    assert_eq!(
        games[0].start.to_text().split(' ').next(),
        Some("3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6")
    );
    assert_eq!(games[1].start, Position::start(Variant::Swap));
    assert_eq!(games[1].location.line, 51);
}

/// The Swap Chess page verified as published. Its expected report is
/// fixtures/records/swap-chess.verify; it needs the Swap Chess rules
/// (bless with `POSTAL_BLESS=1 cargo test --test suite records::swap_page` and
/// review that the report names only real inconsistencies: the published
/// `++` of the mate-in-one, which Black escapes with 1...Bd3/c4/f7, and the
/// stray `1` token).
#[test]
fn the_swap_page_verifies_as_published() {
    let out = postal()
        .args([
            "verify",
            "fixtures/records/swap-chess.txt",
            "--variant",
            "swap",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = format!(
        "exit {}\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout)
    );
    let expected = fixture("swap-chess.verify");
    if std::env::var_os("POSTAL_BLESS").is_some() {
        std::fs::write(&expected, &text).unwrap();
    }
    assert_eq!(text, std::fs::read_to_string(&expected).unwrap_or_default());
}

// ---- 10,000 games in constant memory --------------------------------------

/// Counts the bytes allocated and not yet freed by the thread that asked,
/// and their peak, so one test can measure its own memory while others run.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = LIVE.try_with(|l| {
                l.set(l.get() + delta);
                let _ = PEAK.try_with(|p| p.set(p.get().max(l.get())));
            });
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        track(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        track(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A PGN stream of `n` games made on the fly, never held whole.
struct GeneratedGames {
    n: usize,
    i: usize,
    buf: Vec<u8>,
    at: usize,
}

const GAME: &str =
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1/2-1/2\n\n";

impl std::io::Read for GeneratedGames {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            if self.i == self.n {
                return Ok(0);
            }
            self.i += 1;
            self.buf.clear();
            self.buf.extend_from_slice(
                format!(
                    "[Event \"Game {}\"]\n[Result \"1/2-1/2\"]\n\n{GAME}",
                    self.i
                )
                .as_bytes(),
            );
            self.at = 0;
        }
        let k = out.len().min(self.buf.len() - self.at);
        out[..k].copy_from_slice(&self.buf[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

/// Verifies `n` generated games, returning the count of sound games and
/// the peak memory the reading held.
fn peak_for(n: usize) -> (usize, isize) {
    let input = GeneratedGames {
        n,
        i: 0,
        buf: Vec::new(),
        at: 0,
    };
    let mut sound = 0;
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTING.with(|c| c.set(true));
    let res = verify::read(
        "gen.pgn",
        input,
        Some(Format::Pgn),
        &Options::default(),
        &mut |g, _| {
            sound += g.is_sound() as usize;
        },
    );
    COUNTING.with(|c| c.set(false));
    assert_eq!(res.unwrap(), n);
    (sound, PEAK.with(|p| p.get()))
}

#[test]
fn ten_thousand_games_are_read_in_constant_memory() {
    let (sound_small, peak_small) = peak_for(100);
    let (sound, peak) = peak_for(10_000);
    assert_eq!((sound_small, sound), (100, 10_000));
    // A hundred times the games, the same memory: what one game needs.
    assert!(
        peak < peak_small + 16 * 1024,
        "peak {peak} bytes for 10,000 games, {peak_small} for 100"
    );
    assert!(peak < 1 << 20, "peak {peak} bytes");
}

#[test]
fn ten_thousand_games_from_a_file() {
    let file = scratch("ten-thousand.pgn");
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&format!("[Event \"{i}\"]\n\n{GAME}"));
    }
    std::fs::write(&file, text).unwrap();
    let out = stdout_of(&["verify", file.to_str().unwrap()], 0);
    assert_eq!(
        out,
        "verified 10000 games in 1 file: 10000 sound, 0 unsound, 0 unreadable; 0 errors, 0 warnings, 0 notes\n"
    );
}

#[test]
fn convert_to_diagrams_and_a_replay_page() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("game.html");
    postal()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "convert",
            "fixtures/records/swap-chess.txt",
            "--variant",
            "swap",
            "--game",
            "2",
            "--to",
            "html",
            "-o",
        ])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Qd1/g4/g7/h8"));
    let out = postal()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "convert",
            "fixtures/records/swap-chess.txt",
            "--variant",
            "swap",
            "--game",
            "2",
            "--to",
            "svg",
            "--ply",
            "7",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let svg = String::from_utf8(out).unwrap();
    assert!(svg.starts_with("<svg"));
    // After 4. Qd1/g4/g7/h8 (ply 7) the white queen stands on h8.
    assert!(svg.contains(" r . b q k . n Q  8"), "{svg}");
    let png = dir.path().join("b.png");
    postal()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "convert",
            "fixtures/records/swap-chess.txt",
            "--variant",
            "swap",
            "--to",
            "png",
            "-o",
        ])
        .arg(&png)
        .assert()
        .success();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}
