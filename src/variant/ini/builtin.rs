//! Parents a variants.ini section may name besides the file's own
//! sections: Fairy-Stockfish's built-in chess-like games whose rules are
//! keys postal plays, described here in the same format (postal's own
//! descriptions of those games, from Fairy-Stockfish's meanings, not its
//! text). `tests/ini_agree.rs` (`built_in_parents_agree_with_fairy_stockfish`)
//! compares each with Fairy-Stockfish's built-in of the same name: start,
//! perft and a random game.
//!
//! Fairy-Stockfish's other built-in names ([`FAIRY_STOCKFISH`]) are known
//! too, so that a section naming one as its parent is refused with that
//! reason, and a section taking one's name is refused as Fairy-Stockfish
//! refuses it (it keeps its built-in).

use super::{load_with, Def};
use std::sync::OnceLock;

/// The built-in parents, in the variants.ini format; each may use those
/// before it and `chess`.
const TEXT: &str = "\
[nocastle:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false

[gardner:chess]
maxRank = 5
maxFile = 5
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false

[losalamos:chess]
maxRank = 6
maxFile = 6
bishop = -
startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1
promotionRegionWhite = *6
promotionRegionBlack = *1
promotionPieceTypes = qrn
doubleStep = false
castling = false

[capablanca:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = c
promotionPieceTypes = acqrbn

[gothic:capablanca]
startFen = rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1

[embassy:capablanca]
startFen = rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1
castlingKingsideFile = h
castlingQueensideFile = b

[janus:chess]
maxFile = 10
archbishop = j
startFen = rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = b
promotionPieceTypes = jqrbn

[chancellor:chess]
maxRank = 9
maxFile = 9
chancellor = c
startFen = rnbqkcnbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKCNBR w KQkq - 0 1
promotionRegionWhite = *9
promotionRegionBlack = *1
doubleStepRegionBlack = *8
promotionPieceTypes = cqrbn

[modern:chess]
maxRank = 9
maxFile = 9
archbishop = m
startFen = rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1
promotionRegionWhite = *9
promotionRegionBlack = *1
doubleStepRegionBlack = *8
promotionPieceTypes = mqrbn

[centaur:chess]
maxFile = 10
centaur = c
startFen = rcnbqkbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RCNBQKBNCR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = c
promotionPieceTypes = cqrbn

[torpedo:chess]
doubleStepRegionWhite = *2 *3 *4 *5 *6 *7
doubleStepRegionBlack = *7 *6 *5 *4 *3 *2

[shako:chess]
maxRank = 10
maxFile = 10
fersAlfil = e
cannon = c
startFen = c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1
promotionPieceTypes = qrbnce
promotionRegionWhite = *10
promotionRegionBlack = *1
castlingKingsideFile = h
castlingQueensideFile = d
castlingRookKingsideFile = i
castlingRookQueensideFile = b
castlingRank = 2
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8

[tencubed:chess]
maxRank = 10
maxFile = 10
startFen = 2cwamwc2/1rnbqkbnr1/pppppppppp/10/10/10/10/PPPPPPPPPP/1RNBQKBNR1/2CWAMWC2 w - - 0 1
archbishop = a
chancellor = m
customPiece1 = c:DAW
customPiece2 = w:CF
promotionPieceTypes = amq
promotionRegionWhite = *10
promotionRegionBlack = *1
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8
castling = false

[almost:chess]
queen = -
chancellor = c
startFen = rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1
promotionPieceTypes = crbn

[grand:chess]
maxRank = 10
maxFile = 10
archbishop = a
chancellor = c
startFen = r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1
promotionPieceTypes = acqrbn
promotionRegionWhite = *8 *9 *10
promotionRegionBlack = *3 *2 *1
promotionLimit = a:1 c:1 q:1 r:2 b:2 n:2
mandatoryPawnPromotion = false
immobilityIllegal = true
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8
castling = false

[opulent:grand]
knight = -
customPiece1 = n:NW
customPiece2 = w:CF
customPiece3 = l:FDH
startFen = rw6wr/clbnqknbla/pppppppppp/10/10/10/10/PPPPPPPPPP/CLBNQKNBLA/RW6WR w - - 0 1
promotionPieceTypes = acqrbnwl
promotionLimit = n:2 w:2 l:2

[courier:chess]
maxFile = 12
queen = -
alfil = e
fers = f
commoner = m
wazir = w
startFen = rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1
promotionPieceTypes = f
doubleStep = false
castling = false
extinctionValue = loss
extinctionClaim = true
extinctionPieceTypes = *
extinctionPieceCount = 1
extinctionOpponentPieceCount = 2
stalemateValue = loss

[shatranj:chess]
bishop = -
queen = -
alfil = b
fers = q
startFen = rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1
promotionPieceTypes = q
doubleStep = false
castling = false
extinctionValue = loss
extinctionClaim = true
extinctionPieceTypes = *
extinctionPieceCount = 1
extinctionOpponentPieceCount = 2
stalemateValue = loss
nMoveRule = 70

[hoppelpoppel:chess]
knight = -
bishop = -
customPiece1 = n:mNcB
customPiece2 = b:mBcN
promotionPieceTypes = qrbn

[sortofalmost:chess]
chancellor = c
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1
promotionPieceTypes = qcrbn

[perfect:chess]
chancellor = c
archbishop = m
amazon = g
startFen = cmqgkbnr/pppppppp/8/8/8/8/PPPPPPPP/CMQGKBNR w KQkq - 0 1
promotionPieceTypes = gcmqrbn
castlingRookPieces = cr

[chaturanga:shatranj]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
extinctionValue = none

[amazon:chess]
queen = -
amazon = a
startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1
promotionPieceTypes = arbn

[kingofthehill:chess]
flagPiece = k
flagRegion = d4 e4 d5 e5

[racingkings:chess]
startFen = 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *8
flagMove = true
castling = false
checking = false

[giveaway:chess]
commoner = k
castlingKingPiece = k
promotionPieceTypes = kqrbn
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
mustCapture = true

[antichess:giveaway]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false

[extinction:chess]
commoner = k
castlingKingPiece = k
promotionPieceTypes = kqrbn
extinctionValue = loss
extinctionPieceTypes = kqrbnp

[kinglet:extinction]
promotionPieceTypes = k
extinctionPieceTypes = p

[nocheckatomic:chess]
variantTemplate = atomic
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
blastOnCapture = true

[atomic:nocheckatomic]
extinctionPseudoRoyal = true

[threekings:chess]
commoner = k
castlingKingPiece = k
startFen = knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQKBNK w - - 0 1
extinctionValue = loss
extinctionPieceTypes = k
extinctionPieceCount = 2

[nightrider:chess]
customPiece1 = n:NN
promotionPieceTypes = qrbn

[grasshopper:chess]
customPiece1 = g:gQ
promotionPieceTypes = qrbng
startFen = rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1
doubleStep = false

[chigorin:chess]
chancellor = c
startFen = rbbqkbbr/pppppppp/8/8/8/8/PPPPPPPP/RNNCKNNR w KQkq - 0 1
promotionPieceTypesWhite = crn
promotionPieceTypesBlack = qrb

[breakthrough]
breakthrough = p
startFen = pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1
castling = false
stalemateValue = loss
flagPiece = p
flagRegionWhite = *8
flagRegionBlack = *1

[misere:chess]
checkmateValue = win

[crazyhouse:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
pieceDrops = true
capturesToHand = true

[loop:crazyhouse]
dropLoop = true

[chessgi:loop]
firstRankPawnDrops = true

[pocketknight:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1
pieceDrops = true
pocketSize = 2

[capahouse:capablanca]
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR[] w KQkq - 0 1
pieceDrops = true
capturesToHand = true

[minishogi]
variantTemplate = shogi
maxRank = 5
maxFile = 5
shogiPawn = p
silver = s
gold = g
bishop = b
dragonHorse = h
rook = r
bers = d
king = k
startFen = rbsgk/4p/5/P4/KGSBR[-] w 0 1
pieceDrops = true
capturesToHand = true
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false
promotedPieceType = p:g s:g b:h r:d
dropNoDoubled = p
immobilityIllegal = true
shogiPawnDropMateIllegal = true
stalemateValue = loss
nFoldRule = 4
nMoveRule = 0
perpetualCheckIllegal = true
nFoldValue = loss
nFoldValueAbsolute = true

[shogi:minishogi]
maxRank = 9
maxFile = 9
lance = l
shogiKnight = n
startFen = lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1
promotionRegionWhite = *7 *8 *9
promotionRegionBlack = *3 *2 *1
promotedPieceType = l:g n:g
nFoldValue = draw
nFoldValueAbsolute = false

[shoshogi:shogi]
king = -
commoner = k
customPiece1 = e:FsfW
startFen = lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1
capturesToHand = false
pieceDrops = false
promotedPieceType = e:k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
extinctionPseudoRoyal = true
extinctionPieceCount = 0

[gorogoro:minishogi]
maxRank = 6
startFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[-] w 0 1
promotionRegionWhite = *5 *6
promotionRegionBlack = *2 *1
nFoldValue = draw
nFoldValueAbsolute = false

[judkins:minishogi]
maxRank = 6
maxFile = 6
shogiKnight = n
startFen = rbnsgk/5p/6/6/P5/KGSNBR[-] w 0 1
promotionRegionWhite = *5 *6
promotionRegionBlack = *2 *1
promotedPieceType = n:g
nFoldValue = draw
nFoldValueAbsolute = false

[euroshogi:minishogi]
maxRank = 8
maxFile = 8
customPiece1 = n:fNsW
startFen = 1nbgkgn1/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/1NGKGBN1[-] w 0 1
promotionRegionWhite = *6 *7 *8
promotionRegionBlack = *3 *2 *1
promotedPieceType = n:g
mandatoryPiecePromotion = true
nFoldValue = draw
nFoldValueAbsolute = false

[kyotoshogi:minishogi]
lance = l
shogiKnight = n
startFen = p+nks+l/5/5/5/+LSK+NP[-] w 0 1
promotionRegionWhite = *1 *2 *3 *4 *5
promotionRegionBlack = *1 *2 *3 *4 *5
mandatoryPiecePromotion = true
pieceDemotion = true
dropPromoted = true
promotedPieceType = l:g s:b n:g p:r b:- r:-
immobilityIllegal = false
shogiPawnDropMateIllegal = false
dropNoDoubled = -
nFoldValue = draw
nFoldValueAbsolute = false

[micro:kyotoshogi]
maxFile = 4
startFen = kb+r+l/p3/4/3P/+L+RBK[-] w 0 1
piecePromotionOnCapture = true
promotedPieceType = l:s b:g r:g p:n s:- n:-

[dobutsu]
variantTemplate = shogi
maxRank = 4
maxFile = 3
shogiPawn = c
gold = h
fers = e
wazir = g
commoner = l
startFen = gle/1c1/1C1/ELG[-] w 0 1
pieceDrops = true
capturesToHand = true
promotionRegionWhite = *4
promotionRegionBlack = *1
doubleStep = false
castling = false
promotedPieceType = c:h
mandatoryPiecePromotion = true
stalemateValue = loss
nFoldRule = 4
nMoveRule = 0
extinctionValue = loss
extinctionPieceTypes = l
flagPiece = l
flagRegionWhite = *4
flagRegionBlack = *1
flagPieceSafe = true

[torishogi]
variantTemplate = shogi
maxRank = 7
maxFile = 7
shogiPawn = s
king = k
customPiece1 = f:FsfW
customPiece2 = c:FvW
customPiece3 = l:fRrbBlbF
customPiece4 = r:fRlbBrbF
customPiece5 = p:bFfD
customPiece6 = g:fAbD
customPiece7 = e:KbRfBbF2
startFen = rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1
pieceDrops = true
capturesToHand = true
promotionRegionWhite = *6 *7
promotionRegionBlack = *2 *1
doubleStep = false
castling = false
promotedPieceType = s:g f:e
mandatoryPiecePromotion = true
dropNoDoubled = s
dropNoDoubledCount = 2
immobilityIllegal = true
shogiPawnDropMateIllegal = true
stalemateValue = loss
nFoldValue = win
nFoldRule = 4
nMoveRule = 0
perpetualCheckIllegal = true
";

/// The built-in parents, read once.
pub fn parents() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        let mut loaded = load_with(TEXT, "postal's built-in parents", &[], &[]);
        debug_assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
        // A child's source names its built-in parent, which every postal
        // provides: the parent's text is not part of it.
        for d in &mut loaded.defs {
            d.source = Default::default();
        }
        loaded.defs
    })
}

