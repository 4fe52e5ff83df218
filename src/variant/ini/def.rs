//! A variant definition as owned data, built at run time from a section
//! of a variants.ini file: the board, the pieces and the rule keys, with
//! Fairy-Stockfish's defaults (its `variant.h`) for every key not given.

use super::pawns::{PawnKinds, PawnTypes};
use super::tables::Shared;
use crate::movement::Movement;
use crate::piece::Role;
use crate::variant::Variant;

/// Squares as bits: bit `rank * FILES + file` with [`FILES`] fixed, so
/// that a region read before the board's size is known keeps its meaning
/// (Fairy-Stockfish's regions are absolute squares too: its default
/// promotion region is rank 8, whatever the board's height).
pub type Region = u128;

/// The stride of a [`Region`]: Fairy-Stockfish's widest board.
pub const FILES: i8 = 12;
/// Its tallest board.
pub const RANKS: i8 = 10;

pub fn bit(file: i8, rank: i8) -> Region {
    1u128 << (rank as u32 * FILES as u32 + file as u32)
}

pub fn rank_region(rank: i8) -> Region {
    (0..FILES).fold(0, |r, f| r | bit(f, rank))
}

pub fn file_region(file: i8) -> Region {
    (0..RANKS).fold(0, |r, k| r | bit(file, k))
}

/// How the game scores an end: for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Loss,
    Draw,
    None,
}

impl Score {
    pub fn parse(text: &str) -> Option<Score> {
        Some(match text {
            "win" => Score::Win,
            "loss" => Score::Loss,
            "draw" => Score::Draw,
            "none" => Score::None,
            _ => return None,
        })
    }

    pub fn word(self) -> &'static str {
        match self {
            Score::Win => "win",
            Score::Loss => "loss",
            Score::Draw => "draw",
            Score::None => "none",
        }
    }
}

/// How a drawn end is decided by the pieces on the board instead
/// (`materialCounting`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Counting {
    /// The side with more pieces wins; equal, a draw.
    Unweighted,
    /// White wins.
    WhiteDrawOdds,
    /// Black wins.
    BlackDrawOdds,
}

/// What part a piece kind plays beyond its movement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Fairy-Stockfish's pawn: its own moves (step, double step, en
    /// passant, promotion), not Betza's.
    Pawn,
    /// The royal king: may not be left in check; castles.
    King,
    /// Any other piece: its Betza movement alone.
    Plain,
}

/// A piece kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Fairy-Stockfish's name for it: `knight`, `customPiece1`, ...
    pub name: String,
    /// Its order among Fairy-Stockfish's piece types (moves are listed
    /// and promotions offered in that order).
    pub order: u8,
    /// Upper-case letter.
    pub letter: char,
    pub part: Part,
    /// Movement as written, and as read.
    pub betza_text: String,
    pub betza: Movement,
}

/// A set of piece kinds by index into [`Def::kinds`]; `all` for `*`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindSet {
    pub all: bool,
    pub kinds: Vec<usize>,
}

impl KindSet {
    pub fn contains(&self, kind: usize) -> bool {
        self.all || self.kinds.contains(&kind)
    }
}

