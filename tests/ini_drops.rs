//! Pieces in hand and drops (issue 42, point 6): Fairy-Stockfish's
//! crazyhouse family as parents of a definition, drops written `N@f3` as
//! Fairy-Stockfish writes them (and `@e4` for a pawn, as lichess does),
//! the hand in position texts (`[Qp]`, a promoted piece `Q~`), in
//! diagrams and in letters. That the moves agree with Fairy-Stockfish's
//! is tests/ini_agree.rs's check (the `crazyhouse2` ... `dropsonly`
//! definitions of tests/pyffish/variants.ini); the perft counts here are
//! a native Fairy-Stockfish's (`go perft 5`, pyffish 0.0.90's source).

use crate::common::{defined_variant, play_moves, stdout};
use postal::Position;

const NOW: &str = "2026-12-01T09:00:00Z";

const HOUSE: &str = "\
# Crazyhouse and its kin, from Fairy-Stockfish's built-in parents.
[zh:crazyhouse]
[lp:loop]
[cg:chessgi]
[pk:pocketknight]
";

fn variant(name: &str) -> postal::variant::Variant {
    defined_variant(HOUSE, "house.ini", name)
}

fn after(name: &str, moves: &[&str]) -> Position {
    play_moves(&Position::start(variant(name)), moves)
}

fn postal() -> assert_cmd::Command {
    let mut c = crate::common::postal();
    c.env("POSTAL_NOW", NOW)
        .env_remove("POSTAL_VARIANTS")
        .env("XDG_CONFIG_HOME", "/nonexistent");
    c
}

/// Perft 5 from the start of each, as a native Fairy-Stockfish counts
/// it: the first drops come at the fifth ply, so crazyhouse and loop
/// differ from chess's 4,865,609 there, and chessgi (pawns dropped on the
/// first rank) and pocket knight (a knight in hand from the start) from
/// them.
#[test]
fn perft_of_the_crazyhouse_family() {
    for (name, depth, nodes) in [
        ("zh", 5, 4_888_832),
        ("lp", 5, 4_888_832),
        ("cg", 5, 4_889_167),
        ("pk", 4, 3_071_267),
    ] {
        let pos = Position::start(variant(name));
        assert_eq!(postal::perft::perft(&pos, depth), nodes, "{name}");
    }
}

#[test]
fn drops_are_written_as_fairy_stockfish_writes_them_and_read_in_either_form() {
    let pos = after("zh", &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"]);
    // Each side holds the pawn it took, written after the board.
    assert_eq!(
        pos.to_text(),
        "rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w KQkq - 2 4"
    );
    let drop = pos.parse_move("P@e5").unwrap();
    assert_eq!(pos.move_text(&drop), "P@e5");
    assert_eq!(pos.parse_move("@e5").unwrap(), drop);
    let next = pos.play(&drop).unwrap();
    assert_eq!(
        next.to_text(),
        "rnb1kbnr/ppp1pppp/8/q3P3/8/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq - 0 4"
    );
    // A knight dropped with check is marked as any other check.
    let pos = after("pk", &[]);
    let check = pos.parse_move("N@f6").unwrap();
    assert_eq!(pos.move_text(&check), "N@f6+");
}

#[test]
fn a_drop_that_cannot_be_made_says_why() {
    let pos = after("zh", &["e4", "d5", "exd5", "Qxd5"]);
    let why = |text: &str| pos.parse_move(text).unwrap_err().to_string();
    assert!(
        why("Q@e4").contains("White has no queen in hand"),
        "{}",
        why("Q@e4")
    );
    // Not on its last rank (the promotion region), nor on a piece.
    assert!(
        why("P@d8").contains("a pawn may not be dropped on d8"),
        "{}",
        why("P@d8")
    );
    assert!(why("P@e7").contains("e7 is taken"), "{}", why("P@e7"));
    // Chessgi's pawns go on the first rank (Black's is the eighth).
    let pos = after("cg", &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "Nb1"]);
    assert!(pos.parse_move("P@d8").is_ok());
}

