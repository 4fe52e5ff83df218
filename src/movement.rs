//! How a piece kind moves, as data: a small subset of Betza's notation.
//!
//! A piece's movement is a list of [`Atom`]s. An atom is a step vector
//! taken in all its symmetric images, a range (1 for a leaper, 0 for an
//! unlimited rider, n for a rider limited to n steps), whether the step may
//! move, capture or both, and which directions are kept relative to the
//! side that moves it (forward, backward, sideways).
//!
//! The notation read by [`parse_betza`]: modifiers `m` (move only), `c`
//! (capture only), `f` `b` `s` `v` (forward, backward, sideways, vertical:
//! forward and backward), then an atom letter `W F D A N` or a rider
//! shorthand `R` (WW), `B` (FF), `Q` (RB), `K` (WF), then an optional range.
//! A doubled letter (`WW`) is an unlimited rider, a range after a letter
//! (`W2`, `R4`) limits it. Examples: chess rook `R`, Corral queen `Q4`,
//! Fye'tin `W2A` (DI-5), pawn `mfWcfF`, Kristensen bishop `BmvW` (KR-4).

use crate::color::Color;
use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{all_consuming, map, map_res, opt};
use nom::multi::{many0, many1};
use nom::{IResult, Parser};

/// What a step may do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Move or capture (Betza default).
    Both,
    /// Only onto an empty square (`m`).
    Move,
    /// Only onto an enemy piece (`c`).
    Capture,
}

impl Mode {
    pub fn moves(self) -> bool {
        self != Mode::Capture
    }
    pub fn captures(self) -> bool {
        self != Mode::Move
    }
}

/// Which images of the step vector are kept, relative to the mover's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dirs {
    pub forward: bool,
    pub backward: bool,
    pub sideways: bool,
}

impl Dirs {
    pub const ALL: Dirs = Dirs {
        forward: true,
        backward: true,
        sideways: true,
    };

    fn keeps(self, dy: i16) -> bool {
        match dy.signum() {
            1 => self.forward,
            -1 => self.backward,
            _ => self.sideways,
        }
    }
}

/// One Betza atom: a step vector with its symmetric images.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The step: `(1, 0)` W, `(1, 1)` F, `(2, 0)` D, `(2, 2)` A, `(1, 2)` N.
    pub dx: i16,
    pub dy: i16,
    /// 1 = leaper; 0 = unlimited rider; n = rider up to n steps.
    pub range: u8,
    pub mode: Mode,
    pub dirs: Dirs,
}

/// One concrete direction of a piece for one side: the result of expanding
/// atoms. `dy` is already turned for the side (forward is +1 for White and
/// -1 for Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ray {
    pub dx: i16,
    pub dy: i16,
    /// Steps allowed along the ray; leapers have 1. Unlimited is `u8::MAX`.
    pub range: u8,
    pub mode: Mode,
}

impl Atom {
    /// The distinct images of the vector, for the given side, filtered by
    /// direction.
    pub fn rays(&self, color: Color) -> Vec<Ray> {
        let mut out: Vec<Ray> = Vec::new();
        let (a, b) = (self.dx, self.dy);
        let images = [
            (a, b),
            (-a, b),
            (a, -b),
            (-a, -b),
            (b, a),
            (-b, a),
            (b, -a),
            (-b, -a),
        ];
        let range = if self.range == 0 { u8::MAX } else { self.range };
        for (dx, dy) in images {
            // dy here is relative to the mover: forward is positive.
            if !self.dirs.keeps(dy) {
                continue;
            }
            let ray = Ray {
                dx,
                dy: dy * color.forward(),
                range,
                mode: self.mode,
            };
            if !out.contains(&ray) {
                out.push(ray);
            }
        }
        out
    }
}

/// A piece kind's whole movement: its atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    pub atoms: Vec<Atom>,
}

impl Movement {
    /// Reads a Betza string; panics on a malformed constant, since the
    /// tables are written in the variant modules, not taken from users.
    pub fn betza(text: &str) -> Movement {
        parse_betza(text).unwrap_or_else(|e| panic!("bad movement descriptor {text:?}: {e}"))
    }

    /// All rays for one side, merged so each direction appears once per mode.
    pub fn rays(&self, color: Color) -> Vec<Ray> {
        let mut out: Vec<Ray> = Vec::new();
        for atom in &self.atoms {
            for ray in atom.rays(color) {
                if !out.contains(&ray) {
                    out.push(ray);
                }
            }
        }
        out
    }
}

/// Error for a malformed movement descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError(pub String);

impl std::fmt::Display for BetzaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read movement descriptor at {:?}", self.0)
    }
}

#[derive(Clone, Copy, Default)]
struct Modifiers {
    mode: Option<Mode>,
    dirs: Option<Dirs>,
}

fn modifiers(input: &str) -> IResult<&str, Modifiers> {
    map(many0(one_of("mcfbsv")), |ms: Vec<char>| {
        let mut m = Modifiers::default();
        for c in ms {
            match c {
                'm' => m.mode = Some(Mode::Move),
                'c' => m.mode = Some(Mode::Capture),
                _ => {
                    let d = m.dirs.get_or_insert(Dirs::default());
                    match c {
                        'f' => d.forward = true,
                        'b' => d.backward = true,
                        's' => d.sideways = true,
                        _ => {
                            d.forward = true;
                            d.backward = true;
                        }
                    }
                }
            }
        }
        m
    })
    .parse(input)
}

