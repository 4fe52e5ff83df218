//! A catalogue of malformed input, tried as a hostile user would: moves,
//! positions, records, state files, mail settings and arguments. Each case
//! runs the command line in-process (`postal::cli::run_args`, the same
//! parsing and error mapping as the binary; a few cases run the binary
//! itself) and asserts the exit code, the `postal: error:` message, a
//! location (`origin:line:col`) where the input is text, and that the game
//! file is byte-for-byte what it was.

use postal::cli::{error_text, run_args};
use std::fs;
use std::path::PathBuf;

/// How a case must fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Exit 1 (a rule said no), no location required.
    Rule,
    /// Exit 1 with a location in the output or the message.
    RuleAt,
    /// Exit 2, no location required (arguments, missing files).
    Usage,
    /// Exit 2 with a location.
    UsageAt,
}

struct Case {
    what: String,
    args: Vec<String>,
    want: Want,
}

fn case(what: impl Into<String>, args: &[&str], want: Want) -> Case {
    Case {
        what: what.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        want,
    }
}

/// `name:12:5:` somewhere in the text.
fn has_location(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b':' {
            let digits = |mut j: usize| {
                let s = j;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                (j > s).then_some(j)
            };
            if let Some(j) = digits(i + 1) {
                if j < b.len() && b[j] == b':' {
                    if let Some(k) = digits(j + 1) {
                        if k < b.len() && b[k] == b':' {
                            return true;
                        }
                    }
                }
            }
        }
        i += 1;
    }
    false
}

struct Bench {
    dir: PathBuf,
    game: PathBuf,
    pristine: Vec<u8>,
}

