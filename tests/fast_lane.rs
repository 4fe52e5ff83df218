//! The record verifier's FIDE chess fast lane (`record/lane.rs`, bitboards)
//! against the generic rules alone (`Options::generic_only`): on random
//! games written as PGN and as published text, each with the faults and
//! forms a real record has (wrong and missing check marks, wrong move
//! numbers, illegal, ambiguous and unreadable moves, coordinates,
//! variations, comments, glyphs, castling with zeros, promotions without a
//! piece, a start from a position, right and wrong results, mates), every
//! game must come out the same: the same issues at the same places, the
//! same final position, outcome, result and plies (FI-1..FI-5).

use crate::playout::{random_game, Rng};
use postal::record::game::Options;
use postal::record::verify::{read, Format};
use postal::{Move, Position, Variant};

/// Every game of a record, as its full debug text, read with or without
/// the fast lane.
fn games(text: &str, format: Format, generic_only: bool) -> Vec<String> {
    let opts = Options {
        generic_only,
        ..Options::default()
    };
    let mut out = Vec::new();
    let res = read(
        "t.pgn",
        text.as_bytes(),
        Some(format),
        &opts,
        &mut |g, _| out.push(format!("{g:?}")),
    );
    out.push(format!("{res:?}"));
    out
}

fn same_both_ways(text: &str, format: Format) {
    let fast = games(text, format, false);
    let generic = games(text, format, true);
    assert_eq!(fast.len(), generic.len(), "{text}");
    for (f, g) in fast.iter().zip(&generic) {
        assert_eq!(f, g, "in the record:\n{text}");
    }
}

/// A random chess game with random faults, as movetext and the number of
/// moves it has.
fn faulty_game(rng: &mut Rng, start: &Position) -> String {
    let moves = random_game(start, 20 + rng.below(120), rng);
    let mut pos = start.clone();
    let mut text = String::new();
    let mut before: Vec<Position> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let number = pos.fullmove;
        let black = pos.turn == postal::Color::Black;
        if !black || i == 0 {
            let n = if rng.below(40) == 0 {
                number + 1
            } else {
                number
            };
            text.push_str(&format!("{n}{} ", if black { "..." } else { "." }));
        }
        let mut san = pos.move_text(mv);
        match rng.below(60) {
            0 => san = san.trim_end_matches(['+', '#']).to_string(),
            1 => san.push('+'),
            2 => san = san.replace('#', "++"),
            3 => san = "Qh5".into(),
            4 => san = "Zz9".into(),
            5 if san.len() == 4 && san.starts_with(['N', 'R']) => {
                // The file or rank that told two pieces apart, dropped.
                san.remove(1);
            }
            6 => {
                if let Move::Piece(m) = mv {
                    san = format!("{}{}", m.from, m.to).to_lowercase();
                }
            }
            7 => san = san.replace("O-O", "0-0"),
            8 => san = san.replace("=Q", "").replace("=N", ""),
            9 => san.push_str(if rng.below(2) == 0 { "!" } else { "?!" }),
            10 => san.push_str(" $1"),
            11 => san.push_str(" {a comment}"),
            _ => {}
        }
        text.push_str(&san);
        text.push(' ');
        before.push(pos.clone());
        pos = pos.play(mv).expect("a random move is legal");
        // A variation: another move from the position before this one, and
        // a move or two after it.
        if rng.below(25) == 0 {
            let back = before.last().expect("a move was played").clone();
            let alt = random_game(&back, 1 + rng.below(3), rng);
            let mut p = back.clone();
            text.push('(');
            for m in &alt {
                text.push_str(&p.move_text(m));
                text.push(' ');
                p = p.play(m).expect("legal");
            }
            text.push_str(") ");
        }
    }
    let result = match pos.outcome() {
        Some(o) if rng.below(4) != 0 => o.result.as_str(),
        _ => ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4)],
    };
    text.push_str(result);
    text
}

