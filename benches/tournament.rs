//! A tournament at the scale of ICCF's largest section (issue 44, point
//! 5): a 17-player double round robin, 272 games, and the times of
//!
//! - making it (every game prepared, written and its letters spooled, each
//!   player's welcome letter), against one game started the same way in
//!   the same run, times 272 (target: under 2 s);
//! - its cross-table from the games' files (target: under 0.2 s);
//! - `receive` of one reply to one of its games, against one reply to the
//!   only game of another referee folder (target: no slower);
//!
//! each the best of a few runs. Run with `cargo bench --bench tournament`.

use postal::color::Color;
use postal::game::clock::parse_time;
use postal::game::state::{Player, Players};
use postal::game::{Game, TimeControl};
use postal::position::Position;
use postal::referee::tournament::{self, make, players};
use postal::referee::{letter, receive, start, Outcome, Referee};
use postal::variant::Variant;
use std::path::Path;
use std::time::{Duration, Instant};

const RUNS: usize = 3;
const PLAYERS: usize = 17;

/// CPU time (user + system) of this process so far.
fn cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The best of `runs` runs of `f` by wall time: (wall, CPU, its value).
/// Writing a game syncs it to the disk, so on a busy disk the wall time
/// is mostly waiting; the CPU time is the work.
fn best<T>(runs: usize, mut f: impl FnMut(usize) -> T) -> (Duration, Duration, T) {
    let mut best = (Duration::MAX, Duration::ZERO);
    let mut out = None;
    for k in 0..runs {
        let (t, c) = (Instant::now(), cpu());
        let r = f(k);
        let run = (t.elapsed(), cpu() - c);
        best = best.min(run);
        out = Some(r);
    }
    (best.0, best.1, out.expect("one run"))
}

fn referee(dir: &Path) -> Referee {
    Referee::init(dir, "Postal <postal@example.org>").unwrap()
}

/// One ordinary referee game, started as `postal new --referee` starts it.
fn single(dir: &Path) -> (Referee, String) {
    let r = referee(dir);
    let now = parse_time("2026-11-01T00:00:00Z").unwrap();
    let who = |n: &str| Player {
        name: Some(n.to_string()),
        email: Some(format!("{}@example.org", n.to_lowercase())),
    };
    let game = Game::new(
        Position::start(Variant::Chess),
        Players {
            white: who("Ana"),
            black: who("Ben"),
        },
        Some(TimeControl::parse("10d").unwrap()),
        now,
    )
    .unwrap();
    let s = start::prepare(&r, &game, now).unwrap();
    start::write(&r, &s).unwrap();
    start::release(&r, &s).unwrap();
    (r, s.gid)
}

fn plan(name: &str) -> make::Plan {
    let text: String = (0..PLAYERS)
        .map(|i| format!("Player {i} <p{i}@example.org>\n"))
        .collect();
    make::Plan {
        name: name.to_string(),
        players: players::read(&text).unwrap(),
        start_position: Position::start(Variant::Chess),
        time_control: Some(TimeControl::parse("10d").unwrap()),
        double: true,
        start: parse_time("2026-11-01T00:00:00Z").unwrap(),
    }
}

/// Four replies to game `gid`, each a fresh message playing one move; the
/// best time of the four.
fn replies(r: &Referee, gid: &str) -> Duration {
    let now = parse_time("2026-11-02T00:00:00Z").unwrap();
    let mut times = Vec::new();
    for (k, mv) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        let game = postal::game::store::load(&r.game_path(gid), None).unwrap();
        let side: Color = game.turn();
        let to = letter::reply_address(r, gid, &game, side);
        let from = game.file().players.get(side).email.clone().unwrap();
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: Re: x\r\nMessage-ID: <bench{k}@x>\r\n\r\n{mv}\r\n"
        );
        let t = Instant::now();
        let out = receive(r, raw.as_bytes(), now).unwrap();
        times.push(t.elapsed());
        assert!(matches!(out, Outcome::Applied { .. }), "{out:?}");
    }
    times.into_iter().min().unwrap()
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let now = parse_time("2026-11-01T00:00:00Z").unwrap();

    let (one, one_cpu, (sr, sgid)) = best(RUNS, |k| single(&tmp.path().join(format!("single{k}"))));
    println!("reference: one game started: {one:.2?} (CPU {one_cpu:.2?})");

    let (made, made_cpu, (tr, record)) = best(RUNS, |k| {
        let r = referee(&tmp.path().join(format!("club{k}")));
        let m = make::make(&r, &plan("open"), now).unwrap();
        (r, m.record)
    });
    let games = record.games.len();
    assert_eq!(games, PLAYERS * (PLAYERS - 1));
    println!(
        "tournament new, {PLAYERS} players, double round robin, {games} games: {made:.2?} \
         (CPU {made_cpu:.2?}; {:.2}x {games} single starts; target < 2 s)",
        made.as_secs_f64() / (one.as_secs_f64() * games as f64)
    );

    let t = tournament::Tournament::open(&tr, "open").unwrap();
    let (table, _, rows) = best(RUNS, |_| t.table(&tr).unwrap().lines.len());
    assert_eq!(rows, PLAYERS);
    println!("tournament table: {table:.2?} (target < 0.2 s)");

    let single_reply = replies(&sr, &sgid);
    let gid = record.games[games / 2].id.clone();
    let tournament_reply = replies(&tr, &gid);
    println!(
        "receive, one reply: single game {single_reply:.2?}, a game of the tournament \
         {tournament_reply:.2?} ({:.2}x; target: no slower)",
        tournament_reply.as_secs_f64() / single_reply.as_secs_f64()
    );
}
