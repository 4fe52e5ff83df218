//! The end of a game of a user-defined variant, with Fairy-Stockfish's
//! meanings: the immediate ends it checks before listing moves
//! (extinction, counting pieces in hand; a flag reached, safe or blocked;
//! a line of `connectN`), the n-move rule, checkmate and stalemate with
//! their values.

use super::board::Pos;
use super::def::{Counting, Def, Score};
use super::gen::{attacked, in_check, legal_ignoring_end};

/// A game's end: the result for White (1 win, 0 draw, -1 loss) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub white: i8,
    pub why: &'static str,
}

fn score_white(score: Score, side: u8) -> Option<i8> {
    let v = match score {
        Score::Win => 1,
        Score::Loss => -1,
        Score::Draw => 0,
        Score::None => return None,
    };
    Some(if side == 0 { v } else { -v })
}

/// Whether `c` has reached its flag region, as Fairy-Stockfish's
/// `flag_reached`: a flag piece there and the count of them, or the
/// region full (`flagPieceBlockedWin`); with `flagPieceSafe` (unless
/// `c` is to move with `flagMove`), just the count there, all of them
/// unattacked.
fn flag_reached(def: &Def, pos: &Pos, c: u8) -> bool {
    let region = def.flag_region[c as usize];
    if region == 0 {
        return false;
    }
    let kind = def.flag_piece[c as usize];
    let inside: Vec<u8> = (0..pos.square_count())
        .filter(|&s| {
            matches!(pos.man(def, s), Some(m) if m.color == c && kind.is_none_or(|k| k == m.kind as usize))
                && pos.region_has(region, s)
        })
        .collect();
    let n = inside.len() as i32;
    let full =
        || (0..pos.square_count()).all(|s| !pos.region_has(region, s) || !pos.is_empty_at(s));
    let reached = n > 0 && (n >= def.flag_piece_count || (def.flag_blocked_win && full()));
    if reached
        && def.flag_piece_safe
        && (!def.flag_move || c != pos.us())
        && n == def.flag_piece_count
    {
        return inside.iter().all(|&s| !attacked(def, pos, s, 1 - c));
    }
    reached
}

/// The pieces of `color` of kind `kind` (`None`: all) on the board and
/// in hand, as Fairy-Stockfish counts them for extinction.
fn with_hand(def: &Def, pos: &Pos, color: u8, kind: Option<usize>) -> i32 {
    let hand = &pos.state().hands[color as usize];
    let held: u32 = match kind {
        Some(k) => hand.get(k).copied().map_or(0, u32::from),
        None => hand.iter().map(|&n| u32::from(n)).sum(),
    };
    pos.count(def, color, kind) + held as i32
}

/// Whether `side` has `connectN` of its connecting pieces in a line
/// along a rank, a file or a diagonal, as the variant counts them; or a
/// square of `connectNxN` on a side; or `collinearN` on one such line,
/// gaps allowed.
fn connected(def: &Def, pos: &Pos, side: u8) -> bool {
    if def.connect_n == 0 && def.connect_nxn == 0 && def.collinear_n == 0 {
        return false;
    }
    let mine = |f: i8, r: i8| {
        pos.sq(f, r)
            .and_then(|s| pos.man(def, s))
            .is_some_and(|m| m.color == side && def.connect_types.contains(m.kind as usize))
    };
    let mut steps: Vec<(i8, i8)> = Vec::with_capacity(4);
    for (on, line) in
        def.connect_lines
            .iter()
            .zip([&[(1, 0)][..], &[(0, 1)][..], &[(1, 1), (1, -1)][..]])
    {
        if *on {
            steps.extend_from_slice(line);
        }
    }
    let n = def.connect_n as i8;
    let line = n > 0
        && pos.squares_of(side).any(|s| {
            let (f, r) = pos.file_rank(s);
            steps
                .iter()
                .any(|&(df, dr)| (0..n).all(|i| mine(f + i * df, r + i * dr)))
        });
    let n = def.connect_nxn as i8;
    let square = n > 0
        && pos.squares_of(side).any(|s| {
            let (f, r) = pos.file_rank(s);
            (0..n).all(|i| (0..n).all(|j| mine(f + i, r + j)))
        });
    // Each line once, from its first square on the board.
    let n = def.collinear_n as usize;
    let collinear = n > 0
        && (0..pos.square_count()).any(|s| {
            let (f, r) = pos.file_rank(s);
            steps.iter().any(|&(df, dr)| {
                pos.sq(f - df, r - dr).is_none()
                    && (0..)
                        .map_while(|i| {
                            pos.sq(f + i * df, r + i * dr)
                                .map(|_| mine(f + i * df, r + i * dr))
                        })
                        .filter(|&m| m)
                        .count()
                        >= n
            })
        });
    line || square || collinear
}

/// `castlingWins`: the side that has just castled so wins; a side that
/// has lost every such right loses (the side that moved looked at
/// first), as Fairy-Stockfish's `is_immediate_game_end` says.
fn castling_end(def: &Def, pos: &Pos) -> Option<End> {
    let stm = pos.us();
    let mover = 1 - stm;
    let lose = |c: u8| End {
        white: if c == 0 { -1 } else { 1 },
        why: "castling",
    };
    if let Some(side) = pos.state().castled {
        if def.castling_wins[mover as usize][side as usize] {
            return Some(lose(stm));
        }
    }
    [mover, stm].into_iter().find_map(|c| {
        let wins = def.castling_wins[c as usize];
        let rights = pos.state().castling[c as usize];
        let kept = (0..2).any(|side| wins[side] && rights[side].is_some());
        (wins.contains(&true) && !kept).then(|| lose(c))
    })
}

