//! Kristensen's Game perft speed: nodes per second for each position of
//! `fixtures/perft/kristensen.perft` at depth 4, against FIDE chess perft
//! 5 from the start position timed in the same run as the reference. The
//! counts are checked against the table as they are timed.
//!
//! `cargo bench --bench kristensen`

use postal::perft::{perft, read_table};
use postal::{Position, Variant};
use std::time::Instant;

fn timed(pos: &Position, depth: u32) -> (u64, f64) {
    let t = Instant::now();
    let nodes = perft(pos, depth);
    (nodes, t.elapsed().as_secs_f64())
}

fn main() {
    let chess = Position::start(Variant::Chess);
    let (nodes, secs) = timed(&chess, 5);
    assert_eq!(nodes, 4_865_609);
    let reference = nodes as f64 / secs;
    println!(
        "chess start perft 5: {nodes} nodes in {secs:.2} s, {:.2} Mnodes/s (reference)",
        reference / 1e6
    );
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/perft/kristensen.perft"
    );
    let text = std::fs::read_to_string(path).expect("perft table");
    for case in read_table(&text).expect("perft table") {
        let pos = Position::from_text(Variant::Kristensen, &case.fen).expect("table position");
        let &(depth, expected) = case.counts.iter().max().expect("counts");
        let (nodes, secs) = timed(&pos, depth);
        assert_eq!(nodes, expected, "{} perft {depth}", case.id);
        let rate = nodes as f64 / secs;
        println!(
            "kristensen {} perft {depth}: {nodes} nodes in {secs:.2} s, {:.2} Mnodes/s, {:.2} x chess",
            case.id,
            rate / 1e6,
            rate / reference
        );
    }
}
