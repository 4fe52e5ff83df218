//! Kristensen's Game (rules/kristensen.md KR-1..KR-12): a test per rule,
//! the round trips of moves and position texts, and a slow, independent
//! move counter that checks the perft table `fixtures/perft/kristensen.perft`.

use crate::common::{sq, texts};
use postal::perft::perft;
use postal::variant::kristensen::{perpetual_check, rights};
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
    crate::common::pos(Variant::Kristensen, text)
}

fn play(p: &Position, text: &str) -> Position {
    crate::common::play(p, text).0
}

fn play_all(p: &Position, moves: &str) -> Vec<Position> {
    let mut history = vec![p.clone()];
    for m in moves.split_whitespace() {
        let next = play(history.last().unwrap(), m);
        history.push(next);
    }
    history
}

fn illegal_rule(p: &Position, text: &str) -> Option<&'static str> {
    match p.parse_move(text) {
        Err(MoveError::Illegal { rule, .. }) => rule,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

// ---- KR-1 board and setup ------------------------------------------------

#[test]
fn kr1_nine_by_nine_setup() {
    let p = Position::start(Variant::Kristensen);
    assert_eq!(p.to_text(), START);
    assert_eq!(p.board.square_count(), 81);
    let white = [
        ("a2 b2 c3 d3 f3 g3 h2 i2", Role::Pawn),
        ("e2", Role::Barrier),
        ("b1 h1", Role::Knight),
        ("c1 g1", Role::Bishop),
        ("a1 i1", Role::Rook),
        ("d1 f1", Role::Queen),
        ("e1", Role::King),
    ];
    let mut count = 0;
    for (squares, role) in white {
        for name in squares.split(' ') {
            let w = sq(name);
            // Black mirrors White across the middle rank.
            let b = Square::new(w.file, 10 - w.rank);
            assert_eq!(
                p.board.piece_at(w).map(|x| (x.color, x.role)),
                Some((Color::White, role))
            );
            assert_eq!(
                p.board.piece_at(b).map(|x| (x.color, x.role)),
                Some((Color::Black, role))
            );
            count += 2;
        }
    }
    assert_eq!(p.board.occupied().count(), count);
    assert_eq!(
        Variant::from_name("Kristensen's Game"),
        Some(Variant::Kristensen)
    );
    let rules_text = Variant::Kristensen.spec().rules_text;
    assert!(rules_text.contains("KR-12") && rules_text.contains("a2b2h2i2a8b8h8i8"));
}

#[test]
fn kr1_every_piece_can_move_and_every_pawn_is_protected() {
    // The page's note, taken literally, for both sides.
    for side in ["w", "b"] {
        let p = pos(&START.replacen(" w ", &format!(" {side} "), 1));
        let us = p.turn;
        let moves = p.legal_moves();
        let mut pawns = 0;
        for (square, stack) in p.board.occupied() {
            if stack.color() != us {
                continue;
            }
            // Every piece has a legal move.
            assert!(
                moves.iter().any(|m| m.from() == square),
                "{us} piece on {square} cannot move"
            );
            if stack.piece().unwrap().role != Role::Pawn {
                continue;
            }
            // Every pawn is protected: put an enemy knight in its place,
            // and some piece of ours may take it at once.
            pawns += 1;
            let mut q = p.clone();
            q.board.set(
                square,
                postal::Stack::single(postal::Piece::new(!us, Role::Knight)),
            );
            assert!(
                q.legal_moves().iter().any(|m| m.to() == square),
                "{us} pawn on {square} is not protected"
            );
            let i = p.board.index(square).unwrap();
            assert!(p.is_attacked(i, us), "{square}");
        }
        assert_eq!(pawns, 8);
        // A barrier pawn is never protected (KR-7): were the enemy
        // barrier pawn to take it, nothing could take back.
        let w = p.find(us, Role::Barrier)[0];
        let mut q = p.clone();
        q.board.set_cell(
            w,
            postal::Stack::single(postal::Piece::new(!us, Role::Barrier)),
        );
        let w = p.board.square(w);
        assert!(!q.legal_moves().iter().any(|m| m.to() == w));
    }
}

// ---- KR-2..KR-5 pieces -----------------------------------------------------

#[test]
fn kr2_no_castling() {
    let text = "r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1 -";
    assert!(Position::from_text(Variant::Kristensen, text).is_err());
    let p = pos(&text.replace("KQkq", "-"));
    assert!(texts(&p).iter().all(|m| !m.starts_with('O')));
    assert!(p.parse_move("O-O").is_err());
}

#[test]
fn kr3_rook_knight_move_gives_check() {
    // The rook on c5 leaps to d7 like a knight, and from d7 checks the
    // king on e9 like a knight: neither the file nor the rank.
    let p = pos("4k4/9/9/9/2R6/9/9/9/4K4 w - - 0 1 -");
    let all = texts(&p);
    assert!(all.contains(&"Rd7+".to_string()), "{all:?}");
    assert!(all.contains(&"Rc9+".to_string()));
    let after = play(&p, "Rc5-d7");
    assert!(after.is_check());
    assert_eq!(after.outcome(), None);
    // The rook's knight leaps jump over pieces.
    let q = pos("4k4/9/9/9/9/9/PPP6/1R7/PPP1K4 w - - 0 1 -");
    assert!(texts(&q).contains(&"Rd3".to_string()));
}

#[test]
fn kr4_bishop_steps_straight_without_capturing() {
    let p = pos("4k4/9/9/4n4/4B4/9/9/9/4K4 w - - 0 1 -");
    let all = texts(&p);
    assert!(all.contains(&"Be4".to_string()), "{all:?}");
    assert!(!all.iter().any(|m| m.ends_with("e6")));
    assert!(!all.iter().any(|m| m.ends_with("d5") || m.ends_with("f5")));
    // Forward too, when the square is empty.
    let q = pos("4k4/9/9/9/4B4/9/9/9/4K4 w - - 0 1 -");
    assert!(texts(&q).contains(&"Be6".to_string()));
}

#[test]
fn kr5_pawn_steps_back_without_capturing() {
    let p = Position::start(Variant::Kristensen);
    let all = texts(&p);
    for m in ["c3-c2", "d3-d2", "f3-f2", "g3-g2"] {
        assert!(all.contains(&m.to_string()), "{m}");
    }
    // No back step onto an occupied square, and no backward capture.
    let q = pos("4k4/9/9/9/3p5/2n1P4/9/9/4K4 w - - 0 1 -");
    let qm = texts(&q);
    assert!(qm.contains(&"e4-e3".to_string()), "{qm:?}");
    assert!(!qm.iter().any(|m| m.contains("xd3")));
    assert!(qm.contains(&"exd5".to_string()));
    // A pawn may step back onto its own first rank and forward again.
    let r = pos("4k4/9/9/9/9/9/9/P8/4K4 w - - 0 1 -");
    let r = play(&r, "a2-a1");
    assert_eq!(r.board.piece_at(sq("a1")).unwrap().role, Role::Pawn);
    let r = play(&r, "Kd9");
    assert!(texts(&r).contains(&"a2".to_string()));
    assert!(r.parse_move("a3").is_err());
}

#[test]
fn kr5_only_wing_pawns_double_step() {
    let p = Position::start(Variant::Kristensen);
    let all = texts(&p);
    for m in ["a4", "b4", "h4", "i4"] {
        assert!(all.contains(&m.to_string()), "{m}");
    }
    // The centre pawns never double-step.
    assert_eq!(illegal_rule(&p, "c3-c5"), Some("KR-5"));
    assert_eq!(illegal_rule(&p, "d5"), Some("KR-5"));
    let b = play(&p, "a4");
    let all = texts(&b);
    assert!(all.contains(&"a6".to_string()) && all.contains(&"i6".to_string()));
    assert!(!all.contains(&"c5".to_string()));
}

#[test]
fn kr5_pawn_that_returns_has_lost_its_double_step() {
    let history = play_all(&Position::start(Variant::Kristensen), "a3 i7 a3-a2 i7-i8");
    let p = history.last().unwrap();
    // The placement is the start's again, but two rights are gone.
    let start = Position::start(Variant::Kristensen);
    assert!(p.board.same_placement(&start.board));
    assert_ne!(p, &start);
    assert!(
        p.to_text().ends_with(" w - - 0 3 b2h2i2a8b8h8"),
        "{}",
        p.to_text()
    );
    assert!(!rights(p).has(sq("a2")));
    assert_eq!(illegal_rule(p, "a2-a4"), Some("KR-5"));
    assert_eq!(illegal_rule(p, "a4"), Some("KR-5"));
    assert!(p.parse_move("a3").is_ok());
    let q = play(p, "b4");
    assert_eq!(illegal_rule(&q, "i6"), Some("KR-5"));
    assert!(q.parse_move("h6").is_ok());
    // A right also goes with the pawn when it is taken.
    let r = pos("4k4/9/9/9/9/9/2n6/P8/4K4 b - - 0 1 a2");
    let r = play(&r, "Nxa2");
    assert!(r.to_text().ends_with(" -"), "{}", r.to_text());
}

#[test]
fn kr5_no_en_passant() {
    let p = pos("4k4/9/9/9/9/1p7/9/P8/4K4 w - - 0 1 a2");
    let after = play(&p, "a4");
    assert!(
        after.to_text().contains(" b - - 0 1 -"),
        "{}",
        after.to_text()
    );
    assert!(after.parse_move("bxa3").is_err());
    assert!(texts(&after).contains(&"b3".to_string()));
    // An en passant square in a position text is refused.
    assert!(
        Position::from_text(Variant::Kristensen, "4k4/9/9/9/Pp7/9/9/9/4K4 b - a3 0 1 -").is_err()
    );
}

#[test]
fn kr5_promotion_to_this_games_pieces() {
    let p = pos(BARRIERS);
    let promos: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("c9"))
        .collect();
    assert_eq!(promos, vec!["c9=Q+", "c9=R+", "c9=B", "c9=N"]);
    // The new rook leaps like a knight (KR-3): from c9 it takes on a8.
    let q = play(&p, "c9=R");
    let q = play(&q, "Qd9");
    assert!(texts(&q).contains(&"Rxa8".to_string()));
    // Black promotes on the first rank; the new bishop and rook check.
    let c = pos(CHECKS);
    let promos: Vec<String> = texts(&c)
        .into_iter()
        .filter(|m| m.starts_with("g"))
        .collect();
    assert!(promos.contains(&"g1=B+".to_string()) && promos.contains(&"gxf1=R+".to_string()));
}

