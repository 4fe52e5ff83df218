//! Bad input never panics and never hangs: a deterministic fuzz test that
//! runs with `cargo test`. A small xorshift generator with fixed seeds
//! makes random text and mutations of valid inputs (start positions, moves
//! of every form, position-text fields, movetexts, square names, movement
//! descriptors, mail settings, huge numbers and long repeats) and feeds
//! them to every parser, with the invariants of `fuzz/src/lib.rs` (shared
//! with the libFuzzer targets): no panic, error spans inside the text,
//! positions and moves read back to themselves, playing a move leaves the
//! position as it was. Random playouts from every start position check
//! the rules against the notation. All work is bounded by counts.
//!
//! After the harness come the regression tests for the bugs it and the
//! fuzz targets found, each named for what it guards.

#[path = "../fuzz/src/lib.rs"]
mod checks;

use crate::playout::Rng;
use postal::board::Board;
use postal::notation::{fen, san};
use postal::{Position, Square, Variant};

/// Valid position texts, fields and odd boards.
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/8/8/8/8/8/8/R3K3 b - - 149 4294967295",
    "k4/5/5/5/4K w - - 0 1 origin=(0,-1)",
    "k*3/5/5/5/4K w - - 0 1",
    "(PPNB)4/5/5/5/K3k w - - 0 1",
    "99999/8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/8 w - a99999 0 1",
    "krkfk/ppppp/5/5/5/5/5/PPPPP/KRKFK b - - 0 1 last=w",
    "4k4/9/9/9/9/9/9/PP5PP/4K4 w - - 0 1 a2b2h2i2",
];

/// Single fields of a position text.
const FIELDS: &[&str] = &[
    "w",
    "b",
    "KQkq",
    "-",
    "e3",
    "(0,3)",
    "0",
    "4294967295",
    "4294967296",
    "origin=(0,-1)",
    "origin=(32767,-32768)",
    "origin=(-32768,-32768)",
    "origin=(1000,-1000)",
    "last=w",
    "last=b-played",
    "a2b2h2i2a8b8h8i8",
];

/// Moves in every form the notation has, and some that are not moves.
const MOVES: &[&str] = &[
    "Nf3",
    "e4",
    "e2-e4",
    "exd5",
    "e8=Q",
    "e8(Q)",
    "e8Q",
    "O-O",
    "O-O-O",
    "0-0",
    "Ng1-f3",
    "Nd5:c7",
    "R:c7",
    "h:g7",
    "Rxd1",
    "Nbd2",
    "R1a3",
    "Qb6/b1/d3=N/c4/f7",
    "e4/d5",
    "Bb5/d3??",
    "Nb1-c3 @f3",
    "e2-e3@(0,3)",
    "QKc2-c4",
    "Kc5-prison",
    "PPa8-a9=Q=N",
    "=Q=N",
    "Wd4xd5",
    "Fb1-b3",
    "a10",
    "a99999",
    "(32767,-32768)",
    "(-32768,-32768)",
    "(0,3)",
    "e4+",
    "Qh5#",
    "e4++",
    "e4!?",
    "Nf3?!",
];

/// Movetexts with move numbers, results, placements and swaps.
const MOVETEXTS: &[&str] = &[
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
    "1.e4 e5 2.Nf3 2... Nc6 1-0",
    "1. d4 d5 2. c4 dxc4 3. e4 b5 4. a4 c6 5. axb5 cxb5 6. Qf3",
    "Nb1-c3 @f3 Nb8-c6 @(0,3)",
    "1. e2-e4 e7-e5 2. Qd1/g4",
    "1. a3 a6 2. a2 a7",
    "1. b4 b5 2. Kb2 Kb8 *",
    "1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2",
];

/// Movement descriptors.
const BETZA: &[&str] = &[
    "R", "Q4", "W2A", "mfWcfF", "BmvW", "K", "N", "WW", "FF", "W255", "mcfbsvW", "fsbK2",
];

/// Mail settings.
const CONFIGS: &[&str] = &[
    "from = \"Ana <ana@example.org>\"\ntransport = \"smtp\"\n[smtp]\nhost = \"smtp.example.org\"\nport = 587\nsecurity = \"tls\"\nuser = \"ana\"\ntimeout = 30\n",
    "transport = \"sendmail\"\n[sendmail]\ncommand = \"/usr/sbin/sendmail\"\n",
    "outbox = \"/tmp/outbox\"\n",
];