/// The ends Fairy-Stockfish checks before listing moves: extinction
/// (not where the extinction kinds are pseudo-royal, as no move may let
/// one be taken, unless an explosion can take one), a flag reached, then
/// a line of `connectN` made by the last move's side.
pub fn immediate_end(def: &Def, pos: &Pos) -> Option<End> {
    let stm = pos.us();
    if def.extinction != Score::None && (!def.pseudo_royal || def.blast_on_capture) {
        for c in [1 - stm, stm] {
            let kinds: Vec<Option<usize>> = if def.extinction_types.all {
                vec![None]
            } else {
                def.extinction_types
                    .kinds
                    .iter()
                    .map(|&k| Some(k))
                    .collect()
            };
            for k in kinds {
                let claim = i32::from(def.extinction_claim && c == stm);
                if with_hand(def, pos, c, k) <= def.extinction_count
                    && with_hand(def, pos, 1 - c, k) >= def.extinction_opponent_count + claim
                {
                    let v = score_white(def.extinction, c).unwrap_or(0);
                    return Some(End {
                        white: v,
                        why: "extinction",
                    });
                }
            }
        }
    }
    let king = def.king();
    let flag_king =
        |c: u8| def.flag_piece[c as usize].is_some() && def.flag_piece[c as usize] == king;
    let safe = def.flag_piece_safe;
    if (def.flag_move || safe) && flag_reached(def, pos, stm) {
        let draw = ((def.flag_move && stm == 0 && flag_king(1 - stm)) || (safe && !def.flag_move))
            && flag_reached(def, pos, 1 - stm);
        return Some(End {
            white: if draw {
                0
            } else if stm == 0 {
                1
            } else {
                -1
            },
            why: "flag",
        });
    }
    if (!def.flag_move || safe || flag_king(stm)) && flag_reached(def, pos, 1 - stm) {
        let mut over = true;
        if def.flag_move && flag_king(stm) && stm == 1 && !in_check(def, pos) {
            if let Some(k) = pos.king_square(def, stm) {
                let k = pos.cell_index(k) as u32;
                over = !legal_ignoring_end(def, pos, true).iter().any(|m| {
                    m.from == k
                        && pos
                            .region_has(def.flag_region[stm as usize], pos.number_at(m.to as usize))
                });
            }
        }
        if over {
            return Some(End {
                white: if stm == 0 { -1 } else { 1 },
                why: "flag",
            });
        }
    }
    if let Some(e) = castling_end(def, pos) {
        return Some(e);
    }
    if connected(def, pos, 1 - stm) {
        // The side that made the line scores `connectValue`.
        if let Some(v) = score_white(def.connect_value, 1 - stm) {
            return Some(End {
                white: v,
                why: "connection",
            });
        }
    }
    None
}

/// Whether the check of a checkmate is by a shogi pawn the last move
/// dropped, which `shogiPawnDropMateIllegal` makes a win for the side
/// mated (Fairy-Stockfish's `checkmate_value`: a drop discovers no other
/// check, so the pawn is the only checker).
fn pawn_drop_mate(def: &Def, pos: &Pos) -> bool {
    def.shogi_pawn_drop_mate_illegal
        && pos
            .state()
            .last_drop
            .is_some_and(|k| def.kinds[k as usize].name == "shogiPawn")
}

/// A drawn end decided by the pieces instead (`materialCounting`): the
/// result for White.
fn counted(def: &Def, pos: &Pos) -> Option<i8> {
    Some(match def.material_counting? {
        Counting::Unweighted => (pos.count(def, 0, None) - pos.count(def, 1, None)).signum() as i8,
        Counting::WhiteDrawOdds => 1,
        Counting::BlackDrawOdds => -1,
    })
}

/// The game's end decided by the position alone: the immediate ends,
/// then the n-move rule (unless it is checkmate; before stalemate, as
/// Fairy-Stockfish's `is_optional_game_end` comes before its search finds
/// no move), then checkmate and stalemate.
pub fn outcome(def: &Def, pos: &Pos) -> Option<End> {
    if let Some(e) = immediate_end(def, pos) {
        return Some(e);
    }
    let no_move = legal_ignoring_end(def, pos, true).is_empty();
    let check = in_check(def, pos);
    if def.n_move_rule > 0
        && pos.halfmove >= def.n_move_rule.saturating_mul(2)
        && !(no_move && check)
    {
        return Some(End {
            white: counted(def, pos).unwrap_or(0),
            why: "n-move rule",
        });
    }
    if no_move {
        let (score, why) = if check && pawn_drop_mate(def, pos) {
            (Score::Win, "checkmate by a pawn drop")
        } else if check {
            (def.checkmate, "checkmate")
        } else {
            (def.stalemate, "stalemate")
        };
        let white = match score_white(score, pos.us()).unwrap_or(0) {
            0 if !check => counted(def, pos).unwrap_or(0),
            v => v,
        };
        return Some(End { white, why });
    }
    None
}
