//! Perft: counting the leaf nodes of the game tree to a depth, the standard
//! check of a move generator against published tables, and the tables
//! themselves (`fixtures/perft/<variant>.perft`: `id`, `fen`,
//! `perft DEPTH NODES` lines, `#` comments).

use crate::position::Position;

/// Leaf nodes `depth` turns deep.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    pos.variant.rules().perft(pos, depth)
}

/// Perft split by first move: each legal move with its count, in the
/// variant's notation (see `Rules::divide`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    pos.variant.rules().divide(pos, depth)
}

/// One position of a perft table with its published counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// The line of each count in the file (for error messages).
    pub lines: Vec<usize>,
}

/// Reads a perft table file.
pub fn read_table(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                counts: Vec::new(),
                lines: Vec::new(),
            }),
            "fen" | "epd" => match cases.last_mut() {
                Some(c) => c.fen = rest.to_string(),
                None => return Err(format!("line {}: fen before id", n + 1)),
            },
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok());
                let nodes = it.next().and_then(|d| d.parse().ok());
                match (cases.last_mut(), depth, nodes) {
                    (Some(c), Some(d), Some(nn)) => {
                        c.counts.push((d, nn));
                        c.lines.push(n + 1);
                    }
                    _ => return Err(format!("line {}: expected `perft DEPTH NODES`", n + 1)),
                }
            }
            other => return Err(format!("line {}: unknown key {other:?}", n + 1)),
        }
    }
    Ok(cases)
}