/// Pieces of text that mutations insert: separators, brackets, huge and
/// edge numbers, field names, non-ASCII and control characters.
const TOKENS: &[&str] = &[
    "/",
    "//",
    "*",
    "(",
    ")",
    "(,)",
    "=",
    "=Q",
    "@",
    " @",
    "-",
    "x",
    ":",
    "+",
    "#",
    "!",
    "?",
    "$1",
    ",",
    " ",
    "\t",
    "\n",
    "\r\n",
    "0",
    "1",
    "9",
    "10",
    "99",
    "99999",
    "32767",
    "-32768",
    "65535",
    "65536",
    "4294967296",
    "200",
    "201",
    "a",
    "i",
    "z",
    "prison",
    "origin=",
    "origin=(",
    "last=",
    "K",
    "Q",
    "k",
    "p",
    "P",
    "W",
    "F",
    "O-O",
    "1.",
    "...",
    "1-0",
    "é",
    "\u{0}",
    "\u{feff}",
    "\u{3000}",
    "\u{1F600}",
];

/// Inputs built by repetition: huge boards and numbers, long runs.
fn repeated_inputs() -> Vec<String> {
    vec![
        vec!["200"; 200].join("/"),
        ["201"; 2].join("/"),
        format!("k{}/{}", "1".repeat(199), vec!["200"; 199].join("/")),
        "/".repeat(1000),
        "8/".repeat(1000),
        "(".repeat(500),
        "=Q".repeat(500),
        "a1/".repeat(300),
        "N".repeat(500) + "f3",
        format!("({},{})", "9".repeat(40), "-".repeat(3)),
        "1. ".repeat(300),
        "e4 ".repeat(100),
    ]
}

/// Every valid input the mutations start from, the moves of the sample
/// positions (canonical and long form) and their position texts among them.
fn corpus(samples: &[Position]) -> Vec<String> {
    let mut out: Vec<String> = [POSITIONS, FIELDS, MOVES, MOVETEXTS, BETZA, CONFIGS]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect();
    out.extend(repeated_inputs());
    for v in Variant::ALL {
        out.push(v.spec().start.to_string());
    }
    for pos in samples {
        out.push(pos.to_text());
        for mv in pos.legal_moves().iter().take(12) {
            out.push(pos.move_text(mv));
            out.push(san::write_long(pos, mv));
        }
    }
    out
}

