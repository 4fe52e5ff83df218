//! Corral Chess (rules/corral.md CO-1..CO-16): rule tests by id, notation
//! round trips, and a slow independent move counter that cross-checks the
//! perft table.

use postal::mv::MoveKind;
use postal::perft::{perft, read_table};
use postal::variant::corral::{perft_work, Work};
use postal::{Color, GameResult, Move, MoveError, Position, Role, Roles, Square, Variant};

/// A slow move counter written from the rule text alone: it does not use
/// the engine's movement tables, attack masks or generator. It tries every
/// group of every stack with every mover against every square of the
/// board, decides reach and attack square by square, and keeps moves in a
/// set keyed by what makes two moves the same (CO-16).
mod slow {
    use postal::variant::Extra;
    use postal::{Color, Position, Role, Square};
    use std::collections::BTreeSet;

    /// K Q R B N P, the index into [`Counts`].
    pub const ROLES: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    const K: usize = 0;
    const P: usize = 5;

    /// How many pieces of each kind, in the order of [`ROLES`].
    pub type Counts = [u8; 6];
    type Sq = (i16, i16);

    #[derive(Clone, Copy, Debug)]
    struct Ep {
        passed: Sq,
        reached: Sq,
        group: Counts,
    }

    #[derive(Clone, Debug)]
    pub struct Game {
        /// `cells[file - 1][rank - 1]`.
        cells: [[Option<(Color, Counts)>; 9]; 5],
        prison: Option<Color>,
        turn: Color,
        ep: Option<Ep>,
    }