/// A variant defined by the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    pub name: String,
    pub parent: Option<String>,
    /// Board size.
    pub files: i8,
    pub ranks: i8,
    pub kinds: Vec<Kind>,
    pub start_fen: String,
    /// Display only.
    pub piece_to_char_table: String,
    pub variant_template: String,
    pub promotion_region: [Region; 2],
    pub promotion_types: [KindSet; 2],
    /// No `promotionPieceTypes*` key has set the promotions: they are
    /// Fairy-Stockfish's default, its queen, rook, bishop and knight
    /// types, whichever the variant has (found again as pieces change).
    pub promotion_by_default: bool,
    /// Most pieces of a kind a promotion may bring about (0: no limit).
    pub promotion_limit: Vec<(usize, u32)>,
    pub mandatory_pawn_promotion: bool,
    /// Shogi-style promotions (`promotedPieceType`): the piece of the
    /// first type may become one of the second on a move into, within or
    /// out of its side's promotion region. Fairy-Stockfish's type names,
    /// as it keeps them by type whatever letters later sections give.
    pub promoted_types: Vec<(String, String)>,
    /// A piece that may promote must, on a move that touches its
    /// promotion region (`mandatoryPiecePromotion`).
    pub mandatory_piece_promotion: bool,
    /// A piece promoted so may move back to its first kind, as it may
    /// promote (`pieceDemotion`).
    pub piece_demotion: bool,
    /// Pieces promote, and demote, only by capturing
    /// (`piecePromotionOnCapture`).
    pub piece_promotion_on_capture: bool,
    /// A piece in hand that may promote may be dropped promoted
    /// (`dropPromoted`).
    pub drop_promoted: bool,
    /// For each kind, the kind it promotes to ([`Def::promoted_types`]),
    /// found by [`Def::compile`].
    pub promotes_to: Vec<Option<usize>>,
    /// Fairy-Stockfish's pawn rules by piece type (`pawnTypes`,
    /// `promotionPawnTypes`, `enPassantTypes`, `nMoveRuleTypes`, `e` in a
    /// custom piece's Betza).
    pub pawn_types: PawnTypes,
    /// What they come to for each kind, found by [`Def::compile`]
    /// ([`super::pawns`]).
    pub pawn_kinds: PawnKinds,
    pub double_step: bool,
    pub double_step_region: [Region; 2],
    pub en_passant_region: [Region; 2],
    pub castling: bool,
    pub castling_kingside_file: i8,
    pub castling_queenside_file: i8,
    /// Relative to each side (0 = its first rank).
    pub castling_rank: i8,
    pub castling_king_file: i8,
    pub castling_rook_kingside_file: i8,
    pub castling_rook_queenside_file: i8,
    pub castling_rooks: [KindSet; 2],
    /// No `castlingRookPieces*` key has set the castling rooks: they are
    /// Fairy-Stockfish's default, its rook type, if the variant has one.
    pub castling_rooks_by_default: bool,
    /// Fairy-Stockfish's name of the piece kind that castles, per side.
    pub castling_king: [String; 2],
    /// Castling on one side takes the other side's right to castle on
    /// that side (`oppositeCastling`).
    pub opposite_castling: bool,
    /// A move that leaves the moved piece with no move from its square
    /// (on an empty board) is illegal.
    pub immobility_illegal: bool,
    pub stalemate: Score,
    pub checkmate: Score,
    pub extinction: Score,
    pub extinction_claim: bool,
    pub extinction_types: KindSet,
    pub extinction_count: i32,
    pub extinction_opponent_count: i32,
    /// The pieces of an extinction kind of which a side has at most
    /// `extinction_count + 1` are pseudo-royal: no move may leave one
    /// attacked (`extinctionPseudoRoyal`).
    pub pseudo_royal: bool,
    /// `None`: any piece.
    pub flag_piece: [Option<usize>; 2],
    pub flag_region: [Region; 2],
    pub flag_move: bool,
    pub flag_piece_count: i32,
    /// With fewer flag pieces than the count in the region, it is reached
    /// when it is full (`flagPieceBlockedWin`).
    pub flag_blocked_win: bool,
    /// Flag pieces count only when safe: with just the count in the
    /// region, none of them attacked (`flagPieceSafe`).
    pub flag_piece_safe: bool,
    /// A side whose move leaves `connect_n` of its `connect_types`
    /// pieces in a line (`connectN`; 0: no such rule) scores
    /// `connect_value`.
    pub connect_n: u32,
    pub connect_types: KindSet,
    /// The lines counted: along a rank, a file, a diagonal
    /// (`connectHorizontal`, `connectVertical`, `connectDiagonal`).
    pub connect_lines: [bool; 3],
    pub connect_value: Score,
    /// A side whose move makes a square of `connect_nxn` by
    /// `connect_nxn` of its connecting pieces scores `connect_value`
    /// (`connectNxN`; 0: no such rule).
    pub connect_nxn: u32,
    /// So too `collinear_n` of them on one line, gaps allowed
    /// (`collinearN`).
    pub collinear_n: u32,
    /// `[color][0 kingside, 1 queenside]`: castling so wins, and losing
    /// every such right loses (`castlingWins`).
    pub castling_wins: [[bool; 2]; 2],
    /// A drawn end by the n-move rule or by stalemate is decided by the
    /// pieces instead (`materialCounting`).
    pub material_counting: Option<Counting>,
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub n_fold_value: Score,
    /// `nFoldValue` is White's result, not the side to move's.
    pub n_fold_value_absolute: bool,
    /// A repetition ends the game lost for a side that gave check at
    /// each of its turns since the first of its occurrences counted
    /// (`perpetualCheckIllegal`).
    pub perpetual_check: bool,
    pub must_capture: bool,
    /// Whether a move may give check (`checking = false`: a move that
    /// attacks the enemy king is illegal, as in Racing Kings).
    pub checking: bool,
    /// The flying general: the royal kings attack each other, and the
    /// squares between, along an open file or rank (`flyingGeneral`).
    pub flying_general: bool,
    /// Pieces in hand may be dropped onto an empty square (`pieceDrops`).
    pub piece_drops: bool,
    /// A piece taken goes to the hand of the side that took it
    /// (`capturesToHand`), a promoted one as a pawn again.
    pub captures_to_hand: bool,
    /// A promoted piece taken goes to hand as it stands, not as a pawn
    /// (`dropLoop`).
    pub drop_loop: bool,
    /// Pawns may be dropped on their side's first rank
    /// (`firstRankPawnDrops`).
    pub first_rank_pawn_drops: bool,
    /// Pawns may be dropped in their promotion region
    /// (`promotionZonePawnDrops`).
    pub promotion_zone_pawn_drops: bool,
    /// Where each side may drop (`whiteDropRegion`, `blackDropRegion`).
    pub drop_region: [Region; 2],
    /// A kind that may not be dropped on a file that already holds
    /// `drop_no_doubled_count` of its side's pieces of that kind
    /// (`dropNoDoubled`, `dropNoDoubledCount`: shogi's two pawns on a file).
    pub drop_no_doubled: Option<usize>,
    pub drop_no_doubled_count: i32,
    /// Where each side's pieces of a type may go, move, drop and attack
    /// (`mobilityRegionWhiteKing`, ...): Fairy-Stockfish's type names, as
    /// it keeps them by type; [`Region::MAX`] for no bound.
    pub mobility_regions: Vec<(String, [Region; 2])>,
    /// Each kind's [`Def::mobility_regions`], by index, found by
    /// [`Def::compile`].
    pub mobility: Vec<[Region; 2]>,
    /// A checkmate by a shogi pawn just dropped is won by the side mated
    /// (`shogiPawnDropMateIllegal`).
    pub shogi_pawn_drop_mate_illegal: bool,
    /// A drop may give check (`dropChecks`).
    pub drop_checks: bool,
    /// While a side holds pieces in hand (of `must_drop_type`; `None`:
    /// any), it must drop one if it can (`mustDrop`, `mustDropType`).
    pub must_drop: bool,
    pub must_drop_type: Option<usize>,
    /// A capture explodes (`blastOnCapture`): the taker and every piece
    /// but a pawn on the squares around the target go too.
    pub blast_on_capture: bool,
    /// Pieces no explosion removes (`blastImmuneTypes`).
    pub blast_immune: KindSet,
    /// The section's text and its ancestors' (outermost first), as read:
    /// what a game file embeds so the game stays playable.
    pub source: Source,
    /// The kind of each [`Role`] (by its index), as
    /// [`Def::compile`] found them from the letters.
    pub kind_by_role: [Option<u8>; 26],
    /// For each side, how its pieces attack: what
    /// [`super::gen::attacked`] walks back along, found by
    /// [`Def::compile`].
    pub attacks: [Vec<Attack>; 2],
    /// The program's movement tables of the pieces, and what they serve:
    /// the shared walk, attack test and king-safety filter
    /// ([`super::tables`]). Found by [`Def::compile`].
    pub shared: Shared,
}

