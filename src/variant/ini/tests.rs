use super::*;
use crate::movegen::CellMove;
use def::KindSet;

/// The first definition of `text`, which must load whole.
pub(super) fn first(text: &str) -> Def {
    let loaded = load(text, "test.ini");
    if let Some(r) = loaded.refused.first() {
        panic!("{}", r.with_caret());
    }
    loaded.defs[0].clone()
}

/// The legal moves of `fen`, in UCI form, sorted.
pub(super) fn moves(def: &Def, fen: &str) -> Vec<String> {
    let pos = Pos::from_fen(def, fen).unwrap();
    let mut out: Vec<String> = gen::legal_moves(def, &pos)
        .iter()
        .map(|m| pos.uci(def, m))
        .collect();
    out.sort();
    out
}

fn one(text: &str, name: &str) -> Def {
    let loaded = load(text, "test.ini");
    if let Some(r) = loaded.refused.first() {
        panic!("{}", r.with_caret());
    }
    loaded.find(name).expect("loaded").clone()
}

#[test]
fn chess_from_the_ini_counts_fide_perft() {
    let def = one("[c:chess]\n", "c");
    let start = def.start();
    assert_eq!(start.to_fen(&def), def.start_fen);
    // Perft figures of the FIDE start position (chessprogramming wiki).
    assert_eq!(gen::perft(&def, &start, 3), 8902);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = Pos::from_fen(&def, kiwipete).unwrap();
    assert_eq!(pos.to_fen(&def), kiwipete);
    assert_eq!(gen::perft(&def, &pos, 2), 2039);
    // Position 3 of the same page: en passant and discovered checks.
    let p3 = Pos::from_fen(&def, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
    assert_eq!(gen::perft(&def, &p3, 4), 43238);
}

#[test]
fn a_section_with_an_unknown_key_is_refused_with_its_place() {
    let text = "[a:chess]\nmaxFile = 10\n  gating = true\n[b:a]\n[c:chess]\nfoo = 1\n";
    let loaded = load(text, "v.ini");
    assert!(loaded.defs.is_empty(), "{:?}", loaded.defs);
    let r = &loaded.refused[0];
    assert_eq!((r.line, r.col, r.key.as_str()), (3, 12, "gating"));
    assert!(r.why.contains("gating"), "{}", r.why);
    assert!(loaded.refused[1].why.contains("parent `a` was refused"));
    assert_eq!(loaded.refused[2].key, "foo");
    assert_eq!(
        r.with_caret(),
        format!(
            "v.ini:3:12: variant `a` refused: gating: {}\n  |\n3 |   gating = true\n  | {}^",
            r.why,
            " ".repeat(11)
        )
    );
}

#[test]
fn betza_letters_outside_the_supported_forms_are_refused() {
    let loaded = load("[a:chess]\ncustomPiece1 = x:mNcixK\n", "v.ini");
    let r = &loaded.refused[0];
    assert_eq!((r.line, r.col), (2, 22));
    assert!(r.why.contains("`x`"), "{}", r.why);
}

#[test]
fn pseudo_royal_pieces_with_blast_immune_pieces_are_refused() {
    // Fairy-Stockfish's safety test of a pseudo-royal piece lets an
    // explosion take immune pieces too, unlike its explosions.
    let immune = "[b:atomic]\nblastImmuneTypes = n\n";
    let r = &load(immune, "v.ini").refused[0];
    // (At the header: the parent `atomic` sets the key.)
    assert_eq!((r.line, r.key.as_str()), (1, "[b]"), "{r:?}");
    assert!(
        r.why
            .contains("extinctionPseudoRoyal: pseudo-royal pieces with blast-immune"),
        "{}",
        r.why
    );
    // Castling pseudo-royal kings and explosions are played.
    assert!(load("[c:atomic]\n", "v.ini").refused.is_empty());
}

#[test]
fn a_section_without_a_parent_promotes_and_castles_by_default() {
    // Fairy-Stockfish's defaults name piece types: the queen, rook,
    // bishop and knight for promotions, the rook for castling, those the
    // section has, whatever order it defines them in.
    let text = "[p]\nking = k\nknight = n\nrook = r\npawn = p\nstartFen = 4k3/P7/8/8/8/8/8/R3K3 w Q - 0 1\n";
    let def = one(text, "p");
    let names = |s: &KindSet| -> Vec<&str> {
        s.kinds
            .iter()
            .map(|&k| def.kinds[k].name.as_str())
            .collect()
    };
    assert_eq!(names(&def.promotion_types[0]), ["rook", "knight"]);
    assert_eq!(names(&def.castling_rooks[1]), ["rook"]);
    let moves: Vec<String> = gen::legal_moves(&def, &def.start())
        .iter()
        .map(|m| def.start().uci(&def, m))
        .collect();
    for m in ["a7a8r", "a7a8n", "e1c1"] {
        assert!(moves.iter().any(|x| x == m), "{m} not in {moves:?}");
    }
}

#[test]
fn pieces_in_hand_count_against_extinction() {
    // Antichess with drops: White, with nothing on the board but a queen
    // in hand, has not lost every piece (Fairy-Stockfish's
    // count_with_hand); it drops the queen.
    let def = one(
        "[h:giveaway]\npieceDrops = true\ncapturesToHand = true\ncastling = false\n",
        "h",
    );
    let pos = Pos::from_fen(&def, "8/8/p7/6n1/8/8/8/8[Qn] w - - 0 71").unwrap();
    assert_eq!(end::immediate_end(&def, &pos), None);
    assert_eq!(gen::legal_moves(&def, &pos).len(), 62);
}

/// Calls `visit` with each position of `games` random games of at most
/// `plies` plies of every definition of the agreement file that `pick`
/// selects; returns how many it picked.
fn in_random_games(
    pick: impl Fn(&Def) -> bool,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Def, &Pos),
) -> usize {
    use crate::variant::testing::Rng;
    let text = include_str!("../../../tests/pyffish/variants.ini");
    let loaded = load(text, "variants.ini");
    let mut picked = 0;
    for def in loaded.defs.iter().filter(|d| pick(d)) {
        picked += 1;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ def.name.len() as u64);
        for _game in 0..games {
            let mut pos = def.start();
            for _ply in 0..plies {
                visit(def, &pos);
                let moves = gen::legal_moves(def, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = gen::play(def, &pos, &moves[rng.below(moves.len())]);
            }
        }
    }
    picked
}