    /// A move as CO-16 identifies it; `to` is `None` for the prison.
    #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub struct Mv {
        pub from: Sq,
        pub to: Option<Sq>,
        pub group: Counts,
        pub promotions: Counts,
        pub ep: bool,
    }

    fn counts_of(roles: postal::Roles) -> Counts {
        let mut c = [0; 6];
        for (i, r) in ROLES.iter().enumerate() {
            c[i] = roles.count(*r) as u8;
        }
        c
    }

    fn fwd(c: Color) -> i16 {
        if c == Color::White {
            1
        } else {
            -1
        }
    }

    fn second(c: Color) -> i16 {
        if c == Color::White {
            2
        } else {
            8
        }
    }

    fn last(c: Color) -> i16 {
        if c == Color::White {
            9
        } else {
            1
        }
    }

    fn on_board(s: Sq) -> bool {
        (1..=5).contains(&s.0) && (1..=9).contains(&s.1)
    }

    fn is_empty(c: &Counts) -> bool {
        c.iter().all(|&n| n == 0)
    }

    fn plus(a: Counts, b: Counts) -> Counts {
        std::array::from_fn(|i| a[i] + b[i])
    }

    fn minus(a: Counts, b: Counts) -> Counts {
        std::array::from_fn(|i| a[i] - b[i])
    }

    impl Game {
        pub fn from_position(pos: &Position) -> Game {
            let mut cells = [[None; 9]; 5];
            for f in 1..=5 {
                for r in 1..=9 {
                    let st = pos.board.get(Square::new(f, r)).unwrap();
                    if st.is_occupied() {
                        cells[f as usize - 1][r as usize - 1] =
                            Some((st.color(), counts_of(st.roles())));
                    }
                }
            }
            let prison = pos
                .board
                .get(Square::PRISON)
                .filter(|s| s.is_occupied())
                .map(|s| s.color());
            let ep = pos.ep.map(|sq| {
                let group = match &pos.extra {
                    Extra::Corral(s) if !s.ep_group.is_empty() => counts_of(s.ep_group),
                    _ => [0, 0, 0, 0, 0, 1],
                };
                Ep {
                    passed: (sq.file, sq.rank),
                    reached: (sq.file, sq.rank - fwd(pos.turn)),
                    group,
                }
            });
            Game {
                cells,
                prison,
                turn: pos.turn,
                ep,
            }
        }

        fn get(&self, s: Sq) -> Option<(Color, Counts)> {
            if on_board(s) {
                self.cells[s.0 as usize - 1][s.1 as usize - 1]
            } else {
                None
            }
        }

        fn set(&mut self, s: Sq, v: Option<(Color, Counts)>) {
            let v = v.filter(|(_, c)| !is_empty(c));
            self.cells[s.0 as usize - 1][s.1 as usize - 1] = v;
        }

        fn squares() -> impl Iterator<Item = Sq> {
            (1..=5).flat_map(|f| (1..=9).map(move |r| (f, r)))
        }

        /// Every square strictly between two squares on a line is empty.
        fn clear_between(&self, a: Sq, b: Sq) -> bool {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let n = dx.abs().max(dy.abs());
            (1..n).all(|k| {
                self.get((a.0 + dx.signum() * k, a.1 + dy.signum() * k))
                    .is_none()
            })
        }

        /// Could a piece of this kind of `by`, standing on `from`,
        /// capture on `to` (ignoring what stands there)?
        fn captures(&self, role: usize, by: Color, from: Sq, to: Sq) -> bool {
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            let (ax, ay) = (dx.abs(), dy.abs());
            let straight = (dx == 0) != (dy == 0) && ax.max(ay) <= 4;
            let diagonal = ax == ay && ax > 0 && ax <= 4;
            match ROLES[role] {
                Role::King => ax.max(ay) == 1,
                Role::Knight => (ax == 1 && ay == 2) || (ax == 2 && ay == 1),
                Role::Rook => straight && self.clear_between(from, to),
                Role::Bishop => diagonal && self.clear_between(from, to),
                Role::Queen => (straight || diagonal) && self.clear_between(from, to),
                _ => ax == 1 && dy == fwd(by),
            }
        }

        fn attacked(&self, sq: Sq, by: Color) -> bool {
            Game::squares().any(|s| match self.get(s) {
                Some((c, counts)) if c == by => {
                    (0..6).any(|r| counts[r] > 0 && self.captures(r, by, s, sq))
                }
                _ => false,
            })
        }

        /// Can the mover of kind `role` of the side to move go from `from`
        /// to `to` (not en passant)?
        fn reaches(&self, role: usize, from: Sq, to: Sq) -> bool {
            let us = self.turn;
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            let target = self.get(to);
            let enemy = target.is_some_and(|(c, _)| c != us);
            if ROLES[role] != Role::Pawn {
                return from != to && self.captures(role, us, from, to);
            }
            let f = fwd(us);
            (dy == f && ((dx == 0 && !enemy) || (dx.abs() == 1 && enemy)))
                || (dx == 0
                    && dy == 2 * f
                    && from.1 == second(us)
                    && self.get((from.0, from.1 + f)).is_none()
                    && !enemy)
        }

        fn is_double(&self, mv: &Mv) -> bool {
            let us = self.turn;
            let Some(to) = mv.to else { return false };
            mv.group[P] > 0
                && !mv.ep
                && mv.from.1 == second(us)
                && to == (mv.from.0, mv.from.1 + 2 * fwd(us))
                && self.get((mv.from.0, mv.from.1 + fwd(us))).is_none()
                && self.get(to).is_none_or(|(c, _)| c == us)
        }

        fn pawn_beside(&self, sq: Sq, of: Color) -> bool {
            [-1, 1].iter().any(|dx| {
                self.get((sq.0 + dx, sq.1))
                    .is_some_and(|(c, n)| c == of && n[P] > 0)
            })
        }

        pub fn pseudo(&self) -> BTreeSet<Mv> {
            let us = self.turn;
            let mut out = BTreeSet::new();
            for from in Game::squares() {
                let Some((c, stack)) = self.get(from) else {
                    continue;
                };
                if c != us {
                    continue;
                }
                for group in groups(&stack) {
                    for mover in 0..6 {
                        if group[mover] == 0 {
                            continue;
                        }
                        for to in Game::squares() {
                            if !self.reaches(mover, from, to) {
                                continue;
                            }
                            let promos = if to.1 == last(us) && group[P] > 0 {
                                promotion_sets(group[P])
                            } else {
                                vec![[0; 6]]
                            };
                            for promotions in promos {
                                out.insert(Mv {
                                    from,
                                    to: Some(to),
                                    group,
                                    promotions,
                                    ep: false,
                                });
                            }
                        }
                        if ROLES[mover] == Role::Pawn {
                            if let Some(e) = self.ep {
                                let (dx, dy) = (e.passed.0 - from.0, e.passed.1 - from.1);
                                if dx.abs() == 1 && dy == fwd(us) && self.get(e.passed).is_none() {
                                    out.insert(Mv {
                                        from,
                                        to: Some(e.passed),
                                        group,
                                        promotions: [0; 6],
                                        ep: true,
                                    });
                                }
                            }
                        }
                    }
                }
                if from == (3, 5) && stack[K] > 0 {
                    out.insert(Mv {
                        from,
                        to: None,
                        group: [1, 0, 0, 0, 0, 0],
                        promotions: [0; 6],
                        ep: false,
                    });
                }
            }
            out
        }

        pub fn apply(&self, mv: &Mv) -> Game {
            let us = self.turn;
            let mut n = self.clone();
            let (_, stack) = self.get(mv.from).unwrap();
            n.set(mv.from, Some((us, minus(stack, mv.group))));
            n.ep = None;
            match mv.to {
                None => n.prison = Some(us),
                Some(to) => {
                    let mut arriving = mv.group;
                    if !is_empty(&mv.promotions) {
                        arriving[P] = 0;
                        arriving = plus(arriving, mv.promotions);
                    }
                    let now = match self.get(to) {
                        Some((c, there)) if c == us => plus(there, arriving),
                        _ => arriving,
                    };
                    n.set(to, Some((us, now)));
                    if mv.ep {
                        let e = self.ep.unwrap();
                        let (c, there) = self.get(e.reached).unwrap();
                        n.set(e.reached, Some((c, minus(there, e.group))));
                    }
                    if self.is_double(mv) && n.pawn_beside(to, !us) {
                        n.ep = Some(Ep {
                            passed: (to.0, to.1 - fwd(us)),
                            reached: to,
                            group: mv.group,
                        });
                    }
                }
            }
            n.turn = !us;
            n
        }

        fn king(&self, c: Color) -> Option<Sq> {
            Game::squares().find(|&s| self.get(s).is_some_and(|(k, n)| k == c && n[K] > 0))
        }

        /// After `mv` (played from `self` to `after`), is the mover's king
        /// safe (CO-12)?
        fn safe(&self, after: &Game, mv: &Mv) -> bool {
            let us = self.turn;
            let Some(k) = after.king(us) else { return true };
            if after.attacked(k, !us) {
                return false;
            }
            !(mv.group[K] > 0 && self.is_double(mv) && after.pawn_beside(k, !us))
        }

        pub fn legal(&self) -> Vec<Mv> {
            if self.prison.is_some() {
                return Vec::new();
            }
            let us = self.turn;
            let mut out = Vec::new();
            for mv in self.pseudo() {
                if mv.to.is_none() {
                    out.push(mv);
                    continue;
                }
                let after = self.apply(&mv);
                if !self.safe(&after, &mv) {
                    continue;
                }
                if let Some(k) = after.king(!us) {
                    if after.attacked(k, us) {
                        let reply = after
                            .pseudo()
                            .into_iter()
                            .any(|r| r.to.is_none() || after.safe(&after.apply(&r), &r));
                        if !reply {
                            continue;
                        }
                    }
                }
                out.push(mv);
            }
            out
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.iter().map(|m| self.apply(m).perft(depth - 1)).sum()
        }
    }

    /// Non-empty sub-multisets.
    fn groups(stack: &Counts) -> Vec<Counts> {
        let mut out = vec![[0u8; 6]];
        for i in 0..6 {
            let mut next = Vec::new();
            for g in &out {
                for k in 0..=stack[i] {
                    let mut h = *g;
                    h[i] = k;
                    next.push(h);
                }
            }
            out = next;
        }
        out.retain(|g| !is_empty(g));
        out
    }

    /// Every way `n` pawns promote, as multisets over Q R B N, found by
    /// trying every sequence.
    fn promotion_sets(n: u8) -> Vec<Counts> {
        let mut seqs: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..n {
            seqs = seqs
                .into_iter()
                .flat_map(|s| {
                    (1..=4).map(move |r| {
                        let mut t = s.clone();
                        t.push(r);
                        t
                    })
                })
                .collect();
        }
        let set: BTreeSet<Counts> = seqs
            .into_iter()
            .map(|s| {
                let mut c = [0; 6];
                for r in s {
                    c[r] += 1;
                }
                c
            })
            .collect();
        set.into_iter().collect()
    }
}

