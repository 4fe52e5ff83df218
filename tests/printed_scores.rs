//! Printed scores read as printed (issue 43, point 6): castling typeset
//! with en or em dashes, piece letters of other languages (named with
//! `--language` or found from the text, an error when the letters fit
//! languages that read them differently).

use crate::common::postal;
use predicates::prelude::PredicateBooleanExt;
use std::path::{Path, PathBuf};

fn file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn pgn_of(path: &Path, extra: &[&str]) -> String {
    let out = postal()
        .args(["convert", path.to_str().unwrap(), "--to", "pgn"])
        .args(extra)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// `4. 0–0 Nf6` was skipped as prose and the score called sound; castling
/// with an en dash, an em dash or a minus sign is read as castling, in
/// published text and in PGN.
#[test]
fn typeset_castling_with_en_and_em_dashes_is_read() {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 d6 4. 0\u{2013}0 Bg4 5. d3 Qd7 6. Nc3 \
0\u{2014}0\u{2014}0 7. Be3 Kb8 8. a3 Nf6\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0\u{2212}0 Nf6\n";
    for (name, text) in [
        ("score.txt", text.to_string()),
        (
            "score.pgn",
            text.split("\n\n")
                .map(|g| format!("[Event \"x\"]\n\n{} *\n\n", g.trim()))
                .collect(),
        ),
    ] {
        let (_dir, path) = file(name, &text);
        postal()
            .args(["verify", path.to_str().unwrap()])
            .assert()
            .code(0);
        let pgn = pgn_of(&path, &[]);
        assert!(pgn.contains("4. O-O Bg4"), "{name}: {pgn}");
        assert!(pgn.contains("6. Nc3 O-O-O"), "{name}: {pgn}");
        assert!(pgn.contains("4. O-O Nf6"), "{name}: {pgn}");
    }
    // A dash between different letters is not castling.
    let (_dir, path) = file("bad.pgn", "[Event \"x\"]\n\n1. e4 e5 2. O\u{2013}0 *\n");
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(1);
}

/// German (K D T L S) and French (R D T F C) scores, found from their
/// letters or named; Spanish named; letters that fit languages reading
/// them differently are refused with a clear error, until named.
#[test]
fn piece_letters_of_other_languages_are_read() {
    let english = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Qe2 Qe8";
    let german = "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7 6. Te1 b5 7. Lb3 d6 \
8. c3 0-0 9. h3 Sb8 10. d4 Sbd7 11. De2 De8";
    let french = "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 Cf6 5. O-O Fe7 6. Te1 b5 7. Fb3 d6 \
8. c3 O-O 9. h3 Cb8 10. d4 Cbd7 11. De2 De8";
    let (_d, plain) = file("english.txt", english);
    let expected = pgn_of(&plain, &[]);
    for (name, text) in [("german.txt", german), ("french.txt", french)] {
        let (_dir, path) = file(name, text);
        postal()
            .args(["verify", path.to_str().unwrap()])
            .assert()
            .code(0);
        assert_eq!(pgn_of(&path, &[]), expected, "{name}, found from the text");
    }
    // Named: Spanish writes the French letters but A for the bishop.
    let spanish = french.replace('F', "A");
    let (_dir, path) = file("spanish.txt", &spanish);
    assert_eq!(pgn_of(&path, &["--language", "spanish"]), expected);
    // S and D alone: a German knight, or a Czech bishop.
    let (_dir, path) = file("short.txt", "1. e4 e5 2. Sf3 Dh4\n");
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicates::str::contains(
            "the piece letters D, S could be czech, danish, german, norwegian or swedish",
        ));
    postal()
        .args(["verify", path.to_str().unwrap(), "--language", "german"])
        .assert()
        .code(0);
    postal()
        .args(["verify", path.to_str().unwrap(), "--language", "klingon"])
        .assert()
        .code(2);
}

