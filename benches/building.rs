//! Building Chess perft speed as the board grows (BU-4): whole turns per
//! second from the start position and from the same pieces on boards grown
//! by 100 squares, as after a game of 100 turns: a blob grown at random
//! around the 5x5 board, and four arms of 25 squares that stretch the
//! bounding box (and so the mailbox) to 55x55. Gardner minichess perft is
//! timed in the same run as a reference; turn lists per second show the
//! cost of one position's geometry; the table's lines over the test suite's
//! node limit are checked and timed.
//!
//! `cargo bench --bench building` (add `-- --fen` to print the grown
//! boards' position texts).

use postal::perft::{perft, read_table};
use postal::variant::building::{placements, Turns};
use postal::{Color, Position, Square, Variant};
use std::time::Instant;

/// The start position with `n` squares added, alternately light and dark
/// as White and Black would add them, `pick` choosing among the squares
/// open to the side.
fn grown(n: usize, mut pick: impl FnMut(usize, &[Square]) -> Square) -> Position {
    let mut pos = Position::start(Variant::Building);
    for t in 0..n {
        let color = if t % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let open = placements(&pos.board, color);
        let sq = pick(t, &open);
        pos.board.add_square(sq);
    }
    pos.fullmove += (n / 2) as u32;
    pos
}

fn blob(n: usize) -> Position {
    let mut state: u64 = 2001;
    grown(n, |_, open| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        open[((state >> 33) % open.len() as u64) as usize]
    })
}

/// Arms along rank 3 and file c, each side extending the same arm in
/// turn: east, north, west, south, east, ...
fn arms(n: usize) -> Position {
    grown(n, |t, open| {
        let (dx, dy): (i16, i16) = [(1, 0), (0, 1), (-1, 0), (0, -1)][(t / 2) % 4];
        *open
            .iter()
            .filter(|s| if dx != 0 { s.rank == 3 } else { s.file == 3 })
            .max_by_key(|s| s.file * dx + s.rank * dy)
            .expect("the arm's tip is open")
    })
}

/// Perft nodes per second, best of `runs`.
fn rate(pos: &Position, depth: u32, runs: usize) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = perft(pos, depth);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, nodes as f64 / best)
}

/// Turn lists generated per second (the geometry's cost per position,
/// whatever the number of turns in it).
fn lists(pos: &Position, runs: usize) -> f64 {
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..runs {
        n += Turns::new(pos).parts.len();
    }
    assert!(n > 0);
    runs as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let blob100 = blob(100);
    let arms100 = arms(100);
    if std::env::args().any(|a| a == "--fen") {
        println!("blob100 {}", blob100.to_text());
        println!("arms100 {}", arms100.to_text());
        return;
    }
    let start = Position::start(Variant::Building);
    let gardner = Position::start(Variant::Gardner);

    let (gn, gr) = rate(&gardner, 6, 3);
    println!(
        "gardner start   perft 6 {gn:>10} nodes {:>7.2} Mnodes/s (reference)",
        gr / 1e6
    );
    let (sn, sr) = rate(&start, 2, 200);
    println!(
        "building start  perft 2 {sn:>10} nodes {:>7.2} Mnodes/s  {:.2}x gardner",
        sr / 1e6,
        sr / gr
    );
    let (sn3, sr3) = rate(&start, 3, 3);
    println!(
        "building start  perft 3 {sn3:>10} nodes {:>7.2} Mnodes/s",
        sr3 / 1e6
    );
    // Same depth as the start's perft 2: one level of positions, each
    // counted in bulk; the grown boards have ~100 times as many turns a
    // position, so nodes per second rise while positions per second fall.
    for (name, pos) in [("blob100", &blob100), ("arms100", &arms100)] {
        let (n, r) = rate(pos, 2, 5);
        let (f0, r0, f1, r1) = pos.board.bounds();
        println!(
            "building {name} perft 2 {n:>10} nodes {:>7.2} Mnodes/s  ratio to start perft 2: {:.2}  ({} squares, box {}x{})",
            r / 1e6,
            r / sr,
            pos.board.square_count(),
            f1 - f0 + 1,
            r1 - r0 + 1
        );
    }
    let ls = lists(&start, 20_000);
    println!("turn lists start:   {ls:>8.0}/s");
    for (name, pos) in [("blob100", &blob100), ("arms100", &arms100)] {
        let l = lists(pos, 20_000);
        println!(
            "turn lists {name}: {l:>8.0}/s  ratio to start {:.2}  ({} turns a list, start {})",
            l / ls,
            Turns::new(pos).count(),
            Turns::new(&start).count()
        );
    }

    // The table's lines beyond the test suite's node limit.
    let path = format!(
        "{}/fixtures/perft/building.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("perft table");
    for case in read_table(&text).expect("perft table") {
        let pos = Position::from_text(Variant::Building, &case.fen).expect("position");
        for (depth, nodes) in case.counts {
            if nodes > 300_000 {
                let t = Instant::now();
                let got = perft(&pos, depth);
                let ok = if got == nodes { "ok" } else { "MISMATCH" };
                println!(
                    "table {} perft {depth}: {got} ({ok}, {:.1} s)",
                    case.id,
                    t.elapsed().as_secs_f64()
                );
                assert_eq!(got, nodes, "{} perft {depth}", case.id);
            }
        }
    }
}
