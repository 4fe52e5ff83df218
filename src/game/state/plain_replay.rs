//! The bitboard replay of chess and Gardner's minichess ([`plain_ply`])
//! against the generic one: the same game, or the same error, from every
//! file, whatever was played and however the file was altered.

use super::*;
use crate::game::clock::parse_time;
use crate::mv::MovePattern;
use crate::notation::san::write_long;
use crate::variant::testing::Rng;

fn t(minute: usize) -> DateTime<Utc> {
    parse_time("2025-01-01T00:00:00Z").unwrap() + chrono::Duration::minutes(minute as i64)
}

/// Both replays of `text`: their debug texts, which must be equal.
fn both(text: &str) -> (String, String) {
    let load = |plain| match serde_json::from_str::<GameFile>(text) {
        Ok(file) => format!("{:?}", Game::from_file_with(file, plain)),
        Err(e) => format!("unreadable {e}"),
    };
    (load(true), load(false))
}

/// The two debug texts equal, or where they first differ.
fn same(plain: &str, generic: &str, what: &str) {
    if plain != generic {
        let at = plain
            .bytes()
            .zip(generic.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let near = |s: &str| {
            s.get(at.saturating_sub(80)..(at + 80).min(s.len()))
                .unwrap_or(s)
                .to_string()
        };
        panic!(
            "{what}: the plain replay gives ...{}... where the generic one gives ...{}...",
            near(plain),
            near(generic)
        );
    }
}

/// A random game from `start`, each move typed in one of the ways
/// players type them: canonical with or without its mark, long.
fn random_game(start: Position, rng: &mut Rng, plies: usize) -> Game {
    let mut g = Game::new(start, Players::default(), None, t(0)).unwrap();
    for i in 0..plies {
        if g.result().is_some() {
            break;
        }
        let pos = g.current().clone();
        let moves = pos.legal_moves();
        let mv = &moves[rng.below(moves.len())];
        let text = match rng.below(4) {
            0 => write_long(&pos, mv),
            1 => dialect(pos.variant).write_move(&pos, mv),
            _ => pos.move_text(mv),
        };
        g.play(&text, None, t(i + 1)).unwrap();
    }
    g
}

/// Alterations of one move record's texts, each of which the replay
/// must refuse or read exactly as the generic one does.
fn altered(m: &MoveRecord, k: usize) -> (String, String) {
    let (p, c) = (m.played.clone(), m.canonical.clone());
    let bare = c.trim_end_matches(['+', '#']).to_string();
    match k {
        0 => (p, format!("{bare}+")),
        1 => (p, format!("{bare}#")),
        2 => (p, bare.clone()),
        3 => (bare.clone(), format!("{c}!")),
        4 => (p, c.replacen('x', "", 1)),
        5 => (p, c.replace("O-O", "0-0")),
        // A piece letter repeated as a file or a rank: over-disambiguated.
        6 => {
            let mut s = c.clone();
            if s.len() > 3 && s.as_bytes()[0].is_ascii_uppercase() {
                s.insert(1, (b'a' + (s.len() % 5) as u8) as char);
            }
            (s.clone(), s)
        }
        7 => {
            let mut s = c.clone();
            if s.len() > 3 && s.as_bytes()[0].is_ascii_uppercase() {
                s.insert(1, (b'1' + (s.len() % 5) as u8) as char);
            }
            (p, s)
        }
        8 => (format!("{c}+"), c),
        9 => (c.to_lowercase(), c),
        10 => (p, format!(" {c}")),
        11 => (p, c.replace("=Q", "Q")),
        _ => ("e4".into(), "e4".into()),
    }
}

#[test]
fn plain_replay_is_the_generic_one() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut refused = 0;
    for n in 0..48 {
        let variant = if n % 3 == 2 {
            Variant::Gardner
        } else {
            Variant::Chess
        };
        let plies = 40 + rng.below(160);
        let g = random_game(Position::start(variant), &mut rng, plies);
        let text = g.to_json();
        let (plain, generic) = both(&text);
        same(&plain, &generic, &format!("game {n}"));
        assert!(plain.starts_with("Ok"), "game {n}: {plain}");
        for _ in 0..6 {
            let mut file: GameFile = serde_json::from_str(&text).unwrap();
            let i = rng.below(file.moves.len());
            let (p, c) = altered(&file.moves[i], rng.below(13));
            (file.moves[i].played, file.moves[i].canonical) = (p, c);
            let text = serde_json::to_string(&file).unwrap();
            let (plain, generic) = both(&text);
            same(&plain, &generic, &format!("game {n}, move {}", i + 1));
            refused += plain.starts_with("Err") as usize;
        }
    }
    assert!(refused > 100, "{refused}");
}

