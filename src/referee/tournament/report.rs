//! The cross-table written out: as text (for letters and the terminal),
//! as JSON (for scripts), as an HTML table (for the site) and as FIDE's
//! Tournament Report File, TRF-16 (for pairing and rating programs).

use super::table::{Line, Mark, Table};
use super::Tiebreak;
use crate::color::Color;

/// A number of points as tables write them: `3`, `3.5`, `7.25`.
fn points(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `name`, marked when withdrawn.
fn shown(l: &Line) -> String {
    if l.withdrawn {
        format!("{} (withdrawn)", l.name)
    } else {
        l.name.clone()
    }
}

/// The cell of `l` against player `opponent`: one symbol a game, in
/// round order (`1=` in a double round robin); `x` against oneself.
pub fn cell(table: &Table, l: &Line, opponent: usize) -> String {
    if l.seat == opponent {
        return if table.double { "xx" } else { "x" }.to_string();
    }
    l.against(opponent).map(|g| g.mark.symbol()).collect()
}

fn tiebreak_words(t: Tiebreak) -> &'static str {
    match t {
        Tiebreak::SonnebornBerger => "Sonneborn-Berger",
        Tiebreak::Wins => "wins",
        Tiebreak::DirectEncounter => "direct encounter",
        Tiebreak::Koya => "Koya",
    }
}

/// What the tournament is, in one line.
pub fn heading(table: &Table) -> String {
    format!(
        "{}: {}, {} round robin, {} players{}",
        table.name,
        table.title,
        if table.double { "double" } else { "single" },
        table.lines.len(),
        match &table.time_control {
            Some(tc) => format!(", time control {tc}"),
            None => String::new(),
        }
    )
}

