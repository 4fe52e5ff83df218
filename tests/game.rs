//! Correspondence games from the shell (DESIGN.md, "The game state file",
//! "Command line"): `new`, `move`, `moves FILE`, `show`, `history`,
//! `status`, `resign`, `draw`, `claim`, `takeback`; the file refused when
//! it disagrees with itself, left byte-for-byte unchanged by every failed
//! command, serialised between processes and never half-written.
//!
//! Time comes from `POSTAL_NOW`, so every test sets the clock.

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const T0: &str = "2025-03-01T09:00:00Z";

fn postal_at(now: &str) -> Command {
    let mut c = Command::cargo_bin("postal").expect("binary built");
    c.env("POSTAL_NOW", now)
        .env("XDG_DATA_HOME", crate::common::data_home());
    c
}

fn postal() -> Command {
    postal_at(T0)
}

/// A fresh folder for one test under the target directory.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("game")
        .join(name);
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/game")
        .join(name)
}

/// A copy of a fixture in `dir`, so that no test can change the fixture.
fn copy_fixture(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    fs::copy(fixture(name), &to).unwrap();
    to
}

fn out(a: assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

fn new_game(dir: &Path, variant: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join("game.json");
    postal()
        .args(["new", variant, "-o"])
        .arg(&file)
        .args(extra)
        .assert()
        .success();
    file
}

fn play(file: &Path, moves: &[&str]) {
    for m in moves {
        postal().arg("move").arg(file).arg(m).assert().success();
    }
}

/// Runs a command that must fail with `code`, and checks that the file is
/// byte-for-byte as it was.
fn refused(file: &Path, code: i32, args: &[&str], says: &str) {
    let before = fs::read(file).unwrap();
    let mut cmd = postal();
    // `@` stands for the file; without one, the file follows the command.
    if args.contains(&"@") {
        for a in args {
            if *a == "@" {
                cmd.arg(file);
            } else {
                cmd.arg(a);
            }
        }
    } else {
        cmd.arg(args[0]).arg(file).args(&args[1..]);
    }
    cmd.assert()
        .code(code)
        .stderr(predicate::str::starts_with("postal: error: "))
        .stderr(predicate::str::contains(says));
    assert_eq!(fs::read(file).unwrap(), before, "{args:?} changed the file");
}

fn json(file: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn a_short_game_from_the_shell() {
    let dir = scratch("short");
    let file = dir.join("game.json");
    let text = out(postal()
        .args(["new", "chess", "-o"])
        .arg(&file)
        .args([
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
            "--time-control",
            "3d",
        ])
        .assert()
        .success());
    assert!(text.contains(" r n b q k b n r  8"), "{text}");
    assert!(text.contains("White (Ana) to move; deadline 2025-03-04T09:00:00Z (in 3 days)"));

    let text = out(postal_at("2025-03-01T10:00:00Z")
        .arg("move")
        .arg(&file)
        .args(["e2-e4", "--comment", "as usual"])
        .assert()
        .success());
    assert!(text.starts_with("White played 1. e4\n"), "{text}");
    assert!(text.contains(" . . . . P . . .  4"), "{text}");
    assert!(text.contains("Black (Ben) to move; deadline 2025-03-04T10:00:00Z"));

    play(&file, &["e5", "Bc4", "Nc6", "Qh5", "Nf6"]);
    let moves = out(postal().arg("moves").arg(&file).assert().success());
    assert!(moves.lines().any(|l| l == "Qxf7#"), "{moves}");

    let text = out(postal_at("2025-03-02T08:00:00Z")
        .arg("move")
        .arg(&file)
        .arg("Qxf7")
        .assert()
        .success());
    assert!(text.starts_with("White played 4. Qxf7#\n"), "{text}");
    assert!(text.contains("  captures the black pawn on f7\n"), "{text}");
    assert!(
        text.contains("  game over: 1-0, checkmate (FI-4)\n"),
        "{text}"
    );

    let j = json(&file);
    assert_eq!(j["format"], "postal-game/1");
    assert_eq!(j["moves"][0]["played"], "e2-e4");
    assert_eq!(j["moves"][0]["canonical"], "e4");
    assert_eq!(j["moves"][0]["time"], "2025-03-01T10:00:00Z");
    assert_eq!(j["moves"][0]["comment"], "as usual");
    assert_eq!(j["moves"][6]["canonical"], "Qxf7#");
    assert_eq!(j["result"]["result"], "1-0");
    assert_eq!(j["result"]["reason"], "checkmate");

    let history = out(postal().arg("history").arg(&file).assert().success());
    assert!(history
        .contains("FIDE chess: Ana <ana@example.org> (White) v Ben <ben@example.org> (Black)"));
    assert!(
        history.contains("1. e4             2025-03-01T10:00:00Z  (as \"e2-e4\")  {as usual}"),
        "{history}"
    );
    assert!(
        history.contains("4. Qxf7#          2025-03-02T08:00:00Z  (as \"Qxf7\")"),
        "{history}"
    );
    assert!(history.contains("Game over: 1-0, checkmate (FI-4)"));

    // After the end: no moves, no acts, the file untouched.
    refused(
        &file,
        1,
        &["move", "a6"],
        "the game is over: 1-0, checkmate",
    );
    refused(&file, 1, &["resign"], "the game is over");
    refused(&file, 1, &["draw", "offer", "@"], "the game is over");
    refused(&file, 1, &["claim"], "the game is over");
    refused(&file, 1, &["takeback", "request", "@"], "the game is over");
    postal()
        .arg("moves")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the game is over"));
    postal()
        .args(["moves", "nosuch.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nosuch.json: no such game file"));
}

#[test]
fn show_formats_and_plies() {
    let dir = scratch("show");
    let file = copy_fixture(&dir, "sample.json");
    let ascii = out(postal().arg("show").arg(&file).assert().success());
    assert!(ascii.starts_with(" r . b q k b n r  8\n"), "{ascii}");
    assert!(ascii.contains("Last move: 3... a6"), "{ascii}");
    assert!(
        ascii.contains("White (Ana) to move; deadline 2025-03-10T10:00:00Z (in 9 days 1 hour)"),
        "{ascii}"
    );
    let uni = out(postal()
        .arg("show")
        .arg(&file)
        .args(["--format", "unicode"])
        .assert()
        .success());
    assert!(uni.starts_with(" ♜ · ♝ ♛ ♚ ♝ ♞ ♜  8\n"), "{uni}");
    let fen = out(postal()
        .arg("show")
        .arg(&file)
        .args(["--format", "fen", "--ply", "2"])
        .assert()
        .success());
    assert_eq!(
        fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"
    );
    let start = out(postal()
        .arg("show")
        .arg(&file)
        .args(["--ply", "0"])
        .assert()
        .success());
    assert!(start.contains("The start (ply 0 of 6)"), "{start}");
    let mid = out(postal()
        .arg("show")
        .arg(&file)
        .args(["--ply", "3"])
        .assert()
        .success());
    assert!(
        mid.contains("After 2. Nf3 (ply 3 of 6)\nBlack to move"),
        "{mid}"
    );
    let j: serde_json::Value = serde_json::from_str(&out(postal()
        .arg("show")
        .arg(&file)
        .args(["--format", "json"])
        .assert()
        .success()))
    .unwrap();
    assert_eq!(j["ply"], 6);
    assert_eq!(j["turn"], "white");
    assert_eq!(j["last_move"], "a6");
    assert_eq!(j["deadline"], "2025-03-10T10:00:00Z");
    assert_eq!(j["overdue"], false);
    postal()
        .arg("show")
        .arg(&file)
        .args(["--ply", "7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the game has 6 half-moves"));
    let svg_later = dir.join("board.txt");
    postal()
        .arg("show")
        .arg(&file)
        .args(["--format", "fen", "-o"])
        .arg(&svg_later)
        .assert()
        .success()
        .stdout("");
    assert!(fs::read_to_string(&svg_later)
        .unwrap()
        .starts_with("r1bqkbnr/"));
}

#[test]
fn illegal_and_unreadable_moves_leave_the_file_alone() {
    let dir = scratch("illegal");
    let file = new_game(&dir, "gardner", &[]);
    refused(&file, 1, &["move", "Ke3"], "illegal move");
    refused(
        &file,
        2,
        &["move", "Zz9"],
        "<move>:1:1: cannot read the move",
    );
    // A move is always for the side to move: Black's move when White is
    // to move, or White's when Black is, is illegal.
    let file = dir.join("chess.json");
    postal()
        .args(["new", "chess", "-o"])
        .arg(&file)
        .assert()
        .success();
    refused(&file, 1, &["move", "e5"], "no white pawn can move to e5");
    play(&file, &["e4"]);
    refused(&file, 1, &["move", "d4"], "no black pawn can move to d4");
    assert_eq!(json(&file)["moves"].as_array().unwrap().len(), 1);
}

#[test]
fn refuses_bad_files_naming_the_problem() {
    let dir = scratch("bad-files");
    let cases = [
        (
            "malformed.json",
            "malformed.json:4:3: not a readable game file: expected `,` or `}`",
        ),
        (
            "truncated.json",
            "not a readable game file: EOF while parsing",
        ),
        ("hand-edited.json", "move 5 (3. Bb6): illegal move"),
        ("stale-cache.json", "the cached position"),
        (
            "future.json",
            "from a newer version of postal; this version reads postal-game/1 only",
        ),
        (
            "not-a-game.json",
            "not a postal game file: it has no \"format\" field",
        ),
    ];
    for (name, says) in cases {
        let file = copy_fixture(&dir, name);
        for args in [
            vec!["show"],
            vec!["move", "O-O"],
            vec!["history"],
            vec!["draw", "offer", "@"],
            vec!["resign"],
            vec!["moves"],
        ] {
            refused(&file, 2, &args, says);
        }
    }
    // The caret diagnostic of a malformed file shows the line.
    postal()
        .arg("show")
        .arg(copy_fixture(&dir, "malformed.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4 |   \"start\": \"rnbqkbnr/"))
        .stderr(predicate::str::contains("  |   ^"));
}

#[test]
fn hand_edits_in_the_move_list_are_caught() {
    let dir = scratch("edits");
    let good = fs::read_to_string(fixture("sample.json")).unwrap();
    let file = dir.join("g.json");
    let edits = [
        // A canonical text that does not name the move played.
        (
            good.replacen("\"canonical\": \"Nf3\"", "\"canonical\": \"Nc3\"", 1),
            "move 3 (2. Nf3): recorded as \"Nc3\", but the move played is Nf3",
        ),
        // A move removed: the next ones no longer follow.
        (
            good.replacen(
                "    {\n      \"played\": \"e5\",\n      \"canonical\": \"e5\",\n      \"time\": \"2025-03-03T10:00:00Z\"\n    },\n",
                "",
                1,
            ),
            "move 2 (1... Nf3)",
        ),
        // A result the moves do not give.
        (
            good.replacen("\"result\": null", "\"result\": {\"result\": \"0-1\", \"reason\": \"resignation\"}", 1),
            "the recorded result is 0-1, resignation, but the moves and events give no result",
        ),
        // A resignation event that is not the last act.
        (
            good.replacen(
                "\"events\": []",
                "\"events\": [{\"time\": \"2025-03-09T00:00:00Z\", \"side\": \"black\", \"ply\": 6, \"act\": \"resign\"}, {\"time\": \"2025-03-09T00:00:00Z\", \"side\": \"white\", \"ply\": 6, \"act\": \"draw-offer\"}]",
                1,
            ),
            "ended the game, but other events follow it",
        ),
        // A draw accepted that nobody offered.
        (
            good.replacen(
                "\"events\": []",
                "\"events\": [{\"time\": \"2025-03-09T00:00:00Z\", \"side\": \"black\", \"ply\": 6, \"act\": \"draw-accept\"}]",
                1,
            ).replacen("\"result\": null", "\"result\": {\"result\": \"1/2-1/2\", \"reason\": \"agreement\"}", 1),
            "no draw offer is pending",
        ),
    ];
    for (text, says) in edits {
        assert_ne!(text, good, "the edit for {says:?} did not apply");
        fs::write(&file, &text).unwrap();
        refused(&file, 2, &["show"], says);
    }
}

#[test]
fn draw_offers_and_answers() {
    let dir = scratch("draw");
    let file = new_game(&dir, "chess", &[]);
    refused(
        &file,
        1,
        &["draw", "accept", "@"],
        "no draw offer is pending",
    );
    refused(
        &file,
        1,
        &["draw", "decline", "@"],
        "no draw offer is pending",
    );
    let text = out(postal()
        .args(["draw", "offer"])
        .arg(&file)
        .assert()
        .success());
    assert!(text.starts_with("White offers a draw"), "{text}");
    assert!(
        text.contains("White offers a draw: Black may accept or decline it"),
        "{text}"
    );
    refused(
        &file,
        1,
        &["draw", "offer", "@"],
        "White's draw offer is already pending",
    );
    refused(
        &file,
        1,
        &["draw", "accept", "@", "--as", "white"],
        "White cannot answer White's own draw offer",
    );
    // The offer stands through White's own move...
    play(&file, &["e4"]);
    refused(
        &file,
        1,
        &["draw", "offer", "@", "--as", "black"],
        "White has offered a draw",
    );
    let text = out(postal()
        .args(["draw", "decline"])
        .arg(&file)
        .assert()
        .success());
    assert_eq!(
        text.lines().next(),
        Some("Black declines White's draw offer")
    );
    refused(
        &file,
        1,
        &["draw", "accept", "@"],
        "no draw offer is pending",
    );
    // ...and lapses when the other side moves.
    postal()
        .args(["draw", "offer", "--as", "white"])
        .arg(&file)
        .assert()
        .success();
    play(&file, &["e5"]);
    refused(
        &file,
        1,
        &["draw", "accept", "@"],
        "no draw offer is pending",
    );
    postal()
        .args(["draw", "offer"])
        .arg(&file)
        .assert()
        .success();
    let text = out(postal()
        .args(["draw", "accept"])
        .arg(&file)
        .assert()
        .success());
    assert!(
        text.contains("Black accepts White's draw offer; game over: 1/2-1/2, agreement"),
        "{text}"
    );
    let j = json(&file);
    let acts: Vec<&str> = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["act"].as_str().unwrap())
        .collect();
    assert_eq!(
        acts,
        [
            "draw-offer",
            "draw-decline",
            "draw-offer",
            "draw-offer",
            "draw-accept"
        ]
    );
    assert_eq!(j["events"][4]["side"], "black");
    assert_eq!(j["events"][4]["ply"], 2);
    assert_eq!(j["events"][4]["time"], T0);
    assert_eq!(j["result"]["reason"], "agreement");
    let history = out(postal().arg("history").arg(&file).assert().success());
    assert!(
        history.contains("-- Black declines the draw offer, 2025-03-01T09:00:00Z"),
        "{history}"
    );
}

#[test]
fn resignation() {
    let dir = scratch("resign");
    let file = new_game(&dir, "chess", &[]);
    play(&file, &["e4"]);
    let text = out(postal().arg("resign").arg(&file).assert().success());
    assert_eq!(text, "Game over: 1-0, Black resigns\n");
    let file2 = dir.join("second.json");
    postal()
        .args(["new", "gardner", "-o"])
        .arg(&file2)
        .assert()
        .success();
    let text = out(postal()
        .arg("resign")
        .arg(&file2)
        .args(["--as", "black"])
        .assert()
        .success());
    assert_eq!(text, "Game over: 1-0, Black resigns\n");
    assert_eq!(json(&file2)["events"][0]["act"], "resign");
}

#[test]
fn takebacks_keep_the_retracted_moves() {
    let dir = scratch("takeback");
    let file = new_game(&dir, "chess", &[]);
    refused(
        &file,
        1,
        &["takeback", "request", "@"],
        "White has made no move to take back",
    );
    play(&file, &["e4", "e5", "Nf3"]);
    refused(
        &file,
        1,
        &["takeback", "accept", "@"],
        "no take-back request is pending",
    );
    // Black, to move, asks to take back its e5 (and White's reply).
    let text = out(postal()
        .args(["takeback", "request"])
        .arg(&file)
        .assert()
        .success());
    assert!(
        text.starts_with("Black asks to take back 1... e5, 2. Nf3"),
        "{text}"
    );
    refused(
        &file,
        1,
        &["takeback", "accept", "@", "--as", "black"],
        "Black cannot answer Black's own take-back request",
    );
    refused(
        &file,
        1,
        &["takeback", "request", "@", "--as", "white"],
        "already pending",
    );
    let text = out(postal()
        .args(["takeback", "accept"])
        .arg(&file)
        .assert()
        .success());
    assert!(
        text.starts_with("White agrees: 1... e5, 2. Nf3 taken back; Black to move"),
        "{text}"
    );
    assert!(text.contains(" . . . . P . . .  4"), "{text}");
    play(&file, &["c5"]);
    // White asks to take back its own last move: one half-move.
    postal()
        .args(["takeback", "request", "--as", "black"])
        .arg(&file)
        .assert()
        .success();
    let text = out(postal()
        .args(["takeback", "decline"])
        .arg(&file)
        .assert()
        .success());
    assert_eq!(
        text.lines().next(),
        Some("White refuses Black's take-back request")
    );
    let j = json(&file);
    let moves: Vec<&str> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["e4", "c5"]);
    let retracted: Vec<&str> = j["events"][1]["retracted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap())
        .collect();
    assert_eq!(retracted, ["e5", "Nf3"]);
    let history = out(postal().arg("history").arg(&file).assert().success());
    let order: Vec<&str> = history
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter(|w| ["e4", "e5", "Nf3", "c5", "Black", "White"].contains(w))
        .collect();
    assert_eq!(
        order,
        ["e4", "e5", "Nf3", "Black", "White", "c5", "Black", "White"],
        "{history}"
    );
}

#[test]
fn draw_claims_by_the_player_to_move() {
    let dir = scratch("claims");
    let file = new_game(&dir, "chess", &[]);
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    play(&file, &shuffle);
    refused(
        &file,
        1,
        &["claim", "repetition"],
        "the position has occurred 2 times, not three",
    );
    play(&file, &shuffle);
    refused(
        &file,
        1,
        &["claim", "repetition", "--as", "black"],
        "a draw is claimed by the player to move",
    );
    refused(
        &file,
        1,
        &["claim", "fifty"],
        "8 half-moves since the last capture or pawn move, not 100",
    );
    let text = out(postal().arg("claim").arg(&file).assert().success());
    assert_eq!(
        text,
        "Claim granted. Game over: 1/2-1/2, threefold repetition (FI-5)\n"
    );

    // Fivefold repetition ends the game by itself.
    let file = dir.join("fivefold.json");
    postal()
        .args(["new", "chess", "-o"])
        .arg(&file)
        .assert()
        .success();
    for _ in 0..4 {
        play(&file, &shuffle);
    }
    assert_eq!(json(&file)["result"]["reason"], "fivefold repetition");

    // Fifty moves: the count comes from the position.
    let file = dir.join("fifty.json");
    postal()
        .args(["new", "chess", "-o"])
        .arg(&file)
        .args(["--position", "4k3/8/8/8/8/8/8/4K2R w - - 99 80"])
        .assert()
        .success();
    refused(&file, 1, &["claim", "fifty"], "99 half-moves");
    play(&file, &["Rh2"]);
    let text = out(postal()
        .arg("claim")
        .arg(&file)
        .arg("fifty")
        .assert()
        .success());
    assert!(text.contains("1/2-1/2, fifty moves without capture or pawn move (FI-5)"));
}

#[test]
fn time_control_deadlines_and_forfeits() {
    let dir = scratch("time");
    let file = new_game(&dir, "chess", &["--time-control", "10d+1d"]);
    // White spends 2 days: 8 left, plus 1.
    postal_at("2025-03-03T09:00:00Z")
        .arg("move")
        .arg(&file)
        .arg("e4")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Black to move; deadline 2025-03-13T09:00:00Z (in 10 days)",
        ));
    postal_at("2025-03-04T09:00:00Z")
        .arg("move")
        .arg(&file)
        .arg("e5")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "deadline 2025-03-13T09:00:00Z (in 9 days)",
        ));
    refused(
        &file,
        1,
        &["claim", "time"],
        "White's deadline, 2025-03-13T09:00:00Z, has not passed",
    );
    let late = "2025-03-13T09:00:01Z";
    postal_at(late)
        .arg("show")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "deadline 2025-03-13T09:00:00Z (passed less than a minute ago)",
        ));
    let before = fs::read(&file).unwrap();
    postal_at(late)
        .arg("claim")
        .arg(&file)
        .args(["time", "--as", "white"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "White is to move: only Black can claim a time forfeit",
        ));
    assert_eq!(fs::read(&file).unwrap(), before);
    let text = out(postal_at(late).arg("claim").arg(&file).assert().success());
    assert_eq!(
        text,
        "Claim granted. Game over: 0-1, White lost on time (deadline 2025-03-13T09:00:00Z)\n"
    );

    let file = dir.join("none.json");
    postal()
        .args(["new", "chess", "-o"])
        .arg(&file)
        .assert()
        .success();
    refused(
        &file,
        1,
        &["claim", "time"],
        "this game has no time control",
    );
    postal()
        .args(["new", "chess", "-o"])
        .arg(dir.join("bad.json"))
        .args(["--time-control", "3 weeks"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("time control \"3 weeks\""));
    assert!(!dir.join("bad.json").exists());
    postal_at("yesterday")
        .arg("show")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("POSTAL_NOW"));
}

