//! The command line contract (DESIGN.md, "Command line"), driven through
//! the built binary.

mod common;

use common::postal;
use predicates::prelude::*;

fn last_line(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn variants_lists_every_variant() {
    let out = postal()
        .arg("variants")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for name in [
        "chess",
        "gardner",
        "swap",
        "building",
        "corral",
        "disintegration",
        "kristensen",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("5x9"));
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let out = postal()
        .args(["perft", "chess", "3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "8902");
    let out = postal()
        .args(["perft", "gardner", "3", "--divide"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(last_line(text.as_bytes()), "506");
    let sum: u64 = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 506);
    assert_eq!(text.lines().filter(|l| l.contains(": ")).count(), 7);
}

#[test]
fn perft_after_moves_and_from_a_position() {
    let out = postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Nf3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "29");
    let out = postal()
        .args([
            "perft",
            "chess",
            "2",
            "--position",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "191");
}

#[test]
fn moves_lists_canonical_moves() {
    let out = postal()
        .args(["moves", "chess"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 20);
    assert!(text.lines().any(|l| l == "Nf3"));
    let out = postal()
        .args([
            "moves",
            "chess",
            "--position",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().any(|l| l == "O-O+" || l == "O-O"));
    assert!(text.lines().any(|l| l == "Ra8+"));
}

#[test]
fn an_illegal_move_exits_1_with_a_caret() {
    postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Ke3"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "postal: error: --moves:1:13: illegal move",
        ))
        .stderr(predicate::str::contains("   ^^^"));
}

#[test]
fn bad_input_exits_2() {
    postal()
        .args(["perft", "nosuch", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known variants: chess, gardner"));
    postal()
        .args([
            "perft",
            "chess",
            "1",
            "--position",
            "rnbqkbnr/8/8 w - - 0 1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("postal: error: --position:1:"));
    postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Zz9"])
        .assert()
        .code(2);
    postal().args(["perft"]).assert().code(2);
}

#[test]
fn rules_prints_rule_ids() {
    postal()
        .args(["rules", "chess"])
        .assert()
        .success()
        .stdout(predicate::str::contains("FI-3"));
}

#[test]
fn man_pages_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let bless = std::env::var_os("POSTAL_BLESS").is_some();
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let pages = postal::cli::man::pages();
    assert!(pages.len() > 3);
    for (name, bytes) in pages {
        let path = dir.join(&name);
        if bless {
            postal::files::write_atomic(&path, &bytes).unwrap();
        } else {
            let committed = std::fs::read(&path).unwrap_or_default();
            assert!(
                committed == bytes,
                "man/{name} is stale: run `POSTAL_BLESS=1 cargo test --test cli man_pages`"
            );
        }
    }
}

#[test]
fn moves_verbose_shows_disintegration_waves() {
    // rules/disintegration.md CASE 1: Ka2-b3 removes b3, a4, b4, then a5.
    let out = postal()
        .args([
            "moves",
            "disintegration",
            "--position",
            "5/5/3r1/5/k4/kk3/5/K1K1K/R4 w - - 0 1",
            "-v",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let line = text.lines().find(|l| l.starts_with("Kab3")).unwrap_or("");
    assert_eq!(
        line,
        "Kab3  # disintegration, wave 1: the white king on b3, the black king on a4, \
         the black king on b4; disintegration, wave 2: the black king on a5"
    );
}

#[test]
fn swap_moves_one_step_at_a_time() {
    let fen = "3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6 w - - 0 1";
    let out = postal()
        .args([
            "moves",
            "swap",
            "--position",
            fen,
            "--after",
            "Qb6/b1",
            "-v",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("Qb6/b1/d3=N  #")),
        "{text}"
    );
    assert!(text.contains("16 swap turns in all"), "{text}");
    let out = postal()
        .args(["moves", "swap", "--position", fen])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().any(|l| l == "Qb6/b1"), "{text}");
    assert!(text.lines().all(|l| !l.contains('#')), "{text}");
    postal()
        .args(["moves", "swap", "--position", fen, "--after", "Qb6/c4"])
        .assert()
        .code(1);
    postal()
        .args(["moves", "chess", "--after", "Qd1"])
        .assert()
        .code(2);
}
