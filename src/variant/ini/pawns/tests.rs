//! Pawn rules of pieces other than the pawn, each against what
//! Fairy-Stockfish 0.0.90 (pyffish) does with it: the positions and moves
//! below are pyffish's.

use super::super::tests::{first, moves};
use super::super::{gen, load, Def, Pos};

/// The position text after `moves` (UCI) from `fen`.
fn after(def: &Def, fen: &str, moves: &[&str]) -> String {
    let mut pos = Pos::from_fen(def, fen).unwrap();
    for m in moves {
        let mv = gen::parse_uci(def, &pos, m).unwrap_or_else(|| panic!("{m} in {fen}"));
        pos = gen::play(def, &pos, &mv);
    }
    pos.to_fen(def)
}

/// Fairy-Stockfish's allwayspawns with Black's pawns on c4 and f4.
const WAYS: &str = "[w:chess]\ncustomPiece1 = p:mWfceFifmnD\npawnTypes = p\n";
const WAYS_FEN: &str = "rnbqkbnr/pp1pp1pp/8/8/2p2p2/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn a_custom_pawns_double_step_leaves_two_squares_and_is_taken_en_passant() {
    let def = first(WAYS);
    let fen = after(&def, WAYS_FEN, &["e2e4"]);
    // The passed square and the pawn's own, as Fairy-Stockfish's
    // `between_bb` gives them.
    assert_eq!(
        fen,
        "rnbqkbnr/pp1pp1pp/8/8/2p1Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3e4 0 1"
    );
    let f4: Vec<String> = moves(&def, &fen)
        .into_iter()
        .filter(|m| m.starts_with("f4"))
        .collect();
    assert_eq!(f4, ["f4e3", "f4f3", "f4f5", "f4g4"]);
    // The capture takes the pawn on e4, the marked square that holds one.
    assert_eq!(
        after(&def, &fen, &["f4e3"]),
        "rnbqkbnr/pp1pp1pp/8/8/2p5/4p3/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // The position text reads back with both squares.
    assert_eq!(Pos::from_fen(&def, &fen).unwrap().to_fen(&def), fen);
}

#[test]
fn initial_moves_only_from_the_double_step_region_and_lame_as_written() {
    let def = first(WAYS);
    let fen = "rnbqkbnr/pp1pp1pp/8/8/2p2p2/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    let some: Vec<String> = moves(&def, fen)
        .into_iter()
        .filter(|m| m.starts_with("e3") || m.starts_with("d2") || m.starts_with("e2"))
        .collect();
    // No double step from e3, outside the region; none from e2 (empty)
    // and d2's over an empty d3.
    assert_eq!(
        some,
        ["d2d3", "d2d4", "d2e2", "e3d3", "e3e2", "e3e4", "e3f3", "e3f4"]
    );
    // `n`: blocked by a piece on the square passed.
    let blocked = "rnbqkbnr/pp1pp1pp/8/8/2p2p2/3p4/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(!moves(&def, blocked).contains(&"d2d4".to_string()));
}

#[test]
fn a_quiet_step_a_pawn_can_undo_keeps_the_n_move_count() {
    let def = first(WAYS);
    // The double step resets it; a step forward, which a step back
    // undoes, does not (Fairy-Stockfish's `PseudoMoves[0]` test).
    let fen = after(&def, WAYS_FEN, &["e2e4", "b7b5", "e4e5"]);
    assert!(fen.ends_with(" - 1 2"), "{fen}");
}

