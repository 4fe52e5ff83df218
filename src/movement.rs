//! How a piece kind moves, as data: Betza's notation as Fairy-Stockfish
//! reads it (its `piece.cpp`), the one reader of it in this program. Both
//! the built-in variants' piece tables (`PieceSpec::betza`, compiled into
//! rays by `variant::Tables`) and the pieces a variants.ini file defines
//! (`variant::ini`) are read by [`parse_betza`].
//!
//! What it reads: atoms (`W F D N A H L C J Z G K`, riders `R B Q`), a
//! repeated atom or a digit for a rider and its range (`WW` is `R`, `W2`
//! a wazir rider of two steps, `Q4` a queen of four), and the modifiers
//! `m c` (move, capture), `p g` (cannon, grasshopper), `n` (lame leaper)
//! and the directions `f b v h r l s` alone or paired (`fs`, `rb`, `hl`),
//! `i` for initial moves (quiet moves a piece has only from its side's
//! double-step region; Fairy-Stockfish has no initial captures, so an
//! initial atom's captures are dropped), and `e`, which Fairy-Stockfish's
//! reader skips: what it means (the piece takes en passant) is read from
//! the text by the variants.ini reader (`variant::ini::pawns`).
//! The meaning of each combination follows that reader, including its
//! quirks: an orthogonal atom splits a paired direction (`fsW` is `ffW`
//! plus `ssW`), and a repeated direction letter (`ff`) means the same as
//! one. Examples: chess rook `R`, Corral queen `Q4`, Fye'tin `W2A`
//! (DI-5), pawn `mfWcfF`, Kristensen bishop `BmvW` (KR-4).
//!
//! What that reader accepts but this one refuses, so that no piece is ever
//! played by partial rules: any other letter it would skip silently, and
//! riders or hoppers along an atom longer than two squares, which it gives
//! no moves.
//!
//! What it returns is a [`Movement`]: the quiet moves and the captures,
//! each a [`Motion`] (leaps, slides and hops by direction), the initial
//! moves, and the atoms in the text's order. The built-in tables take it
//! as [`Ray`]s ([`Movement::rays`]): leaps, slides, hops and lame leaps;
//! an initial move has no ray.

use crate::color::Color;
use std::collections::BTreeMap;

/// Directions of one kind of motion and their range: `(dy, dx)` for White
/// (Black's are turned half round), the value as in Fairy-Stockfish's
/// tables: for leaps 0, or -1 for a lame leap; for slides 0 (unlimited) or
/// the most squares; for hops 0 (a cannon: anywhere beyond the hurdle) or
/// the most squares beyond it (1: a grasshopper).
pub type Dirs = BTreeMap<(i8, i8), i8>;

/// One modality (quiet moves or captures) of a piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Motion {
    pub leaps: Dirs,
    pub slides: Dirs,
    pub hops: Dirs,
}

impl Motion {
    pub fn is_empty(&self) -> bool {
        self.leaps.is_empty() && self.slides.is_empty() && self.hops.is_empty()
    }
}

/// Which map of a [`Motion`] an atom writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    Leap,
    Slide,
    Hop,
}

/// One atom of a text as read: its step (`(dy, dx)`: W `(1, 0)`, N
/// `(2, 1)`; `K` and `Q` are two atoms), the map it wrote and the
/// directions it wrote there, each once, for White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub step: (i8, i8),
    pub gait: Gait,
    pub dirs: Vec<(i8, i8)>,
}

/// A piece's whole movement: quiet moves and captures. The two motions
/// say what the piece does; `atoms` says in which order the text named
/// it, which the built-in tables' rays, and so their move lists, follow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movement {
    pub quiet: Motion,
    pub capture: Motion,
    /// Quiet moves only from the double-step region (`i`; Fairy-Stockfish's
    /// `steps[1]`, `slider[1]`, `hopper[1]` of the quiet modality).
    pub initial: Motion,
    pub atoms: Vec<Atom>,
}

/// Why a Betza text is refused: the byte offset in it and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub offset: usize,
    pub why: String,
}

impl std::fmt::Display for BetzaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.why)
    }
}