// ---- KR-6, KR-7 barrier pawns ----------------------------------------------

#[test]
fn kr6_barrier_pawn_takes_friendly_pieces() {
    let p = Position::start(Variant::Kristensen);
    let all = texts(&p);
    for m in ["Wxd1", "Wxf1", "Wxd3", "Wxf3", "We3", "Wd2", "Wf2"] {
        assert!(all.contains(&m.to_string()), "{m} in {all:?}");
    }
    let after = play(&p, "Wxd3");
    assert_eq!(
        after.board.piece_at(sq("d3")).map(|x| (x.color, x.role)),
        Some((Color::White, Role::Barrier))
    );
    assert_eq!(after.find(Color::White, Role::Pawn).len(), 7);
    // No other piece takes a friendly one.
    assert_eq!(illegal_rule(&p, "Qxd3"), Some("KR-6"));
    assert_eq!(illegal_rule(&p, "Nxd3"), Some("KR-6"));
    // Never its own king.
    assert_eq!(illegal_rule(&p, "Wxe1"), Some("KR-6"));
    assert_eq!(illegal_rule(&p, "We2-e1"), Some("KR-6"));
}

#[test]
fn kr6_barrier_pawn_takes_only_the_enemy_barrier_pawn() {
    let p = pos("4k4/9/9/9/3nWw3/9/9/9/4KQ3 w - - 0 1 -");
    let all = texts(&p);
    assert!(all.contains(&"Wxf5".to_string()), "{all:?}");
    assert_eq!(illegal_rule(&p, "Wxd5"), Some("KR-6"));
    let after = play(&p, "Wxf5");
    assert_eq!(after.find(Color::Black, Role::Barrier).len(), 0);
}

