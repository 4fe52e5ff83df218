//! One line of play in the builder (the main line or a variation): its
//! position, kept current behind [`Line::pos`] while the fast lane plays
//! moves on a [`FastLine`], and the positions before each move.

use crate::error::Span;
use crate::position::{Outcome, Position};
use crate::variant::FastLine;
use std::rc::Rc;

/// Where the builder stands in one line of play (the main line or a
/// variation).
#[derive(Clone, Debug)]
pub(super) struct Line {
    /// The position: current unless the fast lane holds the line
    /// (`lane.board` set), read through [`Line::pos`], which brings it up
    /// to date.
    pos: Position,
    /// Positions before each move played in this line, oldest first
    /// (those of the lane's `trail` follow), read through
    /// [`Line::history`].
    history: History,
    /// The fast lane's board and trail (see [`Lane`]).
    lane: Lane,
    /// The last [`Line::outcome`], with the `written` and plies it was
    /// judged at.
    judged: Option<((usize, usize), Option<Outcome>)>,
    /// The move number just read, waiting for its move.
    pub(super) number: Option<(u32, bool, Span)>,
    pub(super) sync: Sync,
    /// Moves written in this line since its start (played or not).
    pub(super) written: usize,
    pub(super) main: bool,
}

/// A line played on a fast line (`record/lane.rs`): while `board` is set
/// it is the line's position; `trail` holds the positions before the moves
/// played so since the line last settled, which follow those in
/// `history`.
#[derive(Clone, Debug, Default)]
struct Lane {
    board: Option<FastLine>,
    trail: Vec<FastLine>,
}

impl Line {
    /// A line from `pos` with the history before it.
    pub(super) fn new(pos: Position, history: History, sync: Sync, main: bool) -> Line {
        Line {
            pos,
            history,
            lane: Lane::default(),
            judged: None,
            number: None,
            sync,
            written: 0,
            main,
        }
    }

    /// The line's position, brought up to date with the fast lane.
    pub(super) fn pos(&mut self) -> &Position {
        if let Some(b) = self.lane.board.take() {
            b.write_into(&mut self.pos);
        }
        &self.pos
    }

    /// The positions before each move, brought up to date with the fast
    /// lane.
    pub(super) fn history(&mut self) -> &History {
        self.settle();
        &self.history
    }

    /// Brings the position and the history up to date.
    fn settle(&mut self) {
        self.pos();
        for b in std::mem::take(&mut self.lane.trail) {
            let mut p = self.pos.clone();
            b.write_into(&mut p);
            self.history.push(p);
        }
    }

    /// Plies played in this line since its history starts.
    pub(super) fn plies(&self) -> usize {
        self.history.len() + self.lane.trail.len()
    }

    /// The line's position as a fast line, where its variant has one that
    /// can hold it.
    pub(super) fn fast_line(&self) -> Option<FastLine> {
        match self.lane.board {
            Some(b) => Some(b),
            None => self.pos.fast_line(),
        }
    }

    /// A move played on the fast lane, from `from` (the line's
    /// [`Line::fast_line`]) to `after`.
    pub(super) fn advance_fast(&mut self, from: FastLine, after: FastLine) {
        self.lane.trail.push(from);
        self.lane.board = Some(after);
    }

    /// A move played from the line's position to `after`.
    pub(super) fn advance(&mut self, after: Position) {
        self.settle();
        let before = std::mem::replace(&mut self.pos, after);
        self.history.push(before);
        self.judged = None;
    }

    /// The line taken up again at `after`, reached by a move from
    /// `before`, the position it was lost at, with the history before
    /// that as it stood (the resync after an error).
    pub(super) fn restart_after(&mut self, before: Position, after: Position) {
        self.settle();
        self.pos = before;
        self.advance(after);
    }

    /// The line taken up again at `pos`, with nothing before it that
    /// counts any more (a diagram shows the position after a gap).
    pub(super) fn restart(&mut self, pos: Position) {
        self.lane = Lane::default();
        self.pos = pos;
        self.history.clear();
        self.judged = None;
    }

