//! Every promise a variant's rules declare in their `Capability` (the
//! faster paths callers may take) agrees with the general `Rules` methods
//! it stands for, and `Rules::outcome` told that a legal move exists
//! agrees with it asked in full: in every variant, on positions of random
//! games (FI-3, FI-4, FI-5, GA-4, SW-12, BU-8, CO-9, CO-11, CO-14, DI-13,
//! KR-8, KR-9).

use crate::playout::{random_game, Rng};
use postal::mv::MovePattern;
use postal::perft::{perft, perft_by_copy};
use postal::{Move, Position, Variant};

/// The positions of a few random games of `variant`, the start first.
fn positions(variant: Variant, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(variant.built_in_index().unwrap_or_default() as u64 + 7);
    let mut out = Vec::new();
    for _ in 0..games {
        let start = Position::start(variant);
        let mut pos = start.clone();
        out.push(pos.clone());
        for m in random_game(&start, plies, &mut rng) {
            pos = pos.play_unchecked(&m);
            out.push(pos.clone());
        }
    }
    out
}

fn sorted(mut moves: Vec<Move>) -> Vec<String> {
    let mut texts: Vec<String> = moves.drain(..).map(|m| format!("{m:?}")).collect();
    texts.sort();
    texts
}

/// `outcome(pos, true)`, for a position with a legal move, is
/// `outcome(pos, false)`; also with the seventy-five moves run out.
#[test]
fn outcome_with_a_move_known_is_the_outcome() {
    for variant in Variant::ALL {
        let rules = variant.rules();
        for pos in positions(variant, 4, 80) {
            if !rules.has_legal_move(&pos) {
                continue;
            }
            let mut late = pos.clone();
            late.halfmove = 150;
            for p in [&pos, &late] {
                assert_eq!(
                    rules.outcome(p, true),
                    rules.outcome(p, false),
                    "{variant} {}",
                    p.to_text()
                );
            }
        }
    }
}

/// `shared_moves`: the turns are the shared generator's legal moves; a
/// move is legal exactly when the generator says so; there is a legal
/// move exactly when the list is not empty.
#[test]
fn shared_moves_are_the_legal_moves() {
    let mut declared = Vec::new();
    for variant in Variant::ALL {
        let rules = variant.rules();
        if !rules.capability().shared_moves {
            continue;
        }
        declared.push(variant);
        for pos in positions(variant, 3, 80) {
            let legal = rules.legal_moves(&pos);
            let mut shared = Vec::new();
            pos.legal_piece_moves(&mut shared);
            assert_eq!(sorted(legal.clone()), sorted(shared), "{}", pos.to_text());
            assert_eq!(rules.has_legal_move(&pos), !legal.is_empty());
            let mut pseudo = Vec::new();
            pos.pseudo_moves(&mut pseudo);
            for m in &pseudo {
                assert_eq!(
                    rules.check_legal(&pos, m).is_ok(),
                    legal.contains(m),
                    "{m:?} in {}",
                    pos.to_text()
                );
            }
        }
    }
    assert!(
        !declared.is_empty(),
        "no variant declares `shared_moves`: this test checks nothing"
    );
}

/// `fide_captures`: `may_capture` says yes exactly to an enemy piece.
#[test]
fn fide_captures_are_may_capture() {
    let mut declared = Vec::new();
    for variant in Variant::ALL {
        let rules = variant.rules();
        if !rules.capability().fide_captures {
            continue;
        }
        declared.push(variant);
        for pos in positions(variant, 3, 60) {
            let board = &pos.board;
            let occupied: Vec<usize> = board
                .cells_of(pos.turn)
                .chain(board.cells_of(!pos.turn))
                .collect();
            for from in board.cells_of(pos.turn) {
                for role in board.cell(from).roles().iter_in(&postal::piece::MOVE_ORDER) {
                    for &to in &occupied {
                        assert_eq!(
                            rules.may_capture(&pos, role, from, to),
                            board.cell(to).color() != pos.turn,
                            "{variant} {}",
                            pos.to_text()
                        );
                    }
                }
            }
        }
    }
    assert!(
        !declared.is_empty(),
        "no variant declares `fide_captures`: this test checks nothing"
    );
}