/// A move recorded after the end is refused the same way by both: after
/// a dead position, seventy-five moves and fivefold repetition (FI-5).
#[test]
fn plain_replay_refuses_a_move_after_the_end_fi_5() {
    let fivefold = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(4);
    let cases: [(&str, &[&str]); 3] = [
        ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", &["Kxd2"]),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 148 80", &["Kf1", "Kf8"]),
        (crate::variant::chess::SPEC.start, &fivefold),
    ];
    for (fen, moves) in cases {
        let start = Position::from_text(Variant::Chess, fen).unwrap();
        let mut g = Game::new(start, Players::default(), None, t(0)).unwrap();
        for (i, m) in moves.iter().enumerate() {
            g.play(m, None, t(i + 1)).unwrap();
        }
        assert!(g.result().is_some(), "{fen}");
        let (plain, generic) = both(&g.to_json());
        same(&plain, &generic, fen);
        assert!(plain.starts_with("Ok"), "{fen}: {plain}");
        let mut file = g.file().clone();
        let last = g.current();
        let mv = last.legal_moves().into_iter().next().unwrap();
        let text = last.move_text(&mv);
        file.result = None;
        file.moves.push(MoveRecord {
            played: text.clone(),
            canonical: text,
            time: t(99),
            comment: None,
            via: None,
            conditional: false,
        });
        let (plain, generic) = both(&serde_json::to_string(&file).unwrap());
        same(&plain, &generic, fen);
        assert!(plain.contains("after the game had ended"), "{fen}: {plain}");
    }
}

/// The canonical text written on the fast line is the generic one, for
/// every legal move along random games.
#[test]
fn write_fast_writes_the_canonical_text() {
    let mut rng = Rng(7);
    for n in 0..30 {
        let variant = if n % 3 == 2 {
            Variant::Gardner
        } else {
            Variant::Chess
        };
        let mut pos = Position::start(variant);
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let line = pos.fast_line().unwrap();
            let mut text = String::new();
            for mv in &moves {
                let Move::Piece(pm) = mv else { unreachable!() };
                let named = |from_file, from_rank| match pm.kind {
                    crate::mv::MoveKind::Castle { .. } => MovePattern::Castle {
                        long: pm.to.file < pm.from.file,
                    },
                    _ => MovePattern::Piece {
                        role: pm.role,
                        to: pm.to,
                        from_file,
                        from_rank,
                        promotion: pm.promotion,
                    },
                };
                let by_origin = named(Some(pm.from.file), Some(pm.from.rank));
                let Some((fm, after)) = line.play(&by_origin).or_else(|| {
                    // A pawn named by both coordinates is a coordinate
                    // move, which the fast line leaves to the general path.
                    line.play(&named(Some(pm.from.file), None))
                }) else {
                    panic!("{pm:?} in {}", pos.to_text())
                };
                text.clear();
                write_fast(&line, &fm, &after, false, &mut text);
                assert_eq!(text, pos.move_text(mv), "{}", pos.to_text());
                // Known to be alone of its kind onto its square: the same.
                if line.names_one(&named(None, None)) {
                    text.clear();
                    write_fast(&line, &fm, &after, true, &mut text);
                    assert_eq!(text, pos.move_text(mv), "{}", pos.to_text());
                }
            }
            pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
}
