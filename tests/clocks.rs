//! Correspondence clocks from the shell (issue 32): time controls as
//! players write them (`10/50d`, `30d+1d/45d`, `free 24h`, `double
//! 20d`), leave, conditional moves and events without forfeits, each with
//! the clock set by `POSTAL_NOW`. The same by mail, through the referee,
//! is in tests/referee.rs.

use assert_cmd::Command;
use chrono::{DateTime, Duration, Utc};
use std::fs;
use std::path::{Path, PathBuf};

const T0: &str = "2027-01-04T09:00:00Z";

fn at(days: i64) -> String {
    let t0: DateTime<Utc> = T0.parse().unwrap();
    (t0 + Duration::days(days))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        .to_string()
}

fn postal_at(days: i64) -> Command {
    let mut c = Command::cargo_bin("postal").expect("binary built");
    c.env("POSTAL_NOW", at(days))
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("XDG_DATA_HOME", crate::common::data_home());
    c
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("clocks")
        .join(name);
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn ok(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The error of a refused command, its exit code checked, the file
/// unchanged.
fn refused(c: &mut Command, file: &Path, code: i32) -> String {
    let before = fs::read(file).unwrap();
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::read(file).unwrap(), before, "the file is unchanged");
    String::from_utf8(out.stderr).unwrap()
}

fn new_game(dir: &Path, tc: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join("game.json");
    ok(postal_at(0)
        .args(["new", "chess", "-o"])
        .arg(&file)
        .args(["--white", "Ana", "--black", "Ben", "--time-control", tc])
        .args(extra));
    file
}

fn play_at(file: &Path, days: i64, mv: &str) -> String {
    ok(postal_at(days).arg("move").arg(file).arg(mv))
}

fn show_at(file: &Path, days: i64) -> String {
    ok(postal_at(days).arg("show").arg(file))
}

/// 24 plies of a Ruy Lopez.
const OPENING: [&str; 24] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5",
];

/// A 10/50d game over two periods: White thinks 2 days a move, Black 1;
/// each player's clock runs only on their move, unused time carries over.
#[test]
fn ten_moves_in_fifty_days_over_two_periods() {
    let dir = scratch("period");
    let file = new_game(&dir, "10/50d", &[]);
    let out = show_at(&file, 0);
    assert!(
        out.contains("Time control: 10/50d (10 moves in 50 days, repeating)\n"),
        "{out}"
    );
    assert!(
        out.contains("Ana (White): used nothing; 50 days left for 10 moves."),
        "{out}"
    );
    let mut day = 0;
    for (i, mv) in OPENING.iter().enumerate() {
        day += if i % 2 == 0 { 2 } else { 1 };
        play_at(&file, day, mv);
        if i == 3 {
            // After 2 moves each: however long Ben thought, Ana has 46.
            let out = show_at(&file, day);
            assert!(
                out.contains("Ana (White): used 4 days; 46 days left for 8 moves."),
                "{out}"
            );
            assert!(
                out.contains(
                    "Ben (Black): used 2 days; 48 days left at the next move for 8 moves."
                ),
                "{out}"
            );
        }
    }
    // 12 moves each: Ana used 24 days of 100, Ben 12.
    let out = show_at(&file, day + 1);
    assert!(
        out.contains("Ana (White): used 25 days; 75 days left for 8 moves."),
        "{out}"
    );
    assert!(
        out.contains("Ben (Black): used 12 days; 88 days left at the next move for 8 moves."),
        "{out}"
    );
    assert!(out.contains(&format!("deadline {}", at(day + 76))), "{out}");
    // The PGN says it in its TimeControl tag.
    let pgn = ok(postal_at(day).args(["show", "--format", "pgn"]).arg(&file));
    assert!(pgn.contains("[TimeControl \"10/4320000\"]"), "{pgn}");
}

/// 30 days, plus 1 a move, at most 45 banked: at the cap, a move made at
/// once banks nothing more.
#[test]
fn a_capped_fischer_clock_at_its_cap() {
    let dir = scratch("cap");
    let file = new_game(&dir, "30d+1d/45d", &[]);
    for mv in OPENING {
        play_at(&file, 0, mv);
    }
    let out = show_at(&file, 0);
    assert!(
        out.contains("Time control: 30d+1d/45d (30 days for the game, plus 1 day a move, at most 45 days banked)\n"),
        "{out}"
    );
    assert!(
        out.contains("Ana (White): used nothing; 42 days left."),
        "{out}"
    );
    // 16 moves for Ana and 15 for Ben, at once: both at the cap.
    for mv in ["Kh2", "Kh8", "Kg1", "Kg8", "Kh2", "Kh8", "Kg1"] {
        play_at(&file, 0, mv);
    }
    let out = show_at(&file, 0);
    assert!(
        out.contains("Ben (Black): used nothing; 45 days left."),
        "{out}"
    );
    assert!(out.contains(&format!("deadline {}", at(45))), "{out}");
    // PGN's tag cannot say a cap: a comment does.
    let pgn = ok(postal_at(0).args(["show", "--format", "pgn"]).arg(&file));
    assert!(!pgn.contains("[TimeControl"), "{pgn}");
    assert!(
        pgn.contains("Time control: 30d+1d/45d (30 days for the game, plus 1 day a move, at most 45 days banked)"),
        "{pgn}"
    );
}

