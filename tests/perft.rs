//! Every perft table line in `fixtures/perft/` whose count fits the node
//! limit is checked here (FI-6 and each variant's table); deeper lines run
//! in the benchmark and in the ignored test `every_table_line_deep`
//! (`cargo test --release --test suite perft:: -- --ignored`). The shared
//! generator's shortcuts (the king-safety filter that tests only some
//! moves, playing moves in place) are checked against the plain way of
//! doing the same thing.

use postal::movegen::{CellMove, KingSafety, Unmake};
use postal::perft::InPlace;
use postal::perft::{perft, perft_by_copy, read_table};
use postal::variant::disintegration::Disintegration;
use postal::variant::kristensen::Kristensen;
use postal::{Move, Position, Role, Variant};

/// Keeps `cargo test` quick in a debug build.
const NODE_LIMIT: u64 = 300_000;

/// Variants with a perft table.
const TABLES: [Variant; 7] = [
    Variant::Chess,
    Variant::Gardner,
    Variant::Swap,
    Variant::Disintegration,
    Variant::Kristensen,
    Variant::Building,
    Variant::Corral,
];

fn table_positions(variant: Variant) -> Vec<(String, Position)> {
    let path = format!(
        "{}/fixtures/perft/{}.perft",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_table(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_iter()
        .map(|c| {
            let pos = Position::from_text(variant, &c.fen)
                .unwrap_or_else(|e| panic!("{path} {}: {e}", c.id));
            (c.id, pos)
        })
        .collect()
}

fn check_table(variant: Variant) {
    check_table_to(variant, NODE_LIMIT);
}

fn check_table_to(variant: Variant, limit: u64) {
    let path = format!(
        "{}/fixtures/perft/{}.perft",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_table(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} has no positions");
    let mut checked = 0;
    for case in cases {
        let pos = Position::from_text(variant, &case.fen)
            .unwrap_or_else(|e| panic!("{path} {}: {e}", case.id));
        for (&(depth, nodes), line) in case.counts.iter().zip(&case.lines) {
            if nodes > limit {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{path}:{line}: {} perft {depth}",
                case.id
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "{path}: no line within the node limit");
}

#[test]
fn fi6_chess_perft_table() {
    check_table(Variant::Chess);
}

#[test]
fn ga_gardner_perft_table() {
    check_table(Variant::Gardner);
}

#[test]
fn di_disintegration_perft_table() {
    check_table(Variant::Disintegration);
}

#[test]
fn kr_kristensen_perft_table() {
    check_table(Variant::Kristensen);
}

#[test]
fn building_perft_table() {
    check_table(Variant::Building);
}

#[test]
fn corral_perft_table() {
    check_table(Variant::Corral);
}

#[test]
fn sw_swap_perft_table() {
    check_table(Variant::Swap);
}

/// Every line of every table up to 50 million nodes (or the limit in
/// `POSTAL_PERFT_NODES`): for a release build.
#[test]
#[ignore]
fn every_table_line_deep() {
    let limit = std::env::var("POSTAL_PERFT_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(50_000_000);
    for variant in TABLES {
        check_table_to(variant, limit);
    }
}

/// The moves of `pos` after which no king of the mover is attacked, found
/// by playing each pseudo-legal move on a copy (FI-3 as written).
fn brute_force_legal(pos: &Position) -> Vec<Move> {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    if pos.find(pos.turn, Role::King).is_empty() {
        return pseudo;
    }
    pseudo
        .into_iter()
        .filter(|m| !pos.play_unchecked(m).king_attacked(pos.turn))
        .collect()
}

/// How a variant plays a cell move in place: [`Position::make`] and its
/// [`InPlace::after`].
type Play<'a> = &'a dyn Fn(&mut Position, &CellMove) -> Unmake;

fn play_in_place<V: InPlace>(variant: V) -> impl Fn(&mut Position, &CellMove) -> Unmake {
    move |pos, m| {
        let mut undo = pos.make(m);
        variant.after(pos, m, &mut undo);
        undo
    }
}

/// Walks the tree below `pos` for `depth` turns, checking at every node
/// the king-safety filter against the brute-force one (for variants with
/// king safety) and that making a move in place and unmaking it gives the
/// positions the copying way gives.
fn cross_check(pos: &Position, depth: u32, king_safety: bool, play: Play) {
    let legal = pos.legal_moves();
    let mut cells = Vec::new();
    if king_safety {
        assert_eq!(legal, brute_force_legal(pos), "{}", pos.to_text());
        pos.for_each_legal(&mut KingSafety::default(), |m| cells.push(m));
    } else if !legal.is_empty() {
        // (No moves at all once the variant's rules end the game.)
        pos.for_each_pseudo(|m| cells.push(m));
    }
    assert_eq!(cells.len(), legal.len());
    let mut work = pos.clone();
    for (m, c) in legal.iter().zip(&cells) {
        let Move::Piece(pm) = m else { unreachable!() };
        assert_eq!(&pos.piece_move(c), pm);
        assert_eq!(pos.cell_move(pm).as_ref(), Some(c));
        let next = pos.play_unchecked(m);
        let undo = play(&mut work, c);
        assert_eq!(work, next, "{} then {}", pos.to_text(), pos.move_text(m));
        work.unmake(undo);
        assert_eq!(&work, pos);
        if depth > 1 {
            cross_check(&next, depth - 1, king_safety, play);
        }
    }
}

#[test]
fn king_safety_filter_and_make_unmake_match_the_plain_way() {
    let make = |pos: &mut Position, m: &CellMove| pos.make(m);
    let kristensen = play_in_place(Kristensen);
    let disintegration = play_in_place(Disintegration);
    let cases: [(Variant, u32, bool, Play); 4] = [
        (Variant::Chess, 3, true, &make),
        (Variant::Gardner, 4, true, &make),
        (Variant::Kristensen, 3, true, &kristensen),
        (Variant::Disintegration, 4, false, &disintegration),
    ];
    for (variant, depth, king_safety, play) in cases {
        for (_, pos) in table_positions(variant) {
            cross_check(&pos, depth, king_safety, play);
        }
    }
}

#[test]
fn perft_in_place_matches_perft_by_copy() {
    for variant in [
        Variant::Chess,
        Variant::Gardner,
        Variant::Kristensen,
        Variant::Disintegration,
    ] {
        let rules = variant.rules();
        for (id, pos) in table_positions(variant) {
            for depth in 0..=2 {
                assert_eq!(
                    perft(&pos, depth),
                    perft_by_copy(rules, &pos, depth),
                    "{variant} {id} perft {depth}"
                );
            }
        }
    }
}
