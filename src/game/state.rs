//! The loaded game: a checked state file replayed into its positions,
//! with its accessors, deadlines and pending offers (the acts are in
//! [`super::acts`], the schema in [`super::file`]).
//!
//! [`Game`] is a file that has been checked: loading replays every move
//! from `start`, compares each recorded canonical text and the cache, and
//! derives the result from the moves and events, refusing the file, with
//! the first bad move named, when anything disagrees.
//!
//! Who may act: there is no authentication in a file that travels by
//! mail, so a move is always made for the side to move. The other acts
//! take a side (`--as` on the command line, by default the side to move,
//! or for an answer the side that did not make the offer) and are refused
//! out of turn: accepting one's own offer, answering when nothing is
//! pending, claiming a draw when it is not one's move, claiming on time
//! against oneself, any act after the game has ended.

use super::ending::{ending_after, ending_with, Occurrences};
use super::file::write_game_file;
use super::notices::new_game_id;
use super::positions::Positions;
use super::rulebook::RulesRecord;
use super::time_control::TimeControl;
use super::GameError;
use crate::color::Color;
use crate::limits::{exceeds, MAX_PLIES};
use crate::mv::Move;
use crate::notation::dialect;
use crate::notation::plain::play_plain;
use crate::notation::san::{push_check_mark, write_fast};
use crate::position::{GameResult, Outcome, Position};
use crate::variant::{FastLine, Variant};
use chrono::{DateTime, Utc};

// The paths `game::state::{Players, Act, Proposal, ...}` stay valid.
pub use super::acts::{MoveReport, Proposal};
pub use super::ending::{automatic_ending, repetitions};
pub use super::file::{Act, Claim, Ending, Event, GameFile, MoveRecord, Player, Players, FORMAT};

/// A game: a checked [`GameFile`] and its positions.
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) file: GameFile,
    pub(super) variant: Variant,
    /// The start and the position after each move: `moves.len() + 1`.
    pub(super) positions: Positions,
}

/// The canonical text of `mv`, played in `before`, that led to `after`:
/// [`Position::move_text`] without playing the move again.
pub(super) fn canonical_text(before: &Position, mv: &Move, after: &Position) -> String {
    let mut text = dialect(before.variant).write_move(before, mv);
    push_check_mark(&mut text, after.check());
    text
}

pub(super) use crate::notation::movetext::move_number;
use crate::notation::movetext::number_label;

impl Game {
    /// A new game from `start`.
    pub fn new(
        start: Position,
        players: Players,
        time_control: Option<TimeControl>,
        now: DateTime<Utc>,
    ) -> Result<Game, GameError> {
        let text = start.to_text();
        let file = GameFile {
            format: FORMAT.to_string(),
            variant: start.variant.name().to_string(),
            definition: start.variant.defined().map(|d| d.def.source.text()),
            start: text.clone(),
            players,
            time_control,
            leave_days: None,
            no_forfeit: false,
            created: now,
            id: Some(new_game_id()),
            moves: Vec::new(),
            events: Vec::new(),
            notices: Vec::new(),
            result: None,
            position: text,
            conditional: None,
            extensions: serde_json::Map::new(),
        };
        let mut game = Game {
            variant: start.variant,
            file,
            positions: Positions::new(start),
        };
        // The rules the game is started with, which it keeps (issue 42).
        RulesRecord::of_file(&game.file)?.put_in(&mut game.file);
        if let Some(o) = game.automatic_ending() {
            return Err(GameError::Usage(format!(
                "the start position is already the end of the game: {}",
                Ending::from_outcome(&o)
            )));
        }
        game.sync_cache();
        Ok(game)
    }

    /// The state file's text.
    pub fn to_json(&self) -> String {
        // Room for about the whole text at once (a move takes some 110
        // bytes), rather than growing it by doubling.
        let f = &self.file;
        let records = f.moves.len() + f.events.len() + f.notices.len();
        let mut out = Vec::with_capacity(1024 + 128 * records);
        write_game_file(&mut out, f);
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }

    pub fn file(&self) -> &GameFile {
        &self.file
    }

