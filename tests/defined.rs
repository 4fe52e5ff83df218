//! A variant defined in a variants.ini file played by mail (issue 33):
//! the game's file carries the definition, so that the game goes on when
//! the file it came from is gone, and the referee plays it from replies
//! as it plays the built-in games.

use crate::common::names;
use mail_parser::MessageParser;
use std::path::Path;

const NOW: &str = "2026-12-01T09:00:00Z";

/// Capablanca chess as Fairy-Stockfish's own file describes it (a
/// section of a user's file names it anew: `capablanca` is a built-in).
const CAPABLANCA: &str = "\
# Capablanca chess on ten files.
[capa:chess]
maxFile = 10
castlingKingsideFile = i
castlingQueensideFile = c
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = acqrbn
";

fn postal() -> assert_cmd::Command {
    let mut c = crate::common::postal();
    c.env("POSTAL_NOW", NOW)
        .env_remove("POSTAL_VARIANTS")
        .env("XDG_CONFIG_HOME", "/nonexistent");
    c
}

fn ok(c: &mut assert_cmd::Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The referee's letters to `addr`, oldest first (by file name, which
/// the outbox Maildir gives in the order written).
fn letters_to(r: &Path, addr: &str) -> Vec<Vec<u8>> {
    let dir = r.join("outbox/new");
    let mut all: Vec<(std::time::SystemTime, String, Vec<u8>)> = names(&dir)
        .into_iter()
        .map(|n| {
            let path = dir.join(&n);
            let time = std::fs::metadata(&path).unwrap().modified().unwrap();
            (time, n, std::fs::read(path).unwrap())
        })
        .collect();
    all.sort();
    all.into_iter()
        .map(|(_, _, raw)| raw)
        .filter(|raw| {
            let m = MessageParser::default().parse(raw).unwrap();
            m.to().unwrap().first().unwrap().address() == Some(addr)
        })
        .collect()
}

/// A plain-text reply to the letter `raw`, the command on top.
fn reply(raw: &[u8], from: &str, command: &str, n: usize) -> Vec<u8> {
    let m = MessageParser::default().parse(raw).unwrap();
    let to = m.reply_to().unwrap().first().unwrap().address().unwrap();
    let quoted: String = m
        .body_text(0)
        .unwrap()
        .lines()
        .map(|l| format!("> {l}\r\n"))
        .collect();
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: [postal]\r\nMessage-ID: <capa{n}.{}@client.example>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{command}\r\n\r\nOn Tue, 1 Dec 2026, Postal wrote:\r\n{quoted}",
        std::process::id(),
        m.message_id().unwrap()
    )
    .into_bytes()
}

fn text(raw: &[u8]) -> String {
    MessageParser::default()
        .parse(raw)
        .unwrap()
        .body_text(0)
        .unwrap()
        .into_owned()
}

