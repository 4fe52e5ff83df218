//! Corral Chess perft speed (rules/corral.md), measured against FIDE chess
//! in the same run, and the cost of the checkmate ban (CO-10): after every
//! checking move the engine searches the opponent's replies for one that
//! saves its king. Runs the perft table's deep lines (those above the test
//! suite's node limit) and checks their counts.
//!
//! `cargo bench --bench corral` (a release build; about a minute).

use postal::perft::{perft, read_table};
use postal::variant::corral::{perft_work, Work};
use postal::{Position, Variant};
use std::time::Instant;

/// Runs `f`, returning its result and the seconds it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64())
}

fn main() {
    // The reference: FIDE chess perft 5 from the start (4,865,609 nodes).
    let chess = Position::start(Variant::Chess);
    let (n, secs) = timed(|| perft(&chess, 5));
    assert_eq!(n, 4_865_609, "chess perft 5");
    let chess_rate = n as f64 / secs;
    println!(
        "chess    start             perft 5 {n:>10} nodes {secs:6.2} s {:>6.2} Mnodes/s",
        chess_rate / 1e6
    );

    // The perft table's lines the test suite leaves out.
    let path = format!("{}/fixtures/perft/corral.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_table(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut total = (0u64, 0f64);
    for case in &cases {
        let pos = Position::from_text(Variant::Corral, &case.fen)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.counts {
            if nodes <= 300_000 {
                continue;
            }
            let (n, secs) = timed(|| perft(&pos, depth));
            assert_eq!(n, nodes, "{} perft {depth}", case.id);
            total = (total.0 + n, total.1 + secs);
            println!(
                "corral   {:<24}perft {depth} {n:>10} nodes {secs:6.2} s {:>6.2} Mnodes/s",
                case.id,
                n as f64 / secs / 1e6
            );
        }
    }
    let corral_rate = total.0 as f64 / total.1;
    println!(
        "corral / chess speed: {:.2} (corral {:.0} ns/node, chess {:.0} ns/node)",
        corral_rate / chess_rate,
        1e9 / corral_rate,
        1e9 / chess_rate
    );

    // The checkmate ban: the same trees counted with the ban switched off
    // (wrong counts, same work otherwise) against the real ones.
    println!("checkmate ban (CO-10), ban on against ban off:");
    for case in &cases {
        let pos = Position::from_text(Variant::Corral, &case.fen)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let depth = 3;
        let mut on = Work::default();
        let mut off = Work::default();
        let (n_on, t_on) = timed(|| perft_work(&pos, depth, true, &mut on));
        let (n_off, t_off) = timed(|| perft_work(&pos, depth, false, &mut off));
        println!(
            "  {:<24}perft {depth}: {n_on} nodes ({} more without the ban); {} steps judged, {} checks ({:.2}%), {} replies tried ({:.1} per check); {:.0} against {:.0} ns/node: the ban costs {:+.1}%, {:.0} ns a node",
            case.id,
            n_off as i64 - n_on as i64,
            on.steps,
            on.checks,
            100.0 * on.checks as f64 / on.steps.max(1) as f64,
            on.replies,
            on.replies as f64 / on.checks.max(1) as f64,
            1e9 * t_on / n_on as f64,
            1e9 * t_off / n_off as f64,
            100.0 * (t_on / t_off - 1.0),
            1e9 * (t_on - t_off) / n_on as f64,
        );
    }
}