/// The cross-table as text: a row a player, best first.
pub fn text(table: &Table) -> String {
    let n = table.lines.len();
    let width = if table.double { 3 } else { 2 };
    let name_width = table
        .lines
        .iter()
        .map(|l| shown(l).chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!("{}\n\n", heading(table));
    let mut head = format!("{:>3}  {:<name_width$} ", "No", "Player");
    for s in 1..=n {
        head.push_str(&format!("{s:>width$}"));
    }
    head.push_str("  Score  Played  Wins     SB  Rank");
    out.push_str(head.trim_end());
    out.push('\n');
    for &s in &table.order {
        let l = table.line(s);
        let mut row = format!("{:>3}  {:<name_width$} ", s, shown(l));
        for o in 1..=n {
            row.push_str(&format!("{:>width$}", cell(table, l, o)));
        }
        row.push_str(&format!(
            "  {:>5}  {:>6}  {:>4}  {:>5}  {:>4}",
            points(l.score()),
            l.played,
            l.wins,
            points(l.sonneborn_berger()),
            l.rank
        ));
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str(&format!(
        "\n1 win, = draw, 0 loss, +/- won/lost by forfeit, blank: going on.\nTies broken by {}.\n",
        if table.tiebreaks.is_empty() {
            "nothing: equal players share a rank".to_string()
        } else {
            table
                .tiebreaks
                .iter()
                .map(|&t| tiebreak_words(t))
                .collect::<Vec<_>>()
                .join(", then ")
        }
    ));
    out
}

/// The cross-table as JSON: the players best first.
pub fn json(table: &Table) -> serde_json::Value {
    let players: Vec<serde_json::Value> = table
        .order
        .iter()
        .map(|&s| {
            let l = table.line(s);
            let games: Vec<serde_json::Value> = l
                .games
                .iter()
                .map(|g| {
                    serde_json::json!({
                        "round": g.round,
                        "game": g.id,
                        "opponent": g.opponent,
                        "color": g.color.name().to_lowercase(),
                        "result": match g.mark {
                            Mark::Going => None,
                            m => Some(m.symbol().to_string()),
                        },
                    })
                })
                .collect();
            serde_json::json!({
                "rank": l.rank,
                "number": l.seat,
                "name": l.name,
                "score": l.score(),
                "sonneborn_berger": l.sonneborn_berger(),
                "wins": l.wins,
                "played": l.played,
                "withdrawn": l.withdrawn,
                "games": games,
            })
        })
        .collect();
    serde_json::json!({
        "name": table.name,
        "variant": table.title,
        "double": table.double,
        "rounds": table.rounds,
        "finished": table.finished(),
        "tiebreaks": table.tiebreaks.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "players": players,
    })
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The cross-table as an HTML `<table>`, each result a link to its game
/// (`link` gives a game's address from its id).
pub fn html(table: &Table, link: impl Fn(&str) -> String) -> String {
    let n = table.lines.len();
    let mut out = String::from("<table class=\"crosstable\">\n<tr><th>No</th><th>Player</th>");
    for s in 1..=n {
        out.push_str(&format!("<th>{s}</th>"));
    }
    out.push_str("<th>Score</th><th>Played</th><th>Wins</th><th>SB</th><th>Rank</th></tr>\n");
    for &s in &table.order {
        let l = table.line(s);
        out.push_str(&format!("<tr><td>{s}</td><td>{}</td>", escape(&shown(l))));
        for o in 1..=n {
            if o == s {
                out.push_str("<td>x</td>");
                continue;
            }
            out.push_str("<td>");
            for g in l.against(o) {
                let sym = match g.mark.symbol() {
                    ' ' => "&middot;".to_string(),
                    c => c.to_string(),
                };
                out.push_str(&format!(
                    "<a href=\"{}\" title=\"round {}, {}\">{sym}</a>",
                    escape(&link(&g.id)),
                    g.round,
                    g.color.name().to_lowercase()
                ));
            }
            out.push_str("</td>");
        }
        out.push_str(&format!(
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            points(l.score()),
            l.played,
            l.wins,
            points(l.sonneborn_berger()),
            l.rank
        ));
    }
    out.push_str("</table>\n");
    out
}

/// Puts `text` into `line` at the columns `from..=to` (1-based, as the
/// TRF specification counts them), right-aligned or left.
fn place(line: &mut Vec<char>, from: usize, to: usize, text: &str, right: bool) {
    let width = to + 1 - from;
    let chars: Vec<char> = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(width)
        .collect();
    if line.len() < to {
        line.resize(to, ' ');
    }
    let start = if right {
        from - 1 + width - chars.len()
    } else {
        from - 1
    };
    for (i, c) in chars.into_iter().enumerate() {
        line[start + i] = c;
    }
}

/// The cross-table as FIDE's Tournament Report File, TRF-16 (FIDE
/// Handbook C.04, Annex 2, "Agreed general Data-Exchange Format"): the
/// tournament lines `012` (name), `042` (start), `062` (players), `092`
/// (type), `122` (time control), then one `001` line a player, in
/// seeding order, whose columns are, counted from 1: 1-3 `001`, 5-8 the
/// starting rank, 15-47 the name, 81-84 the points (`11.5`), 86-89 the
/// rank, and from 92 ten columns a round: 92-95 the opponent's starting
/// rank (`0000` for none), 97 the colour (`w`, `b`, `-`), 99 the result
/// (`1`, `=`, `0`, `+`, `-`; blank while the game goes on; `Z`, a
/// zero-point bye, for a round the player sits out in an odd round
/// robin). Every line ends with CR LF (Remark 1: "a CR as last
/// character").
pub fn trf(table: &Table) -> String {
    let mut out = String::new();
    let mut tline = |code: &str, text: &str| {
        out.push_str(&format!("{code} {}\r\n", text.replace(['\r', '\n'], " ")));
    };
    tline("012", &table.name);
    tline("042", &table.start.format("%Y/%m/%d").to_string());
    tline("062", &table.lines.len().to_string());
    tline(
        "092",
        if table.double {
            "Individual: Double Round-Robin"
        } else {
            "Individual: Round-Robin"
        },
    );
    if let Some(tc) = &table.time_control {
        tline("122", tc);
    }
    for l in &table.lines {
        let mut line: Vec<char> = Vec::new();
        place(&mut line, 1, 3, "001", false);
        place(&mut line, 5, 8, &l.seat.to_string(), true);
        place(&mut line, 15, 47, &l.name, false);
        place(&mut line, 81, 84, &format!("{:.1}", l.score()), true);
        place(&mut line, 86, 89, &l.rank.to_string(), true);
        for round in 1..=table.rounds {
            let base = 92 + (round as usize - 1) * 10;
            let (opp, colour, result) = match l.games.iter().find(|g| g.round == round) {
                Some(g) => (
                    format!("{:>4}", g.opponent),
                    if g.color == Color::White { 'w' } else { 'b' },
                    match g.mark {
                        Mark::Going | Mark::Void => ' ',
                        m => m.symbol(),
                    },
                ),
                None => ("0000".to_string(), '-', 'Z'),
            };
            place(&mut line, base, base + 3, &opp, true);
            place(&mut line, base + 5, base + 5, &colour.to_string(), false);
            place(&mut line, base + 7, base + 7, &result.to_string(), false);
        }
        // Not trimmed: a blank result (a game going on) is a column too.
        out.extend(line);
        out.push_str("\r\n");
    }
    out
}
