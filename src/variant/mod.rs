//! The variants: one module each, and what they share: the [`Rules`] trait
//! the rest of the program calls, the [`Spec`] table that describes a
//! variant as data (board size, start position, piece movement, pawn
//! rules), and the movement [`Tables`] compiled from it.

pub mod building;
pub mod chess;
pub mod corral;
pub mod defined;
pub mod disintegration;
pub mod gardner;
pub mod ini;
pub mod kristensen;
pub mod swap;
pub mod validate;

/// What the tests of several layers share.
#[cfg(test)]
pub(crate) mod testing {
    /// xorshift64, the same on every machine (the bitboards' and the game
    /// layer's tests use it).
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }
}

use crate::color::{ByColor, Color};
use crate::error::PlayError;
use crate::movement::{Movement, Ray};
use crate::mv::Move;
use crate::piece::Role;
use crate::position::{role_nibbles, Effects, Outcome, Position};
use crate::square::Square;
use std::sync::OnceLock;

pub use chess::fast_line::{FastLine, FastMove};

/// A variant this program knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Chess,
    Gardner,
    Swap,
    Building,
    Corral,
    Disintegration,
    Kristensen,
    /// A variant defined by the user, by its number in the registry of
    /// [`defined`].
    Defined(u16),
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::Chess,
        Variant::Gardner,
        Variant::Swap,
        Variant::Building,
        Variant::Corral,
        Variant::Disintegration,
        Variant::Kristensen,
    ];

    pub fn rules(self) -> &'static dyn Rules {
        match self {
            Variant::Chess => &chess::Chess,
            Variant::Gardner => &gardner::Gardner,
            Variant::Swap => &swap::Swap,
            Variant::Building => &building::Building,
            Variant::Corral => &corral::Corral,
            Variant::Disintegration => &disintegration::Disintegration,
            Variant::Kristensen => &kristensen::Kristensen,
            Variant::Defined(id) => defined::get(id).rules(),
        }
    }

    pub fn spec(self) -> &'static Spec {
        self.rules().spec()
    }

    /// The registered definition of a defined variant.
    pub fn defined(self) -> Option<&'static defined::Defined> {
        match self {
            Variant::Defined(id) => Some(defined::get(id)),
            _ => None,
        }
    }

    /// The built-in variant's place in [`Variant::ALL`]; `None` for a
    /// defined one.
    pub fn built_in_index(self) -> Option<usize> {
        Some(match self {
            Variant::Chess => 0,
            Variant::Gardner => 1,
            Variant::Swap => 2,
            Variant::Building => 3,
            Variant::Corral => 4,
            Variant::Disintegration => 5,
            Variant::Kristensen => 6,
            Variant::Defined(_) => return None,
        })
    }

    /// The variant's name on the command line: `chess`, `swap`, ...
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The value written in a PGN `Variant` tag: the name other programs
    /// use where there is one (Fairy-Stockfish, pychess and lichess say
    /// `gardner`), else the full name. A FIDE chess game gets no tag.
    pub fn tag(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Gardner => "gardner",
            Variant::Defined(_) => self.spec().name,
            _ => self.spec().title,
        }
    }

    /// Finds a variant by name or alias, ignoring case, spaces, hyphens,
    /// apostrophes and a trailing "chess" ("Swap Chess", "Kristensen's Game").
    pub fn from_name(text: &str) -> Option<Variant> {
        let key = name_key(text);
        // A defined variant's name is exact (Fairy-Stockfish's are), and
        // may not take a built-in's: the built-ins come first.
        Variant::ALL
            .into_iter()
            .find(|v| {
                let spec = v.spec();
                name_key(spec.name) == key
                    || name_key(spec.title) == key
                    || spec.aliases.iter().any(|a| name_key(a) == key)
            })
            .or_else(|| defined::find(text.trim()))
    }

    /// The compiled movement tables of this variant.
    pub fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 7] = [const { OnceLock::new() }; 7];
        match self {
            Variant::Defined(id) => defined::get(id).tables(),
            _ => {
                let i = self.built_in_index().unwrap_or_default();
                TABLES[i].get_or_init(|| Tables::build(self.spec()))
            }
        }
    }
}

