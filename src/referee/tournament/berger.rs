//! FIDE's Berger tables (Handbook C.05, Annex 1): who plays whom, with
//! which colour, in each round of a round robin.
//!
//! For `n` players (`n` even; an odd number gets a bye, the player `n+1`,
//! whose opponent sits the round out) there are `n-1` rounds of `n/2`
//! pairings, White first. Round 1 is `1-n, 2-(n-1), ..., n/2-(n/2+1)`;
//! each next round adds `n/2` to every number but `n` (counted 1 to
//! `n-1`, round and round), keeping each board's orientation, except that
//! the board of player `n` changes colours every round. That is the
//! published table: for six players `1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1
//! 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1`. A double round robin plays the same
//! rounds again with the colours reversed.

/// One game of the table: the round (from 1), White's and Black's
/// numbers (from 1, the seeding of the players' file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub round: u32,
    pub white: usize,
    pub black: usize,
}

/// The pairings of `players` players, round by round; `double`: a second
/// cycle with the colours reversed. Games against the bye are left out.
pub fn pairings(players: usize, double: bool) -> Vec<Pairing> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    let half = n / 2;
    let mut board: Vec<(usize, usize)> = (1..=half).map(|i| (i, n + 1 - i)).collect();
    let mut out = Vec::new();
    for round in 1..=m as u32 {
        if round > 1 {
            let next = |k: usize| if k == n { n } else { (k - 1 + half) % m + 1 };
            board = board.iter().map(|&(w, b)| (next(w), next(b))).collect();
            // The board of player n: colours change every round.
            let (w, b) = board[0];
            board[0] = (b, w);
        }
        for &(w, b) in &board {
            if w <= players && b <= players {
                out.push(Pairing {
                    round,
                    white: w,
                    black: b,
                });
            }
        }
    }
    if double {
        let first: Vec<Pairing> = out.clone();
        out.extend(first.into_iter().map(|p| Pairing {
            round: p.round + m as u32,
            white: p.black,
            black: p.white,
        }));
    }
    out
}

/// The number of rounds: `n-1` a cycle for `n` players with a bye made
/// even, two cycles when `double`.
pub fn rounds(players: usize, double: bool) -> u32 {
    let n = players + players % 2;
    (n.saturating_sub(1) * if double { 2 } else { 1 }) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as printed: each round's pairings, `W-B`.
    fn table(players: usize) -> Vec<String> {
        let p = pairings(players, false);
        (1..=rounds(players, false))
            .map(|r| {
                p.iter()
                    .filter(|g| g.round == r)
                    .map(|g| format!("{}-{}", g.white, g.black))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    // The published tables (FIDE Handbook C.05, Annex 1, "Berger Tables
    // for Round-Robin Tournaments"), 3 or 4, 5 or 6, 7 or 8 players.
    #[test]
    fn four_players_as_published() {
        assert_eq!(table(4), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
    }

    #[test]
    fn six_players_as_published() {
        assert_eq!(
            table(6),
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1"
            ]
        );
    }

    #[test]
    fn eight_players_as_published() {
        assert_eq!(
            table(8),
            [
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1"
            ]
        );
    }

    #[test]
    fn an_odd_number_sits_out_against_the_bye() {
        // Five players: the six-player table without player 6.
        assert_eq!(
            table(5),
            ["2-5 3-4", "5-3 1-2", "3-1 4-5", "1-4 2-3", "4-2 5-1"]
        );
    }

    #[test]
    fn every_pair_meets_once_a_cycle_and_the_second_reverses_colours() {
        for n in 3..=17 {
            let single = pairings(n, false);
            assert_eq!(single.len(), n * (n - 1) / 2, "{n} players");
            let double = pairings(n, true);
            assert_eq!(double.len(), n * (n - 1), "{n} players");
            for (a, b) in single.iter().zip(&double[single.len()..]) {
                assert_eq!((a.white, a.black), (b.black, b.white));
                assert_eq!(b.round, a.round + rounds(n, false));
            }
            let mut pairs: Vec<(usize, usize)> = single
                .iter()
                .map(|g| (g.white.min(g.black), g.white.max(g.black)))
                .collect();
            pairs.sort();
            pairs.dedup();
            assert_eq!(pairs.len(), single.len(), "{n} players: a pair twice");
        }
    }
}
