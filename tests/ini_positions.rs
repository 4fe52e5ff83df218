//! Positions of defined variants checked as Fairy-Stockfish checks them
//! (issue 42): for every definition of tests/pyffish/variants.ini and
//! every built-in parent, the start position and positions made from it
//! with a king missing, a king too many, the kings side by side, a
//! castling rook gone and a king off its square, are read by postal
//! (`Pos::from_fen`) and given to pyffish's `validate_fen`: postal
//! accepts exactly those pyffish accepts. And a definition whose
//! `startFen` does not stand is refused at that key's own line.

use postal::variant::ini::{self, Def, Pos};
use serde_json::Value;

const FIXTURE: &str = "tests/pyffish/variants.ini";

fn validate(jobs: &Value) -> Vec<i64> {
    crate::common::pyffish("validate.py", std::path::Path::new(FIXTURE), jobs)
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// The start position and the damaged ones made from it, as FEN.
fn positions(def: &Def) -> Vec<(String, String)> {
    let start = def.start();
    let mut out = vec![("start".to_string(), start.to_fen(def))];
    let Some(king) = def.king() else {
        return out;
    };
    let mut with = |what: &str, change: &dyn Fn(&mut Pos) -> bool| {
        let mut p = start.clone();
        if change(&mut p) {
            out.push((what.to_string(), p.to_fen(def)));
        }
    };
    let at = |p: &Pos, color: u8, kind: usize| {
        (0..p.square_count()).find(|&s| {
            p.man(def, s)
                .is_some_and(|m| m.color == color && m.kind as usize == kind)
        })
    };
    let empty = |p: &Pos| (0..p.square_count()).find(|&s| p.is_empty_at(s));
    with("no white king", &|p| {
        at(p, 0, king).map(|s| p.put(def, s, None)).is_some()
    });
    with("two white kings", &|p| match (at(p, 0, king), empty(p)) {
        (Some(k), Some(e)) => {
            let man = p.man(def, k);
            p.put(def, e, man);
            true
        }
        _ => false,
    });
    with("kings side by side", &|p| {
        let (Some(w), Some(b)) = (at(p, 0, king), at(p, 1, king)) else {
            return false;
        };
        let (wf, wr) = p.file_rank(w);
        for (df, dr) in [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)] {
            if let Some(s) = p.sq(wf + df, wr + dr) {
                if p.is_empty_at(s) {
                    let man = p.take(def, b);
                    p.put(def, s, man);
                    p.state_mut().castling[1] = [None, None];
                    return true;
                }
            }
        }
        false
    });
    with("white king off its square", &|p| {
        let Some(w) = at(p, 0, king) else {
            return false;
        };
        let (wf, wr) = p.file_rank(w);
        match p.sq(wf, wr + 1).filter(|&s| p.is_empty_at(s)) {
            Some(s) => {
                let man = p.take(def, w);
                p.put(def, s, man);
                p.state_mut().castling[1] = [None, None];
                true
            }
            None => false,
        }
    });
    for side in 0..2 {
        with(
            &format!("a white castling rook gone ({side})"),
            &|p| match p.state().castling[0][side] {
                Some(r) => {
                    p.put(def, r.rook, None);
                    true
                }
                None => false,
            },
        );
    }
    out
}

#[test]
fn positions_stand_as_fairy_stockfish_validates_them() {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let loaded = ini::load(&text, FIXTURE);
    let defs: Vec<&Def> = loaded.defs.iter().chain(ini::builtin::parents()).collect();
    let mut cases = Vec::new();
    for def in &defs {
        for (what, fen) in positions(def) {
            cases.push((*def, what, fen));
        }
    }
    let jobs: Vec<Value> = cases
        .iter()
        .map(|(d, _, fen)| serde_json::json!({"variant": d.name, "fen": fen}))
        .collect();
    let verdicts = validate(&Value::Array(jobs));
    let mut bad = Vec::new();
    let mut refused = 0;
    for ((def, what, fen), code) in cases.iter().zip(&verdicts) {
        let ours = Pos::from_fen(def, fen);
        refused += usize::from(ours.is_err());
        if ours.is_ok() != (*code == 1) {
            bad.push(format!(
                "{} {what}: {fen}: pyffish {code}, postal {:?}",
                def.name, ours
            ));
        }
    }
    eprintln!("{} positions, {refused} refused", cases.len());
    assert!(refused >= 100, "{refused} positions refused");
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}

/// A start position that does not stand is refused at `startFen`'s own
/// line and column, with the reason.
#[test]
fn a_bad_start_is_refused_at_its_line() {
    let text = "[twokings:chess]\npieceToCharTable = -\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w - - 0 1\n";
    let loaded = ini::load(text, "my.ini");
    let r = loaded.refusal("twokings").expect("refused");
    assert_eq!((r.line, r.col, r.key.as_str()), (3, 12, "startFen"), "{r}");
    assert!(r.why.contains("White has 2 kings"), "{r}");
    let walls = "[walls:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w - - 0 1\n";
    let r = ini::load(walls, "my.ini").refused[0].clone();
    // At the wall itself: its column on the key's line.
    let col = "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN".len() + 1;
    assert_eq!((r.line, r.col, r.key.as_str()), (2, col, "startFen"), "{r}");
    assert!(r.why.contains("`*` (a wall"), "{r}");
}
