//! Building Chess (rules/gardner-building.md BU-1..BU-8) from the outside:
//! a slow counter that knows the rules from first principles checks the
//! engine's turn lists and perft numbers, every legal turn of the perft
//! positions round-trips through the notation, and position texts of
//! boards grown in all four directions read back to the same position.

use postal::perft::{perft, read_table};
use postal::{Color, Move, Position, Role, Square, Variant};
use std::collections::{BTreeMap, BTreeSet};

/// Runs the `postal` binary with `args`, checks that it succeeded (saying
/// what it printed otherwise) and returns its standard output.
fn postal_ok(args: &[&str]) -> Vec<u8> {
    let out = assert_cmd::Command::cargo_bin("postal")
        .unwrap()
        .env("POSTAL_NOW", "2026-12-02T12:00:00Z")
        .env("XDG_DATA_HOME", crate::common::data_home())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn table() -> Vec<(String, Position)> {
    let path = format!(
        "{}/fixtures/perft/building.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    read_table(&text)
        .unwrap()
        .into_iter()
        .map(|c| {
            let p = Position::from_text(Variant::Building, &c.fen)
                .unwrap_or_else(|e| panic!("{}: {e}", c.id));
            (c.id, p)
        })
        .collect()
}

// ---- the slow counter ---------------------------------------------------

/// A square as plain integers.
type Sq = (i32, i32);

/// A turn as the slow counter sees it: from, to, promotion letter, placement.
type SlowTurn = (Sq, Sq, Option<char>, Sq);

/// A position as a map from the squares on the board to what stands there
/// (`'K'`, `'p'`, ...), with nothing shared with the engine's generator.
#[derive(Clone)]
struct Slow {
    board: BTreeMap<Sq, Option<char>>,
    white: bool,
}

impl Slow {
    fn of(pos: &Position) -> Slow {
        let board = pos
            .board
            .squares()
            .map(|s| {
                let p = pos.board.piece_at(s).map(|p| {
                    let c = p.role.char();
                    if p.color == Color::White {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                });
                ((s.file as i32, s.rank as i32), p)
            })
            .collect();
        Slow {
            board,
            white: pos.turn == Color::White,
        }
    }

    fn exists(&self, s: Sq) -> bool {
        self.board.contains_key(&s)
    }

    fn at(&self, s: Sq) -> Option<char> {
        self.board.get(&s).copied().flatten()
    }

    /// Could the piece `p` on `from` go to `to` (capturing or not) on this
    /// board, by FIDE movement, with sliders needing every square between
    /// to exist and be empty (BU-5)?
    fn reaches(&self, p: char, from: Sq, to: Sq, capture: bool) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let clear = || {
            let n = dx.abs().max(dy.abs());
            (1..n).all(|k| {
                let s = (from.0 + dx.signum() * k, from.1 + dy.signum() * k);
                self.exists(s) && self.at(s).is_none()
            })
        };
        let straight = (dx == 0) != (dy == 0);
        let diagonal = dx != 0 && dx.abs() == dy.abs();
        match p.to_ascii_uppercase() {
            'K' => dx.abs().max(dy.abs()) == 1,
            'N' => (dx.abs() == 1 && dy.abs() == 2) || (dx.abs() == 2 && dy.abs() == 1),
            'R' => straight && clear(),
            'B' => diagonal && clear(),
            'Q' => (straight || diagonal) && clear(),
            'P' => {
                let fwd = if p.is_ascii_uppercase() { 1 } else { -1 };
                if capture {
                    dy == fwd && dx.abs() == 1
                } else {
                    dy == fwd && dx == 0
                }
            }
            _ => false,
        }
    }

    fn mine(&self, p: char) -> bool {
        p.is_ascii_uppercase() == self.white
    }

    /// Is the king of one side (White when `white`) attacked by a piece of
    /// the other?
    fn king_attacked(&self, white: bool) -> bool {
        let king = if white { 'K' } else { 'k' };
        let Some((&k, _)) = self.board.iter().find(|(_, p)| **p == Some(king)) else {
            return false;
        };
        self.board.iter().any(|(&s, p)| match p {
            Some(p) if p.is_ascii_uppercase() != white => self.reaches(*p, s, k, true),
            _ => false,
        })
    }

    fn is_light(s: Sq) -> bool {
        (s.0 + s.1).rem_euclid(2) == 1
    }

    /// Every legal turn: every piece of the side to move to every square,
    /// times every square around the board (BU-2..BU-8).
    fn turns(&self) -> Vec<SlowTurn> {
        let mut out = Vec::new();
        let (minf, maxf) = (
            self.board.keys().map(|s| s.0).min().unwrap() - 1,
            self.board.keys().map(|s| s.0).max().unwrap() + 1,
        );
        let (minr, maxr) = (
            self.board.keys().map(|s| s.1).min().unwrap() - 1,
            self.board.keys().map(|s| s.1).max().unwrap() + 1,
        );
        let mut places = Vec::new();
        for f in minf..=maxf {
            for r in minr..=maxr {
                let s = (f, r);
                let touches = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .any(|d| self.exists((f + d.0, r + d.1)));
                if !self.exists(s) && touches && Slow::is_light(s) == self.white {
                    places.push(s);
                }
            }
        }
        let froms: Vec<(Sq, char)> = self
            .board
            .iter()
            .filter_map(|(&s, p)| p.filter(|&p| self.mine(p)).map(|p| (s, p)))
            .collect();
        for (from, p) in froms {
            for (&to, &there) in &self.board {
                let ok = match there {
                    None => self.reaches(p, from, to, false),
                    Some(q) if !self.mine(q) => self.reaches(p, from, to, true),
                    Some(_) => false,
                };
                if !ok {
                    continue;
                }
                let last = if self.white { 5 } else { 1 };
                let promos: Vec<Option<char>> = if p.eq_ignore_ascii_case(&'P') && to.1 == last {
                    "QRBN".chars().map(Some).collect()
                } else {
                    vec![None]
                };
                for promo in promos {
                    let mut next = self.clone();
                    let piece = next.board.insert(from, None).flatten();
                    let placed = match (promo, piece) {
                        (Some(c), _) if self.white => Some(c),
                        (Some(c), _) => Some(c.to_ascii_lowercase()),
                        (None, p) => p,
                    };
                    next.board.insert(to, placed);
                    for &place in &places {
                        // Legality after move and placement together (BU-6).
                        next.board.insert(place, None);
                        if !next.king_attacked(self.white) {
                            out.push((from, to, promo, place));
                        }
                        next.board.remove(&place);
                    }
                }
            }
        }
        out
    }

    fn after(&self, (from, to, promo, place): SlowTurn) -> Slow {
        let mut next = self.clone();
        let p = next.board.insert(from, None).flatten().unwrap();
        let placed = match promo {
            Some(c) if self.white => c,
            Some(c) => c.to_ascii_lowercase(),
            None => p,
        };
        next.board.insert(to, Some(placed));
        next.board.insert(place, None);
        next.white = !self.white;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let turns = self.turns();
        if depth == 1 {
            return turns.len() as u64;
        }
        turns
            .into_iter()
            .map(|t| self.after(t).perft(depth - 1))
            .sum()
    }
}

fn engine_turns(pos: &Position) -> BTreeSet<SlowTurn> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let m = m.piece().unwrap();
            let sq = |s: Square| (s.file as i32, s.rank as i32);
            (
                sq(m.from),
                sq(m.to),
                m.promotion.map(|r| r.char()),
                sq(m.place.unwrap()),
            )
        })
        .collect()
}

