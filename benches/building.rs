//! Building Chess perft speed as the board grows (BU-4): whole turns per
//! second from the start position and from the same pieces on boards grown
//! by 100 squares, as after a game of 100 turns: a blob grown at random
//! around the 5x5 board, and four arms of 25 squares that stretch the
//! bounding box (and so the mailbox) to 55x55. Gardner minichess perft is
//! timed in the same run as a reference; turn lists per second show the
//! cost of one position's geometry; the table's lines over the test suite's
//! node limit are checked and timed.
//!
//! Issue 34: how the cost grows with the board (`-- --growth` runs this
//! part alone): boards of 25, 1,000, 5,000 and 20,000 squares, grown as
//! a diagonal staircase whose bounding box is a quarter of its squares
//! squared (100 million cells at 20,000), and a 3,000 x 5 rectangle: the
//! time of a legal-turn list, of reading and writing the position text,
//! and of what `postal move` does to a game started there (load, read the
//! move, play it, write the text), each against the 25-square start.
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

/// The start position with `n - 25` squares added as a staircase up and
/// to the right: each side adds the open square furthest along the
/// diagonal.
fn staircase(n: usize) -> Position {
    grown(n - 25, |_, open| {
        *open
            .iter()
            .max_by_key(|s| {
                let (f, r) = (s.file as i32, s.rank as i32);
                (f + r) * 4 - (f - r).abs()
            })
            .expect("a placement is open")
    })
}

/// Seconds per call of `f`, best of three runs of `runs` calls.
fn time(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..runs {
                f();
            }
            t.elapsed().as_secs_f64() / runs as f64
        })
        .fold(f64::MAX, f64::min)
}

/// Issue 34: the cost of a turn list, a position text and a move as the
/// board grows.
fn growth() {
    let wide = Position::from_text(
        Variant::Building,
        "rnbqk2995/ppppp2995/3000/PPPPP2995/RNBQK2995 w - - 0 1",
    )
    .expect("3000 x 5");
    let mut boards: Vec<(String, Position)> = [25, 1_000, 5_000, 20_000]
        .into_iter()
        .map(|n| (format!("staircase {n}"), staircase(n)))
        .collect();
    boards.push(("rectangle 3000x5".to_string(), wide));
    let mut base = (0.0, 0.0, 0.0);
    for (name, pos) in &boards {
        let runs = (20_000 / pos.board.square_count()).max(3);
        let list = time(runs, || {
            std::hint::black_box(Turns::new(pos).count());
        });
        let text = pos.to_text();
        let fen = time(runs, || {
            let p = Position::from_text(Variant::Building, &text).expect("reads back");
            std::hint::black_box(p.to_text());
        });
        let mv = {
            let turns = Turns::new(pos);
            let part = &turns.parts[0];
            let mut m = part.mv.clone();
            m.place = turns.open(part).next();
            pos.move_text(&postal::Move::Piece(m))
        };
        let play = time(runs, || {
            let p = Position::from_text(Variant::Building, &text).expect("reads back");
            let m = p.parse_move(&mv).expect("legal");
            let next = p.play(&m).expect("legal");
            std::hint::black_box(next.to_text());
        });
        if base.0 == 0.0 {
            base = (list, fen, play);
        }
        let (f0, r0, f1, r1) = pos.board.bounds();
        println!(
            "{name:>17}: {:>6} squares, box {:>6} cells; turn list {:>9.3} ms ({:>6.0}x), text {:>8.3} ms ({:>5.0}x), move {:>8.3} ms ({:>5.0}x), {} turns",
            pos.board.square_count(),
            (f1 - f0 + 1) as i64 * (r1 - r0 + 1) as i64,
            list * 1e3,
            list / base.0,
            fen * 1e3,
            fen / base.1,
            play * 1e3,
            play / base.2,
            Turns::new(pos).count()
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--growth") {
        growth();
        return;
    }
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
    growth();
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