fn name_key(text: &str) -> String {
    let k: String = text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    match k.strip_suffix("chess") {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => k,
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One piece kind of a variant: its letter's role and its movement in
/// Betza's notation (read by `movement::parse_betza`).
#[derive(Debug)]
pub struct PieceSpec {
    pub role: Role,
    /// Movement descriptor, e.g. `R`, `Q4`, `W2A`, `mfWcfF`.
    pub betza: &'static str,
    /// Whether the piece's captures attack an enemy king. False for the
    /// Kristensen barrier pawn, which never gives check (KR-7).
    pub gives_check: bool,
}

/// A variant as data. Each field is documented where it is read.
#[derive(Debug)]
pub struct Spec {
    /// Name on the command line.
    pub name: &'static str,
    /// Full name, as in the rule pages and PGN `Variant` tags.
    pub title: &'static str,
    /// Other names accepted (case-insensitive).
    pub aliases: &'static [&'static str],
    /// One line for `postal variants`.
    pub summary: &'static str,
    /// Board size at the start: files and ranks.
    pub files: i16,
    pub ranks: i16,
    /// Start position text.
    pub start: &'static str,
    /// Piece kinds and their movement.
    pub pieces: &'static [PieceSpec],
    /// What a pawn may promote to, in the order moves are listed.
    pub promotion: &'static [Role],
    /// Fixed promotion ranks `(white, black)`; `None` promotes on the far
    /// edge of the board.
    pub promotion_ranks: Option<(i16, i16)>,
    /// Ranks, counted from the pawn's own side (1 = its first rank), from
    /// which a pawn may step two squares. Empty: no double step.
    pub double_step_ranks: &'static [i16],
    pub en_passant: bool,
    /// FIDE castling on the standard squares.
    pub castling: bool,
    /// Whether the board may grow and have holes (Building Chess); when
    /// false, a position text must have exactly `files` x `ranks` squares.
    pub board_grows: bool,
    /// Whether several pieces may share a square (Corral Chess).
    pub stacks: bool,
    /// The rules as implemented, with their ids (`postal rules`).
    pub rules_text: &'static str,
    /// The variant this describes.
    pub variant: Variant,
    /// Whether a position can recur only among the positions since the
    /// last reset of the halfmove clock, so that repetitions are counted
    /// there alone. True for FIDE's rules (chess, Gardner's minichess):
    /// the clock is reset by a capture, which lowers the material for
    /// good, and by a pawn move, which no move undoes (pawns go forward
    /// only). Not so where pawns step back (Kristensen's Game), captured
    /// pieces return (Corral's prison) or a turn changes the board.
    pub repetitions_since_reset: bool,
    /// Whether no position of a game ever recurs (Building Chess: every
    /// turn adds a square, BU-2): a game then keeps only its current
    /// position and plays each move on it, where a copy of a large board
    /// would be most of a turn's cost.
    pub never_repeats: bool,
    /// Whether [`Rules::history_outcome`] can end a game (it looks back
    /// over the positions): readers then keep the history for it.
    pub looks_back: bool,
    /// The version of postal's rules of the variant, recorded in every
    /// game of it (issue 42): raised whenever a change of the rules would
    /// play a game differently, so that a game started under the old
    /// version is refused, saying so, rather than played on under the
    /// new one. A defined variant's rules are its definition's text,
    /// which the game records instead (0 here).
    pub rules_version: u32,
    /// Why a player may not resign, with the rule's id; `None` where
    /// resigning is allowed.
    pub no_resigning: Option<&'static str>,
    /// The endings the game layer decides from a game's history rather
    /// than from its position: repetitions, and the draws a player may
    /// claim ([`Endings::FIDE`] in the built-in games).
    pub endings: Endings,
}

/// How a game ends by repetition and by a count of moves, beyond what
/// [`Rules::outcome`] decides from the position alone (`game/ending.rs`
/// applies it after every ply; `game/acts.rs` the claims).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endings {
    /// The occurrence of one position that ends the game at once (0:
    /// none), and the result then for the side to move (for White where
    /// `repetition_absolute`).
    pub repetition: u32,
    pub repetition_result: Relative,
    pub repetition_absolute: bool,
    /// Whether a repetition during which one side gave check at every
    /// turn loses for that side, instead (Fairy-Stockfish's
    /// `perpetualCheckIllegal`; both sides: a draw).
    pub perpetual_check: bool,
    /// Whether the game ends after seventy-five moves by each side
    /// without capture or pawn move (where the position does not count
    /// moves itself).
    pub seventy_five_moves: bool,
    /// Whether a player may claim a draw by threefold repetition and by
    /// fifty moves.
    pub claims: bool,
    /// The rule these come from, named in the game's result.
    pub rule: &'static str,
}