/// How a piece reaches along one of its capture directions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    Leap,
    /// A lame leap: the squares it passes must be empty.
    Lame,
    /// A slide of at most this many squares (0: any).
    Slide(i8),
    /// A hop over one piece, landing at most this many squares beyond
    /// (0: any).
    Hop(i8),
}

/// One capture direction of a piece of one side: the piece (kind and
/// role), the step as files and ranks on the board, and its reach.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    pub role: Role,
    pub dx: i8,
    pub dy: i8,
    pub reach: Reach,
}

/// A section's text after its ancestors', shared with them: a chain of
/// sections costs memory in its length, not in its square (issue 40).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    parent: Option<std::sync::Arc<Source>>,
    text: std::sync::Arc<str>,
}

impl Source {
    /// This source with a child section's text after it.
    pub fn child(&self, text: &str) -> Source {
        Source {
            parent: (!self.is_empty()).then(|| std::sync::Arc::new(self.clone())),
            text: text.into(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.parent.is_none()
    }

    /// The whole text, outermost ancestor first.
    pub fn text(&self) -> String {
        let mut parts = vec![&*self.text];
        let mut at = self.parent.as_deref();
        while let Some(s) = at {
            parts.push(&*s.text);
            at = s.parent.as_deref();
        }
        parts.reverse();
        parts.concat()
    }
}

/// `(name, letter, Betza)` of the pieces Fairy-Stockfish knows by name, in
/// its order of piece types, that this program plays; the king is last.
pub const NAMED: &[(&str, char, &str)] = &[
    ("pawn", 'P', "fmWfcF"),
    ("knight", 'N', "N"),
    ("bishop", 'B', "B"),
    ("rook", 'R', "R"),
    ("queen", 'Q', "Q"),
    ("fers", 'F', "F"),
    ("alfil", 'E', "A"),
    ("fersAlfil", 'E', "FA"),
    ("silver", 'S', "FfW"),
    ("aiwok", 'A', "RNF"),
    ("bers", 'D', "RF"),
    ("archbishop", 'A', "BN"),
    ("chancellor", 'C', "RN"),
    ("amazon", 'A', "QN"),
    ("knibis", 'N', "mNcB"),
    ("biskni", 'B', "mBcN"),
    ("kniroo", 'N', "mNcR"),
    ("rookni", 'R', "mRcN"),
    ("shogiPawn", 'P', "fW"),
    ("lance", 'L', "fR"),
    ("shogiKnight", 'N', "fN"),
    ("gold", 'G', "WfF"),
    ("dragonHorse", 'H', "BW"),
    ("clobber", 'P', "cW"),
    ("breakthrough", 'P', "fmWfF"),
    ("immobile", 'I', ""),
    ("cannon", 'C', "mRcpR"),
    ("soldier", 'S', "fsW"),
    ("horse", 'H', "nN"),
    ("elephant", 'E', "nA"),
    ("banner", 'A', "RcpRnN"),
    ("wazir", 'W', "W"),
    ("commoner", 'M', "K"),
    ("centaur", 'C', "KN"),
    // A cannon that may neither hop over nor take another janggi cannon
    // (`Def::janggi_cannon`).
    ("janggiCannon", 'C', "pR"),
];

/// Pieces Fairy-Stockfish knows by name whose rules are code there, not
/// Betza, and which this program therefore refuses.
pub const CODED: &[(&str, &str)] = &[("janggiElephant", "its path is special-cased")];

/// The order number of the first custom piece, and how many there are.
pub const CUSTOM_ORDER: u8 = 37;
pub const CUSTOM_COUNT: u8 = 25;
pub const KING_ORDER: u8 = 63;

impl Def {
    /// Fairy-Stockfish's defaults, with no pieces (a section without a
    /// parent starts so).
    pub fn base(name: &str) -> Def {
        Def {
            name: name.to_string(),
            parent: None,
            files: 8,
            ranks: 8,
            kinds: Vec::new(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            piece_to_char_table: "-".into(),
            variant_template: "fairy".into(),
            promotion_region: [rank_region(7), rank_region(0)],
            promotion_types: [KindSet::default(), KindSet::default()],
            promotion_by_default: true,
            promotion_limit: Vec::new(),
            mandatory_pawn_promotion: true,
            promoted_types: Vec::new(),
            mandatory_piece_promotion: false,
            piece_demotion: false,
            piece_promotion_on_capture: false,
            drop_promoted: false,
            promotes_to: Vec::new(),
            pawn_types: PawnTypes::default(),
            pawn_kinds: PawnKinds::default(),
            double_step: true,
            double_step_region: [rank_region(1), rank_region(6)],
            en_passant_region: [Region::MAX, Region::MAX],
            castling: true,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 0,
            castling_king_file: 4,
            castling_rook_kingside_file: FILES - 1,
            castling_rook_queenside_file: 0,
            castling_rooks: [KindSet::default(), KindSet::default()],
            castling_rooks_by_default: true,
            castling_king: ["king".into(), "king".into()],
            opposite_castling: false,
            immobility_illegal: false,
            stalemate: Score::Draw,
            checkmate: Score::Loss,
            extinction: Score::None,
            extinction_claim: false,
            extinction_types: KindSet::default(),
            extinction_count: 0,
            extinction_opponent_count: 0,
            pseudo_royal: false,
            flag_piece: [None, None],
            flag_region: [0, 0],
            flag_move: false,
            flag_piece_count: 1,
            flag_blocked_win: false,
            flag_piece_safe: false,
            connect_n: 0,
            connect_types: KindSet {
                all: true,
                kinds: Vec::new(),
            },
            connect_lines: [true; 3],
            connect_value: Score::Win,
            connect_nxn: 0,
            collinear_n: 0,
            castling_wins: [[false; 2]; 2],
            material_counting: None,
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: Score::Draw,
            n_fold_value_absolute: false,
            perpetual_check: false,
            must_capture: false,
            checking: true,
            flying_general: false,
            piece_drops: false,
            captures_to_hand: false,
            drop_loop: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            drop_region: [Region::MAX, Region::MAX],
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            mobility_regions: Vec::new(),
            mobility: Vec::new(),
            shogi_pawn_drop_mate_illegal: false,
            drop_checks: true,
            must_drop: false,
            must_drop_type: None,
            blast_on_capture: false,
            blast_immune: KindSet::default(),
            source: Source::default(),
            kind_by_role: [None; 26],
            attacks: [Vec::new(), Vec::new()],
            shared: Shared::default(),
        }
    }

    /// Fairy-Stockfish's `chess` (and `fairy`): the defaults with the six
    /// FIDE pieces.
    pub fn chess(name: &str) -> Def {
        let mut d = Def::base(name);
        for &(n, l, b) in NAMED.iter().take(5) {
            d.add(n, named_order(n), l, b);
        }
        d.add("king", KING_ORDER, 'K', "K");
        d.by_default();
        d
    }

    /// Sets the promotions and castling rooks no key has set to
    /// Fairy-Stockfish's defaults, which name piece types: its queen,
    /// rook, bishop and knight, and its rook, those the variant has.
    pub fn by_default(&mut self) {
        let of = |names: &[&str]| KindSet {
            all: false,
            kinds: names
                .iter()
                .filter_map(|n| self.kinds.iter().position(|k| k.name == *n))
                .collect(),
        };
        if self.promotion_by_default {
            let set = of(&["queen", "rook", "bishop", "knight"]);
            self.promotion_types = [set.clone(), set];
        }
        if self.castling_rooks_by_default {
            let set = of(&["rook"]);
            self.castling_rooks = [set.clone(), set];
        }
    }

    /// Adds or replaces the piece of Fairy-Stockfish type `name`. As in
    /// Fairy-Stockfish, a piece of another type with the same letter is
    /// removed first (`customPiece1 = n:D` replaces the knight).
    pub fn add(&mut self, name: &str, order: u8, letter: char, betza: &str) {
        let up = letter.to_ascii_uppercase();
        let same: Vec<String> = self
            .kinds
            .iter()
            .filter(|k| k.letter == up && k.name != name)
            .map(|k| k.name.clone())
            .collect();
        for other in same {
            self.remove(&other);
        }
        let part = match name {
            "pawn" => Part::Pawn,
            "king" => Part::King,
            _ => Part::Plain,
        };
        let kind = Kind {
            name: name.to_string(),
            order,
            letter: letter.to_ascii_uppercase(),
            part,
            betza_text: betza.to_string(),
            betza: crate::movement::parse_betza(betza).unwrap_or_default(),
        };
        match self.kinds.iter().position(|k| k.name == name) {
            Some(i) => self.kinds[i] = kind,
            None => self.kinds.push(kind),
        }
    }

    /// Removes the piece of type `name`, keeping the indices of the others
    /// in the sets that name kinds.
    pub fn remove(&mut self, name: &str) {
        let Some(i) = self.kinds.iter().position(|k| k.name == name) else {
            return;
        };
        self.kinds.remove(i);
        let fix = |set: &mut KindSet| {
            set.kinds.retain(|&k| k != i);
            for k in &mut set.kinds {
                if *k > i {
                    *k -= 1;
                }
            }
        };
        for c in 0..2 {
            fix(&mut self.promotion_types[c]);
            fix(&mut self.castling_rooks[c]);
        }
        fix(&mut self.extinction_types);
        fix(&mut self.connect_types);
        fix(&mut self.blast_immune);
        self.promotion_limit.retain(|&(k, _)| k != i);
        for (k, _) in &mut self.promotion_limit {
            if *k > i {
                *k -= 1;
            }
        }
        for f in &mut self.flag_piece {
            match *f {
                Some(k) if k == i => *f = None,
                Some(k) if k > i => *f = Some(k - 1),
                _ => {}
            }
        }
    }

    /// The kind whose letter is `c` (either case): the first in
    /// Fairy-Stockfish's order, as its lookup finds.
    pub fn kind_of(&self, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.letter == up)
            .min_by_key(|(_, k)| k.order)
            .map(|(i, _)| i)
    }

    /// Finds each kind's [`Role`], the role of its letter (refused when
    /// a letter is not a Latin one, which no role names), and each side's
    /// [`Def::attacks`].
    pub fn compile(&mut self) -> Result<(), String> {
        self.kind_by_role = [None; 26];
        for (i, k) in self.kinds.iter().enumerate() {
            let role = Role::from_letter(k.letter).ok_or_else(|| {
                format!(
                    "the {} has the letter `{}`; postal names pieces by Latin letters",
                    k.name, k.letter
                )
            })?;
            self.kind_by_role[role.index()] = Some(i as u8);
        }
        self.pawn_kinds = super::pawns::compile(self);
        self.promotes_to = super::promote::compile(self)?;
        if self.material_counting.is_some()
            && self.n_fold_rule > 0
            && self.n_fold_value == Score::Draw
        {
            return Err(
                "materialCounting after a drawn repetition is not supported: set nFoldRule = 0 \
                 or an nFoldValue other than draw"
                    .into(),
            );
        }
        self.mobility = self
            .kinds
            .iter()
            .map(|k| {
                self.mobility_regions
                    .iter()
                    .find(|(n, _)| *n == k.name)
                    .map_or([Region::MAX; 2], |r| r.1)
            })
            .collect();
        for color in 0..2 {
            let turn = |(dy, dx): (i8, i8)| if color == 0 { (dy, dx) } else { (-dy, -dx) };
            let mut list = Vec::new();
            for k in 0..self.kinds.len() {
                let (role, kind) = (self.role(k), &self.kinds[k]);
                let mut add = |d: (i8, i8), reach: Reach| {
                    let (dy, dx) = turn(d);
                    list.push(Attack {
                        role,
                        dx,
                        dy,
                        reach,
                    });
                };
                if kind.part == Part::Pawn {
                    // Fairy-Stockfish's pawn takes one step diagonally
                    // forward, whatever its Betza.
                    add((1, -1), Reach::Leap);
                    add((1, 1), Reach::Leap);
                    continue;
                }
                let m = &kind.betza.capture;
                for (&d, &dist) in &m.leaps {
                    add(d, if dist < 0 { Reach::Lame } else { Reach::Leap });
                }
                for (&d, &limit) in &m.slides {
                    add(d, Reach::Slide(limit));
                }
                for (&d, &limit) in &m.hops {
                    add(d, Reach::Hop(limit));
                }
            }
            self.attacks[color] = list;
        }
        self.shared = Shared::of(self);
        Ok(())
    }

    /// The built-in game whose moves the definition's are, if any: FIDE
    /// chess when, compiled, it equals Fairy-Stockfish's `chess`, Gardner
    /// minichess when it equals the built-in parent `gardner`, in
    /// everything but what no move depends on (its name and text, its
    /// start, and the values and rules of the endings the position
    /// decides: mate, stalemate, repetition, the n-move rule). Such a
    /// definition is counted by that game's own perft
    /// ([`crate::variant::defined`]), as Fairy-Stockfish plays its `chess`
    /// as data of its one engine.
    pub fn plays_as(&self) -> Option<Variant> {
        let gardner = super::builtin::parent("gardner")?;
        [
            (Def::chess("chess"), Variant::Chess),
            (gardner.clone(), Variant::Gardner),
        ]
        .into_iter()
        .find_map(|(mut game, variant)| {
            game.compile().ok()?;
            let same = Def {
                name: game.name.clone(),
                parent: game.parent.clone(),
                start_fen: game.start_fen.clone(),
                piece_to_char_table: game.piece_to_char_table.clone(),
                variant_template: game.variant_template.clone(),
                stalemate: game.stalemate,
                checkmate: game.checkmate,
                n_move_rule: game.n_move_rule,
                n_fold_rule: game.n_fold_rule,
                n_fold_value: game.n_fold_value,
                n_fold_value_absolute: game.n_fold_value_absolute,
                promotion_by_default: game.promotion_by_default,
                castling_rooks_by_default: game.castling_rooks_by_default,
                source: game.source.clone(),
                ..self.clone()
            };
            (same == game).then_some(variant)
        })
    }

    /// The role of a kind: the role of its letter.
    pub fn role(&self, kind: usize) -> Role {
        Role::from_letter(self.kinds[kind].letter).unwrap_or(Role::Pawn)
    }

    /// The kind of a role in this variant, if it has one.
    #[inline]
    pub fn kind_of_role(&self, role: Role) -> Option<usize> {
        self.kind_by_role
            .get(role.index())
            .copied()
            .flatten()
            .map(usize::from)
    }

    pub fn king(&self) -> Option<usize> {
        self.kinds.iter().position(|k| k.part == Part::King)
    }

    /// Whether `kind` is Fairy-Stockfish's janggi cannon, which may
    /// neither hop over nor take another (its `moves_from`).
    pub fn janggi_cannon(&self, kind: usize) -> bool {
        self.kinds
            .get(kind)
            .is_some_and(|k| k.name == "janggiCannon")
    }

    pub fn pawn(&self) -> Option<usize> {
        self.kinds.iter().position(|k| k.part == Part::Pawn)
    }

    /// The squares of the board, as a region.
    pub fn board(&self) -> Region {
        let mut r = 0;
        for rank in 0..self.ranks {
            for file in 0..self.files {
                r |= bit(file, rank);
            }
        }
        r
    }
}

pub fn named_order(name: &str) -> u8 {
    if name == "king" {
        return KING_ORDER;
    }
    // Fairy-Stockfish's enum: pawn = 1, ... centaur = 38, with the soldier,
    // janggi cannon and janggi elephant among them.
    const ALL: &[&str] = &[
        "pawn",
        "knight",
        "bishop",
        "rook",
        "queen",
        "fers",
        "alfil",
        "fersAlfil",
        "silver",
        "aiwok",
        "bers",
        "archbishop",
        "chancellor",
        "amazon",
        "knibis",
        "biskni",
        "kniroo",
        "rookni",
        "shogiPawn",
        "lance",
        "shogiKnight",
        "gold",
        "dragonHorse",
        "clobber",
        "breakthrough",
        "immobile",
        "cannon",
        "janggiCannon",
        "soldier",
        "horse",
        "elephant",
        "janggiElephant",
        "banner",
        "wazir",
        "commoner",
        "centaur",
    ];
    ALL.iter()
        .position(|n| *n == name)
        .map_or(0, |i| i as u8 + 1)
}
