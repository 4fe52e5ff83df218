//! What verify and convert say about a record (issue 43, point 8): an
//! unknown variant is one error for the game and the JSON names the
//! variant read; an unclosed comment is reported at its brace; UCI moves
//! get no check-mark warnings; "the other N converted" only when they
//! were.

use crate::common::postal;
use std::path::PathBuf;

fn file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn stdout_of(args: &[&str], code: i32) -> String {
    let out = postal().args(args).assert().code(code).get_output().clone();
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap()
}

#[test]
fn an_unknown_variant_is_one_error_and_the_json_names_it() {
    let (_dir, path) = file(
        "zh.pgn",
        "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 \
5. exd5 Nxd5 6. Nxf7 Kxf7 7. Qf3+ Ke6 8. N@e4 P@f6 *\n",
    );
    let p = path.to_str().unwrap();
    let text = stdout_of(&["verify", p], 2);
    let errors = text
        .lines()
        .filter(|l| l.contains("zh.pgn:") && l.contains(": error: "))
        .count();
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("unknown variant \"Crazyhouse\""));
    let out = postal()
        .args(["verify", p, "--json"])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let game = &json["files"][0]["games"][0];
    assert_eq!(game["variant"], "Crazyhouse");
    assert_eq!(game["issues"].as_array().unwrap().len(), 1);
}

#[test]
fn an_unclosed_comment_is_reported_at_its_brace() {
    let (_dir, path) = file(
        "c.pgn",
        "[Event \"c\"]\n\n1. e4 {an unclosed comment e5 2. Nf3 *\n",
    );
    let text = stdout_of(&["verify", path.to_str().unwrap()], 1);
    assert!(
        text.contains("c.pgn:3:7: error: a comment is never closed"),
        "{text}"
    );
}

#[test]
fn uci_moves_get_no_check_mark_warnings() {
    let (_dir, path) = file(
        "uci.pgn",
        "[Event \"u\"]\n[Result \"1-0\"]\n\n1. e2e4 e7e5 2. d1h5 b8c6 3. f1c4 g8f6 4. h5f7 1-0\n",
    );
    let text = stdout_of(&["verify", path.to_str().unwrap()], 0);
    assert!(text.contains("0 warnings"), "{text}");
    // Written in SAN, the missing mark is still a warning.
    let (_dir, path) = file(
        "san.pgn",
        "[Event \"s\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0\n",
    );
    let text = stdout_of(&["verify", path.to_str().unwrap()], 0);
    assert!(
        text.contains("the move mates but is not marked #"),
        "{text}"
    );
}

#[test]
fn the_other_games_are_said_converted_only_when_they_were() {
    let (_dir, path) = file(
        "three.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n\n[Event \"c\"]\n\n1. d4 d5 *\n",
    );
    let p = path.to_str().unwrap();
    let all = stdout_of(&["convert", p, "--to", "pgn"], 1);
    assert!(all.contains("the other 2 converted"), "{all}");
    let one = stdout_of(&["convert", p, "--to", "pgn", "--game", "2"], 1);
    assert!(
        one.contains("nothing converted") && !one.contains("the other"),
        "{one}"
    );
}