fn pos(text: &str) -> Position {
    crate::common::pos(Variant::Corral, text)
}

/// The legal moves in canonical notation, without check marks.
fn texts(p: &Position) -> Vec<String> {
    p.legal_moves()
        .iter()
        .map(|m| p.move_text(m).trim_end_matches(['+', '#']).to_string())
        .collect()
}

fn roles(s: &str) -> Roles {
    s.chars()
        .fold(Roles::EMPTY, |r, c| r.with(Role::from_char(c).unwrap()))
}

/// The engine's legal moves as the slow counter's keys.
fn fast_keys(p: &Position) -> std::collections::BTreeSet<slow::Mv> {
    p.legal_moves()
        .iter()
        .map(|m| {
            let m = m.piece().unwrap();
            let group = m.carried.with(m.role);
            let promos = match m.promotion {
                Some(r) => m.carried_promotions.with(r),
                None => m.carried_promotions,
            };
            let c = |r: Roles| {
                let mut out = [0u8; 6];
                for (i, role) in slow::ROLES.iter().enumerate() {
                    out[i] = r.count(*role) as u8;
                }
                out
            };
            slow::Mv {
                from: (m.from.file, m.from.rank),
                to: (!m.to.is_prison()).then_some((m.to.file, m.to.rank)),
                group: c(group),
                promotions: c(promos),
                ep: matches!(m.kind, MoveKind::EnPassant { .. }),
            }
        })
        .collect()
}

/// The engine and the slow counter agree on the legal moves of `p` and of
/// every position after one of them.
fn agree_two_plies(p: &Position) {
    let g = slow::Game::from_position(p);
    let slow_moves: std::collections::BTreeSet<slow::Mv> = g.legal().into_iter().collect();
    assert_eq!(fast_keys(p), slow_moves, "{}", p.to_text());
    for m in p.legal_moves() {
        let next = p.play(&m).unwrap();
        let slow_next: std::collections::BTreeSet<slow::Mv> = slow::Game::from_position(&next)
            .legal()
            .into_iter()
            .collect();
        assert_eq!(
            fast_keys(&next),
            slow_next,
            "{} after {}",
            p.to_text(),
            p.move_text(&m)
        );
    }
}

#[test]
fn slow_counter_agrees_on_the_start() {
    let p = Position::start(Variant::Corral);
    let g = slow::Game::from_position(&p);
    assert_eq!(g.perft(1), perft(&p, 1));
    agree_two_plies(&p);
}

/// A small deterministic generator for random games.
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
fn slow_counter_agrees_along_random_games() {
    let games: u64 = std::env::var("CORRAL_RANDOM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = Lcg(seed * 7919 + 13);
        let mut p = Position::start(Variant::Corral);
        for _ in 0..80 {
            let g = slow::Game::from_position(&p);
            let slow_moves: std::collections::BTreeSet<slow::Mv> = g.legal().into_iter().collect();
            assert_eq!(fast_keys(&p), slow_moves, "{}", p.to_text());
            checked += 1;
            let moves = p.legal_moves();
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            // Prefer captures, so the games thin out and reach endings.
            let caps: Vec<&Move> = moves
                .iter()
                .filter(|m| {
                    let m = m.piece().unwrap();
                    p.board
                        .get(m.to)
                        .is_some_and(|c| c.is_occupied() && c.color() != p.turn)
                })
                .collect();
            let m = if !caps.is_empty() && rng.next(3) > 0 {
                caps[rng.next(caps.len())].clone()
            } else {
                moves[rng.next(moves.len())].clone()
            };
            p = p.play(&m).unwrap();
            assert_eq!(pos(&p.to_text()), p, "text round trip");
        }
    }
    assert!(checked > 0);
}

/// The perft table's counts, as far as `CORRAL_SLOW_NODES` (default
/// 10,000) allows, recounted by the slow counter; and at every position of
/// the table the engine and the slow counter agree move by move two plies
/// deep.
#[test]
fn slow_counter_checks_the_perft_table() {
    let limit: u64 = std::env::var("CORRAL_SLOW_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let path = format!("{}/fixtures/perft/corral.perft", env!("CARGO_MANIFEST_DIR"));
    let cases = read_table(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(cases.len(), 3);
    for case in cases {
        let p = pos(&case.fen);
        agree_two_plies(&p);
        let g = slow::Game::from_position(&p);
        for (depth, nodes) in case.counts {
            if nodes <= limit {
                assert_eq!(g.perft(depth), nodes, "{} perft {depth}", case.id);
            }
        }
    }
}

fn legal(p: &Position, text: &str) -> Move {
    p.parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()))
}

