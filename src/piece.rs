//! Piece kinds, pieces, and stacks: what can stand on one square.
//!
//! A [`Role`] is a piece kind by letter. How it moves is not decided here but
//! by the variant's table of movement descriptors (`movement`), so the
//! Kristensen rook and the FIDE rook share the letter `R` and differ in data.

use crate::color::Color;
use std::fmt;

/// A piece kind, named by its letter: a small number, so that a variant
/// may bring kinds of its own beside the eight built-in ones below.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Role(u8);

#[allow(non_upper_case_globals)]
impl Role {
    pub const King: Role = Role(0);
    pub const Queen: Role = Role(1);
    pub const Rook: Role = Role(2);
    pub const Bishop: Role = Role(3);
    pub const Knight: Role = Role(4);
    pub const Pawn: Role = Role(5);
    /// The Disintegration Chess Fye'tin (DI-5).
    pub const Fyetin: Role = Role(6);
    /// The Kristensen barrier pawn, `W` for wall (KR-6).
    pub const Barrier: Role = Role(7);

    pub const ALL: [Role; 8] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Fyetin,
        Role::Barrier,
    ];

    /// The letter of every kind: the eight built in first, then every
    /// other letter, one kind each, for the pieces a defined variant
    /// brings (its archbishop `A`, its chancellor `C`). What such a kind
    /// is called and how it moves is the variant's to say.
    const LETTERS: &'static [u8; 26] = b"KQRBNPFWACDEGHIJLMOSTUVXYZ";

    /// How many kinds there are: one per Latin letter.
    pub const COUNT: usize = Role::LETTERS.len();

    /// Upper-case letter.
    pub fn char(self) -> char {
        Role::LETTERS[self.index()] as char
    }

    /// The built-in kind of a letter, either case.
    pub fn from_char(c: char) -> Option<Role> {
        Role::from_letter(c).filter(|r| r.is_built_in())
    }

    /// The kind of any Latin letter, either case: a built-in kind or a
    /// kind a defined variant may bring.
    pub fn from_letter(c: char) -> Option<Role> {
        let u = c.to_ascii_uppercase();
        if !u.is_ascii_uppercase() {
            return None;
        }
        let i = Role::LETTERS.iter().position(|&l| l == u as u8)?;
        Some(Role(i as u8))
    }

    /// One of the eight kinds with rules of their own in this program.
    pub fn is_built_in(self) -> bool {
        self.index() < Role::ALL.len()
    }

    /// The built-in kinds' names; another kind is named by its letter
    /// here (`piece A`), and by its variant where that knows better.
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 26] = [
            "king",
            "queen",
            "rook",
            "bishop",
            "knight",
            "pawn",
            "Fye'tin",
            "barrier pawn",
            "piece A",
            "piece C",
            "piece D",
            "piece E",
            "piece G",
            "piece H",
            "piece I",
            "piece J",
            "piece L",
            "piece M",
            "piece O",
            "piece S",
            "piece T",
            "piece U",
            "piece V",
            "piece X",
            "piece Y",
            "piece Z",
        ];
        NAMES[self.index()]
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind of an [`Role::index`] (below 26).
    pub fn from_index(i: usize) -> Role {
        debug_assert!(i < Role::LETTERS.len());
        Role(i as u8)
    }
}

/// A piece: a side and a kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The letter as in position text: upper case White, lower case Black.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.char(),
            Color::Black => self.role.char().to_ascii_lowercase(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            self.color.name().to_lowercase(),
            self.role.name()
        )
    }
}

/// A multiset of piece kinds: four bits of count per role.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roles(pub u32);

impl Roles {
    pub const EMPTY: Roles = Roles(0);

    /// One piece of a built-in kind (none of another: a stack holds such
    /// a piece alone, [`Stack::single`]).
    pub fn one(role: Role) -> Roles {
        Roles(1u32.checked_shl(4 * role.index() as u32).unwrap_or(0))
    }

