//! A player's withdrawal, as ICCF scores it: every unfinished game lost
//! by forfeit, the opponents told.

use super::standing::standing_text;
use super::{config, Tournament, Withdrawal};
use crate::referee::letter;
use crate::referee::operator::{self, Decision};
use crate::referee::{spool, Referee, RefereeError};
use chrono::{DateTime, Utc};

/// What a withdrawal did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Withdrawn {
    pub name: String,
    /// The games lost by forfeit now.
    pub forfeited: Vec<String>,
    /// Their opponents, by name.
    pub opponents: Vec<String>,
}

/// Withdraws the player `address` from the tournament `name`, as ICCF
/// scores it: every unfinished game of theirs is lost by forfeit (the
/// referee's adjudication, mailed to both players of each), the
/// withdrawal written first, so that a withdrawal cut off part-way is
/// finished by running it again. Every other player is told, with the
/// standing.
pub fn withdraw(
    r: &Referee,
    name: &str,
    address: &str,
    now: DateTime<Utc>,
) -> Result<Withdrawn, RefereeError> {
    let mut t = Tournament::open(r, name)?;
    let address = address
        .rfind('<')
        .map(|i| address[i + 1..].trim_end_matches('>'))
        .unwrap_or(address)
        .trim();
    let n = t.record.seat_of(address).ok_or_else(|| {
        config(format!(
            "{address} is not a player of the tournament {name}"
        ))
    })?;
    let (index, _) = crate::referee::index::refresh(r)?;
    let unfinished: Vec<String> = t
        .record
        .games
        .iter()
        .filter(|g| g.white == n || g.black == n)
        .filter(|g| {
            index
                .games
                .get(&g.id)
                .is_none_or(|row| row.result.is_none())
        })
        .map(|g| g.id.clone())
        .collect();
    match t.record.withdrawn.iter_mut().find(|w| w.player == n) {
        Some(w) => {
            for gid in &unfinished {
                if !w.forfeited.contains(gid) {
                    w.forfeited.push(gid.clone());
                }
            }
        }
        None => t.record.withdrawn.push(Withdrawal {
            player: n,
            time: now,
            forfeited: unfinished.clone(),
        }),
    }
    t.save(r)?;
    let seat = t.record.seat(n).clone();
    for gid in &unfinished {
        let g = t
            .record
            .games
            .iter()
            .find(|g| &g.id == gid)
            .expect("listed");
        let result = if g.white == n { "0-1" } else { "1-0" };
        operator::decide(
            r,
            gid,
            &Decision::Adjudicate {
                result: result.to_string(),
                reason: format!(
                    "{} withdrew from the tournament {}: the game is lost by forfeit",
                    seat.name, t.record.name
                ),
            },
            now,
        )?;
    }
    let table = t.table(r)?;
    let text = standing_text(&table);
    for m in 1..=t.record.players.len() {
        if m == n {
            continue;
        }
        let other = t.record.seat(m);
        let lname = format!("tournament-{}-withdraw-{n}-{m}", t.record.name);
        let body = format!(
            "{} has withdrawn from the tournament {}. As ICCF scores a withdrawal,\n\
             each of their unfinished games is lost by forfeit (+/- in the table).\n\n{text}",
            seat.name, t.record.name
        );
        let bytes = letter::compose_circular(
            r,
            &format!("{} <{}>", other.name, other.email),
            &format!(
                "[postal] Tournament {}: {} withdraws",
                t.record.name, seat.name
            ),
            &lname,
            &body,
            now,
        )
        .map_err(|e| RefereeError::Io(e.to_string()))?;
        spool::put(r, &lname, &bytes)?;
    }
    let opponents = unfinished
        .iter()
        .filter_map(|gid| t.record.games.iter().find(|g| &g.id == gid))
        .map(|g| {
            t.record
                .seat(if g.white == n { g.black } else { g.white })
                .name
                .clone()
        })
        .collect();
    Ok(Withdrawn {
        name: seat.name,
        forfeited: unfinished,
        opponents,
    })
}