impl Bench {
    fn new() -> Bench {
        // The command line runs in this process, and reads the games'
        // rules records (issue 42) from its environment: this run's own
        // folder, as every `postal` the tests start has, never the
        // user's. Set once, to the value every spawned `postal` gets.
        static DATA_HOME: std::sync::Once = std::sync::Once::new();
        DATA_HOME.call_once(|| std::env::set_var("XDG_DATA_HOME", crate::common::data_home()));
        let dir = std::env::temp_dir().join(format!("postal-catalogue-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let game = dir.join("g.json");
        let g = game.to_str().unwrap();
        let run = |args: &[&str]| {
            let mut out = Vec::new();
            run_args(args.iter().copied(), &mut out).unwrap_or_else(|e| panic!("{args:?}: {e:?}"));
        };
        run(&[
            "postal",
            "new",
            "chess",
            "-o",
            g,
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
            "--time-control",
            "3d",
        ]);
        run(&["postal", "move", g, "e4"]);
        run(&["postal", "move", g, "e5"]);
        let pristine = fs::read(&game).unwrap();
        Bench {
            dir,
            game,
            pristine,
        }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_string()
    }

    fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let p = self.dir.join(name);
        fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    }

    fn g(&self) -> String {
        self.game.to_str().unwrap().to_string()
    }

    /// Runs one case; returns a description of what went wrong, if
    /// anything.
    fn check(&self, c: &Case, watched: &[(String, Vec<u8>)]) -> Option<String> {
        fs::write(&self.game, &self.pristine).unwrap();
        let mut args = vec!["postal".to_string()];
        args.extend(c.args.iter().cloned());
        let mut out = Vec::new();
        let result = run_args(args.iter(), &mut out);
        let out = String::from_utf8_lossy(&out).into_owned();
        let Err(e) = result else {
            return Some(format!("{}: succeeded: {out}", c.what));
        };
        let code = match c.want {
            Want::Rule | Want::RuleAt => 1,
            Want::Usage | Want::UsageAt => 2,
        };
        let mut wrong = Vec::new();
        if e.code != code {
            wrong.push(format!("exit {} (wanted {code})", e.code));
        }
        match error_text(&e) {
            Some(t) if t.starts_with("postal: error: ") && t.len() > 16 => {}
            other => wrong.push(format!("error text {other:?}")),
        }
        let located = has_location(&e.message) || has_location(&out);
        if matches!(c.want, Want::RuleAt | Want::UsageAt) && !located {
            wrong.push("no file:line:col".to_string());
        }
        if fs::read(&self.game).unwrap() != self.pristine {
            wrong.push("the game file changed".to_string());
        }
        for (path, bytes) in watched {
            if fs::read(path).ok().as_deref() != Some(bytes.as_slice()) {
                wrong.push(format!("{path} changed"));
            }
        }
        (!wrong.is_empty()).then(|| {
            format!(
                "{}: {}\n    message: {}\n",
                c.what,
                wrong.join("; "),
                e.message.lines().next().unwrap_or("")
            )
        })
    }
}

fn move_cases(b: &Bench) -> Vec<Case> {
    use Want::*;
    let g = b.g();
    let long = "a".repeat(5000);
    let mut texts: Vec<(&str, Want)> = vec![
        ("", UsageAt),
        ("   ", UsageAt),
        ("e9", Rule),
        ("Nf9", Rule),
        ("e4e5e6", UsageAt),
        ("Qxx", UsageAt),
        ("O-O-O-O", UsageAt),
        ("P", UsageAt),
        ("K", UsageAt),
        ("Kx", UsageAt),
        ("x", UsageAt),
        ("@", UsageAt),
        ("e2-", UsageAt),
        ("-e4", Usage),
        ("e2--e4", UsageAt),
        ("Nf3+++", UsageAt),
        ("=Q", UsageAt),
        ("e8=", UsageAt),
        ("(99999,1)", UsageAt),
        ("prison", Rule),
        ("e4\u{0}", UsageAt),
        ("é4", UsageAt),
        ("\u{202e}e4", UsageAt),
        ("Broken pipe", UsageAt),
        ("1.", UsageAt),
        ("--", Usage),
        ("Z9", UsageAt),
        ("Ng1-f3-e5", UsageAt),
        ("Kx1", UsageAt),
        ("e7e5", Rule),
        ("Ra3", Rule),
        ("O-O", Rule),
        ("e5", Rule),
        ("Ke3", Rule),
        ("Qh5x", UsageAt),
        ("Nb1-b3", Rule),
        ("a1=Q", Rule),
        ("e2-e5", Rule),
        ("Qd1/g4", Rule),
        ("e4 @f3", Rule),
    ];
    texts.push((long.as_str(), UsageAt));
    texts
        .into_iter()
        .map(|(t, w)| {
            let shown: String = t.chars().take(20).collect();
            Case {
                what: format!("move {shown:?}"),
                args: vec!["move".into(), g.clone(), t.into()],
                want: w,
            }
        })
        .collect()
}

fn position_cases() -> Vec<Case> {
    use Want::*;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    // Past the limits no legal game reaches (issue 34): 40,051 squares in
    // a rank, a square at rank 30,001, 40,052 squares in two ranks.
    let wide = "k40049K w - - 0 1".to_string();
    let tall = "k4/5/4K w - - 0 1 origin=(1,29999)".to_string();
    let many = "k20025/20025K w - - 0 1".to_string();
    let texts: Vec<(&str, String, Want)> = vec![
        ("chess", String::new(), UsageAt),
        ("chess", "8/8".into(), UsageAt),
        ("chess", "9/8/8/8/8/8/8/8 w - - 0 1".into(), UsageAt),
        ("chess", format!("{start}X w KQkq - 0 1"), UsageAt),
        ("chess", format!("{start} x KQkq - 0 1"), UsageAt),
        ("chess", format!("{start} w KQkqX - 0 1"), UsageAt),
        ("chess", format!("{start} w KQkq e9 0 1"), UsageAt),
        ("chess", format!("{start} w KQkq - -1 1"), UsageAt),
        ("chess", format!("{start} w KQkq - 0 -5"), UsageAt),
        ("chess", format!("{start} w KQkq - 99999999999 1"), UsageAt),
        ("chess", "8/8/8/8/8/8/8/8 w - - 0 1".into(), UsageAt),
        (
            "chess",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra".into(),
            UsageAt,
        ),
        ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 x".into(), UsageAt),
        ("chess", "(PQ)3k3/8/8/8/8/8/8/4K3 w - - 0 1".into(), UsageAt),
        (
            "chess",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 origin=(0,0)".into(),
            UsageAt,
        ),
        (
            "chess",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1\u{0}".into(),
            UsageAt,
        ),
        ("chess", "4k3/8/8/8/8/8/8/4Kk2 w - - 0 1".into(), UsageAt),
        ("chess", "4kk2/8/8/8/8/8/8/4K3 w - - 0 1".into(), UsageAt),
        ("chess", "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1".into(), UsageAt),
        ("gardner", format!("{start} w - - 0 1"), UsageAt),
        ("gardner", "k4/5/5/5/5/4K w - - 0 1".into(), UsageAt),
        ("building", "k99999/5/5/5/4K w - - 0 1".into(), UsageAt),
        ("building", wide, UsageAt),
        ("building", tall, UsageAt),
        ("building", many, UsageAt),
        (
            "building",
            "k4/5/5/5/4K w - - 0 1 origin=(30000,0)".into(),
            UsageAt,
        ),
        (
            "building",
            "k4/5/5/5/4K w - - 0 1 origin=(0,".into(),
            UsageAt,
        ),
        ("building", "k**3/5/5/5/4K w - - 0 1".into(), UsageAt),
        ("building", "P3k/5/5/5/4K w - - 0 1".into(), UsageAt),
        ("corral", "k4/5/5/5/4K w - - 0 1".into(), UsageAt),
        ("swap", "k/K w - - 0 1".into(), UsageAt),
        ("kristensen", "8/8/8/8/8/8/8/8 w".into(), UsageAt),
        ("disintegration", "(Kk)4/5/5/5/5 w - - 0 1".into(), UsageAt),
    ];
    let mut out = Vec::new();
    for (i, (variant, text, want)) in texts.into_iter().enumerate() {
        // Alternate between the commands that read a position.
        let args: Vec<String> = match i % 3 {
            0 => vec!["moves".into(), variant.into(), "--position".into(), text],
            1 => vec!["diagram".into(), variant.into(), "--position".into(), text],
            _ => vec![
                "perft".into(),
                variant.into(),
                "1".into(),
                "--position".into(),
                text,
            ],
        };
        out.push(Case {
            what: format!("position #{i} for {variant}"),
            args,
            want,
        });
    }
    out
}

fn record_cases(b: &Bench) -> Vec<Case> {
    use Want::*;
    let tags = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n";
    let pgn = |name: &str, movetext: &str| b.file(name, format!("{tags}{movetext}\n"));
    let mut out = vec![
        case(
            "record: illegal move",
            &["verify", &pgn("r1.pgn", "1. e4 e5 2. Ke3 *")],
            RuleAt,
        ),
        case(
            "record: unreadable move",
            &["verify", &pgn("r2.pgn", "1. e4 e5 2. Qxx9 *")],
            RuleAt,
        ),
        case(
            "record: unclosed comment",
            &["verify", &pgn("r3.pgn", "1. e4 { never closed")],
            RuleAt,
        ),
        case(
            "record: unclosed variation",
            &["verify", &pgn("r4.pgn", "1. e4 (1. d4 d5 *")],
            RuleAt,
        ),
        case(
            "record: variations nested 70 deep",
            &[
                "verify",
                &pgn("r5.pgn", &format!("1. e4 {} e5 *", "(1. d4 ".repeat(70))),
            ],
            RuleAt,
        ),
        case(
            "record: 1000 stray )",
            &["verify", &pgn("r6.pgn", &format!("1. e4 {} *", ")".repeat(1000)))],
            RuleAt,
        ),
        case(
            "record: 100,000 unclosed (",
            &["verify", &pgn("r7.pgn", &format!("1. e4 {}", "(".repeat(100_000)))],
            RuleAt,
        ),
        case(
            "record: a bad tag line",
            &["verify", &b.file("r8.pgn", "[Event \"x\n1. e4 *\n")],
            RuleAt,
        ),
        case(
            "record: wrong result",
            &[
                "verify",
                &b.file("r9.pgn", "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n"),
            ],
            RuleAt,
        ),
        case(
            "record: a knight that is gone",
            &["verify", &pgn("r10.pgn", "1. e4 e5 2. Nf3 Nc6 3. Nxe5 Nxe5 4. Nf3 *")],
            RuleAt,
        ),
        case(
            "record: unknown variant tag",
            &[
                "verify",
                &b.file("r11.pgn", "[Variant \"nosuch\"]\n\n1. e4 *\n"),
            ],
            UsageAt,
        ),
        case(
            "record: a bad FEN tag",
            &[
                "verify",
                &b.file("r12.pgn", "[SetUp \"1\"]\n[FEN \"9/9 w\"]\n\n1. e4 *\n"),
            ],
            UsageAt,
        ),
        case(
            "record: a capture of nothing",
            &["verify", &pgn("r13.pgn", "1. e4 e5 2. exd5 *")],
            RuleAt,
        ),
        case(
            "record: castling through a knight",
            &["verify", &pgn("r14.pgn", "1. e4 e5 2. Bb5 Ke7 3. O-O *")],
            RuleAt,
        ),
        case(
            "record: move after mate",
            &["verify", &pgn("r15.pgn", "1. f3 e5 2. g4 Qh4# 3. a3 *")],
            RuleAt,
        ),
        case(
            "record: a NAG out of range",
            &["verify", &pgn("r16.pgn", "1. e4 $99999 e5 Kxe9 *")],
            RuleAt,
        ),
        case(
            "published: an illegal move",
            &["verify", &b.file("p1.txt", "1. e4 e5 2. Ke3 Nc6\n")],
            RuleAt,
        ),
        case(
            "published: a diagram of the wrong size",
            &[
                "verify",
                &b.file(
                    "p2.txt",
                    "r n b q k\np p p p p\n. . . . .\nP P P P P\nR N B Q K\n\na b c d e\n\n1. e4 e5\n",
                ),
            ],
            UsageAt,
        ),
        case(
            "published: a diagram that disagrees",
            &[
                "verify",
                &b.file(
                    "p3.txt",
                    "1. e4 e5\n\n r n b q k b n r  8\n p p p p . p p p  7\n . . . . . . . .  6\n . . . . p . . .  5\n . . . . . . . .  4\n . . . . . . . .  3\n P P P P P P P P  2\n R N B Q K B N R  1\n\n a b c d e f g h\n",
                ),
            ],
            RuleAt,
        ),
        case(
            "published: 100,000 unclosed (",
            &["verify", &b.file("p4.txt", format!("1. e4 Ke7 {}", "(".repeat(100_000)))],
            RuleAt,
        ),
        case(
            "published: a letter the legend lacks",
            &[
                "verify",
                &b.file(
                    "p5.txt",
                    " x n b q k b n r  8\n p p p p p p p p  7\n . . . . . . . .  6\n . . . . . . . .  5\n . . . . . . . .  4\n . . . . . . . .  3\n P P P P P P P P  2\n R N B Q K B N R  1\n\n a b c d e f g h\n\n1. e4 e5\n",
                ),
            ],
            UsageAt,
        ),
        case(
            "record: empty file",
            &["verify", &b.file("e1.pgn", "")],
            Usage,
        ),
        case(
            "record: binary (NUL bytes)",
            &["verify", &b.file("e2.pgn", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")],
            Usage,
        ),
        case(
            "published: binary (NUL bytes)",
            &["verify", &b.file("e3.txt", b"1. e4 \0 e5")],
            Usage,
        ),
        case(
            "record: missing file",
            &["verify", &b.path("nothing-here.pgn")],
            Usage,
        ),
        case(
            "record: a folder",
            &["verify", b.dir.to_str().unwrap()],
            Usage,
        ),
        case(
            "convert: illegal move",
            &["convert", &pgn("c1.pgn", "1. e4 e5 2. Ke3 *"), "--to", "fen"],
            RuleAt,
        ),
        case(
            "convert: --game past the end",
            &[
                "convert",
                &pgn("c2.pgn", "1. e4 e5 *"),
                "--to",
                "fen",
                "--game",
                "5",
            ],
            Usage,
        ),
        case(
            "convert: --ply past the end",
            &[
                "convert",
                &pgn("c3.pgn", "1. e4 e5 *"),
                "--to",
                "fen",
                "--ply",
                "99",
            ],
            Usage,
        ),
        case(
            "convert: bad legend",
            &[
                "convert",
                &pgn("c4.pgn", "1. e4 e5 *"),
                "--to",
                "fen",
                "--legend",
                "O",
            ],
            Usage,
        ),
        case(
            "verify: bad legend",
            &["verify", &pgn("c5.pgn", "1. e4 e5 *"), "--legend", "OO=P"],
            Usage,
        ),
        case(
            "verify: unknown --variant",
            &["verify", &pgn("c6.pgn", "1. e4 e5 *"), "--variant", "nosuch"],
            Usage,
        ),
    ];
    // A game larger than the record limit: read to the limit, refused.
    let big = format!("{tags}1. e4 e5 {{{}}} *\n", "x".repeat(1 << 20));
    out.push(case(
        "record: a game over 1 MiB",
        &["verify", &b.file("big.pgn", big)],
        UsageAt,
    ));
    out
}

/// The pristine game file with one change.
fn mutate(pristine: &str, from: &str, to: &str) -> String {
    assert!(pristine.contains(from), "{from:?} not in the fixture");
    pristine.replacen(from, to, 1)
}

fn state_cases(b: &Bench) -> (Vec<Case>, Vec<(String, Vec<u8>)>) {
    use Want::*;
    let p = String::from_utf8(b.pristine.clone()).unwrap();
    let g = b.g();
    let mut files: Vec<(&str, String, Want)> = vec![
        (
            "unknown top key",
            mutate(&p, "\"time_control\"", "\"timm_control\""),
            UsageAt,
        ),
        (
            "unknown player side",
            mutate(&p, "\"white\": {", "\"whit%\": {"),
            UsageAt,
        ),
        (
            "unknown player key",
            mutate(&p, "\"email\"", "\"emiil\""),
            UsageAt,
        ),
        (
            "unknown move key",
            mutate(&p, "\"played\"", "\"plyed\""),
            UsageAt,
        ),
        (
            "wrong type of time control",
            mutate(&p, "\"3d\"", "3"),
            UsageAt,
        ),
        (
            "bad time control",
            mutate(&p, "\"3d\"", "\"3 fortnights\""),
            UsageAt,
        ),
        (
            "time at chrono's edge",
            mutate(
                &p,
                "\"2025-03-01T09:00:00Z\"",
                "\"+262142-12-31T23:59:59Z\"",
            ),
            UsageAt,
        ),
        (
            "not a time",
            mutate(&p, "\"2025-03-01T09:00:00Z\"", "\"yesterday\""),
            UsageAt,
        ),
        (
            "format 2",
            mutate(&p, "postal-game/1", "postal-game/2"),
            Usage,
        ),
        (
            "another format",
            mutate(&p, "postal-game/1", "chess-game/1"),
            Usage,
        ),
        (
            "unknown variant",
            mutate(&p, "\"variant\": \"chess\"", "\"variant\": \"nosuch\""),
            Usage,
        ),
        (
            "bad start",
            mutate(&p, "\"start\": \"rnbqkbnr", "\"start\": \"Xnbqkbnr"),
            Usage,
        ),
        (
            "stale cache",
            mutate(&p, "\"position\": \"rnbqkbnr", "\"position\": \"1nbqkbnr"),
            Usage,
        ),
        (
            "illegal recorded move",
            mutate(&p, "\"played\": \"e5\"", "\"played\": \"e4\""),
            Usage,
        ),
        (
            "canonical disagrees",
            mutate(&p, "\"canonical\": \"e5\"", "\"canonical\": \"d5\""),
            Usage,
        ),
        (
            "bogus result",
            mutate(
                &p,
                "\"result\": null",
                "\"result\": {\"result\": \"1-0\", \"reason\": \"because\"}",
            ),
            Usage,
        ),
        (
            "result with unknown key",
            mutate(
                &p,
                "\"result\": null",
                "\"result\": {\"result\": \"1-0\", \"reason\": \"x\", \"why\": 1}",
            ),
            UsageAt,
        ),
        (
            "extensions not an object",
            mutate(
                &p,
                "\"result\": null",
                "\"result\": null, \"extensions\": 5",
            ),
            UsageAt,
        ),
        (
            "players is a list",
            mutate(&p, "\"players\": {", "\"players\": [{"),
            UsageAt,
        ),
        ("truncated", p[..p.len() / 2].to_string(), UsageAt),
        ("empty", String::new(), UsageAt),
        ("top level array", "[1, 2, 3]\n".into(), Usage),
        (
            "deep nesting",
            format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
            UsageAt,
        ),
        ("trailing garbage", format!("{p}}}"), UsageAt),
        (
            "duplicate key",
            mutate(&p, "\"result\": null", "\"result\": null, \"result\": null"),
            UsageAt,
        ),
    ];
    let events = |list: &str| mutate(&p, "\"events\": []", &format!("\"events\": [{list}]"));
    let ev = |extra: &str| {
        events(&format!(
            "{{\"time\": \"2025-03-01T10:00:00Z\", \"side\": \"white\", \"ply\": 2, {extra}}}"
        ))
    };
    files.extend([
        ("unknown act", ev("\"act\": \"surrender\""), UsageAt),
        ("unknown event key", ev("\"act\": \"draw-offer\", \"mood\": \"sad\""), UsageAt),
        ("claim without its claim", ev("\"act\": \"claim\""), UsageAt),
        ("a claim on a draw offer", ev("\"act\": \"draw-offer\", \"claim\": \"time\""), UsageAt),
        ("bad side", events("{\"time\": \"2025-03-01T10:00:00Z\", \"side\": \"red\", \"ply\": 2, \"act\": \"resign\"}"), UsageAt),
        ("draw offer at the last ply", events("{\"time\": \"2025-03-01T10:00:00Z\", \"side\": \"white\", \"ply\": 18446744073709551615, \"act\": \"draw-offer\"}"), Usage),
        ("event past the moves", ev("\"act\": \"draw-offer\"").replace("\"ply\": 2", "\"ply\": 99"), Usage),
    ]);
    let mut cases = Vec::new();
    let mut watched = Vec::new();
    for (i, (what, text, want)) in files.into_iter().enumerate() {
        let name = format!("s{i}.json");
        let path = b.file(&name, &text);
        watched.push((path.clone(), text.into_bytes()));
        let args: Vec<String> = match i % 4 {
            0 => vec!["show".into(), path],
            1 => vec!["move".into(), path, "Nf3".into()],
            2 => vec!["draw".into(), "accept".into(), path],
            _ => vec!["history".into(), path],
        };
        cases.push(Case {
            what: format!("state file: {what}"),
            args,
            want,
        });
    }
    // Not UTF-8, and NUL.
    let latin = b.file(
        "latin.json",
        b"{\"format\": \"postal-game/1\", \"variant\": \"\xe9\"}",
    );
    watched.push((latin.clone(), fs::read(&latin).unwrap()));
    cases.push(case("state file: not UTF-8", &["status", &latin], Usage));
    let nul = b.file("nul.json", b"\0\0\0\0");
    watched.push((nul.clone(), fs::read(&nul).unwrap()));
    cases.push(case("state file: NUL bytes", &["show", &nul], UsageAt));
    cases.push(case(
        "state file: missing",
        &["move", &b.path("missing.json"), "e4"],
        Usage,
    ));
    cases.push(case(
        "state file: a folder",
        &["show", b.dir.to_str().unwrap()],
        Usage,
    ));
    cases.push(case(
        "show -o its own game file",
        &["show", &g, "-o", &g],
        Usage,
    ));
    cases.push(case(
        "show --format svg -o its own game file",
        &["show", &g, "--format", "svg", "-o", &g],
        Usage,
    ));
    (cases, watched)
}

fn settings_cases(b: &Bench) -> (Vec<Case>, Vec<(String, Vec<u8>)>) {
    use Want::*;
    let g = b.g();
    let texts: Vec<(&str, &str)> = vec![
        ("bad TOML", "from = \"Ana\nport = 1\n"),
        ("unknown key", "passwd = \"x\"\n"),
        ("unknown smtp key", "[smtp]\nhots = \"x\"\n"),
        ("wrong type", "[smtp]\nport = \"x\"\n"),
        ("port out of range", "[smtp]\nport = 99999\n"),
        ("unknown transport", "transport = \"pigeon\"\n"),
        ("unknown security", "[smtp]\nsecurity = \"maybe\"\n"),
        ("smtp not a table", "smtp = \"x\"\n"),
        ("duplicate key", "from = \"a\"\nfrom = \"b\"\n"),
        ("negative timeout", "[smtp]\ntimeout = -1\n"),
        ("unknown sendmail key", "[sendmail]\ncmd = \"x\"\n"),
    ];
    let mut cases = Vec::new();
    let mut watched = Vec::new();
    for (i, (what, text)) in texts.into_iter().enumerate() {
        let path = b.file(&format!("c{i}.toml"), text);
        watched.push((path.clone(), text.as_bytes().to_vec()));
        let args: Vec<String> = if i % 2 == 0 {
            vec![
                "mail".into(),
                g.clone(),
                "--dry-run".into(),
                "--config".into(),
                path,
            ]
        } else {
            vec![
                "move".into(),
                g.clone(),
                "Nf3".into(),
                "--mail".into(),
                "--config".into(),
                path,
            ]
        };
        cases.push(Case {
            what: format!("settings: {what}"),
            args,
            want: UsageAt,
        });
    }
    let missing = b.path("no-such-config.toml");
    cases.push(case(
        "settings: --config missing (mail)",
        &["mail", &g, "--dry-run", "--config", &missing],
        Usage,
    ));
    cases.push(case(
        "settings: --config missing (move --mail)",
        &["move", &g, "Nf3", "--mail", "--config", &missing],
        Usage,
    ));
    (cases, watched)
}

fn argument_cases(b: &Bench) -> Vec<Case> {
    use Want::*;
    let g = b.g();
    let link = b.path("link.json");
    let _ = fs::remove_file(&link);
    std::os::unix::fs::symlink(&b.game, &link).unwrap();
    let new = b.path("new.json");
    let list: Vec<(&str, Vec<&str>, Want)> = vec![
        ("unknown command", vec!["frobnicate"], Usage),
        ("move without a move", vec!["move", &g], Usage),
        (
            "perft depth not a number",
            vec!["perft", "chess", "x"],
            Usage,
        ),
        (
            "perft depth too large",
            vec!["perft", "chess", "99999999999999999999"],
            Usage,
        ),
        (
            "diagram size too small",
            vec!["diagram", "chess", "--size", "5"],
            Usage,
        ),
        (
            "diagram unknown format",
            vec!["diagram", "chess", "--format", "bmp"],
            Usage,
        ),
        (
            "show --ply past the end",
            vec!["show", &g, "--ply", "999"],
            Usage,
        ),
        (
            "show --ply negative",
            vec!["show", &g, "--ply", "-1"],
            Usage,
        ),
        (
            "new over an existing game",
            vec!["new", "chess", "-o", &g],
            Usage,
        ),
        (
            "new unknown variant",
            vec!["new", "nosuch", "-o", &new],
            Usage,
        ),
        (
            "new zero time control",
            vec!["new", "chess", "-o", &new, "--time-control", "0d"],
            Usage,
        ),
        (
            "new huge time control",
            vec!["new", "chess", "-o", &new, "--time-control", "99999d"],
            Usage,
        ),
        (
            "new bad player",
            vec!["new", "chess", "-o", &new, "--white", "Ana <bad>"],
            Usage,
        ),
        (
            "new -o - with --mail",
            vec!["new", "chess", "-o", "-", "--mail"],
            Usage,
        ),
        (
            "draw accept with nothing pending",
            vec!["draw", "accept", &g],
            Rule,
        ),
        ("claim repetition", vec!["claim", &g, "repetition"], Rule),
        (
            "takeback accept with nothing asked",
            vec!["takeback", "accept", &g],
            Rule,
        ),
        (
            "resign as purple",
            vec!["resign", &g, "--as", "purple"],
            Usage,
        ),
        (
            "show -o through a link to the game",
            vec!["show", &g, "--format", "svg", "-o", &link],
            Usage,
        ),
        (
            "moves of an unknown variant",
            vec!["moves", "nosuch"],
            Usage,
        ),
        (
            "rules of an unknown variant",
            vec!["rules", "nosuch"],
            Usage,
        ),
        ("verify with no file", vec!["verify"], Usage),
        (
            "convert to an unknown form",
            vec!["convert", "x.pgn", "--to", "bmp"],
            Usage,
        ),
        (
            "moves --after outside swap",
            vec!["moves", "chess", "--after", "Qd1"],
            Usage,
        ),
        ("unknown flag", vec!["show", &g, "--colour"], Usage),
    ];
    list.into_iter()
        .map(|(what, args, want)| case(format!("arguments: {what}"), &args, want))
        .collect()
}

#[test]
fn malformed_input_catalogue() {
    // The game commands read the clock; a fixed one keeps them
    // deterministic. Set once, before any case runs.
    std::env::set_var("POSTAL_NOW", "2025-03-01T09:00:00Z");
    let b = Bench::new();
    let mut cases = Vec::new();
    let mut watched = Vec::new();
    cases.extend(move_cases(&b));
    cases.extend(position_cases());
    cases.extend(record_cases(&b));
    let (c, w) = state_cases(&b);
    cases.extend(c);
    watched.extend(w);
    let (c, w) = settings_cases(&b);
    cases.extend(c);
    watched.extend(w);
    cases.extend(argument_cases(&b));
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(|c| b.check(c, &watched)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.concat()
    );
    let _ = fs::remove_dir_all(&b.dir);
}

/// The binary itself: the `postal: error:` line on standard error, the
/// exit code, and a message that only mentions a broken pipe exiting 2
/// (issue 18, problem 1).
#[test]
fn the_binary_reports_errors_the_same_way() {
    let dir = std::env::temp_dir().join(format!("postal-catalogue-bin-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_postal");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .current_dir(&dir)
            .env("POSTAL_NOW", "2025-03-01T09:00:00Z")
            .env("XDG_DATA_HOME", crate::common::data_home())
            .output()
            .unwrap()
    };
    let o = run(&["new", "chess", "-o", "g.json"]);
    assert!(o.status.success());
    let before = fs::read(dir.join("g.json")).unwrap();
    for args in [
        vec!["move", "g.json", "Broken pipe"],
        vec!["move", "Broken pipe", "e4"],
        vec!["frobnicate"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("postal: error: "), "{args:?}: {err}");
    }
    assert_eq!(fs::read(dir.join("g.json")).unwrap(), before);
    // `-o -` is standard output, for a diagram and for a new game.
    let o = run(&["diagram", "chess", "--format", "svg", "-o", "-"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("<svg"));
    let o = run(&["new", "gardner", "-o", "-"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"format\": \"postal-game/1\""));
    assert!(!dir.join("-").exists());
    let _ = fs::remove_dir_all(&dir);
}
