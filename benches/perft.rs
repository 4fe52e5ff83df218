//! Perft throughput for chess and Gardner minichess, and, in the same run,
//! the same positions through Fairy-Stockfish (`go perft N`, which counts
//! the last ply in bulk as postal does), with the ratio.
//!
//! Run `benches/compare-fairy-stockfish.sh`, which builds Fairy-Stockfish
//! natively from PyPI's `pyffish` source distribution and points
//! `FAIRY_STOCKFISH` at it, or `cargo bench --bench perft` with
//! `FAIRY_STOCKFISH` set to an engine (else `/usr/games/fairy-stockfish` or
//! one on PATH: Debian's generic build, about 0.37x a native one, which
//! flatters postal).
//!
//! The depths are those issue 42 measures (chess 6, Kiwipete 5, Gardner
//! 8): a second or more each, where shallower counts finish in
//! milliseconds and their ratios are noise.
//!
//! postal counts chess and Gardner on their bitboards
//! (`variant/chess/bits/count.rs`); the last column is the shared
//! generator's perft in place on the same position, which the other
//! variants built on FIDE pieces use, for its own speed.
//!
//! A second table counts variants defined in tests/pyffish/variants.ini
//! (`[fide]` is FIDE chess written out as a definition), which
//! Fairy-Stockfish reads from the same file (`VariantPath`); its last
//! column compares the definition with postal's built-in chess on the
//! same position and depth. The rows on 8 x 8 boards are counted by that
//! engine; the rows on larger boards (`lame`, `gemini2`, `indiangreat2`) by one
//! built with large boards, named by `FAIRY_STOCKFISH_LARGE` (the script
//! builds it too), as an engine built without them cannot play them.

use postal::perft::{perft, perft_in_place};
use postal::variant::chess::Chess;
use postal::{Position, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Case {
    variant: Variant,
    uci_variant: &'static str,
    name: &'static str,
    fen: &'static str,
    depth: u32,
}

const CASES: &[Case] = &[
    Case {
        variant: Variant::Chess,
        uci_variant: "chess",
        name: "chess start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
    },
    Case {
        variant: Variant::Chess,
        uci_variant: "chess",
        name: "chess kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
    },
    Case {
        variant: Variant::Chess,
        uci_variant: "chess",
        name: "chess position3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 6,
    },
    Case {
        variant: Variant::Gardner,
        uci_variant: "gardner",
        name: "gardner start",
        fen: "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
        depth: 8,
    },
];

/// A variant of tests/pyffish/variants.ini, from `fen` (its start
/// position where empty), to `depth`.
struct Defined {
    name: &'static str,
    label: &'static str,
    fen: &'static str,
    depth: u32,
    /// The same position is FIDE chess: count it with postal's built-in
    /// chess too.
    chess: bool,
    /// Wider than 8 squares: counted by the large-board engine.
    large: bool,
}

const DEFINED: &[Defined] = &[
    Defined {
        name: "fide",
        label: "fide start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 5,
        chess: true,
        large: false,
    },
    Defined {
        name: "fide",
        label: "fide kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 4,
        chess: true,
        large: false,
    },
    Defined {
        name: "hoppers",
        label: "hoppers start",
        fen: "",
        depth: 4,
        chess: false,
        large: false,
    },
    Defined {
        name: "shatranj2",
        label: "shatranj2 start",
        fen: "",
        depth: 5,
        chess: false,
        large: false,
    },
    Defined {
        name: "directions",
        label: "directions start",
        fen: "",
        depth: 4,
        chess: false,
        large: false,
    },
    Defined {
        name: "lame",
        label: "lame leapers start",
        fen: "",
        depth: 4,
        chess: false,
        large: true,
    },
    Defined {
        name: "gemini2",
        label: "gemini start",
        fen: "",
        depth: 5,
        chess: false,
        large: true,
    },
    Defined {
        name: "indiangreat2",
        label: "indiangreat start",
        fen: "",
        depth: 5,
        chess: false,
        large: true,
    },
];

struct Engine {
    _child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    /// The engine named by `FAIRY_STOCKFISH`, else Debian's or one on
    /// PATH.
    fn start() -> Option<Engine> {
        let path = std::env::var("FAIRY_STOCKFISH").ok().or_else(|| {
            ["/usr/games/fairy-stockfish", "fairy-stockfish"]
                .iter()
                .find(|p| {
                    Command::new(p)
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .spawn()
                        .is_ok()
                })
                .map(|p| p.to_string())
        })?;
        Engine::at(&path)
    }

    /// The large-board engine named by `FAIRY_STOCKFISH_LARGE`.
    fn start_large() -> Option<Engine> {
        Engine::at(&std::env::var("FAIRY_STOCKFISH_LARGE").ok()?)
    }

    fn at(path: &str) -> Option<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut e = Engine {
            _child: child,
            input,
            output,
        };
        e.send("uci");
        e.wait_for("uciok")?;
        Some(e)
    }

    fn send(&mut self, line: &str) {
        let _ = writeln!(self.input, "{line}");
        let _ = self.input.flush();
    }

    fn wait_for(&mut self, prefix: &str) -> Option<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.starts_with(prefix) {
                return Some(line.trim().to_string());
            }
        }
    }

    fn perft(&mut self, variant: &str, fen: &str, depth: u32) -> Option<(u64, Duration)> {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send("isready");
        self.wait_for("readyok")?;
        if fen.is_empty() {
            self.send("position startpos");
        } else {
            self.send(&format!("position fen {fen}"));
        }
        self.send("isready");
        self.wait_for("readyok")?;
        let t = Instant::now();
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched")?;
        let el = t.elapsed();
        let n = line.rsplit(' ').next()?.parse().ok()?;
        Some((n, el))
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let mut engine = Engine::start();
    if engine.is_none() {
        println!("Fairy-Stockfish not found: printing postal's figures only");
    }
    println!(
        "{:<18} {:>5} {:>12} {:>12} {:>12} {:>7} {:>12}",
        "position", "depth", "nodes", "postal n/s", "FSF n/s", "ratio", "shared n/s"
    );
    let (mut ours_total, mut theirs_total) = (0.0, 0.0);
    for c in CASES {
        let pos = Position::from_text(c.variant, c.fen).expect("bench position");
        let t = Instant::now();
        let nodes = perft(&pos, c.depth);
        let ours = nodes as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        assert_eq!(perft_in_place(&Chess, &pos, c.depth), nodes, "{}", c.name);
        let shared = nodes as f64 / t.elapsed().as_secs_f64();
        let theirs = engine
            .as_mut()
            .and_then(|e| e.perft(c.uci_variant, c.fen, c.depth));
        match theirs {
            Some((n, el)) => {
                assert_eq!(
                    n, nodes,
                    "{}: Fairy-Stockfish counts {n}, postal {nodes}",
                    c.name
                );
                let fs = n as f64 / el.as_secs_f64();
                ours_total += ours.ln();
                theirs_total += fs.ln();
                println!(
                    "{:<18} {:>5} {:>12} {:>12.0} {:>12.0} {:>7.2} {:>12.0}",
                    c.name,
                    c.depth,
                    nodes,
                    ours,
                    fs,
                    ours / fs,
                    shared
                );
            }
            None => println!(
                "{:<18} {:>5} {:>12} {:>12.0} {:>12} {:>7} {:>12.0}",
                c.name, c.depth, nodes, ours, "-", "-", shared
            ),
        }
    }
    if theirs_total != 0.0 {
        let n = CASES.len() as f64;
        println!(
            "geometric mean ratio postal / Fairy-Stockfish: {:.2}",
            ((ours_total - theirs_total) / n).exp()
        );
    }
    defined(engine.as_mut(), Engine::start_large().as_mut());
}