fn refused_by(p: &Position, text: &str) -> &'static str {
    match p.parse_move(text) {
        Err(MoveError::Illegal { rule: Some(r), .. }) => r,
        other => panic!(
            "{text} in {}: expected a refusal, got {other:?}",
            p.to_text()
        ),
    }
}

fn after(p: &Position, text: &str) -> Position {
    p.play(&legal(p, text)).unwrap()
}

fn stack_at(p: &Position, sq: &str) -> String {
    let s = postal::notation::square::parse_square(sq).unwrap();
    format!("{:?}", p.board.get(s).unwrap())
}

#[test]
fn co1_board_of_five_files_nine_ranks_and_a_prison() {
    let p = Position::start(Variant::Corral);
    assert_eq!(p.board.square_count(), 45);
    assert!(p.board.contains(Square::new(5, 9)));
    assert!(!p.board.contains(Square::new(6, 1)));
    assert!(!p.board.contains(Square::new(1, 10)));
    assert!(p.board.contains(Square::PRISON));
    // The prison is not next to c5 for any piece but the king (CO-9).
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| !m.piece().unwrap().to.is_prison()));
}

#[test]
fn co2_start_position_stacks() {
    let p = Position::start(Variant::Corral);
    assert_eq!(
        p.to_text(),
        "r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/5/5/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1"
    );
    for (sq, white) in [
        ("a1", "R"),
        ("e1", "R"),
        ("a2", "P"),
        ("b2", "PPNB"),
        ("c2", "PPQK"),
        ("d2", "PPNB"),
        ("e2", "P"),
    ] {
        assert_eq!(stack_at(&p, sq), white, "{sq}");
        let black_sq = format!("{}{}", &sq[..1], 10 - sq[1..].parse::<i16>().unwrap());
        assert_eq!(stack_at(&p, &black_sq), white.to_lowercase(), "{black_sq}");
    }
    // Eight pawns, two rooks, two knights, two bishops, a queen, a king.
    let white: u32 = p
        .board
        .occupied()
        .filter(|(_, s)| s.color() == Color::White)
        .map(|(_, s)| s.len())
        .sum();
    assert_eq!(white, 16);
    assert!(!p.is_check());
}

#[test]
fn co3_pawn_steps_double_steps_and_promotes() {
    let p = Position::start(Variant::Corral);
    // The double step needs the passed square empty, not the one reached.
    let p2 = pos("r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/5/1n3/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1");
    assert!(p.parse_move("b4").is_ok());
    assert!(p2.parse_move("b4").is_err());
    assert!(p2.parse_move("PNb2-b4").is_err());
    let e = p2.parse_move("b4").unwrap_err().to_string();
    assert!(e.contains("CO-3"), "{e}");
    // A double step may end on a friendly stack (CO-6).
    let p3 = pos("4k/5/5/5/5/1N3/5/1P3/K4 w - - 0 1");
    let q = after(&p3, "b4");
    assert_eq!(stack_at(&q, "b4"), "PN");
    // Promotion on rank 9 for White, rank 1 for Black, to Q R B N.
    let p4 = pos("k4/3P1/5/5/5/5/5/1p3/4K w - - 0 1");
    let t = texts(&p4);
    for x in ["d9=Q", "d9=R", "d9=B", "d9=N"] {
        assert!(t.contains(&x.to_string()), "{t:?}");
    }
    let b = after(&p4, "d9=N");
    assert!(texts(&b).contains(&"b1=Q".to_string()), "{:?}", texts(&b));
}

#[test]
fn co4_riders_reach_four_squares_and_no_castling() {
    let p = pos("4k/5/5/5/5/5/5/5/Q3K w - - 0 1");
    let t = texts(&p);
    assert!(t.contains(&"Qa5".to_string()));
    assert!(!t.contains(&"Qa6".to_string()));
    assert!(t.contains(&"Qe5".to_string()));
    assert_eq!(refused_by(&p, "O-O"), "CO-4");
    let e = p.parse_move("Qa6").unwrap_err().to_string();
    assert!(e.contains("at most four squares"), "{e}");
}

#[test]
fn co5_knight_carries_pieces_over_a_crowded_line() {
    // b3, c3, c2 and a3 are crowded; the knight jumps with a bishop and a
    // pawn, while the bishop alone is blocked by c3.
    let p = pos("4k/5/5/5/5/5/PPP2/1(NBP)(QK)2/5 w - - 0 1");
    let q = after(&p, "NBPb2-c4");
    assert_eq!(stack_at(&q, "b2"), ".");
    assert_eq!(stack_at(&q, "c4"), "PNB");
    assert!(p.parse_move("BPb2-d4").is_err());
    let e = p.parse_move("Bb2-d4").unwrap_err().to_string();
    assert!(e.contains("CO-5"), "{e}");
}

#[test]
fn co6_a_move_may_join_a_friendly_stack() {
    let p = Position::start(Variant::Corral);
    let q = after(&p, "Ra1-e1");
    assert_eq!(stack_at(&q, "e1"), "RR");
    let q = after(&q, "Nd8-e6");
    let q = after(&q, "RRe1-c1");
    assert_eq!(stack_at(&q, "c1"), "RR");
    assert_eq!(stack_at(&q, "e1"), ".");
}