    /// How many of a built-in kind (none of another).
    pub fn count(self, role: Role) -> u32 {
        self.0.checked_shr(4 * role.index() as u32).unwrap_or(0) & 0xf
    }

    pub fn len(self) -> u32 {
        Role::ALL.iter().map(|&r| self.count(r)).sum()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// Adds one piece of `role`. Counts saturate at 15, more than any
    /// variant can put on one square of one kind.
    pub fn with(self, role: Role) -> Roles {
        if self.count(role) == 15 {
            self
        } else {
            Roles(self.0 + Roles::one(role).0)
        }
    }

    /// Removes one piece of `role`, if there is one.
    pub fn without(self, role: Role) -> Roles {
        if self.count(role) == 0 {
            self
        } else {
            Roles(self.0 - (1 << (4 * role.index())))
        }
    }

    pub fn union(self, other: Roles) -> Roles {
        Role::ALL.iter().fold(self, |acc, &r| {
            (0..other.count(r)).fold(acc, |a, _| a.with(r))
        })
    }

    /// True when every piece of `other` is in `self`.
    pub fn includes(self, other: Roles) -> bool {
        Role::ALL.iter().all(|&r| self.count(r) >= other.count(r))
    }

    /// The difference `self - other` (pieces of `other` not in `self` are ignored).
    pub fn minus(self, other: Roles) -> Roles {
        Role::ALL.iter().fold(self, |acc, &r| {
            (0..other.count(r)).fold(acc, |a, _| a.without(r))
        })
    }

    /// The kinds present, one each, as a bit mask indexed by role.
    pub fn mask(self) -> u8 {
        let mut m = 0u8;
        for r in Role::ALL {
            if self.count(r) > 0 {
                m |= 1 << r.index();
            }
        }
        m
    }

    /// The roles in the order given, each repeated by its count.
    pub fn iter_in(self, order: &'static [Role]) -> impl Iterator<Item = Role> {
        order
            .iter()
            .flat_map(move |&r| std::iter::repeat_n(r, self.count(r) as usize))
    }

    /// The only role, when exactly one piece is counted.
    pub fn single(self) -> Option<Role> {
        let bits = self.0;
        if bits != 0 && bits.is_power_of_two() {
            Some(Role::from_index(bits.trailing_zeros() as usize / 4))
        } else {
            None
        }
    }
}

/// Canonical order of pieces in a stack's position text (rules/corral.md).
pub const STACK_ORDER: [Role; 8] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
    Role::Fyetin,
    Role::Barrier,
];

/// Canonical order of pieces named in a stack move (rules/corral.md).
pub const MOVE_ORDER: [Role; 8] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
    Role::Fyetin,
    Role::Barrier,
];

/// What stands on one cell: nothing, the pieces of one side (usually one
/// piece; several in a Corral stack, CO-2), or `OFF` for a cell that is not
/// part of the board. Encoded in 64 bits so boards copy cheaply.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stack(u64);

const COLOR_BIT: u64 = 1 << 32;

/// Where a stack keeps the one piece of a kind beyond the built-in eight
/// (a defined variant's, which never stack): its role's number, in the
/// byte above the built-in kinds' counts and the colour.
const OTHER_SHIFT: u32 = 40;

impl Stack {
    pub const EMPTY: Stack = Stack(0);
    pub const OFF: Stack = Stack(u64::MAX);
    /// A cell of a tile's margin where the board goes on in the tile next
    /// to it: the board's own mark, which [`crate::board::Board::step`]
    /// follows and no caller ever reads (no stack of pieces has this code).
    pub(crate) const EDGE: Stack = Stack(u64::MAX - 1);

    pub fn single(piece: Piece) -> Stack {
        if !piece.role.is_built_in() {
            let c = match piece.color {
                Color::White => 0,
                Color::Black => COLOR_BIT,
            };
            return Stack(c | (piece.role.0 as u64) << OTHER_SHIFT);
        }
        Stack::of(piece.color, Roles::one(piece.role))
    }

