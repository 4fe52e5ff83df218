//! Two figures of issue 19, each against a reference measured in the same
//! run:
//!
//! 1. Verifying random games of every variant: games per second of
//!    `postal verify` on a generated PGN file per variant (random legal
//!    moves from the start, written in the variant's notation with check
//!    marks), this build's binary against a reference binary
//!    (`POSTAL_BASE`, e.g. main's build; skipped when unset), run
//!    alternately, medians of the CPU time of each process.
//! 2. `postal move` on a 300-ply chess game: CPU time and wall time of the
//!    whole process (load, which replays and checks every move, the move,
//!    the atomic save), medians of 20 runs, against the two fsyncs of an
//!    atomic save of the same file measured alone.
//!
//! Both binaries are timed as copies, as installed
//! ([`common::installed`]).
//!
//! Run: `POSTAL_BASE=/path/to/old/postal cargo bench --bench games`
//! (`-- --move-only` or `-- --variants-only` for one of the two).

mod common;

use postal::game::store::write_atomic;
use postal::{Position, Variant};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// xorshift64: small, fast and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of `variant` as PGN movetext, up to `plies` plies or the
/// end of the game, with its result, and its number of plies.
fn random_game(variant: Variant, rng: &mut Rng, plies: usize) -> (String, usize) {
    let mut pos = Position::start(variant);
    let mut text = String::new();
    let mut n = 0;
    while n < plies {
        if pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.below(moves.len())];
        if n % 2 == 0 {
            text.push_str(&format!("{}. ", n / 2 + 1));
        }
        text.push_str(&pos.move_text(mv));
        text.push(' ');
        pos = pos.play(mv).expect("a legal move plays");
        n += 1;
    }
    let result = pos.outcome().map_or("*", |o| o.result.as_str());
    text.push_str(result);
    (text, n)
}

fn corpus(variant: Variant, games: usize, dir: &Path) -> (PathBuf, usize) {
    let mut rng =
        Rng(0x9E37_79B9_7F4A_7C15 ^ (variant.built_in_index().unwrap_or_default() as u64 + 1));
    let mut text = String::new();
    let mut plies = 0;
    for i in 0..games {
        let (moves, n) = random_game(variant, &mut rng, 120);
        plies += n;
        text.push_str(&format!(
            "[Event \"random {i}\"]\n[Variant \"{}\"]\n\n{moves}\n\n",
            variant.spec().title
        ));
    }
    let path = dir.join(format!("{}.pgn", variant.name()));
    std::fs::write(&path, text).expect("corpus written");
    (path, plies)
}