/// Asserts two lists hold the same moves, in any order.
fn same_moves(def: &Def, pos: &Pos, mut a: Vec<CellMove>, mut b: Vec<CellMove>) {
    let key = |m: &CellMove| format!("{m:?}");
    a.sort_by_key(key);
    b.sort_by_key(key);
    assert_eq!(a, b, "{}: {}", def.name, pos.to_fen(def));
}

/// The shared king-safety filter ([`crate::movegen::KingSafety`]), which
/// judges a move without playing it, keeps exactly the moves the general
/// path keeps by playing each one, in random games of every definition of
/// the agreement file it can judge.
#[test]
fn the_shared_king_safety_filter_agrees_with_playing_each_move() {
    let mut positions = 0;
    let judged = in_random_games(
        |d| d.shared.safety,
        6,
        100,
        |def, pos| {
            let slow = gen::legal_moves_by_playing(def, pos);
            same_moves(def, pos, gen::legal_moves(def, pos), slow);
            positions += 1;
        },
    );
    assert!(judged >= 50, "only {judged} definitions have safety tables");
    assert!(positions > 10_000, "{positions}");
}

/// The shared ray walk ([`crate::movegen::walk_rays`]), which moves the
/// pieces of a definition with tables, lists the moves the engine's own
/// walk over the Betza maps lists, in random games of every such
/// definition of the agreement file; and a piece whose rays overlap
/// (`WR`) has each of its moves listed once.
#[test]
fn the_shared_ray_walk_moves_as_the_betza_maps_do() {
    let mut positions = 0;
    let walked = in_random_games(
        |d| d.shared.moves,
        4,
        100,
        |def, pos| {
            let mut general = def.clone();
            general.shared.moves = false;
            let slow = gen::legal_moves(&general, pos);
            same_moves(def, pos, gen::legal_moves(def, pos), slow);
            positions += 1;
        },
    );
    assert!(
        walked >= 100,
        "only {walked} definitions walk the shared rays"
    );
    assert!(positions > 10_000, "{positions}");
    let overlap = one(
        "[wr:chess]\ncustomPiece1 = a:WR\nstartFen = 4k3/8/8/8/8/8/8/A3K3 w - - 0 1\n",
        "wr",
    );
    let wr = overlap.kinds.iter().position(|k| k.letter == 'A').unwrap();
    assert!(overlap.shared.moves && overlap.shared.overlaps(wr));
    let mut moves: Vec<String> = gen::legal_moves(&overlap, &overlap.start())
        .iter()
        .map(|m| format!("{m:?}"))
        .collect();
    let all = moves.len();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), all);
    // The rook's ten, the king's five.
    assert_eq!(all, 15);
}