/// Compares the engine's turn list with the slow counter's at `pos` and,
/// through `walk` further turns, at positions below it.
fn compare_tree(pos: &Position, depth: u32, walk: &mut impl FnMut(usize) -> usize) {
    let slow: BTreeSet<SlowTurn> = Slow::of(pos).turns().into_iter().collect();
    let fast = engine_turns(pos);
    assert_eq!(
        fast.len(),
        pos.legal_moves().len(),
        "duplicate turns at {}",
        pos.to_text()
    );
    if fast != slow {
        let extra: Vec<_> = fast.difference(&slow).take(5).collect();
        let missing: Vec<_> = slow.difference(&fast).take(5).collect();
        panic!(
            "{}: engine has extra {extra:?}, lacks {missing:?}",
            pos.to_text()
        );
    }
    assert_eq!(perft(pos, 1), fast.len() as u64, "{}", pos.to_text());
    if depth == 0 {
        return;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return;
    }
    for _ in 0..3 {
        let m = &moves[walk(moves.len())];
        compare_tree(&pos.play(m).unwrap(), depth - 1, walk);
    }
}

/// A small deterministic generator for choosing turns.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn bu5_bu6_turn_lists_match_the_slow_counter() {
    let mut rng = Lcg(7);
    for (_, pos) in table() {
        compare_tree(&pos, 3, &mut |n| rng.next(n));
    }
}