    pub fn of(color: Color, roles: Roles) -> Stack {
        if roles.is_empty() {
            return Stack::EMPTY;
        }
        let c = match color {
            Color::White => 0,
            Color::Black => COLOR_BIT,
        };
        Stack(c | roles.0 as u64)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn is_off(self) -> bool {
        self.0 == u64::MAX
    }

    /// True when a piece stands here (not empty, not off the board).
    pub fn is_occupied(self) -> bool {
        self.0 != 0 && self.0 != u64::MAX
    }

    /// The side of the pieces here; meaningful only when occupied.
    pub fn color(self) -> Color {
        if self.0 & COLOR_BIT != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The piece here of a kind beyond the built-in eight, if that is
    /// what stands here.
    fn other(self) -> Option<Role> {
        let code = (self.0 >> OTHER_SHIFT) as u8;
        (self.is_occupied() && code != 0 && (code as usize) < Role::LETTERS.len())
            .then_some(Role(code))
    }

    /// The kind here beyond the built-in eight, as a bit at its
    /// [`Role::index`] (none for a built-in kind, an empty cell or one off
    /// the board): what an [`crate::variant::AttackDir`] tests beside the
    /// built-in kinds' nibbles.
    #[inline(always)]
    pub fn other_bits(self) -> u32 {
        let code = (self.0 >> OTHER_SHIFT) as u8 as usize;
        if (Role::ALL.len()..Role::LETTERS.len()).contains(&code) {
            1 << code
        } else {
            0
        }
    }

    /// The built-in kinds here, counted (none for a piece of another
    /// kind: see [`Stack::piece`]).
    pub fn roles(self) -> Roles {
        if self.is_off() {
            Roles::EMPTY
        } else {
            Roles(self.0 as u32)
        }
    }

    /// The one piece here, when exactly one stands here.
    pub fn piece(self) -> Option<Piece> {
        if self.is_off() {
            return None;
        }
        if let Some(role) = self.other() {
            return Some(Piece {
                color: self.color(),
                role,
            });
        }
        self.roles().single().map(|role| Piece {
            color: self.color(),
            role,
        })
    }

    /// True when a piece of `color` and `role` is in this stack.
    pub fn has(self, color: Color, role: Role) -> bool {
        self.is_occupied()
            && self.color() == color
            && match self.other() {
                Some(r) => r == role,
                None => role.is_built_in() && self.roles().contains(role),
            }
    }

    pub fn len(self) -> u32 {
        match self.other() {
            Some(_) => 1,
            None => self.roles().len(),
        }
    }

    /// All pieces here, one by one, in the stack's canonical order.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        let color = self.color();
        let roles = if self.is_occupied() {
            self.roles()
        } else {
            Roles::EMPTY
        };
        let other = self.other().map(|role| Piece { color, role });
        roles
            .iter_in(&STACK_ORDER)
            .map(move |role| Piece { color, role })
            .chain(other)
    }
}

impl fmt::Debug for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_off() {
            return f.write_str("*");
        }
        if *self == Stack::EDGE {
            return f.write_str(">");
        }
        if self.is_empty() {
            return f.write_str(".");
        }
        for p in self.pieces() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_count_and_order() {
        // CO-2: b2 holds two pawns, a knight and a bishop: `(PPNB)`.
        let roles = Roles::EMPTY
            .with(Role::Bishop)
            .with(Role::Pawn)
            .with(Role::Knight)
            .with(Role::Pawn);
        let s = Stack::of(Color::White, roles);
        assert_eq!(format!("{s:?}"), "PPNB");
        assert_eq!(s.len(), 4);
        assert!(s.piece().is_none());
        assert_eq!(
            Stack::single(Piece::new(Color::Black, Role::Queen)).piece(),
            Some(Piece::new(Color::Black, Role::Queen))
        );
        assert!(roles.includes(Roles::one(Role::Pawn).with(Role::Pawn)));
        assert_eq!(roles.minus(Roles::one(Role::Pawn)).count(Role::Pawn), 1);
    }
}
