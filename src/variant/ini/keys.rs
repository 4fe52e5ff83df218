//! The keys of a section, read in Fairy-Stockfish's order (its
//! `parser.cpp`: board size, pieces, deprecated keys, then the rest) into
//! a [`Def`]. A key this program does not play, or a value it cannot
//! honour, refuses the whole section: the caller gets the key, where it
//! stands and why, never a definition with that key left out.

use super::def::{
    bit, file_region, named_order, rank_region, Counting, Def, KindSet, Region, Score, CODED,
    CUSTOM_COUNT, CUSTOM_ORDER, FILES, KING_ORDER, NAMED, RANKS,
};
pub use super::key_table::{neutral_keys, refused_keys, PLAYED};
use super::key_table::{NEUTRAL, REFUSED};
use super::lex::{At, Entry, Section};
use super::pawns;
use std::collections::BTreeMap;

/// Why a key was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError {
    pub at: At,
    pub key: String,
    pub why: String,
}

struct Reader<'a> {
    map: BTreeMap<&'a str, &'a Entry>,
    used: Vec<String>,
}

impl<'a> Reader<'a> {
    fn get(&mut self, key: &str) -> Option<&'a Entry> {
        let e = self.map.get(key).copied();
        if e.is_some() {
            self.used.push(key.to_string());
        }
        e
    }
}

fn err(e: &Entry, why: impl Into<String>) -> KeyError {
    KeyError {
        at: e.value_at,
        key: e.key.clone(),
        why: why.into(),
    }
}

fn int(e: &Entry) -> Result<i64, KeyError> {
    e.value
        .parse::<i64>()
        .map_err(|_| err(e, format!("`{}` is not a whole number", e.value)))
}

fn boolean(e: &Entry) -> Result<bool, KeyError> {
    match e.value.as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        v => Err(err(e, format!("`{v}` is neither true nor false"))),
    }
}

fn score(e: &Entry) -> Result<Score, KeyError> {
    Score::parse(&e.value)
        .ok_or_else(|| err(e, format!("`{}` is not win, loss, draw or none", e.value)))
}

fn rank(e: &Entry) -> Result<i8, KeyError> {
    let n = int(e)?;
    if (1..=RANKS as i64).contains(&n) {
        Ok(n as i8 - 1)
    } else {
        Err(err(e, format!("rank {n} is outside 1..{RANKS}")))
    }
}

fn file(e: &Entry) -> Result<i8, KeyError> {
    let v = e.value.as_str();
    let f = if v.starts_with(|c: char| c.is_ascii_digit()) {
        int(e)? - 1
    } else if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
        (v.as_bytes()[0] - b'a') as i64
    } else {
        return Err(err(
            e,
            format!("`{v}` is not a file (a letter or a number)"),
        ));
    };
    if (0..FILES as i64).contains(&f) {
        Ok(f as i8)
    } else {
        Err(err(e, format!("file `{v}` is outside a..l")))
    }
}

fn region(e: &Entry) -> Result<Region, KeyError> {
    let mut r = 0;
    for sym in e.value.split_whitespace() {
        if sym == "-" {
            break;
        }
        let bad = || err(e, format!("`{sym}` is not a square, `a*` or `*1`"));
        let b = sym.as_bytes();
        if let Some(rest) = sym.strip_prefix('*') {
            let n: i8 = rest.parse().map_err(|_| bad())?;
            if !(1..=RANKS).contains(&n) {
                return Err(bad());
            }
            r |= rank_region(n - 1);
        } else if b.len() == 2 && b[1] == b'*' && b[0].is_ascii_alphabetic() {
            let f = (b[0].to_ascii_lowercase() - b'a') as i8;
            if f >= FILES {
                return Err(bad());
            }
            r |= file_region(f);
        } else if b.len() > 1 && b[0].is_ascii_alphabetic() {
            let f = (b[0].to_ascii_lowercase() - b'a') as i8;
            let n: i8 = sym[1..].parse().map_err(|_| bad())?;
            if f >= FILES || !(1..=RANKS).contains(&n) {
                return Err(bad());
            }
            r |= bit(f, n - 1);
        } else {
            return Err(bad());
        }
    }
    Ok(r)
}