#[test]
fn fi1_fi5_fast_lane_reports_as_the_generic_rules_do() {
    let mut rng = Rng::new(19);
    let start = Position::start(Variant::Chess);
    let mut pgn = String::new();
    for g in 0..60 {
        // Some games from a position reached by random moves.
        let (tags, from) = if g % 5 == 4 {
            let moves = random_game(&start, 10 + rng.below(30), &mut rng);
            let mut p = start.clone();
            for m in &moves {
                p = p.play(m).expect("legal");
            }
            if p.outcome().is_some() {
                (String::new(), start.clone())
            } else {
                (format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", p.to_text()), p)
            }
        } else {
            (String::new(), start.clone())
        };
        let movetext = faulty_game(&mut rng, &from);
        let record = format!("[Event \"game {g}\"]\n{tags}\n{movetext}\n\n");
        same_both_ways(&record, Format::Pgn);
        if tags.is_empty() {
            same_both_ways(&format!("A game.\n\n{movetext}\n"), Format::Published);
        }
        pgn.push_str(&record);
    }
    // All at once: the lane's pooled state carried from game to game.
    same_both_ways(&pgn, Format::Pgn);
}

#[test]
fn ga1_ga4_gardner_in_the_fast_lane_as_in_the_generic_rules() {
    let mut rng = Rng::new(5);
    let start = Position::start(Variant::Gardner);
    let mut pgn = String::new();
    for g in 0..60 {
        let movetext = faulty_game(&mut rng, &start);
        let record = format!("[Event \"game {g}\"]\n[Variant \"gardner\"]\n\n{movetext}\n\n");
        same_both_ways(&record, Format::Pgn);
        pgn.push_str(&record);
    }
    same_both_ways(&pgn, Format::Pgn);
    // Castling and a double step do not exist in Gardner minichess (GA-2).
    same_both_ways("[Variant \"gardner\"]\n\n1. a3 O-O 2. b4 *\n", Format::Pgn);
}

#[test]
fn fi4_mates_stalemates_and_wrong_marks_alike() {
    for text in [
        "1. f3 e5 2. g4 Qh4# 0-1",
        "1. f3 e5 2. g4 Qh4+ 0-1",
        "1. f3 e5 2. g4 Qh4 0-1",
        "1. f3 e5 2. g4 Qh4# 1-0",
        "1. f3 e5 2. g4 Qh4# Nc3 0-1",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7++ 1-0",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 O-O 1/2-1/2",
        "1. e4 d5 2. exd5 c6 3. dxc6 Qb6 4. cxb7 Qc6 5. bxa8=Q Qxc2 6. Qxb8 *",
        "1. e4 d5 2. exd5 c6 3. dxc6 Qb6 4. cxb7 Qc6 5. bxa8 *",
        "1. e4 f5 2. e5 d5 3. exd6 *",
        "1. e4 f5 2. e5 d5 3. exd6 e.p. *",
        "1. d4 e5 2. d5 c5 3. dxc6 Nf6 4. cxb7 Ke7 5. bxa8=N *",
        "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1... Kh7 1/2-1/2",
        "[FEN \"7k/8/5Q2/6K1/8/8/8/8 w - - 0 1\"]\n\n1. Qf7 1/2-1/2",
        "[FEN \"7k/8/5Q2/6K1/8/8/8/8 w - - 149 80\"]\n\n80. Qf7 Kh7 1/2-1/2",
        "[FEN \"8/8/4k3/8/8/3K4/8/8 w - - 0 1\"]\n\n1. Kd4 1/2-1/2",
        "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O 2. Rf7 Rh1+ *",
        "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. Ra2 Kd8 2. O-O-O *",
    ] {
        let record = if text.starts_with('[') {
            format!("[SetUp \"1\"]\n{text}\n")
        } else {
            format!("[Event \"x\"]\n\n{text}\n")
        };
        same_both_ways(&record, Format::Pgn);
    }
}

/// The fast lane is taken for FIDE chess: verifying a record and loading a
/// game file play their plain moves through it
/// (`notation::plain::play_plain`), so a change that silently sends chess
/// down the general path (correct, and several times slower) fails here.
/// The count only grows, so other tests running at once cannot hide a
/// lane that is not taken.
#[test]
fn the_lane_is_taken_for_chess() {
    use postal::notation::plain::fast_plies;
    let start = Position::start(Variant::Chess);
    let mut rng = Rng::new(41);
    let moves = random_game(&start, 120, &mut rng);
    let mut pos = start.clone();
    let mut movetext = String::new();
    let t = chrono::DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let mut game = postal::game::Game::new(start.clone(), Default::default(), None, t).unwrap();
    for mv in &moves {
        let text = pos.move_text(mv);
        movetext.push_str(&format!(
            "{} {text} ",
            postal::notation::movetext::move_number(&pos)
        ));
        game.play(&text, None, t).unwrap();
        pos = pos.play_unchecked(mv);
    }
    let plies = moves.len() as u64;

    let before = fast_plies();
    let read = games(&format!("{movetext}*\n"), Format::Pgn, false);
    assert!(read.len() >= 2, "{read:?}");
    assert!(
        fast_plies() - before >= plies,
        "verifying a chess record of {plies} plies took the fast lane for {}",
        fast_plies() - before
    );

    let json = game.to_json();
    let before = fast_plies();
    postal::game::Game::from_json(&json).unwrap();
    assert!(
        fast_plies() - before >= plies,
        "loading a chess game of {plies} plies took the fast lane for {}",
        fast_plies() - before
    );
}
