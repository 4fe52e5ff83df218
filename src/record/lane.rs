//! The fast lane: a line played on the variant's fast line
//! ([`FastLine`](crate::variant::FastLine): FIDE chess and Gardner
//! minichess on bitboards) instead of the general position, for the moves
//! that need nothing but to be resolved, played and have their check mark
//! confirmed (verifying a large PGN file).
//!
//! A move takes the lane only when all of it is plain: a plain SAN text
//! ([`plain_san`]), the move number (if written) right, exactly one legal
//! move matching, the game not over, and the check mark as the position
//! after it says. Anything else, a problem or a note above all, goes to
//! the generic [`Current::play`] from the same position, so every report
//! is the generic one; the lane only ever says "this move is fine".
//! While the lane runs, the line's position and history wait and are
//! brought up to date when read ([`super::line::Line::pos`]).

use super::current::Current;
use super::game::{Options, PlayedMove};
use super::lexer::glyph_nag;
use crate::color::Color;
use crate::mv::Move;
use crate::notation::plain::play_plain;

impl Current {
    /// Plays a written move in the fast lane, if it can be; false (and
    /// nothing changed) when the generic path must take it.
    pub(super) fn play_fast(&mut self, text: &str, opts: &Options) -> bool {
        if opts.generic_only {
            return false;
        }
        let line = &mut self.line;
        let Some(board) = line.fast_line() else {
            return false;
        };
        if let Some((n, black, _)) = line.number {
            if n != board.fullmove() || black != (board.turn() == Color::Black) {
                return false;
            }
        }
        let Some((san, m, after)) = play_plain(&board, text) else {
            return false;
        };
        // The game over before the move.
        if board.ended_with_moves() {
            return false;
        }
        if after.check() != san.check {
            return false;
        }
        line.number = None;
        line.advance_fast(board, after);
        if opts.keep_moves {
            let mut kept = PlayedMove::new(Move::Piece(board.piece_move(&m)), text);
            kept.nags.extend(san.glyph.and_then(glyph_nag));
            self.keep(kept);
        }
        true
    }
}