#[test]
fn co7_capture_takes_the_whole_stack() {
    let p = pos("4k/5/5/5/2(ppnb)2/5/3N1/5/K4 w - - 0 1");
    let m = legal(&p, "Nd3xc5");
    let (q, effects) = p.play_with_effects(&m).unwrap();
    assert_eq!(effects.captured.len(), 4);
    assert_eq!(stack_at(&q, "c5"), "N");
    // A pawn captures only diagonally and never moves forward onto enemies.
    let p = pos("4k/5/5/5/2(pn)2/2P2/5/5/K4 w - - 0 1");
    assert!(p.parse_move("c5").is_err());
    let e = p.parse_move("c4-c5").unwrap_err().to_string();
    assert!(e.contains("CO-3") || e.contains("CO-7"), "{e}");
}

#[test]
fn co8_queen_carries_the_king_four_squares() {
    let p = pos("4k/5/5/5/5/5/5/2(QK)2/5 w - - 0 1");
    let q = after(&p, "QKc2-c6");
    assert_eq!(stack_at(&q, "c2"), ".");
    assert_eq!(stack_at(&q, "c6"), "QK");
    // The king's own powers would not take it there.
    assert!(p.parse_move("KQc2-c6").is_err());
    // Carrying nothing leaves the king behind.
    let q = after(&p, "Qc2-c6");
    assert_eq!(stack_at(&q, "c2"), "K");
}

#[test]
fn co8_en_passant_takes_only_what_moved() {
    // Black's pawn and knight double-stepped from d8 onto the bishop on d6.
    let p = pos("r4/1(PPR)3/5/3(pnb)(PR)/2(pk)2/5/4(PN)/(QK)4/4r w - d7 0 20 ep=pn");
    let m = legal(&p, "exd7");
    assert!(matches!(
        m.piece().unwrap().kind,
        MoveKind::EnPassant { .. }
    ));
    let (q, effects) = p.play_with_effects(&m).unwrap();
    assert_eq!(stack_at(&q, "d6"), "b");
    assert_eq!(stack_at(&q, "d7"), "P");
    assert_eq!(stack_at(&q, "e6"), "R");
    let mut taken: Vec<Role> = effects.captured.iter().map(|(_, p)| p.role).collect();
    taken.sort();
    assert_eq!(taken, vec![Role::Knight, Role::Pawn]);
    // The pawn may carry its rook along.
    let q = after(&p, "PRe6xd7");
    assert_eq!(stack_at(&q, "d7"), "PR");
    assert_eq!(stack_at(&q, "d6"), "b");
    // A double step with a carried piece sets the group for en passant.
    let p = pos("4k/(pnb)4/5/5/1P3/5/5/5/K4 b - - 0 1");
    assert!(p.parse_move("NPa8-a6").is_err());
    let q = after(&p, "PNa8-a6");
    assert_eq!(q.ep, None, "no white pawn beside a6");
    let p = pos("4k/(pn)4/5/1P3/5/5/5/5/K4 b - - 0 1");
    let q = after(&p, "PNa8-a6");
    assert_eq!(q.to_text(), "4k/5/5/(pn)P3/5/5/5/5/K4 w - a7 0 2 ep=pn");
    let r = after(&q, "bxa7");
    assert_eq!(stack_at(&r, "a6"), ".");
}

#[test]
fn co9_king_entering_the_prison_loses() {
    let p = pos("4k/5/5/5/2K2/5/5/5/5 w - - 0 1");
    let q = after(&p, "Kc5-prison");
    assert_eq!(q.to_text(), "4k/5/5/5/5/5/5/5/5 b - - 1 1 prison=K");
    let o = q.outcome().unwrap();
    assert_eq!(o.result, GameResult::BlackWins);
    assert_eq!(o.rule, "CO-9");
    assert!(q.legal_moves().is_empty());
    assert_eq!(pos(&q.to_text()), q);
    // Only a king, alone, from c5.
    let p = pos("4k/5/5/5/2(QK)2/5/5/5/5 w - - 0 1");
    assert_eq!(refused_by(&p, "Qc5-prison"), "CO-9");
    assert_eq!(refused_by(&p, "KQc5-prison"), "CO-9");
    assert!(p.parse_move("Kc5-prison").is_ok());
    let p = pos("4k/5/5/5/5/2K2/5/5/5 w - - 0 1");
    assert_eq!(refused_by(&p, "Kc4-prison"), "CO-9");
}

#[test]
fn co10_checkmating_move_refused() {
    let p = pos("k4/4R/1K3/5/5/5/5/5/5 w - - 0 40");
    assert_eq!(refused_by(&p, "Re9"), "CO-10");
    assert!(!texts(&p).iter().any(|t| t.starts_with("Re9")));
    // Other rook moves are fine, checks with a reply too.
    assert!(p.parse_move("Rd8").is_ok());
    let p = pos("k4/4R/5/1K3/5/5/5/5/5 w - - 0 40");
    assert_eq!(p.move_text(&legal(&p, "Re9")), "Re9+");
}

#[test]
fn co10_king_on_c5_in_check_is_forced_into_the_prison() {
    let p = pos("5/5/5/R4/2k1R/5/2Q2/5/4K b - - 0 40");
    assert!(p.is_check());
    assert_eq!(texts(&p), vec!["Kc5-prison"]);
    assert_eq!(p.outcome(), None);
    let q = after(&p, "Kc5-prison");
    let o = q.outcome().unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.rule, "CO-9");
    assert!(
        o.reason.contains("black king entered the prison"),
        "{}",
        o.reason
    );
    // A check that leaves only the prison is legal: the prison is a
    // legal reply (CO-10).
    let before = pos("5/5/5/R4/2k2/5/N3N/5/Q3K w - - 0 39");
    let q = after(&before, "Qa1-c3");
    assert_eq!(texts(&q), vec!["Kc5-prison"]);
    assert_eq!(before.move_text(&legal(&before, "Qc3")), "Qc3+");
}