#[test]
fn a_capablanca_game_by_mail_through_the_referee() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path().join("ref");
    ok(postal()
        .args(["referee", "init"])
        .arg(&r)
        .args(["--address", "Postal <postal@example.org>"]));
    // The club's variants, named in its referee.toml.
    let ini = r.join("capablanca.ini");
    std::fs::write(&ini, CAPABLANCA).unwrap();
    let toml = r.join("referee.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("variants = \"capablanca.ini\"\n{settings}")).unwrap();
    let out = ok(postal()
        .args(["new", "capa", "--referee"])
        .arg(&r)
        .args(["--white", "Ana <ana@example.org>"])
        .args(["--black", "Ben <ben@example.org>"]));
    let gid = out.split_whitespace().nth(1).unwrap().to_string();
    // The definition travels with the game: the file may go.
    std::fs::remove_file(&ini).unwrap();
    let game_file = r.join("games").join(format!("{gid}.json"));
    let game = std::fs::read_to_string(&game_file).unwrap();
    assert!(
        game.contains("\"definition\": \"# Capablanca")
            || game.contains("\"definition\": \"[capa:chess]"),
        "{game}"
    );

    let first = letters_to(&r, "ana@example.org");
    let board = text(first.last().unwrap());
    assert!(board.contains("R N A B Q K B C N R"), "{board}");
    assert!(board.contains("a b c d e f g h i j"), "{board}");

    let players = [
        ("ana@example.org", "Ana <ana@example.org>"),
        ("ben@example.org", "Ben <ben@example.org>"),
    ];
    // The archbishop (A) and the chancellor (C) move as knights as well.
    let plan = [(0, "e4"), (1, "Ad6"), (0, "Ci3"), (1, "Cg6"), (0, "Ab3")];
    for (n, (who, command)) in plan.into_iter().enumerate() {
        let (addr, from) = players[who];
        let notice = letters_to(&r, addr).pop().unwrap();
        assert!(text(&notice).contains("Your move"), "{}", text(&notice));
        let out = ok(postal()
            .args(["receive", "--referee"])
            .arg(&r)
            .write_stdin(reply(&notice, from, command, n)));
        assert!(out.contains("applied"), "{command}: {out}");
    }
    // An illegal move by the rules of the definition is refused, and its
    // sender hears why: the chancellor has no bishop's move.
    let notice = letters_to(&r, "ben@example.org").pop().unwrap();
    ok(postal()
        .args(["receive", "--referee"])
        .arg(&r)
        .write_stdin(reply(&notice, "Ben <ben@example.org>", "Ce4", 10)));
    let answer = letters_to(&r, "ben@example.org").pop().unwrap();
    assert!(text(&answer).contains("Ce4"), "{}", text(&answer));
    let game = std::fs::read_to_string(&game_file).unwrap();
    assert_eq!(game.matches("\"played\"").count(), 5, "{game}");

    let shown = ok(postal().arg("show").arg(&game_file));
    assert!(shown.contains(". . . a . . c . . ."), "{shown}");
    let svg = ok(postal()
        .arg("show")
        .arg(&game_file)
        .args(["--format", "svg"]));
    assert!(
        svg.contains(">A</text>") && svg.contains("archbishop (A): BN"),
        "{svg}"
    );

    let notice = letters_to(&r, "ben@example.org").pop().unwrap();
    ok(postal()
        .args(["receive", "--referee"])
        .arg(&r)
        .write_stdin(reply(&notice, "Ben <ben@example.org>", "resign", 11)));
    for (addr, _) in players {
        let last = letters_to(&r, addr).pop().unwrap();
        assert!(
            text(&last).contains("The game is over: 1-0"),
            "{}",
            text(&last)
        );
    }
}

/// A Capablanca game in `dir/g.json`, started from `dir/capablanca.ini`
/// and played by `postal move`: the ini file and the game file.
fn capablanca_game(dir: &Path, moves: &[&str]) -> (std::path::PathBuf, std::path::PathBuf) {
    let ini = dir.join("capablanca.ini");
    std::fs::write(&ini, CAPABLANCA).unwrap();
    let game = dir.join("g.json");
    ok(postal()
        .args(["new", "capa", "--variants"])
        .arg(&ini)
        .arg("-o")
        .arg(&game));
    for m in moves {
        ok(postal().arg("move").arg(&game).arg(m));
    }
    (ini, game)
}

#[test]
fn a_changed_definition_in_a_game_file_is_refused_not_played() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, game) = capablanca_game(tmp.path(), &["e4", "Ad6"]);
    // The archbishop made a rook: its knight's move is now illegal.
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, text.replace("archbishop = a", "customPiece1 = a:R")).unwrap();
    let before = std::fs::read(&game).unwrap();
    let out = postal().arg("show").arg(&game).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("postal: error: "), "{err}");
    // What changed is said before any move is played by it (issue 42).
    assert!(
        err.contains(
            "archbishop was \"a\" and is now unset; customPiece1 was unset and is now \"a:R\""
        ),
        "{err}"
    );
    assert_eq!(std::fs::read(&game).unwrap(), before, "nothing is written");
}