fn kinds(def: &Def, e: &Entry) -> Result<KindSet, KeyError> {
    let mut set = KindSet::default();
    for c in e.value.chars().filter(|c| !c.is_whitespace()) {
        if c == '-' {
            break;
        }
        if c == '*' {
            set.all = true;
            continue;
        }
        match def.kind_of(c) {
            Some(k) => set.kinds.push(k),
            None => return Err(err(e, format!("`{c}` is not a piece of this variant"))),
        }
    }
    Ok(set)
}

fn one_kind(def: &Def, e: &Entry) -> Result<Option<usize>, KeyError> {
    let set = kinds(def, e)?;
    if set.all {
        return Ok(None);
    }
    match set.kinds.as_slice() {
        [k] => Ok(Some(*k)),
        _ => Err(err(e, "expected one piece letter")),
    }
}

/// `promotedPieceType = p:g s:g`: each pair sets what the first piece's
/// type promotes to (`-`: nothing); the types not named keep theirs, as
/// in Fairy-Stockfish, which keeps them by type.
fn promoted_types(def: &mut Def, e: &Entry) -> Result<(), KeyError> {
    for item in e.value.split_whitespace() {
        if item == "-" {
            break;
        }
        let bad = || err(e, format!("`{item}` is not `letter:letter`"));
        let (a, b) = item.split_once(':').ok_or_else(bad)?;
        let one = |t: &str| {
            let mut cs = t.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Ok(c),
                _ => Err(bad()),
            }
        };
        let (a, b) = (one(a)?, one(b)?);
        let kind = |c: char| {
            def.kind_of(c)
                .map(|k| def.kinds[k].name.clone())
                .ok_or_else(|| err(e, format!("`{c}` is not a piece of this variant")))
        };
        let from = kind(a)?;
        let to = if b == '-' { None } else { Some(kind(b)?) };
        def.promoted_types.retain(|(f, _)| *f != from);
        if let Some(to) = to {
            def.promoted_types.push((from, to));
        }
    }
    Ok(())
}

/// Ranks from `min` to `max` counted from each side, as Fairy-Stockfish's
/// deprecated `promotionRank` and `doubleStepRank*` keys mean them.
fn relative_ranks(def: &Def, min: i8, max: i8) -> [Region; 2] {
    let mut out = [0, 0];
    for r in min..=max.min(def.ranks - 1) {
        out[0] |= rank_region(r);
        out[1] |= rank_region(def.ranks - 1 - r);
    }
    out
}