#[test]
fn new_refuses_to_overwrite_and_checks_its_arguments() {
    let dir = scratch("new");
    let file = new_game(&dir, "chess", &[]);
    let before = fs::read(&file).unwrap();
    postal()
        .args(["new", "gardner", "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(fs::read(&file).unwrap(), before);
    for (args, says) in [
        (vec!["--white", "Ana <ana>"], "is not a mail address"),
        (vec!["--position", "8/8 w - - 0 1"], "--position:1:"),
        (
            vec!["--position", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1"],
            "the start position is already the end of the game",
        ),
    ] {
        postal()
            .args(["new", "chess", "-o"])
            .arg(dir.join("other.json"))
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
        assert!(!dir.join("other.json").exists());
    }
    postal()
        .args(["new", "nosuch", "-o"])
        .arg(dir.join("other.json"))
        .assert()
        .code(2);
}

#[test]
fn other_variants_and_boards() {
    let dir = scratch("variants");
    for variant in ["gardner", "building"] {
        let file = dir.join(format!("{variant}.json"));
        postal()
            .args(["new", variant, "-o"])
            .arg(&file)
            .assert()
            .success();
        let moves = out(postal().arg("moves").arg(&file).assert().success());
        let first = moves
            .lines()
            .next()
            .unwrap_or_else(|| panic!("{variant}: no moves"));
        let text = out(postal()
            .arg("move")
            .arg(&file)
            .arg(first)
            .assert()
            .success());
        assert!(
            text.starts_with(&format!("White played 1. {first}")),
            "{variant}: {text}"
        );
        postal()
            .args(["show", "--format", "unicode"])
            .arg(&file)
            .assert()
            .success();
    }
}

#[test]
fn status_tables_a_folder() {
    let dir = scratch("status");
    postal()
        .args(["new", "chess", "-o"])
        .arg(dir.join("a.json"))
        .args([
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben",
            "--time-control",
            "3d",
        ])
        .assert()
        .success();
    postal()
        .args(["new", "gardner", "-o"])
        .arg(dir.join("b.json"))
        .assert()
        .success();
    postal()
        .arg("resign")
        .arg(dir.join("b.json"))
        .assert()
        .success();
    fs::copy(fixture("truncated.json"), dir.join("c.json")).unwrap();
    fs::write(dir.join("notes.txt"), "not a game").unwrap();
    let text = out(postal_at("2025-03-02T09:00:00Z")
        .arg("status")
        .arg(&dir)
        .assert()
        .success());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with("FILE    VARIANT  WHITE  BLACK  TO MOVE  DEADLINE"),
        "{text}"
    );
    assert!(
        lines[1].starts_with(
            "a.json  chess    Ana    Ben    White    2025-03-04T09:00:00Z (in 2 days)"
        ),
        "{text}"
    );
    assert!(
        lines[2].starts_with("b.json  gardner  White  Black  -"),
        "{text}"
    );
    assert!(lines[2].ends_with("0-1, White resigns"), "{text}");
    assert!(lines[3].contains("unreadable: "), "{text}");
    postal()
        .arg("status")
        .arg(dir.join("nosuch"))
        .assert()
        .code(2);
}

/// N processes move on one file at once: exactly the moves that report
/// success are in the file, in an order that replays, and every refusal
/// is a rule's (exit 1), never a damaged or unreadable file.
#[test]
fn concurrent_moves_are_serialised() {
    let dir = scratch("concurrent");
    for round in 0..3 {
        let file = dir.join(format!("round{round}.json"));
        postal()
            .args(["new", "chess", "-o"])
            .arg(&file)
            .assert()
            .success();
        let moves = [
            "e4", "e5", "d4", "d5", "Nf3", "Nc6", "c4", "c5", "Nc3", "Nf6", "g3", "g6",
        ];
        let bin = assert_cmd::cargo::cargo_bin("postal");
        let children: Vec<(&str, std::process::Child)> = moves
            .iter()
            .map(|m| {
                let child = std::process::Command::new(&bin)
                    .env("POSTAL_NOW", T0)
                    .env("XDG_DATA_HOME", crate::common::data_home())
                    .arg("move")
                    .arg(&file)
                    .arg(m)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                (*m, child)
            })
            .collect();
        let mut applied = Vec::new();
        for (m, child) in children {
            let o = child.wait_with_output().unwrap();
            match o.status.code() {
                Some(0) => applied.push(m.to_string()),
                Some(1) => {}
                other => panic!(
                    "{m}: exit {other:?}: {}",
                    String::from_utf8_lossy(&o.stderr)
                ),
            }
        }
        assert!(!applied.is_empty());
        // The file loads (so it replays) and holds exactly the moves applied.
        postal().arg("show").arg(&file).assert().success();
        let j = json(&file);
        let mut in_file: Vec<String> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["canonical"].as_str().unwrap().to_string())
            .collect();
        applied.sort();
        in_file.sort();
        assert_eq!(applied, in_file, "round {round}");
    }
}

/// A small random number generator for the kill test's delays.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// A writer killed at random points during saves of a large game: after
/// each kill the file is exactly the old version or the new one.
#[test]
fn a_killed_save_leaves_the_old_or_the_new_file() {
    let dir = scratch("kill");
    let file = new_game(&dir, "chess", &[]);
    // A large game: long comments make each save a megabyte or so.
    let comment = "a long comment about the position ".repeat(2000);
    for m in [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6", "O-O", "O-O",
    ] {
        postal()
            .arg("move")
            .arg(&file)
            .args([m, "--comment", &comment])
            .assert()
            .success();
    }
    let reference = dir.join("reference");
    fs::create_dir_all(&reference).unwrap();
    let ref_file = reference.join("game.json");
    let bin = assert_cmd::cargo::cargo_bin("postal");
    let command = |path: &Path, offer: bool| {
        let mut c = std::process::Command::new(&bin);
        c.env("POSTAL_NOW", T0)
            .env("XDG_DATA_HOME", crate::common::data_home())
            .arg("draw")
            .arg(if offer { "offer" } else { "decline" })
            .arg(path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        c
    };
    let mut rng = XorShift(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
            | 1,
    );
    let mut offer = true;
    let (mut olds, mut news, mut mid_write) = (0, 0, 0);
    for _ in 0..40 {
        let old = fs::read(&file).unwrap();
        // The new version: the same command run to the end on a copy.
        fs::write(&ref_file, &old).unwrap();
        let started = Instant::now();
        assert!(command(&ref_file, offer).status().unwrap().success());
        let full = started.elapsed();
        let new = fs::read(&ref_file).unwrap();
        assert_ne!(old, new);

        let mut child = command(&file, offer).spawn().unwrap();
        let delay = rng.below(full.as_micros() as u64 + 1);
        std::thread::sleep(Duration::from_micros(delay));
        let _ = child.kill();
        let _ = child.wait();
        let now = fs::read(&file).unwrap();
        let temps: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".tmp"))
            .collect();
        // A killed writer leaves at most its one temporary file, which
        // stays for the next save to replace.
        if !temps.is_empty() {
            mid_write += 1;
            assert_eq!(temps, [dir.join(".game.json.tmp")], "{temps:?}");
        }
        if now == new {
            news += 1;
            offer = !offer;
        } else {
            assert!(
                now == old,
                "after a kill the file is neither the old nor the new version"
            );
            olds += 1;
        }
    }
    eprintln!(
        "kills: {olds} left the old file, {news} the new one; {mid_write} were killed mid-save (a temporary file left)"
    );
    postal().arg("show").arg(&file).assert().success();
    // The next save replaces what a killed writer left behind.
    fs::write(dir.join(".game.json.tmp"), "partial").unwrap();
    postal()
        .args(["draw", if offer { "offer" } else { "decline" }])
        .arg(&file)
        .assert()
        .success();
    let leftovers: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Every act takes the file first, as `move` does (`postal draw FILE
/// offer`, `postal takeback FILE request`, `postal claim FILE fifty`);
/// the order of earlier versions (`postal draw offer FILE`) still works,
/// and a word that is no step is refused naming the steps.
#[test]
fn acts_take_the_file_first_and_the_old_order_still_works() {
    let dir = scratch("order");
    let file = new_game(&dir, "chess", &[]);
    play(&file, &["e4"]);
    let said = out(postal()
        .arg("draw")
        .arg(&file)
        .arg("offer")
        .assert()
        .success());
    assert!(said.starts_with("Black offers a draw"), "{said}");
    assert!(said.contains("(postal draw FILE accept|decline)"), "{said}");
    // The old order, as an alias.
    postal()
        .args(["draw", "decline"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("declines"));
    postal()
        .arg("takeback")
        .arg(&file)
        .arg("request")
        .args(["--as", "white"])
        .assert()
        .success();
    postal()
        .args(["takeback", "decline"])
        .arg(&file)
        .assert()
        .success();
    refused(
        &file,
        2,
        &["draw", "@", "maybe"],
        "expected offer, accept, decline",
    );
    refused(
        &file,
        2,
        &["takeback", "maybe", "@"],
        "expected request, accept, decline",
    );
    // A file named like a step is the file when the other word is a step.
    let odd = dir.join("offer");
    fs::copy(&file, &odd).unwrap();
    postal()
        .current_dir(&dir)
        .args(["draw", "offer", "offer"])
        .assert()
        .success();
    let _ = fs::remove_dir_all(&dir);
}

/// Runs a transcript's commands in a fresh folder (the repository's
/// `fixtures/` linked in), each echoed after `$ ` with its output, as a
/// shell session shows them.
fn run_transcript(name: &str, commands: &[&str]) -> String {
    let dir = scratch(&format!("readme-{name}"));
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        dir.join("fixtures"),
    )
    .unwrap();
    let bin = assert_cmd::cargo::cargo_bin("postal");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut script = String::new();
    for cmd in commands {
        script.push_str(&format!(
            "printf '%s\\n' '$ {}'\n",
            cmd.replace('\'', "'\\''")
        ));
        script.push_str(&format!("{cmd} 2>&1\n"));
    }
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .env("PATH", path)
        .env("XDG_DATA_HOME", crate::common::data_home())
        .env_remove("POSTAL_NOW")
        .output()
        .unwrap();
    let _ = fs::remove_dir_all(&dir);
    String::from_utf8(o.stdout).unwrap()
}

/// The README shows what the program prints: every ```console block
/// after a `<!-- transcript: NAME -->` line is its `$ ` commands run in a
/// shell with their output (`POSTAL_BLESS=1 cargo test --test suite game::readme`
/// rewrites the output from the commands in the README).
#[test]
fn readme_transcripts_are_current() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let mut readme = fs::read_to_string(&readme_path).unwrap();
    let bless = std::env::var_os("POSTAL_BLESS").is_some();
    let (mut at, mut names, mut stale) = (0, Vec::new(), Vec::new());
    while let Some(found) = readme[at..].find("<!-- transcript: ") {
        let marker = at + found + "<!-- transcript: ".len();
        let name = readme[marker..]
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        let open = marker + readme[marker..].find("```console\n").unwrap() + "```console\n".len();
        let close = open + readme[open..].find("```\n").unwrap();
        let commands: Vec<String> = readme[open..close]
            .lines()
            .filter_map(|l| l.strip_prefix("$ "))
            .map(str::to_string)
            .collect();
        assert!(!commands.is_empty(), "transcript {name} has no commands");
        let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
        let printed = run_transcript(&name, &commands);
        if bless {
            readme.replace_range(open..close, &printed);
            at = open + printed.len();
        } else {
            if readme[open..close] != printed {
                stale.push(format!("{name}:\n{printed}"));
            }
            at = close;
        }
        names.push(name);
    }
    assert!(names.len() >= 3, "transcripts: {names:?}");
    if bless {
        fs::write(&readme_path, &readme).unwrap();
    }
    assert!(
        stale.is_empty(),
        "README transcripts are stale: run `POSTAL_BLESS=1 cargo test --test suite game::readme`\n{}",
        stale.join("\n")
    );
}

