//! Shogi-style promotion of a defined variant's pieces, as
//! Fairy-Stockfish's `generate_moves` and `do_move` play it: a piece whose
//! type has a promoted type (`promotedPieceType = s:g`) may become it on a
//! move that starts or ends in its side's promotion region, and must where
//! `mandatoryPiecePromotion` says so; with `pieceDemotion` a piece so
//! promoted may become its first kind again the same way; with
//! `piecePromotionOnCapture` both only by capturing; with `dropPromoted` a
//! piece in hand may be dropped promoted. A promoted piece remembers what
//! it was ([`super::board::State::unpromoted`]): it is written `+S` in a
//! position, and goes to hand as that kind when taken.
//!
//! A move that promotes so is the [`CellMove`] whose `promotion` is the
//! promoted kind's role, written `s1s2+` in UCI form; one that demotes has
//! the first kind's role, written `s1s2-`.

use super::board::Pos;
use super::def::{Def, Part};
use crate::movegen::{CellKind, CellMove};

/// What a move's `promotion` does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A pawn's promotion to a chosen kind (`promotionPieceTypes`).
    Pawn,
    /// A shogi-style promotion to the mover's promoted kind.
    Promote,
    /// A promoted piece back to its first kind (`pieceDemotion`).
    Demote,
}

/// Each kind's promoted kind, by index, from the definition's
/// [`Def::promoted_types`]. Refused: a promotion to a piece the variant
/// does not have, and a pawn (or a piece that promotes as one,
/// `promotionPawnTypes`) whose promoted kind is also among its promotion
/// choices (a move would then be written two ways).
pub fn compile(def: &Def) -> Result<Vec<Option<usize>>, String> {
    let index = |name: &str| def.kinds.iter().position(|k| k.name == name);
    let mut out = vec![None; def.kinds.len()];
    for (from, to) in &def.promoted_types {
        let Some(f) = index(from) else { continue };
        let t = index(to).ok_or_else(|| {
            format!("the {from} promotes to the {to}, which this variant does not have")
        })?;
        let pawn_like = def
            .pawn_kinds
            .promotion
            .iter()
            .any(|&set| set & (1 << f) != 0);
        if (def.kinds[f].part == Part::Pawn || pawn_like)
            && def
                .promotion_types
                .iter()
                .any(|set| set.all || set.kinds.contains(&t))
        {
            return Err(format!(
                "the {from} promotes to the {to} both as a promotion choice and by \
                 promotedPieceType"
            ));
        }
        out[f] = Some(t);
    }
    Ok(out)
}

/// What the promotion of `mv`, a legal move in `pos`, does.
pub fn change(def: &Def, pos: &Pos, mv: &CellMove) -> Option<Change> {
    let target = def.kind_of_role(mv.promotion?)?;
    let kind = def.kind_of_role(mv.role)?;
    if def.promotes_to.get(kind).copied().flatten() == Some(target) {
        return Some(Change::Promote);
    }
    let from = pos.number_at(mv.from as usize);
    if mv.kind != CellKind::Drop && pos.state().unpromoted_at(from) == Some(target as u8) {
        return Some(Change::Demote);
    }
    Some(Change::Pawn)
}

/// Whether a side with `count` pieces of kind `k` may promote to one more
/// (`promotionLimit`).
fn under_limit(def: &Def, pos: &Pos, us: u8, k: usize) -> bool {
    match def.promotion_limit.iter().find(|(lk, _)| *lk == k) {
        Some(&(_, n)) if n > 0 => (n as i32) > pos.count(def, us, Some(k)),
        _ => true,
    }
}

/// Adds to `moves[start..]`, the plain moves of the piece of kind `kind`
/// on `from`, its promotions and demotions, and takes out the plain moves
/// `mandatoryPiecePromotion` forbids, as Fairy-Stockfish's
/// `generate_moves` does.
pub fn piece_moves(
    def: &Def,
    pos: &Pos,
    from: u8,
    kind: usize,
    moves: &mut Vec<CellMove>,
    start: usize,
) {
    let us = pos.us();
    let promote = def.promotes_to[kind].filter(|&t| under_limit(def, pos, us, t));
    let promoted = pos.state().promoted & (1u128 << from) != 0;
    let demote = if def.piece_demotion && promoted {
        Some(pos.state().unpromoted_at(from))
    } else {
        None
    };
    if moves.len() == start || (promote.is_none() && demote.is_none()) {
        return;
    }
    let zone = def.promotion_region[us as usize];
    let from_in_zone = pos.region_has(zone, from);
    let occupied = |m: &CellMove| pos.board.cell(m.to as usize).is_occupied();
    let in_zone = |m: &CellMove| pos.region_has(zone, pos.number_at(m.to as usize));
    // The squares a promotion or demotion may go to.
    let changes = |m: &CellMove| {
        (!def.piece_promotion_on_capture || occupied(m)) && (from_in_zone || in_zone(m))
    };
    let plain: Vec<CellMove> = moves.drain(start..).collect();
    for m in &plain {
        let keep = !def.mandatory_piece_promotion
            || (!from_in_zone && !in_zone(m))
            || (def.piece_promotion_on_capture && !occupied(m));
        if keep {
            moves.push(*m);
        }
    }
    for t in [promote, demote.flatten().map(usize::from)]
        .into_iter()
        .flatten()
    {
        let role = def.role(t);
        moves.extend(plain.iter().filter(|m| changes(m)).map(|m| CellMove {
            promotion: Some(role),
            ..*m
        }));
    }
}

