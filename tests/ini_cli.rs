//! `--variants FILE` on the command line (issue 33): the real binary
//! lists what a variants.ini file loads and refuses, counts perft and
//! lists moves of a loaded variant, and refuses a refused one with
//! file:line:col and a caret.

use assert_cmd::Command;
use predicates::str::contains;
use std::fs;

const CAPA: &str = "\
# Capablanca chess, described in the variants.ini format.
[capa:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = c
promotionPieceTypes = acqrbn

[boom:chess]
gating = true
";

fn postal() -> Command {
    let mut c = Command::cargo_bin("postal").unwrap();
    c.env_remove("POSTAL_VARIANTS")
        .env("XDG_DATA_HOME", crate::common::data_home());
    c
}

#[test]
fn variants_lists_what_a_file_loads_and_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.ini");
    fs::write(&file, CAPA).unwrap();
    postal()
        .args(["variants", "--variants"])
        .arg(&file)
        .assert()
        .success()
        .stdout(contains("1 loaded, 1 refused"))
        .stdout(contains("capa"))
        .stdout(contains("10x8"))
        .stdout(contains("C chancellor"))
        .stdout(contains(
            "v.ini:12:10: variant `boom` refused: gating: gating is not supported",
        ));
}

#[test]
fn perft_and_moves_of_a_loaded_variant() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.ini");
    fs::write(&file, CAPA).unwrap();
    // Capablanca chess from the start: 28, 784, 25228 (pyffish 0.0.90,
    // built-in `capablanca`, agrees).
    postal()
        .args(["perft", "capa", "3", "--variants"])
        .arg(&file)
        .assert()
        .success()
        .stdout("25228\n");
    // The same through the environment variable: moves in SAN, as every
    // variant's; in UCI with --uci (and --moves then read as UCI).
    postal()
        .env("POSTAL_VARIANTS", &file)
        .args(["moves", "capa", "--moves", "1. e4 e5"])
        .assert()
        .success()
        .stdout(contains("Nc3\n"))
        .stdout(contains("Ad3\n"));
    postal()
        .env("POSTAL_VARIANTS", &file)
        .args(["moves", "capa", "--uci", "--moves", "e2e4 e7e5"])
        .assert()
        .success()
        .stdout(contains("b1c3\n"))
        .stdout(contains("c1d3\n"));
    postal()
        .args(["moves", "chess", "--uci"])
        .assert()
        .code(2)
        .stderr(contains("--uci lists the moves of a variant defined"));
}

#[test]
fn a_refused_variant_is_an_error_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.ini");
    fs::write(&file, CAPA).unwrap();
    postal()
        .args(["perft", "boom", "1", "--variants"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("v.ini:12:10: variant `boom` refused: gating"))
        .stderr(contains("gating = true"))
        .stderr(contains("^"));
}

