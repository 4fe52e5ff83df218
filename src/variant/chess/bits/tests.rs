//! The bitboards against the published perft tables and, move list by
//! move list, against the generic rules on random games.

use super::*;
use crate::mv::Move;
use crate::variant::testing::Rng;

fn bits(fen: &str) -> Bits {
    Bits::from_position(&Position::from_text(Variant::Chess, fen).unwrap()).unwrap()
}

fn perft(b: &Bits, depth: u32) -> u64 {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut n = *b;
            n.make(m);
            perft(&n, depth - 1)
        })
        .sum()
}

/// The published perft counts (chessprogramming.org, "Perft
/// Results": the start, Kiwipete, positions 3 to 5).
#[test]
fn fi1_fi2_fi3_perft_tables() {
    let cases: &[(&str, u32, u64)] = &[
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
            197_281,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9_467,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
            62_379,
        ),
    ];
    for &(fen, depth, count) in cases {
        assert_eq!(perft(&bits(fen), depth), count, "{fen}");
    }
    // Gardner minichess, fixtures/perft/gardner.perft (GA-1..GA-4).
    let start = Bits::from_position(&Position::start(Variant::Gardner)).unwrap();
    for (depth, count) in [(1, 7), (2, 53), (3, 506), (4, 4775), (5, 52512)] {
        assert_eq!(perft(&start, depth), count, "Gardner perft {depth}");
    }
}

/// Random games played by both: at every ply the same legal moves, the
/// same check, the same dead-position verdict, the same `find` answer
/// for every move's kind and square, and the same position after it.
#[test]
fn fi3_same_moves_as_the_generic_rules() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for g in 0..60 {
        let variant = if g % 3 == 2 {
            Variant::Gardner
        } else {
            Variant::Chess
        };
        let mut pos = Position::start(variant);
        for _ in 0..200 {
            let b = Bits::from_position(&pos).expect("a chess position");
            let mut fast = Vec::new();
            b.legal_moves(&mut fast);
            let generic = pos.legal_moves();
            let mut named: Vec<Move> = fast.iter().map(|m| Move::Piece(b.piece_move(m))).collect();
            let mut expected = generic.clone();
            let key = |m: &Move| format!("{m:?}");
            named.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(named, expected, "{}", pos.to_text());
            assert_eq!(b.in_check(), pos.is_check(), "{}", pos.to_text());
            assert_eq!(b.has_legal_move(), !generic.is_empty());
            if variant == Variant::Chess {
                assert_eq!(b.is_dead(), super::super::is_dead(&pos));
            }
            if generic.is_empty() || pos.outcome().is_some() {
                break;
            }
            for m in &fast {
                let answer = if m.kind == Kind::Castle {
                    b.castle(m.to < m.from)
                } else {
                    let promo = m.promotion;
                    b.find(m.role, m.to, Some(square(m.from).file), None, promo)
                };
                assert!(answer != Found::None, "{m:?} in {}", pos.to_text());
            }
            let k = rng.below(fast.len());
            let mut next = b;
            next.make(&fast[k]);
            pos = pos.play(&Move::Piece(b.piece_move(&fast[k]))).unwrap();
            let mut written = pos.clone();
            next.write_into(&mut written);
            assert_eq!(written, pos, "after {:?}", fast[k]);
            assert_eq!(Bits::from_position(&pos), Some(next));
        }
    }
}

#[test]
fn only_fide_chess_on_the_whole_board() {
    assert!(Bits::from_position(&Position::start(Variant::Building)).is_none());
    assert!(Bits::from_position(&Position::start(Variant::Kristensen)).is_none());
    assert!(Bits::from_position(&Position::start(Variant::Chess)).is_some());
}

#[test]
fn fi2_promotion_must_be_named_and_ambiguity_found() {
    // The pawn on b7 promotes: four moves onto b8, one per piece.
    let b = bits("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let to = index(Square::new(2, 8)).unwrap();
    assert_eq!(b.find(Role::Pawn, to, None, None, None), Found::Many);
    assert!(matches!(
        b.find(Role::Pawn, to, None, None, Some(Role::Knight)),
        Found::One(m, _) if m.promotion == Some(Role::Knight)
    ));
    assert_eq!(
        b.find(Role::Pawn, to, None, None, Some(Role::King)),
        Found::None
    );
    // Two knights reach d2: ambiguous unless the file is named.
    let b = bits("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let d2 = index(Square::new(4, 2)).unwrap();
    assert_eq!(b.find(Role::Knight, d2, None, None, None), Found::Many);
    assert!(matches!(
        b.find(Role::Knight, d2, Some(2), None, None),
        Found::One(m, _) if m.from == index(Square::new(2, 1)).unwrap()
    ));
    // A knight pinned to its king does not count.
    let b = bits("4k3/8/8/8/8/8/8/rN2KN2 w - - 0 1");
    assert!(matches!(
        b.find(Role::Knight, d2, None, None, None),
        Found::One(..)
    ));
}

/// The bitboards' perft, its last turn counted without a list
/// (`count.rs`), against the shared generator's perft in place, the
/// general path: on every position of random games from the start
/// positions, the published tables' positions and a few with pins along
/// a rank through an en passant capture, the count of legal moves is
/// the length of the list and perft 2 (3 at every tenth ply) is the
/// shared generator's.
#[test]
fn fi3_counted_as_the_shared_generator_counts() {
    let starts = [
        (
            Variant::Chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (Variant::Gardner, "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"),
        (
            Variant::Chess,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        (
            Variant::Chess,
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ),
        (
            Variant::Chess,
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ),
        (Variant::Chess, "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2"),
        (Variant::Chess, "8/8/8/8/k1pP3R/8/8/4K3 b - d3 0 1"),
        (Variant::Gardner, "k4/2P2/5/1p2r/K3R w - - 0 1"),
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    for g in 0..45 {
        let (variant, fen) = starts[g % starts.len()];
        let mut pos = Position::from_text(variant, fen).unwrap();
        for ply in 0..120 {
            let b = Bits::from_position(&pos).expect("a chess position");
            let mut moves = Vec::new();
            b.legal_moves(&mut moves);
            assert_eq!(b.count_legal(), moves.len() as u64, "{}", pos.to_text());
            let depth = if ply % 10 == 0 { 3 } else { 2 };
            let general = crate::perft::perft_in_place(&super::super::Chess, &pos, depth);
            assert_eq!(
                b.perft(depth),
                general,
                "perft {depth} of {}",
                pos.to_text()
            );
            checked += 1;
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos = pos.play(&Move::Piece(b.piece_move(&m))).unwrap();
        }
    }
    assert!(checked > 2_000, "only {checked} positions");
}
