//! What postal does with each key of Fairy-Stockfish's variants.ini
//! format besides the pieces: the keys it plays ([`PLAYED`]), those it
//! accepts only at the value that changes nothing, and those it refuses
//! whatever their value, each with why. `keys` reads a section by these
//! lists; `postal variants` and postal-variants(5) print them.

/// Keys accepted only with the value that leaves the rules as they are
/// (Fairy-Stockfish's default), with what they would change.
pub(super) const NEUTRAL: &[(&str, &str, &str)] = &[
    ("chess960", "false", "Chess960 castling is not supported"),
    (
        "twoBoards",
        "false",
        "bughouse-style boards are not supported",
    ),
    (
        "sittuyinPromotion",
        "false",
        "Sittuyin promotion is not supported",
    ),
    (
        "petrifyBlastPieces",
        "false",
        "explosions are not supported",
    ),
    (
        "castlingDroppedPiece",
        "false",
        "castling with a dropped piece is not supported",
    ),
    (
        "dropOnTop",
        "false",
        "drops on top of a column are not supported",
    ),
    (
        "enclosingDrop",
        "none",
        "enclosing drops (Reversi, Ataxx) are not supported",
    ),
    (
        "sittuyinRookDrop",
        "false",
        "Sittuyin rook drops are not supported",
    ),
    (
        "dropOppositeColoredBishop",
        "false",
        "bishop drops bound to square colours are not supported",
    ),
    ("gating", "false", "gating is not supported"),
    ("wallingRule", "none", "walls are not supported"),
    ("wallOrMove", "false", "walls are not supported"),
    ("seirawanGating", "false", "gating is not supported"),
    (
        "cambodianMoves",
        "false",
        "Cambodian moves are not supported",
    ),
    ("pass", "false", "passing is not supported"),
    ("passWhite", "false", "passing is not supported"),
    ("passBlack", "false", "passing is not supported"),
    ("passOnStalemate", "false", "passing is not supported"),
    ("passOnStalemateWhite", "false", "passing is not supported"),
    ("passOnStalemateBlack", "false", "passing is not supported"),
    ("makpongRule", "false", "the Makpong rule is not supported"),
    (
        "soldierPromotionRank",
        "1",
        "soldiers held back until a rank are not supported",
    ),
    ("flipEnclosedPieces", "none", "flipping is not supported"),
    (
        "moveRepetitionIllegal",
        "false",
        "repetition bans are not supported",
    ),
    ("chasingRule", "none", "chasing rules are not supported"),
    (
        "stalematePieceCount",
        "false",
        "stalemate by piece count is not supported",
    ),
    (
        "shatarMateRule",
        "false",
        "the Shatar mate rule is not supported",
    ),
    ("bikjangRule", "false", "the bikjang rule is not supported"),
    ("dupleCheck", "false", "duple check is not supported"),
    ("checkCounting", "false", "check counting is not supported"),
    (
        "adjudicateFullBoard",
        "false",
        "full-board adjudication is not supported",
    ),
    ("countingRule", "none", "counting rules are not supported"),
    (
        "tripleStepRegionWhite",
        "-",
        "triple steps are not supported",
    ),
    (
        "tripleStepRegionBlack",
        "-",
        "triple steps are not supported",
    ),
    ("diagonalLines", "-", "diagonal lines are not supported"),
];

/// Keys of games this program does not play, refused whatever their
/// value, with why (so the message says more than that the key is
/// unknown).
pub(super) const REFUSED: &[(&str, &str)] = &[
    (
        "enclosingDropStart",
        "enclosing drops (Reversi, Ataxx) are not supported",
    ),
    ("mutuallyImmuneTypes", "immunity is not supported"),
    ("petrifyOnCaptureTypes", "petrification is not supported"),
    ("wallingRegion", "walls are not supported"),
    ("wallingRegionWhite", "walls are not supported"),
    ("wallingRegionBlack", "walls are not supported"),
    (
        "connectRegion1White",
        "connecting two regions is not supported",
    ),
    (
        "connectRegion2White",
        "connecting two regions is not supported",
    ),
    (
        "connectRegion1Black",
        "connecting two regions is not supported",
    ),
    (
        "connectRegion2Black",
        "connecting two regions is not supported",
    ),
];

pub fn refused_keys() -> impl Iterator<Item = (&'static str, &'static str)> {
    REFUSED.iter().copied()
}

/// Keys read for their effect on play, besides pieces: the list shown by
/// `postal variants` and the man page.
pub const PLAYED: &[&str] = &[
    "maxRank",
    "maxFile",
    "startFen",
    "pieceToCharTable",
    "variantTemplate",
    "pieceValueMg",
    "pieceValueEg",
    "promotionRank",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotionLimit",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRank",
    "doubleStepRankMin",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingKingPieceWhite",
    "castlingKingPieceBlack",
    "castlingRookKingsideFile",
    "castlingRookQueensideFile",
    "castlingRookPiece",
    "castlingRookPieces",
    "castlingRookPiecesWhite",
    "castlingRookPiecesBlack",
    "stalemateValue",
    "checkmateValue",
    "extinctionValue",
    "extinctionClaim",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "extinctionPseudoRoyal",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "whiteFlag",
    "blackFlag",
    "flagPieceCount",
    "flagMove",
    "flagPieceBlockedWin",
    "flagPieceSafe",
    "connectN",
    "connectPieceTypes",
    "connectHorizontal",
    "connectVertical",
    "connectDiagonal",
    "connectValue",
    "nMoveRule",
    "nFoldRule",
    "nFoldValue",
    "nFoldValueAbsolute",
    "mustCapture",
    "checking",
    "flyingGeneral",
    "immobilityIllegal",
    "pieceDrops",
    "capturesToHand",
    "dropLoop",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "whiteDropRegion",
    "blackDropRegion",
    "dropRegionWhite",
    "dropRegionBlack",
    "dropNoDoubled",
    "dropNoDoubledCount",
    "dropChecks",
    "mustDrop",
    "mustDropType",
    "pocketSize",
    "blastOnCapture",
    "blastImmuneTypes",
    "pawnTypes",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "enPassantTypes",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
];

pub fn neutral_keys() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    NEUTRAL.iter().copied()
}