/// `perft`: the variant's own counter gives what playing every listed
/// turn on a copy gives. (Swap Chess's turns include the swap sequences,
/// which `legal_moves` does not list: its counter is checked against an
/// independent brute force in tests/swap.rs and the perft tables.)
#[test]
fn perft_counters_count_as_by_copy() {
    let mut declared = Vec::new();
    for variant in Variant::ALL {
        let rules = variant.rules();
        if rules.capability().perft.is_none() || variant == Variant::Swap {
            continue;
        }
        declared.push(variant);
        for (i, pos) in positions(variant, 2, 40).iter().enumerate() {
            let depth = if i % 10 == 0 { 2 } else { 1 };
            assert_eq!(
                perft(pos, depth),
                perft_by_copy(rules, pos, depth),
                "{variant} {} perft {depth}",
                pos.to_text()
            );
        }
    }
    assert!(
        !declared.is_empty(),
        "no variant declares `perft`: this test checks nothing"
    );
    // A defined variant's counter is its engine's (the definitions of
    // tests/pyffish/variants.ini).
    let text = std::fs::read_to_string("tests/pyffish/variants.ini").unwrap();
    for def in &postal::variant::ini::load(&text, "variants.ini").defs {
        let variant = postal::variant::defined::register(def, "variants.ini").unwrap();
        let rules = variant.rules();
        assert!(rules.capability().perft.is_some(), "{}", def.name);
        for (i, pos) in positions(variant, 1, 12).iter().enumerate() {
            let depth = if i % 4 == 0 { 2 } else { 1 };
            assert_eq!(
                perft(pos, depth),
                perft_by_copy(rules, pos, depth),
                "{} {} perft {depth}",
                def.name,
                pos.to_text()
            );
        }
    }
}

/// `fast_line`: the line decides what the general rules decide: the
/// end, the check, each legal move found by what names it, and the
/// position after it.
#[test]
fn fast_lines_play_as_the_rules() {
    let mut declared = Vec::new();
    for variant in Variant::ALL {
        let rules = variant.rules();
        if rules.capability().fast_line.is_none() {
            continue;
        }
        declared.push(variant);
        for pos in positions(variant, 4, 120) {
            let line = pos.fast_line().expect("the start's variant holds");
            assert_eq!(line.outcome(), pos.outcome(), "{}", pos.to_text());
            assert_eq!(line.check(), pos.check(), "{}", pos.to_text());
            assert_eq!(line.turn(), pos.turn);
            assert_eq!(line.fullmove(), pos.fullmove);
            let legal = rules.legal_moves(&pos);
            if !legal.is_empty() {
                assert_eq!(
                    line.ended_with_moves(),
                    rules.outcome(&pos, true).is_some(),
                    "{}",
                    pos.to_text()
                );
            }
            for mv in &legal {
                let Move::Piece(pm) = mv else {
                    unreachable!("FIDE moves")
                };
                let pattern = match pm.kind {
                    postal::MoveKind::Castle { .. } => MovePattern::Castle {
                        long: pm.to.file < pm.from.file,
                    },
                    _ => MovePattern::Piece {
                        role: pm.role,
                        to: pm.to,
                        from_file: Some(pm.from.file),
                        from_rank: (pm.role != postal::Role::Pawn).then_some(pm.from.rank),
                        promotion: pm.promotion,
                    },
                };
                let (m, after) = line.play(&pattern).expect("a legal move is found");
                assert_eq!(&Move::Piece(line.piece_move(&m)), mv);
                let mut written = pos.clone();
                after.write_into(&mut written);
                assert_eq!(written, pos.play_unchecked(mv), "{mv:?}");
            }
        }
    }
    assert!(
        !declared.is_empty(),
        "no variant declares `fast_line`: this test checks nothing"
    );
}

/// `Rules::legal_moves_to`, where a variant answers it, lists exactly the
/// legal moves of that kind onto that square, for every kind and square
/// (what SAN reads among and tells a move apart from).
#[test]
fn moves_to_a_square_are_the_legal_ones_there() {
    let mut declared = Vec::new();
    for variant in Variant::ALL {
        let rules = variant.rules();
        let start = Position::start(variant);
        if rules
            .legal_moves_to(&start, postal::Role::Pawn, postal::Square::new(1, 1))
            .is_none()
        {
            continue;
        }
        declared.push(variant);
        for pos in positions(variant, 2, 60) {
            let legal = rules.legal_moves(&pos);
            let squares: Vec<postal::Square> = pos.board.squares().collect();
            for role in postal::piece::MOVE_ORDER {
                for &to in &squares {
                    let listed = rules
                        .legal_moves_to(&pos, role, to)
                        .expect("answered for one position, answered for all");
                    let expected: Vec<Move> = legal
                        .iter()
                        .filter(|m| m.piece().is_some_and(|p| p.role == role && p.to == to))
                        .cloned()
                        .collect();
                    assert_eq!(
                        sorted(listed),
                        sorted(expected),
                        "{variant} {role:?} to {to:?} in {}",
                        pos.to_text()
                    );
                }
            }
        }
    }
    assert!(
        !declared.is_empty(),
        "no variant answers `legal_moves_to`: this test checks nothing"
    );
}