fn atoms(c: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match c {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'L' | 'C' => (&[(3, 1)], false),
        'J' | 'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

/// Which of the eight images of atom `(a, b)` a direction pair selects,
/// in the order (a,b), (-a,-b), (-b,a), (b,-a), (b,a), (-b,-a), (-a,b),
/// (a,-b) as `(dy, dx)`.
const SELECT: [&[&str]; 8] = [
    &["ff", "vv", "rf", "rv", "fh", "rh", "hr"],
    &["bb", "vv", "lb", "lv", "bh", "lh", "hr"],
    &["rr", "ss", "br", "bs", "bh", "rh", "hr"],
    &["ll", "ss", "fl", "fs", "fh", "lh", "hr"],
    &["rr", "ss", "fr", "fs", "fh", "rh", "hl"],
    &["ll", "ss", "bl", "bs", "bh", "lh", "hl"],
    &["bb", "vv", "rb", "rv", "bh", "rh", "hl"],
    &["ff", "vv", "lf", "lv", "fh", "lh", "hl"],
];

/// Reads a Betza text.
pub fn parse_betza(text: &str) -> Result<Movement, BetzaError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Movement::default();
    let (mut quiet, mut capture) = (false, false);
    let (mut hopper, mut grass, mut lame, mut initial) = (false, false, false, false);
    let mut dirs: Vec<[char; 2]> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let refuse = |why: &str| BetzaError {
            offset: at,
            why: why.to_string(),
        };
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'p' => hopper = true,
            'g' => {
                hopper = true;
                grass = true;
            }
            'n' => lame = true,
            'i' => initial = true,
            // Fairy-Stockfish's reader skips it (its meaning is read from
            // the text as a whole).
            'e' => {}
            _ if VERTICAL.contains(c) || HORIZONTAL.contains(c) => {
                let next = chars.get(i + 1).map(|p| p.1);
                match next {
                    Some(c2)
                        if c2 == c
                            || (VERTICAL.contains(c) && HORIZONTAL.contains(c2))
                            || (HORIZONTAL.contains(c) && VERTICAL.contains(c2)) =>
                    {
                        dirs.push([c, c2]);
                        i += 1;
                    }
                    _ => dirs.push([c, c]),
                }
            }
            _ => {
                let Some((list, mut rider)) = atoms(c) else {
                    return Err(refuse(&format!(
                        "`{c}` is not a Betza letter this program reads"
                    )));
                };
                let mut distance: i8 = if grass { 1 } else { 0 };
                if let Some(&(_, c2)) = chars.get(i + 1) {
                    if c2 == c || c2.is_ascii_digit() {
                        rider = true;
                        if let Some(d) = c2.to_digit(10) {
                            distance = d as i8;
                        }
                        i += 1;
                    }
                }
                if !rider && lame {
                    distance = -1;
                }
                let long = list.iter().any(|&(a, b)| a.abs().max(b.abs()) > 2);
                if (rider || hopper) && long {
                    return Err(refuse(
                        "a rider or hopper along an atom longer than two squares has no moves in Fairy-Stockfish",
                    ));
                }
                if hopper && lame {
                    return Err(refuse("a lame hopper is not supported"));
                }
                if hopper && !grass && distance >= 2 {
                    return Err(refuse(
                        "a hopper with a range of two or more is not supported (Fairy-Stockfish \
                         counts that range from the start, the hurdle included)",
                    ));
                }
                if !quiet && !capture {
                    quiet = true;
                    capture = true;
                }
                let gait = if hopper {
                    Gait::Hop
                } else if rider {
                    Gait::Slide
                } else {
                    Gait::Leap
                };
                for &(a, b) in list {
                    let mut chosen: Vec<[char; 2]> = Vec::new();
                    for d in &dirs {
                        if list.len() == 1 && b == 0 && d[0] != d[1] {
                            chosen.push([d[0], d[0]]);
                            chosen.push([d[1], d[1]]);
                        } else {
                            chosen.push(*d);
                        }
                    }
                    let images = [
                        (a, b),
                        (-a, -b),
                        (-b, a),
                        (b, -a),
                        (b, a),
                        (-b, -a),
                        (-a, b),
                        (a, -b),
                    ];
                    let mut atom = Atom {
                        step: (a, b),
                        gait,
                        dirs: Vec::new(),
                    };
                    for (k, &img) in images.iter().enumerate() {
                        let take = chosen.is_empty()
                            || chosen.iter().any(|d| {
                                let s: String = d.iter().collect();
                                SELECT[k].contains(&s.as_str())
                            });
                        if !take {
                            continue;
                        }
                        if initial {
                            // Fairy-Stockfish has no initial captures.
                            if quiet {
                                let map = match gait {
                                    Gait::Hop => &mut out.initial.hops,
                                    Gait::Slide => &mut out.initial.slides,
                                    Gait::Leap => &mut out.initial.leaps,
                                };
                                map.insert(img, distance);
                            }
                            continue;
                        }
                        if !atom.dirs.contains(&img) {
                            atom.dirs.push(img);
                        }
                        for (on, motion) in [(quiet, &mut out.quiet), (capture, &mut out.capture)] {
                            if !on {
                                continue;
                            }
                            let map = match gait {
                                Gait::Hop => &mut motion.hops,
                                Gait::Slide => &mut motion.slides,
                                Gait::Leap => &mut motion.leaps,
                            };
                            map.insert(img, distance);
                        }
                    }
                    if !atom.dirs.is_empty() {
                        out.atoms.push(atom);
                    }
                }
                quiet = false;
                capture = false;
                hopper = false;
                grass = false;
                lame = false;
                initial = false;
                dirs.clear();
            }
        }
        i += 1;
    }
    if quiet || capture || hopper || lame || initial || !dirs.is_empty() {
        return Err(BetzaError {
            offset: text.len(),
            why: "modifiers with no atom after them".into(),
        });
    }
    Ok(out)
}

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

