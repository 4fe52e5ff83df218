//! A tournament's standing by mail: in the letters of a game that ends,
//! to every player at a result (`standings = "on-result"`) or once a week
//! (`"weekly"`, from `referee sweep`).

use super::{of_game, report, table, Standings, Tournament};
use crate::color::Color;
use crate::game::Game;
use crate::referee::letter::{self, Letter};
use crate::referee::{spool, Referee, RefereeError};
use chrono::{DateTime, Utc};

/// The standing, for a letter: the text cross-table under a heading.
pub(super) fn standing_text(table: &table::Table) -> String {
    format!(
        "The tournament {} now:\n\n{}",
        table.name,
        report::text(table)
    )
}

/// When `game` (the game `gid`, about to be saved with the result just
/// recorded) belongs to a tournament: the standing is added to its
/// players' `letters`, and with `standings = "on-result"` every other
/// player of the tournament gets a letter with the cross-table, prepared
/// under `stem` (so released with the game's letters). A tournament that
/// cannot be read changes nothing: the game's own letters go as they are.
pub fn on_result(
    r: &Referee,
    gid: &str,
    game: &Game,
    letters: &mut [Letter],
    stem: &str,
    now: DateTime<Utc>,
) -> Result<(), RefereeError> {
    if game.result().is_none() {
        return Ok(());
    }
    let Some((name, _)) = of_game(game) else {
        return Ok(());
    };
    let Ok(t) = Tournament::open(r, &name) else {
        return Ok(());
    };
    let (index, _) = crate::referee::index::refresh(r)?;
    let ending = game.result().map(|e| e.result.clone()).unwrap_or_default();
    let table = table::Table::compute(&t, |id| {
        if id == gid {
            Some(table::result_of(&ending))
        } else {
            index
                .games
                .get(id)
                .and_then(|row| row.result.as_deref().map(table::result_of))
        }
    });
    let text = standing_text(&table);
    for l in letters.iter_mut() {
        l.text.push_str(&format!("\n{text}"));
    }
    // A withdrawal's forfeits are told at once, by the withdrawal.
    if t.settings.standings != Standings::OnResult || t.record.forfeited(gid) {
        return Ok(());
    }
    let Some(g) = t.record.games.iter().find(|g| g.id == gid) else {
        return Ok(());
    };
    let p = &game.file().players;
    let subject = format!(
        "[postal] Tournament {}: {} v {}, {}",
        t.record.name,
        p.white.short(Color::White),
        p.black.short(Color::Black),
        ending
    );
    for n in 1..=t.record.players.len() {
        if n == g.white || n == g.black || t.record.withdrawal(n).is_some() {
            continue;
        }
        let seat = t.record.seat(n);
        let body = format!(
            "A game of the tournament {} has ended: {} v {}, {}.\n\n{text}",
            t.record.name,
            p.white.short(Color::White),
            p.black.short(Color::Black),
            game.result().map(|e| e.to_string()).unwrap_or_default(),
        );
        let name = format!("{stem}-t{n}");
        let bytes = letter::compose_circular(
            r,
            &format!("{} <{}>", seat.name, seat.email),
            &subject,
            &name,
            &body,
            now,
        )
        .map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::prepare(r, &name, &bytes)?;
    }
    Ok(())
}

/// With `standings = "weekly"`: the cross-table to every player of each
/// tournament going on, once in each ISO week (the letters' names carry
/// the week, so a sweep run twice sends them once). The letters sent.
pub fn weekly(r: &Referee, now: DateTime<Utc>) -> Result<usize, RefereeError> {
    use chrono::Datelike;
    let week = now.iso_week();
    let mut sent = 0;
    for name in Tournament::names(r) {
        let Ok(t) = Tournament::open(r, &name) else {
            continue;
        };
        if t.settings.standings != Standings::Weekly {
            continue;
        }
        let table = t.table(r)?;
        if table.finished() {
            continue;
        }
        let text = standing_text(&table);
        for n in 1..=t.record.players.len() {
            if t.record.withdrawal(n).is_some() {
                continue;
            }
            let lname = format!(
                "tournament-{name}-week-{}w{:02}-{n}",
                week.year(),
                week.week()
            );
            if spool::exists(r, &lname) {
                continue;
            }
            let seat = t.record.seat(n);
            let bytes = letter::compose_circular(
                r,
                &format!("{} <{}>", seat.name, seat.email),
                &format!("[postal] Tournament {name}: the standing this week"),
                &lname,
                &text,
                now,
            )
            .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::put(r, &lname, &bytes)?;
            sent += 1;
        }
    }
    Ok(sent)
}