/// A result as seen by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relative {
    Win,
    Draw,
    Loss,
}

impl Endings {
    /// FIDE's (FI-5): the fifth occurrence of a position and seventy-five
    /// moves draw at once; threefold repetition and fifty moves may be
    /// claimed.
    pub const FIDE: Endings = Endings {
        repetition: 5,
        repetition_result: Relative::Draw,
        repetition_absolute: false,
        perpetual_check: false,
        seventy_five_moves: true,
        claims: true,
        rule: "FI-5",
    };
}

/// A direction along which some pieces of one side capture, with how far
/// each kind reaches: `masks[k]` selects (as [`crate::piece::Roles`]
/// nibbles) the kinds that capture at distance `k + 1` (the last entry
/// stands for all longer distances); `others[k]` the kinds beyond the
/// built-in eight (a defined variant's), as bits by [`Role::index`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackDir {
    pub dx: i16,
    pub dy: i16,
    pub max: u8,
    pub masks: [u32; 8],
    pub others: [u32; 8],
    /// For lame leaps (a defined variant's `nN`), the square the leap
    /// passes, from the leaper ([`crate::movement::lame_step`]): the
    /// leaper attacks only while it is empty.
    pub pass: Option<(i16, i16)>,
}

impl AttackDir {
    /// Whether a piece of the cell `c` captures along this direction at
    /// distance `k + 1` (the cell's side aside).
    #[inline(always)]
    pub fn hits(&self, c: crate::piece::Stack, k: usize) -> bool {
        let k = k.min(7);
        (c.roles().0 & self.masks[k]) | (c.other_bits() & self.others[k]) != 0
    }
}

/// Movement compiled for fast generation: rays per role and side, and
/// attack directions per attacking side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    pub rays: Vec<ByColor<Vec<Ray>>>,
    pub attacks: ByColor<Vec<AttackDir>>,
    /// The hops' attack directions (a defined variant's cannons and
    /// grasshoppers): `max` and the masks count the squares between the
    /// hurdle and the target.
    pub hops: ByColor<Vec<AttackDir>>,
    /// Whether a side has lame leaps among its captures (directions
    /// with a [`AttackDir::pass`]).
    pub lame: ByColor<bool>,
}

impl Tables {
    pub fn build(spec: &Spec) -> Tables {
        Tables::of(
            spec.pieces
                .iter()
                .map(|p| (p.role, Movement::betza(p.betza), p.gives_check)),
        )
        .expect("Movement::betza refuses what has no ray")
    }