#[test]
fn co11_stalemate_draws_and_seventy_five_moves() {
    let p = pos("k4/5/1Q3/5/5/5/5/5/4K b - - 0 60");
    assert!(!p.is_check());
    let o = p.outcome().unwrap();
    assert_eq!((o.result, o.rule), (GameResult::Draw, "CO-11"));
    assert_eq!(o.reason, "stalemate");
    let p = pos("k4/5/5/5/5/5/1Q3/5/4K b - - 150 160");
    assert_eq!(p.outcome().unwrap().result, GameResult::Draw);
}

#[test]
fn co12_carrying_the_king_into_check_refused() {
    let p = pos("4k/5/5/5/5/4r/5/2(QK)2/5 w - - 0 1");
    assert_eq!(refused_by(&p, "QKc2-c4"), "CO-12");
    assert!(p.parse_move("Qc2-c4").is_ok());
    // Leaving the king behind on an open line is refused as well.
    let p = pos("4k/5/5/2r2/5/5/2R2/2(QK)2/5 w - - 0 1");
    assert_eq!(refused_by(&p, "Rc3-d3"), "CO-12");
    assert!(p.parse_move("Rc3-c4").is_ok());
    // A stack attacks with every piece in it: the knight inside (pn) on
    // d4 guards b3 and c2 (rules/README.md: "attacked").
    let p = pos("4k/5/5/5/5/3(pn)1/5/K4/5 w - - 0 1");
    assert_eq!(refused_by(&p, "Kb3"), "CO-12");
    assert!(p.parse_move("Kb2").is_ok());
}

#[test]
fn co12_king_carried_by_a_double_step_beside_an_enemy_pawn() {
    let p = pos("4k/5/5/5/5/3p1/5/2(PK)2/5 w - - 0 1");
    assert_eq!(refused_by(&p, "PKc2-c4"), "CO-12");
    let e = p.parse_move("PKc2-c4").unwrap_err().to_string();
    assert!(e.contains("en passant"), "{e}");
    assert!(p.parse_move("c4").is_ok());
    // Whoever is named as mover, two squares straight ahead from the pawn's
    // second rank is its double step (CO-16).
    let p = pos("4k/5/5/5/5/3p1/5/2(PQK)2/5 w - - 0 1");
    assert_eq!(refused_by(&p, "QPKc2-c4"), "CO-12");
    assert_eq!(refused_by(&p, "PQKc2-c4"), "CO-12");
    assert!(p.parse_move("QPc2-c4").is_ok());
    // A king already standing on the square reached is not taken by en
    // passant, so it is not attacked.
    let p = pos("4k/5/5/5/5/2Kp1/5/2P2/5 w - - 0 1");
    let q = after(&p, "c4");
    assert_eq!(q.ep, Some(Square::new(3, 3)));
    let r = after(&q, "dxc3");
    assert_eq!(stack_at(&r, "c4"), "K");
}

#[test]
fn co13_prison_is_always_legal_whatever_it_uncovers() {
    // The king on c5 shields the black king from the rook on a5; every
    // other king move would checkmate Black (CO-10), the prison may not
    // be refused.
    let p = pos("5/2N2/2N2/5/R1K1k/5/3P1/2N2/5 w - - 0 40");
    for m in ["Kb4", "Kb6", "Kc4", "Kc6"] {
        assert_eq!(refused_by(&p, m), "CO-10", "{m}");
    }
    assert!(p.parse_move("Kb5").is_ok());
    let q = after(&p, "Kc5-prison");
    // The move uncovers the rook's attack on the black king, but the game
    // is over: nobody is in check any more, and the move has no mark.
    assert!(q.king_attacked(Color::Black));
    assert!(!q.is_check());
    assert_eq!(q.outcome().unwrap().result, GameResult::BlackWins);
    assert!(p.move_text(&legal(&p, "Kc5-prison")) == "Kc5-prison");
}

#[test]
fn co14_in_check_with_no_legal_move_loses() {
    // Black is in check from the b2 pawn; each reply that saves the black
    // king (Kb4, Kxb3, Bxb2) would checkmate White, so none is legal.
    let p = pos("5/5/5/5/r4/5/kP3/1P1n1/K1b2 b - - 0 50");
    assert!(p.is_check());
    for m in ["Kb4", "Kxb3", "Bxb2"] {
        assert_eq!(refused_by(&p, m), "CO-10", "{m}");
    }
    assert!(p.legal_moves().is_empty());
    let o = p.outcome().unwrap();
    assert_eq!((o.result, o.rule), (GameResult::WhiteWins, "CO-14"));
    // The move that led here is marked `#`.
    let before = pos("5/5/5/5/r4/5/kP3/3n1/KPb2 w - - 0 50");
    let m = legal(&before, "b1-b2");
    assert_eq!(before.move_text(&m), "b2#");
}

#[test]
fn co15_carried_pawns_double_step_and_reset_the_count() {
    // The pawn carried back to b2 by the knight may double-step.
    let p = pos("4k/5/5/5/5/5/5/(NP)4/K4 w - - 0 1");
    let q = after(&p, "NPa2-b4");
    assert_eq!(q.halfmove, 0);
    let q = after(&q, "Ke8");
    let q = after(&q, "NPb4-a2");
    let q = after(&q, "Ke9");
    let q = after(&q, "PNa2-a4");
    assert_eq!(stack_at(&q, "a4"), "PN");
    // A piece moving alone counts; a capture resets.
    let p = pos("4k/5/5/5/5/5/2p2/(NP)4/K4 w - - 7 1");
    assert_eq!(after(&p, "Na2-b4").halfmove, 8);
    assert_eq!(after(&p, "Na2xc3").halfmove, 0);
}

