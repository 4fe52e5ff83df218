//! Drops of a defined variant's pieces in hand (`pieceDrops`), as
//! Fairy-Stockfish's `generate_drops` lists them; which of them are legal
//! (`dropChecks`, `mustDrop`, the king's safety) `super::gen` decides.

use super::board::Pos;
use super::def::{Def, Part};
use crate::movegen::{CellKind, CellMove};

/// Drops of the pieces in hand onto empty squares of the side's drop
/// region, as Fairy-Stockfish allows them: a pawn neither on its side's
/// first rank (unless `firstRankPawnDrops`) nor in its promotion region
/// (unless `promotionZonePawnDrops`), and the `dropNoDoubled` kind not
/// on a file that holds `dropNoDoubledCount` of them already.
pub(super) fn drops(def: &Def, pos: &Pos, out: &mut Vec<CellMove>) {
    let us = pos.us();
    let first_rank = if us == 0 { 0 } else { pos.state().ranks - 1 };
    let region = def.drop_region[us as usize];
    for (kind, &n) in pos.state().hands[us as usize].iter().enumerate() {
        if n == 0 {
            continue;
        }
        let pawn = def.kinds[kind].part == Part::Pawn;
        // Per file, whether it is closed to this kind's drops.
        let mut closed = vec![false; pos.state().files as usize];
        if def.drop_no_doubled == Some(kind) {
            let mut on_file = vec![0; closed.len()];
            for sq in pos.squares_of(us) {
                if pos.man(def, sq).is_some_and(|m| m.kind as usize == kind) {
                    on_file[pos.file_rank(sq).0 as usize] += 1;
                }
            }
            for (c, n) in closed.iter_mut().zip(on_file) {
                *c = n >= def.drop_no_doubled_count;
            }
        }
        for to in 0..pos.square_count() {
            if !pos.is_empty_at(to)
                || !pos.region_has(region, to)
                || !pos.region_has(def.mobility[kind][us as usize], to)
                || closed[pos.file_rank(to).0 as usize]
            {
                continue;
            }
            if pawn
                && ((!def.promotion_zone_pawn_drops
                    && pos.region_has(def.promotion_region[us as usize], to))
                    || (!def.first_rank_pawn_drops && pos.file_rank(to).1 == first_rank))
            {
                continue;
            }
            let at = pos.cell_index(to) as u32;
            let drop = CellMove {
                from: at,
                to: at,
                role: def.role(kind),
                promotion: None,
                kind: CellKind::Drop,
            };
            // `dropPromoted`: the piece may come in promoted too.
            if let Some(t) = def.promotes_to[kind].filter(|_| def.drop_promoted) {
                out.push(CellMove {
                    promotion: Some(def.role(t)),
                    ..drop
                });
            }
            out.push(drop);
        }
    }
}
