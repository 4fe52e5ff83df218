//! Swap Chess benchmark: perft speed against FIDE chess measured in the
//! same run, how far perft 1 is feasible along the sample game from the
//! start position, and how long mate detection takes in crowded positions.
//! `cargo bench --bench swap` (about a minute).

use postal::perft::perft;
use postal::variant::swap::{count_swaps, count_swaps_within};
use postal::{Position, Variant};
use std::time::{Duration, Instant};

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

fn rate(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64().max(1e-9)
}

/// The sample game of the rule page, read from the page itself
/// (fixtures/records/swap-chess.txt) by the published-text reader.
fn sample_game() -> Vec<postal::Move> {
    let page = include_str!("../fixtures/records/swap-chess.txt");
    let opts = postal::record::game::Options {
        variant: Some(Variant::Swap),
        keep_moves: true,
        ..Default::default()
    };
    let mut games = Vec::new();
    postal::record::verify::read(
        "swap-chess.txt",
        page.as_bytes(),
        None,
        &opts,
        &mut |g, _| games.push(g),
    )
    .expect("the page reads");
    games
        .pop()
        .expect("the sample game")
        .moves
        .into_iter()
        .map(|m| m.mv)
        .collect()
}

/// Walk states perft 1 may visit per position of the game.
const BUDGET: u64 = 10_000_000;

fn main() {
    // Reference: FIDE chess perft 4 from the start, same machine, same run.
    let chess = Position::start(Variant::Chess);
    let (n, d) = timed(|| perft(&chess, 4));
    let chess_rate = rate(n, d);
    println!(
        "chess start perft 4: {n} nodes in {d:.2?} = {:.2} Mnodes/s",
        chess_rate / 1e6
    );

    println!("\nSwap Chess perft (nodes are legal turns: FIDE moves and swap sequences)");
    for (id, text, depth) in [
        ("mate-in-one", "3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6 w - - 0 1", 3),
        ("sample-28", "p1p5/pk6/2p2p2/1PPb4/P2KP2r/3b2r1/1PQ5/R1P1P3 w - - 1 29 ko=p1p5/pk6/2p2p2/1bPb4/P2KP2r/3P2r1/1PQ5/R1P1P3", 2),
        ("sample-35", "1kb5/p1R5/2Q2p2/1PP5/p2Kb2r/3p2r1/1PP5/P1P1P3 w - - 3 36", 2),
    ] {
        let p = Position::from_text(Variant::Swap, text).unwrap();
        let (n, d) = timed(|| perft(&p, depth));
        let r = rate(n, d);
        println!(
            "  {id} perft {depth}: {n} in {d:.2?} = {:.2} Mnodes/s ({:.2}x chess)",
            r / 1e6,
            r / chess_rate
        );
    }

    println!("\nperft 1 from the start position and along the sample game ({BUDGET} walk states at most)");
    let start = Position::start(Variant::Swap);
    let (swaps, d) = timed(|| count_swaps(&start));
    let fide = start.legal_moves().len() as u64;
    println!(
        "  start: perft 1 = {} ({fide} FIDE moves + {swaps} swap sequences) in {d:.2?} = {:.2} Mturns/s",
        fide + swaps,
        rate(swaps, d) / 1e6
    );
    let mut pos = start;
    let mut over = Vec::new();
    let mut slowest = (0, Duration::ZERO, 0);
    for (ply, mv) in sample_game().iter().enumerate() {
        pos = pos.play(mv).unwrap();
        let ply = ply + 1;
        let (r, d) = timed(|| count_swaps_within(&pos, BUDGET));
        match r {
            None => over.push(ply),
            Some(n) => {
                let n = n + pos.legal_moves().len() as u64;
                if d > slowest.1 {
                    slowest = (ply, d, n);
                }
            }
        }
    }
    println!("  after plies {over:?}: over the budget; every other position counts within it");
    println!(
        "  slowest within the budget: after ply {}, perft 1 = {} in {:.2?}",
        slowest.0, slowest.2, slowest.1
    );

    println!("\ncheckmate and escapes from check (outcome of the position, best of 5)");
    for (what, text) in [
        ("mate, 29 pieces", "QpkBprn1/2Qp2rp/6bp/4B3/8/PR2N1Nn/P1PKb2P/n1P1P1Rn b - - 2 19 ko=ppkBprn1/2Bp2rp/6bp/4p3/8/PP2N1Nn/R1PPb2P/P1K1P1RQ"),
        ("mate, 28 pieces", "R1pNpBpB/1p4Qk/p2Qppb1/3p4/P7/P3K1P1/1n2P1NP/1PR1n1P1 b - - 2 21 ko=R1pNpQpB/1p4pk/p2Qpnb1/3p4/P7/P3P1P1/1R2P1NP/1PK1n1B1"),
        ("mate, 26 pieces", "rkrNp2b/1Q2p2n/5n1P/R5PN/2PP1p2/2P3p1/p3K3/B2R1PNN b - - 0 26"),
        ("mate, sample game end", "1kR5/p7/2Q2p2/1PP5/p2Kb2r/3p2r1/1PP5/P1P1P3 b - - 0 36"),
        ("escape in 6 swaps, 29 pieces", "nrnp1brk/Rpp3pQ/8/1q6/1P2B3/N6P/BPPP2K1/R1NbPPPn b - - 0 12"),
        ("escape, 28 pieces", "bk2pr2/p2ppPbn/1R5n/1pP4P/p2p1NR1/5BP1/2R5/NKB1brP1 b - - 5 26 ko=bk2pr2/p2ppPbn/1p5R/1PP4n/p2p1NR1/5BP1/2R5/NKB1brP1"),
    ] {
        let p = Position::from_text(Variant::Swap, text).unwrap();
        let mut best = Duration::MAX;
        let mut outcome = None;
        for _ in 0..5 {
            let (o, d) = timed(|| p.outcome());
            best = best.min(d);
            outcome = o;
        }
        let said = outcome.map(|o| o.reason).unwrap_or_else(|| "not over".into());
        println!("  {what}: {said} in {best:.2?}");
    }

    println!("\nchecking a written sequence (postal move): time grows with its length");
    let p = Position::start(Variant::Swap);
    for text in [
        "Qd1/d2",
        "Qd1/d2/e2/f2/g2/h2",
        "Qd1/d2/e2/f2/g2/h2/h1/g1/f1/e1",
    ] {
        let m = p.parse_move(text).unwrap();
        let runs = 10_000;
        let (_, d) = timed(|| (0..runs).all(|_| p.is_legal(&m)));
        println!("  {text}: {:.2?} per check", d / runs);
    }
}
