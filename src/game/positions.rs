//! A game's positions: the start and the one after each move.
//!
//! The rules look back over a game for two things, repetitions and (in
//! Kristensen's Game) the history rule. Where the halfmove clock bounds
//! repetitions (chess and Gardner's minichess, see
//! `Spec::repetitions_since_reset`), and no history rule applies, nothing
//! before the last reset of the clock can matter: only the positions
//! since it are kept, and the earlier ones are replayed from the moves
//! the first time something asks for the whole list (a diagram of an
//! earlier ply, an export). A game of 300 plies then holds a few dozen
//! boards rather than 301, and loading one (each `postal move`) touches
//! that much less memory. In the other variants every position is kept.

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use std::cell::OnceCell;

#[derive(Clone)]
pub(super) struct Positions {
    start: Position,
    /// The moves played from `start`, in order.
    moves: Vec<Move>,
    /// Of every position, the side to move and the move number.
    marks: Vec<(Color, u32)>,
    /// The last positions, the current one last: all of them, or where
    /// the clock bounds repetitions those since its last reset.
    recent: Vec<Position>,
    /// All the positions, replayed when first asked for, where `recent`
    /// does not hold them all.
    all: OnceCell<Vec<Position>>,
    /// Positions no longer kept, whose arrays the next moves reuse.
    spare: Vec<Position>,
}

/// The positions kept, without the spare arrays.
impl std::fmt::Debug for Positions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Positions")
            .field("start", &self.start)
            .field("moves", &self.moves)
            .field("marks", &self.marks)
            .field("recent", &self.recent)
            .field("all", &self.all)
            .finish()
    }
}

/// Positions no longer kept that [`Positions::play`] may reuse.
const SPARE: usize = 8;

impl Positions {
    pub(super) fn new(start: Position) -> Positions {
        Positions {
            marks: vec![(start.turn, start.fullmove)],
            recent: vec![start.clone()],
            start,
            moves: Vec::new(),
            all: OnceCell::new(),
            spare: Vec::new(),
        }
    }

    /// Plays `mv`, known to be legal, from the current position, in the
    /// arrays of a position no longer kept when there is one: what
    /// [`Position::play_unchecked`] gives, without allocating a board.
    pub(super) fn play(&mut self, mv: Move) {
        if self.start.variant.spec().never_repeats {
            // Nothing looks back at the position before (see `push`): the
            // move is played on it.
            let mut next = self.recent.pop().expect("the start is there");
            next.variant.rules().apply(&mut next, &mv);
            self.push(mv, next);
            return;
        }
        let mut next = match self.spare.pop() {
            Some(mut p) => {
                p.clone_from(self.current());
                p
            }
            None => self.current().clone(),
        };
        next.variant.rules().apply(&mut next, &mv);
        self.push(mv, next);
    }

    /// Room for `moves` more moves.
    pub(super) fn reserve(&mut self, moves: usize) {
        self.moves.reserve(moves);
        self.marks.reserve(moves);
    }

    /// Adds the position `next`, reached by `mv` from the current one.
    pub(super) fn push(&mut self, mv: Move, next: Position) {
        self.moves.push(mv);
        self.marks.push((next.turn, next.fullmove));
        if let Some(all) = self.all.get_mut() {
            all.push(next.clone());
        }
        if next.variant.spec().never_repeats {
            // Only the current position is kept: none recurs.
            self.recent.clear();
        } else if next.variant.spec().repetitions_since_reset && next.halfmove == 0 {
            // A few to reuse, not every position of a long game (each as
            // large as the board).
            self.spare.append(&mut self.recent);
            self.spare.truncate(SPARE);
        }
        self.recent.push(next);
    }

    /// How many positions: the moves and the start.
    pub(super) fn len(&self) -> usize {
        self.marks.len()
    }

    /// Position `i`, replaying the earlier ones only for an earlier one.
    pub(super) fn get(&self, i: usize) -> &Position {
        if i + 1 == self.len() {
            self.current()
        } else {
            &self.all()[i]
        }
    }

    /// Move `i` (0-based), as resolved when played.
    pub(super) fn move_at(&self, i: usize) -> &Move {
        &self.moves[i]
    }

    /// The move that led to the current position.
    pub(super) fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    pub(super) fn current(&self) -> &Position {
        self.recent.last().expect("the start is there")
    }

    /// The positions the rules look back over, the current one last:
    /// what [`automatic_ending`](super::state::automatic_ending) and
    /// [`repetitions`](super::state::repetitions) are given.
    pub(super) fn recent(&self) -> &[Position] {
        &self.recent
    }