/// Every definition of the agreement tests' file, played at random
/// through the program's common path (a `Position` of a registered
/// variant, its SAN) and by the definitions' engine alone, which is
/// checked against Fairy-Stockfish (`tests/ini_agree.rs`): the same
/// moves, the same position text after each, the same end; and every
/// legal move's SAN reads back to that move.
#[test]
fn every_definition_plays_the_same_through_the_common_path() {
    use postal::variant::defined;
    use postal::variant::ini::{self, gen};
    use postal::{Move, Position};
    let text = std::fs::read_to_string("tests/pyffish/variants.ini").unwrap();
    let loaded = ini::load(&text, "variants.ini");
    assert!(loaded.defs.len() >= 40, "{}", loaded.defs.len());
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut plies = 0;
    for def in &loaded.defs {
        let variant = defined::register(def, "variants.ini").unwrap();
        assert_eq!(defined::register(def, "again").unwrap(), variant);
        let mut pos = Position::start(variant);
        let mut engine = def.start();
        for _ in 0..30 {
            assert_eq!(pos.to_text(), engine.to_fen(def), "{}", def.name);
            let moves = pos.legal_moves();
            let theirs = gen::legal_moves(def, &engine);
            assert_eq!(moves.len(), theirs.len(), "{} {}", def.name, pos.to_text());
            let ended = pos.variant.rules().outcome(&pos, false);
            assert_eq!(
                ended.as_ref().map(|o| o.reason.as_str()),
                postal::variant::ini::end::outcome(def, &engine).map(|e| e.why),
                "{} {}",
                def.name,
                pos.to_text()
            );
            if ended.is_some() || moves.is_empty() {
                break;
            }
            for m in &moves {
                let san = pos.move_text(m);
                let back: Move = pos
                    .parse_move(&san)
                    .unwrap_or_else(|e| panic!("{} {}: {san}: {e}", def.name, pos.to_text()));
                assert_eq!(&back, m, "{} {}: {san}", def.name, pos.to_text());
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let k = (seed % moves.len() as u64) as usize;
            let uci = engine.uci(def, &theirs[k]);
            let mv = moves
                .iter()
                .find(|m| {
                    let next = pos.play(m).unwrap();
                    next.to_text() == engine_after(def, &engine, &theirs[k])
                })
                .unwrap_or_else(|| panic!("{} {}: {uci} has no match", def.name, pos.to_text()));
            pos = pos.play(mv).unwrap();
            engine = gen::play(def, &engine, &theirs[k]);
            plies += 1;
        }
    }
    assert!(plies > 1000, "{plies} plies");
}

fn engine_after(
    def: &postal::variant::ini::Def,
    pos: &postal::variant::ini::Pos,
    mv: &postal::movegen::CellMove,
) -> String {
    postal::variant::ini::gen::play(def, pos, mv).to_fen(def)
}

#[test]
fn a_defined_game_as_pgn_is_verified_and_drawn_with_its_definition() {
    let tmp = tempfile::tempdir().unwrap();
    let (ini, game) = capablanca_game(tmp.path(), &["e4", "Ad6", "Ci3", "Cg6"]);
    let pgn = tmp.path().join("g.pgn");
    ok(postal()
        .arg("convert")
        .arg(&game)
        .args(["--to", "pgn", "-o"])
        .arg(&pgn));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Variant \"capa\"]"), "{text}");
    assert!(text.contains("1. e4 Ad6 2. Ci3 Cg6"), "{text}");
    // Without the definition the tag names an unknown variant, at its place.
    let out = postal().arg("verify").arg(&pgn).output().unwrap();
    assert!(!out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("g.pgn:8:11: error: unknown variant \"capa\""),
        "{report}"
    );
    let out = ok(postal().arg("verify").arg(&pgn).arg("--variants").arg(&ini));
    assert!(out.contains("1 sound"), "{out}");
    // The position after it, in Fairy-Stockfish's FEN.
    let fen = ok(postal()
        .arg("convert")
        .arg(&pgn)
        .args(["--to", "fen", "--variants"])
        .arg(&ini));
    assert_eq!(
        fen.trim(),
        "rn1bqkb1nr/pppppppppp/3a2c3/10/4P5/8C1/PPPP1PPPPP/RNABQKB1NR w KQkq - 3 3"
    );
    let picture = ok(postal()
        .args(["diagram", "capa", "--variants"])
        .arg(&ini)
        .args(["--moves", "e4 Ad6", "--format", "unicode"]));
    assert!(picture.contains("Ⓐ ⓐ  archbishop (A): BN"), "{picture}");
}