/// Puzzle collections give a set-up position the move number 0 (in the
/// FEN tag, and before the first move); python-chess reads them, and so
/// does verify now, as move 1.
#[test]
fn move_number_0_in_a_set_up_position_is_accepted() {
    let (_dir, path) = file(
        "puzzles.pgn",
        "[Event \"p1\"]\n[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 0\"]\n\n0. Ra8# 1-0\n\n\
[Event \"p2\"]\n[SetUp \"1\"]\n[FEN \"r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 0\"]\n\n0... Ra1# 0-1\n",
    );
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("2 sound").and(predicates::str::contains("0 warnings")));
    let pgn = pgn_of(&path, &[]);
    assert!(
        pgn.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"]\n\n1. Ra8# 1-0"),
        "{pgn}"
    );
    // From the start position, 0 is still a wrong number.
    let (_dir, path) = file("start.pgn", "[Event \"x\"]\n\n0. e4 e5 *\n");
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("1 warning"));
}

/// Issue 43, point 7: a file of games from set-up positions (their move
/// numbers not going back to 1, some starting with Black) converts to
/// text and verifies back to the same games; each is headed
/// `[SetUp "1"]`, which begins a new game in published text.
#[test]
fn text_of_set_up_games_reads_back_as_the_same_games() {
    let mut games = String::new();
    for (fen, moves) in [
        ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30", "30. Ra8# 1-0"),
        ("r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 12", "12... Ra1# 0-1"),
        (
            "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
            "1... Kd7 2. e4 Ke6 3. Kf2 Kf6 *",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40",
            "40. e4 Kd7 41. e5 Ke6 42. Kf2 Kf5 *",
        ),
    ] {
        games.push_str(&format!(
            "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{moves}\n\n"
        ));
    }
    let (dir, path) = file("setup.pgn", &games);
    let text = dir.path().join("setup.txt");
    postal()
        .args(["convert", path.to_str().unwrap(), "--to", "text", "-o"])
        .arg(&text)
        .assert()
        .success();
    postal()
        .args(["verify", text.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("verified 4 games"));
    // The same start positions and moves.
    let strip = |pgn: String| -> Vec<String> {
        pgn.lines()
            .filter(|l| l.starts_with("[FEN") || (!l.starts_with('[') && !l.is_empty()))
            .map(|l| l.trim_end_matches(['*', ' ']).to_string())
            .collect()
    };
    assert_eq!(strip(pgn_of(&text, &[])), strip(pgn_of(&path, &[])));
}

/// A null move (`--`, `Z0`) in a variation is kept as a null move, as
/// python-chess and ChessBase keep it, and written back as `--`; the
/// variation goes on from the position passed to the other side. In the
/// main line it is still an error: the game must be legal.
#[test]
fn null_moves_in_variations_are_kept_and_the_main_line_stays_legal() {
    let (_dir, path) = file(
        "null.pgn",
        "[Event \"n\"]\n\n1. e4 e5 2. Nf3 (2. -- Nc6 3. d4) (2. Z0 d5) Nc6 3. Bb5 *\n",
    );
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0);
    let pgn = pgn_of(&path, &[]);
    assert!(
        pgn.contains("2. Nf3 (2. -- Nc6 3. d4) (2. -- d5) 2... Nc6 3. Bb5 *"),
        "{pgn}"
    );
    // The PGN written reads back the same.
    let (_dir2, again) = file("again.pgn", &pgn);
    assert_eq!(pgn_of(&again, &[]), pgn);
    // A page shows the pass as a move of its variation.
    let out = postal()
        .args(["convert", path.to_str().unwrap(), "--to", "html"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(out).unwrap();
    assert_eq!(page.matches(">--</a>").count(), 2);
    // In the main line: an error, as before.
    let (_dir3, main) = file("main.pgn", "[Event \"m\"]\n\n1. e4 -- 2. d4 *\n");
    postal()
        .args(["verify", main.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("is a null move"));
}
