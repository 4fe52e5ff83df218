//! The cross-table of a tournament, computed from its games' results each
//! time it is asked for (never kept): each player's games, score, games
//! played, wins, Sonneborn-Berger and rank.
//!
//! Scoring, as FIDE and ICCF score: a win 1, a draw ½, a loss 0; a game
//! lost by a withdrawal is a forfeit (`+` for the winner, `-` for the
//! loser) worth what a win and a loss are worth. A time forfeit or an
//! adjudication counts as the result it gave. A game ended without a
//! result (the referee's `abort`) counts nothing.
//!
//! Ties on points are broken by the tie-breaks of the settings, in their
//! order (FIDE C.07): Sonneborn-Berger (the final scores of the opponents
//! beaten, and half those of the opponents drawn with, forfeits counted
//! as their points), the number of wins (forfeit wins counted), the
//! direct encounter (the points among the players still tied, applied
//! only when they have all finished their games among themselves) and
//! Koya (the points against the players who scored half the games or
//! more). Players still equal share a rank.

use super::{Tiebreak, Tournament};
use crate::color::Color;

/// A game's result as its file says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    WhiteWins,
    BlackWins,
    Draw,
    /// Ended without a result (`*`).
    None,
}

/// A result from its text: `1-0`, `0-1`, `1/2-1/2`, or an ending as the
/// index writes it (`1-0, checkmate`).
pub fn result_of(text: &str) -> Result {
    match text.split(',').next().unwrap_or("").trim() {
        "1-0" => Result::WhiteWins,
        "0-1" => Result::BlackWins,
        "1/2-1/2" => Result::Draw,
        _ => Result::None,
    }
}

/// One game as one of its players sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Still being played.
    Going,
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    /// Ended without a result.
    Void,
}

impl Mark {
    /// As the cross-table writes it: `1`, `=`, `0`, `+`, `-`; a blank for
    /// a game going on, `*` for one without a result.
    pub fn symbol(self) -> char {
        match self {
            Mark::Going => ' ',
            Mark::Win => '1',
            Mark::Draw => '=',
            Mark::Loss => '0',
            Mark::ForfeitWin => '+',
            Mark::ForfeitLoss => '-',
            Mark::Void => '*',
        }
    }

    /// The points, in halves.
    pub fn halves(self) -> u32 {
        match self {
            Mark::Win | Mark::ForfeitWin => 2,
            Mark::Draw => 1,
            _ => 0,
        }
    }

    /// Whether the game has a result that counts.
    pub fn counts(self) -> bool {
        !matches!(self, Mark::Going | Mark::Void)
    }

    pub fn won(self) -> bool {
        matches!(self, Mark::Win | Mark::ForfeitWin)
    }
}

/// One game of a player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub id: String,
    pub round: u32,
    /// The opponent's number (from 1).
    pub opponent: usize,
    pub color: Color,
    pub mark: Mark,
}

/// A player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The player's number (from 1): the seeding.
    pub seat: usize,
    pub name: String,
    pub withdrawn: bool,
    /// The player's games, in round order.
    pub games: Vec<Played>,
    /// The score, in half points.
    pub halves: u32,
    /// Games with a result.
    pub played: usize,
    pub wins: usize,
    /// Sonneborn-Berger, in quarter points.
    pub sb_quarters: u32,
    /// Koya, in half points.
    pub koya_halves: u32,
    /// The rank (players still equal share one).
    pub rank: usize,
}

impl Line {
    pub fn score(&self) -> f64 {
        self.halves as f64 / 2.0
    }

    pub fn sonneborn_berger(&self) -> f64 {
        self.sb_quarters as f64 / 4.0
    }

    /// The games against `opponent`, in round order.
    pub fn against(&self, opponent: usize) -> impl Iterator<Item = &Played> {
        self.games.iter().filter(move |g| g.opponent == opponent)
    }
}

/// The cross-table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    /// The variant as people name it.
    pub title: String,
    pub double: bool,
    pub rounds: u32,
    pub time_control: Option<String>,
    pub start: chrono::DateTime<chrono::Utc>,
    pub tiebreaks: Vec<Tiebreak>,
    /// The rows in seating order (`lines[n - 1]` is player `n`).
    pub lines: Vec<Line>,
    /// The players' numbers, best first.
    pub order: Vec<usize>,
}