    /// The side to move in position `i`.
    pub(super) fn turn(&self, i: usize) -> Color {
        self.marks[i].0
    }

    /// The move number of position `i`.
    pub(super) fn fullmove(&self, i: usize) -> u32 {
        self.marks[i].1
    }

    /// Every position, the start first.
    pub(super) fn all(&self) -> &[Position] {
        if self.recent.len() == self.len() {
            return &self.recent;
        }
        self.all.get_or_init(|| self.replay())
    }

    /// The positions again from the moves, as loading made them.
    fn replay(&self) -> Vec<Position> {
        let mut all = Vec::with_capacity(self.len());
        all.push(self.start.clone());
        for mv in &self.moves {
            let next = all.last().expect("the start is there").play_unchecked(mv);
            all.push(next);
        }
        all
    }

    /// Keeps the first `len` positions (at least the start).
    pub(super) fn truncate(&mut self, len: usize) {
        let len = len.max(1);
        if len >= self.len() {
            return;
        }
        let mut all = self.all().to_vec();
        all.truncate(len);
        self.moves.truncate(len - 1);
        self.marks.truncate(len);
        let from = if self.start.variant.spec().repetitions_since_reset {
            all.iter().rposition(|p| p.halfmove == 0).unwrap_or(0)
        } else {
            0
        };
        self.recent = all[from..].to_vec();
        self.all = OnceCell::from(all);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// Plays `texts` from the start of `variant`, keeping every position
    /// beside.
    fn play(variant: Variant, texts: &[&str]) -> (Positions, Vec<Position>) {
        let start = Position::start(variant);
        let mut kept = Positions::new(start.clone());
        let mut every = vec![start];
        for t in texts {
            let before = every.last().unwrap();
            let mv = before.parse_move(t).unwrap();
            let next = before.play_unchecked(&mv);
            kept.push(mv, next.clone());
            every.push(next);
        }
        (kept, every)
    }

    const MOVES: &[&str] = &[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "Nbd2", "Bb7", "Bc2", "Re8", "Nf1", "Bf8",
    ];

    #[test]
    fn the_kept_positions_are_those_since_the_clock_reset_fi_5() {
        let (kept, every) = play(Variant::Chess, MOVES);
        assert_eq!(kept.len(), every.len());
        assert_eq!(kept.current(), every.last().unwrap());
        // 11. d4 was the last pawn move: 11... Nbd7 to 13... Bf8 follow.
        let reset = every.iter().rposition(|p| p.halfmove == 0).unwrap();
        assert_eq!(kept.recent(), &every[reset..]);
        assert!(kept.recent().len() < every.len());
        for (i, p) in every.iter().enumerate() {
            assert_eq!((kept.turn(i), kept.fullmove(i)), (p.turn, p.fullmove));
        }
        assert_eq!(kept.all(), &every[..]);
    }

    #[test]
    fn other_variants_keep_every_position() {
        let (kept, every) = play(Variant::Kristensen, &[]);
        assert_eq!(kept.recent(), &every[..]);
        let start = Position::start(Variant::Corral);
        let mut kept = Positions::new(start.clone());
        let mut every = vec![start];
        for _ in 0..12 {
            let before = every.last().unwrap().clone();
            let Some(mv) = before.legal_moves().into_iter().next() else {
                break;
            };
            let next = before.play_unchecked(&mv);
            kept.push(mv, next.clone());
            every.push(next);
        }
        assert_eq!(kept.recent(), &every[..]);
        assert_eq!(kept.all(), &every[..]);
    }

    #[test]
    fn truncating_keeps_what_a_replay_to_there_keeps() {
        for len in [1, 2, 5, 20, 21, 22, MOVES.len(), MOVES.len() + 1, 99] {
            let (mut kept, _) = play(Variant::Chess, MOVES);
            kept.truncate(len);
            let (short, every) = play(Variant::Chess, &MOVES[..len.clamp(1, MOVES.len() + 1) - 1]);
            assert_eq!(kept.len(), short.len(), "{len}");
            assert_eq!(kept.recent(), short.recent(), "{len}");
            assert_eq!(kept.all(), &every[..], "{len}");
            // Moves after a take-back go on from there.
            if len < MOVES.len() {
                let before = kept.current().clone();
                let mv = before.parse_move(MOVES[len - 1]).unwrap();
                kept.push(mv.clone(), before.play_unchecked(&mv));
                let (again, every) = play(Variant::Chess, &MOVES[..len]);
                assert_eq!(kept.recent(), again.recent(), "{len}");
                assert_eq!(kept.all(), &every[..], "{len}");
            }
        }
    }
}