    /// The tables of pieces given as their role, their movement and
    /// whether their captures attack a king; `None` when a movement has
    /// a step of more than [`crate::board::MARGIN`] squares, which the
    /// board cannot step.
    pub fn of(pieces: impl IntoIterator<Item = (Role, Movement, bool)>) -> Option<Tables> {
        let mut rays: Vec<ByColor<Vec<Ray>>> =
            (0..Role::COUNT).map(|_| ByColor::default()).collect();
        let mut attacks: ByColor<Vec<AttackDir>> = ByColor::default();
        let mut hops: ByColor<Vec<AttackDir>> = ByColor::default();
        let mut lame: ByColor<bool> = ByColor::default();
        for (role, movement, gives_check) in pieces {
            for color in Color::ALL {
                let r = movement.rays(color);
                if r.iter()
                    .any(|r| r.dx.abs().max(r.dy.abs()) > crate::board::MARGIN)
                {
                    return None;
                }
                if gives_check {
                    for ray in r.iter().filter(|r| r.mode.captures()) {
                        let list = if ray.hop {
                            &mut hops[color]
                        } else {
                            &mut attacks[color]
                        };
                        let pass = if ray.lame {
                            lame[color] = true;
                            crate::movement::lame_step(ray.dx, ray.dy)
                        } else {
                            None
                        };
                        let found = list
                            .iter()
                            .position(|d| d.dx == ray.dx && d.dy == ray.dy && d.pass == pass);
                        let pos = match found {
                            Some(p) => p,
                            None => {
                                list.push(AttackDir {
                                    dx: ray.dx,
                                    dy: ray.dy,
                                    max: 0,
                                    masks: [0; 8],
                                    others: [0; 8],
                                    pass,
                                });
                                list.len() - 1
                            }
                        };
                        let dir = &mut list[pos];
                        dir.max = dir.max.max(ray.range);
                        for k in 0..8usize {
                            if ray.range as usize > k {
                                if role.is_built_in() {
                                    dir.masks[k] |= role_nibbles(&[role]);
                                } else {
                                    dir.others[k] |= 1 << role.index();
                                }
                            }
                        }
                    }
                }
                rays[role.index()][color] = r;
            }
        }
        // Short directions first: most attacks are found near the target.
        for color in Color::ALL {
            attacks[color].sort_by_key(|d| d.max);
        }
        Some(Tables {
            rays,
            attacks,
            hops,
            lame,
        })
    }

    /// True when `from` lies on a straight line from `king` along which a
    /// slider of `by` could attack the king through `from`.
    pub fn slider_line(&self, by: Color, king: Square, from: Square) -> bool {
        let (dx, dy) = (from.file - king.file, from.rank - king.rank);
        if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) || (dx == 0 && dy == 0) {
            return false;
        }
        let (sx, sy) = (-dx.signum(), -dy.signum());
        self.attacks[by]
            .iter()
            .any(|d| d.dx == sx && d.dy == sy && d.max >= 2)
    }
}

/// State only one variant needs, kept in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Extra {
    #[default]
    None,
    Swap(swap::State),
    Corral(corral::State),
    Disintegration(disintegration::State),
    Kristensen(kristensen::State),
    /// What a defined variant's position holds beyond its board.
    Defined(Box<ini::State>),
}

impl Extra {
    /// Whether two states are one for repetitions: equal, but for which
    /// pieces of a defined variant were promoted, which a repetition
    /// ignores.
    pub fn repeats(&self, other: &Extra) -> bool {
        match (self, other) {
            (Extra::Defined(a), Extra::Defined(b)) => a.repeats(b),
            _ => self == other,
        }
    }

    /// The state as a key for repetitions: the same for two states that
    /// [`Extra::repeats`] finds one.
    pub fn repetition_key(&self) -> Extra {
        match self {
            Extra::Defined(p) => Extra::Defined(Box::new(p.without_promotions())),
            other => other.clone(),
        }
    }
}

/// What a variant's rules promise beyond the general [`Rules`] methods,
/// so that callers may take a faster path to the same answers. Every
/// promise is checked against the general methods on random positions of
/// every variant (`tests/capability.rs`).
#[derive(Clone, Copy, Default)]
pub struct Capability {
    /// The turns are exactly the shared generator's legal single-piece
    /// moves ([`Position::legal_piece_moves`], king safety included), as
    /// the default [`Rules::legal_moves`] lists them. Callers may then ask
    /// the generator for the moves they need (the first legal move; the
    /// moves of one piece kind onto one square) instead of listing every
    /// move, and need not check again a move it gave.
    pub shared_moves: bool,
    /// [`Rules::may_capture`] is FIDE's: any piece may capture any enemy
    /// piece and nothing else. The move generator then decides captures
    /// without calling it.
    pub fide_captures: bool,
    /// Counts perft ([`crate::perft::perft`]) faster than by playing
    /// every turn on a copy of the position, with the same result.
    pub perft: Option<fn(&Position, u32) -> u64>,
    /// Plays lines of plain moves on a faster board ([`FastLine`]), where
    /// it can hold the position.
    pub fast_line: Option<fn(&Position) -> Option<FastLine>>,
}

