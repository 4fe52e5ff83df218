//! Swap Chess (rules/swap.md SW-1..SW-12): the page's mate-in-one and
//! sample game, each rule by id, notation, position text, the step-by-step
//! listing, and perft against an independent brute-force counter.

use crate::common::sq;
use crate::swap_brute::Brute;
use postal::notation::dialect::swap::{parse_prefix, swap_steps};
use postal::notation::fen::write_placement;
use postal::notation::san::{parse_text, CheckMark};
use postal::perft::{perft, read_table};
use postal::variant::swap::{self, count_swaps, for_each_swap};
use postal::{Color, GameResult, Move, MoveError, Piece, Position, Role, Variant};

fn pos(text: &str) -> Position {
    crate::common::pos(Variant::Swap, text)
}

fn play(p: &Position, text: &str) -> Position {
    crate::common::play(p, text).0
}

/// The reason and rule of an illegal move.
fn refused(p: &Position, text: &str) -> (String, Option<&'static str>) {
    match p.parse_move(text) {
        Err(MoveError::Illegal { reason, rule }) => (reason, rule),
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

// ---- the page's mate-in-one ------------------------------------------------

const MATE_IN_ONE: &str = "3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6 w - - 0 1";

#[test]
fn mate_in_one_of_the_page_is_check_but_not_mate() {
    // SW-12: the diagram has no white king.
    let p = pos(MATE_IN_ONE);
    let m = p.parse_move("Qb6/b1/d3=N/c4/f7++").unwrap();
    // SW-7: the black pawn swapped onto b1 becomes what White chooses.
    let after = p.play(&m).unwrap();
    assert_eq!(
        after.board.piece_at(sq("b1")),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert_eq!(
        write_placement(&after.board),
        // The page's diagram after the move.
        "3rk3/5Q2/1B6/8/2r5/3b4/5R2/1n6"
    );
    assert!(after.is_check());
    // The page calls it mate, but Black has exactly one answer: the bishop
    // on d3 swaps with its own rook on c4 and then with the queen on f7
    // (SW-3, SW-4, SW-5), and no white piece attacks e8 afterwards.
    assert_eq!(p.move_text(&m), "Qb6/b1/d3=N/c4/f7+");
    assert_eq!(after.outcome(), None);
    let mut answers = Vec::new();
    for_each_swap(&after, &mut |s| {
        answers.push(after.move_text(&Move::Swap(s)))
    });
    assert!(after.legal_moves().is_empty());
    assert_eq!(answers, vec!["Bd3/c4/f7"]);
    let answered = play(&after, "Bd3/c4/f7");
    assert_eq!(
        write_placement(&answered.board),
        "3rk3/5b2/1B6/8/2Q5/3r4/5R2/1n6"
    );
}

// ---- the sample game ---------------------------------------------------------

/// The sample game's moves as published (fixtures/records/swap-chess.txt).
const SAMPLE_GAME: &[&str] = &[
    "e2-e4",
    "e7-e5",
    "Nb1-c3",
    "Nb8-c6",
    "g2-g4",
    "Bf8-c5",
    "Qd1/g4/g7/h8",
    "Qd8-h4",
    "Qh8/h7/g7/g8+",
    "Ke8-e7",
    "Nc3-d5+",
    "Ke7-e6",
    "Nd5:c7+",
    "Ke6-d6",
    "Nc7-b5+",
    "Kd6-e7",
    "Qg8/c8/c6/c5+",
    "Ke7-e8",
    "Bf1-c4?",
    "Qh4/h2/h1/g1+",
    "Bc4-f1",
    "Qg1:h2?",
    "Bb5/c6/d7+",
    "Ke8:d7",
    "Nf1:h2",
    "f7-f6",
    "Nh2:g4?",
    "Rh7/g7/g4/h4/h1+",
    "Qf2/e1/d1/c1/c2",
    "Nh7/f6/g4+",
    "Kf2-f3",
    "Nc8/a7/c6/e5+",
    "Kf3-g3",
    "h:g7",
    "Bd1:g4+",
    "Ne5:g4",
    "Kg3:g4",
    "Bg8-e6+",
    "Kg4-g3",
    "g:f6",
    "Qc2/e4/h7+",
    "Ra8/a7/b7/d7",
    "Qh7:e4",
    "Be6-d5",
    "Qe4/c2",
    "Rd7-g7+",
    "Kg3-f2",
    "Rh1-f1+",
    "Kf2-e3",
    "Rg7-g3+",
    "Ke3-d4",
    "Rf1-f4",
    "d2-d3",
    "Rf4:h4",
    "a2-a4",
    "Bb5/d3??",
    "Qc2/d3/e4/d5/c6+",
    "Kb7-b8",
    "Ra1/a4/a7/a8+",
    "Be4/d5/c6/a8",
    "Qd5-d6+",
    "Kb8-b7",
    "Qd6-c7+",
    "Ba8/b7",
    "Rc6/c7/c8+",
    "Bb7/c8",
    "R:c7+",
    "Bc2/d3/e4/c6",
    "Qe4/c6+",
    "Ka8-b8",
    "Rc7:c8++",
];

/// The page's diagrams: the placement after the given number of plies
/// (White pawns drawn `O` on the page).
const SAMPLE_DIAGRAMS: &[(usize, &str)] = &[
    (7, "r1bqk1nQ/pppp1prp/2n5/2b1p3/4P1p1/2N5/PPPP1P1P/R1BPKBNR"),
    (9, "r1b1k1Qp/pppp1pnr/2n5/2b1p3/4P1pq/2N5/PPPP1P1P/R1BPKBNR"),
    (17, "r1n3bp/pp1pkpnr/2b5/1NQ1p3/4P1pq/8/PPPP1P1P/R1BPKBNR"),
    (
        20,
        "r1n1k1bp/pp1p1pnr/2b5/1NQ1p3/2B1P1pP/8/PPPP1P1R/R1BPK1qN",
    ),
    (23, "r1n1k1bp/pp1B1pnr/2p5/1bQ1p3/4P1pP/8/PPPP1P1q/R1BPKN1N"),
    (28, "r1n3bp/pp1k2Nn/2p2p2/1bQ1p3/4P1PN/8/PPPP1P2/R1BPK2r"),
    (38, "r1p5/pp1k2pp/2p1bP2/1bP5/4P1KN/8/PPQP4/R1P1P2r"),
    (42, "p1p5/pk1r3Q/2p1bp2/1bP5/4p2N/6K1/PPPP4/R1P1P2r"),
    (48, "p1p5/pk4r1/2p2p2/1bPb4/4P2N/8/PPQP1K2/R1P1Pr2"),
    (56, "p1p5/pk6/2p2p2/1PPb4/P2KP2r/3b2r1/1PQ5/R1P1P3"),
    (64, "k1p5/pbQ5/2R2p2/1PP5/p2Kp2r/3P2r1/1Pb5/P1P1P3"),
    (71, "1kR5/p7/2Q2p2/1PP5/p2Kb2r/3p2r1/1PP5/P1P1P3"),
];

fn sample_positions() -> Vec<Position> {
    let mut out = vec![Position::start(Variant::Swap)];
    for text in SAMPLE_GAME {
        let next = play(out.last().unwrap(), text);
        out.push(next);
    }
    out
}

#[test]
fn sample_game_fixture_is_the_page() {
    // The page as published, kept verbatim; the moves above are
    // transcribed from it.
    let page = include_str!("../fixtures/records/swap-chess.txt");
    assert!(page.contains("A Sample Game") && page.contains("1. 1 Qb6/b1/d3=N/c4/f7++"));
    for m in SAMPLE_GAME {
        assert!(page.contains(m), "{m} is not in the page");
    }
}

#[test]
fn sample_game_replays_from_the_start_position() {
    // SW-1..SW-9 at once: every published move is legal, every check mark
    // agrees, every diagram matches, and the last move mates.
    let positions = sample_positions();
    for (ply, text) in SAMPLE_GAME.iter().enumerate() {
        let before = &positions[ply];
        let m = before.parse_move(text).unwrap();
        let canonical = before.move_text(&m);
        let published = parse_text(text).unwrap().check;
        let computed = if canonical.ends_with('#') {
            Some(CheckMark::Mate)
        } else if canonical.ends_with('+') {
            Some(CheckMark::Check)
        } else {
            None
        };
        assert_eq!(
            published,
            computed,
            "ply {}: {text} vs {canonical}",
            ply + 1
        );
    }
    for &(ply, placement) in SAMPLE_DIAGRAMS {
        assert_eq!(
            write_placement(&positions[ply].board),
            placement,
            "diagram after ply {ply}"
        );
    }
    let last = positions.last().unwrap();
    let o = last.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::WhiteWins, "checkmate")
    );
    // The two moves written without P1's start square.
    assert_eq!(
        positions[22].move_text(&positions[22].parse_move("Bb5/c6/d7+").unwrap()),
        "Bf1/b5/c6/d7+"
    );
    assert_eq!(
        positions[28].move_text(&positions[28].parse_move("Qf2/e1/d1/c1/c2").unwrap()),
        "Qc5/f2/e1/d1/c1/c2"
    );
}

#[test]
fn sample_game_commentary_lines() {
    let positions = sample_positions();
    // "(if 11. Ke1-e2 then Rh7/h6/g4/e4+)": h6 is empty, so the line as
    // printed cannot be played; the rook goes through h4 instead.
    let ke2 = play(&positions[20], "Ke1-e2");
    let (reason, rule) = refused(&ke2, "Rh7/h6/g4/e4+");
    assert_eq!(
        reason,
        "step 1: h6 is empty; the black rook swaps only with a piece"
    );
    assert_eq!(rule, Some("SW-3"));
    assert_eq!(
        ke2.move_text(&ke2.parse_move("Rh7/h4/g4/e4").unwrap()),
        "Rh7/h4/g4/e4+"
    );
    // "(if 11... Rh7/g7/f7/f2/f1+ then Qc5 was lost)": the third swap puts
    // the white pawn from f2 on f7, next to the black king, and the
    // sequence ends with Black's own king in check: illegal (SW-6, FI-3).
    let (reason, rule) = refused(&positions[21], "Rh7/g7/f7/f2/f1+");
    assert_eq!(
        reason,
        "after the last swap the black king on e8 is attacked (FI-3)"
    );
    assert_eq!(rule, Some("SW-6"));
    // "(better 14. Nh2/g4/f6+)": legal, and check.
    let p = &positions[26];
    assert_eq!(
        p.move_text(&p.parse_move("Nh2/g4/f6+").unwrap()),
        "Nh2/g4/f6+"
    );
    // "(35... Be4/c6 is illegal because of the KO rule)": see sw9.
}

// ---- the rules, one by one ---------------------------------------------------

#[test]
fn sw1_fide_rules_without_the_dead_position_rule() {
    let p = Position::start(Variant::Swap);
    assert_eq!(p.legal_moves().len(), 20);
    assert!(p.parse_move("Nf3").is_ok());
    // FI-5's dead position does not apply: K v K and K+B v K go on.
    assert_eq!(pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1").outcome(), None);
    assert_eq!(pos("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").outcome(), None);
    // FIDE checkmate and stalemate.
    let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    // Fool's mate is no mate here: Ng1/f3/h4 swaps the knight onto h4 via
    // the f3 pawn and puts the queen on f3, where it does not attack e1.
    assert_eq!(mate.outcome(), None);
    assert!(mate.parse_move("Ng1/f3/h4").is_ok());
}

#[test]
fn sw2_a_turn_is_a_fide_move_or_a_swap_sequence() {
    // No FIDE move at all, but the pawn on a3 may swap with its neighbour
    // on b2: no stalemate.
    let p = pos("k7/P7/1K6/8/8/p7/Pp6/1P6 b - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), None);
    assert_eq!(perft(&p, 1), 1);
    assert!(p.parse_move("a3/b2").is_ok());
    // Without the swap partner it is stalemate.
    let s = pos("k7/P7/1K6/8/8/p7/P7/1P6 b - - 0 1");
    assert_eq!(s.outcome().unwrap().reason, "stalemate");
    // legal_moves lists the FIDE moves only; perft counts both.
    let start = Position::start(Variant::Swap);
    assert!(start
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Piece(_))));
}

#[test]
fn sw3_p1_swaps_with_what_it_attacks() {
    let p = Position::start(Variant::Swap);
    let (reason, rule) = refused(&p, "Qd1/d2/a7");
    assert_eq!(reason, "step 2: the white queen on d2 does not attack a7");
    assert_eq!(rule, Some("SW-3"));
    // Sliders are blocked by any piece.
    let (reason, _) = refused(&p, "Ra1/a7");
    assert_eq!(reason, "step 1: the white rook on a1 does not attack a7");
    // Swaps are with pieces only.
    let (reason, _) = refused(&p, "Qd1/d2/d3");
    assert_eq!(
        reason,
        "step 2: d3 is empty; the white queen swaps only with a piece"
    );
    // The king never starts a sequence.
    let (reason, rule) = refused(&p, "Ke1/d1");
    assert_eq!(reason, "a king cannot start a swap sequence");
    assert_eq!(rule, Some("SW-3"));
    // A pawn swaps only diagonally forward, as it captures.
    let q = pos("4k3/8/8/3pp3/4P3/8/8/4K3 w - - 0 1");
    assert!(q.parse_move("e4/d5").is_ok());
    let (reason, _) = refused(&q, "e4/e5");
    assert_eq!(reason, "step 1: the white pawn on e4 does not attack e5");
    // Knights leap.
    assert!(p.parse_move("Ng1/e2").is_ok());
    // A Move value is checked the same way (postal move).
    let bad = Move::Swap(postal::SwapSequence {
        role: Role::Queen,
        start: sq("d1"),
        steps: vec![postal::SwapStep {
            square: sq("a7"),
            promotion: None,
        }],
    });
    let e = p.play(&bad).unwrap_err().to_string();
    assert_eq!(
        e,
        "illegal move: step 1: the white queen on d1 does not attack a7 (SW-3)"
    );
}

#[test]
fn sw4_any_piece_may_be_swapped_even_a_king() {
    // 21... Ra8/a7/b7/d7 swaps the rook with its own king.
    let p = &sample_positions()[41];
    let after = play(p, "Ra8/a7/b7/d7");
    assert_eq!(
        after.board.piece_at(sq("b7")),
        Some(Piece::new(Color::Black, Role::King))
    );
    assert_eq!(
        after.board.piece_at(sq("d7")),
        Some(Piece::new(Color::Black, Role::Rook))
    );
    // The enemy king, though, can never be reached: P1 attacking it is
    // check, which ends the sequence first (SW-6).
    let q = pos("k7/P7/8/8/8/8/8/R3K3 w - - 0 1");
    let (reason, rule) = refused(&q, "Ra1/a7/a8");
    assert_eq!(
        reason,
        "step 2: the sequence must end after step 1, which gives check"
    );
    assert_eq!(rule, Some("SW-6"));
}

#[test]
fn sw5_every_other_piece_swaps_at_most_once() {
    let p = Position::start(Variant::Swap);
    let (reason, rule) = refused(&p, "Qd1/d2/d1");
    assert_eq!(
        reason,
        "step 2: the white pawn on d1 has already been swapped in this sequence"
    );
    assert_eq!(rule, Some("SW-5"));
    // P1 itself goes on as long as it finds new partners.
    assert!(p.parse_move("Qd1/c2/d2/e2").is_ok());
}

#[test]
fn sw6_check_ends_the_sequence_and_only_the_end_must_be_safe() {
    // 21... Ra8/a7/b7/d7: the black king stays in check after the first
    // two swaps; only the position after the last one counts.
    let p = &sample_positions()[41];
    assert!(p.is_check());
    for prefix in ["Ra8/a7", "Ra8/a7/b7"] {
        let (reason, rule) = refused(p, prefix);
        assert_eq!(
            reason,
            "after the last swap the black king on d7 is attacked (FI-3)"
        );
        assert_eq!(rule, Some("SW-6"));
    }
    assert!(p.parse_move("Ra8/a7/b7/d7").is_ok());
    // A sequence may not go on after giving check.
    let m = pos(MATE_IN_ONE);
    let (reason, rule) = refused(&m, "Qb6/b1/d3=N/c4/f7/f2");
    assert_eq!(
        reason,
        "step 5: the sequence must end after step 4, which gives check"
    );
    assert_eq!(rule, Some("SW-6"));
}

#[test]
fn sw7_promotion_by_swap_chosen_by_the_mover() {
    // A pawn P1 promotes on its last rank and goes on with the new
    // piece's powers.
    let p = pos("7n/6P1/8/7p/8/8/8/k3K3 w - - 0 1");
    let after = play(&p, "g7/h8=R/h5");
    assert_eq!(
        after.board.piece_at(sq("h5")),
        Some(Piece::new(Color::White, Role::Rook))
    );
    assert_eq!(
        after.board.piece_at(sq("g7")),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    let (reason, rule) = refused(&p, "g7/h8=N/h5");
    assert_eq!(reason, "step 2: the white knight on h8 does not attack h5");
    assert_eq!(rule, Some("SW-3"));
    // Left out, the promotion is any that makes the text legal: here a
    // queen or a rook.
    match p.parse_move("g7/h8/h5") {
        Err(MoveError::Ambiguous { candidates }) => {
            assert_eq!(candidates, vec!["g7/h8=Q/h5", "g7/h8=R/h5"])
        }
        other => panic!("{other:?}"),
    }
    // A promotion where no pawn reaches its last rank is refused.
    let (reason, _) = refused(&Position::start(Variant::Swap), "Qd1/d2=Q");
    assert_eq!(
        reason,
        "step 1: no pawn reaches its promotion rank on this swap"
    );
    // The enemy pawn of the mate-in-one becomes a black knight by White's
    // choice (see mate_in_one_of_the_page_is_check_but_not_mate).
    let m = pos(MATE_IN_ONE);
    let rook = play(&m, "Qb6/b1/d3=R");
    assert_eq!(
        rook.board.piece_at(sq("b1")),
        Some(Piece::new(Color::Black, Role::Rook))
    );
}

#[test]
fn sw8_first_rank_pawns_step_twice_and_are_taken_en_passant() {
    // 4. Qd1/g4 puts a white pawn on d1.
    let p = &sample_positions()[7];
    assert_eq!(
        p.board.piece_at(sq("d1")),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    let q = pos("4k3/8/8/8/8/2p5/8/1P1PK3 w - - 0 1");
    let texts: Vec<String> = q.legal_moves().iter().map(|m| q.move_text(m)).collect();
    for t in ["b2", "b3", "d2", "d3"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
    let after = play(&q, "b1-b3");
    assert_eq!(after.ep, Some(sq("b2")));
    let taken = play(&after, "cxb2");
    assert_eq!(taken.board.piece_at(sq("b3")), None);
    assert_eq!(
        taken.board.piece_at(sq("b2")),
        Some(Piece::new(Color::Black, Role::Pawn))
    );
    // The path must be empty.
    let blocked = pos("4k3/8/8/8/8/8/1n6/1P2K3 w - - 0 1");
    assert!(blocked.parse_move("b1-b3").is_err());
}

#[test]
fn sw9_ko_bars_giving_back_the_placement_by_a_swap() {
    let positions = sample_positions();
    // 35. Qe4/c6+ Ka8-b8: 35... Be4/c6 would give back the placement from
    // before White's swap.
    let p = &positions[69];
    let (reason, rule) = refused(p, "Be4/c6");
    assert_eq!(
        reason,
        "it gives back the placement from before White's last swap sequence (KO)"
    );
    assert_eq!(rule, Some("SW-9"));
    assert!(p.to_text().contains(" ko="));
    // The ordinary moves are untouched by KO: the same list as in the same
    // position without the KO field.
    let plain = pos(p.to_text().split(" ko=").next().unwrap());
    assert_eq!(p.legal_moves(), plain.legal_moves());
    assert!(plain.parse_move("Be4/c6").is_ok());
    // KO looks only at the swap just made: a swap answering an ordinary
    // move may restore an older placement, and ordinary moves may repeat.
    let start = Position::start(Variant::Swap);
    let mut q = start.clone();
    for t in ["Qd1/d2", "Nb8/d7", "Qd2/d1", "Nd7/b8"] {
        q = play(&q, t);
    }
    assert!(q.board.same_placement(&start.board));
    let mut r = start.clone();
    for t in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        r = play(&r, t);
    }
    assert!(r.board.same_placement(&start.board));
    // An ordinary move clears the KO placement.
    let after_swap = play(&start, "Qd1/d2");
    assert!(swap::ko(&after_swap).is_some());
    assert!(swap::ko(&play(&after_swap, "e5")).is_none());
}

#[test]
fn sw10_swaps_keep_the_fifty_move_count_and_never_check_by_themselves() {
    let p = pos("4k3/8/8/8/8/8/3P4/3QK3 w - - 17 40");
    let after = play(&p, "Qd1/d2");
    assert_eq!(after.halfmove, 18);
    // Also when pawns and promotions are involved.
    let q = pos("7n/6P1/8/7p/8/8/8/k3K3 w - - 17 40");
    assert_eq!(play(&q, "g7/h8=Q").halfmove, 18);
    // After 4. Qd1/g4/g7/h8 the queen could swap on to e8's neighbours,
    // but check is given by capture powers only: Black is not in check.
    let p4 = &sample_positions()[7];
    assert!(!p4.is_check());
}

#[test]
fn sw11_swaps_cost_castling_rights_for_good() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1");
    // The rook on h1 swaps with the black rook on h8: both leave their
    // squares.
    let after = play(&p, "Rh1/h8");
    assert_eq!(after.to_text().split(' ').nth(2), Some("Qq"));
    // The king swapped away and back does not regain its rights.
    let q = pos("7k/p7/8/8/8/8/8/R3K3 w Q - 0 1");
    let away = play(&q, "Ra1/e1");
    assert!(!away.castling.white_queen);
    let back = play(&play(&away, "a6"), "Re1/a1");
    assert_eq!(
        back.board.piece_at(sq("e1")),
        Some(Piece::new(Color::White, Role::King))
    );
    assert_eq!(
        back.board.piece_at(sq("a1")),
        Some(Piece::new(Color::White, Role::Rook))
    );
    assert!(!back.castling.white_queen);
    assert!(back.parse_move("O-O-O").is_err());
    assert!(q.parse_move("O-O-O").is_ok());
}

#[test]
fn sw12_a_side_may_lack_its_king() {
    let p = pos(MATE_IN_ONE);
    assert!(p.find(Color::White, Role::King).is_empty());
    // White, without a king, is never in check.
    let q = pos("3rk3/8/8/8/8/8/8/3r4 w - - 0 1");
    assert!(!q.is_check());
    assert!(Position::from_text(Variant::Swap, "k1k5/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
}

#[test]
fn checkmate_in_crowded_positions() {
    // Mates met in random play, 26 to 29 pieces; the search proves that no
    // swap sequence escapes, and the brute force agrees.
    for text in [
        "QpkBprn1/2Qp2rp/6bp/4B3/8/PR2N1Nn/P1PKb2P/n1P1P1Rn b - - 2 19 ko=ppkBprn1/2Bp2rp/6bp/4p3/8/PP2N1Nn/R1PPb2P/P1K1P1RQ",
        "R1pNpBpB/1p4Qk/p2Qppb1/3p4/P7/P3K1P1/1n2P1NP/1PR1n1P1 b - - 2 21 ko=R1pNpQpB/1p4pk/p2Qpnb1/3p4/P7/P3P1P1/1R2P1NP/1PK1n1B1",
        "rkrNp2b/1Q2p2n/5n1P/R5PN/2PP1p2/2P3p1/p3K3/B2R1PNN b - - 0 26",
        "n1b1kN1p/2R1p1np/Pp1p3r/1b1P2p1/P2P2p1/8/3p2r1/N2PKBPP w - - 0 19",
    ] {
        let p = pos(text);
        assert!(p.board.occupied().count() >= 26);
        let o = p.outcome().unwrap();
        assert_eq!(o.reason, "checkmate", "{text}");
        assert_eq!(Brute::from(&p).perft(1), 0, "{text}");
    }
    // A crowded position in check with a long way out: the only escapes
    // take six swaps (Rb8/b7/a7/a3/h3/h7 and the like).
    let p = pos("nrnp1brk/Rpp3pQ/8/1q6/1P2B3/N6P/BPPP2K1/R1NbPPPn b - - 0 12");
    assert!(p.is_check() && p.legal_moves().is_empty());
    assert_eq!(p.outcome(), None);
    assert!(p.parse_move("Rb8/b7/a7/a3/h3/h7").is_ok());
}

// ---- notation ------------------------------------------------------------------

#[test]
fn notation_forms() {
    let p = Position::start(Variant::Swap);
    // With and without P1's start square.
    let a = p.parse_move("Qd1/d2/e2").unwrap();
    assert_eq!(p.move_text(&a), "Qd1/d2/e2");
    let b = pos("4kb1Q/8/8/2p5/3p4/8/8/4K3 w - - 0 1");
    let m = b.parse_move("Qd4/c5").unwrap();
    assert_eq!(b.move_text(&m), "Qh8/d4/c5");
    // Two pieces of the letter attack the first square: ambiguous, with
    // both candidates.
    let c = pos("4k3/8/B1n5/1p6/B7/8/8/4K3 w - - 0 1");
    match c.parse_move("Bb5/c6") {
        Err(MoveError::Ambiguous { candidates }) => {
            assert_eq!(candidates, vec!["Ba4/b5/c6+", "Ba6/b5/c6+"])
        }
        other => panic!("{other:?}"),
    }
    assert!(c.parse_move("Ba4/b5/c6").is_ok());
    // When the first square holds a piece of the letter, it is the start:
    // the rook on h1 could swap with it first, but that changes nothing
    // on the board, and the written start square decides.
    let d = pos("4k3/8/8/8/8/8/P7/R6R w - - 0 1");
    let m = d.parse_move("Ra1/a2").unwrap();
    assert_eq!(m.from(), sq("a1"));
    assert_eq!(
        d.move_text(&d.parse_move("Rh1/a1/a2").unwrap()),
        "Rh1/a1/a2"
    );
    // No piece of the letter there or attacking it.
    let (reason, _) = refused(&p, "Nd4/e5");
    assert_eq!(reason, "no white knight stands on d4 or attacks it");
    let (reason, _) = refused(&p, "e4/d5");
    assert_eq!(reason, "there is no white pawn on e4");
    // FIDE forms: SAN, long algebraic, and the page's short captures.
    for t in ["Nf3", "Ng1-f3", "e2-e4", "e4"] {
        assert!(p.parse_move(t).is_ok(), "{t}");
    }
    let positions = sample_positions();
    assert_eq!(
        positions[66].move_text(&positions[66].parse_move("R:c7+").unwrap()),
        "Rxc7+"
    );
    assert_eq!(
        positions[33].move_text(&positions[33].parse_move("h:g7").unwrap()),
        "hxg7"
    );
    // `++` reads as mate; output writes `#`.
    assert_eq!(
        positions[70].move_text(&positions[70].parse_move("Rc7:c8++").unwrap()),
        "Rxc8#"
    );
}

/// Positions whose every legal turn is printed and read back.
const ROUND_TRIP: &[&str] = &[
    MATE_IN_ONE,
    "3rk3/5Q2/1B6/8/2r5/3b4/5R2/1n6 b - - 1 1 ko=3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6",
    "p1p5/pk6/2p2p2/1PPb4/P2KP2r/3b2r1/1PQ5/R1P1P3 w - - 1 29 ko=p1p5/pk6/2p2p2/1bPb4/P2KP2r/3P2r1/1PQ5/R1P1P3",
    "4k3/8/8/8/8/2p5/8/1P1PK3 w - - 0 1",
    "r3k3/1P6/8/8/8/8/6p1/4K2R w Kq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/B1n5/1p6/B7/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/P7/R6R w - - 0 1",
    "r3k3/1P6/8/8/8/8/8/r3K3 w - - 0 1",
    "r3k3/6P1/5P2/4p3/8/3p4/2P5/r3K3 w - - 0 1",
    "nrnp1brk/Rpp3pQ/8/1q6/1P2B3/N6P/BPPP2K1/R1NbPPPn b - - 0 12",
];

#[test]
fn every_turn_prints_and_reads_back() {
    for text in ROUND_TRIP {
        let p = pos(text);
        let mut turns: Vec<Move> = p.legal_moves();
        for_each_swap(&p, &mut |s| turns.push(Move::Swap(s)));
        assert_eq!(turns.len() as u64, perft(&p, 1), "{text}");
        for m in &turns {
            let written = p.move_text(m);
            let read = p
                .parse_move(&written)
                .unwrap_or_else(|e| panic!("{text}: {written}: {e}"));
            assert_eq!(&read, m, "{text}: {written}");
            assert!(p.is_legal(m));
        }
    }
}

#[test]
fn position_text_round_trip_with_ko() {
    for p in sample_positions() {
        let text = p.to_text();
        let back = pos(&text);
        assert_eq!(back, p, "{text}");
        assert_eq!(back.to_text(), text);
    }
    assert!(Position::from_text(Variant::Swap, &format!("{MATE_IN_ONE} bogus")).is_err());
    assert!(Position::from_text(Variant::Swap, &format!("{MATE_IN_ONE} ko=8/8")).is_err());
    // A pawn may not stand on its promotion rank.
    assert!(Position::from_text(Variant::Swap, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
}

// ---- listing one step at a time ----------------------------------------------

#[test]
fn listing_swaps_step_by_step() {
    let p = pos(MATE_IN_ONE);
    let first = swap_steps(&p, None, 1000).unwrap();
    assert_eq!(first.total, first.choices.len());
    // Counts of every first step add up to all swap turns.
    assert_eq!(first.count, Some(count_swaps(&p)));
    assert_eq!(
        first.choices.iter().map(|c| c.count.unwrap()).sum::<u64>(),
        count_swaps(&p)
    );
    // Continuations of a prefix: the four promotions of the d3 pawn.
    let prefix = parse_prefix(&p, "Qb6/b1").unwrap();
    let next = swap_steps(&p, Some(&prefix), 1000).unwrap();
    let texts: Vec<&str> = next.choices.iter().map(|c| c.text.as_str()).collect();
    for t in ["Qb6/b1/d3=Q", "Qb6/b1/d3=R", "Qb6/b1/d3=B", "Qb6/b1/d3=N"] {
        assert!(texts.contains(&t), "{t} in {texts:?}");
    }
    // Deeper, and the last step that gives check ends the line.
    let prefix = parse_prefix(&p, "Qb6/b1/d3=N/c4").unwrap();
    let next = swap_steps(&p, Some(&prefix), 1000).unwrap();
    let f7 = next
        .choices
        .iter()
        .find(|c| c.text.starts_with("Qb6/b1/d3=N/c4/f7"))
        .unwrap();
    assert_eq!(f7.text, "Qb6/b1/d3=N/c4/f7+");
    assert!(f7.gives_check && f7.is_turn);
    assert_eq!(f7.count, Some(1));
    let prefix = parse_prefix(&p, "Qb6/b1/d3=N/c4/f7").unwrap();
    let e = swap_steps(&p, Some(&prefix), 10).unwrap_err().to_string();
    assert!(e.contains("SW-6"), "{e}");
    // P1 alone, and the limit.
    let q = parse_prefix(&p, "Qb6").unwrap();
    assert!(q.steps.is_empty());
    let some = swap_steps(&p, Some(&q), 2).unwrap();
    assert_eq!(some.choices.len(), 2);
    assert!(some.total > 2);
    // In the start position the queen's lines are too many to count
    // cheaply; the listing still answers at once.
    let s = Position::start(Variant::Swap);
    let st = swap_steps(&s, None, 100).unwrap();
    assert_eq!(st.total, 15);
    assert!(st
        .choices
        .iter()
        .any(|c| c.text == "Qd1/d2" && c.count.is_none()));
    assert!(st
        .choices
        .iter()
        .any(|c| c.text == "Ng1/e2" && c.count == Some(3)));
}

#[test]
fn divide_groups_swaps_by_their_first_swap() {
    let p = pos(MATE_IN_ONE);
    for depth in 1..=2 {
        let split = postal::notation::divide(&p, depth);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), perft(&p, depth));
        assert!(split.iter().any(|(m, _)| m == "Qb6/b1/*"));
    }
}

// ---- perft against the brute force -------------------------------------------

fn table() -> Vec<postal::perft::PerftCase> {
    read_table(include_str!("../fixtures/perft/swap.perft")).unwrap()
}

/// Compares every table line of at most `max_nodes` nodes with the brute
/// force.
fn compare_with_brute(min_nodes: u64, max_nodes: u64) -> usize {
    let mut compared = 0;
    for case in table() {
        let p = pos(&case.fen);
        let brute = Brute::from(&p);
        for &(depth, nodes) in &case.counts {
            if nodes <= min_nodes || nodes > max_nodes {
                continue;
            }
            assert_eq!(
                brute.perft(depth),
                nodes,
                "{} perft {depth} (brute force)",
                case.id
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn perft_table_agrees_with_brute_force() {
    assert!(compare_with_brute(0, 20_000) >= 15);
    // And the library agrees with the brute force off the table, at the
    // depths the table cannot hold.
    for text in ROUND_TRIP {
        let p = pos(text);
        assert_eq!(perft(&p, 1), Brute::from(&p).perft(1), "{text}");
    }
}

/// The table's larger lines, up to ten million nodes (a quarter of a
/// minute in a release build, far longer in a debug one):
/// `cargo test --release --test suite swap:: -- --ignored`.
#[test]
#[ignore]
fn perft_table_agrees_with_brute_force_deep() {
    assert!(compare_with_brute(20_000, 10_000_000) >= 4);
}
