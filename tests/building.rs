//! Building Chess (rules/gardner-building.md BU-1..BU-8) from the outside:
//! a slow counter that knows the rules from first principles checks the
//! engine's turn lists and perft numbers, every legal turn of the perft
//! positions round-trips through the notation, and position texts of
//! boards grown in all four directions read back to the same position.

use postal::perft::{perft, read_table};
use postal::{Color, Move, Position, Role, Square, Variant};
use std::collections::{BTreeMap, BTreeSet};

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
    // Sixty turns can stretch the board to 64 files, the widest postal
    // plays on (src/limits.rs); one more file is refused with the limit.
    let wide = "k63/64/K63 w - - 0 101".to_string();
    let p = Position::from_text(Variant::Building, &wide).unwrap();
    assert_eq!(p.to_text(), wide);
    assert_eq!(p.board.square_count(), 192);
    let e = Position::from_text(Variant::Building, "k64/65/K64 w - - 0 101").unwrap_err();
    assert!(
        e.message.contains("65 files, 1 over the limit of 64"),
        "{}",
        e.message
    );
    // An origin so far out that the box would leave the coordinate range
    // is refused, not overflowed.
    let far = "k2/3/2K w - - 0 1 origin=(1001,1)";
    assert!(Position::from_text(Variant::Building, far).is_err());
    let near = "k2/3/2K w - - 0 1 origin=(1000,-1000)";
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