#[test]
fn bu6_crafted_positions_match_the_slow_counter() {
    // Gaps next to kings: a diagonal gap that touches no square (nobody
    // can add it), two gaps in a row, gaps of either colour, a placement
    // that gives check, promotions on a grown board, a board whose rim
    // leaves Black nothing to add.
    let mut rng = Lcg(3);
    for text in [
        "k4/3*b/2***/3*1/1K3 w - - 0 1",
        "4k/5/r**1K/5/4N w - - 0 1",
        "k4/5/r2*K/5/4N w - - 0 1",
        "k4/5/r2*K/5/4N b - - 0 1",
        "5/5/R2*k/5/K4 w - - 0 1",
        "**k**/*3*/2R2/*3*/**K** b - - 0 1",
        "**k**/*3*/5/*3*/**K** w - - 0 1",
        "**k**/**1**/2P2/5/5/K4 w - - 0 1",
        "4k/5/5/p4/4K/1**** b - - 0 1 origin=(1,0)",
        "*4Q*/3k1*R/N1*1pb1/1Bp1*2/1P3Pn/*1K1*r1/***1*** b - - 0 1 origin=(0,0)",
        "q*1*k/1*1*1/b3*/1*1*1/K1*1r w - - 0 1",
    ] {
        let pos =
            Position::from_text(Variant::Building, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        compare_tree(&pos, 2, &mut |n| rng.next(n));
        for depth in 1..=2 {
            assert_eq!(perft(&pos, depth), Slow::of(&pos).perft(depth), "{text}");
        }
    }
}

#[test]
fn bu6_random_games_match_the_slow_counter() {
    // Long random games grow the board every which way and bring sliders
    // to gaps next to kings.
    for seed in 1..=6 {
        let mut rng = Lcg(seed);
        let mut pos = Position::start(Variant::Building);
        for _ in 0..60 {
            let slow: BTreeSet<SlowTurn> = Slow::of(&pos).turns().into_iter().collect();
            assert_eq!(engine_turns(&pos), slow, "{}", pos.to_text());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.next(moves.len())]).unwrap();
        }
    }
}

#[test]
fn bu8_perft_matches_the_slow_counter() {
    // Whole turns counted both ways (the fast counter bulk-counts the last
    // turn; the slow one plays every turn out).
    for (id, pos) in table() {
        let depth = match id.as_str() {
            "start" => 3,
            "blob100" => 1,
            _ => 2,
        };
        for d in 1..=depth {
            assert_eq!(perft(&pos, d), Slow::of(&pos).perft(d), "{id} perft {d}");
        }
    }
}

#[test]
fn bu1_first_turn_moves_are_gardners() {
    // BU-1: the move part of Building's first turn is Gardner's first move.
    let b = Position::start(Variant::Building);
    let g = Position::start(Variant::Gardner);
    let gardner: BTreeSet<String> = g.legal_moves().iter().map(|m| g.move_text(m)).collect();
    let building: BTreeSet<String> = b
        .legal_moves()
        .iter()
        .map(|m| {
            let mut m = m.piece().unwrap().clone();
            m.place = None;
            g.move_text(&Move::Piece(m))
        })
        .collect();
    assert_eq!(building, gardner);
    assert_eq!(gardner.len(), 7);
}

#[test]
fn notation_round_trip_over_every_perft_turn() {
    // Every legal turn of the perft positions and of the positions one turn
    // below them prints and reads back to the same turn.
    let mut rng = Lcg(11);
    for (id, pos) in table() {
        let mut positions = vec![pos.clone()];
        let moves = pos.legal_moves();
        for _ in 0..4 {
            positions.push(pos.play(&moves[rng.next(moves.len())]).unwrap());
        }
        for p in positions {
            for m in p.legal_moves() {
                let text = p.move_text(&m);
                let back = p
                    .parse_move(&text)
                    .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
                assert_eq!(back, m, "{id}: {text}");
                // The long form and `@` without the space read too.
                let long = postal::notation::san::write_long(&p, &m);
                assert_eq!(p.parse_move(&long).unwrap(), m, "{id}: {long}");
                let tight = text.replacen(" @", "@", 1);
                assert_eq!(p.parse_move(&tight).unwrap(), m, "{id}: {tight}");
            }
        }
    }
}

