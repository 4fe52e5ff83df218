//! Game records: games per second reading (lexer and PGN reader, no
//! legality) and verifying (every move resolved, played and its check
//! mark checked) a large FIDE PGN file, and, in the same run, the same file
//! through pgn-extract (`-r`: check the games, write nothing) and
//! python-chess (`chess.pgn.read_game`, which plays every move), with the
//! ratios. Times are the best of a few runs, wall clock, on the same
//! machine in the same minute.
//!
//! Run `benches/compare-pgn.sh`, which fetches the corpus (caissa-ai.pgn,
//! 20,566 games, shipped by the Rust package `jja`; GPL-3.0, so it is
//! fetched at run time and never committed), installs pgn-extract and
//! python-chess, and runs this bench. By hand: `POSTAL_BENCH_PGN=file.pgn
//! cargo bench --bench records`, with `PGN_EXTRACT` (default
//! `/usr/games/pgn-extract`) and `PYTHON` (a Python with the `chess`
//! package; default `python3`). Without a file, a generated one of 5,000
//! games is used.

use postal::record::game::Options;
use postal::record::pgn::{self, Chunk, Chunker};
use postal::record::verify::{self, Format};
use postal::record::Event;
use std::io::BufReader;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

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

fn run_tool(cmd: &mut Command) -> Option<Duration> {
    let t = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status.success().then(|| t.elapsed())
}

fn best_tool(mut make: impl FnMut() -> Command) -> Option<Duration> {
    let mut best: Option<Duration> = None;
    for _ in 0..RUNS {
        let d = run_tool(&mut make())?;
        best = Some(best.map_or(d, |b| b.min(d)));
    }
    best
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

    let pgn_extract =
        std::env::var("PGN_EXTRACT").unwrap_or_else(|_| "/usr/games/pgn-extract".into());
    match best_tool(|| {
        let mut c = Command::new(&pgn_extract);
        c.args(["-r", "-s", &path]);
        c
    }) {
        Some(t) => {
            let rate = vgames as f64 / t.as_secs_f64();
            println!(
                "pgn-extract -r: {:.3} s = {rate:.0} games/s",
                t.as_secs_f64()
            );
            println!(
                "ratio postal verify / pgn-extract: {:.2}x (target 2x)",
                verify_rate / rate
            );
            println!(
                "ratio postal read / pgn-extract:   {:.2}x",
                read_rate / rate
            );
        }
        None => println!("pgn-extract: not found at {pgn_extract} (apt-get install pgn-extract)"),
    }

    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    match best_tool(|| {
        let mut c = Command::new(&python);
        c.args(["-c", PYTHON_READER, &path]);
        c
    }) {
        Some(t) => {
            let rate = vgames as f64 / t.as_secs_f64();
            println!(
                "python-chess:   {:.3} s = {rate:.0} games/s",
                t.as_secs_f64()
            );
            println!(
                "ratio postal verify / python-chess: {:.2}x",
                verify_rate / rate
            );
        }
        None => println!("python-chess: {python} cannot import chess (pip install chess)"),
    }
}
