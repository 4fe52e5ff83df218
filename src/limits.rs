//! The limits postal enforces on its input, in one place, so that bad or
//! hostile input is refused with a clear error instead of running for
//! minutes or filling memory. Each error names the limit and says by how
//! much the input exceeds it ([`exceeds`]).
//!
//! | limit | value | where |
//! | --- | --- | --- |
//! | board files (width of the bounding box) | [`MAX_FILES`] = 64 | position texts; Building placements past it are not offered |
//! | board ranks (height of the bounding box) | [`MAX_RANKS`] = 64 | the same |
//! | squares on a board | [`MAX_SQUARES`] = 1024 | the same; a Building board that reaches it has no placement left (BU-8) |
//! | one PGN game, in bytes | [`MAX_RECORD_BYTES`] = 1 MiB | a longer game is read to there, the rest skipped to the next game |
//! | a published-text file, in bytes | [`MAX_PUBLISHED_BYTES`] = 16 MiB | `verify`, `convert` |
//! | variation nesting | [`MAX_NESTING`] = 64 | PGN `(`, published commentary `(` |
//! | moves a game | [`MAX_PLIES`] = 20,000 plies | records and state files |
//! | problems reported a game | [`MAX_ISSUES`] = 100 | `verify` (the rest are counted in one note) |
//! | state file, in bytes | [`MAX_STATE_BYTES`] = 16 MiB | every game command |
//! | mail settings file, in bytes | [`MAX_SETTINGS_BYTES`] = 1 MiB | `--mail`, `postal mail` |
//! | PNG side | `render::png::MAX_SIDE` = 4096 pixels | larger diagrams are drawn smaller |
//!
//! The board limits are chosen so that every command on the largest
//! board finishes in seconds: the number of Building turns is the moves
//! times the placements, which grow with the pieces' reach and the
//! board's edge. On a 32 x 31 board with 40 queens (127,449 turns)
//! `postal moves` takes 2.8 s, on 64 x 15 (149,312 turns) 4.1 s, and a PNG
//! under a second (a debug build on a shared machine); a 64 x 31 board
//! took 20 s, hence 1024 squares. `perft` is exponential in its depth
//! whatever the board.

/// The most files a board may span (its bounding box, holes included).
pub const MAX_FILES: usize = 64;
/// The most ranks a board may span.
pub const MAX_RANKS: usize = 64;
/// The most squares a board may have.
pub const MAX_SQUARES: usize = 1024;
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

/// The error text of an input over a limit: `the board is 70 files wide,
/// 6 over the limit of 64`.
pub fn exceeds(what: &str, actual: usize, limit: usize, unit: &str) -> String {
    format!(
        "{what} {actual} {unit}, {} over the limit of {limit} {unit}",
        actual.saturating_sub(limit)
    )
}

/// Why a board of this bounding box and this many squares is too large,
/// or `None` when it fits.
pub fn board_error(files: usize, ranks: usize, squares: usize) -> Option<String> {
    if files > MAX_FILES {
        Some(exceeds("the board spans", files, MAX_FILES, "files"))
    } else if ranks > MAX_RANKS {
        Some(exceeds("the board spans", ranks, MAX_RANKS, "ranks"))
    } else if squares > MAX_SQUARES {
        Some(exceeds("the board has", squares, MAX_SQUARES, "squares"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_the_limit_and_the_excess() {
        assert_eq!(
            board_error(70, 5, 25).unwrap(),
            "the board spans 70 files, 6 over the limit of 64 files"
        );
        assert!(board_error(64, 16, 1024).is_none());
        assert!(board_error(64, 64, 1025).unwrap().contains("1 over"));
    }
}
