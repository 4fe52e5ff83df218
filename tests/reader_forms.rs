//! The ways of writing a move and a game that other programs and people
//! use, read as what they mean (fixtures/records/forms/, each file made
//! to the shape its source writes):
//!
//! - ChessBase's PGN export puts an empty line between the Seven Tag
//!   Roster and its own tags (`WhiteElo`, `ECO`, `PlyCount`): one game;
//! - engines (UCI's `bestmove e1g1`, and Chess960-style `e8h8`, king
//!   takes rook) write castling as the king's move;
//! - scores typed by hand: `e.p.` / `ep` after an en passant capture,
//!   `o-o`, German and Scandinavian results `1:0`;
//! - typeset scores and ChessBase's figurine output: `♘f3`, `♞c6`;
//! - a king's two-square move that is no legal castling says so (FI-2).

use crate::common::postal;

fn fixture(name: &str) -> String {
    format!(
        "{}/fixtures/records/forms/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn verify(name: &str, code: i32) -> String {
    let out = postal()
        .args(["verify", &fixture(name)])
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn pgn_of(name: &str) -> String {
    let out = postal()
        .args(["convert", &fixture(name), "--to", "pgn"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn an_empty_line_inside_a_tag_section_keeps_one_game() {
    let out = verify("chessbase-blank-line.pgn", 0);
    assert!(out.contains("verified 2 games"), "{out}");
    assert!(!out.contains("without moves"), "{out}");
    let pgn = pgn_of("chessbase-blank-line.pgn");
    // Both sections' tags belong to the first game.
    let first = &pgn[..pgn.find("1. e4").unwrap()];
    assert!(first.contains("[Event \"Club championship\"]"), "{pgn}");
    assert!(first.contains("[WhiteElo \"2105\"]"), "{pgn}");
}

#[test]
fn a_repeated_tag_after_an_empty_line_still_starts_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.pgn");
    std::fs::write(
        &path,
        "[Event \"No moves\"]\n\n[Event \"Second\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let out = postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("without moves"), "{out}");
    assert!(out.contains("verified 2 games"), "{out}");
}

#[test]
fn fi2_engine_castling_is_castling() {
    let out = verify("engine-castling.pgn", 0);
    assert!(out.contains("1 sound"), "{out}");
    assert!(out.contains("read as a coordinate move"), "{out}");
    let pgn = pgn_of("engine-castling.pgn");
    assert!(pgn.contains("4. O-O Nf6 5. d3 O-O"), "{pgn}");
}

#[test]
fn typed_forms_are_read() {
    let out = verify("typed-forms.pgn", 0);
    assert!(out.contains("1 sound, 0 unsound"), "{out}");
    let pgn = pgn_of("typed-forms.pgn");
    assert!(pgn.contains("3. exf6 Nxf6"), "{pgn}");
    assert!(pgn.contains("6. O-O cxb5"), "{pgn}");
    assert!(pgn.contains("8. Re1 O-O 1-0"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}

#[test]
fn figurines_are_piece_letters() {
    let out = postal()
        .args(["verify", &fixture("figurines.txt"), "--variant", "chess"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("1 sound, 0 unsound"), "{out}");
    let pgn = pgn_of("figurines.txt");
    assert!(pgn.contains("2. Nf3 Nc6 3. Bc4 Bc5"), "{pgn}");
    assert!(pgn.contains("11. Ba3 b5 *"), "{pgn}");
}

#[test]
fn fi2_a_kings_two_square_move_is_castling_or_nothing() {
    let out = verify("king-two-squares.pgn", 1);
    assert!(
        out.contains(
            "illegal move: a king moves two squares only in castling, and White may no longer castle king side"
        ),
        "{out}"
    );
    assert!(out.contains("= rule: FI-2"), "{out}");
    assert!(!out.contains("  can"), "{out}");
}

/// `--to text` keeps a record's annotations in the published style where
/// they stand: comments and variations in parentheses (nested), move
/// glyphs after their move, other NAGs as their symbols; and `verify`
/// reads the text back sound.
#[test]
fn text_keeps_comments_nags_and_variations() {
    let out = postal()
        .args([
            "convert",
            &fixture("annotated.pgn"),
            "--to",
            "text",
            "--game",
            "1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\n(Opening remark)\n1. e4! (Best by test) 1... e5 (1... c5 (Sicilian) 2. Nf3 (2. c3 d5) 2... d6)\n2. Qh5?! Nc6 +=\n3. Bc4 Nf6??\n"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("annotated.txt");
    std::fs::write(&path, &text).unwrap();
    let out = postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out).unwrap().contains("1 sound"));
}

/// `--figurine` writes the moves of text and the page with figurines,
/// which `verify` reads back.
#[test]
fn figurine_output_reads_back() {
    let text = postal()
        .args([
            "convert",
            &fixture("annotated.pgn"),
            "--game",
            "1",
            "--to",
            "text",
            "--figurine",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("2. ♕h5?! ♘c6 +=\n3. ♗c4 ♘f6??\n4. ♕xf7#"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("figurines.txt");
    std::fs::write(&path, &text).unwrap();
    postal()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(0);
    let page = postal()
        .args([
            "convert",
            &fixture("annotated.pgn"),
            "--to",
            "html",
            "--figurine",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(page).unwrap();
    assert!(
        page.contains("data-move=\"Qh5\">♕h5"),
        "the move as data, figurines shown"
    );
}
