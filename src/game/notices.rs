//! Who hears of each act, and the record of what was mailed.
//!
//! - **Acts, numbered.** Every act of a game has a number in the order it
//!   was made ([`Game::acts`]): 0 is the start, then each move (taken back
//!   or not) and each event. A take-back moves moves out of `moves` but
//!   never loses one, so the numbers of earlier acts never change.
//! - **Recipients** ([`Game::recipients`]): a move goes to the player now
//!   to move; a draw offer or take-back request to the player who must
//!   answer; an acceptance or refusal of a take-back, or a refused draw,
//!   to the player who asked; a leave to both players; a claim, a resignation, an agreed draw, a
//!   move that ends the game (mate, prison, disintegration, repetition,
//!   ...) and the start of the game to both players.
//! - **The notices record** (`notices` in the state file, optional, oldest
//!   first): each notice mailed, with its `Message-ID`, its recipients
//!   (side and address), the acts it reports and when it was sent. The
//!   acts after the last notice's are the ones not yet mailed
//!   ([`Game::unmailed`]); the record's ids are the `References` chain of
//!   the next notice.
//! - **The game id** ([`Game::id`]): random, stored at `new`. A file
//!   written before ids existed gets one derived from what never changes
//!   in it (creation time, variant, start, players), so both players'
//!   copies agree on it; it is written into the file with the first notice.

use super::file::{side_name, Act, GameFile};
use super::state::Game;
use super::GameError;
use crate::color::Color;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// `n` random bytes from the operating system, as lowercase hex.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh game id: 12 hex digits from the OS random source.
pub fn new_game_id() -> String {
    random_hex(6)
}

/// FNV-1a, 64 bits: stable across versions and machines.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The id of a file that has none: a hash of the fields fixed at `new`.
pub fn derived_game_id(file: &GameFile) -> String {
    let players = serde_json::to_string(&file.players).unwrap_or_default();
    let key = format!(
        "{}\n{}\n{}\n{}",
        file.created.to_rfc3339(),
        file.variant,
        file.start,
        players
    );
    format!("{:012x}", fnv1a(key.as_bytes()) & 0xffff_ffff_ffff)
}

/// Refuses a game id that is not a plain token (1 to 64 letters,
/// digits or `-`): it comes from a mailed file and names files and
/// threads.
pub fn check_game_id(id: &str) -> Result<(), GameError> {
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err(GameError::Corrupt(format!(
            "the game id {id:?} is not 1 to 64 letters, digits or -"
        )));
    }
    Ok(())
}

/// One recipient of a notice, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Addressee {
    #[serde(with = "side_name")]
    pub side: Color,
    pub address: String,
}

/// A notice that was mailed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticeRecord {
    /// The `Message-ID`, angle brackets included.
    pub message_id: String,
    pub to: Vec<Addressee>,
    /// The number of the last act it reports ([`Game::acts`]).
    pub act: usize,
    /// The number of the first act it reports, when it reports several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_act: Option<usize>,
    /// When it was sent.
    pub time: DateTime<Utc>,
    /// The notice this one repeats (`postal mail --resend`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resend_of: Option<String>,
}

impl NoticeRecord {
    /// The numbers of the acts it reports.
    pub fn acts(&self) -> RangeInclusive<usize> {
        self.first_act.unwrap_or(self.act).min(self.act)..=self.act
    }
}

/// An act of the game, by where the file keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActRef {
    /// The game's creation.
    Start,
    /// `moves[i]`, on the board.
    Move(usize),
    /// A move later taken back: `retracted[index]` of the take-back
    /// accepted in `events[event]`.
    Retracted { event: usize, index: usize },
    /// `events[i]`.
    Event(usize),
}

/// Why a player receives a notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The game begins.
    Start,
    /// The recipient is now to move.
    ToMove,
    /// The recipient must answer an offer or request.
    MustAnswer,
    /// The recipient asked, and this is the answer.
    Answered,
    /// The game is over.
    GameOver,
    /// The recipient is told of an act that asks nothing of them (a
    /// leave).
    Told,
}

/// A recipient of the notice of an act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipient {
    pub side: Color,
    pub reason: Reason,
}

fn both(reason: Reason) -> Vec<Recipient> {
    Color::ALL
        .iter()
        .map(|&side| Recipient { side, reason })
        .collect()
}

fn one(side: Color, reason: Reason) -> Vec<Recipient> {
    vec![Recipient { side, reason }]
}

impl Game {
    /// The game's id: the stored one, or the one derived from the file.
    pub fn id(&self) -> String {
        self.file()
            .id
            .clone()
            .unwrap_or_else(|| derived_game_id(self.file()))
    }

    /// The notices mailed, oldest first.
    pub fn notices(&self) -> &[NoticeRecord] {
        &self.file().notices
    }