    /// Sets one field of `extensions`, the object kept on every save as
    /// it is (the referee's tournaments name a game's tournament there).
    pub fn set_extension(&mut self, key: &str, value: serde_json::Value) {
        self.file.extensions.insert(key.to_string(), value);
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start and the position after each move. In chess and
    /// Gardner's minichess the earlier ones are replayed when first asked
    /// for (see `game/positions.rs`): where the side to move or the move
    /// number does, [`Game::turn_at`] and [`Game::numbered_move`] do not.
    pub fn positions(&self) -> &[Position] {
        self.positions.all()
    }

    pub fn current(&self) -> &Position {
        self.positions.current()
    }

    /// The side to move in position `ply` (0 the start): the side that
    /// made move `ply`, 0-based.
    pub fn turn_at(&self, ply: usize) -> Color {
        self.positions.turn(ply)
    }

    /// The position after `ply` moves (0 the start); the current one
    /// without replaying anything.
    pub fn position(&self, ply: usize) -> &Position {
        self.positions.get(ply)
    }

    /// Move `index` (0-based), as resolved when it was played.
    pub fn move_played(&self, index: usize) -> &Move {
        self.positions.move_at(index)
    }

    /// The last move played, as resolved.
    pub fn last_move(&self) -> Option<&Move> {
        self.positions.last_move()
    }

    /// The game's own ending of its current position (see
    /// [`automatic_ending`]).
    pub fn automatic_ending(&self) -> Option<Outcome> {
        automatic_ending(self.positions.recent())
    }

    /// How often the current position has occurred (see [`repetitions`]).
    pub fn repetitions(&self) -> usize {
        repetitions(self.positions.recent())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.current().turn
    }

    pub fn result(&self) -> Option<&Ending> {
        self.file.result.as_ref()
    }

    pub fn moves(&self) -> &[MoveRecord] {
        &self.file.moves
    }

    pub fn events(&self) -> &[Event] {
        &self.file.events
    }

    /// `3. Bb5` for the move at `index` (0-based).
    pub fn numbered_move(&self, index: usize) -> String {
        format!(
            "{} {}",
            number_label(
                self.positions.fullmove(index) as usize,
                self.positions.turn(index)
            ),
            self.file.moves[index].canonical
        )
    }

    /// The file, for the modules that add to it (the notices record).
    pub(super) fn file_mut(&mut self) -> &mut GameFile {
        &mut self.file
    }

    pub(super) fn sync_cache(&mut self) {
        self.file.position = self.current().to_text();
    }

    pub(super) fn not_over(&self) -> Result<(), GameError> {
        match &self.file.result {
            Some(e) => Err(GameError::Rule(format!("the game is over: {e}"))),
            None => Ok(()),
        }
    }

    /// The side whose draw offer stands: it stands until answered, until
    /// the other side moves, or until a take-back.
    pub fn pending_draw_offer(&self) -> Option<Color> {
        if self.file.result.is_some() {
            return None;
        }
        let ply = self.file.moves.len();
        for e in self.file.events.iter().rev() {
            match e.act {
                Act::DrawOffer => {
                    let stands = ply == e.ply
                        || (e.ply.checked_add(1) == Some(ply)
                            && e.ply < self.positions.len()
                            && self.positions.turn(e.ply) == e.side);
                    return stands.then_some(e.side);
                }
                Act::DrawAccept | Act::DrawDecline | Act::TakebackAccept { .. } => return None,
                _ => {}
            }
        }
        None
    }

    /// The side whose take-back request stands: until answered or until
    /// anyone moves.
    pub fn pending_takeback(&self) -> Option<Color> {
        if self.file.result.is_some() {
            return None;
        }
        let ply = self.file.moves.len();
        for e in self.file.events.iter().rev() {
            match e.act {
                Act::TakebackRequest => return (e.ply == ply).then_some(e.side),
                Act::TakebackAccept { .. } | Act::TakebackDecline => return None,
                _ => {}
            }
        }
        None
    }

    /// How many moves a take-back by `side` retracts: back to and
    /// including that side's last move.
    pub(super) fn takeback_plies(&self, side: Color) -> Result<usize, GameError> {
        let n = self.file.moves.len();
        (0..n)
            .rev()
            .find(|&i| self.positions.turn(i) == side)
            .map(|i| n - i)
            .ok_or_else(|| GameError::Rule(format!("{side} has made no move to take back")))
    }

    pub(super) fn push_event(&mut self, side: Color, act: Act, now: DateTime<Utc>) {
        self.file.events.push(Event {
            time: now,
            side,
            ply: self.file.moves.len(),
            via: None,
            act,
        });
    }
}

mod load;

#[cfg(test)]
mod plain_replay;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::parse_time;

    fn t(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    fn chess() -> Game {
        Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            Some(TimeControl::parse("3d").unwrap()),
            t("2025-01-01T00:00:00Z"),
        )
        .unwrap()
    }

    fn reload(g: &Game) -> Game {
        Game::from_json(&g.to_json()).unwrap()
    }

    #[test]
    fn unknown_keys_are_refused_where_they_stand_and_extensions_kept() {
        let text = chess().to_json();
        let bad = text.replacen("\"time_control\"", "\"timm_control\"", 1);
        match Game::from_json(&bad) {
            Err(GameError::Json { line, message, .. }) => {
                assert!(
                    message.contains("unknown field `timm_control`"),
                    "{message}"
                );
                assert!(line > 1);
            }
            other => panic!("{other:?}"),
        }
        // Beside the rules the game records (issue 42).
        let ext = text.replacen(
            "\"extensions\": {",
            "\"extensions\": {\"org.example\": {\"rating\": 1500},",
            1,
        );
        let mut g = Game::from_json(&ext).unwrap();
        g.play("e4", None, t("2025-01-01T01:00:00Z")).unwrap();
        assert!(g.to_json().contains("\"rating\": 1500"), "{}", g.to_json());
        assert_eq!(reload(&g).file().extensions, g.file().extensions);
    }

