//! Kristensen's Game (rules/kristensen.md KR-1..KR-12): a test per rule,
//! the round trips of moves and position texts, and a slow, independent
//! move counter that checks the perft table `fixtures/perft/kristensen.perft`.

use postal::perft::perft;
use postal::variant::kristensen::{perpetual_check, rights};
use postal::variant::Rules;
use postal::{Color, GameResult, Move, MoveError, Position, Role, Square, Variant};

const START: &str =
    "rnbqkqbnr/pp2w2pp/2pp1pp2/9/9/9/2PP1PP2/PP2W2PP/RNBQKQBNR w - - 0 1 a2b2h2i2a8b8h8i8";
/// Barrier pawns in contact, kings beside their own barrier pawns, a pawn
/// about to promote, wing pawns with and without their double step.
const BARRIERS: &str = "r3k2nr/p1Pq1wbp1/4pW2p/2n4p1/1b7/4N4/2P3Q2/P4K1P1/R1B4R1 w - - 4 21 a2a8h8";
/// Black to move: a pawn on its own first rank, a barrier pawn blocking a
/// queen, a rook with a knight-move check to come, a promotion each side.
const CHECKS: &str = "2r3k2/pp3R1wp/3P3b1/9/2Pq5/4W4/1p2KQ3/P2N2p1P/1P3B1nR b - - 3 30 i2a8";

fn pos(text: &str) -> Position {
    Position::from_text(Variant::Kristensen, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    postal::notation::square::parse_square(name).unwrap()
}

fn texts(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| p.move_text(m)).collect()
}

fn play(p: &Position, text: &str) -> Position {
    let m = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()));
    p.play(&m).unwrap()
}

fn play_all(p: &Position, moves: &str) -> Vec<Position> {
    let mut history = vec![p.clone()];
    for m in moves.split_whitespace() {
        let next = play(history.last().unwrap(), m);
        history.push(next);
    }
    history
}

// ---- the slow, independent counter --------------------------------------
//
// A 9x9 array of pieces, its own reader of the position text, and moves
// found by trying every from/to square pair against the rule text, with
// legality decided by asking every enemy piece whether it could take the
// king afterwards. It shares nothing with the library's generator
// (movement tables, rays, attack tables, pseudo_moves, retain_king_safe).

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Man {
    white: bool,
    kind: char,
}

#[derive(Clone, Debug)]
struct Slow {
    /// `board[file][rank]`, both from 0.
    board: [[Option<Man>; 9]; 9],
    white: bool,
    /// Start squares (file, rank from 0) of pawns that may double-step.
    rights: Vec<(i32, i32)>,
}

type SlowMove = ((i32, i32), (i32, i32), Option<char>);

