//! Betza's notation as Fairy-Stockfish reads it (its `piece.cpp`): atoms
//! (`W F D N A H L C J Z G K`, riders `R B Q`), a repeated atom or a digit
//! for a rider and its range, and the modifiers `m c` (move, capture),
//! `p g` (cannon, grasshopper), `n` (lame leaper) and the directions
//! `f b v h r l s` alone or paired (`fs`, `rb`, `hl`). The meaning of each
//! combination follows that reader, including its quirks: an orthogonal
//! atom splits a paired direction (`fsW` is `ffW` plus `ssW`), and a
//! repeated direction letter (`ff`) means the same as one.
//!
//! What that reader accepts but this one refuses, so that no piece is ever
//! played by partial rules: `i` (initial moves), `e` (en passant by a
//! custom piece), any other letter it would skip silently, and riders or
//! hoppers along an atom longer than two squares, which it gives no moves.

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

/// A piece's movement: quiet moves and captures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Betza {
    pub quiet: Motion,
    pub capture: Motion,
}

/// Why a Betza text is refused: the byte offset in it and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub offset: usize,
    pub why: String,
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
pub fn parse(text: &str) -> Result<Betza, BetzaError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Betza::default();
    let (mut quiet, mut capture) = (false, false);
    let (mut hopper, mut grass, mut lame) = (false, false, false);
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
            'i' => return Err(refuse("`i` (initial moves) is not supported")),
            'e' => {
                return Err(refuse(
                    "`e` (en passant by a custom piece) is not supported",
                ))
            }
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
                if !quiet && !capture {
                    quiet = true;
                    capture = true;
                }
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
                    for (k, &img) in images.iter().enumerate() {
                        let take = chosen.is_empty()
                            || chosen.iter().any(|d| {
                                let s: String = d.iter().collect();
                                SELECT[k].contains(&s.as_str())
                            });
                        if !take {
                            continue;
                        }
                        for (on, motion) in [(quiet, &mut out.quiet), (capture, &mut out.capture)] {
                            if !on {
                                continue;
                            }
                            let map = if hopper {
                                &mut motion.hops
                            } else if rider {
                                &mut motion.slides
                            } else {
                                &mut motion.leaps
                            };
                            map.insert(img, distance);
                        }
                    }
                }
                quiet = false;
                capture = false;
                hopper = false;
                grass = false;
                lame = false;
                dirs.clear();
            }
        }
        i += 1;
    }
    if quiet || capture || hopper || lame || !dirs.is_empty() {
        return Err(BetzaError {
            offset: text.len(),
            why: "modifiers with no atom after them".into(),
        });
    }
    Ok(out)
}
