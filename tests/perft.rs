//! Every perft table line in `fixtures/perft/` whose count fits the node
//! limit is checked here (FI-6 and each variant's table); deeper lines run
//! in the benchmark.

use postal::perft::{perft, read_table};
use postal::{Position, Variant};

/// Keeps `cargo test` quick in a debug build.
const NODE_LIMIT: u64 = 300_000;

fn check_table(variant: Variant) {
    let path = format!(
        "{}/fixtures/perft/{}.perft",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_table(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} has no positions");
    let mut checked = 0;
    for case in cases {
        let pos = Position::from_text(variant, &case.fen)
            .unwrap_or_else(|e| panic!("{path} {}: {e}", case.id));
        for (&(depth, nodes), line) in case.counts.iter().zip(&case.lines) {
            if nodes > NODE_LIMIT {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{path}:{line}: {} perft {depth}",
                case.id
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "{path}: no line within the node limit");
}

#[test]
fn fi6_chess_perft_table() {
    check_table(Variant::Chess);
}

#[test]
fn ga_gardner_perft_table() {
    check_table(Variant::Gardner);
}

#[test]
fn di_disintegration_perft_table() {
    check_table(Variant::Disintegration);
}

#[test]
fn kr_kristensen_perft_table() {
    check_table(Variant::Kristensen);
}

#[test]
fn building_perft_table() {
    check_table(Variant::Building);
}

#[test]
fn corral_perft_table() {
    check_table(Variant::Corral);
}

#[test]
fn sw_swap_perft_table() {
    check_table(Variant::Swap);
}