/// A promoted piece is marked `~` and goes back to hand as a pawn when
/// taken (crazyhouse), as itself in loop chess.
#[test]
fn a_promoted_piece_goes_back_to_hand_as_a_pawn() {
    let fen = "7r/1P2k3/8/8/8/8/8/4K3[] w - - 0 1";
    for (name, marked, hand) in [("zh", "1Q~5r/", "[p]"), ("lp", "1Q5r/", "[q]")] {
        let v = variant(name);
        let pos = Position::from_text(v, fen).unwrap();
        let promoted = pos.play(&pos.parse_move("b8=Q").unwrap()).unwrap();
        assert!(
            promoted.to_text().starts_with(marked),
            "{}",
            promoted.to_text()
        );
        let back = Position::from_text(v, &promoted.to_text()).unwrap();
        assert_eq!(back.to_text(), promoted.to_text());
        let taken = promoted
            .play(&promoted.parse_move("Rxb8").unwrap())
            .unwrap();
        assert!(taken.to_text().contains(hand), "{}", taken.to_text());
    }
}

/// A game by mail: the drops in the score, the hand under the board of
/// each notice and in the diagrams, and a drop refused with why.
#[test]
fn a_crazyhouse_game_by_mail_shows_the_hands() {
    let tmp = tempfile::tempdir().unwrap();
    let ini = tmp.path().join("house.ini");
    std::fs::write(&ini, HOUSE).unwrap();
    let game = tmp.path().join("g.json");
    stdout(
        postal()
            .args(["new", "zh", "--variants"])
            .arg(&ini)
            .arg("-o")
            .arg(&game)
            .args(["--white", "Ana <ana@example.org>"])
            .args(["--black", "Ben <ben@example.org>"]),
    );
    for m in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"] {
        stdout(postal().arg("move").arg(&game).arg(m));
    }
    let out = stdout(postal().arg("move").arg(&game).arg("P@e5").arg("--mail"));
    assert!(out.contains("in hand: White none; Black P"), "{out}");
    let outbox = tmp.path().join("outbox/new");
    let letters = crate::common::names(&outbox);
    let letter = std::fs::read_to_string(outbox.join(letters.last().unwrap())).unwrap();
    assert!(letter.contains("in hand: White none; Black P"), "{letter}");
    assert!(letter.contains("P@e5"), "{letter}");

    let refused = postal()
        .arg("move")
        .arg(&game)
        .arg("Q@e4")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("Black has no queen in hand"), "{err}");
    stdout(postal().arg("move").arg(&game).arg("@d4"));

    let pgn = stdout(postal().arg("convert").arg(&game).args(["--to", "pgn"]));
    assert!(pgn.contains("4. P@e5 P@d4"), "{pgn}");
    let file = tmp.path().join("g.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let verdict = stdout(
        postal()
            .arg("verify")
            .arg(&file)
            .arg("--variants")
            .arg(&ini),
    );
    assert!(verdict.contains("1 sound"), "{verdict}");
    let svg = stdout(postal().arg("show").arg(&game).args(["--format", "svg"]));
    assert!(svg.contains("in hand: White none; Black none"), "{svg}");
    let text = stdout(
        postal()
            .args(["diagram", "zh", "--variants"])
            .arg(&ini)
            .args(["--moves", "e4 d5 exd5 Qxd5", "--format", "unicode"]),
    );
    assert!(text.contains("in hand: White P; Black P"), "{text}");
}