/// A random text: mostly printable ASCII, some tokens, some any byte.
fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(48);
    let mut bytes = Vec::with_capacity(len);
    while bytes.len() < len {
        match rng.below(10) {
            0 => bytes.push(rng.next() as u8),
            1..=3 => bytes.extend_from_slice(rng.pick(TOKENS).as_bytes()),
            _ => bytes.push(b' ' + rng.below(95) as u8),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// One to four random edits of `input`.
fn mutate(rng: &mut Rng, input: &str, corpus: &[String]) -> String {
    let mut b: Vec<u8> = input.as_bytes().to_vec();
    let edits = if rng.below(3) == 0 {
        2 + rng.below(4)
    } else {
        1
    };
    for _ in 0..edits {
        let at = rng.below(b.len() + 1);
        match rng.below(9) {
            0 => b.insert(at, b' ' + rng.below(95) as u8),
            1 => b.insert(at, rng.next() as u8),
            2 => {
                let end = (at + 1 + rng.below(8)).min(b.len());
                b.drain(at.min(end)..end);
            }
            3 => {
                // A letter for a letter, a digit for a digit: keeps the
                // shape, changes the meaning.
                if at < b.len() {
                    const LETTERS: &[u8] = b"KQRBNPFWkqrbnpfwabcdehixo";
                    b[at] = match b[at] {
                        b'0'..=b'9' => b'0' + rng.below(10) as u8,
                        c if c.is_ascii_alphabetic() => *rng.pick(LETTERS),
                        _ => b' ' + rng.below(95) as u8,
                    };
                }
            }
            4 | 5 => {
                let t = rng.pick(TOKENS).as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            6 => {
                // Repeat a piece many times: long runs of ranks, digits,
                // letters or swap steps.
                let end = (at + 1 + rng.below(6)).min(b.len());
                let piece = b[at.min(end)..end].to_vec();
                let times = 1 + rng.below(200);
                for _ in 0..times {
                    b.splice(at..at, piece.iter().copied());
                }
            }
            7 => {
                // Splice: this input's head, another's tail.
                let other = rng.pick(corpus).as_bytes();
                let from = rng.below(other.len() + 1);
                b.truncate(at);
                b.extend_from_slice(&other[from..]);
            }
            _ => {
                // A field or a move of another input, after a space.
                let other = rng.pick(corpus);
                b.splice(at..at, format!(" {other}").bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Every parser, with every check, on one text. `positions` are the
/// positions the text is read as a move against.
fn every_parser(text: &str, positions: &[Position], starts: &[Position]) {
    checks::move_syntax(text);
    checks::square_name(text);
    checks::betza(text);
    checks::mail_config(text);
    for v in Variant::ALL {
        checks::position_text(v, text);
    }
    for pos in positions {
        checks::move_in(pos, text);
    }
    for pos in starts {
        checks::movetext_from(pos, text);
    }
}

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

fn all_samples() -> Vec<Position> {
    Variant::ALL
        .iter()
        .flat_map(|&v| checks::sample_positions(v, root()))
        .collect()
}

#[test]
fn random_text_to_every_parser() {
    let starts = checks::starts();
    let mut rng = Rng::new(1);
    for _ in 0..8000 {
        let text = random_text(&mut rng);
        every_parser(&text, &starts, &starts);
    }
}

#[test]
fn mutated_position_texts() {
    let starts = checks::starts();
    let samples = all_samples();
    let corpus = corpus(&samples);
    let mut seeds: Vec<String> = POSITIONS.iter().map(|s| s.to_string()).collect();
    seeds.extend(samples.iter().map(|p| p.to_text()));
    seeds.extend(repeated_inputs());
    let mut rng = Rng::new(2);
    for i in 0..10_000 {
        let seed = &seeds[i % seeds.len()];
        let mut text = mutate(&mut rng, seed, &corpus);
        if rng.below(4) == 0 {
            text.push(' ');
            let field = FIELDS[rng.below(FIELDS.len())];
            text.push_str(field);
        }
        for v in Variant::ALL {
            checks::position_text(v, &text);
        }
        if i % 10 == 0 {
            every_parser(&text, &starts, &starts);
        }
    }
}

#[test]
fn mutated_moves() {
    let samples = all_samples();
    let corpus = corpus(&samples);
    let mut seeds: Vec<String> = MOVES.iter().map(|s| s.to_string()).collect();
    for pos in &samples {
        for mv in pos.legal_moves().iter().take(12) {
            seeds.push(pos.move_text(mv));
            seeds.push(san::write_long(pos, mv));
        }
    }
    let mut rng = Rng::new(3);
    for i in 0..10_000 {
        let seed = &seeds[i % seeds.len()];
        let text = mutate(&mut rng, seed, &corpus);
        checks::move_syntax(&text);
        checks::square_name(&text);
        // Against a few positions each time, all of them now and then.
        if i % 20 == 0 {
            for pos in &samples {
                checks::move_in(pos, &text);
            }
        } else {
            for _ in 0..3 {
                checks::move_in(rng.pick(&samples), &text);
            }
        }
    }
}

#[test]
fn mutated_movetexts() {
    let starts = checks::starts();
    let samples = all_samples();
    let corpus = corpus(&samples);
    let mut seeds: Vec<String> = MOVETEXTS.iter().map(|s| s.to_string()).collect();
    // A played line from every start, numbered as people write it.
    for start in &starts {
        let mut pos = start.clone();
        let mut line = String::new();
        for ply in 0..16 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let mv = &moves[(ply * 5) % moves.len()];
            if ply % 2 == 0 {
                line.push_str(&format!("{}. ", ply / 2 + 1));
            }
            line.push_str(&pos.move_text(mv));
            line.push(' ');
            pos = pos.play_unchecked(mv);
        }
        seeds.push(line);
    }
    let mut rng = Rng::new(4);
    for i in 0..5000 {
        let seed = &seeds[i % seeds.len()];
        let text = mutate(&mut rng, seed, &corpus);
        for start in &starts {
            checks::movetext_from(start, &text);
        }
    }
}

#[test]
fn mutated_squares_movement_and_settings() {
    let samples = all_samples();
    let corpus = corpus(&samples);
    let mut seeds: Vec<String> = [BETZA, CONFIGS, FIELDS]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect();
    seeds.extend(
        [
            "e4",
            "a10",
            "z99",
            "(0,3)",
            "( -2 , 0 )",
            "(9999,-9999)",
            "(32767,-32768)",
            "prison",
        ]
        .map(String::from),
    );
    let mut rng = Rng::new(5);
    for i in 0..20_000 {
        let seed = &seeds[i % seeds.len()];
        let text = mutate(&mut rng, seed, &corpus);
        checks::square_name(&text);
        checks::betza(&text);
        checks::mail_config(&text);
        checks::move_syntax(&text);
    }
}

/// The definitions of `fuzz/seeds/variants_ini/`, whole and cut into
/// their lines.
fn variants_files() -> (Vec<String>, Vec<String>) {
    let dir = std::path::Path::new(root()).join("fuzz/seeds/variants_ini");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    files.sort();
    let lines = files
        .iter()
        .flat_map(|f| f.lines().map(String::from))
        .collect();
    (files, lines)
}

/// variants.ini files with a few edits each (a key's value, a line of
/// another definition, a repeated run) load or are refused at a place in
/// the text, and what loads plays and writes its FEN back (the fuzz
/// target `variants_ini`'s checks).
#[test]
fn mutated_variants_files() {
    let (files, lines) = variants_files();
    assert!(files.len() >= 8, "only {} seed definitions", files.len());
    let mut rng = Rng::new(11);
    let mut loaded = 0;
    for i in 0..4_000 {
        let seed = &files[i % files.len()];
        let text = mutate(&mut rng, seed, &lines);
        checks::variants_ini(&text);
        loaded += postal::variant::ini::load(&text, "<input>").defs.len();
    }
    // The edits change the files, not so much that nothing loads.
    assert!(loaded > 800, "only {loaded} definitions loaded");
    for f in &files {
        checks::variants_ini(f);
    }
}

/// The fields after the clocks that a variant writes (Kristensen's
/// rights, Disintegration's last move, ...), taken from its sample
/// positions' texts, with `-` and nothing.
fn extra_fields(samples: &[Position], v: Variant) -> Vec<String> {
    let mut out = vec![String::new(), "-".to_string()];
    for pos in samples.iter().filter(|p| p.variant == v) {
        let text = pos.to_text();
        let extra: Vec<&str> = text
            .split_whitespace()
            .skip(6)
            .filter(|f| !f.starts_with("origin="))
            .collect();
        out.push(extra.join(" "));
    }
    out
}

/// A random position text of the variant's board: one king a side (up to
/// three for Disintegration Chess), other pieces of the variant scattered,
/// stacks where it has them, random castling, en passant, clocks and extra
/// fields. Many are refused (a king in check on the wrong turn); the rest
/// are positions no game reaches, which is the point.
fn random_position_text(rng: &mut Rng, v: Variant, extras: &[String]) -> String {
    use postal::piece::{Role, Roles, Stack};
    use postal::Color;
    let spec = v.spec();
    let mut board = Board::rect(spec.files, spec.ranks);
    let squares: Vec<Square> = board.squares().collect();
    let kings = if v == Variant::Disintegration { 3 } else { 1 };
    for color in Color::ALL {
        for _ in 0..1 + rng.below(kings) {
            let sq = *rng.pick(&squares);
            board.set(sq, Stack::of(color, Roles::one(Role::King)));
        }
    }
    let others: Vec<Role> = spec
        .pieces
        .iter()
        .map(|p| p.role)
        .filter(|&r| r != Role::King)
        .collect();
    for _ in 0..rng.below(squares.len() / 2 + 1) {
        let sq = *rng.pick(&squares);
        if board.get(sq).is_some_and(|s| s.is_occupied()) {
            continue;
        }
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut roles = Roles::one(*rng.pick(&others));
        if spec.stacks && rng.below(3) == 0 {
            for _ in 0..1 + rng.below(3) {
                roles = roles.with(*rng.pick(&others));
            }
        }
        board.set(sq, Stack::of(color, roles));
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let castling: String = "KQkq".chars().filter(|_| rng.below(2) == 0).collect();
    let castling = if castling.is_empty() || rng.below(3) == 0 {
        "-".to_string()
    } else {
        castling
    };
    let ep = match rng.below(3) {
        0 => rng.pick(&squares).to_string(),
        _ => "-".to_string(),
    };
    let halfmove = match rng.below(8) {
        0 => u32::MAX - rng.below(2) as u32,
        1 => 140 + rng.below(20) as u32,
        _ => rng.below(100) as u32,
    };
    let fullmove = match rng.below(8) {
        0 => u32::MAX,
        _ => 1 + rng.below(100) as u32,
    };
    format!(
        "{} {side} {castling} {ep} {halfmove} {fullmove} {}",
        fen::write_placement(&board),
        rng.pick(extras)
    )
}

/// Variants whose game ends exactly when the side to move has no legal
/// move (or by the seventy-five-move rule). Swap Chess lists only its
/// ordinary moves, Building Chess and Corral Chess have turns and ends of
/// their own.
fn ends_when_stuck(v: Variant) -> bool {
    matches!(
        v,
        Variant::Chess | Variant::Gardner | Variant::Kristensen | Variant::Disintegration
    )
}

/// The end of the game agrees with the list of legal moves: no moves, the
/// game is over; over with moves left, a draw. A mate is given by a check.
fn outcome_agrees(pos: &Position, legal: &[postal::Move]) {
    let v = pos.variant;
    let outcome = pos.outcome();
    if ends_when_stuck(v) {
        if legal.is_empty() {
            assert!(
                outcome.is_some(),
                "{v}: stuck but not over: {}",
                pos.to_text()
            );
        }
        // With moves to play, only a draw (seventy-five moves, a dead
        // position) can end the game.
        if let Some(o) = outcome.as_ref().filter(|_| !legal.is_empty()) {
            assert_eq!(
                o.result,
                postal::GameResult::Draw,
                "{v}: won with moves to play: {}",
                pos.to_text()
            );
        }
    }
    if let Some(o) = &outcome {
        if o.reason == "checkmate" && v != Variant::Disintegration {
            assert!(pos.is_check(), "{v}: mate without check: {}", pos.to_text());
        }
    }
}

#[test]
fn random_positions_read_back_and_their_moves_too() {
    let samples = all_samples();
    let corpus = corpus(&samples);
    let mut rng = Rng::new(6);
    for start in checks::starts() {
        let v = start.variant;
        let extras = extra_fields(&samples, v);
        for _ in 0..1500 {
            let text = random_position_text(&mut rng, v, &extras);
            let Some(pos) = checks::position_text(v, &text) else {
                continue;
            };
            let legal = pos.legal_moves();
            outcome_agrees(&pos, &legal);
            for mv in legal.iter().take(40) {
                checks::legal_move(&pos, mv);
            }
            for _ in 0..4 {
                let seed = MOVES[rng.below(MOVES.len())];
                let text = mutate(&mut rng, seed, &corpus);
                checks::move_in(&pos, &text);
            }
        }
    }
}

#[test]
fn random_playouts_keep_notation_and_rules_in_step() {
    for start in checks::starts() {
        let v = start.variant;
        for seed in 0..12 {
            let mut rng = Rng::new(100 + seed);
            let mut pos = start.clone();
            let mut history = vec![pos.clone()];
            for _ in 0..40 {
                checks::round_trip(&pos);
                let legal = pos.legal_moves();
                outcome_agrees(&pos, &legal);
                let outcome = pos.outcome();
                for mv in &legal {
                    let written = pos.move_text(mv);
                    assert_eq!(
                        pos.parse_move(&written).as_ref(),
                        Ok(mv),
                        "{v}: {written:?} in {}",
                        pos.to_text()
                    );
                }
                if legal.is_empty() || outcome.is_some() {
                    break;
                }
                let mv = rng.pick(&legal).clone();
                let Some(next) = checks::legal_move(&pos, &mv) else {
                    break;
                };
                history.push(next.clone());
                let _ = v.rules().history_outcome(&history);
                pos = next;
            }
        }
    }
}

#[test]
fn long_inputs_fail_cleanly() {
    // Ten-thousand-character move tokens, megabyte position texts and
    // movetexts: each returns, with an error inside the text.
    let starts = checks::starts();
    let long_tokens = [
        "N".repeat(10_000) + "f3",
        "a1/".repeat(3_333) + "a2",
        "=Q".repeat(5_000),
        "e4".to_string() + &"+".repeat(10_000),
        "(".repeat(10_000),
        format!("a{}", "9".repeat(10_000)),
        format!("({},1)", "1".repeat(10_000)),
        "Nb1-c3 ".to_string() + &"@".repeat(10_000),
        "é".repeat(5_000),
    ];
    for text in &long_tokens {
        every_parser(text, &starts, &starts);
        let mut line = String::from("1. e4 e5 2. ");
        line.push_str(text);
        checks::movetext_from(&starts[0], &line);
    }
    let megabyte = 1 << 20;
    for text in [
        "8/".repeat(megabyte / 2),
        "1".repeat(megabyte),
        "p".repeat(megabyte),
        format!("{} w - - 0 1", "(PPPP)".repeat(megabyte / 6)),
        "w ".repeat(megabyte / 2),
    ] {
        for v in Variant::ALL {
            assert!(fen::read(v, &text).is_err(), "{v}");
        }
    }
    for text in [
        "e4 ".repeat(megabyte / 3),
        " ".repeat(megabyte),
        "1. ".repeat(megabyte / 3),
        "Nf3 Nf6 Ng1 Ng8 ".repeat(megabyte / 16),
    ] {
        for start in &starts {
            checks::movetext_from(start, &text);
        }
    }
}

#[test]
fn a_square_far_from_the_board_is_not_on_it() {
    // (32767,1) minus the array's first file (-1) overflowed i16.
    let board = Board::rect(8, 8);
    for sq in [
        Square::new(i16::MAX, 1),
        Square::new(1, i16::MAX),
        Square::new(i16::MIN, 1),
        Square::new(-32767, -32767),
    ] {
        assert!(!board.contains(sq), "{sq:?}");
        assert_eq!(board.get(sq), None);
    }
    let pos = Position::start(Variant::Chess);
    for text in [
        "(32767,1)",
        "Q(-32767,5)",
        "Nb1-(32767,32767)",
        "a1-(32767,1)",
    ] {
        assert!(pos.parse_move(text).is_err(), "{text}");
    }
}

#[test]
fn clocks_at_their_largest_do_not_overflow() {
    // A position text may set both clocks to u32::MAX; writing a move
    // (which plays it to find the check mark), listing and playing moves
    // overflowed them.
    let max = u32::MAX;
    for text in [
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 {max}"),
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {max} 1"),
        format!("4k3/8/8/8/8/8/8/R3K3 b - - {max} {max}"),
    ] {
        let pos = Position::from_text(Variant::Chess, &text).unwrap();
        for mv in pos.legal_moves() {
            let written = pos.move_text(&mv);
            let next = pos.play_unchecked(&mv);
            assert!(next.halfmove <= max && next.fullmove >= pos.fullmove);
            assert!(!written.is_empty());
        }
    }
    let pos = Position::from_text(
        Variant::Chess,
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 {max}"),
    )
    .unwrap();
    let next = pos.play(&pos.parse_move("e5").unwrap()).unwrap();
    assert_eq!((next.fullmove, next.halfmove), (max, 0));
    assert_eq!(
        Position::from_text(Variant::Chess, &next.to_text()),
        Ok(next)
    );
}

#[test]
fn coordinates_never_name_the_prison() {
    // The prison is the square (-32768,-32768) inside; written as
    // coordinates it read as the prison, and its neighbours overflowed.
    use postal::notation::square::{parse_square, MAX_COORDINATE};
    assert_eq!(parse_square("(-32768,-32768)"), None);
    assert_eq!(parse_square("(32767,-32768)"), None);
    assert_eq!(parse_square("(30001,1)"), None);
    assert_eq!(parse_square("prison"), Some(Square::PRISON));
    let far = Square::new(-MAX_COORDINATE, MAX_COORDINATE);
    assert_eq!(parse_square(&far.to_string()), Some(far));
    let pos = Position::start(Variant::Chess);
    assert!(pos.parse_move("Kc5-(-32768,-32768)").is_err());
}

#[test]
fn a_far_origin_is_refused() {
    // The board's array spanned a1 and the squares read: origin=(9999,9999)
    // allocated some 800 MB, and near i16::MAX the square numbers
    // overflowed. Only a variant whose board grows takes an origin at all,
    // and (issue 34) as far out as a legal game reaches, 20,025 files or
    // ranks, but not past the limit of 30,000.
    for variant in Variant::ALL {
        for origin in ["(30000,30000)", "(-30001,1)", "(1,29997)", "(-1,-30001)"] {
            let text = format!("k4/5/5/5/4K w - - 0 1 origin={origin}");
            let e = Position::from_text(variant, &text).unwrap_err();
            assert!(e.message.contains("origin"), "{variant} {origin}: {e}");
            assert_eq!(&text[e.span.start..e.span.end], format!("origin={origin}"));
        }
        if variant.spec().board_grows {
            let text = "k4/5/5/5/4K w - - 0 1 origin=(-1000,1000)";
            if let Ok(pos) = Position::from_text(variant, text) {
                assert_eq!(pos.board.square_count(), 25);
            }
        }
    }
}

#[test]
fn an_origin_field_alone_is_no_placement() {
    // The origin field was looked for among all fields, the placement
    // too, and taking it away left no placement to index.
    for text in ["origin=(0,0)", "  origin=(0,0)  ", "origin=(0,0) w - - 0 1"] {
        let e = Position::from_text(Variant::Chess, text).unwrap_err();
        assert!(e.span.end <= text.len());
    }
}

#[test]
fn a_movement_range_too_large_is_an_error() {
    // W256 read as range 0, an unlimited rider. A range is one digit.
    use postal::movement::parse_betza;
    for text in ["W256", "R99999999999999999999", "Q1000", "W10"] {
        assert!(parse_betza(text).is_err(), "{text}");
    }
    let slides = |text| parse_betza(text).unwrap().quiet.slides[&(1, 0)];
    assert_eq!((slides("W9"), slides("WW")), (9, 0));
}

#[test]
fn a_megabyte_of_movetext_fails_at_once() {
    // Kristensen pawns step back, so "a3 a6 a2 a7" never ends the game:
    // a megabyte of it played 333,000 plies and held every position
    // (about 500 MB). It now fails before playing anything.
    use postal::notation::movetext::{play, tokens, MAX_PLIES};
    let pos = Position::start(Variant::Kristensen);
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str("a3 a6 a2 a7 ");
    }
    let (span, e) = play(&pos, &text).unwrap_err();
    let past = &tokens(&text)[MAX_PLIES];
    assert_eq!(span, past.span);
    assert!(e.span().is_some(), "a syntax error: {e}");
    assert!(e.to_string().contains("more than"), "{e}");
    // Below the limit the same moves play.
    assert_eq!(play(&pos, "1. a3 a6 2. a2 a7 3. a3").unwrap().len(), 5);
}

#[test]
fn the_command_line_refuses_bad_input_without_panicking() {
    // The fixed bugs above, as a user meets them: exit 0 or 2, one error
    // line with a caret, never a panic.
    use assert_cmd::Command;
    let max = u32::MAX;
    let clocks = format!("4k3/8/8/8/8/8/8/R3K3 b - - {max} {max}");
    let endless = "a3 a6 a2 a7 ".repeat(5_001);
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["moves", "chess", "--position", &clocks], 0),
        (vec!["perft", "chess", "2", "--position", &clocks], 0),
        (vec!["moves", "chess", "--moves", "1. e4 (32767,1)"], 2),
        (vec!["moves", "chess", "--moves", "Kc5-(-32768,-32768)"], 2),
        (vec!["moves", "chess", "--position", "origin=(0,0)"], 2),
        (
            vec!["moves", "chess", "--position", "  origin=(9999,9999) "],
            2,
        ),
        (vec!["moves", "kristensen", "--moves", &endless], 2),
        (vec!["moves", "chess", "--moves", "1. e4 é5"], 2),
    ];
    for (args, code) in cases {
        let out = Command::cargo_bin("postal")
            .expect("binary built")
            .env("XDG_DATA_HOME", crate::common::data_home())
            .args(&args)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let shown: Vec<&str> = args.iter().map(|a| &a[..a.len().min(40)]).collect();
        assert_eq!(out.status.code(), Some(code), "{shown:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{shown:?}: {stderr}");
        if code != 0 {
            assert!(stderr.starts_with("postal: error: "), "{shown:?}: {stderr}");
        }
    }
}

/// Every input that ever crashed a fuzz target or ran away, kept under
/// `fuzz/regressions/TARGET/`, replayed through the same checks on the
/// stable compiler (fuzz/README.md).
#[test]
fn every_input_that_ever_failed_passes_now() {
    let dir = std::path::Path::new(root()).join("fuzz/regressions");
    let starts = checks::starts();
    let mut replayed = 0;
    for target in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = target.file_name().to_string_lossy().into_owned();
        for input in std::fs::read_dir(target.path()).unwrap().flatten() {
            let bytes = std::fs::read(input.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            match name.as_str() {
                "state_file" => checks::state_file(&text),
                "record" => checks::record(&bytes),
                "mail_config" => checks::mail_config(&text),
                "square" => checks::square_name(&text),
                "betza" => checks::betza(&text),
                "variants_ini" => checks::variants_ini(&text),
                "movetext" => starts.iter().for_each(|p| checks::movetext_from(p, &text)),
                "move_text" => {
                    checks::move_syntax(&text);
                    starts.iter().for_each(|p| {
                        checks::move_in(p, &text);
                    });
                }
                "position_text" => Variant::ALL.iter().for_each(|&v| {
                    if let Some(pos) = checks::position_text(v, &text) {
                        for m in pos.legal_moves() {
                            checks::legal_move(&pos, &m);
                        }
                    }
                }),
                other => panic!("fuzz/regressions/{other}: no such target"),
            }
            replayed += 1;
        }
    }
    assert!(replayed >= 7, "only {replayed} regression inputs");
}

/// Issue 18, problem 7: the 24th file of a wide Building board is not
/// named `x` (which reads as a capture); it is written `(24,r)` and reads
/// back.
#[test]
fn the_file_after_w_is_written_by_number_and_reads_back() {
    let pos = Position::from_text(Variant::Building, "k21K/23/23/23/23 w - - 0 1").unwrap();
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    let texts = pos.move_texts(&moves);
    assert!(texts.iter().any(|t| t.contains("(24,")), "{texts:?}");
    for (m, t) in moves.iter().zip(&texts) {
        assert!(!t.contains("x1") && !t.contains("x2"), "{t}");
        assert_eq!(&pos.move_text(m), t);
        assert_eq!(&pos.parse_move(t).unwrap(), m, "{t}");
    }
}

/// Issue 18, problem 3, and issue 34: a Building board past the limits,
/// which no legal game reaches, is refused with the limit and the excess,
/// and a board at the limit offers no placement past it.
#[test]
fn boards_past_the_limits_are_refused_with_the_excess() {
    let e = Position::from_text(Variant::Building, "k40049K w - - 0 1").unwrap_err();
    assert!(
        e.message
            .contains("40051 squares, 1 over the limit of 40050 squares"),
        "{}",
        e.message
    );
    // Files up to 30,000: adding a square right of it would pass the
    // limit, so no placement there.
    let at = Position::from_text(Variant::Building, "k1K/3 w - - 0 1 origin=(29998,1)").unwrap();
    assert!(!at.legal_moves().is_empty());
    for m in at.legal_moves() {
        if let postal::Move::Piece(pm) = &m {
            let sq = pm.place.unwrap();
            assert!(sq.file <= 30_000, "{sq}");
        }
    }
}

/// Issue 18, problem 3: a stream with no game boundary (no newline at
/// all) is read in memory bounded by the record limit, not by its size.
#[test]
fn a_stream_without_boundaries_is_read_in_bounded_memory() {
    use postal::record::pgn::{Chunk, Chunker};
    use std::io::Read;
    let input = std::io::BufReader::new(std::io::repeat(b'a').take(24 << 20));
    let mut chunker = Chunker::new(input);
    let mut chunk = Chunk::default();
    let mut chunks = 0;
    while chunker.next_chunk(&mut chunk).unwrap() {
        chunks += 1;
        assert_eq!(chunk.oversize, Some(24 << 20));
        assert!(chunk.text.len() <= postal::limits::MAX_RECORD_BYTES);
    }
    assert_eq!(chunks, 1);
    assert!(chunker.capacity() <= 2 * postal::limits::MAX_RECORD_BYTES + (1 << 16));
    // A NUL byte: binary, refused with its line.
    let mut chunker = Chunker::new(&b"[Event \"x\"]\n\n1. e4\0 *\n"[..]);
    let e = chunker.next_chunk(&mut chunk).unwrap_err();
    assert!(e.to_string().contains("line 3: a NUL byte"), "{e}");
}