/// `free 24h` and `double 20d`: the first day of a move is not counted,
/// and of what is, the days beyond 20 count double.
#[test]
fn free_hours_and_days_beyond_twenty_counting_double() {
    let dir = scratch("double");
    let file = new_game(&dir, "60d+0d free 24h double 20d", &[]);
    // 26 days on 1. e4: 1 free, 25 counted, 20 + 2 x 5 = 30 charged.
    play_at(&file, 26, "e4");
    let out = show_at(&file, 26);
    assert!(
        out.contains("Time control: 60d+0d free 24h double 20d (60 days for the game; the first 24 hours of each move free; time beyond 20 days on one move counts double)"),
        "{out}"
    );
    assert!(
        out.contains("Ana (White): used 30 days; 30 days left at the next move."),
        "{out}"
    );
    // Ben's 60 days: 1 free, 20 plain, then 40 at double in 20.
    assert!(out.contains(&format!("deadline {}", at(26 + 41))), "{out}");
    play_at(&file, 26 + 21, "e5");
    let out = show_at(&file, 26 + 21);
    assert!(
        out.contains("Ben (Black): used 20 days; 40 days left at the next move."),
        "{out}"
    );
}

/// A leave stops the player's clock and moves the deadline; an
/// overdraft, a leave from the past, and a leave after a passed deadline
/// are refused, the file untouched.
#[test]
fn leave_over_a_deadline() {
    let dir = scratch("leave");
    let file = new_game(&dir, "3d", &["--leave-days", "20"]);
    let out = show_at(&file, 0);
    assert!(out.contains(&format!("deadline {}", at(3))), "{out}");
    let out = ok(postal_at(0).arg("leave").arg(&file).args([
        "--as",
        "white",
        "--from",
        &at(1)[..10],
        "--days",
        "10",
    ]));
    assert!(
        out.contains(&format!(
            "White takes leave for 10 days from {} to {} (UTC)",
            at(1).replace("09:00:00", "00:00:00"),
            at(11).replace("09:00:00", "00:00:00")
        )),
        "{out}"
    );
    // 1 day (less 9 hours) before the leave, the rest after it.
    assert!(out.contains(&format!("deadline {}", at(13))), "{out}");
    assert!(out.contains("Ana (White) is on leave from"), "{out}");
    // Ben cannot claim at the old deadline.
    let err = refused(postal_at(5).arg("claim").arg(&file).arg("time"), &file, 1);
    assert!(err.contains("has not passed"), "{err}");
    // Overdraft: 10 of 20 taken.
    let err = refused(
        postal_at(0).arg("leave").arg(&file).args([
            "--as",
            "white",
            "--from",
            &at(20)[..10],
            "--days",
            "11",
        ]),
        &file,
        1,
    );
    assert!(
        err.contains("White has 10 days of leave left in 2027 (of 20 a year) and asks for 11 days"),
        "{err}"
    );
    // Overlapping, and from the past.
    let err = refused(
        postal_at(0).arg("leave").arg(&file).args([
            "--as",
            "white",
            "--from",
            &at(5)[..10],
            "--days",
            "2",
        ]),
        &file,
        1,
    );
    assert!(err.contains("already on leave"), "{err}");
    let err = refused(
        postal_at(2).arg("leave").arg(&file).args([
            "--as",
            "black",
            "--from",
            &at(0)[..10],
            "--days",
            "2",
        ]),
        &file,
        1,
    );
    assert!(err.contains("cannot begin in the past"), "{err}");
    // After the moved deadline has passed, no leave covers it, and Ben
    // wins on time.
    let err = refused(
        postal_at(14)
            .arg("leave")
            .arg(&file)
            .args(["--as", "white", "--days", "3"]),
        &file,
        1,
    );
    assert!(
        err.contains("deadline passed at") && err.contains("leave cannot be taken after it"),
        "{err}"
    );
    let out = ok(postal_at(14).arg("claim").arg(&file).arg("time"));
    assert!(out.contains("0-1"), "{out}");
    let history = ok(postal_at(14).arg("history").arg(&file));
    assert!(
        history.contains("White takes leave for 10 days"),
        "{history}"
    );
}

