//! The copy of a game's state file each party may see (`impl Game`
//! continued). The file on disk holds a player's secrets: the conditional
//! moves left for the opponent's reply. Every path that sends or
//! publishes a state file (the referee's letters of every kind, `postal
//! mail`, the referee's site) makes its copy here, and only here.
//!
//! - A player's copy: the game, with that player's own conditional lines
//!   and never the opponent's.
//! - The public copy (the site, or mail that both players read): no
//!   conditional lines of either side.
//!
//! Nothing else secret lives in the file: reply tokens are derived from
//! the referee's key and never stored, and held mail stays in the
//! referee's `held/` folder.

use super::state::Game;
use crate::color::Color;

/// Who a copy of a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    /// One player: their own secrets, never the opponent's.
    Player(Color),
    /// Anyone: no player's secrets.
    Public,
}

impl Party {
    /// The party that may see what all of `sides` receive together: the
    /// one player when there is one, else the public.
    pub fn of(sides: &[Color]) -> Party {
        match sides {
            [one] => Party::Player(*one),
            [a, b] if a == b => Party::Player(*a),
            _ => Party::Public,
        }
    }

    /// Whether this party may see the secrets of `side`.
    fn sees(self, side: Color) -> bool {
        self == Party::Player(side)
    }
}

impl Game {
    /// The game as `party` may see it.
    pub fn copy_for(&self, party: Party) -> Game {
        let mut copy = self.clone();
        if copy
            .file()
            .conditional
            .as_ref()
            .is_some_and(|c| !party.sees(c.side))
        {
            copy.file_mut().conditional = None;
        }
        copy
    }

    /// The state file's text as `party` may see it: the one text that is
    /// ever mailed or published.
    pub fn json_for(&self, party: Party) -> String {
        self.copy_for(party).to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::Players;
    use crate::position::Position;
    use crate::variant::Variant;

    #[test]
    fn each_party_sees_only_its_own_lines() {
        let start = "2025-01-01T00:00:00Z".parse().unwrap();
        let mut g = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            start,
        )
        .unwrap();
        g.play("e4", None, start).unwrap();
        g.set_conditional(
            Color::White,
            &["1... e5 2. Nf3".into(), "1... c5 2. Nc3".into()],
        )
        .unwrap();
        assert!(g.json_for(Party::Player(Color::White)).contains("Nc3"));
        assert!(!g
            .json_for(Party::Player(Color::Black))
            .contains("conditional"));
        assert!(!g.json_for(Party::Public).contains("conditional"));
        assert_eq!(Party::of(&[Color::White]), Party::Player(Color::White));
        assert_eq!(Party::of(&[Color::White, Color::Black]), Party::Public);
        assert_eq!(Party::of(&[]), Party::Public);
    }
}