// ---- each variant's own endings, through the game commands ---------------

#[test]
fn kr11_resigning_is_refused_in_kristensens_game() {
    let dir = scratch("kr11");
    let file = new_game(&dir, "kristensen", &[]);
    refused(&file, 1, &["resign"], "KR-11");
    // A draw by agreement stays allowed.
    postal()
        .args(["draw", "offer"])
        .arg(&file)
        .assert()
        .success();
    postal()
        .args(["draw", "accept"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(json(&file)["result"]["result"], "1/2-1/2");
}

#[test]
fn kr10_perpetual_check_ends_the_game_for_the_checker() {
    let dir = scratch("kr10");
    let file = new_game(
        &dir,
        "kristensen",
        &["--position", "8k/7pp/6R2/9/9/9/9/9/K8 w - - 0 1 -"],
    );
    play(&file, &["Rh7", "Kh9", "Rg7", "Ki9", "Rh7", "Kh9", "Rg7"]);
    let text = out(postal()
        .arg("move")
        .arg(&file)
        .arg("Ki9")
        .assert()
        .success());
    assert!(text.contains("0-1"), "{text}");
    assert!(text.contains("KR-10"), "{text}");
    assert_eq!(json(&file)["result"]["result"], "0-1");
    refused(&file, 1, &["move", "@", "Rh7"], "over");
}

#[test]
fn co9_the_king_forced_into_the_prison_loses() {
    let dir = scratch("co9");
    let file = new_game(
        &dir,
        "corral",
        &["--position", "5/5/5/R4/2k2/5/N3N/5/Q3K w - - 0 39"],
    );
    play(&file, &["Qc3"]);
    let moves = out(postal().arg("moves").arg(&file).assert().success());
    assert_eq!(moves.trim(), "Kc5-prison");
    let text = out(postal()
        .arg("move")
        .arg(&file)
        .arg("Kc5-prison")
        .assert()
        .success());
    assert!(text.contains("1-0"), "{text}");
    assert!(text.contains("CO-9"), "{text}");
    assert_eq!(json(&file)["result"]["result"], "1-0");
}

#[test]
fn di10_the_last_move_and_the_draw_it_makes() {
    // rules/disintegration.md CASE 1: Ka2-b3 takes all three black kings;
    // Black's last move Rd7-d2 takes White's last two: drawn.
    let dir = scratch("di10");
    let file = new_game(
        &dir,
        "disintegration",
        &["--position", "5/5/3r1/5/k4/kk3/5/K1K1K/R4 w - - 0 1"],
    );
    let text = out(postal()
        .arg("move")
        .arg(&file)
        .arg("Ka2-b3")
        .assert()
        .success());
    assert!(text.contains("wave 2"), "{text}");
    assert!(json(&file)["result"].is_null());
    let text = out(postal()
        .arg("move")
        .arg(&file)
        .arg("Rd7-d2")
        .assert()
        .success());
    assert!(text.contains("1/2-1/2"), "{text}");
    assert!(text.contains("DI-10"), "{text}");
}
