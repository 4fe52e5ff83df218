//! The limits postal enforces on its input, in one place, so that bad or
//! hostile input is refused with a clear error instead of running for
//! minutes or filling memory. Each error names the limit and says by how
//! much the input exceeds it ([`exceeds`]).
//!
//! | limit | value | where |
//! | --- | --- | --- |
//! | squares on a board | [`MAX_SQUARES`] = 40,050 | position texts; Building placements past it are not offered |
//! | files and ranks of a square | -[`MAX_REACH`]..=[`MAX_REACH`], 30,000 | the same |
//! | one PGN game, in bytes | [`MAX_RECORD_BYTES`] = 1 MiB | a longer game is read to there, the rest skipped to the next game |
//! | a published-text file, in bytes | [`MAX_PUBLISHED_BYTES`] = 16 MiB | `verify`, `convert` |
//! | variation nesting | [`MAX_NESTING`] = 64 | PGN `(`, published commentary `(` |
//! | moves a game | [`MAX_PLIES`] = 20,000 plies | records and state files |
//! | problems reported a game | [`MAX_ISSUES`] = 100 | `verify` (the rest are counted in one note) |
//! | state file, in bytes | [`MAX_STATE_BYTES`] = 16 MiB | every game command |
//! | mail settings file, in bytes | [`MAX_SETTINGS_BYTES`] = 1 MiB | `--mail`, `postal mail` |
//! | sections of a variants.ini | [`MAX_INI_SECTIONS`] = 1,000 | `--variants`, a game file's definition |
//! | a section's chain of parents | [`MAX_INI_DEPTH`] = 32 sections | the same |
//! | a reply's text read for commands | [`MAX_REPLY_TEXT`] = 1 MiB | the referee (the rest is not read) |
//! | command lines of a reply | [`MAX_COMMAND_LINES`] = 100 | the referee (later lines are comment) |
//! | one line of a reply | [`MAX_REPLY_LINE`] = 1,000 characters | the referee (the rest of the line is cut) |
//! | a reply's comment, stored and passed on | [`MAX_COMMENT`] = 2,000 characters | the referee (cut there, the sender told) |
//! | messages held for confirmation | [`MAX_HELD_PER_GAME`] = 10 a game, [`MAX_HELD`] = 200 in all | the referee (more are not held; attachments are never kept) |
//! | room kept in a state file for the referee's own acts | [`STATE_RESERVE`] = 64 KiB | a player's act that would leave less is refused |
//! | PNG side | `render::png::MAX_SIDE` = 4096 pixels | larger diagrams are drawn smaller |
//!
//! The board limits are chosen so that no legal game meets them: a game
//! of Building Chess (BU-2) adds one square a turn, so a game of at most
//! [`MAX_PLIES`] half-moves from the 25 squares of its start makes at most
//! [`MAX_GAME_SQUARES`] = 20,025 squares, whatever their shape, and no
//! square further than 20,000 files or ranks from the start's. A position
//! text may hold as many as such a game makes, and a game from it may grow
//! as long again: [`MAX_SQUARES`] is twice [`MAX_GAME_SQUARES`]. Only a
//! game started from a hand-made text larger than any game makes can meet
//! it; there a placement past it is not offered (BU-8 then counts the
//! turns left). The board's cost grows with its squares, not with its
//! bounding box (`board.rs`): on 15,000 squares `postal moves` lists its
//! turns in well under a second (`benches/building.rs`). `perft` is
//! exponential in its depth whatever the board.