#[test]
fn bu8_a_random_game_to_mate() {
    // A random game of 22 turns, as the program writes it: kings and rooks
    // walk onto squares off the grid, placements give check, and Black
    // mates with a placement that leaves White no legal turn.
    let record = "b3 @e6 d3 @(4,0) K(4,0) @(0,5) Qd4 @(0,4) B(0,4) @f3 Qb2 @f2+ \
        Qc1 @(-1,4) Qxa1 @(0,6) Bb2 @(0,1)+ Nc3 @(-1,5) Nxc3 @(-2,5) Qxb2 @(0,2) \
        Nxe4 @(-1,2) R(0,5) @(-1,1) cxd3 @(3,0) Q(0,4) @(3,-1) K(3,0) @(0,7) \
        axb3 @(0,8) Qc3 @a6+ bxc3 @e7 K(3,-1) @f7 Qc1 @(-2,2)#";
    let mut pos = Position::start(Variant::Building);
    let texts: Vec<&str> = record.split(' ').collect();
    for pair in texts.chunks(2) {
        let text = pair.join(" ");
        let m = pos
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.move_text(&m), text);
        pos = pos.play(&m).unwrap();
    }
    assert_eq!(
        pos.to_text(),
        "**1******/**1****2/**2***1*/2r2b1k*/*4p1N*/***1ppP2/3P2PP1/*4q2*/*****2**/*****K*** w - - 2 12 origin=(-2,-1)"
    );
    assert_eq!(pos.board.square_count(), 25 + 22);
    let o = pos.outcome().unwrap();
    assert_eq!((o.reason.as_str(), o.rule), ("checkmate", "BU-8"));
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn notation_examples_of_the_rules() {
    let p = Position::start(Variant::Building);
    let m = p.parse_move("Nb1-c3 @f3").unwrap();
    assert_eq!(p.move_text(&m), "Nc3 @f3");
    assert_eq!(p.parse_move("Nc3 @f3").unwrap(), m);
    assert_eq!(p.parse_move("Nc3@f3").unwrap(), m);
    let e = p.parse_move("e2-e3 @(0,3)").unwrap();
    assert_eq!(p.move_text(&e), "e3 @(0,3)");
    assert_eq!(
        e.piece().unwrap().place,
        Some(Square::new(0, 3)),
        "(0,3) is left of a3"
    );
    let below = p.parse_move("a3 @(1,0)").unwrap();
    assert_eq!(below.piece().unwrap().place, Some(Square::new(1, 0)));
    // Any square may be written (f,r): (1,1) is a1, and c3 is (3,3).
    assert_eq!(p.parse_move("N(2,1)-(3,3) @(6,3)").unwrap(), m);
}