#[test]
fn kr6_barrier_pawn_does_not_promote() {
    let p = pos("k8/4W4/9/9/9/9/9/9/4K4 w - - 0 1 -");
    let all = texts(&p);
    assert!(all.contains(&"We9".to_string()) && !all.iter().any(|m| m.contains('=')));
    let after = play(&p, "We9");
    assert_eq!(after.board.piece_at(sq("e9")).unwrap().role, Role::Barrier);
}

#[test]
fn kr7_king_takes_its_own_barrier_pawn() {
    let p = Position::start(Variant::Kristensen);
    assert!(texts(&p).contains(&"Kxe2".to_string()));
    let after = play(&p, "Kxe2");
    assert_eq!(after.find(Color::White, Role::Barrier).len(), 0);
    assert_eq!(
        after.board.piece_at(sq("e2")).map(|x| (x.color, x.role)),
        Some((Color::White, Role::King))
    );
    // The king takes no other friendly piece.
    assert!(p.parse_move("Kxd1").is_err());
}

#[test]
fn kr7_barrier_pawn_taken_only_by_the_enemy_barrier_pawn_or_its_king() {
    // The black barrier pawn on f5: the white queen on i2 may not take it,
    // nor may the white king beside it; the white barrier pawn may.
    let p = pos("4k4/9/9/9/4Ww3/5K3/9/8Q/9 w - - 0 1 -");
    assert_eq!(illegal_rule(&p, "Qxf5"), Some("KR-7"));
    assert_eq!(illegal_rule(&p, "Kxf5"), Some("KR-7"));
    assert!(p.parse_move("Wxf5").is_ok());
    // Black's own king may take it.
    let q = pos("9/9/9/9/3nWwk2/9/9/9/4K4 b - - 0 1 -");
    assert!(q.parse_move("Kxf5").is_ok());
    assert!(q.parse_move("Kxe5").is_err());
}

