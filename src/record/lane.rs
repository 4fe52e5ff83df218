//! The fast lane: a line of FIDE chess on the standard board (or of
//! Gardner minichess) played on bitboards ([`Bits`]) instead of the generic position, for the moves
//! that need nothing but to be resolved, played and have their check mark
//! confirmed (issue 19: verifying a large PGN file).
//!
//! A move takes the lane only when all of it is plain: a plain SAN text
//! ([`plain_san`]), the move number (if written) right, exactly one legal
//! move matching, the game not over, and the check mark as the position
//! after it says. Anything else, a problem or a note above all, goes to
//! the generic [`Current::play`] from the same position, so every report
//! is the generic one; the lane only ever says "this move is fine".
//! While the lane runs, the line's `pos` and `history` wait (see
//! [`super::line::Lane`]) and are brought up to date when read.

use super::game::{Options, PlayedMove};
use super::lexer::glyph_nag;
use super::line::Current;
use crate::color::Color;
use crate::mv::Move;
use crate::notation::plain::{find_plain, mark_after, over_by_clock_or_material, plain_san};
use crate::variant::chess::bits::{Bits, Found};
use crate::variant::Variant;

impl Current {
    /// Plays a written move in the fast lane, if it can be; false (and
    /// nothing changed) when the generic path must take it.
    pub(super) fn play_fast(&mut self, text: &str, opts: &Options) -> bool {
        if opts.generic_only {
            return false;
        }
        let line = &mut self.line;
        let board = match line.lane.board {
            Some(b) => b,
            None if matches!(line.pos.variant, Variant::Chess | Variant::Gardner) => {
                match Bits::from_position(&line.pos) {
                    Some(b) => b,
                    None => return false,
                }
            }
            None => return false,
        };
        if let Some((n, black, _)) = line.number {
            if n != board.fullmove || black != (board.turn == Color::Black) {
                return false;
            }
        }
        let Some(san) = plain_san(text) else {
            return false;
        };
        let Found::One(m, after) = find_plain(&board, &san) else {
            return false;
        };
        // The game over before the move.
        if over_by_clock_or_material(&board) {
            return false;
        }
        let mark = mark_after(&after);
        if mark != san.check {
            return false;
        }
        line.number = None;
        line.lane.trail.push(board);
        line.lane.board = Some(after);
        if opts.keep_moves {
            let mut kept = PlayedMove::new(Move::Piece(board.piece_move(&m)), text);
            kept.nags.extend(san.glyph.and_then(glyph_nag));
            self.keep(kept);
        }
        true
    }
}