#[test]
fn pawns_take_a_pieces_initial_move_en_passant_and_every_double_step_counts() {
    // A wazir whose first move may jump two squares and which takes en
    // passant (`e`), beside FIDE's pawns.
    let def = first("[j:chess]\ncustomPiece1 = w:WcefFifmD\n");
    let fen = "rnbqkbnr/ppp1wppp/8/8/3p4/8/PPPWWPPP/RNBQKBNR w KQkq - 0 1";
    let jumped = after(&def, fen, &["e2e4"]);
    // The wazir is not of `nMoveRuleTypes`: the count goes on.
    assert_eq!(
        jumped,
        "rnbqkbnr/ppp1wppp/8/8/3pW3/8/PPPW1PPP/RNBQKBNR b KQkq e3e4 1 1"
    );
    let d4: Vec<String> = moves(&def, &jumped)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(d4, ["d4d3", "d4e3"]);
    assert_eq!(
        after(&def, &jumped, &["d4e3"]),
        "rnbqkbnr/ppp1wppp/8/8/8/4p3/PPPW1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // With a taker of another type, a pawn's double step leaves its
    // square though no pawn could take there.
    assert_eq!(
        after(&def, fen, &["a2a4"]),
        "rnbqkbnr/ppp1wppp/8/8/P2p4/8/1PPWWPPP/RNBQKBNR b KQkq a3 0 1"
    );
}

#[test]
fn a_custom_pawn_promotes_on_entering_or_moving_within_its_region() {
    // Fairy-Stockfish's argess pawn, its region two ranks and a square,
    // promotion optional, one queen at most.
    let def = first(
        "[s:chess]\ncustomPiece1 = p:mWcF\npawnTypes = p\ncastling = false\n\
         promotionRegionWhite = *7 *8 a6\npromotionRegionBlack = *1 *2 h3\n\
         promotionLimit = q:1\nmandatoryPawnPromotion = false\n",
    );
    let fen = "4k3/1P4P1/8/3p4/8/8/1p3Pp1/4K3 w - - 0 1";
    let b7: Vec<String> = moves(&def, fen)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(
        b7,
        [
            "b7a7", "b7a7b", "b7a7n", "b7a7q", "b7a7r", "b7b6", "b7b8", "b7b8b", "b7b8n", "b7b8q",
            "b7b8r", "b7c7", "b7c7b", "b7c7n", "b7c7q", "b7c7r"
        ]
    );
    // A promotion resets the n-move count.
    assert_eq!(
        after(&def, fen, &["b7b8q"]),
        "1Q2k3/6P1/8/3p4/8/8/1p3Pp1/4K3 b - - 0 1"
    );
    // Mandatory (Fairy-Stockfish's default): no plain move into the region.
    let def = first("[s:chess]\ncustomPiece1 = p:mWcF\npawnTypes = p\ncastling = false\n");
    assert_eq!(
        moves(&def, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        [
            "b7a7", "b7b6", "b7b8b", "b7b8n", "b7b8q", "b7b8r", "b7c7", "e1d1", "e1d2", "e1e2",
            "e1f1", "e1f2"
        ]
    );
}

#[test]
fn promotion_pawn_types_none_leaves_a_pawn_a_pawn() {
    // Fairy-Stockfish's caught-in-a-snag: `promotionPawnTypes = -`.
    let def = first(
        "[n:chess]\nmaxRank = 6\ncustomPiece1 = p:fmWfcF\npawnTypes = p\n\
         promotionPawnTypes = -\npromotionRegionWhite = *6\npromotionRegionBlack = *1\n\
         castling = false\nstartFen = 4k3/1P4P1/8/8/1p4p1/4K3 w - - 0 1\n",
    );
    let all = moves(&def, "4k3/1P4P1/8/8/1p4p1/4K3 w - - 0 1");
    assert_eq!(all, ["b5b6", "e1d1", "e1d2", "e1e2", "e1f2", "g5g6"]);
    assert_eq!(def.pawn_types.main, [None, None]);
}

/// Fairy-Stockfish's khans, its soldiers taking en passant.
const KHANS: &str = "[k:chess]\ncentaur = h\nknibis = a\nkniroo = l\ncustomPiece1 = t:mNcK\n\
    customPiece2 = s:mfhNcefF\npromotionPawnTypesBlack = s\npromotionPieceTypesBlack = t\n\
    nMoveRuleTypesBlack = s\n";

#[test]
fn pawn_rules_by_side() {
    let def = first(KHANS);
    // Black's soldier promotes to the knight-king alone.
    let all = moves(&def, "4k3/8/8/8/8/8/4s3/1K6 b - - 0 1");
    assert_eq!(
        all,
        ["e2c1t", "e2g1t", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
    // It takes White's pawns en passant, which White's own set does not
    // let White's pieces do; every double step of White's pawns leaves
    // its square, an adjacent soldier or not.
    let fen = after(&def, "4k3/8/8/8/5s2/8/4P3/4K3 w - - 0 1", &["e2e4"]);
    assert_eq!(fen, "4k3/8/8/8/4Ps2/8/8/4K3 b - e3 0 1");
    assert!(moves(&def, &fen).contains(&"f4e3".to_string()));
    assert_eq!(
        after(&def, &fen, &["f4e3"]),
        "4k3/8/8/8/8/4s3/8/4K3 w - - 0 2"
    );
    assert_eq!(
        after(&def, "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", &["a2a4"]),
        "4k3/8/8/8/P7/8/1PPPPPPP/4K3 b - a3 0 1"
    );
}

#[test]
fn n_move_rule_types_reset_the_count_for_irreversible_moves_of_their_types() {
    // For White a piece that slides forward and steps back; for Black
    // none, its pawns included.
    let def = first(
        "[c:chess]\ncustomPiece1 = l:mfRmbWcK\nnMoveRuleTypesWhite = l\n\
         nMoveRuleTypesBlack = -\n",
    );
    let fen = "rnbqklnr/pppppppp/8/8/8/8/PPPPP1PP/RNBQKLNR w KQkq - 0 1";
    // One step forward can be undone: no reset; two cannot.
    assert!(after(&def, fen, &["f1f2"]).ends_with(" - 1 1"));
    assert!(after(&def, fen, &["f1f3"]).ends_with(" - 0 1"));
    // Its step back is undone by its slide; Black's and White's pawns
    // reset nothing.
    assert!(after(&def, fen, &["f1f3", "e7e5", "f3f2"]).ends_with(" - 2 2"));
    assert!(after(&def, fen, &["e2e4"]).ends_with(" - 1 1"));
}

#[test]
fn two_en_passant_squares_on_one_file_repeat_as_none() {
    // Fairy-Stockfish keys en passant squares by file: the two of an
    // initial move cancel.
    let def = first(WAYS);
    let two = Pos::from_fen(&def, &after(&def, WAYS_FEN, &["e2e4"])).unwrap();
    let none = Pos::from_fen(
        &def,
        "rnbqkbnr/pp1pp1pp/8/8/2p1Pp2/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    )
    .unwrap();
    assert!(two.state().repeats(none.state()));
    assert!(two.repeats(&none));
    assert_eq!(two.repetition_key(), none.repetition_key());
    // One square is a key of its own.
    let one_sq = Pos::from_fen(
        &def,
        "rnbqkbnr/pp1pp1pp/8/8/2p1Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    )
    .unwrap();
    assert!(!one_sq.repeats(&none));
}

#[test]
fn betza_e_adds_en_passant_types_and_the_keys_set_whole_sets() {
    let def = first("[e:chess]\ncustomPiece1 = w:WcefF\n");
    let names = |set: &Vec<String>| set.join(" ");
    assert_eq!(names(&def.pawn_types.en_passant[0]), "pawn customPiece1");
    assert_eq!(names(&def.pawn_types.en_passant[1]), "pawn customPiece1");
    // `pawnTypes` (read after the pieces) sets every set, and the type a
    // promoted piece goes back to hand as, the last named.
    let def = first("[e:chess]\ncustomPiece1 = w:WcefF\npawnTypes = wp\n");
    for c in 0..2 {
        assert_eq!(names(&def.pawn_types.en_passant[c]), "customPiece1 pawn");
        assert_eq!(names(&def.pawn_types.promotion[c]), "customPiece1 pawn");
        assert_eq!(names(&def.pawn_types.n_move[c]), "customPiece1 pawn");
        assert_eq!(def.pawn_types.main[c].as_deref(), Some("pawn"));
    }
    // A removed pawn stays in the sets by type, as in Fairy-Stockfish.
    let def = first("[e:chess]\ncustomPiece1 = p:fmWfcF\n");
    assert_eq!(names(&def.pawn_types.promotion[0]), "pawn");
    assert_eq!(def.pawn_kinds.promotion, [0, 0]);
}

#[test]
fn a_star_or_a_letter_of_no_piece_is_refused_by_key() {
    for (text, key, why) in [
        (
            "[s:chess]\npawnTypes = *\n",
            "pawnTypes",
            "`*` names no piece type",
        ),
        (
            "[s:chess]\nenPassantTypesWhite = px\n",
            "enPassantTypesWhite",
            "`x` is not a piece",
        ),
    ] {
        let loaded = load(text, "test.ini");
        let r = &loaded.refused[0];
        assert_eq!(r.key, key);
        assert!(r.why.contains(why), "{}", r.why);
    }
}

#[test]
fn a_promotion_both_as_a_pawn_and_by_promoted_piece_type_is_refused() {
    let loaded = load(
        "[s:chess]\ncustomPiece1 = s:fW\npawnTypes = ps\npromotedPieceType = s:q\n",
        "test.ini",
    );
    assert!(
        loaded.refused[0]
            .why
            .contains("the customPiece1 promotes to the queen both"),
        "{}",
        loaded.refused[0].why
    );
}
