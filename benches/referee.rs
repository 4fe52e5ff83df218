//! The referee at scale: a folder of 10,000 games (each 20 moves in, a
//! time control of 3 days, deadlines spread so that a few are near), and
//! the times of
//!
//! - `games --my-turn` for one player (index refreshed by stat: warm), and
//!   the cold rebuild of the index from every game file;
//! - `sweep` (index refresh, then only the games near their deadline);
//! - `receive` of one reply (one game file locked, loaded, saved, letters
//!   spooled), which must not depend on the number of games;
//!
//! each the best of a few runs, against a reference measured in the same
//! run: reading every game file's bytes (no parsing). The targets (issue
//! 16): under 2 s, under 2 s, under 50 ms. `POSTAL_BENCH_GAMES` changes
//! the number of games. Run with `cargo bench --bench referee`.

use postal::game::clock::parse_time;
use postal::game::state::{Player, Players};
use postal::game::{Game, TimeControl};
use postal::position::Position;
use postal::referee::{index, letter, receive, sweep, Referee};
use postal::variant::Variant;
use std::path::Path;
use std::time::{Duration, Instant};

const RUNS: usize = 3;

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (best, out.expect("one run"))
}

const LINE: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

fn build(dir: &Path, n: usize) -> (Referee, Vec<String>) {
    let r = Referee::init(dir, "Postal <postal@example.org>").unwrap();
    let start = parse_time("2026-11-01T00:00:00Z").unwrap();
    let mut template = Game::new(
        Position::start(Variant::Chess),
        Players::default(),
        Some(TimeControl::parse("3d").unwrap()),
        start,
    )
    .unwrap();
    for m in LINE {
        template.play(m, None, start).unwrap();
    }
    let mut gids = Vec::with_capacity(n);
    for i in 0..n {
        let gid = format!("g{i:05}");
        let white = format!("player{}@example.org", i % 500);
        let black = format!("player{}@example.org", (i * 7 + 1) % 500);
        let mut file = template.file().clone();
        file.players = Players {
            white: Player {
                name: Some(format!("W{i}")),
                email: Some(white),
            },
            black: Player {
                name: Some(format!("B{i}")),
                email: Some(black),
            },
        };
        // Spread the last move over 30 days: few games are near a deadline.
        let t = start + chrono::Duration::minutes((i * 4320 / n.max(1)) as i64 * 10);
        for m in &mut file.moves {
            m.time = t;
        }
        let text = serde_json::to_string_pretty(&file).unwrap();
        std::fs::write(r.game_path(&gid), text).unwrap();
        gids.push(gid);
    }
    (r, gids)
}

fn main() {
    let n: usize = std::env::var("POSTAL_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let tmp = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let (r, gids) = build(tmp.path(), n);
    println!("built {n} games in {:.2?}", t.elapsed());

    let (reference, bytes) = best(RUNS, || {
        let mut total = 0;
        for g in &gids {
            total += std::fs::read(r.game_path(g)).unwrap().len();
        }
        total
    });
    println!(
        "reference: read every game file ({} MB): {reference:.2?}",
        bytes / 1_000_000
    );

    let (cold, _) = best(1, || index::refresh(&r).unwrap());
    println!(
        "index rebuilt from every game file (cold): {cold:.2?} ({:.1}x reference)",
        cold.as_secs_f64() / reference.as_secs_f64()
    );
    let me = "player7@example.org";
    let (warm, mine) = best(RUNS, || {
        let (idx, _) = index::refresh(&r).unwrap();
        idx.games
            .values()
            .filter(|row| row.to_move_email() == Some(me))
            .count()
    });
    println!(
        "games --my-turn (warm index): {warm:.2?} ({:.1}x reference), {mine} games (target < 2 s)",
        warm.as_secs_f64() / reference.as_secs_f64()
    );

    // Deadlines are spread over 30 days, so an hourly sweep meets about
    // n/720 games that crossed into the reminder window or past the
    // deadline. The first sweep here, 2 days and 1 hour after the first
    // games' last moves, finds the games whose deadline is within a day.
    let now = parse_time("2026-11-03T01:00:00Z").unwrap();
    let (sw, s) = best(1, || sweep::sweep(&r, now).unwrap());
    println!(
        "sweep (reminders written): {sw:.2?} ({:.1}x reference): {} reminders, {} forfeits (target < 2 s)",
        sw.as_secs_f64() / reference.as_secs_f64(),
        s.reminders.len(),
        s.forfeits.len()
    );
    let (sw2, _) = best(RUNS, || sweep::sweep(&r, now).unwrap());
    println!(
        "sweep (again, nothing new): {sw2:.2?} ({:.1}x reference) (target < 2 s)",
        sw2.as_secs_f64() / reference.as_secs_f64()
    );
    // A day later: the first games are past their deadline (forfeits).
    let later = parse_time("2026-11-04T01:00:00Z").unwrap();
    let (sw3, s) = best(1, || sweep::sweep(&r, later).unwrap());
    println!(
        "sweep a day later: {sw3:.2?}: {} reminders, {} forfeits",
        s.reminders.len(),
        s.forfeits.len()
    );

    // Receive: a legal reply to one game still going on, a fresh message
    // each run (each applies one move).
    let gid = gids.last().unwrap().clone();
    let mut times = Vec::new();
    for (k, mv) in ["Nbd2", "Bb7", "Bc2", "Re8"].iter().enumerate() {
        let game = postal::game::store::load(&r.game_path(&gid), None).unwrap();
        let side = game.turn();
        let to = letter::reply_address(&r, &gid, &game, side);
        let from = game.file().players.get(side).email.clone().unwrap();
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: Re: x\r\nMessage-ID: <bench{k}@x>\r\n\r\n{mv}\r\n"
        );
        let t = Instant::now();
        let out = receive(&r, raw.as_bytes(), later).unwrap();
        times.push(t.elapsed());
        assert!(
            matches!(out, postal::referee::Outcome::Applied { .. }),
            "{out:?}"
        );
    }
    let rc = times.iter().min().unwrap();
    println!(
        "receive (one reply applied, letters spooled, {n} games in the folder): best {rc:.2?}, worst {:.2?} (target < 50 ms)",
        times.iter().max().unwrap()
    );
}
