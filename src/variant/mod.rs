//! The variants: one module each, and what they share: the [`Rules`] trait
//! the rest of the program calls, the [`Spec`] table that describes a
//! variant as data (board size, start position, piece movement, pawn
//! rules), and the movement [`Tables`] compiled from it.

pub mod building;
pub mod chess;
pub mod corral;
pub mod disintegration;
pub mod gardner;
pub mod kristensen;
pub mod swap;
pub mod validate;

use crate::color::{ByColor, Color};
use crate::error::PlayError;
use crate::movement::{Movement, Ray};
use crate::mv::Move;
use crate::piece::Role;
use crate::position::{role_nibbles, Effects, Outcome, Position};
use crate::square::Square;
use std::sync::OnceLock;

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
        }
    }

    pub fn spec(self) -> &'static Spec {
        self.rules().spec()
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
            _ => self.spec().title,
        }
    }

    /// Finds a variant by name or alias, ignoring case, spaces, hyphens,
    /// apostrophes and a trailing "chess" ("Swap Chess", "Kristensen's Game").
    pub fn from_name(text: &str) -> Option<Variant> {
        let key = name_key(text);
        Variant::ALL.into_iter().find(|v| {
            let spec = v.spec();
            name_key(spec.name) == key
                || name_key(spec.title) == key
                || spec.aliases.iter().any(|a| name_key(a) == key)
        })
    }

    /// The compiled movement tables of this variant.
    pub fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 16] = [const { OnceLock::new() }; 16];
        TABLES[self as usize].get_or_init(|| Tables::build(self.spec()))
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

/// One piece kind of a variant: its letter's role and its movement in the
/// Betza subset of `movement`.
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
}

/// A direction along which some pieces of one side capture, with how far
/// each kind reaches: `masks[k]` selects (as [`crate::piece::Roles`]
/// nibbles) the kinds that capture at distance `k + 1` (the last entry
/// stands for all longer distances).
#[derive(Clone, Debug)]
pub struct AttackDir {
    pub dx: i16,
    pub dy: i16,
    pub max: u8,
    pub masks: [u32; 8],
}

/// Movement compiled for fast generation: rays per role and side, and
/// attack directions per attacking side.
#[derive(Debug)]
pub struct Tables {
    pub rays: Vec<ByColor<Vec<Ray>>>,
    pub attacks: ByColor<Vec<AttackDir>>,
}

impl Tables {
    pub fn build(spec: &Spec) -> Tables {
        let mut rays: Vec<ByColor<Vec<Ray>>> =
            (0..Role::ALL.len()).map(|_| ByColor::default()).collect();
        let mut attacks: ByColor<Vec<AttackDir>> = ByColor::default();
        for piece in spec.pieces {
            let movement = Movement::betza(piece.betza);
            for color in Color::ALL {
                let r = movement.rays(color);
                if piece.gives_check {
                    for ray in r.iter().filter(|r| r.mode.captures()) {
                        let list = &mut attacks[color];
                        let pos = match list.iter().position(|d| d.dx == ray.dx && d.dy == ray.dy) {
                            Some(p) => p,
                            None => {
                                list.push(AttackDir {
                                    dx: ray.dx,
                                    dy: ray.dy,
                                    max: 0,
                                    masks: [0; 8],
                                });
                                list.len() - 1
                            }
                        };
                        let dir = &mut list[pos];
                        dir.max = dir.max.max(ray.range);
                        for k in 0..8usize {
                            if ray.range as usize > k {
                                dir.masks[k] |= role_nibbles(&[piece.role]);
                            }
                        }
                    }
                }
                rays[piece.role.index()][color] = r;
            }
        }
        // Short directions first: most attacks are found near the target.
        for color in Color::ALL {
            attacks[color].sort_by_key(|d| d.max);
        }
        Tables { rays, attacks }
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
}

/// A variant's rules. Defaults give FIDE behaviour on the variant's tables;
/// each variant module overrides what its rules change.
pub trait Rules: Sync + Send {
    fn spec(&self) -> &'static Spec;

    fn variant(&self) -> Variant;

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

    /// True when the turns are exactly the shared generator's legal
    /// single-piece moves, as the default [`Rules::legal_moves`] lists them
    /// (king safety included). The defaults of [`Rules::has_legal_move`],
    /// [`Rules::check_legal`] and [`Rules::resolve`] then ask the generator
    /// for the moves they need (the first legal move; the moves of one
    /// piece kind onto one square) instead of listing every move. A
    /// variant that changes `legal_moves` leaves this false (the default).
    fn shared_moves(&self) -> bool {
        false
    }

    /// Checks one move, saying why it is illegal.
    fn check_legal(&self, pos: &Position, mv: &Move) -> Result<(), PlayError> {
        let legal = if self.shared_moves() {
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

    fn is_legal(&self, pos: &Position, mv: &Move) -> bool {
        self.check_legal(pos, mv).is_ok()
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        if self.shared_moves() {
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

    /// The end decided by the position alone.
    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        // Check matters only when there is no move.
        let has_move = self.has_legal_move(pos);
        pos.fide_outcome(has_move, !has_move && self.in_check(pos))
    }

    /// [`Rules::outcome`] of a position in which a legal move has just been
    /// found (the record verifier resolves the written move first), so
    /// that whether there is one need not be asked again. Default: the
    /// outcome, asked in full.
    fn outcome_with_move(&self, pos: &Position) -> Option<Outcome> {
        self.outcome(pos)
    }

    /// The end decided by the game's history rather than by the position
    /// alone, for rules such as Kristensen's perpetual check (KR-10).
    /// `history` holds the positions from the game's start, one per ply:
    /// `history[0]` is the start, the last entry is the current position.
    /// The game layer and the record verifier call it after every ply,
    /// after [`Rules::outcome`] found nothing. The default decides nothing:
    /// FIDE's repetition and fifty-move draws are claims (or, for fivefold
    /// repetition, a rule the game layer applies to every variant), not
    /// this hook's business.
    fn history_outcome(&self, _history: &[Position]) -> Option<Outcome> {
        None
    }

    /// True when [`Rules::history_outcome`] can end a game (it looks back
    /// over the positions): readers then keep the history for it.
    fn looks_back(&self) -> bool {
        false
    }

    /// May a player resign in this variant? `Err` carries the reason, with
    /// its rule id, to show the player. Default: resigning is allowed.
    fn may_resign(&self) -> Result<(), String> {
        Ok(())
    }

    /// The check mark to write after a move that led to `after`: `+`, `#`
    /// or nothing.
    fn check_mark(&self, after: &Position) -> &'static str {
        if self.in_check(after) {
            if self.has_legal_move(after) {
                "+"
            } else {
                "#"
            }
        } else {
            ""
        }
    }

    /// True when [`Rules::may_capture`] is FIDE's: any piece may capture
    /// any enemy piece and nothing else. The move generator then decides
    /// captures without calling it. A variant that changes `may_capture`
    /// leaves this false (the default, which is always correct).
    fn captures_any_enemy(&self) -> bool {
        false
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

    /// Counts the leaf nodes `depth` turns deep (perft). Counts the last
    /// turn in bulk, as other engines do. The default applies each move to
    /// a copy ([`crate::perft::perft_by_copy`]); a variant whose turns are
    /// the shared generator's moves plays them in place instead
    /// ([`crate::perft::perft_in_place`]).
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        crate::perft::perft_by_copy(self, pos, depth)
    }
}