/// Applies a section's keys to `def` (a copy of its parent, or the
/// defaults).
pub fn apply(def: &mut Def, section: &Section) -> Result<(), KeyError> {
    let mut rd = Reader {
        map: section
            .entries
            .iter()
            .map(|e| (e.key.as_str(), e))
            .collect(),
        used: Vec::new(),
    };
    if let Some((at, line)) = section.stray.first() {
        return Err(KeyError {
            at: *at,
            key: line.trim().to_string(),
            why: "neither `key = value` nor a comment".into(),
        });
    }
    if let Some(e) = rd.get("maxRank") {
        def.ranks = rank(e)? + 1;
    }
    if let Some(e) = rd.get("maxFile") {
        def.files = file(e)? + 1;
    }
    // Pieces, in Fairy-Stockfish's order of types.
    let customs: Vec<String> = (1..=CUSTOM_COUNT)
        .map(|n| format!("customPiece{n}"))
        .collect();
    let mut names: Vec<(&str, u8)> = Vec::new();
    for (n, _, _) in NAMED {
        names.push((n, named_order(n)));
    }
    for (n, _) in CODED {
        names.push((n, named_order(n)));
    }
    for (i, n) in customs.iter().enumerate() {
        names.push((n.as_str(), CUSTOM_ORDER + i as u8));
    }
    names.push(("king", KING_ORDER));
    names.sort_by_key(|p| p.1);
    for (name, order) in names {
        for (c, color) in ["White", "Black"].into_iter().enumerate() {
            let mut cap = name.to_string();
            cap[..1].make_ascii_uppercase();
            if let Some(e) = rd.get(&format!("mobilityRegion{color}{cap}")) {
                let r = region(e)?;
                match def.mobility_regions.iter_mut().find(|(n, _)| n == name) {
                    Some((_, regions)) => regions[c] = r,
                    None => {
                        let mut regions = [Region::MAX; 2];
                        regions[c] = r;
                        def.mobility_regions.push((name.to_string(), regions));
                    }
                }
            }
        }
        let Some(e) = rd.get(name) else { continue };
        let first = e.value.chars().next();
        match first {
            Some(c) if c.is_ascii_alphabetic() => {}
            Some('-') | None => {
                def.remove(name);
                continue;
            }
            Some(c) => return Err(err(e, format!("`{c}` is not a letter"))),
        }
        let letter = first.unwrap_or('?');
        if let Some((_, why)) = CODED.iter().find(|(n, _)| *n == name) {
            return Err(err(e, format!("the {name} is not supported: {why}")));
        }
        // A king may be given its own movement (`king = k:KN`); without
        // it, it moves as FIDE's.
        let custom = name.starts_with("customPiece") || (name == "king" && e.value.len() > 1);
        let betza: String = if custom {
            let rest = &e.value[1..];
            let Some(b) = rest.strip_prefix(':') else {
                return Err(err(e, "expected `letter:Betza`"));
            };
            if let Err(b_err) = crate::movement::parse_betza(b) {
                return Err(KeyError {
                    at: At {
                        line: e.value_at.line,
                        col: e.value_at.col + 2 + b[..b_err.offset].chars().count(),
                    },
                    key: e.key.clone(),
                    why: b_err.why,
                });
            }
            b.to_string()
        } else if name == "king" {
            "K".into()
        } else {
            NAMED
                .iter()
                .find(|(n, _, _)| *n == name)
                .map(|p| p.2.to_string())
                .unwrap_or_default()
        };
        def.add(name, order, letter, &betza);
        // Fairy-Stockfish: an `e` anywhere in a custom piece's Betza.
        if name.starts_with("customPiece") && betza.contains('e') {
            def.pawn_types.add_en_passant(name);
        }
    }
    for key in ["pieceValueMg", "pieceValueEg"] {
        rd.get(key); // Evaluation only: no effect on the rules.
    }
    // Deprecated forms, read first so the current ones win.
    if let Some(e) = rd.get("promotionRank") {
        let r = rank(e)?;
        def.promotion_region = relative_ranks(def, r, RANKS);
    }
    let dsr = rd.get("doubleStepRank");
    let dsr_min = rd.get("doubleStepRankMin");
    if dsr.is_some() || dsr_min.is_some() {
        let max = dsr.map(rank).transpose()?.unwrap_or(1);
        let min = dsr_min.map(rank).transpose()?.unwrap_or(1);
        def.double_step_region = relative_ranks(def, min, max);
    }
    if let Some(e) = rd.get("whiteFlag") {
        def.flag_region[0] = region(e)?;
    }
    if let Some(e) = rd.get("blackFlag") {
        def.flag_region[1] = region(e)?;
    }
    if let Some(e) = rd.get("castlingRookPiece") {
        let s = kinds(def, e)?;
        def.castling_rooks = [s.clone(), s];
        def.castling_rooks_by_default = false;
    }
    for &(key, rule, sides) in pawns::KEYS {
        if let Some(e) = rd.get(key) {
            let set = kinds(def, e)?;
            if set.all {
                return Err(err(
                    e,
                    "`*` names no piece type here (Fairy-Stockfish reads it as none)",
                ));
            }
            let names: Vec<String> = set
                .kinds
                .iter()
                .map(|&k| def.kinds[k].name.clone())
                .collect();
            def.pawn_types.set(rule, sides, &names);
        }
    }
    if let Some(e) = rd.get("variantTemplate") {
        def.variant_template = e.value.clone();
    }
    if let Some(e) = rd.get("pieceToCharTable") {
        def.piece_to_char_table = e.value.clone();
    }
    if let Some(e) = rd.get("startFen") {
        def.start_fen = e.value.clone();
    }
    for (key, c) in [("promotionRegionWhite", 0), ("promotionRegionBlack", 1)] {
        if let Some(e) = rd.get(key) {
            def.promotion_region[c] = region(e)?;
        }
    }
    // Fairy-Stockfish's defaults name piece types, so they follow the
    // pieces this section adds or removes, until a key sets them.
    def.by_default();
    if let Some(e) = rd.get("promotionPieceTypes") {
        let s = kinds(def, e)?;
        def.promotion_types = [s.clone(), s];
        def.promotion_by_default = false;
    }
    for (key, c) in [
        ("promotionPieceTypesWhite", 0),
        ("promotionPieceTypesBlack", 1),
    ] {
        if let Some(e) = rd.get(key) {
            def.promotion_types[c] = kinds(def, e)?;
            def.promotion_by_default = false;
        }
    }
    if let Some(e) = rd.get("promotionLimit") {
        let mut limits = Vec::new();
        for item in e.value.split_whitespace() {
            let (l, n) = item
                .split_once(':')
                .ok_or_else(|| err(e, format!("`{item}` is not `letter:count`")))?;
            let mut cs = l.chars();
            let (Some(c), None) = (cs.next(), cs.next()) else {
                return Err(err(e, format!("`{item}` is not `letter:count`")));
            };
            let k = def
                .kind_of(c)
                .ok_or_else(|| err(e, format!("`{c}` is not a piece of this variant")))?;
            let n: u32 = n
                .parse()
                .map_err(|_| err(e, format!("`{item}` is not `letter:count`")))?;
            limits.push((k, n));
        }
        // Each kind named sets its limit; the others keep theirs.
        for (k, n) in limits {
            def.promotion_limit.retain(|&(lk, _)| lk != k);
            def.promotion_limit.push((k, n));
        }
    }
    if let Some(e) = rd.get("promotedPieceType") {
        promoted_types(def, e)?;
    }
    for (key, field) in [
        (
            "piecePromotionOnCapture",
            &mut def.piece_promotion_on_capture,
        ),
        (
            "mandatoryPiecePromotion",
            &mut def.mandatory_piece_promotion,
        ),
        ("pieceDemotion", &mut def.piece_demotion),
    ] {
        if let Some(e) = rd.get(key) {
            *field = boolean(e)?;
        }
    }
    if let Some(e) = rd.get("mandatoryPawnPromotion") {
        def.mandatory_pawn_promotion = boolean(e)?;
    }
    if let Some(e) = rd.get("doubleStep") {
        def.double_step = boolean(e)?;
    }
    for (key, c) in [("doubleStepRegionWhite", 0), ("doubleStepRegionBlack", 1)] {
        if let Some(e) = rd.get(key) {
            def.double_step_region[c] = region(e)?;
        }
    }
    if let Some(e) = rd.get("enPassantRegion") {
        let r = region(e)?;
        def.en_passant_region = [r, r];
    }
    for (key, c) in [("enPassantRegionWhite", 0), ("enPassantRegionBlack", 1)] {
        if let Some(e) = rd.get(key) {
            def.en_passant_region[c] = region(e)?;
        }
    }
    if let Some(e) = rd.get("castling") {
        def.castling = boolean(e)?;
    }
    if let Some(e) = rd.get("castlingKingsideFile") {
        def.castling_kingside_file = file(e)?;
    }
    if let Some(e) = rd.get("castlingQueensideFile") {
        def.castling_queenside_file = file(e)?;
    }
    if let Some(e) = rd.get("castlingRank") {
        def.castling_rank = rank(e)?;
    }
    if let Some(e) = rd.get("castlingKingFile") {
        def.castling_king_file = file(e)?;
    }
    for (key, sides) in [
        ("castlingKingPiece", &[0, 1][..]),
        ("castlingKingPieceWhite", &[0][..]),
        ("castlingKingPieceBlack", &[1][..]),
    ] {
        if let Some(e) = rd.get(key) {
            let Some(k) = one_kind(def, e)? else {
                return Err(err(e, "expected one piece letter"));
            };
            for &c in sides {
                def.castling_king[c] = def.kinds[k].name.clone();
            }
        }
    }
    if let Some(e) = rd.get("immobilityIllegal") {
        def.immobility_illegal = boolean(e)?;
    }
    if let Some(e) = rd.get("castlingRookKingsideFile") {
        def.castling_rook_kingside_file = file(e)?;
    }
    if let Some(e) = rd.get("castlingRookQueensideFile") {
        def.castling_rook_queenside_file = file(e)?;
    }
    if let Some(e) = rd.get("castlingRookPieces") {
        let s = kinds(def, e)?;
        def.castling_rooks = [s.clone(), s];
        def.castling_rooks_by_default = false;
    }
    for (key, c) in [
        ("castlingRookPiecesWhite", 0),
        ("castlingRookPiecesBlack", 1),
    ] {
        if let Some(e) = rd.get(key) {
            def.castling_rooks[c] = kinds(def, e)?;
            def.castling_rooks_by_default = false;
        }
    }
    if let Some(e) = rd.get("oppositeCastling") {
        def.opposite_castling = boolean(e)?;
    }
    if let Some(e) = rd.get("mustCapture") {
        def.must_capture = boolean(e)?;
    }
    if let Some(e) = rd.get("checking") {
        def.checking = boolean(e)?;
    }
    if let Some(e) = rd.get("flyingGeneral") {
        def.flying_general = boolean(e)?;
    }
    if let Some(e) = rd.get("nMoveRule") {
        def.n_move_rule = u32::try_from(int(e)?).map_err(|_| err(e, "must not be negative"))?;
    }
    if let Some(e) = rd.get("nFoldRule") {
        def.n_fold_rule = u32::try_from(int(e)?).map_err(|_| err(e, "must not be negative"))?;
    }
    if let Some(e) = rd.get("nFoldValue") {
        def.n_fold_value = score(e)?;
    }
    if let Some(e) = rd.get("nFoldValueAbsolute") {
        def.n_fold_value_absolute = boolean(e)?;
    }
    if let Some(e) = rd.get("perpetualCheckIllegal") {
        def.perpetual_check = boolean(e)?;
    }
    if let Some(e) = rd.get("stalemateValue") {
        def.stalemate = score(e)?;
    }
    if let Some(e) = rd.get("checkmateValue") {
        def.checkmate = score(e)?;
    }
    if let Some(e) = rd.get("extinctionValue") {
        def.extinction = score(e)?;
    }
    if let Some(e) = rd.get("extinctionClaim") {
        def.extinction_claim = boolean(e)?;
    }
    if let Some(e) = rd.get("extinctionPseudoRoyal") {
        def.pseudo_royal = boolean(e)?;
    }
    if let Some(e) = rd.get("extinctionPieceTypes") {
        def.extinction_types = kinds(def, e)?;
    }
    if let Some(e) = rd.get("extinctionPieceCount") {
        def.extinction_count = int(e)? as i32;
    }
    if let Some(e) = rd.get("extinctionOpponentPieceCount") {
        def.extinction_opponent_count = int(e)? as i32;
    }
    if let Some(e) = rd.get("flagPiece") {
        let k = one_kind(def, e)?;
        def.flag_piece = [k, k];
    }
    for (key, c) in [("flagPieceWhite", 0), ("flagPieceBlack", 1)] {
        if let Some(e) = rd.get(key) {
            def.flag_piece[c] = one_kind(def, e)?;
        }
    }
    if let Some(e) = rd.get("flagRegion") {
        let r = region(e)?;
        def.flag_region = [r, r];
    }
    for (key, c) in [("flagRegionWhite", 0), ("flagRegionBlack", 1)] {
        if let Some(e) = rd.get(key) {
            def.flag_region[c] = region(e)?;
        }
    }
    if let Some(e) = rd.get("flagPieceCount") {
        def.flag_piece_count = int(e)? as i32;
    }
    if let Some(e) = rd.get("flagMove") {
        def.flag_move = boolean(e)?;
    }
    if let Some(e) = rd.get("flagPieceBlockedWin") {
        def.flag_blocked_win = boolean(e)?;
    }
    if let Some(e) = rd.get("flagPieceSafe") {
        def.flag_piece_safe = boolean(e)?;
    }
    if let Some(e) = rd.get("connectN") {
        def.connect_n = u32::try_from(int(e)?).map_err(|_| err(e, "must not be negative"))?;
    }
    if let Some(e) = rd.get("connectPieceTypes") {
        def.connect_types = kinds(def, e)?;
    }
    for (key, i) in [
        ("connectHorizontal", 0),
        ("connectVertical", 1),
        ("connectDiagonal", 2),
    ] {
        if let Some(e) = rd.get(key) {
            def.connect_lines[i] = boolean(e)?;
        }
    }
    for (key, field) in [
        ("connectNxN", &mut def.connect_nxn),
        ("collinearN", &mut def.collinear_n),
    ] {
        if let Some(e) = rd.get(key) {
            *field = u32::try_from(int(e)?).map_err(|_| err(e, "must not be negative"))?;
        }
    }
    if let Some(e) = rd.get("castlingWins") {
        let mut wins = [[false; 2]; 2];
        for c in e.value.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                'K' => wins[0][0] = true,
                'Q' => wins[0][1] = true,
                'k' => wins[1][0] = true,
                'q' => wins[1][1] = true,
                _ => return Err(err(e, format!("`{c}` is not K, Q, k or q"))),
            }
        }
        def.castling_wins = wins;
    }
    if let Some(e) = rd.get("materialCounting") {
        def.material_counting = match e.value.as_str() {
            "none" => None,
            "unweighted" => Some(Counting::Unweighted),
            "whitedrawodds" => Some(Counting::WhiteDrawOdds),
            "blackdrawodds" => Some(Counting::BlackDrawOdds),
            "janggi" => return Err(err(e, "Janggi's material count is not supported")),
            v => {
                return Err(err(
                    e,
                    format!("`{v}` is not none, unweighted, whitedrawodds or blackdrawodds"),
                ))
            }
        };
    }
    if let Some(e) = rd.get("connectValue") {
        def.connect_value = score(e)?;
    }
    for (key, field) in [
        ("pieceDrops", &mut def.piece_drops),
        ("capturesToHand", &mut def.captures_to_hand),
        ("dropLoop", &mut def.drop_loop),
        ("firstRankPawnDrops", &mut def.first_rank_pawn_drops),
        ("promotionZonePawnDrops", &mut def.promotion_zone_pawn_drops),
        ("dropPromoted", &mut def.drop_promoted),
        (
            "shogiPawnDropMateIllegal",
            &mut def.shogi_pawn_drop_mate_illegal,
        ),
        ("blastOnCapture", &mut def.blast_on_capture),
    ] {
        if let Some(e) = rd.get(key) {
            *field = boolean(e)?;
        }
    }
    // Fairy-Stockfish reads the older names first; the later win.
    for (key, c) in [
        ("whiteDropRegion", 0),
        ("blackDropRegion", 1),
        ("dropRegionWhite", 0),
        ("dropRegionBlack", 1),
    ] {
        if let Some(e) = rd.get(key) {
            def.drop_region[c] = region(e)?;
        }
    }
    if let Some(e) = rd.get("dropNoDoubled") {
        def.drop_no_doubled = match e.value.as_str() {
            "-" | "" => None,
            _ => Some(one_kind(def, e)?.ok_or_else(|| err(e, "expected one piece letter"))?),
        };
    }
    if let Some(e) = rd.get("dropNoDoubledCount") {
        def.drop_no_doubled_count =
            i32::try_from(int(e)?).map_err(|_| err(e, "must not be negative"))?;
    }
    if let Some(e) = rd.get("dropChecks") {
        def.drop_checks = boolean(e)?;
    }
    if let Some(e) = rd.get("mustDrop") {
        def.must_drop = boolean(e)?;
    }
    if let Some(e) = rd.get("mustDropType") {
        def.must_drop_type = one_kind(def, e)?;
    }
    if let Some(e) = rd.get("blastImmuneTypes") {
        def.blast_immune = kinds(def, e)?;
    }
    // The pocket's size is for programs that draw the hand; any size.
    if let Some(e) = rd.get("pocketSize") {
        int(e)?;
    }
    for (key, default, why) in NEUTRAL {
        if let Some(e) = rd.get(key) {
            let same = e.value == *default || (*default == "-" && e.value.is_empty());
            if !same {
                return Err(err(e, *why));
            }
        }
    }
    // Whatever is left is a key this program does not know or play.
    for e in &section.entries {
        if !rd.used.contains(&e.key) {
            let why = REFUSED.iter().find(|(k, _)| *k == e.key).map_or(
                "not a key this program plays (see postal-variants(5))",
                |r| r.1,
            );
            return Err(KeyError {
                at: e.key_at,
                key: e.key.clone(),
                why: why.into(),
            });
        }
    }
    Ok(())
}
