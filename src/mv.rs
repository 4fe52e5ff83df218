//! Moves: what a turn does, as a value that the notation reads and writes
//! and that the rules apply.

use crate::piece::{Role, Roles};
use crate::square::Square;

/// How a piece move is special.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    /// A pawn's two-square step; it may be taken en passant.
    DoubleStep,
    /// A pawn capture onto the square a double step passed; the captured
    /// pawn stands on `captured`.
    EnPassant {
        captured: Square,
    },
    /// Castling: the king goes `from` -> `to`, the rook `rook` -> `rook_to`.
    Castle {
        rook: Square,
        rook_to: Square,
    },
    /// A piece put from its side's hand onto the empty square `to`
    /// (`from` is `to`): a defined variant's drop, written `N@f3`.
    Drop,
}

/// A move of one piece (and, in Corral Chess, what it carries), with the
/// Building Chess placement that completes the turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceMove {
    /// The moving piece's kind: for a stack, the mover whose powers decide
    /// the move (CO-8).
    pub role: Role,
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    /// The mover's promotion.
    pub promotion: Option<Role>,
    /// Pieces carried along with the mover (CO-8); empty elsewhere.
    pub carried: Roles,
    /// What carried pawns promote to, as a multiset (CO-16).
    pub carried_promotions: Roles,
    /// The square added at the end of a Building Chess turn (BU-2).
    pub place: Option<Square>,
}

impl PieceMove {
    pub fn new(role: Role, from: Square, to: Square) -> PieceMove {
        PieceMove {
            role,
            from,
            to,
            kind: MoveKind::Normal,
            promotion: None,
            carried: Roles::EMPTY,
            carried_promotions: Roles::EMPTY,
            place: None,
        }
    }
}

/// What a move text names of a move, for the rules to find among the
/// legal moves: castling, or the kind of piece that moves, its square of
/// arrival, the parts of its square of departure that are written, and
/// the promotion written (SAN's `Nbd7`, `exd8=Q`, `O-O`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MovePattern {
    Castle {
        long: bool,
    },
    Piece {
        role: Role,
        to: Square,
        from_file: Option<i16>,
        from_rank: Option<i16>,
        promotion: Option<Role>,
    },
}

/// One swap of a swap sequence: P1 changes places with the piece on
/// `square`; `promotion` is what a pawn put on its promotion rank by this
/// swap becomes (SW-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwapStep {
    pub square: Square,
    pub promotion: Option<Role>,
}

/// A Swap Chess swap sequence (SW-3..SW-7): P1 of kind `role` starts on
/// `start` and swaps with each step's square in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SwapSequence {
    pub role: Role,
    pub start: Square,
    pub steps: Vec<SwapStep>,
}

/// A turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Piece(PieceMove),
    Swap(SwapSequence),
}

impl Move {
    /// The piece move, when this is one.
    pub fn piece(&self) -> Option<&PieceMove> {
        match self {
            Move::Piece(m) => Some(m),
            Move::Swap(_) => None,
        }
    }

    pub fn from(&self) -> Square {
        match self {
            Move::Piece(m) => m.from,
            Move::Swap(s) => s.start,
        }
    }

    /// Where the moving piece ends: a piece move's destination, or the last
    /// square of a swap sequence.
    pub fn to(&self) -> Square {
        match self {
            Move::Piece(m) => m.to,
            Move::Swap(s) => s.steps.last().map(|st| st.square).unwrap_or(s.start),
        }
    }

    pub fn role(&self) -> Role {
        match self {
            Move::Piece(m) => m.role,
            Move::Swap(s) => s.role,
        }
    }
}

impl From<PieceMove> for Move {
    fn from(m: PieceMove) -> Move {
        Move::Piece(m)
    }
}