/// One concrete direction of a piece for one side, as the movement
/// tables take it: a leap (range 1), a slide, or a hop over the first
/// piece on the line (`hop`; its range counts the squares beyond that
/// piece). `dy` is already turned for the side (forward is +1 for White
/// and -1 for Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ray {
    pub dx: i16,
    pub dy: i16,
    /// Steps allowed along the ray; leapers have 1. Unlimited is `u8::MAX`.
    pub range: u8,
    pub mode: Mode,
    pub hop: bool,
    /// A lame leap (Betza `n`): the square it passes ([`lame_step`]) must
    /// be empty.
    pub lame: bool,
}

/// The square a lame leap of `(dx, dy)` passes, as `(dx, dy)` from where
/// it starts, when it passes one: Fairy-Stockfish walks such a leap along
/// its longer leg first, diagonally once the legs are equal. A leap of at
/// most two squares each way (all the movement tables hold) passes at
/// most one square; a one-step leap passes none.
pub fn lame_step(dx: i16, dy: i16) -> Option<(i16, i16)> {
    let (sx, sy) = (dx.signum(), dy.signum());
    let step = match dx.abs().cmp(&dy.abs()) {
        std::cmp::Ordering::Greater => (sx, 0),
        std::cmp::Ordering::Less => (0, sy),
        std::cmp::Ordering::Equal => (sx, sy),
    };
    (step != (dx, dy)).then_some(step)
}

impl Movement {
    /// Reads a built-in table's Betza constant; panics on a malformed one,
    /// or one the built-in variants' generators do not walk (a hop, a lame
    /// leap, an initial move), since the tables are written in the variant
    /// modules, not taken from users.
    pub fn betza(text: &str) -> Movement {
        let movement =
            parse_betza(text).unwrap_or_else(|e| panic!("bad movement descriptor {text:?}: {e}"));
        // The built-in variants' generators walk slides and leaps only.
        for motion in [&movement.quiet, &movement.capture] {
            if let Some(d) = motion.hops.keys().next() {
                panic!(
                    "movement descriptor {text:?} is not for the built-in tables: the hop {d:?}"
                );
            }
            if let Some((d, _)) = motion.leaps.iter().find(|(_, &v)| v < 0) {
                panic!(
                    "movement descriptor {text:?} is not for the built-in tables: the lame leap {d:?}"
                );
            }
        }
        if !movement.initial.is_empty() {
            panic!("movement descriptor {text:?} is not for the built-in tables: initial moves");
        }
        movement
    }

    /// The rays for one side: one a direction and gait, [`Mode::Both`]
    /// where the quiet moves and the captures have it with the same range,
    /// else one for each. In the text's order, atom by atom (`mfWcfFmbW`:
    /// the step forward, the two captures, the step back); within an
    /// atom, first the images whose file step is the atom's shorter
    /// non-zero leg (a wazir's sideways steps, a knight's tall jumps),
    /// then forward before backward as the mover sees it, then towards
    /// the h-file first. Move lists follow this order (`postal moves`,
    /// `perft --divide`). A hop is a ray marked `hop`, a lame leap one
    /// marked `lame`.
    pub fn rays(&self, color: Color) -> Vec<Ray> {
        let forward = color.forward();
        let mut out: Vec<Ray> = Vec::new();
        for atom in &self.atoms {
            let (quiet, capture) = match atom.gait {
                Gait::Leap => (&self.quiet.leaps, &self.capture.leaps),
                Gait::Slide => (&self.quiet.slides, &self.capture.slides),
                Gait::Hop => (&self.quiet.hops, &self.capture.hops),
            };
            let legs = [atom.step.0.abs() as i16, atom.step.1.abs() as i16];
            let short = legs.into_iter().filter(|&l| l != 0).min().unwrap_or(0);
            // (dx, dy) on the board, with White's key in the maps.
            let mut dirs: Vec<(i16, i16, (i8, i8))> = atom
                .dirs
                .iter()
                .map(|&(dy, dx)| {
                    let (dx, dy) = (dx as i16, dy as i16);
                    (dx * forward, dy * forward, (dy as i8, dx as i8))
                })
                .collect();
            dirs.sort_by_key(|&(dx, dy, _)| (dx.abs() != short, -dy * forward, -dx));
            // A ray's range, and whether it is a lame leap.
            let range = |v: i8| match atom.gait {
                Gait::Slide | Gait::Hop if v > 0 => (v as u8, false),
                Gait::Slide | Gait::Hop => (u8::MAX, false),
                Gait::Leap => (1, v < 0),
            };
            let hop = atom.gait == Gait::Hop;
            for (dx, dy, key) in dirs {
                let ray = |(range, lame), mode| Ray {
                    dx,
                    dy,
                    range,
                    mode,
                    hop,
                    lame,
                };
                let (q, c) = (
                    quiet.get(&key).map(|&v| range(v)),
                    capture.get(&key).map(|&v| range(v)),
                );
                let found = match (q, c) {
                    (Some(q), Some(c)) if q == c => vec![ray(q, Mode::Both)],
                    _ => q
                        .map(|q| ray(q, Mode::Move))
                        .into_iter()
                        .chain(c.map(|c| ray(c, Mode::Capture)))
                        .collect(),
                };
                for r in found {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