    /// Every act in the order made; `acts()[n]` is act number `n`, and
    /// `acts()[0]` the start. Rebuilt from the file by walking the events
    /// backwards: the moves on the board after an event were made after
    /// it, and a take-back puts back the moves it retracted.
    pub fn acts(&self) -> Vec<ActRef> {
        let file = self.file();
        let mut board: Vec<ActRef> = (0..file.moves.len()).map(ActRef::Move).collect();
        let mut rev = Vec::new();
        for (k, e) in file.events.iter().enumerate().rev() {
            while board.len() > e.ply {
                rev.push(board.pop().expect("longer than ply"));
            }
            rev.push(ActRef::Event(k));
            if let Act::TakebackAccept { retracted } = &e.act {
                board.extend(
                    (0..retracted.len()).map(|index| ActRef::Retracted { event: k, index }),
                );
            }
        }
        while let Some(m) = board.pop() {
            rev.push(m);
        }
        rev.push(ActRef::Start);
        rev.reverse();
        rev
    }

    /// The number of the latest act (0 for a game with none yet).
    pub fn last_act(&self) -> usize {
        self.file().moves.len()
            + self.file().events.len()
            + self
                .file()
                .events
                .iter()
                .map(|e| match &e.act {
                    Act::TakebackAccept { retracted } => retracted.len(),
                    _ => 0,
                })
                .sum::<usize>()
    }

    /// The side that made an act (`None` for the start).
    pub fn actor(&self, act: ActRef) -> Option<Color> {
        match act {
            ActRef::Start => None,
            ActRef::Move(i) => Some(self.turn_at(i)),
            ActRef::Retracted { event, index } => {
                // The retracted moves followed ply `e.ply`; sides alternate.
                let ply = self.events()[event].ply.saturating_add(index);
                let first = self.turn_at(0);
                Some(if ply.is_multiple_of(2) { first } else { !first })
            }
            ActRef::Event(i) => Some(self.events()[i].side),
        }
    }

    /// Who receives the notice of an act, and why.
    pub fn recipients(&self, act: ActRef) -> Vec<Recipient> {
        match act {
            ActRef::Start => both(Reason::Start),
            ActRef::Move(i) => {
                let mover = self.turn_at(i);
                let last = i + 1 == self.moves().len();
                if last && self.automatic_ending().is_some() {
                    both(Reason::GameOver)
                } else {
                    one(!mover, Reason::ToMove)
                }
            }
            ActRef::Retracted { .. } => {
                let mover = self.actor(act).expect("a move has a side");
                one(!mover, Reason::ToMove)
            }
            ActRef::Event(i) => {
                let e = &self.events()[i];
                match e.act {
                    Act::DrawOffer | Act::TakebackRequest => one(!e.side, Reason::MustAnswer),
                    Act::DrawDecline | Act::TakebackAccept { .. } | Act::TakebackDecline => {
                        one(!e.side, Reason::Answered)
                    }
                    Act::DrawAccept
                    | Act::Resign
                    | Act::Claim { .. }
                    | Act::Adjudicate { .. }
                    | Act::Abort { .. } => both(Reason::GameOver),
                    Act::Extend { .. } => one(e.side, Reason::ToMove),
                    Act::Leave { .. } => both(Reason::Told),
                }
            }
        }
    }

    /// The sides that receive a notice of the acts `acts`: White first.
    pub fn recipients_of(&self, acts: RangeInclusive<usize>) -> Vec<Color> {
        let all = self.acts();
        let mut sides: Vec<Color> = acts
            .filter_map(|n| all.get(n))
            .flat_map(|&a| self.recipients(a))
            .map(|r| r.side)
            .collect();
        sides.sort();
        sides.dedup();
        sides
    }

    /// The acts not yet reported by a notice: those after the last
    /// notice's (all of them, the start included, when none was sent).
    /// `None` when every act has been mailed.
    pub fn unmailed(&self) -> Option<RangeInclusive<usize>> {
        let first = match self.notices().last() {
            Some(n) => n.act + 1,
            None => 0,
        };
        (first <= self.last_act()).then(|| first..=self.last_act())
    }

    /// Adds a notice to the record, fixing the game id in the file.
    pub fn record_notice(&mut self, notice: NoticeRecord) {
        let id = self.id();
        let file = self.file_mut();
        file.id = Some(id);
        file.notices.push(notice);
    }

    /// Refuses a record that could not have been written: an id that is
    /// not a plain token, a Message-ID that could break a header, acts
    /// out of order or beyond the game's.
    pub(super) fn check_notices(&self) -> Result<(), GameError> {
        let file = self.file();
        if let Some(id) = &file.id {
            check_game_id(id)?;
        }
        let last = self.last_act();
        let mut prev: Option<usize> = None;
        for (i, n) in file.notices.iter().enumerate() {
            let bad = |why: String| GameError::Corrupt(format!("notice {}: {why}", i + 1));
            if !is_message_id(&n.message_id) {
                return Err(bad(format!(
                    "{:?} is not a Message-ID (<left@right>, printable ASCII)",
                    n.message_id
                )));
            }
            if n.act > last {
                return Err(bad(format!(
                    "it reports act {}, but the game has {last} acts",
                    n.act
                )));
            }
            if prev.is_some_and(|p| n.act < p) {
                return Err(bad("it reports an act before the previous notice's".into()));
            }
            prev = Some(n.act);
        }
        Ok(())
    }
}