/// `engine` once it has read the variants of `path`.
fn reading<'a>(engine: Option<&'a mut Engine>, path: &str) -> Option<&'a mut Engine> {
    engine.and_then(|e| {
        e.send(&format!("setoption name VariantPath value {path}"));
        e.send("isready");
        e.wait_for("readyok").is_some().then_some(e)
    })
}

/// The second table: variants defined in tests/pyffish/variants.ini.
fn defined(engine: Option<&mut Engine>, large: Option<&mut Engine>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pyffish/variants.ini");
    let text = std::fs::read_to_string(path).expect("tests/pyffish/variants.ini");
    let loaded = postal::variant::ini::load(&text, "variants.ini");
    let (mut engine, mut large) = (reading(engine, path), reading(large, path));
    println!();
    println!(
        "{:<18} {:>5} {:>12} {:>12} {:>12} {:>7} {:>12} {:>7}",
        "defined", "depth", "nodes", "postal n/s", "FSF n/s", "ratio", "built-in n/s", "ratio"
    );
    for c in DEFINED {
        let def = loaded.find(c.name).expect("a definition of the file");
        let variant = postal::variant::defined::register(def, "variants.ini").expect("registered");
        let pos = if c.fen.is_empty() {
            Position::start(variant)
        } else {
            Position::from_text(variant, c.fen).expect("bench position")
        };
        let t = Instant::now();
        let nodes = perft(&pos, c.depth);
        let ours = nodes as f64 / t.elapsed().as_secs_f64();
        let counter = if c.large { &mut large } else { &mut engine };
        let theirs = counter
            .as_mut()
            .and_then(|e| e.perft(c.name, c.fen, c.depth))
            .map(|(n, el)| {
                assert_eq!(
                    n, nodes,
                    "{}: Fairy-Stockfish counts {n}, postal {nodes}",
                    c.label
                );
                n as f64 / el.as_secs_f64()
            });
        let built_in = c.chess.then(|| {
            let chess = Position::from_text(Variant::Chess, c.fen).expect("chess position");
            let t = Instant::now();
            assert_eq!(perft(&chess, c.depth), nodes, "{}", c.label);
            nodes as f64 / t.elapsed().as_secs_f64()
        });
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
        let ratio = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.2}", ours / v));
        println!(
            "{:<18} {:>5} {:>12} {:>12.0} {:>12} {:>7} {:>12} {:>7}",
            c.label,
            c.depth,
            nodes,
            ours,
            cell(theirs),
            ratio(theirs),
            cell(built_in),
            ratio(built_in)
        );
    }
}