/// A conditional line of three pairs played out, then one cleared; the
/// lines never in what the opponent sees.
#[test]
fn conditional_moves_played_out_and_cleared() {
    let dir = scratch("conditional");
    let file = new_game(&dir, "3d", &[]);
    play_at(&file, 0, "e4");
    play_at(&file, 1, "e5");
    // Ben leaves three pairs after his move.
    let out = ok(postal_at(1)
        .arg("conditional")
        .arg(&file)
        .arg("2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6")
        .arg("2. Bc4 Nf6"));
    assert!(out.contains("if 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6"), "{out}");
    assert!(out.contains("if 2. Bc4 Nf6"), "{out}");
    // Not in what Ana sees.
    for seen in [
        show_at(&file, 1),
        ok(postal_at(1).args(["show", "--format", "pgn"]).arg(&file)),
        ok(postal_at(1).arg("history").arg(&file)),
    ] {
        assert!(!seen.contains("Nc6") && !seen.contains("Bc4"), "{seen}");
    }
    // Illegal, wrongly numbered, one-sided and contradictory lines are
    // refused, the file untouched.
    for (line, says) in [
        ("2. Nf3 Nc6 3. Bb5 O-O", "O-O"),
        ("3. Nf3 Nc6", "numbered 3"),
        ("2. d4", "give your answer"),
        ("2. Nf3 d6", "two answers to Nf3: Nc6 and d6"),
    ] {
        let mut c = postal_at(1);
        c.arg("conditional").arg(&file).arg("2. Nf3 Nc6").arg(line);
        let err = refused(&mut c, &file, 1);
        assert!(err.contains(says), "{line}: {err}");
    }
    // Ana plays into the line three times: each answer at once.
    for (days, mv, answer) in [
        (2, "Nf3", "2... Nc6"),
        (3, "Bb5", "3... a6"),
        (4, "Ba4", "4... Nf6"),
    ] {
        let out = play_at(&file, days, mv);
        assert!(
            out.contains(&format!(
                "Black answered at once with {answer}: a conditional move left in advance"
            )),
            "{out}"
        );
    }
    let json = fs::read_to_string(&file).unwrap();
    assert!(
        !json.contains("\"conditional\": {"),
        "lines used up: {json}"
    );
    assert_eq!(json.matches("\"conditional\": true").count(), 3, "{json}");
    // A line not played is cleared by the move that leaves it.
    ok(postal_at(4)
        .arg("conditional")
        .arg(&file)
        .args(["--as", "black", "5. O-O Be7"]));
    let out = ok(postal_at(4)
        .arg("conditional")
        .arg(&file)
        .args(["--as", "black"]));
    assert!(out.contains("if 5. O-O Be7"), "{out}");
    let out = play_at(&file, 5, "d3");
    assert!(!out.contains("answered at once"), "{out}");
    let out = ok(postal_at(5)
        .arg("conditional")
        .arg(&file)
        .args(["--as", "black"]));
    assert!(out.contains("Black has left no conditional moves"), "{out}");
    // The record marks the answers.
    let pgn = ok(postal_at(5).args(["show", "--format", "pgn"]).arg(&file));
    assert_eq!(pgn.matches("a conditional answer").count(), 3, "{pgn}");
}

/// An event that ignores silence: no forfeit on time, by claim or sweep.
#[test]
fn no_forfeit_games_are_never_lost_on_time() {
    let dir = scratch("no-forfeit");
    let file = new_game(&dir, "3d", &["--no-forfeit"]);
    let err = refused(postal_at(9).arg("claim").arg(&file).arg("time"), &file, 1);
    assert!(err.contains("no forfeit on time"), "{err}");
    // A late move is played.
    play_at(&file, 9, "e4");
}

/// Files written before these controls load as before, and the new keys
/// are read and refused as every key is.
#[test]
fn old_files_load_and_new_keys_are_checked() {
    let dir = scratch("old");
    let file = new_game(&dir, "10d+1d", &[]);
    play_at(&file, 1, "e4");
    let json = fs::read_to_string(&file).unwrap();
    assert!(
        !json.contains("leave_days") && !json.contains("no_forfeit"),
        "{json}"
    );
    assert!(show_at(&file, 1).contains("Ana (White): used 1 day; 10 days left at the next move."));
    let bad = json.replace(
        "\"time_control\": \"10d+1d\"",
        "\"time_control\": \"10/50x\"",
    );
    fs::write(&file, bad).unwrap();
    let err = refused(postal_at(1).arg("show").arg(&file), &file, 2);
    assert!(err.contains("10/50x"), "{err}");
}