#[test]
fn chess_and_gardner_from_the_ini_count_as_the_built_ins() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.ini");
    // Gardner's minichess as Fairy-Stockfish describes it.
    fs::write(
        &file,
        "[fide:chess]\n[minichess:chess]\nmaxRank = 5\nmaxFile = 5\n\
         startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\n\
         promotionRegionWhite = *5\npromotionRegionBlack = *1\n\
         doubleStep = false\ncastling = false\n",
    )
    .unwrap();
    for (built_in, defined, depth) in [("chess", "fide", "3"), ("gardner", "minichess", "4")] {
        let ours = postal().args(["perft", built_in, depth]).output().unwrap();
        assert!(ours.status.success());
        postal()
            .args(["perft", defined, depth, "--variants"])
            .arg(&file)
            .assert()
            .success()
            .stdout(String::from_utf8(ours.stdout).unwrap());
    }
    // --divide names the first moves in SAN, as built-in chess does.
    let sorted = |out: Vec<u8>| {
        let mut lines: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    let ours = postal()
        .args(["perft", "chess", "2", "--divide"])
        .output()
        .unwrap();
    let theirs = postal()
        .args(["perft", "fide", "2", "--divide", "--variants"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(theirs.status.success());
    assert_eq!(sorted(theirs.stdout), sorted(ours.stdout));
}

/// Damaged definitions never panic: every prefix of a file and every
/// byte replaced loads (or refuses) and the loaded ones list their moves.
#[test]
fn damaged_files_load_or_refuse_without_panicking() {
    use postal::variant::ini::{self, gen};
    let text = fs::read_to_string("tests/pyffish/variants.ini").unwrap();
    let capa = CAPA.to_string();
    let mut inputs: Vec<String> = Vec::new();
    for (i, _) in capa.char_indices() {
        inputs.push(capa[..i].to_string());
        for c in ['=', '[', ']', ':', '9', '*', '-', 'x', '\n', ' ', '~'] {
            let mut s = capa.clone();
            s.replace_range(
                i..i + capa[i..].chars().next().unwrap().len_utf8(),
                &c.to_string(),
            );
            inputs.push(s);
        }
    }
    inputs.push(text);
    for input in inputs {
        let loaded = ini::load(&input, "x.ini");
        for def in &loaded.defs {
            let pos = def.start();
            let _ = gen::legal_moves(def, &pos);
            let _ = pos.to_fen(def);
        }
        for r in &loaded.refused {
            let _ = r.with_caret();
        }
    }
}

/// What a section of Fairy-Stockfish's own file must come to, by
/// Fairy-Stockfish's meanings.
enum Expect {
    Loaded,
    /// Refused for its parent, a Fairy-Stockfish built-in whose rules
    /// postal does not play.
    Parent(&'static str),
    /// Refused by one of these keys (each one the section sets to a
    /// value postal cannot honour).
    Key(&'static [&'static str]),
}

/// The 13 sections of Fairy-Stockfish 11.1's src/variants.ini (Debian's
/// fairy-stockfish_11.1.orig.tar.gz) and what each must come to.
const FAIRY_STOCKFISH_11_1: &[(&str, Expect)] = &[
    // Crazyhouse (a built-in parent): pieces in hand and drops; with
    // three checks to win, a rule postal does not play.
    ("3check-crazyhouse", Expect::Key(&["checkCounting"])),
    ("coffeehouse", Expect::Loaded),
    // Makruk: its counting rules; xiangqi and janggi: palaces (mobility
    // regions), the flying general, their cannons and elephants.
    ("makrukhouse", Expect::Parent("makruk")),
    ("xiangqihouse", Expect::Parent("xiangqi")),
    ("janggihouse", Expect::Parent("janggi")),
    // Los Alamos (a built-in parent) made an antichess: all keys played.
    ("anti-losalamos", Expect::Loaded),
    ("indiangreat", Expect::Loaded),
    ("peasant", Expect::Loaded),
    // Drops onto an empty board and three in a row.
    ("tictactoe", Expect::Loaded),
    (
        "connect4",
        Expect::Key(&["pieceDrops", "dropOnTop", "connectN"]),
    ),
    // Grand chess (a built-in parent) with captured pieces in hand.
    ("grandhouse", Expect::Loaded),
    // Crazyhouse with shogi's promoted pieces.
    ("shogun", Expect::Loaded),
    // Knight-like pieces that take as others, a campmate flag.
    ("orda", Expect::Loaded),
];

/// Fairy-Stockfish's own variants.ini loads with each section accepted
/// or refused by name, and each refusal names the key (or the parent)
/// that Fairy-Stockfish's meanings make it. `tests/run.sh` fetches the
/// file from Debian's mirror (GPL-3: never part of postal).
#[test]
fn fairy_stockfish_own_file_accepted_or_refused_by_name() {
    let path = crate::common::fairy_stockfish_ini();
    let out = postal()
        .args(["variants", "--variants"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let loaded = FAIRY_STOCKFISH_11_1
        .iter()
        .filter(|(_, e)| matches!(e, Expect::Loaded))
        .count();
    let summary = format!(
        ": {loaded} loaded, {} refused\n",
        FAIRY_STOCKFISH_11_1.len() - loaded
    );
    assert!(text.contains(&summary), "expected `{summary}` in\n{text}");
    let mut bad = Vec::new();
    for (name, expect) in FAIRY_STOCKFISH_11_1 {
        let Some(line) = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
        else {
            bad.push(format!("{name}: not listed"));
            continue;
        };
        // `NAME  SIZE  loaded...` or `NAME  refused: FILE:L:C: variant `NAME` refused: KEY: WHY`.
        let refusal = line
            .split_once(&format!("variant `{name}` refused: "))
            .map(|(_, rest)| rest.split_once(": ").unwrap_or((rest, "")));
        let ok = match (expect, refusal) {
            (Expect::Loaded, None) => line.contains("  loaded"),
            (Expect::Parent(p), Some((key, why))) => {
                key == format!("[{name}]") && why.contains(&format!("parent `{p}`"))
            }
            (Expect::Key(keys), Some((key, _))) => keys.contains(&key),
            _ => false,
        };
        if !ok {
            bad.push(format!("{name}: {line}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `postal ARGS` with at most 1 GiB of address space: memory that grows
/// with the square of the input fails there.
fn postal_in_1_gib() -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("postal"));
    c.env_remove("POSTAL_VARIANTS")
        .env("XDG_DATA_HOME", crate::common::data_home());
    // SAFETY: setrlimit touches only the child about to exec.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c
}

/// Issue 40 point 11: 20,000 sections each the parent of the next (297
/// KB) are read in linear memory: the chain is cut at 32 sections and
/// the file at 1,000 sections, each with a clear refusal; a game file
/// carrying such a definition is refused, not a crash.
#[test]
fn a_chain_of_twenty_thousand_sections_is_refused_in_linear_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("[v0:chess]\n");
    for i in 1..20_000 {
        text.push_str(&format!("[v{i}:v{}]\n", i - 1));
    }
    assert!(text.len() > 290_000);
    let file = dir.path().join("chain.ini");
    fs::write(&file, &text).unwrap();
    let out = postal_in_1_gib()
        .args(["variants", "--variants"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("32 loaded"), "{stdout}");
    assert!(
        stdout.contains(
            "variant `v32` refused: [v32]: its chain of parents is deeper than 32 sections"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("variant `v1000` refused: [v1000]: more than 1000 sections in one file"),
        "{stdout}"
    );
    // A game of the deepest section allowed, its file then given a
    // definition 20,000 sections deep.
    let game = dir.path().join("g.json");
    postal()
        .args(["new", "v31", "-o"])
        .arg(&game)
        .args(["--variants"])
        .arg(&file)
        .assert()
        .success();
    let mut state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&game).unwrap()).unwrap();
    assert!(state["definition"].is_string(), "{state}");
    state["definition"] = serde_json::Value::String(text.clone());
    state["variant"] = serde_json::Value::String("v32".into());
    fs::write(&game, serde_json::to_string(&state).unwrap()).unwrap();
    // The rules the game records are v31's: refused as changed (issue
    // 42), in the same memory.
    let out = postal_in_1_gib().arg("show").arg(&game).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code().is_some_and(|c| c != 0), "{stderr}");
    assert!(
        stderr.contains(
            "changed since it was started: the variant was renamed from \"v31\" to \"v32\""
        ),
        "{stderr}"
    );
    // A file that records no rules (as before issue 42), read by a
    // player who keeps none for it: the definition itself is refused.
    state["extensions"] = serde_json::json!({});
    fs::write(&game, serde_json::to_string(&state).unwrap()).unwrap();
    let out = postal_in_1_gib()
        .env("XDG_DATA_HOME", dir.path().join("fresh-data"))
        .arg("show")
        .arg(&game)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code().is_some_and(|c| c != 0), "{stderr}");
    assert!(stderr.contains("deeper than 32 sections"), "{stderr}");
}