/// CPU time (user + system) of the children waited for so far.
fn children_cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Runs a command to its end: (CPU, wall).
fn run(cmd: &mut Command) -> (Duration, Duration) {
    let cpu = children_cpu();
    let t = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the command runs");
    let wall = t.elapsed();
    assert!(status.code().is_some(), "{cmd:?} was killed");
    (children_cpu() - cpu, wall)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn variants(dir: &Path, new: &str, base: Option<&str>) {
    println!(
        "random games, {} runs alternating, median CPU per process:",
        5
    );
    for variant in Variant::ALL {
        let games = 1000;
        let (path, plies) = corpus(variant, games, dir);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..5 {
            ours.push(run(Command::new(new).arg("verify").arg(&path)).0);
            if let Some(b) = base {
                theirs.push(run(Command::new(b).arg("verify").arg(&path)).0);
            }
        }
        let ours = median(ours);
        let rate = games as f64 / ours.as_secs_f64();
        print!(
            "  {:<15} {games} games, {plies} plies: {rate:>8.0} games/s",
            variant.name()
        );
        if base.is_some() {
            let theirs = median(theirs);
            let old = games as f64 / theirs.as_secs_f64();
            print!("  base {old:>8.0} games/s  ratio {:.2}x", rate / old);
        }
        println!();
    }
}

/// A 300-ply chess game in a state file, made with `postal new` and 300
/// `postal move`s of random legal moves that do not end the game.
fn long_game(dir: &Path, postal: &str) -> (PathBuf, String) {
    let mut rng = Rng(19);
    loop {
        let path = dir.join("long.json");
        let _ = std::fs::remove_file(&path);
        let mut pos = Position::start(Variant::Chess);
        let mut texts = Vec::new();
        let mut stuck = false;
        for _ in 0..301 {
            let moves: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    let after = pos.play_unchecked(m);
                    after.outcome().is_none() && after.halfmove < 90
                })
                .collect();
            if moves.is_empty() {
                stuck = true;
                break;
            }
            let mv = moves[rng.below(moves.len())].clone();
            texts.push(pos.move_text(&mv));
            pos = pos.play_unchecked(&mv);
        }
        if stuck {
            continue;
        }
        let now = ["POSTAL_NOW", "2026-01-01T00:00:00Z"];
        let ok = Command::new(postal)
            .env(now[0], now[1])
            .args(["new", "chess", "-o"])
            .arg(&path)
            .stdout(Stdio::null())
            .status()
            .expect("postal new")
            .success();
        assert!(ok, "postal new");
        for t in &texts[..300] {
            let out = Command::new(postal)
                .env(now[0], now[1])
                .arg("move")
                .arg(&path)
                .arg(t)
                .stdout(Stdio::null())
                .output()
                .expect("postal move");
            assert!(
                out.status.success(),
                "{t}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        return (path, texts[300].clone());
    }
}

fn one_move(dir: &Path, postal: &str, base: Option<&str>) {
    let (game, next) = long_game(dir, postal);
    let bytes = std::fs::read(&game).expect("the game file");
    let work = dir.join("move.json");
    let mut runs: Vec<(&str, Vec<Duration>, Vec<Duration>)> = vec![("this build", vec![], vec![])];
    if base.is_some() {
        runs.push(("base", vec![], vec![]));
    }
    let mut fsyncs = Vec::new();
    for _ in 0..20 {
        for (i, (_, cpu, wall)) in runs.iter_mut().enumerate() {
            let bin = if i == 0 {
                postal
            } else {
                base.expect("a base")
            };
            std::fs::write(&work, &bytes).expect("copy");
            let (c, w) = run(Command::new(bin)
                .env("POSTAL_NOW", "2026-01-01T00:00:00Z")
                .arg("move")
                .arg(&work)
                .arg(&next));
            cpu.push(c);
            wall.push(w);
        }
        let t = Instant::now();
        write_atomic(&work, &bytes).expect("atomic save");
        fsyncs.push(t.elapsed());
    }
    let save = median(fsyncs);
    // The same move command with nothing to replay: the first move of a
    // new game, what the process costs whatever the game's length.
    let first = dir.join("first.json");
    let fresh = dir.join("fresh.json");
    let made = Command::new(postal)
        .env("POSTAL_NOW", "2026-01-01T00:00:00Z")
        .args(["new", "chess", "-o"])
        .arg(&fresh)
        .stdout(Stdio::null())
        .status()
        .expect("postal new")
        .success();
    assert!(made, "postal new");
    let fresh = std::fs::read(&fresh).expect("the new game");
    let opening = median(
        (0..20)
            .map(|_| {
                std::fs::write(&first, &fresh).expect("copy");
                run(Command::new(postal)
                    .env("POSTAL_NOW", "2026-01-01T00:00:00Z")
                    .arg("move")
                    .arg(&first)
                    .arg("e4"))
                .0
            })
            .collect(),
    );
    // The floor under the figure: the same binary starting and doing
    // nothing (`--version`), measured the same way.
    let start = median(
        (0..20)
            .map(|_| run(Command::new(postal).arg("--version")).0)
            .collect(),
    );
    println!(
        "postal move on a 300-ply chess game (the 301st ply {next}), medians of 20 runs; the atomic save alone (write, two fsyncs, rename) {:.2} ms:",
        ms(save)
    );
    // And under that, the machine's: a process that does nothing.
    let nothing = median((0..20).map(|_| run(&mut Command::new("true")).0).collect());
    println!(
        "  a process that does nothing (true): CPU {:.2} ms",
        ms(nothing)
    );
    println!(
        "  process start alone (postal --version): CPU {:.2} ms",
        ms(start)
    );
    println!(
        "  the first move of a new game (nothing to replay): CPU {:.2} ms",
        ms(opening)
    );
    let mut cpus = Vec::new();
    for (name, cpu, wall) in runs {
        let (c, w) = (median(cpu), median(wall));
        println!(
            "  {name}: CPU {:.2} ms (target 3 ms), wall {:.2} ms = {:.1}x the save alone",
            ms(c),
            ms(w),
            w.as_secs_f64() / save.as_secs_f64()
        );
        cpus.push(c);
    }
    // The machine's speed drifts from one minute to the next; these
    // ratios, of figures measured side by side, do not.
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    print!(
        "  this build / the first move of a new game: {:.2}x",
        ratio(cpus[0], opening)
    );
    if let Some(&b) = cpus.get(1) {
        print!("; base / this build: {:.2}x", ratio(b, cpus[0]));
    }
    println!();
}

fn main() {
    let dir = std::env::temp_dir().join("postal-bench-games");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench folder");
    let bin = common::installed(env!("CARGO_BIN_EXE_postal"), &dir, "postal");
    let postal = bin.as_str();
    let base = std::env::var("POSTAL_BASE")
        .ok()
        .map(|b| common::installed(&b, &dir, "postal-base"));
    if std::env::args().any(|a| a == "--move-only") {
        one_move(&dir, postal, base.as_deref());
        return;
    }
    if std::env::args().any(|a| a == "--variants-only") {
        variants(&dir, postal, base.as_deref());
        return;
    }
    one_move(&dir, postal, base.as_deref());
    variants(&dir, postal, base.as_deref());
}
