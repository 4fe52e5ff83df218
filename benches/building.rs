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
//! And games grown by legal turns to 1,000, 5,000 and 20,000 squares,
//! saved as state files: the time to load one (which replays and checks
//! every turn) and of `postal move` on it, in the library and with the
//! binary, against the same for a game of a few turns (and, with
//! `POSTAL_REFERENCE` set to another postal binary, its `postal move` on
//! the same files).
//!
//! `cargo bench --bench building` (add `-- --fen` to print the grown
//! boards' position texts).

use postal::game::Game;
use postal::perft::{perft, read_table};
use postal::variant::building::{parts, placements, Turns};
use postal::{Color, Move, Position, Role, Square, Variant};
use std::collections::BTreeSet;
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

/// A start of 350 squares on which a game can last 20,000 plies: 35
/// pawns a side on files of their own, whose moves reset the halfmove
/// clock (GA-4's seventy-five moves) some 200 times.
fn wide_start() -> Position {
    let text = format!(
        "69k/35{}/70/{}35/K69 w - - 0 1",
        "p".repeat(35),
        "P".repeat(35)
    );
    Position::from_text(Variant::Building, &text).expect("the wide start")
}

/// A game of legal turns from [`wide_start`] that grows the board up and
/// to the right until it has `squares`: the turns' texts and the end. The
/// kings step about, a pawn moves when the clock nears 150 plies, no turn
/// gives check, and each placement is the open square furthest along the
/// staircase, kept in a set as the board grows (a walk over the whole
/// board each turn would make the game's making quadratic).
fn long_game(squares: usize) -> (Vec<String>, Position) {
    let mut pos = wide_start();
    let key = |s: Square| {
        let (f, r) = (s.file as i32, s.rank as i32);
        ((f + r) * 4 - (f - r - 65).abs(), s.file, s.rank)
    };
    let mut open: [BTreeSet<(i32, i16, i16)>; 2] = Default::default();
    for color in Color::ALL {
        open[color as usize].extend(placements(&pos.board, color).into_iter().map(key));
    }
    let mut texts = Vec::new();
    while pos.board.square_count() < squares {
        let reset = |m: &postal::PieceMove| {
            m.role == Role::Pawn || pos.board.get(m.to).is_some_and(|s| s.is_occupied())
        };
        let want_reset = pos.halfmove >= 130;
        let mut moves = parts(&pos);
        moves.sort_by_key(|p| (reset(&p.mv) != want_reset, p.mv.role != Role::King));
        let side = &open[pos.turn as usize];
        let next = moves
            .iter()
            .flat_map(|part| {
                side.iter()
                    .rev()
                    .map(|&(_, f, r)| Square::new(f, r))
                    .filter(|s| !part.closed.contains(s))
                    .take(2)
                    .map(move |sq| {
                        let mut m = part.mv.clone();
                        m.place = Some(sq);
                        Move::Piece(m)
                    })
            })
            .find_map(|m| {
                let after = pos.play_unchecked(&m);
                (!after.is_check()).then_some((m, after))
            });
        let (m, after) = next.expect("a turn that gives no check");
        let Move::Piece(pm) = &m else { unreachable!() };
        let placed = pm.place.expect("a placement");
        texts.push(pos.move_text(&m));
        open[pos.turn as usize].remove(&key(placed));
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = placed.offset(dx, dy);
            if !after.board.contains(n) {
                let color = if n.is_light() {
                    Color::White
                } else {
                    Color::Black
                };
                open[color as usize].insert(key(n));
            }
        }
        pos = after;
    }
    (texts, pos)
}

/// The state file of a game of `texts` from [`wide_start`] ending in
/// `end`, as `postal move` writes it: the first turn played by the library
/// gives the record of a move, the others copy it with their texts (a
/// library `play` writes the position text every turn, and the making of
/// a long game would take minutes).
fn state_file(texts: &[String], end: &Position) -> String {
    let now = chrono::DateTime::parse_from_rfc3339("2026-12-02T12:00:00Z")
        .expect("a time")
        .to_utc();
    let mut game = Game::new(wide_start(), Default::default(), None, now).expect("a game");
    game.play(&texts[0], None, now).expect("the first turn");
    let mut json: serde_json::Value = serde_json::from_str(&game.to_json()).expect("JSON");
    let record = json["moves"][0].clone();
    json["moves"] = texts
        .iter()
        .map(|t| {
            let mut r = record.clone();
            r["played"] = t.clone().into();
            r["canonical"] = t.clone().into();
            r
        })
        .collect();
    json["position"] = end.to_text().into();
    serde_json::to_string_pretty(&json).expect("JSON")
}

/// Issue 34: loading a game grown by play, and `postal move` on it.
fn games() {
    let dir = std::env::temp_dir().join(format!("postal-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut base = (0.0, 0.0, 0.0);
    for squares in [352, 1_000, 5_000, 10_000, 20_000] {
        let t = Instant::now();
        let (texts, end) = long_game(squares);
        let making = t.elapsed().as_secs_f64();
        let file = state_file(&texts, &end);
        let next = long_game_next(&end);
        let runs = (2_000 / texts.len()).clamp(1, 20);
        let load = time(runs, || {
            std::hint::black_box(Game::from_json(&file).expect("the game loads"));
        });
        let now = chrono::Utc::now();
        let play = time(runs, || {
            let mut g = Game::from_json(&file).expect("the game loads");
            g.play(&next, None, now).expect("the next turn");
            std::hint::black_box(g.to_json());
        });
        let path = dir.join(format!("game-{squares}.json"));
        let postal_move = |program: &str| {
            time(1, || {
                std::fs::write(&path, &file).expect("the state file");
                let out = std::process::Command::new(program)
                    .args(["move", path.to_str().expect("a path"), &next])
                    .output()
                    .expect("postal runs");
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            })
        };
        let binary = postal_move(env!("CARGO_BIN_EXE_postal"));
        // Another build of postal, e.g. an earlier commit's, on the same
        // file in the same run.
        // (Up to 5,000 squares: before issue 34's gap 3, a load kept every
        // position's board and took minutes past that.)
        let reference = std::env::var("POSTAL_REFERENCE")
            .ok()
            .filter(|_| squares <= 5_000)
            .map(|program| {
                let t = postal_move(&program);
                format!(", reference {:.1} ms ({:.2}x ours)", t * 1e3, t / binary)
            })
            .unwrap_or_default();
        if base.0 == 0.0 {
            base = (load, play, binary);
        }
        println!(
            "game of {:>6} squares, {:>6} turns (made in {making:>5.1} s): load {:>8.1} ms ({:>5.1}x), move {:>8.1} ms ({:>5.1}x), postal move {:>8.1} ms ({:>5.1}x){reference}",
            end.board.square_count(),
            texts.len(),
            load * 1e3,
            load / base.0,
            play * 1e3,
            play / base.1,
            binary * 1e3,
            binary / base.2,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of a turn that goes on from `end` (as [`long_game`] plays).
fn long_game_next(end: &Position) -> String {
    let part = parts(end)
        .into_iter()
        .find(|p| p.mv.role == Role::King)
        .expect("a king move");
    let mut open = placements(&end.board, end.turn);
    open.retain(|s| !part.closed.contains(s));
    let mut m = part.mv;
    m.place = open.last().copied();
    end.move_text(&Move::Piece(m))
}

fn main() {
    if std::env::args().any(|a| a == "--growth") {
        growth();
        games();
        return;
    }
    if std::env::args().any(|a| a == "--games") {
        games();
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