/// The most squares a legal game of Building Chess from its start makes:
/// its 25 and one a half-move.
pub const MAX_GAME_SQUARES: usize = 25 + MAX_PLIES;
/// The most squares a board may have: a start as large as a game makes,
/// grown by a game as long as postal accepts.
pub const MAX_SQUARES: usize = 2 * MAX_GAME_SQUARES;
/// The furthest file or rank of a square from 0, either way (a legal game
/// reaches file -20,000 or 20,025; squares are numbered in `i16`).
pub const MAX_REACH: i16 = 30_000;
/// The largest game of a record, in bytes of text.
pub const MAX_RECORD_BYTES: usize = 1 << 20;
/// The largest published-text file (read whole), in bytes.
pub const MAX_PUBLISHED_BYTES: usize = 16 << 20;
/// The deepest nesting of variations or commentary.
pub const MAX_NESTING: usize = 64;
/// The most half-moves a game may have.
pub const MAX_PLIES: usize = 20_000;
/// The most problems reported for one game of a record.
pub const MAX_ISSUES: usize = 100;
/// The largest state file, in bytes.
pub const MAX_STATE_BYTES: usize = 16 << 20;
/// The largest mail settings file, in bytes.
pub const MAX_SETTINGS_BYTES: usize = 1 << 20;
/// The most of a reply's text (decoded, HTML read as text) in which the
/// referee looks for its commands and comment, in bytes.
pub const MAX_REPLY_TEXT: usize = 1 << 20;
/// The most lines of a reply's command block.
pub const MAX_COMMAND_LINES: usize = 100;
/// The longest line of a reply read, in characters.
pub const MAX_REPLY_LINE: usize = 1000;
/// The longest comment one reply stores in a game and passes on, in
/// characters: lines under the move and the text after a blank line
/// together.
pub const MAX_COMMENT: usize = 2000;
/// The room a state file keeps below [`MAX_STATE_BYTES`] for the
/// referee's own acts (a time forfeit, the operator's adjudication or
/// abort, their notices): a player's act that would leave less is
/// refused, so that a full game can always be ended.
pub const STATE_RESERVE: usize = 64 << 10;

/// The most messages a referee holds for one game, awaiting their
/// player's confirmation.
pub const MAX_HELD_PER_GAME: usize = 10;
/// The most messages a referee holds in all.
pub const MAX_HELD: usize = 200;

/// `text` cut to its first `max` characters; whether it was cut.
pub fn cut_chars(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    }
}

/// `text` cut to at most `max` bytes, at a character's boundary.
pub fn cut_bytes(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut at = max;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    &text[..at]
}

/// The most sections read from one variants.ini text (Fairy-Stockfish's
/// own file has some 200).
pub const MAX_INI_SECTIONS: usize = 1_000;
/// The longest chain of a file's sections, each the parent of the next.
pub const MAX_INI_DEPTH: usize = 32;

/// The error text of an input over a limit: `the board is 70 files wide,
/// 6 over the limit of 64`.
pub fn exceeds(what: &str, actual: usize, limit: usize, unit: &str) -> String {
    format!(
        "{what} {actual} {unit}, {} over the limit of {limit} {unit}",
        actual.saturating_sub(limit)
    )
}

/// Why a board of this bounding box (smallest and largest file and rank)
/// and this many squares is too large, or `None` when it fits.
pub fn board_error(bounds: (i32, i32, i32, i32), squares: usize) -> Option<String> {
    let (minf, minr, maxf, maxr) = bounds;
    let reach = MAX_REACH as i32;
    if squares > MAX_SQUARES {
        return Some(exceeds("the board has", squares, MAX_SQUARES, "squares"));
    }
    [minf, minr, maxf, maxr]
        .into_iter()
        .find(|c| c.abs() > reach)
        .map(|far| {
            exceeds(
                "a square lies",
                far.unsigned_abs() as usize,
                MAX_REACH as usize,
                "files or ranks from 0",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_the_limit_and_the_excess() {
        assert_eq!(
            board_error((1, 1, 5, 5), 40_051).unwrap(),
            "the board has 40051 squares, 1 over the limit of 40050 squares"
        );
        assert!(board_error((1, 1, 4000, 5), 20_000).is_none());
        assert!(board_error((-20_000, 1, 5, 20_025), MAX_GAME_SQUARES).is_none());
        assert_eq!(
            board_error((1, 1, 30_002, 1), 100).unwrap(),
            "a square lies 30002 files or ranks from 0, 2 over the limit of 30000 files or ranks from 0"
        );
    }
}