#[test]
fn co16_same_squares_same_pieces_same_promotions_is_one_move() {
    let p = pos("4k/5/5/5/5/5/5/2(QK)2/5 w - - 0 1");
    assert_eq!(legal(&p, "KQc2-c3"), legal(&p, "QKc2-c3"));
    assert_eq!(p.move_text(&legal(&p, "QKc2-c3")), "KQc2-c3");
    // Carrying one of two pawns is one move.
    let p = pos("4k/5/5/5/5/5/5/(NPP)4/K4 w - - 0 1");
    let n = texts(&p)
        .iter()
        .filter(|t| t.starts_with("NPa2-c3"))
        .count();
    assert_eq!(n, 1);
    // Promotions are a multiset, in whichever order written.
    let p = pos("5/(PP)4/5/4k/5/5/5/5/K4 w - - 0 1");
    assert_eq!(legal(&p, "PPa8-a9=Q=N"), legal(&p, "PPa8-a9=N=Q"));
    assert_eq!(p.move_text(&legal(&p, "PPa8-a9=N=Q")), "PPa8-a9=Q=N");
    let promos = texts(&p)
        .iter()
        .filter(|t| t.starts_with("PPa8-a9"))
        .count();
    assert_eq!(promos, 10);
    // A rook carrying pawns promotes them all.
    let p = pos("5/(RPP)4/5/4k/5/5/5/5/K4 w - - 0 1");
    let q = after(&p, "RPPa8-a9=N=Q");
    assert_eq!(stack_at(&q, "a9"), "NRQ");
    assert_eq!(q.to_text(), "(NRQ)4/5/5/4k/5/5/5/5/K4 b - - 0 1");
    // En passant is a capture, so not the same move as a plain move of the
    // same pieces.
    let p = pos("4k/5/5/3p(PB)/5/5/5/5/K4 w - d7 0 1");
    let ep = legal(&p, "PBe6xd7");
    let plain = legal(&p, "BPe6-d7");
    assert_ne!(ep, plain);
    assert_eq!(stack_at(&p.play(&plain).unwrap(), "d6"), "p");
}

#[test]
fn notation_stack_forms_read_and_write() {
    let start = Position::start(Variant::Corral);
    // NBPb2-c4: the knight carries a bishop and a pawn.
    let m = legal(&start, "NBPb2-c4");
    let pm = m.piece().unwrap();
    assert_eq!((pm.role, pm.carried), (Role::Knight, roles("BP")));
    assert_eq!(start.move_text(&m), "NBPb2-c4");
    // Any order of the carried pieces is read.
    assert_eq!(legal(&start, "NPBb2-c4"), m);
    // Nb2-c4 carries nothing; Nc4 is ambiguous here, Nbc4 is not.
    let alone = legal(&start, "Nb2-c4");
    assert!(alone.piece().unwrap().carried.is_empty());
    assert_eq!(start.move_text(&alone), "Nbc4");
    match start.parse_move("Nc4") {
        Err(MoveError::Ambiguous { candidates }) => {
            assert_eq!(candidates, vec!["Nbc4", "Ndc4"])
        }
        other => panic!("{other:?}"),
    }
    let p = pos("r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/2n2/5/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1");
    let m = legal(&p, "NBPPb2xc4");
    assert_eq!(p.move_text(&m), "NBPPb2xc4");
    assert_eq!(
        legal(&p, "NBPPb2-c4"),
        m,
        "the capture mark is not required"
    );
    let q = p.play(&m).unwrap();
    assert_eq!(stack_at(&q, "c4"), "PPNB");
    assert_eq!(stack_at(&q, "b2"), ".");
    // QKc2-c4, SAN-like QKc4, and the prison.
    let p = pos("4k/5/5/5/5/5/5/2(QK)2/5 w - - 0 1");
    let m = legal(&p, "QKc4");
    assert_eq!(p.move_text(&m), "QKc2-c4");
    let p = pos("4k/5/5/5/2(QK)2/5/5/5/5 w - - 0 1");
    assert_eq!(p.move_text(&legal(&p, "Kc5-prison")), "Kc5-prison");
    // One =X per promoting pawn.
    let p = pos("5/(RPP)4/5/4k/5/5/5/5/K4 w - - 0 1");
    let m = legal(&p, "RPPa8-a9=R=Q");
    assert_eq!(p.move_text(&m), "RPPa8-a9=Q=R");
    assert_eq!(refused_by(&p, "RPPa8-a9=Q"), "CO-16");
    match p.parse_move("RPPa8-a9") {
        Err(MoveError::Ambiguous { candidates }) => assert_eq!(candidates.len(), 10),
        other => panic!("{other:?}"),
    }
    // Syntax errors keep their spans; castling and swaps are refused.
    assert!(matches!(
        start.parse_move("NBPb2-c4zz"),
        Err(MoveError::Syntax(_))
    ));
    assert!(start.parse_move("b2/b3").is_err());
}

#[test]
fn notation_capture_mark_is_not_a_file() {
    // `Nxe5`: the `x` is the capture mark, in every variant.
    let p = Position::from_text(Variant::Chess, "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1").unwrap();
    assert_eq!(p.move_text(&p.parse_move("Nxe5").unwrap()), "Nxe5");
    let p = pos("4k/5/5/5/2(ppnb)2/5/3N1/5/K4 w - - 0 1");
    assert_eq!(p.move_text(&legal(&p, "Nxc5")), "Nxc5");
}