/// A Message-ID as postal writes them: `<left@right>`, at most 250 bytes
/// of printable ASCII with no space, `<`, `>` or second `@`.
pub fn is_message_id(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) else {
        return false;
    };
    s.len() <= 250
        && inner
            .bytes()
            .all(|b| (0x21..0x7f).contains(&b) && !b"<>\"\\()[],;:".contains(&b))
        && inner
            .split_once('@')
            .is_some_and(|(l, r)| !l.is_empty() && !r.is_empty() && !r.contains('@'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::parse_time;
    use crate::game::state::{Claim, Players, Proposal};
    use crate::position::Position;
    use crate::variant::Variant;

    fn t() -> DateTime<Utc> {
        parse_time("2025-01-02T00:00:00Z").unwrap()
    }

    fn sides(g: &Game, n: usize) -> Vec<Color> {
        g.recipients(g.acts()[n]).iter().map(|r| r.side).collect()
    }

    #[test]
    fn acts_are_numbered_in_order_through_takebacks() {
        let mut g = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            t(),
        )
        .unwrap();
        use Color::{Black, White};
        assert_eq!(sides(&g, 0), vec![White, Black]);
        g.play("e4", None, t()).unwrap(); // 1
        assert_eq!(sides(&g, 1), vec![Black]);
        g.draw(Proposal::Make, None, t()).unwrap(); // 2: Black offers
        assert_eq!(sides(&g, 2), vec![White]);
        g.draw(Proposal::Decline, None, t()).unwrap(); // 3: White declines
        assert_eq!(sides(&g, 3), vec![Black]);
        g.play("e5", None, t()).unwrap(); // 4
        g.play("Nf3", None, t()).unwrap(); // 5
        g.takeback(Proposal::Make, None, t()).unwrap(); // 6: Black asks
        assert_eq!(sides(&g, 6), vec![White]);
        g.takeback(Proposal::Accept, None, t()).unwrap(); // 7: White agrees
        assert_eq!(sides(&g, 7), vec![Black]);
        g.play("c5", None, t()).unwrap(); // 8
        let acts = g.acts();
        assert_eq!(
            acts,
            vec![
                ActRef::Start,
                ActRef::Move(0),
                ActRef::Event(0),
                ActRef::Event(1),
                ActRef::Retracted { event: 3, index: 0 },
                ActRef::Retracted { event: 3, index: 1 },
                ActRef::Event(2),
                ActRef::Event(3),
                ActRef::Move(1),
            ]
        );
        assert_eq!(g.last_act(), 8);
        assert_eq!(g.actor(acts[4]), Some(Black));
        assert_eq!(g.actor(acts[5]), Some(White));
        assert_eq!(sides(&g, 5), vec![Black]);
        assert_eq!(g.unmailed(), Some(0..=8));
        g.record_notice(NoticeRecord {
            message_id: "<a@b>".into(),
            to: vec![],
            act: 8,
            first_act: None,
            time: t(),
            resend_of: None,
        });
        assert_eq!(g.unmailed(), None);
        g.resign(None, t()).unwrap(); // 9: White resigns
        assert_eq!(sides(&g, 9), vec![White, Black]);
        assert_eq!(g.unmailed(), Some(9..=9));
        let back = Game::from_json(&g.to_json()).unwrap();
        assert_eq!(back.notices().len(), 1);
        assert_eq!(back.id(), g.id());
    }

    #[test]
    fn a_claim_and_a_mate_go_to_both() {
        let mut g = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            t(),
        )
        .unwrap();
        for m in ["f3", "e5", "g4", "Qh4#"] {
            g.play(m, None, t()).unwrap();
        }
        assert_eq!(sides(&g, 4), vec![Color::White, Color::Black]);
        assert_eq!(sides(&g, 3), vec![Color::Black]);
        let _ = Claim::Time;
    }

    #[test]
    fn ids_and_hostile_records() {
        let g = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            t(),
        )
        .unwrap();
        let h = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            t(),
        )
        .unwrap();
        assert_ne!(g.id(), h.id(), "random at new");
        assert_eq!(g.id().len(), 12);
        // Without an id: derived, the same on every load.
        let json = g.to_json().replace(&format!("\"id\": \"{}\",", g.id()), "");
        let a = Game::from_json(&json).unwrap();
        assert_eq!(a.id(), Game::from_json(&json).unwrap().id());
        assert_eq!(a.id(), derived_game_id(a.file()));
        let bad = g.to_json().replace(
            &format!("\"id\": \"{}\"", g.id()),
            "\"id\": \"x\\r\\nBcc: eve\"",
        );
        assert!(Game::from_json(&bad).is_err());
        for id in ["<a@b>", "<postal.1.2@example.org>"] {
            assert!(is_message_id(id), "{id}");
        }
        for id in [
            "a@b",
            "<a b@c>",
            "<a@b>\r\nBcc: x",
            "<@b>",
            "<a@>",
            "<a@b@c>",
        ] {
            assert!(!is_message_id(id), "{id}");
        }
    }
}