#[test]
fn bu4_position_text_of_boards_grown_in_every_direction() {
    // Games that push the board left, right, up and down: every position
    // text reads back to the same position (same squares, pieces, side,
    // counters, and the same legal turns).
    for seed in 1..=4 {
        let mut rng = Lcg(100 + seed);
        let mut pos = Position::start(Variant::Building);
        let mut grew = [false; 4];
        for ply in 0..80 {
            let text = pos.to_text();
            let back = Position::from_text(Variant::Building, &text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(back.board.same_placement(&pos.board), "{text}");
            assert_eq!(back.to_text(), text);
            assert_eq!(
                (back.turn, back.halfmove, back.fullmove),
                (pos.turn, pos.halfmove, pos.fullmove)
            );
            if ply % 20 == 0 {
                assert_eq!(back.legal_moves(), pos.legal_moves(), "{text}");
            }
            let (minf, minr, maxf, maxr) = pos.board.bounds();
            grew = [
                grew[0] || minf < 1,
                grew[1] || minr < 1,
                grew[2] || maxf > 5,
                grew[3] || maxr > 5,
            ];
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer placements far out, so the board reaches every side.
            let far: Vec<&Move> = moves
                .iter()
                .filter(|m| {
                    let s = m.piece().unwrap().place.unwrap();
                    s.file < 1 || s.rank < 1 || s.file > 5 || s.rank > 5
                })
                .collect();
            let m = if far.is_empty() {
                &moves[rng.next(moves.len())]
            } else {
                far[rng.next(far.len())]
            };
            pos = pos.play(m).unwrap();
        }
        assert_eq!(grew, [true; 4], "seed {seed}");
    }
}

#[test]
fn bu4_position_text_origin_and_holes() {
    // The bounding box reaches left of file a and below rank 1.
    let text = "*1*/2k/K1*/1** w - - 0 9 origin=(-1,-2)";
    let p = Position::from_text(Variant::Building, text).unwrap();
    assert_eq!(p.to_text(), text);
    assert!(p.board.contains(Square::new(0, 1)));
    assert!(!p.board.contains(Square::new(-1, 1)));
    assert_eq!(
        p.board.piece_at(Square::new(-1, -1)).map(|p| p.role),
        Some(Role::King)
    );
    // Holes without an origin, and the origin field anywhere after the
    // placement.
    let p = Position::from_text(Variant::Building, "k*/2/*K b - - 0 1").unwrap();
    assert_eq!(p.to_text(), "k*/2/*K b - - 0 1");
    let q =
        Position::from_text(Variant::Building, "*1*/2k/K1*/1** origin=(-1,-2) w - - 0 9").unwrap();
    assert_eq!(q.to_text(), text);
    // Gardner keeps its fixed board.
    assert!(Position::from_text(Variant::Gardner, "k*/2/*K b - - 0 1").is_err());
}

#[test]
fn bu4_wide_boards_read_back() {
    // Issue 34: a board as wide as a legal game makes reads back, the
    // issue's 70 files among them; only what no legal game reaches is
    // refused with the limit (src/limits.rs).
    for wide in [
        "k63/64/K63 w - - 0 101".to_string(),
        "k69/70/70/70/K69 w - - 0 1".to_string(),
        "k3999/4000/4000/4000/K3999 w - - 0 1".to_string(),
    ] {
        let p = Position::from_text(Variant::Building, &wide).unwrap();
        assert_eq!(p.to_text(), wide);
    }
    let e = Position::from_text(Variant::Building, "k40049K w - - 0 101").unwrap_err();
    assert!(
        e.message
            .contains("40051 squares, 1 over the limit of 40050"),
        "{}",
        e.message
    );
    // An origin so far out that a square would leave the range a legal
    // game reaches (and i16) is refused, not overflowed.
    let far = "k2/3/2K w - - 0 1 origin=(29999,1)";
    assert!(Position::from_text(Variant::Building, far).is_err());
    let near = "k2/3/2K w - - 0 1 origin=(29998,-20000)";
    assert_eq!(
        Position::from_text(Variant::Building, near)
            .unwrap()
            .to_text(),
        near
    );
}

#[test]
fn perft_table_boards_are_grown() {
    // The table's own lines are checked by tests/perft.rs; this checks that
    // the grown boards really are grown.
    for (id, pos) in table() {
        if id != "start" {
            assert!(pos.board.square_count() > 25, "{id}");
        }
    }
}

/// Plays `plies` legal turns from `start`, each adding the placement that
/// `key` ranks highest among those open to the move chosen: a piece move
/// that neither captures nor moves a pawn, but a pawn move or a capture
/// when the halfmove clock nears GA-4's seventy-five moves, and never a
/// turn that ends the game. Returns the position and the turns' texts.
/// (Lists placements and moves apart, through `Turns`, not every turn:
/// the turns of a 5,000-square board number in the hundreds of thousands.)
fn grow(start: &Position, plies: usize, key: impl Fn(Square) -> i64) -> (Position, Vec<String>) {
    use postal::variant::building::Turns;
    let mut pos = start.clone();
    let mut texts = Vec::with_capacity(plies);
    for ply in 0..plies {
        let turns = Turns::new(&pos);
        let reset = |p: &postal::PieceMove| {
            p.role == Role::Pawn || pos.board.get(p.to).is_some_and(|s| s.is_occupied())
        };
        let want_reset = pos.halfmove >= 130;
        let mut parts: Vec<_> = turns.parts.iter().collect();
        parts.sort_by_key(|p| (reset(&p.mv) != want_reset, p.mv.role != Role::King));
        let mut best: Vec<Square> = turns.placements.clone();
        best.sort_by_key(|&s| std::cmp::Reverse(key(s)));
        let next = parts
            .iter()
            .flat_map(|part| {
                best.iter()
                    .filter(|s| !part.closed.contains(s))
                    .take(2)
                    .map(move |&sq| {
                        let mut m = part.mv.clone();
                        m.place = Some(sq);
                        Move::Piece(m)
                    })
            })
            .find_map(|m| {
                let after = pos.play(&m).ok()?;
                after.outcome().is_none().then_some((m, after))
            });
        let (m, after) =
            next.unwrap_or_else(|| panic!("ply {ply}: no turn goes on: {}", pos.to_text()));
        texts.push(pos.move_text(&m));
        pos = after;
    }
    (pos, texts)
}

/// Saves the game of `texts` from `start` as a state file, loads it with
/// the binary (which replays every turn), plays one more turn with it,
/// and verifies the game's PGN: issue 34, point 4.
fn save_load_verify(start: &Position, texts: &[String], end: &Position) {
    use postal::game::{pgn::pgn, Game};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let now = chrono::DateTime::parse_from_rfc3339("2026-12-02T12:00:00Z")
        .unwrap()
        .to_utc();
    let mut game = Game::new(start.clone(), Default::default(), None, now).unwrap();
    for t in texts {
        game.play(t, None, now)
            .unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    assert_eq!(game.current().to_text(), end.to_text());
    std::fs::write(&file, game.to_json()).unwrap();
    let loaded = Game::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(loaded.current().board.same_placement(&end.board));
    let shown = postal_ok(&["show", file.to_str().unwrap(), "--format", "fen"]);
    assert_eq!(String::from_utf8_lossy(&shown).trim(), end.to_text());
    let (_, one_more) = grow(end, 1, |s| s.file as i64);
    postal_ok(&["move", file.to_str().unwrap(), &one_more[0]]);
    let record = dir.path().join("game.pgn");
    std::fs::write(&record, pgn(&game)).unwrap();
    postal_ok(&["verify", record.to_str().unwrap()]);
}

#[test]
fn bu4_a_game_grows_a_400_file_strip() {
    // Issue 34: legal turns that always add the rightmost square stretch
    // the board to 400 files, past the old limit of 64; every turn's text
    // reads back, and the game saves, loads, plays on and verifies.
    let start = Position::start(Variant::Building);
    let (end, texts) = grow(&start, 400, |s| s.file as i64 * 8 - s.rank as i64);
    let (minf, _, maxf, _) = end.board.bounds();
    assert!(maxf - minf + 1 >= 400, "{}", end.to_text());
    assert_eq!(end.board.square_count(), 425);
    let mut pos = start.clone();
    for t in &texts {
        let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(&pos.move_text(&m), t);
        pos = pos.play(&m).unwrap();
    }
    // The position text round-trips; squares past w keep their numbers.
    let back = Position::from_text(Variant::Building, &end.to_text()).unwrap();
    assert_eq!(back.to_text(), end.to_text());
    assert!(texts.iter().any(|t| t.contains("(400,")), "{texts:?}");
    save_load_verify(&start, &texts, &end);
}

/// A wide start with a pawn for every file, so that a long game has pawn
/// moves enough to reset the halfmove clock (GA-4).
fn pawns_start(files: usize) -> Position {
    let text = format!(
        "k{}/{}/{}/{}/{}K w - - 0 1",
        files - 1,
        "p".repeat(files),
        files,
        "P".repeat(files),
        files - 1
    );
    Position::from_text(Variant::Building, &text).unwrap()
}

#[test]
fn bu4_a_game_grows_to_5000_squares() {
    // Issue 34: a game that grows the board up and to the right, one
    // square a turn, to 5,000 squares, its bounding box some 2,400 files
    // and ranks a side (millions of cells as a rectangle).
    let start = pawns_start(50);
    let plies = 5000 - 250;
    let (end, texts) = grow(&start, plies, |s| {
        let (f, r) = (s.file as i64, s.rank as i64);
        (f + r) * 4 - (f - r - 45).abs()
    });
    assert_eq!(end.board.square_count(), 5000);
    let (minf, minr, maxf, maxr) = end.board.bounds();
    assert!(
        (maxf - minf) as i64 * (maxr - minr) as i64 > 1_000_000,
        "{:?}",
        end.board.bounds()
    );
    let back = Position::from_text(Variant::Building, &end.to_text()).unwrap();
    assert_eq!(back.to_text(), end.to_text());
    assert!(back.board.same_placement(&end.board));
    save_load_verify(&start, &texts, &end);
}

#[test]
fn bu8_perft_on_large_boards_matches_the_slow_counter() {
    // Issue 34: whole turns counted on boards past the old limits, against
    // the slow counter that knows nothing of the board's layout: the
    // issue's 70 x 5 board two turns deep, a 400-file strip grown by play
    // and a 1,000 x 5 board one turn deep.
    let (strip, _) = grow(&Position::start(Variant::Building), 400, |s| s.file as i64);
    let issue = "k69/70/70/70/K69 w - - 0 1";
    let wide = "k999/1000/1000/1N998/999K w - - 0 1".to_string();
    for (text, depth) in [(issue.to_string(), 2), (strip.to_text(), 1), (wide, 1)] {
        let pos = Position::from_text(Variant::Building, &text).unwrap();
        for d in 1..=depth {
            assert_eq!(
                perft(&pos, d),
                Slow::of(&pos).perft(d),
                "perft {d} {}",
                &text[..40]
            );
        }
    }
}

/// Issue 34, points 1 and 3: every command that takes a position works on
/// a 3,000-file strip (15,000 squares): `moves`, `perft`, `new` and
/// `move`, and the diagrams, drawn around the pieces and saying so, the
/// PNG within its 4,096-pixel side.
#[test]
fn bu4_every_command_on_a_3000_file_strip() {
    let text = "k2999/3000/3000/3000/K2999 w - - 0 1";
    let moves = String::from_utf8(postal_ok(&["moves", "building", "--position", text])).unwrap();
    let slow = engine_turns(&Position::from_text(Variant::Building, text).unwrap()).len();
    assert!(slow > 0);
    let perft =
        String::from_utf8(postal_ok(&["perft", "building", "1", "--position", text])).unwrap();
    assert_eq!(
        perft.lines().last().unwrap().trim(),
        slow.to_string(),
        "perft 1 is the turn count"
    );
    assert!(!moves.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("strip.json");
    let f = file.to_str().unwrap();
    postal_ok(&["new", "building", "-o", f, "--position", text]);
    let played = String::from_utf8(postal_ok(&["move", f, "Kb2 @(3001,2)"])).unwrap();
    assert!(played.contains("White played 1. Kb2"), "{played}");
    let ascii = String::from_utf8(postal_ok(&["diagram", "building", "--position", text])).unwrap();
    assert!(ascii.contains("Part of the board"), "{ascii}");
    let svg = String::from_utf8(postal_ok(&[
        "diagram",
        "building",
        "--position",
        text,
        "--format",
        "svg",
    ]))
    .unwrap();
    assert!(
        svg.contains("Part of the board"),
        "{}",
        &svg[..svg.len().min(400)]
    );
    let png = postal_ok(&[
        "diagram",
        "building",
        "--position",
        text,
        "--format",
        "png",
        "-o",
        "-",
    ]);
    assert_eq!(&png[1..4], b"PNG");
    let side = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let (w, h) = (side(16), side(20));
    assert!(w <= 4096 && h <= 4096 && w >= 64 * 8, "{w} x {h}");
}

/// Issue 34, point 3: a PNG whose pieces span more than the 64 files a
/// diagram crops to is drawn smaller to fit its 4,096-pixel side, and
/// says so: a line of text under the board and the same words in the
/// PNG's `Comment` text chunk, read back here with the png crate.
#[test]
fn bu4_a_png_drawn_smaller_says_so() {
    let png_of = |text: &str| {
        let png = postal_ok(&[
            "diagram",
            "building",
            "--position",
            text,
            "--format",
            "png",
            "-o",
            "-",
        ]);
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let note = reader
            .info()
            .uncompressed_latin1_text
            .iter()
            .find(|t| t.keyword == "Comment")
            .map(|t| t.text.clone());
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        (note, frame, pixels)
    };
    // Kings 300 files apart on a 300 x 5 board: all of it is drawn.
    let (note, frame, pixels) = png_of("k299/300/300/300/299K w - - 0 1");
    let (w, h) = (frame.width as usize, frame.height as usize);
    assert!(w <= 4096 && h <= 4096, "{w} x {h}");
    assert_eq!(w, 4096, "the long side fills the PNG");
    let note = note.expect("a note in the Comment chunk");
    assert!(
        note.starts_with("Drawn at ")
            && note.ends_with("% of its size to fit the PNG's 4,096-pixel side."),
        "{note}"
    );
    // 300 files of 40 pixels and the bands drawn in 4,096: about 33%.
    let percent: u32 = note["Drawn at ".len()..note.find('%').unwrap()]
        .parse()
        .unwrap();
    assert!((30..=34).contains(&percent), "{note}");
    // The note is drawn under the board: dark text (#222, darker than the
    // coordinates' #4a4a4a) on the white band that ends the picture, where
    // no square is.
    let bytes = frame.line_size;
    let row = |y: usize| pixels[y * bytes..(y + 1) * bytes].chunks(4);
    let square = |p: &[u8]| p[..3] == [0xed, 0xe2, 0xc8] || p[..3] == [0xb0, 0x88, 0x5e];
    let band = h - 30..h;
    assert!(
        band.clone().all(|y| !row(y).any(square)),
        "a square in the band"
    );
    assert!(
        band.clone().any(|y| row(y).any(|p| p[0] < 0x40)),
        "no text in the band"
    );
    assert!(
        row(h - 1).all(|p| p[..3] == [255, 255, 255]),
        "the band's margin"
    );
    assert!(
        (0..h - 40).any(|y| row(y).any(square)),
        "the board above it"
    );
    // A board that fits is drawn at its size with no note.
    let (note, frame, _) = png_of("k69/70/70/70/K69 w - - 0 1");
    assert_eq!(note, None);
    assert!(frame.width < 4096);
}

/// Issue 34, gap 3: what a replay asks of each turn without a walk over
/// the board (the moves by `parts`, a placement by `may_add`, a turn's
/// legality and its text) agrees with the general path, the whole turn
/// list, on a board grown by play every which way.
#[test]
fn bu3_turn_checks_without_the_board_match_the_turn_list() {
    use postal::variant::building::{may_add, parts, placements, Turns};
    let start = Position::start(Variant::Building);
    let (_, texts) = grow(&start, 120, |s| {
        (s.file as i64 * 7 + s.rank as i64 * 13).rem_euclid(17)
    });
    let mut pos = start;
    for t in &texts {
        let turns = Turns::new(&pos);
        assert_eq!(parts(&pos), turns.parts, "{}", pos.to_text());
        let (f0, r0, f1, r1) = pos.board.bounds();
        for color in [Color::White, Color::Black] {
            let open = placements(&pos.board, color);
            for f in f0 - 2..=f1 + 2 {
                for r in r0 - 2..=r1 + 2 {
                    let sq = Square::new(f, r);
                    assert_eq!(may_add(&pos.board, color, sq), open.contains(&sq), "{sq}");
                }
            }
        }
        // Every move with every square around the board: legal exactly
        // when the turn list has it, and written as the list writes it.
        let listed: BTreeSet<String> = turns.moves().iter().map(|m| pos.move_text(m)).collect();
        let mut legal = 0;
        for part in &turns.parts {
            for f in f0 - 1..=f1 + 1 {
                for r in r0 - 1..=r1 + 1 {
                    let mut m = part.mv.clone();
                    m.place = Some(Square::new(f, r));
                    let m = Move::Piece(m);
                    let open = turns.open(part).any(|s| s == Square::new(f, r));
                    assert_eq!(pos.play(&m).is_ok(), open, "{}", pos.move_text(&m));
                    if open {
                        legal += 1;
                        let text = pos.move_text(&m);
                        assert!(listed.contains(&text), "{text}");
                        assert_eq!(pos.parse_move(&text).unwrap(), m);
                    }
                }
            }
        }
        assert_eq!(legal as u64, turns.count());
        pos = pos.play(&pos.parse_move(t).unwrap()).unwrap();
    }
}

/// BU-2, BU-3, BU-6, BU-8: the answers found from one move, not the
/// side's every move, agree with the full turn list on random positions of
/// boards grown by play (and on crafted ones with gaps at the kings, mate
/// and stalemate): the legal moves of one kind onto one square
/// (`parts_to`), the check of a turn (`Position::is_legal`) for every
/// pseudo-legal move, legal or not, with every placement and with squares
/// that are none, a turn's text written alone and read back, and whether
/// any legal turn exists (`has_legal_move`, which stops early).
#[test]
fn bu6_one_move_checks_match_the_turn_list() {
    use postal::variant::building::{parts, parts_to, Turns};
    let mut positions = Vec::new();
    for seed in 1..=6 {
        let mut rng = Lcg(seed * 97);
        let mut pos = Position::start(Variant::Building);
        for _ in 0..70 {
            positions.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.next(moves.len())]).unwrap();
        }
        positions.push(pos);
    }
    for text in [
        "k4/3*b/2***/3*1/1K3 w - - 0 1",
        "4k/5/r**1K/5/4N w - - 0 1",
        "k4/5/r2*K/5/4N w - - 0 1",
        "5/5/R2*k/5/K4 w - - 0 1",
        "**k**/*3*/2R2/*3*/**K** b - - 0 1",
        "**k**/*3*/5/*3*/**K** b - - 0 1",
        "k4/2Q2/5/5/R3K b - - 0 1",
        "**k**/**1**/2P2/5/5/K4 w - - 0 1",
        "*4Q*/3k1*R/N1*1pb1/1Bp1*2/1P3Pn/*1K1*r1/***1*** b - - 0 1 origin=(0,0)",
        "q*1*k/1*1*1/b3*/1*1*1/K1*1r w - - 0 1",
    ] {
        positions.push(Position::from_text(Variant::Building, text).unwrap());
    }
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let mut checked = (0, 0);
    for pos in &positions {
        let at = pos.to_text();
        let turns = Turns::new(pos);
        let all = parts(pos);
        assert_eq!(
            pos.variant.rules().has_legal_move(pos),
            turns.count() > 0,
            "{at}"
        );
        let (f0, r0, f1, r1) = pos.board.bounds();
        for role in roles {
            for f in f0 - 1..=f1 + 1 {
                for r in r0 - 1..=r1 + 1 {
                    let to = Square::new(f, r);
                    let want: Vec<_> = all
                        .iter()
                        .filter(|p| p.mv.role == role && p.mv.to == to)
                        .cloned()
                        .collect();
                    assert_eq!(parts_to(pos, role, to), want, "{at}: {role:?} to {to}");
                }
            }
        }
        // Every pseudo-legal move, those that leave the king attacked
        // too, with every placement, a square of the board and a square
        // off it that touches nothing.
        let list = turns.moves();
        let listed: std::collections::HashSet<&Move> = list.iter().collect();
        let mut pseudo = Vec::new();
        pos.for_each_pseudo(|m| pseudo.push(pos.piece_move(&m)));
        let mut places = turns.placements.clone();
        places.extend(pos.board.squares().next());
        places.push(Square::new(f1 + 3, r1 + 3));
        for m in &pseudo {
            for &sq in &places {
                let mut t = m.clone();
                t.place = Some(sq);
                let t = Move::Piece(t);
                let legal = listed.contains(&t);
                assert_eq!(pos.is_legal(&t), legal, "{at}: {t:?}");
                checked.0 += 1;
                checked.1 += legal as usize;
            }
        }
        // The texts written one at a time are those written from the
        // whole list, and read back as the same turns.
        let moves: Vec<Move> = list.iter().step_by(5).cloned().collect();
        for (m, text) in moves.iter().zip(pos.move_texts(&moves)) {
            assert_eq!(pos.move_text(m), text, "{at}");
            assert_eq!(&pos.parse_move(&text).unwrap(), m, "{at}: {text}");
        }
    }
    // Both kinds of answer were asked many times.
    assert!(checked.0 > 20_000 && checked.1 > 10_000, "{checked:?}");
}