/// A variant's rules: legality and the game's end, nothing about text.
/// Defaults give FIDE behaviour on the variant's tables; each variant
/// module overrides what its rules change.
pub trait Rules: Sync + Send {
    fn spec(&self) -> &'static Spec;

    /// Checks a position read from text: by default each side has exactly
    /// one king and the side not to move is not in check.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        validate::one_king_each(pos, "this variant")?;
        validate::side_not_to_move_not_in_check(pos)
    }

    /// All legal turns. For Swap Chess, whose swap sequences can number
    /// hundreds of millions, this lists the ordinary moves only; its module
    /// offers the sequences step by step.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        pos.legal_piece_moves(&mut moves);
        moves
    }

    /// Checks one move, saying why it is illegal.
    fn check_legal(&self, pos: &Position, mv: &Move) -> Result<(), PlayError> {
        let legal = if self.capability().shared_moves {
            pos.is_legal_piece_move(mv)
        } else {
            self.legal_moves(pos).contains(mv)
        };
        if legal {
            Ok(())
        } else {
            Err(PlayError::Illegal {
                reason: "not a legal move in this position".into(),
                rule: None,
            })
        }
    }

    /// The legal turns of a piece of `role` onto `to`, where the variant
    /// can list them alone (its turns are the shared generator's); `None`
    /// where only the whole list ([`Rules::legal_moves`]) says. What a SAN
    /// text naming that kind and square is read among, and what a move
    /// written in SAN must be told apart from.
    fn legal_moves_to(&self, pos: &Position, role: Role, to: Square) -> Option<Vec<Move>> {
        self.capability()
            .shared_moves
            .then(|| pos.legal_piece_moves_to(role, to))
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        if self.capability().shared_moves {
            crate::movegen::KingSafety::with(|s| pos.has_legal_piece_move(s))
        } else {
            !self.legal_moves(pos).is_empty()
        }
    }

    /// Applies a legal move to the position (no legality check).
    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        match mv {
            Move::Piece(m) => pos.apply_piece_move(m),
            Move::Swap(_) => Effects::default(),
        }
    }

    /// Is the side to move in check?
    fn in_check(&self, pos: &Position) -> bool {
        pos.king_attacked(pos.turn)
    }

    /// The end decided by the position alone. `known_move`: the caller
    /// has found a legal move for the side to move (the record verifier
    /// resolves the written move first), so that whether there is one
    /// need not be asked again; the answer is the same.
    fn outcome(&self, pos: &Position, known_move: bool) -> Option<Outcome> {
        // Check matters only when there is no move.
        let has_move = known_move || self.has_legal_move(pos);
        pos.fide_outcome(has_move, !has_move && self.in_check(pos))
    }

    /// The end decided by the game's history rather than by the position
    /// alone, for rules such as Kristensen's perpetual check (KR-10), in a
    /// variant whose [`Spec::looks_back`] says it has one. `history` holds
    /// the positions from the game's start, one per ply: `history[0]` is
    /// the start, the last entry is the current position. The game layer
    /// and the record verifier call it after every ply, after
    /// [`Rules::outcome`] found nothing. The default decides nothing:
    /// FIDE's repetition and fifty-move draws are claims (or, for fivefold
    /// repetition, a rule the game layer applies to every variant), not
    /// this hook's business.
    fn history_outcome(&self, _history: &[Position]) -> Option<Outcome> {
        None
    }

    /// May the piece of `role` on cell `from` capture what stands on cell
    /// `to` (occupied)? FIDE: any enemy piece.
    fn may_capture(&self, pos: &Position, _role: Role, _from: usize, to: usize) -> bool {
        pos.board.cell(to).color() != pos.turn
    }

    /// May the pawn on `from` make a double step (path permitting)?
    fn may_double_step(&self, pos: &Position, from: Square) -> bool {
        let own_rank = match pos.turn {
            Color::White => from.rank - pos.first_rank(Color::White) + 1,
            Color::Black => pos.first_rank(Color::Black) - from.rank + 1,
        };
        self.spec().double_step_ranks.contains(&own_rank)
    }

    /// What these rules promise beyond the methods above (none by
    /// default, which is always correct).
    fn capability(&self) -> Capability {
        Capability::default()
    }
}