/// A page of a crazyhouse game: the live board's status line says the
/// hands at every ply (its self-test steps through the game in headless
/// Chromium), and the static diagram at the end says them under the
/// board.
#[test]
fn a_page_says_the_hands_under_the_live_board() {
    if std::env::var_os("POSTAL_SKIP_BROWSER").is_some() {
        return;
    }
    let browser = crate::render::chromium()
        .expect("headless Chromium is needed (Debian's chromium; tests/run.sh installs it)");
    let tmp = tempfile::tempdir().unwrap();
    let ini = tmp.path().join("house.ini");
    std::fs::write(&ini, HOUSE).unwrap();
    let pgn = tmp.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Variant \"zh\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@e5 *\n",
    )
    .unwrap();
    let page = tmp.path().join("g.html");
    stdout(
        postal()
            .arg("convert")
            .arg(&pgn)
            .args(["--to", "html", "--variants"])
            .arg(&ini)
            .arg("-o")
            .arg(&page),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("in hand: White none; Black P"),
        "the final diagram"
    );
    let dom = crate::render::dump_dom_with(&browser, &page, &tmp.path().join("profile"), &[]);
    let open = dom
        .find("<pre id=\"postal-test\"")
        .expect("the self-test's result");
    let body = &dom[open..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    let log: serde_json::Value = serde_json::from_str(&crate::render::unescape(body)).unwrap();
    let statuses: Vec<&str> = log["log"]
        .as_array()
        .or_else(|| log.as_array())
        .expect("the steps")
        .iter()
        .filter_map(|step| step["status"].as_str())
        .collect();
    for want in [
        "Start: White to move; in hand: White none; Black none",
        "After 2... Qxd5: White to move; in hand: White P; Black P",
        "After 4. P@e5: Black to move; *; in hand: White none; Black P",
    ] {
        assert!(statuses.contains(&want), "{want:?} not in {statuses:#?}");
    }
}

/// A real crazyhouse game as lichess writes it, and lichess's annotation
/// of it with drops in its variations and evaluations
/// (fixtures/records/lichess-crazyhouse.pgn: `pgn4` and `expected4` of
/// lichess-org/lila's modules/fishnet/src/test/TestFixtures.scala, the
/// annotation given the game's Variant tag). Read with a definition
/// named for the tag, both verify sound with every check and mate mark
/// right, and postal writes the game's moves as lichess does (its
/// `sans4`): a drop is no rival of a board move, so `5. e4` and
/// `5... Nf6` need no origin though `P@e4` and `N@f6` go there too.
#[test]
fn a_lichess_crazyhouse_game_verifies_and_is_written_as_lichess_writes_it() {
    const LICHESS_SANS: &str = "Nf3 c5 d4 cxd4 Nxd4 Nc6 Nxc6 bxc6 e4 Nf6 Nc3 P@b4 Bc4 e6 e5 bxc3 \
        P@d6 cxb2 Bxb2 P@c7 dxc7 Qxc7 P@d6 Qa5+ Kf1 Rb8 exf6 gxf6 Bxf6 P@e7 N@c7+ Kd8 P@g7 Bxg7 Bxe7#";
    let tmp = tempfile::tempdir().unwrap();
    let ini = tmp.path().join("house.ini");
    std::fs::write(&ini, "[Crazyhouse2:crazyhouse]\n").unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/records/lichess-crazyhouse.pgn"
    ))
    .unwrap();
    let pgn = tmp.path().join("zh.pgn");
    std::fs::write(&pgn, text.replace("\"Crazyhouse\"", "\"Crazyhouse2\"")).unwrap();
    let verdict = stdout(postal().arg("verify").arg(&pgn).arg("--variants").arg(&ini));
    assert!(
        verdict.contains("2 sound, 0 unsound") && verdict.contains("0 errors, 0 warnings"),
        "{verdict}"
    );
    let written = stdout(
        postal()
            .arg("convert")
            .arg(&pgn)
            .args(["--to", "pgn", "--game", "1", "--variants"])
            .arg(&ini),
    );
    let movetext = &written[written.find("\n\n").unwrap()..];
    let sans: Vec<&str> = movetext
        .split('{')
        .next()
        .unwrap()
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .collect();
    assert_eq!(sans.join(" "), LICHESS_SANS, "{written}");
}
