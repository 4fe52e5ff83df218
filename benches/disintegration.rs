//! Disintegration Chess perft speed, against FIDE chess perft measured in
//! the same run. `cargo bench --bench disintegration`.

use postal::perft::perft;
use postal::{Position, Variant};
use std::time::Instant;

/// Runs perft and returns (nodes, nodes per second).
fn time(variant: Variant, fen: &str, depth: u32) -> (u64, f64) {
    let pos = Position::from_text(variant, fen).expect("bench position");
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    (nodes, nodes as f64 / secs)
}

fn main() {
    let (n, reference) = time(
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    );
    println!(
        "chess start perft 5: {n} nodes, {:.2} Mnodes/s (reference)",
        reference / 1e6
    );
    for (id, fen, depth) in [
        ("start", Variant::Disintegration.spec().start, 7),
        ("case1", "5/5/3r1/5/k4/kk3/5/K1K1K/R4 w - - 0 1", 5),
        ("case2", "5/5/3r1/5/k4/kk3/5/K1K1K/R4 b - - 0 1", 5),
        ("pawns", "k1k2/4P/3p1/1f3/2pP1/5/1R3/p4/2F1K w - c6 0 30", 5),
    ] {
        let (n, rate) = time(Variant::Disintegration, fen, depth);
        println!(
            "disintegration {id} perft {depth}: {n} nodes, {:.2} Mnodes/s, {:.2}x chess",
            rate / 1e6,
            rate / reference
        );
    }
}
