//! A played game as a record: the `postal-game/1` file's start, moves and
//! acts as a [`record::game::Game`](crate::record::game::Game), so that
//! `verify`, `convert` and `show` treat a game file like any record.
//!
//! The PGN has the Seven Tag Roster (`Date` the day the game was
//! created, `White`/`Black` the players' names), `Variant`, `SetUp`/`FEN`
//! when the start is not the variant's, `TimeControl` in PGN's seconds
//! (`1/259200` for 3 days a move, `10/4320000` for 10 moves in 50 days,
//! `864000+86400` for 10 days plus 1 a move; a control the tag cannot say
//! in a comment before the moves), each move's comment, and the other acts (draw offers, claims,
//! take-backs, resignation) as comments where they were made.

use super::state::{Act, Game};
use crate::color::Color;
use crate::record::game::{Game as Record, PlayedMove};
use crate::record::{writer, Location};
use crate::Span;

/// The game as a record: tags, start, moves with their comments and the
/// acts as comments, and the result.
pub fn record(game: &Game) -> Record {
    let file = game.file();
    let positions = game.positions();
    let name = |side: Color| {
        let p = file.players.get(side);
        p.name
            .clone()
            .or_else(|| p.email.clone())
            .unwrap_or("?".into())
    };
    let result = file
        .result
        .as_ref()
        .map_or("*".to_string(), |e| e.result.clone());
    let mut tags = vec![
        (
            "Event".to_string(),
            format!("{} by mail", game.variant().spec().title),
        ),
        ("Site".to_string(), "?".to_string()),
        (
            "Date".to_string(),
            file.created.format("%Y.%m.%d").to_string(),
        ),
        ("Round".to_string(), "-".to_string()),
        ("White".to_string(), name(Color::White)),
        ("Black".to_string(), name(Color::Black)),
        ("Result".to_string(), result.clone()),
    ];
    // A control the tag cannot say (a cap, free hours, doubling) is said
    // in a comment before the moves.
    let mut comments = Vec::new();
    if let Some(tc) = file.time_control {
        match tc.pgn_tag() {
            Some(tag) => tags.push(("TimeControl".to_string(), tag)),
            None => comments.push(format!("Time control: {tc} ({})", tc.words())),
        }
    }
    let mut moves: Vec<PlayedMove> = file
        .moves
        .iter()
        .zip(positions)
        .filter_map(|(m, pos)| {
            let mv = pos.parse_move(&m.canonical).ok()?;
            let mut kept = PlayedMove::new(mv, m.played.clone());
            kept.after.extend(m.comment.clone());
            if m.conditional {
                kept.after
                    .push("a conditional answer, played at once".to_string());
            }
            Some(kept)
        })
        .collect();
    let mut acts: Vec<(usize, String)> = Vec::new();
    for (i, e) in file.events.iter().enumerate() {
        // Moves taken back later are not in the record: an act made after
        // them stands where the take-back left the game.
        let ply = file.events[i..]
            .iter()
            .filter(|later| matches!(later.act, Act::TakebackAccept { .. }))
            .map(|later| later.ply)
            .fold(e.ply, usize::min);
        acts.push((ply, e.describe()));
    }
    if let Some(end) = &file.result {
        acts.push((moves.len(), format!("Game over: {end}")));
    }
    for (ply, text) in acts {
        match ply.checked_sub(1).and_then(|i| moves.get_mut(i)) {
            Some(m) => m.after.push(text),
            None => comments.push(text),
        }
    }
    if let Some(first) = moves.first_mut() {
        first.before = std::mem::take(&mut comments);
    }
    let start = positions[0].clone();
    let end = game.current().clone();
    Record {
        index: 1,
        span: Span::default(),
        location: Location::default(),
        variant: game.variant(),
        tags,
        start,
        plies: moves.len(),
        moves,
        comments,
        result: Some(result),
        end,
        outcome: None,
        issues: Vec::new(),
        readable: true,
    }
}

/// The game as PGN.
pub fn pgn(game: &Game) -> String {
    writer::pgn(&record(game))
}
