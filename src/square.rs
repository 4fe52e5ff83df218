//! Squares: a file and a rank as integers, so boards of any size and boards
//! that grow left of file `a` or below rank 1 can name every square. The
//! name of a square never changes (BU-4). Named cells off the grid (the
//! Corral prison) are squares too.

use std::fmt;

/// A square. `file` 1 is `a`, `rank` 1 is White's first rank. Either may
/// be zero or negative on a grown Building Chess board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: i16,
    pub rank: i16,
}

impl Square {
    /// The Corral Chess prison (CO-1): a cell below c5, not on the grid.
    pub const PRISON: Square = Square {
        file: i16::MIN,
        rank: i16::MIN,
    };

    pub const fn new(file: i16, rank: i16) -> Square {
        Square { file, rank }
    }

    pub fn is_prison(self) -> bool {
        self == Square::PRISON
    }

    /// The square `df` files right and `dr` ranks up.
    pub fn offset(self, df: i16, dr: i16) -> Square {
        Square::new(self.file + df, self.rank + dr)
    }

    /// True when the square can be written as a letter and a number
    /// (`a1` to `w99`); others are written `(f,r)`. The letters stop at
    /// `w`, the 23rd file: `x` marks a capture (`Kx1` would read as one),
    /// so a file past `w`, on a grown Building board, is always written by
    /// number, `(24,1)`, which reads back.
    pub fn is_algebraic(self) -> bool {
        (1..=LAST_LETTER_FILE).contains(&self.file) && (1..=99).contains(&self.rank)
    }

    /// The file letter, for squares on the a-w grid.
    pub fn file_char(self) -> Option<char> {
        (1..=LAST_LETTER_FILE)
            .contains(&self.file)
            .then(|| (b'a' + (self.file - 1) as u8) as char)
    }

    /// Light or dark by the checkerboard pattern with a1 dark (BU-3).
    pub fn is_light(self) -> bool {
        (self.file + self.rank).rem_euclid(2) == 1
    }
}

/// The last file written with a letter: `w` (see [`Square::is_algebraic`]).
pub const LAST_LETTER_FILE: i16 = 23;

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_prison() {
            f.write_str("prison")
        } else if self.is_algebraic() {
            write!(f, "{}{}", self.file_char().unwrap_or('?'), self.rank)
        } else {
            write!(f, "({},{})", self.file, self.rank)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Square::new(1, 1).to_string(), "a1");
        assert_eq!(Square::new(9, 10).to_string(), "i10");
        assert_eq!(Square::new(0, 3).to_string(), "(0,3)");
        assert_eq!(Square::new(2, 0).to_string(), "(2,0)");
        assert_eq!(Square::PRISON.to_string(), "prison");
        // Past w the file is a number: x is the capture mark.
        assert_eq!(Square::new(23, 1).to_string(), "w1");
        assert_eq!(Square::new(24, 1).to_string(), "(24,1)");
        assert_eq!(Square::new(26, 3).to_string(), "(26,3)");
    }

    #[test]
    fn colours() {
        // BU-3: a1 is dark, and neighbours differ.
        assert!(!Square::new(1, 1).is_light());
        assert!(Square::new(2, 1).is_light());
        assert!(Square::new(0, 1).is_light());
        assert!(!Square::new(0, 0).is_light());
    }
}