/// The shogi-style promotion of a pawn arriving in its promotion region
/// on `m`, if it has one (Fairy-Stockfish's `make_promotions`: no limit,
/// and with `piecePromotionOnCapture` only by capturing).
pub fn pawn_promotion(def: &Def, pos: &Pos, kind: usize, m: &CellMove) -> Option<CellMove> {
    let t = def.promotes_to.get(kind).copied().flatten()?;
    if def.piece_promotion_on_capture && !pos.board.cell(m.to as usize).is_occupied() {
        return None;
    }
    Some(CellMove {
        promotion: Some(def.role(t)),
        ..*m
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{first, moves};
    use super::super::{gen, Pos};

    const SILVERS: &str = "[s:chess]\nsilver = s\ngold = g\nmaxRank = 5\nmaxFile = 5\n\
        promotionRegionWhite = *4 *5\npromotionRegionBlack = *1 *2\n\
        promotedPieceType = s:g\ncastling = false\nstartFen = k4/5/2S2/5/4K w - - 0 1\n";

    #[test]
    fn a_piece_may_promote_on_entering_or_leaving_its_region_or_not() {
        let def = first(SILVERS);
        let all = moves(&def, "k4/5/2S2/5/4K w - - 0 1");
        let silver: Vec<&str> = all
            .iter()
            .filter(|m| m.starts_with("c3"))
            .map(|m| m.as_str())
            .collect();
        // Forward into rank 4 with or without promotion; backward, outside
        // the region, only plain.
        assert_eq!(
            silver,
            ["c3b2", "c3b4", "c3b4+", "c3c4", "c3c4+", "c3d2", "c3d4", "c3d4+"]
        );
        // From inside the region, any move may promote.
        let inside = moves(&def, "k4/2S2/5/5/4K w - - 0 1");
        assert!(inside.contains(&"c4b3+".to_string()), "{inside:?}");
    }

    #[test]
    fn mandatory_piece_promotion_leaves_no_plain_move_touching_the_region() {
        let def = first(&format!("{SILVERS}mandatoryPiecePromotion = true\n"));
        let all = moves(&def, "k4/5/2S2/5/4K w - - 0 1");
        assert!(all.contains(&"c3c4+".to_string()), "{all:?}");
        assert!(!all.contains(&"c3c4".to_string()), "{all:?}");
        assert!(all.contains(&"c3b2".to_string()), "{all:?}");
    }

    #[test]
    fn a_promoted_piece_is_written_with_its_first_kind_and_goes_to_hand_so() {
        let text = format!("{SILVERS}pieceDrops = true\ncapturesToHand = true\n");
        let def = first(&text);
        let fen = "k4/1+S3/5/5/2R1K[] b - - 0 1";
        let pos = Pos::from_fen(&def, fen).unwrap();
        assert_eq!(pos.to_fen(&def), fen);
        let take = gen::parse_uci(&def, &pos, "a5b4").expect("the king takes the gold");
        let after = gen::play(&def, &pos, &take);
        // The gold that was a silver is in Black's hand as a silver.
        assert_eq!(after.to_fen(&def), "5/1k3/5/5/2R1K[s] w - - 0 2");
        assert!(Pos::from_fen(&def, "k4/1+G3/5/5/4K w - - 0 1").is_err());
    }

    #[test]
    fn a_promoted_piece_may_demote_with_piece_demotion() {
        let def = first(&format!("{SILVERS}pieceDemotion = true\n"));
        let all = moves(&def, "k4/1+S3/5/5/4K w - - 0 1");
        // The gold on b4 (a silver) may stay, or move as a silver again
        // within the region; it does not promote further.
        assert!(all.contains(&"b4b5-".to_string()), "{all:?}");
        assert!(all.contains(&"b4b5".to_string()), "{all:?}");
        assert!(!all.iter().any(|m| m.ends_with('+')), "{all:?}");
        let pos = Pos::from_fen(&def, "k4/1+S3/5/5/4K w - - 0 1").unwrap();
        let back = gen::parse_uci(&def, &pos, "b4b5-").unwrap();
        assert_eq!(
            gen::play(&def, &pos, &back).to_fen(&def),
            "kS3/5/5/5/4K b - - 1 1"
        );
    }
}