    #[test]
    fn players() {
        let p = Player::parse("Ana Lima <ana@example.org>").unwrap();
        assert_eq!(p.name.as_deref(), Some("Ana Lima"));
        assert_eq!(p.email.as_deref(), Some("ana@example.org"));
        assert_eq!(p.label(Color::White), "Ana Lima <ana@example.org>");
        assert_eq!(Player::parse("ben@example.org").unwrap().name, None);
        assert_eq!(Player::parse("Ben").unwrap().email, None);
        assert!(Player::parse("Ana <ana>").is_err());
        assert!(Player::parse("Ana <ana@x").is_err());
    }

    #[test]
    fn moves_round_trip_and_time() {
        let mut g = chess();
        let r = g.play("e2-e4", None, t("2025-01-02T00:00:00Z")).unwrap();
        assert_eq!(r.numbered(), "1. e4");
        g.play("e5", Some("sharp".into()), t("2025-01-03T00:00:00Z"))
            .unwrap();
        let g2 = reload(&g);
        assert_eq!(g2.moves().len(), 2);
        assert_eq!(g2.moves()[0].played, "e2-e4");
        assert_eq!(g2.deadline(), Some(t("2025-01-06T00:00:00Z")));
        assert_eq!(g2.to_json(), g.to_json());
    }

    #[test]
    fn draw_offer_lapses_when_the_other_side_moves() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        g.draw(Proposal::Make, None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), Some(Color::White));
        g.play("e4", None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), Some(Color::White));
        assert!(g.draw(Proposal::Accept, Some(Color::White), now).is_err());
        g.play("e5", None, now).unwrap();
        assert_eq!(g.pending_draw_offer(), None);
        assert!(g.draw(Proposal::Accept, None, now).is_err());
        g.draw(Proposal::Make, Some(Color::Black), now).unwrap();
        let msg = g.draw(Proposal::Accept, None, now).unwrap();
        assert!(msg.contains("White accepts Black's draw offer"), "{msg}");
        assert_eq!(reload(&g).result().unwrap().result, "1/2-1/2");
    }

    #[test]
    fn takeback_keeps_history() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        for m in ["e4", "e5", "Nf3"] {
            g.play(m, None, now).unwrap();
        }
        // Black, to move, retracts its own e5 and White's reply.
        g.takeback(Proposal::Make, None, now).unwrap();
        assert!(g
            .takeback(Proposal::Accept, Some(Color::Black), now)
            .is_err());
        let msg = g.takeback(Proposal::Accept, None, now).unwrap();
        assert!(msg.contains("1... e5, 2. Nf3"), "{msg}");
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.turn(), Color::Black);
        let g2 = reload(&g);
        match &g2.events().last().unwrap().act {
            Act::TakebackAccept { retracted } => assert_eq!(retracted.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn repetition_claims_and_fivefold() {
        let now = t("2025-01-02T00:00:00Z");
        let mut g = chess();
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        for m in shuffle {
            g.play(m, None, now).unwrap();
        }
        assert!(g.claim(Some(Claim::Repetition), None, now).is_err());
        for m in shuffle {
            g.play(m, None, now).unwrap();
        }
        // The start position, White to move, for the third time.
        assert!(g
            .clone()
            .claim(Some(Claim::Repetition), Some(Color::Black), now)
            .is_err());
        let mut claimed = g.clone();
        let e = claimed.claim(None, None, now).unwrap();
        assert_eq!(e.reason, "threefold repetition");
        reload(&claimed);
        for m in shuffle.iter().chain(shuffle.iter()) {
            g.play(m, None, now).unwrap();
        }
        assert_eq!(g.result().unwrap().reason, "fivefold repetition");
        assert!(g.play("e4", None, now).is_err());
    }

    #[test]
    fn time_forfeit_is_claimed_after_the_deadline() {
        let mut g = chess();
        let before = t("2025-01-03T23:59:59Z");
        let after = t("2025-01-04T00:00:01Z");
        assert!(g.claim(Some(Claim::Time), None, before).is_err());
        assert!(g
            .claim(Some(Claim::Time), Some(Color::White), after)
            .is_err());
        let e = g.claim(None, None, after).unwrap();
        assert_eq!(e.result, "0-1");
        reload(&g);
    }

    #[test]
    fn refuses_disagreeing_files() {
        let mut g = chess();
        g.play("e4", None, t("2025-01-02T00:00:00Z")).unwrap();
        let json = g.to_json();
        let edited = json.replace("\"canonical\": \"e4\"", "\"canonical\": \"d4\"");
        let err = Game::from_json(&edited).unwrap_err().to_string();
        assert!(err.contains("move 1 (1. e4)"), "{err}");
        let future = json.replace(FORMAT, "postal-game/2");
        let err = Game::from_json(&future).unwrap_err().to_string();
        assert!(err.contains("newer version"), "{err}");
        let minor = json.replace(FORMAT, "postal-game/1.3");
        assert!(Game::from_json(&minor).is_ok());
        let resigned = json.replace(
            "\"result\": null",
            "\"result\": {\"result\": \"1-0\", \"reason\": \"checkmate\"}",
        );
        let err = Game::from_json(&resigned).unwrap_err().to_string();
        assert!(err.contains("recorded result"), "{err}");
    }
}
