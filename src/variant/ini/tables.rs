//! A definition as data of the shared engine: the program's movement
//! tables of its pieces (`Tables`, as the built-in variants have them),
//! and which of the shared walk, attack test and king-safety filter they
//! serve for it.

use super::def::{Def, Part, Region};
use crate::color::Color;
use crate::movement::{Movement, Ray};
use crate::piece::Role;
use crate::variant::Tables;

/// A definition's movement tables and what they serve. The flags are
/// found with the tables; a test turns `moves` off to compare the shared
/// walk with the engine's own (`ini::gen::reach`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shared {
    /// The tables of every kind (a pawn as Fairy-Stockfish's, which takes
    /// one step diagonally forward whatever its Betza) but the [`far`]
    /// ones; none before the definition is compiled.
    ///
    /// [`far`]: Shared::far
    pub tables: Option<Tables>,
    /// The pieces other than pawns move by the shared walk of their rays
    /// ([`crate::movegen::walk_rays`]).
    pub moves: bool,
    /// The shared attack test on the tables ([`crate::position::attacked`])
    /// answers for every square: no mobility region, janggi cannon or
    /// flying general changes what a piece attacks.
    pub attacks: bool,
    /// The shared king-safety filter ([`crate::movegen::KingSafety`])
    /// judges a move without playing it: the attack test serves, the
    /// royal king is written `K`, and no capture explodes.
    pub safety: bool,
    /// The kinds (bit per index) two of whose rays reach one square
    /// (`WR`): the walk lists each of their moves once.
    pub overlap: u64,
    /// The kinds (bit per index) with a leap longer than the board's
    /// margin ([`crate::board::MARGIN`]), which the tables cannot step:
    /// they have no rays there and move by the engine's own walk, and
    /// neither the attack test nor the filter serves the definition.
    pub far: u64,
}

impl Shared {
    /// The shared data of a definition whose kinds and keys are read.
    pub fn of(def: &Def) -> Shared {
        let far = (0..def.kinds.len())
            .filter(|&k| def.kinds[k].part != Part::Pawn && leaps_far(&def.kinds[k].betza))
            .fold(0u64, |set, k| set | 1 << k);
        let Some(tables) = movement_tables(def, far) else {
            return Shared::default();
        };
        let bounded = def.mobility.iter().any(|r| *r != [Region::MAX; 2]);
        let cannons = (0..def.kinds.len()).any(|k| def.janggi_cannon(k));
        let attacks = far == 0 && !(bounded || cannons || def.flying_general);
        let safety = attacks
            && !def.blast_on_capture
            && def.king().is_some_and(|k| def.role(k) == Role::King);
        let overlap = (0..def.kinds.len())
            .filter(|&k| {
                def.kinds[k].part != Part::Pawn
                    && rays_overlap(&tables.rays[def.role(k).index()][Color::White])
            })
            .fold(0u64, |set, k| set | 1 << k);
        Shared {
            tables: Some(tables),
            moves: true,
            attacks,
            safety,
            overlap,
            far,
        }
    }

    /// The tables, where the shared king-safety filter judges moves.
    pub fn safety_tables(&self) -> Option<&Tables> {
        self.tables.as_ref().filter(|_| self.safety)
    }

    /// The tables, where the shared attack test answers.
    pub fn attack_tables(&self) -> Option<&Tables> {
        self.tables.as_ref().filter(|_| self.attacks)
    }

    /// The tables, where pieces of kind `kind` move by the shared walk.
    pub fn move_tables(&self, kind: usize) -> Option<&Tables> {
        self.tables
            .as_ref()
            .filter(|_| self.moves && (kind >= 64 || self.far & (1 << kind) == 0))
    }

    /// Whether two rays of kind `kind` reach one square.
    pub fn overlaps(&self, kind: usize) -> bool {
        kind < 64 && self.overlap & (1 << kind) != 0
    }
}

/// [`Shared::tables`], the `far` kinds left out.
fn movement_tables(def: &Def, far: u64) -> Option<Tables> {
    // Fairy-Stockfish's pawn takes diagonally forward, whatever its
    // Betza.
    let pawn = crate::movement::parse_betza("mfWcfF").ok()?;
    Tables::of(def.kinds.iter().enumerate().map(|(k, kind)| {
        let movement = match kind.part {
            Part::Pawn => pawn.clone(),
            _ if far & (1 << k) != 0 => Movement::default(),
            _ => kind.betza.clone(),
        };
        (def.role(k), movement, true)
    }))
}

/// Whether a movement leaps further than the board's margin.
fn leaps_far(movement: &Movement) -> bool {
    let far = |r: &Ray| r.dx.abs().max(r.dy.abs()) > crate::board::MARGIN;
    movement.rays(Color::White).iter().any(far)
}

/// Whether two rays of one piece may reach a square both, with a kind of
/// move (quiet, capture) in common: two walks along the same line and way
/// (one step a multiple of the other's) within both ranges; two hops on
/// one line; a hop and a walk on one line unless the walk steps as the
/// hop does (it stops at the piece the hop leaps).
fn rays_overlap(rays: &[Ray]) -> bool {
    let shares = |a: &Ray, b: &Ray| {
        (a.mode.moves() && b.mode.moves()) || (a.mode.captures() && b.mode.captures())
    };
    // `long` steps `k` times `short`'s step, for `k` up to `most`.
    let multiple = |short: &Ray, long: &Ray, most: i16| {
        (1..=most).any(|k| (long.dx, long.dy) == (short.dx * k, short.dy * k))
    };
    let line = |a: &Ray, b: &Ray| multiple(a, b, 8) || multiple(b, a, 8);
    rays.iter().enumerate().any(|(i, a)| {
        rays[i + 1..].iter().any(|b| {
            shares(a, b)
                && match (a.hop, b.hop) {
                    (false, false) => {
                        multiple(a, b, i16::from(a.range)) || multiple(b, a, i16::from(b.range))
                    }
                    (true, true) => line(a, b),
                    _ => line(a, b) && (a.dx, a.dy) != (b.dx, b.dy),
                }
        })
    })
}