#[test]
fn kr7_barrier_pawn_gives_no_check() {
    // The white barrier pawn stands next to the black king: no check, and
    // the black king may stand beside it.
    let p = pos("4k4/4W4/9/9/9/9/9/9/4K4 b - - 0 1 -");
    assert!(!p.is_check());
    assert!(texts(&p).contains(&"Kd8".to_string()));
    // A king may step next to the enemy barrier pawn, and a move of a
    // barrier pawn next to the enemy king has no check mark.
    let q = pos("4k4/9/4W4/9/9/9/9/9/4K4 w - - 0 1 -");
    assert!(texts(&q).contains(&"We8".to_string()));
}

// ---- KR-8..KR-12 end of the game -------------------------------------------

#[test]
fn kr8_checkmate_wins() {
    let p = pos("k8/1Q7/9/9/9/9/9/9/1R2K4 b - - 0 1 -");
    let o = p.outcome().unwrap();
    assert_eq!((o.result, o.rule), (GameResult::WhiteWins, "KR-8"));
    assert_eq!(o.reason, "checkmate");
    let before = pos("k8/9/9/9/9/9/9/1Q7/1R2K4 w - - 0 1 -");
    assert!(texts(&before).contains(&"Qb8#".to_string()));
}

#[test]
fn kr9_stalemate_loses() {
    let p = pos("k8/2Q6/9/9/9/9/9/9/4K4 b - - 0 1 -");
    assert!(!p.is_check());
    let o = p.outcome().unwrap();
    assert_eq!((o.result, o.rule), (GameResult::WhiteWins, "KR-9"));
    let q = pos("9/9/9/9/9/9/9/2q6/K3k4 w - - 0 1 -");
    assert_eq!(q.outcome().unwrap().result, GameResult::BlackWins);
    assert!(q
        .play(&Move::Piece(postal::PieceMove::new(
            Role::King,
            sq("a1"),
            sq("a2")
        )))
        .is_err());
}

#[test]
fn kr10_perpetual_check_loses_for_the_checker() {
    // The rook checks from h7 and g7 like a knight; the black king goes
    // back and forth between i9 and h9.
    let start = pos("8k/7pp/6R2/9/9/9/9/9/K8 w - - 0 1 -");
    let history = play_all(&start, "Rh7 Kh9 Rg7 Ki9 Rh7 Kh9 Rg7");
    for (i, p) in history.iter().enumerate().skip(1) {
        // Every white move checks; no black move does.
        assert_eq!(p.is_check(), i % 2 == 1, "ply {i}");
        assert_eq!(perpetual_check(&history[..=i]), None, "ply {i}");
    }
    let rules = Variant::Kristensen.rules();
    let mut history = history;
    history.push(play(history.last().unwrap(), "Ki9"));
    // The start position occurs for the third time: White loses at once.
    let o = rules.history_outcome(&history).unwrap();
    assert_eq!((o.result, o.rule), (GameResult::BlackWins, "KR-10"));
    assert!(o.reason.contains("White"), "{}", o.reason);
    assert_eq!(perpetual_check(&history), Some(o));
}

#[test]
fn kr10_ordinary_repetition_is_no_loss() {
    // Neither side checks: a repetition, claimable as a draw, not an end.
    let start = pos("8k/7pp/9/9/9/9/9/9/K8 w - - 0 1 -");
    let history = play_all(&start, "Ka2 Kh9 Ka1 Ki9 Ka2 Kh9 Ka1 Ki9");
    assert!(history.last().unwrap().board.same_placement(&start.board));
    assert_eq!(Variant::Kristensen.rules().history_outcome(&history), None);
    // White checks, but also makes a quiet move inside the cycle.
    let start = pos("8k/7pp/6R2/9/9/9/9/9/K8 w - - 0 1 -");
    let history = play_all(&start, "Rh7 Kh9 Rg7 Ki9 Ka2 h7 Ka1 h7-h8 Rh7 Kh9 Rg7 Ki9");
    let last = history.last().unwrap();
    assert!(last.board.same_placement(&start.board));
    assert_eq!(perpetual_check(&history), None);
    // The default of the other variants decides nothing.
    assert_eq!(Variant::Chess.rules().history_outcome(&history), None);
}