impl Slow {
    fn read(text: &str) -> Slow {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut board = [[None; 9]; 9];
        for (row, line) in fields[0].split('/').enumerate() {
            let rank = 8 - row;
            let mut file = 0;
            for c in line.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[file][rank] = Some(Man {
                        white: c.is_ascii_uppercase(),
                        kind: c.to_ascii_uppercase(),
                    });
                    file += 1;
                }
            }
        }
        let mut rights = Vec::new();
        let r = fields[6].as_bytes();
        if fields[6] != "-" {
            for pair in r.chunks(2) {
                rights.push(((pair[0] - b'a') as i32, (pair[1] - b'1') as i32));
            }
        }
        Slow {
            board,
            white: fields[1] == "w",
            rights,
        }
    }

    fn at(&self, s: (i32, i32)) -> Option<Man> {
        self.board[s.0 as usize][s.1 as usize]
    }

    /// Squares strictly between two squares on a line are empty.
    fn clear(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let mut s = (a.0 + sx, a.1 + sy);
        while s != b {
            if self.at(s).is_some() {
                return false;
            }
            s = (s.0 + sx, s.1 + sy);
        }
        true
    }

    /// Could the piece on `a` go to `b` by its geometry (KR-2..KR-6),
    /// as a capture (`capture`) or onto an empty square?
    fn reaches(&self, a: (i32, i32), b: (i32, i32), capture: bool) -> bool {
        let man = self.at(a).unwrap();
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (ax, ay) = (dx.abs(), dy.abs());
        let fwd = if man.white { 1 } else { -1 };
        let knight = (ax == 1 && ay == 2) || (ax == 2 && ay == 1);
        let straight = (dx == 0) != (dy == 0);
        let diagonal = ax == ay && ax > 0;
        match man.kind {
            'K' | 'W' => ax.max(ay) == 1,
            'N' => knight,
            'R' => knight || (straight && self.clear(a, b)),
            'B' => (diagonal && self.clear(a, b)) || (!capture && dx == 0 && ay == 1),
            'Q' => (straight || diagonal) && self.clear(a, b),
            'P' => {
                if capture {
                    ax == 1 && dy == fwd
                } else {
                    (dx == 0 && (dy == fwd || dy == -fwd))
                        || (dx == 0
                            && dy == 2 * fwd
                            && self.rights.contains(&a)
                            && self.at((a.0, a.1 + fwd)).is_none())
                }
            }
            other => panic!("unknown piece {other}"),
        }
    }

    /// May the piece on `a` take what stands on `b` (KR-6, KR-7)?
    fn may_take(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        let (m, t) = (self.at(a).unwrap(), self.at(b).unwrap());
        let own = m.white == t.white;
        match m.kind {
            'W' => (own && t.kind != 'K') || (!own && t.kind == 'W'),
            'K' => (own && t.kind == 'W') || (!own && t.kind != 'W'),
            _ => !own && t.kind != 'W',
        }
    }

    fn king_attacked(&self, white: bool) -> bool {
        let all: Vec<(i32, i32)> = (0..9).flat_map(|f| (0..9).map(move |r| (f, r))).collect();
        let king = all
            .iter()
            .copied()
            .find(|&s| self.at(s) == Some(Man { white, kind: 'K' }));
        let Some(king) = king else { return false };
        all.iter().any(|&s| {
            self.at(s)
                .is_some_and(|m| m.white != white && self.may_take(s, king))
                && self.reaches(s, king, true)
        })
    }

    fn apply(&self, mv: SlowMove) -> Slow {
        let (a, b, promo) = mv;
        let mut next = self.clone();
        let mut man = next.board[a.0 as usize][a.1 as usize].take().unwrap();
        if let Some(p) = promo {
            man.kind = p;
        }
        next.board[b.0 as usize][b.1 as usize] = Some(man);
        next.rights.retain(|&s| s != a && s != b);
        next.white = !self.white;
        next
    }

    fn legal(&self) -> Vec<SlowMove> {
        let mut out = Vec::new();
        for a in (0..9).flat_map(|f| (0..9).map(move |r| (f, r))) {
            let Some(man) = self.at(a) else { continue };
            if man.white != self.white {
                continue;
            }
            for b in (0..9).flat_map(|f| (0..9).map(move |r| (f, r))) {
                if a == b {
                    continue;
                }
                let ok = match self.at(b) {
                    None => self.reaches(a, b, false),
                    Some(_) => self.may_take(a, b) && self.reaches(a, b, true),
                };
                if !ok {
                    continue;
                }
                let last = if man.white { 8 } else { 0 };
                let promos: Vec<Option<char>> = if man.kind == 'P' && b.1 == last {
                    vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                } else {
                    vec![None]
                };
                for p in promos {
                    let next = self.apply((a, b, p));
                    if !next.king_attacked(self.white) {
                        out.push((a, b, p));
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .iter()
            .map(|&m| self.apply(m).perft(depth - 1))
            .sum()
    }

    /// The placement and rights fields, as the position text writes them.
    fn text(&self) -> (String, String) {
        let mut placement = String::new();
        for rank in (0..9).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[file][rank] {
                    None => empty += 1,
                    Some(m) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(if m.white {
                            m.kind
                        } else {
                            m.kind.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        let order = [(0, 1), (1, 1), (7, 1), (8, 1), (0, 7), (1, 7), (7, 7), (8, 7)];
        let rights: String = order
            .iter()
            .filter(|s| self.rights.contains(s))
            .map(|&(f, r)| format!("{}{}", (b'a' + f as u8) as char, r + 1))
            .collect();
        (
            placement,
            if rights.is_empty() { "-".into() } else { rights },
        )
    }
}

fn library_move(m: &Move) -> SlowMove {
    let m = m.piece().unwrap();
    (
        (m.from.file as i32 - 1, m.from.rank as i32 - 1),
        (m.to.file as i32 - 1, m.to.rank as i32 - 1),
        m.promotion.map(|r| r.char()),
    )
}

/// Walks the tree `depth` plies deep with both generators side by side,
/// asserting at every node the same set of moves and the same position
/// text; returns the leaf count.
fn walk_both(lib: &Position, slow: &Slow, depth: u32) -> u64 {
    let text = lib.to_text();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (placement, rights) = slow.text();
    assert_eq!((fields[0], fields[6]), (&*placement, &*rights), "{text}");
    if depth == 0 {
        return 1;
    }
    let mut ours: Vec<SlowMove> = lib.legal_moves().iter().map(library_move).collect();
    let mut theirs = slow.legal();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "moves differ in {text}");
    lib.legal_moves()
        .iter()
        .map(|m| walk_both(&lib.play_unchecked(m), &slow.apply(library_move(m)), depth - 1))
        .sum()
}

#[test]
fn slow_counter_agrees_with_the_generator() {
    // KR-1..KR-7 as move generation: for every position of the perft
    // table, the tree to the deepest line within reach is walked with both
    // generators, comparing every move set, every position text and the
    // count.
    let table = std::fs::read_to_string(format!(
        "{}/fixtures/perft/kristensen.perft",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let cases = postal::perft::read_table(&table).unwrap();
    assert!(cases.len() >= 3);
    for case in &cases {
        let &(depth, nodes) = case
            .counts
            .iter()
            .filter(|(_, n)| *n <= 250_000)
            .max()
            .unwrap_or_else(|| panic!("{}: no line within reach", case.id));
        assert!(depth >= 3, "{}", case.id);
        let lib = pos(&case.fen);
        let n = walk_both(&lib, &Slow::read(&case.fen), depth);
        assert_eq!(n, nodes, "{} perft {depth}", case.id);
    }
}

/// The slow counter alone, for the deeper lines (run by hand:
/// `cargo test --release --test kristensen slow_perft_deep -- --ignored`).
#[test]
#[ignore]
fn slow_perft_deep() {
    let table = std::fs::read_to_string(format!(
        "{}/fixtures/perft/kristensen.perft",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for case in postal::perft::read_table(&table).unwrap() {
        let slow = Slow::read(&case.fen);
        for &(depth, nodes) in &case.counts {
            assert_eq!(slow.perft(depth), nodes, "{} perft {depth}", case.id);
            println!("{} perft {depth} {nodes}: agrees", case.id);
        }
    }
}

#[test]
#[ignore]
fn print_counts() {
    for text in [START, BARRIERS, CHECKS] {
        let p = pos(text);
        println!("{text}");
        println!("{:?}", texts(&p));
        for d in 1..=4 {
            println!("perft {d} {}", perft(&p, d));
        }
    }
}