impl Table {
    /// The table of `t`, each game's result asked of `result` (by id;
    /// `None` while it goes on).
    pub fn compute(t: &Tournament, result: impl Fn(&str) -> Option<Result>) -> Table {
        let rec = &t.record;
        let mut lines: Vec<Line> = rec
            .players
            .iter()
            .enumerate()
            .map(|(i, s)| Line {
                seat: i + 1,
                name: s.name.clone(),
                withdrawn: rec.withdrawal(i + 1).is_some(),
                games: Vec::new(),
                halves: 0,
                played: 0,
                wins: 0,
                sb_quarters: 0,
                koya_halves: 0,
                rank: 0,
            })
            .collect();
        for g in &rec.games {
            let forfeit = rec.forfeited(&g.id);
            let (w, b) = match result(&g.id) {
                None => (Mark::Going, Mark::Going),
                Some(Result::None) => (Mark::Void, Mark::Void),
                Some(Result::Draw) => (Mark::Draw, Mark::Draw),
                Some(Result::WhiteWins) if forfeit => (Mark::ForfeitWin, Mark::ForfeitLoss),
                Some(Result::WhiteWins) => (Mark::Win, Mark::Loss),
                Some(Result::BlackWins) if forfeit => (Mark::ForfeitLoss, Mark::ForfeitWin),
                Some(Result::BlackWins) => (Mark::Loss, Mark::Win),
            };
            for (seat, opponent, color, mark) in [
                (g.white, g.black, Color::White, w),
                (g.black, g.white, Color::Black, b),
            ] {
                lines[seat - 1].games.push(Played {
                    id: g.id.clone(),
                    round: g.round,
                    opponent,
                    color,
                    mark,
                });
            }
        }
        for l in &mut lines {
            l.games.sort_by_key(|g| g.round);
            l.halves = l.games.iter().map(|g| g.mark.halves()).sum();
            l.played = l.games.iter().filter(|g| g.mark.counts()).count();
            l.wins = l.games.iter().filter(|g| g.mark.won()).count();
        }
        let halves: Vec<u32> = lines.iter().map(|l| l.halves).collect();
        // Half the games a player has, in half points: Koya's line.
        let per_player = lines.iter().map(|l| l.games.len()).max().unwrap_or(0) as u32;
        for l in &mut lines {
            l.sb_quarters = l
                .games
                .iter()
                .map(|g| g.mark.halves() * halves[g.opponent - 1])
                .sum();
            l.koya_halves = l
                .games
                .iter()
                .filter(|g| halves[g.opponent - 1] >= per_player)
                .map(|g| g.mark.halves())
                .sum();
        }
        let order = rank(&mut lines, &t.settings.tiebreaks);
        Table {
            name: rec.name.clone(),
            title: rec.title.clone(),
            double: rec.double,
            rounds: rec.rounds(),
            time_control: rec.time_control.clone(),
            start: rec.start,
            tiebreaks: t.settings.tiebreaks.clone(),
            lines,
            order,
        }
    }

    /// Whether every game has ended.
    pub fn finished(&self) -> bool {
        self.lines
            .iter()
            .all(|l| l.games.iter().all(|g| g.mark != Mark::Going))
    }

    pub fn line(&self, seat: usize) -> &Line {
        &self.lines[seat - 1]
    }
}

/// The points of `seat` against the players of `group`, in halves, and
/// whether all their games among themselves have ended.
fn among(lines: &[Line], seat: usize, group: &[usize]) -> (u32, bool) {
    let mut points = 0;
    let mut all = true;
    for g in &lines[seat - 1].games {
        if group.contains(&g.opponent) {
            points += g.mark.halves();
            all &= g.mark.counts();
        }
    }
    (points, all)
}

