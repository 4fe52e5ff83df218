//! Explosions (issue 42, point 6): `blastOnCapture`, `blastImmuneTypes`
//! and Fairy-Stockfish's `nocheckatomic` as a built-in parent. A capture
//! removes the piece taken, the piece that took and every piece but a
//! pawn on the eight squares around where the taker lands (en passant
//! too), as Fairy-Stockfish's `do_move` does; the king is a commoner and
//! losing it is extinction. That the moves agree with Fairy-Stockfish's
//! at every ply is tests/ini_agree.rs's check (the `nocheckatomic2` and
//! `blastimmune` definitions of tests/pyffish/variants.ini); the counts
//! and positions here are a native Fairy-Stockfish's (pyffish 0.0.90's
//! source, `setoption name UCI_Variant value nocheckatomic`, `go perft`,
//! `d`).

use crate::common::{defined_variant, play_moves};
use postal::variant::ini;
use postal::Position;

const ATOMIC: &str = "\
[boom:nocheckatomic]

# Atomic chess: the kings pseudo-royal (issue 42).
[atomic2:atomic]

# The kings side by side, a black pawn beside them.
[duel:nocheckatomic]
startFen = 8/8/8/3kp3/4K3/8/8/8 w - - 0 1
";

fn start_of(name: &str) -> Position {
    Position::start(defined_variant(ATOMIC, "atomic.ini", name))
}

fn start() -> Position {
    start_of("boom")
}

fn after(moves: &[&str]) -> Position {
    play_moves(&start(), moves)
}

/// Perft 5 from the start as the native engine counts it: 4,895,665
/// (perft 4: 197,779), more than chess's 4,865,609 because no move is
/// illegal for leaving the king attacked.
#[test]
fn perft_of_nocheckatomic() {
    assert_eq!(postal::perft::perft(&start(), 4), 197_779);
    assert_eq!(postal::perft::perft(&start(), 5), 4_895_665);
}

/// Fairy-Stockfish's `atomic`, `nocheckatomic` with pseudo-royal kings:
/// a king may not be left attacked nor blown up, a king touching the
/// enemy king cannot be attacked, and it may not castle through an
/// attacked square. The native engine (`UCI_Variant atomic`) counts
/// 197,326 at perft 4 from the start (4,864,979 at 5, which postal's
/// release build matches) and 88,298 at perft 3 from Kiwipete.
#[test]
fn perft_of_atomic() {
    assert_eq!(postal::perft::perft(&start_of("atomic2"), 4), 197_326);
    let kiwipete = Position::from_text(
        defined_variant(ATOMIC, "atomic.ini", "atomic2"),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    assert_eq!(postal::perft::perft(&kiwipete, 3), 88_298);
}

/// Nxf7 blows up the king on e8, the bishop on f8 and the knight on g8
/// with the knight itself; the pawns around stay, and black, its king
/// gone, has lost (Fairy-Stockfish: no moves, `rnbq3r/... b KQ - 0 3`).
#[test]
fn a_blast_takes_the_king_and_ends_the_game() {
    let pos = after(&["Nf3", "d5", "Ne5", "e6", "Nxf7"]);
    assert_eq!(
        pos.to_text(),
        "rnbq3r/ppp3pp/4p3/3p4/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3"
    );
    assert!(pos.legal_moves().is_empty());
    let end = pos.outcome().expect("the game has ended");
    assert_eq!(end.result.as_str(), "1-0");
}

/// Kxe5 blows up both kings: Fairy-Stockfish looks at the side that
/// moved first, so the mover loses (pyffish 0.0.90: empty board, value
/// 32000 for black to move).
#[test]
fn a_blast_of_both_kings_loses_for_the_mover() {
    let pos = start_of("duel");
    let mv = pos.parse_move("Kxe5").unwrap();
    let pos = pos.play(&mv).unwrap();
    assert_eq!(pos.to_text(), "8/8/8/8/8/8/8/8 b - - 0 1");
    assert_eq!(pos.outcome().expect("ended").result.as_str(), "0-1");
}

/// En passant explodes around the square the pawn lands on (e6), not
/// the one it takes on: the bishop on d7 goes, the pawn on d6 stays.
/// A blast that takes the rook on h8 takes black's short castling.
#[test]
fn en_passant_and_castling_rights_follow_the_blast() {
    let pos = after(&["d4", "d6", "d5", "Bd7", "a3", "e5", "dxe6"]);
    assert_eq!(
        pos.to_text(),
        "rn1qkbnr/ppp2ppp/3p4/8/8/P7/1PP1PPPP/RNBQKBNR b KQkq - 0 4"
    );
    assert_eq!(pos.legal_moves().len(), 28);
    let pos = after(&["Nf3", "a6", "Ng5", "a5", "Nxh7"]);
    assert_eq!(
        pos.to_text(),
        "rnbqkb2/1pppppp1/8/p7/8/8/PPPPPPPP/RNBQKB1R b KQq - 0 3"
    );
    assert_eq!(pos.legal_moves().len(), 17);
}

/// A royal king (Fairy-Stockfish warns "Can not use kings with
/// blastOnCapture") stays refused; captures to hand are played (each
/// piece a blast takes goes to the other side's hand, as in atomiczh).
#[test]
fn explosions_with_a_royal_king_are_refused_with_a_hand_played() {
    let loaded = ini::load(
        "[royal:chess]\nblastOnCapture = true\n\n[hand:crazyhouse]\ncommoner = k\ncastlingKingPiece = k\nblastOnCapture = true\n",
        "v.ini",
    );
    let whys: Vec<&str> = loaded.refused.iter().map(|r| r.why.as_str()).collect();
    assert_eq!(
        whys,
        ["explosions with a royal king are not supported (make it a commoner)"]
    );
    let hand = loaded.find("hand").expect("loaded");
    // 1. e4 d5 2. exd5: the pawn that took blows up with the one taken;
    // nothing else stands around d5. White holds the black pawn, Black
    // the white one.
    let start = hand.start();
    let mut pos = start;
    for uci in ["e2e4", "d7d5", "e4d5"] {
        let mv = ini::gen::parse_uci(hand, &pos, uci).expect(uci);
        pos = ini::gen::play(hand, &pos, &mv);
    }
    assert_eq!(
        pos.to_fen(hand),
        "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] b KQkq - 0 2"
    );
}
