//! Game records: games per second reading (lexer and PGN reader, no
//! legality) and verifying (every move resolved, played and its check
//! mark checked) a large FIDE PGN file in this process (best of a few
//! runs, wall clock), then, as processes measured by their CPU time and
//! run alternately (medians), `postal verify` on the file against
//! pgn-extract (`-r`: check the games, write nothing) and, when
//! `POSTAL_BASE` names another build of postal (main's, say), that build;
//! and on the file's first 2,000 games against python-chess
//! (`chess.pgn.read_game`, which plays every move), with the ratios.
//!
//! Run `benches/compare-pgn.sh`, which fetches the corpus (caissa-ai.pgn,
//! 20,566 games, shipped by the Rust package `jja`; GPL-3.0, so it is
//! fetched at run time and never committed), installs pgn-extract and
//! python-chess, and runs this bench. By hand: `POSTAL_BENCH_PGN=file.pgn
//! cargo bench --bench records`, with `PGN_EXTRACT` (default
//! `/usr/games/pgn-extract`), `PYTHON` (a Python with the `chess`
//! package; default `python3`) and `POSTAL_BASE`. Without a file, a
//! generated one of 5,000 games is used.

mod common;

use postal::record::game::Options;
use postal::record::pgn::{self, Chunk, Chunker};
use postal::record::verify::{self, Format};
use postal::record::Event;
use std::io::BufReader;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs of each measurement: this machine's speed drifts by a third from
/// one minute to the next, and seven alternate runs keep a slow spell from
/// deciding a median (three did not).
const RUNS: usize = 7;

fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (best, out.expect("at least one run"))
}

fn read_only(path: &str) -> usize {
    let file = std::fs::File::open(path).expect("bench file");
    let mut chunker = Chunker::new(BufReader::with_capacity(1 << 16, file));
    let mut chunk = Chunk::default();
    let mut games = 0;
    while chunker.next_chunk(&mut chunk).expect("readable") {
        pgn::read(&chunk.text, &mut |e| {
            if let Event::EndGame { .. } = e {
                games += 1;
            }
        });
    }
    games
}

fn verify_all(path: &str) -> (usize, usize) {
    let mut games = 0;
    let mut sound = 0;
    let _ = verify::read_file(path, Some(Format::Pgn), &Options::default(), &mut |g, _| {
        games += 1;
        sound += g.is_sound() as usize;
    });
    (games, sound)
}

/// CPU time (user + system) of the children waited for so far.
fn children_cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The CPU time of one run of a command, if it ran (any exit status:
/// `postal verify` exits 1 or 2 when a game is unsound or unreadable).
fn run_tool(cmd: &mut Command) -> Option<Duration> {
    let before = children_cpu();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status
        .code()
        .map(|c| c < 3)?
        .then(|| children_cpu() - before)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// A tool by name, and how to make its command.
type Tool = (String, Box<dyn FnMut() -> Command>);

/// The tools run alternately, `RUNS` times each: the median CPU time of
/// each (`None` for a tool that did not run).
fn alternate(tools: &mut [Tool]) -> Vec<Option<Duration>> {
    let mut times: Vec<Option<Vec<Duration>>> = tools.iter().map(|_| Some(Vec::new())).collect();
    for _ in 0..RUNS {
        for (i, (_, make)) in tools.iter_mut().enumerate() {
            if let Some(list) = times[i].as_mut() {
                match run_tool(&mut make()) {
                    Some(d) => list.push(d),
                    None => times[i] = None,
                }
            }
        }
    }
    times.into_iter().map(|t| t.map(median)).collect()
}

/// The first `n` games of a PGN file, in a file of their own.
fn slice(path: &str, n: usize) -> String {
    let text = std::fs::read_to_string(path).expect("bench file");
    let mut games = 0;
    let mut end = text.len();
    let mut in_moves = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') {
            if in_moves {
                games += 1;
                if games == n {
                    end = at;
                    break;
                }
            }
            in_moves = false;
        } else if !line.trim().is_empty() {
            in_moves = true;
        }
        at += line.len();
    }
    let out = std::env::temp_dir().join("postal-bench-slice.pgn");
    std::fs::write(&out, &text[..end]).expect("temp file");
    out.to_string_lossy().into_owned()
}

const PYTHON_READER: &str = "
import sys, chess.pgn
n = 0
with open(sys.argv[1], encoding='utf-8', errors='replace') as f:
    while chess.pgn.read_game(f) is not None:
        n += 1
print(n)
";