/// The shared attack test on a definition's tables says of every square
/// what the walk back along [`Def::attacks`] says, for both sides, in
/// random games of every definition of the agreement file where it answers.
#[test]
fn the_shared_attack_test_agrees_with_the_walk_back() {
    let mut squares = 0;
    in_random_games(
        |d| d.shared.attacks,
        3,
        60,
        |def, pos| {
            for sq in 0..pos.square_count() {
                for by in 0..2 {
                    assert_eq!(
                        gen::attacked(def, pos, sq, by),
                        gen::attacked_by_walking(def, pos, sq, by),
                        "{}: {} {} by {by}",
                        def.name,
                        pos.to_fen(def),
                        pos.square_name(sq)
                    );
                    squares += 1;
                }
            }
        },
    );
    assert!(squares > 500_000, "{squares}");
}

#[test]
fn a_mobility_region_bounds_where_a_piece_goes_and_what_it_attacks() {
    let def = one(
        "[m:chess]\nmobilityRegionWhiteKnight = *1 *2 *3 *4\n\
         mobilityRegionBlackKing = d8 e8 f8\ncastling = false\n",
        "m",
    );
    // The knight on d4 would check e6 and go to c6 or e6: neither is in
    // its region.
    let pos = Pos::from_fen(&def, "8/8/8/4k3/3N4/8/8/4K3 b - - 0 1").unwrap();
    assert!(!gen::in_check(&def, &pos));
    let mut knight: Vec<String> = moves(&def, "8/8/8/4k3/3N4/8/8/4K3 w - - 0 1");
    knight.retain(|m| m.starts_with("d4"));
    assert_eq!(knight, ["d4b3", "d4c2", "d4e2", "d4f3"]);
    // Black's king keeps to d8, e8 and f8.
    let king = Pos::from_fen(&def, "4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    let mut moves: Vec<String> = gen::legal_moves(&def, &king)
        .iter()
        .map(|m| king.uci(&def, m))
        .collect();
    moves.sort();
    assert_eq!(moves, ["e8d8", "e8f8"]);
}

#[test]
fn opposite_castling_takes_the_other_sides_right_on_that_wing() {
    let def = one("[oc:chess]\noppositeCastling = true\n", "oc");
    let pos = Pos::from_fen(&def, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let castle = gen::parse_uci(&def, &pos, "e1g1").unwrap();
    let after = gen::play(&def, &pos, &castle);
    // As pyffish writes it: Black keeps only its queenside right.
    assert_eq!(after.to_fen(&def), "r3k2r/8/8/8/8/8/8/R4RK1 b q - 1 1");
    let ucis: Vec<String> = gen::legal_moves(&def, &after)
        .iter()
        .map(|m| after.uci(&def, m))
        .collect();
    assert!(ucis.contains(&"e8c8".to_string()) && !ucis.contains(&"e8g8".to_string()));
}