/// The built-in parent of that name.
pub fn parent(name: &str) -> Option<&'static Def> {
    parents().iter().find(|d| d.name == name)
}

/// The names of Fairy-Stockfish's built-in variants (pyffish 0.0.90,
/// `pyffish.variants()`), for the messages about those postal does not
/// provide as parents.
pub const FAIRY_STOCKFISH: &[&str] = &[
    "3check",
    "5check",
    "ai-wok",
    "almost",
    "amazon",
    "amazons",
    "antichess",
    "armageddon",
    "asean",
    "ataxx",
    "atomar",
    "atomic",
    "berolina",
    "breakthrough",
    "bughouse",
    "cambodian",
    "capablanca",
    "capahouse",
    "caparandom",
    "centaur",
    "chancellor",
    "chaturanga",
    "checkshogi",
    "chess",
    "chessgi",
    "chigorin",
    "clobber",
    "clobber10",
    "codrus",
    "coregal",
    "courier",
    "crazyhouse",
    "dobutsu",
    "dragon",
    "duck",
    "embassy",
    "euroshogi",
    "extinction",
    "fairy",
    "fischerandom",
    "flipello",
    "flipello10",
    "flipersi",
    "fox-and-hounds",
    "gardner",
    "georgian",
    "giveaway",
    "gorogoro",
    "gothic",
    "grand",
    "grasshopper",
    "gustav3",
    "hoppelpoppel",
    "horde",
    "isolation",
    "isolation7x7",
    "janggi",
    "janggicasual",
    "janggimodern",
    "janggitraditional",
    "janus",
    "jesonmor",
    "joust",
    "judkins",
    "karouk",
    "kinglet",
    "kingofthehill",
    "knightmate",
    "koedem",
    "kyotoshogi",
    "legan",
    "loop",
    "losalamos",
    "losers",
    "makpong",
    "makruk",
    "manchu",
    "micro",
    "mini",
    "minishogi",
    "minixiangqi",
    "misere",
    "modern",
    "newzealand",
    "nightrider",
    "nocastle",
    "nocheckatomic",
    "normal",
    "okisakishogi",
    "omicron",
    "opulent",
    "paradigm",
    "pawnback",
    "pawnsideways",
    "perfect",
    "petrified",
    "placement",
    "pocketknight",
    "raazuvaa",
    "racingkings",
    "seirawan",
    "shako",
    "shatar",
    "shatranj",
    "shogi",
    "shoshogi",
    "shouse",
    "sittuyin",
    "snailtrail",
    "sortofalmost",
    "spartan",
    "suicide",
    "supply",
    "tencubed",
    "threekings",
    "torishogi",
    "torpedo",
    "troitzky",
    "wolf",
    "xiangqi",
    "yarishogi",
];
