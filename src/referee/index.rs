//! `index.json`: a derived summary of every game in the folder (players,
//! who is to move, the deadline, the result), so that listing games and
//! sweeping deadlines need not load thousands of game files. The game
//! files stay the record: each row keeps the file's size and modification
//! time, and a refresh reloads exactly the files whose size or time
//! changed (one `stat` a game), adds new ones and drops vanished ones. A
//! missing or unreadable index is rebuilt.

use super::folder::load_game;
use super::letter::epoch;
use super::{Referee, RefereeError};
use crate::color::Color;
use crate::game::store::write_atomic;
use crate::game::Game;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::time::UNIX_EPOCH;

/// One game's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub variant: String,
    pub white: String,
    pub black: String,
    pub white_email: String,
    pub black_email: String,
    /// "white" or "black"; the side to move while the game goes on.
    pub turn: String,
    pub plies: usize,
    /// Moves as players count them (a move is both sides' turns).
    #[serde(default)]
    pub moves: usize,
    pub epoch: usize,
    #[serde(default)]
    pub deadline: Option<DateTime<Utc>>,
    #[serde(default)]
    pub result: Option<String>,
    /// The tournament the game belongs to, and its round there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    pub size: u64,
    pub mtime_ns: u128,
}

impl Row {
    pub fn of(game: &Game, size: u64, mtime_ns: u128) -> Row {
        let p = &game.file().players;
        Row {
            variant: game.variant().name().to_string(),
            white: p.white.short(Color::White),
            black: p.black.short(Color::Black),
            white_email: p.white.email.clone().unwrap_or_default().to_lowercase(),
            black_email: p.black.email.clone().unwrap_or_default().to_lowercase(),
            turn: game.turn().name().to_lowercase(),
            plies: game.moves().len(),
            moves: super::letter::moves_played(game),
            epoch: epoch(game),
            deadline: game.result().is_none().then(|| game.deadline()).flatten(),
            result: game.result().map(|e| e.to_string()),
            tournament: super::tournament::of_game(game).map(|(n, _)| n),
            round: super::tournament::of_game(game).map(|(_, r)| r),
            size,
            mtime_ns,
        }
    }

    /// The address of the side to move, while the game goes on.
    pub fn to_move_email(&self) -> Option<&str> {
        if self.result.is_some() {
            return None;
        }
        Some(if self.turn == "white" {
            &self.white_email
        } else {
            &self.black_email
        })
    }
}

/// The whole index: game id to row.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Index {
    pub games: BTreeMap<String, Row>,
}

/// Brings the index up to date with the game files and saves it when it
/// changed. Games that cannot be read are left out (and named in the
/// second value).
pub fn refresh(r: &Referee) -> Result<(Index, Vec<String>), RefereeError> {
    let path = r.dir.join("index.json");
    let mut index: Index = fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let games = r.games_dir();
    let mut present = BTreeMap::new();
    let entries = fs::read_dir(&games).map_err(|e| RefereeError::io(games.display(), e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(gid) = name.strip_suffix(".json") else {
            continue;
        };
        if gid.starts_with('.') {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        present.insert(gid.to_string(), (meta.len(), mtime));
    }
    let mut changed = false;
    let mut broken = Vec::new();
    index.games.retain(|gid, _| {
        let keep = present.contains_key(gid);
        changed |= !keep;
        keep
    });
    for (gid, (size, mtime)) in present {
        let fresh = index.games.get(&gid).is_some_and(|row| {
            // A row written before `moves` was kept is read again.
            row.size == size && row.mtime_ns == mtime && (row.moves > 0 || row.plies == 0)
        });
        if fresh {
            continue;
        }
        match load_game(&r.game_path(&gid)) {
            Ok(g) => {
                index.games.insert(gid, Row::of(&g, size, mtime));
            }
            Err(e) => {
                index.games.remove(&gid);
                broken.push(format!("{gid}: {e}"));
            }
        }
        changed = true;
    }
    if changed {
        let text = serde_json::to_vec(&index).map_err(|e| RefereeError::Io(e.to_string()))?;
        write_atomic(&path, &text)?;
    }
    Ok((index, broken))
}