#[test]
fn kr11_resigning_is_refused() {
    let e = Variant::Kristensen.spec().no_resigning.unwrap();
    assert!(e.contains("KR-11") && e.contains("forbidden"), "{e}");
    assert!(Variant::Chess.spec().no_resigning.is_none());
}

#[test]
fn kr12_fifty_move_count() {
    let p = pos(BARRIERS);
    assert_eq!(p.halfmove, 4);
    assert_eq!(play(&p, "Wg7").halfmove, 0, "barrier pawn move");
    assert_eq!(play(&p, "c8-c7").halfmove, 0, "pawn back step");
    assert_eq!(play(&p, "Qxg8").halfmove, 0, "capture");
    assert_eq!(play(&p, "Kg2").halfmove, 5, "king move");
    let c = pos(CHECKS);
    assert_eq!(play(&c, "Wxi8").halfmove, 0, "capture of a friendly piece");
    assert_eq!(play(&c, "Bg6").halfmove, 4);
}

// ---- notation and position text --------------------------------------------

#[test]
fn notation_forms() {
    let p = Position::start(Variant::Kristensen);
    // Long forms and the capture mark of a friendly capture are accepted.
    for (text, canonical) in [
        ("We2-e3", "We3"),
        ("We2xd3", "Wxd3"),
        ("Wd3", "Wxd3"),
        ("Ke1-e2", "Kxe2"),
        ("c2", "c3-c2"),
        ("Ra1-b3", "Rb3"),
        ("Bc1-c2", "Bc2"),
    ] {
        let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.move_text(&m), canonical, "{text}");
    }
    // A forward step another pawn could also make is written in full.
    let q = pos("4k4/9/9/9/4P4/9/4P4/9/4K4 w - - 0 1 -");
    let all = texts(&q);
    assert!(all.contains(&"e3-e4".to_string()) && all.contains(&"e5-e4".to_string()));
    let r = pos("4k4/9/9/9/9/4P4/9/4P4/4K4 w - - 0 1 -");
    let all = texts(&r);
    assert!(all.contains(&"e2-e3".to_string()) && all.contains(&"e4-e3".to_string()));
    assert!(matches!(
        r.parse_move("e3"),
        Err(MoveError::Ambiguous { .. })
    ));
    // Without a rival, the forward step is plain SAN.
    assert!(all.contains(&"e5".to_string()));
}

#[test]
fn moves_and_texts_round_trip() {
    // Every legal move of the perft positions and of their children
    // prints and reads back to the same move; every position text reads
    // back to the same position.
    for text in [START, BARRIERS, CHECKS] {
        let p = pos(text);
        let mut nodes = vec![p.clone()];
        nodes.extend(p.legal_moves().iter().map(|m| p.play_unchecked(m)));
        for n in &nodes {
            assert_eq!(&pos(&n.to_text()), n, "{}", n.to_text());
            for m in n.legal_moves() {
                let t = n.move_text(&m);
                assert_eq!(n.parse_move(&t).as_ref(), Ok(&m), "{t} in {}", n.to_text());
            }
        }
    }
}

// ---- the slow, independent counter --------------------------------------
//
// A 9x9 array of pieces, its own reader of the position text, and moves
// found by trying every from/to square pair against the rule text, with
// legality decided by asking every enemy piece whether it could take the
// king afterwards. It shares nothing with the library's generator
// (movement tables, rays, attack tables, pseudo_moves, the king-safety filter).

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
        let order = [
            (0, 1),
            (1, 1),
            (7, 1),
            (8, 1),
            (0, 7),
            (1, 7),
            (7, 7),
            (8, 7),
        ];
        let rights: String = order
            .iter()
            .filter(|s| self.rights.contains(s))
            .map(|&(f, r)| format!("{}{}", (b'a' + f as u8) as char, r + 1))
            .collect();
        (
            placement,
            if rights.is_empty() {
                "-".into()
            } else {
                rights
            },
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
        .map(|m| {
            walk_both(
                &lib.play_unchecked(m),
                &slow.apply(library_move(m)),
                depth - 1,
            )
        })
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
        assert_eq!(perft(&lib, depth), nodes, "{} perft {depth}", case.id);
    }
}

/// The slow counter alone, for the deeper lines (run by hand:
/// `cargo test --test suite kristensen::slow_perft_deep -- --ignored`, about 80 s).
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