fn generated() -> String {
    let path = std::env::temp_dir().join("postal-bench-records.pgn");
    let game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O \
                9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 \
                16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 1/2-1/2";
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!(
            "[Event \"{i}\"]\n[Result \"1/2-1/2\"]\n\n{game}\n\n"
        ));
    }
    std::fs::write(&path, text).expect("temp file");
    path.to_string_lossy().into_owned()
}

fn main() {
    let path = std::env::var("POSTAL_BENCH_PGN").unwrap_or_else(|_| generated());
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!("file: {path} ({:.1} MB)", size as f64 / 1e6);

    let (t_read, games) = best(|| read_only(&path));
    let read_rate = games as f64 / t_read.as_secs_f64();
    println!(
        "postal read:    {games} games in {:.3} s = {read_rate:.0} games/s",
        t_read.as_secs_f64()
    );

    let (t_verify, (vgames, sound)) = best(|| verify_all(&path));
    let verify_rate = vgames as f64 / t_verify.as_secs_f64();
    println!(
        "postal verify:  {vgames} games ({sound} sound) in {:.3} s = {verify_rate:.0} games/s",
        t_verify.as_secs_f64()
    );

    // The processes, CPU time, medians of runs made alternately.
    let bins = std::env::temp_dir().join("postal-bench-bin");
    let postal = common::installed(env!("CARGO_BIN_EXE_postal"), &bins, "postal");
    let base = std::env::var("POSTAL_BASE")
        .ok()
        .map(|b| (common::installed(&b, &bins, "postal-base"), b));
    let pgn_extract =
        std::env::var("PGN_EXTRACT").unwrap_or_else(|_| "/usr/games/pgn-extract".into());
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let verify_cmd = |bin: String, file: String| -> Box<dyn FnMut() -> Command> {
        Box::new(move || {
            let mut c = Command::new(&bin);
            c.args(["verify", &file]);
            c
        })
    };
    let mut tools: Vec<Tool> = vec![(
        "postal verify".into(),
        verify_cmd(postal.clone(), path.clone()),
    )];
    if let Some((copy, b)) = &base {
        tools.push((
            format!("base {b} verify"),
            verify_cmd(copy.clone(), path.clone()),
        ));
    }
    let file = path.clone();
    tools.push((
        "pgn-extract -r".into(),
        Box::new(move || {
            let mut c = Command::new(&pgn_extract);
            c.args(["-r", "-s", &file]);
            c
        }),
    ));
    println!("processes, whole file, median CPU of {RUNS} alternate runs:");
    let times = alternate(&mut tools);
    let rate = |t: Duration| vgames as f64 / t.as_secs_f64();
    let ours = times[0].map(rate);
    for ((name, _), t) in tools.iter().zip(&times) {
        match t {
            Some(t) => println!(
                "  {name:<40} {:.3} s = {:.0} games/s",
                t.as_secs_f64(),
                rate(*t)
            ),
            None => println!("  {name:<40} did not run"),
        }
    }
    let extract = times[times.len() - 1].map(rate);
    if let (Some(o), Some(e)) = (ours, extract) {
        println!(
            "ratio postal verify / pgn-extract -r: {:.2}x (target 2x)",
            o / e
        );
    }
    if let (Some(o), true, Some(Some(b))) =
        (ours, base.is_some(), times.get(1).map(|t| t.map(rate)))
    {
        println!("ratio postal verify / base verify:    {:.2}x", o / b);
    }

    // python-chess replays a game some hundred times slower: a slice.
    let n = 2000;
    let part = slice(&path, n);
    let file = part.clone();
    let mut tools: Vec<Tool> = vec![
        (
            "postal verify".into(),
            verify_cmd(postal.clone(), part.clone()),
        ),
        (
            "python-chess".into(),
            Box::new(move || {
                let mut c = Command::new(&python);
                c.args(["-c", PYTHON_READER, &file]);
                c
            }),
        ),
    ];
    println!("processes, the first {n} games, median CPU of {RUNS} alternate runs:");
    let times = alternate(&mut tools);
    for ((name, _), t) in tools.iter().zip(&times) {
        match t {
            Some(t) => println!("  {name:<40} {:.3} s", t.as_secs_f64()),
            None => println!("  {name:<40} did not run (pip install chess)"),
        }
    }
    if let [Some(o), Some(p)] = times[..] {
        println!(
            "ratio postal verify / python-chess: {:.2}x (target 50x)",
            p.as_secs_f64() / o.as_secs_f64()
        );
    }
}