#[test]
fn notation_piece_matches_promotions_as_a_multiset() {
    // CO-16, through the shared matcher of notation::san.
    use postal::notation::san::{parse_text, piece_matches, MoveText};
    let mut m = postal::PieceMove::new(Role::Rook, Square::new(1, 8), Square::new(1, 9));
    m.carried = roles("PP");
    m.carried_promotions = roles("QN");
    for text in ["RPPa8-a9=Q=N", "RPPa8-a9=N=Q", "PRPa8-a9=N=Q"] {
        let MoveText::Piece(t) = parse_text(text).unwrap().text else {
            panic!("{text}")
        };
        assert_eq!(piece_matches(&t, &m), text != "PRPa8-a9=N=Q", "{text}");
    }
}

#[test]
fn notation_round_trip_over_the_perft_positions() {
    let path = format!("{}/fixtures/perft/corral.perft", env!("CARGO_MANIFEST_DIR"));
    let cases = read_table(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut checked = 0;
    for case in cases {
        let root = pos(&case.fen);
        let mut positions = vec![root.clone()];
        if case.id != "start" {
            positions.extend(root.legal_moves().iter().map(|m| root.play(m).unwrap()));
        }
        for p in positions {
            let moves = p.legal_moves();
            for m in &moves {
                let text = p.move_text(m);
                assert_eq!(
                    p.parse_move(&text).as_ref(),
                    Ok(m),
                    "{text} in {}",
                    p.to_text()
                );
                checked += 1;
            }
            let mut all: Vec<String> = moves.iter().map(|m| p.move_text(m)).collect();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), moves.len(), "texts are distinct");
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn position_text_round_trips_and_extra_fields() {
    for text in [
        "r3r/p(ppnb)(ppqk)(ppnb)p/5/5/5/5/5/P(PPNB)(PPQK)(PPNB)P/R3R w - - 0 1",
        "r4/1(PPR)3/5/3(pnb)(PR)/2(pk)2/5/4(PN)/(QK)4/4r w - d7 0 20 ep=pn",
        "4k/5/5/5/5/5/5/5/5 b - - 1 1 prison=K",
        "5/5/5/5/5/(PQ)p3/5/5/1k2K b - a3 0 9 ep=PQ",
    ] {
        let p = pos(text);
        let back = p.to_text();
        assert_eq!(pos(&back), p, "{text}");
    }
    assert_eq!(
        pos("5/5/5/5/5/(QP)p3/5/5/1k2K b - a3 0 9 ep=QP").to_text(),
        "5/5/5/5/5/(PQ)p3/5/5/1k2K b - a3 0 9 ep=PQ"
    );
    // A plain FEN en passant square means a lone pawn double-stepped.
    let p = pos("4k/5/5/3pP/5/5/5/5/K4 w - d7 0 2");
    assert_eq!(p.to_text(), "4k/5/5/3pP/5/5/5/5/K4 w - d7 0 2 ep=p");
    for (bad, why) in [
        ("4k/5/5/5/5/5/5/5/5 b - - 1 1 prison=Q", "prison"),
        ("4k/5/5/5/5/5/5/5/5 b - - 1 1 prison=KK", "prison"),
        ("4k/5/5/5/5/5/5/5/K4 b - - 1 1 prison=K", "kings"),
        ("4k/5/5/5/5/5/5/5/5 w - - 1 1 prison=K", "prison"),
        ("4k/5/5/3pP/5/5/5/5/K4 w - - 0 2 ep=p", "ep="),
        ("4k/5/5/3pP/5/5/5/5/K4 w - d7 0 2 ep=P", "ep="),
        ("4k/5/5/3pP/5/5/5/5/K4 w - d7 0 2 ep=pn", "double step"),
        ("4k/5/5/3pP/5/5/5/5/K4 w - c7 0 2", "double step"),
        ("4k/5/5/5/5/5/5/5/K4 w - - 0 2 cells=3", "unexpected"),
        ("4k/5/5/5/5/5/5/5/(KK)4 w - - 0 2", "kings"),
        ("P3k/5/5/5/5/5/5/5/K4 w - - 0 2", "rank 9"),
        ("4k/5/5/5/5/5/5/5/K4 w KQ - 0 2", "castling"),
        ("4k/5/5/5/5/5/5/5/(Kp)4 w - - 0 2", "one side"),
        ("4k/5/5/5/5/5/5/5/4K/5 w - - 0 2", "5x9"),
        ("4k/5/5/5/4R/5/5/5/K4 w - - 0 2", "in check"),
    ] {
        let e = Position::from_text(Variant::Corral, bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} was read"));
        assert!(e.message.contains(why), "{bad}: {}", e.message);
    }
}

#[test]
fn co10_the_ban_removes_checkmating_moves_and_costs_a_reply_search() {
    // middlegame-checks of the perft table: three White moves would leave
    // Black in check without a reply.
    let p = pos("r(nb)2r/p1p2/1N3/4p/5/k2P1/3(PK)1/(pq)B(PP)(PPNB)P/R3R w - - 0 8");
    let mut with_ban = Work::default();
    let mut without = Work::default();
    assert_eq!(perft_work(&p, 1, true, &mut with_ban), 108);
    assert_eq!(perft_work(&p, 1, false, &mut without), 111);
    assert!(with_ban.checks > 0 && with_ban.replies > 0);
    assert_eq!(without.checks, 0);
}

#[test]
fn perft_divide_lists_moves_in_notation() {
    // What `postal perft corral 2 --divide` prints, by the library.
    let p = Position::start(Variant::Corral);
    let split = postal::notation::divide(&p, 2);
    assert_eq!(split.len(), 263);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 67_524);
    assert!(split.iter().any(|(m, _)| m == "QKc2-e4"));
}