    /// Gives up the line's history for reuse: up to `room` of the
    /// positions no other line shares go to `spare` (the builder's pool).
    pub(super) fn recycle(&mut self, spare: &mut Vec<Position>, room: usize) {
        self.history.recycle(spare, room);
    }

    /// The lane's trail, emptied, for reuse by the next line.
    pub(super) fn take_trail(&mut self) -> Vec<FastLine> {
        let mut trail = std::mem::take(&mut self.lane.trail);
        trail.clear();
        trail
    }

    /// Takes `trail`, an empty list from the pool, for the lane's trail.
    pub(super) fn with_trail(mut self, trail: Vec<FastLine>) -> Line {
        self.lane.trail = trail;
        self
    }

    /// The end of the game at the current position, by the position or by
    /// the history that led to it (`Rules::history_outcome`, asked only of
    /// a variant whose rules look back).
    pub(super) fn outcome(&mut self) -> Option<Outcome> {
        if let Some(b) = &self.lane.board {
            return b.outcome();
        }
        // Asked at the result and again at the game's end: looked up the
        // second time (a look back copies the history).
        let at = (self.written, self.plies());
        if let Some((when, o)) = &self.judged {
            if *when == at {
                return o.clone();
            }
        }
        let o = self.pos.outcome().or_else(|| {
            if !self.pos.variant.spec().looks_back {
                return None;
            }
            self.settle();
            let mut all = self.history.to_vec();
            all.push(self.pos.clone());
            self.pos.variant.rules().history_outcome(&all)
        });
        self.judged = Some((at, o.clone()));
        o
    }
}

/// The positions before each move of a line, oldest first, as a list that
/// a line shares with the variations branching from it: starting a
/// variation copies nothing, so a record of many variations on a long
/// game costs its length, not its length times the game's.
#[derive(Clone, Default)]
pub(super) struct History {
    last: Option<Rc<Node>>,
    len: usize,
}

struct Node {
    pos: Position,
    prev: Option<Rc<Node>>,
}

impl History {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, pos: Position) {
        let prev = self.last.take();
        self.last = Some(Rc::new(Node { pos, prev }));
        self.len += 1;
    }

    pub(super) fn clear(&mut self) {
        *self = History::default();
    }

    /// The last position and the history before it.
    pub(super) fn split_last(&self) -> Option<(&Position, History)> {
        let node = self.last.as_ref()?;
        Some((
            &node.pos,
            History {
                last: node.prev.clone(),
                len: self.len - 1,
            },
        ))
    }

    /// The first `n` positions.
    pub(super) fn prefix(&self, n: usize) -> History {
        let mut h = self.clone();
        while h.len > n {
            let Some(node) = h.last.take() else { break };
            h.last = node.prev.clone();
            h.len -= 1;
        }
        h
    }

    /// Empties the list, handing up to `room` of the positions no other
    /// line shares to `out` for reuse (the builder's pool of boards).
    pub(super) fn recycle(&mut self, out: &mut Vec<Position>, room: usize) {
        let mut next = self.last.take();
        self.len = 0;
        let mut kept = 0;
        while let Some(node) = next {
            match Rc::try_unwrap(node) {
                Ok(mut n) => {
                    next = n.prev.take();
                    if kept < room {
                        out.push(n.pos);
                        kept += 1;
                    }
                }
                Err(_) => break,
            }
        }
    }

    /// The positions, oldest first.
    pub(super) fn to_vec(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(node) = at {
            out.push(node.pos.clone());
            at = node.prev.as_deref();
        }
        out.reverse();
        out
    }
}

impl Drop for History {
    /// Unlinks the list node by node: dropping a long one recursively
    /// would overflow the stack.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(node) = next {
            match Rc::try_unwrap(node) {
                Ok(mut n) => next = n.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "History({} positions)", self.len)
    }
}

#[derive(Clone, Debug)]
pub(super) enum Sync {
    Yes,
    /// An error at `failed`; `before` is the position before it and
    /// `following` the moves written after it.
    Lost {
        before: Box<Position>,
        history_len: usize,
        failed: Span,
        label: String,
        following: Vec<(String, Span)>,
    },
    /// No way to go on until a diagram shows the position.
    Gone,
}