/// A letter (possibly doubled, for a rider) and an optional range.
fn atom_group(input: &str) -> IResult<&str, Vec<Atom>> {
    let (rest, (mods, letter, doubled, range)) = (
        modifiers,
        one_of("WFDANRBQK"),
        opt(alt((char('W'), char('F')))),
        // A range that does not fit a u8 is an error, not an unlimited rider.
        opt(map_res(digit1, |d: &str| d.parse::<u8>())),
    )
        .parse(input)?;
    let mode = mods.mode.unwrap_or(Mode::Both);
    let dirs = mods.dirs.unwrap_or(Dirs::ALL);
    let mk = |dx, dy, range| Atom {
        dx,
        dy,
        range,
        mode,
        dirs,
    };
    let rider_range = |default_leaper: bool| match (range, doubled.is_some()) {
        (Some(n), _) => n,
        (None, true) => 0,
        (None, false) => {
            if default_leaper {
                1
            } else {
                0
            }
        }
    };
    let atoms = match letter {
        'W' => vec![mk(1, 0, rider_range(true))],
        'F' => vec![mk(1, 1, rider_range(true))],
        'D' => vec![mk(2, 0, rider_range(true))],
        'A' => vec![mk(2, 2, rider_range(true))],
        'N' => vec![mk(1, 2, rider_range(true))],
        'R' => vec![mk(1, 0, rider_range(false))],
        'B' => vec![mk(1, 1, rider_range(false))],
        'Q' => vec![mk(1, 0, rider_range(false)), mk(1, 1, rider_range(false))],
        _ => vec![mk(1, 0, 1), mk(1, 1, 1)], // K
    };
    Ok((rest, atoms))
}

/// Parses a movement descriptor in the Betza subset described above.
pub fn parse_betza(text: &str) -> Result<Movement, BetzaError> {
    let parsed: IResult<&str, Vec<Vec<Atom>>> = all_consuming(many1(atom_group)).parse(text);
    match parsed {
        Ok((_, groups)) => Ok(Movement {
            atoms: groups.into_iter().flatten().collect(),
        }),
        Err(e) => Err(BetzaError(format!("{e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(m: &str, c: Color) -> Vec<(i16, i16, u8, Mode)> {
        let mut v: Vec<_> = Movement::betza(m)
            .rays(c)
            .into_iter()
            .map(|r| (r.dx, r.dy, r.range, r.mode))
            .collect();
        v.sort_by_key(|x| (x.0, x.1, x.2));
        v
    }

    #[test]
    fn leapers() {
        assert_eq!(dirs("N", Color::White).len(), 8);
        assert_eq!(dirs("W", Color::White).len(), 4);
        assert_eq!(dirs("F", Color::White).len(), 4);
        assert_eq!(dirs("A", Color::White).len(), 4);
        assert_eq!(dirs("D", Color::White).len(), 4);
        assert!(dirs("A", Color::White).iter().all(|r| r.2 == 1));
        assert_eq!(dirs("K", Color::White).len(), 8);
    }

    #[test]
    fn riders_and_ranges() {
        assert!(dirs("R", Color::White).iter().all(|r| r.2 == u8::MAX));
        assert!(dirs("Q4", Color::White).iter().all(|r| r.2 == 4));
        assert_eq!(dirs("Q4", Color::White).len(), 8);
        assert!(dirs("W2", Color::White).iter().all(|r| r.2 == 2));
        assert_eq!(dirs("WW", Color::White), dirs("R", Color::White));
        // DI-5: the Fye'tin: W2 slide plus A leap, never one diagonal step.
        let fyetin = dirs("W2A", Color::White);
        assert_eq!(fyetin.len(), 8);
        assert!(!fyetin.iter().any(|r| r.0.abs() == 1 && r.1.abs() == 1));
    }

    #[test]
    fn pawn_directions_turn_with_the_side() {
        let w = dirs("mfWcfF", Color::White);
        assert_eq!(
            w,
            vec![
                (-1, 1, 1, Mode::Capture),
                (0, 1, 1, Mode::Move),
                (1, 1, 1, Mode::Capture)
            ]
        );
        let b = dirs("mfWcfF", Color::Black);
        assert_eq!(
            b,
            vec![
                (-1, -1, 1, Mode::Capture),
                (0, -1, 1, Mode::Move),
                (1, -1, 1, Mode::Capture)
            ]
        );
        // KR-5: the back step of a Kristensen pawn.
        assert_eq!(dirs("mbW", Color::White), vec![(0, -1, 1, Mode::Move)]);
        // KR-4: the bishop's vertical non-capturing step.
        let kb = dirs("BmvW", Color::White);
        assert!(kb.contains(&(0, 1, 1, Mode::Move)));
        assert!(kb.contains(&(0, -1, 1, Mode::Move)));
        assert!(!kb.contains(&(1, 0, 1, Mode::Move)));
    }

    #[test]
    fn malformed_is_an_error() {
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("").is_err());
        assert!(parse_betza("W2x").is_err());
    }
}