/// Ranks the lines: by score, then each tie-break within the players
/// still equal; sets each line's rank and returns the order.
fn rank(lines: &mut [Line], tiebreaks: &[Tiebreak]) -> Vec<usize> {
    let mut all: Vec<usize> = (1..=lines.len()).collect();
    all.sort_by_key(|&s| std::cmp::Reverse(lines[s - 1].halves));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for s in all {
        match groups.last_mut() {
            Some(g) if lines[g[0] - 1].halves == lines[s - 1].halves => g.push(s),
            _ => groups.push(vec![s]),
        }
    }
    for tb in tiebreaks {
        let mut next = Vec::new();
        for group in groups {
            if group.len() == 1 {
                next.push(group);
                continue;
            }
            let value = |s: usize| -> u32 {
                let l = &lines[s - 1];
                match tb {
                    Tiebreak::SonnebornBerger => l.sb_quarters,
                    Tiebreak::Wins => l.wins as u32,
                    Tiebreak::Koya => l.koya_halves,
                    Tiebreak::DirectEncounter => among(lines, s, &group).0,
                }
            };
            let met = *tb != Tiebreak::DirectEncounter
                || group.iter().all(|&s| among(lines, s, &group).1);
            if !met {
                next.push(group);
                continue;
            }
            let mut sorted = group.clone();
            sorted.sort_by_key(|&s| std::cmp::Reverse(value(s)));
            let mut split: Vec<Vec<usize>> = Vec::new();
            for s in sorted {
                match split.last_mut() {
                    Some(g) if value(g[0]) == value(s) => g.push(s),
                    _ => split.push(vec![s]),
                }
            }
            next.extend(split);
        }
        groups = next;
    }
    let mut order = Vec::new();
    for mut g in groups {
        g.sort();
        let rank = order.len() + 1;
        for &s in &g {
            lines[s - 1].rank = rank;
        }
        order.extend(g);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::super::{Record, Scheduled, Seat, Settings, Tournament, FORMAT};
    use super::*;

    /// A single round robin of `n` players and the results by round and
    /// pairing: `results[i]` is the result of the `i`th game of the
    /// Berger table.
    fn tournament(n: usize, tiebreaks: &[Tiebreak]) -> Tournament {
        let games = super::super::berger::pairings(n, false)
            .into_iter()
            .enumerate()
            .map(|(i, p)| Scheduled {
                id: format!("g{i}"),
                round: p.round,
                white: p.white,
                black: p.black,
            })
            .collect();
        Tournament {
            record: Record {
                format: FORMAT.into(),
                name: "t".into(),
                variant: "chess".into(),
                title: "FIDE chess".into(),
                time_control: None,
                double: false,
                start: chrono::DateTime::UNIX_EPOCH,
                players: (1..=n)
                    .map(|i| Seat {
                        name: format!("P{i}"),
                        email: format!("p{i}@example.org"),
                    })
                    .collect(),
                games,
                withdrawn: Vec::new(),
            },
            settings: Settings {
                tiebreaks: tiebreaks.to_vec(),
                ..Settings::default()
            },
        }
    }

    /// The result of the game between `a` and `b` (in either colour):
    /// `a`'s points, in halves.
    fn with(t: &Tournament, results: &[(usize, usize, u32)]) -> Table {
        Table::compute(t, |gid| {
            let g = t.record.games.iter().find(|g| g.id == gid).unwrap();
            results.iter().find_map(|&(a, b, pa)| {
                let r = match pa {
                    2 => (a, b),
                    0 => (b, a),
                    _ => {
                        return ((g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
                            .then_some(Result::Draw)
                    }
                };
                ((g.white, g.black) == r)
                    .then_some(Result::WhiteWins)
                    .or(((g.black, g.white) == r).then_some(Result::BlackWins))
            })
        })
    }

    #[test]
    fn sonneborn_berger_breaks_a_tie_on_points() {
        // Four players: 1 beats 2, 2 beats 3, 3 beats 1, 4 loses to all
        // but draws with 1. Scores: 1: 1.5, 2: 2, 3: 2, 4: 0.5.
        let t = tournament(4, &[Tiebreak::SonnebornBerger]);
        let table = with(
            &t,
            &[
                (1, 2, 2),
                (2, 3, 2),
                (3, 1, 2),
                (1, 4, 1),
                (2, 4, 2),
                (3, 4, 2),
            ],
        );
        let l = |s: usize| table.line(s);
        assert_eq!(
            [l(1).halves, l(2).halves, l(3).halves, l(4).halves],
            [3, 4, 4, 1]
        );
        // 2 beat 3 (2) and 4 (0.5): 2.5; 3 beat 1 (1.5) and 4 (0.5): 2.
        assert_eq!(l(2).sonneborn_berger(), 2.5);
        assert_eq!(l(3).sonneborn_berger(), 2.0);
        // 1 beat 2 (2) and drew with 4 (0.5 / 2).
        assert_eq!(l(1).sonneborn_berger(), 2.25);
        assert_eq!(table.order, [2, 3, 1, 4]);
        assert_eq!([l(2).rank, l(3).rank, l(1).rank, l(4).rank], [1, 2, 3, 4]);
    }

    #[test]
    fn the_direct_encounter_decides_when_first_and_equal_players_share_a_rank() {
        let results = [
            (1, 2, 2),
            (2, 3, 2),
            (3, 1, 2),
            (1, 4, 1),
            (2, 4, 2),
            (3, 4, 2),
        ];
        let t = tournament(4, &[Tiebreak::DirectEncounter]);
        let table = with(&t, &results);
        // 2 and 3 are tied; 2 beat 3.
        assert_eq!(table.order, [2, 3, 1, 4]);
        let t = tournament(4, &[]);
        let table = with(&t, &results);
        assert_eq!(table.line(2).rank, 1);
        assert_eq!(table.line(3).rank, 1);
        assert_eq!(table.line(1).rank, 3);
    }

    #[test]
    fn games_going_on_count_nothing_and_the_direct_encounter_waits_for_them() {
        let t = tournament(4, &[Tiebreak::DirectEncounter, Tiebreak::Wins]);
        // 2 and 3 have not met: the direct encounter does not split
        // them; wins do.
        let table = with(&t, &[(1, 2, 0), (3, 4, 1), (3, 1, 2), (2, 4, 1)]);
        assert!(!table.finished());
        assert_eq!(table.line(2).halves, 3);
        assert_eq!(table.line(3).halves, 3);
        assert_eq!(table.line(2).played, 2);
        assert_eq!(table.order[..2], [2, 3]);
        assert_eq!(table.line(2).rank, 1);
        assert_eq!(table.line(3).rank, 1);
    }
}
