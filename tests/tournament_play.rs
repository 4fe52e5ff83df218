//! A six-player tournament played to its end through the referee by mail
//! (issue 44): replies delivered by `postal receive --referee` as a mail
//! server delivers them, a mate, two draws by offer and acceptance,
//! resignations, a time forfeit recorded by `referee sweep` at a later
//! "now", and a withdrawal whose games are lost by forfeit. The
//! cross-table is checked against a count made by hand, and its TRF-16
//! read back column by column.

use crate::common::{names, postal_at, stdout, Mail, NOW};
use crate::tournament::{folder, games, new_tournament, SIX};
use std::path::PathBuf;

/// The players by number (the seeding of the file).
const NAMES: [&str; 6] = ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"];

fn addr(name: &str) -> String {
    format!("{}@example.org", name.to_lowercase())
}

/// The referee folder of the tournament, and a count of the replies sent.
struct Play {
    r: PathBuf,
    sent: std::cell::Cell<usize>,
}

impl Play {
    /// Every letter in the outbox, oldest first.
    fn letters(&self) -> Vec<(String, Mail)> {
        let dir = self.r.join("outbox/new");
        let mut files: Vec<(std::time::SystemTime, String)> = names(&dir)
            .into_iter()
            .map(|n| (dir.join(&n).metadata().unwrap().modified().unwrap(), n))
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|(_, n)| {
                let raw = std::fs::read(dir.join(&n)).unwrap();
                (n, Mail { raw })
            })
            .collect()
    }

    /// The latest letter of game `gid` to `name`.
    fn latest(&self, gid: &str, name: &str) -> Mail {
        self.letters()
            .into_iter()
            .rev()
            .map(|(_, m)| m)
            .find(|m| m.to() == addr(name) && m.header("X-Postal-Referee").as_deref() == Some(gid))
            .unwrap_or_else(|| panic!("no letter of {gid} to {name}"))
    }

    /// `name` answers their latest letter of game `gid` with `command`,
    /// at `now`; the referee's account of it.
    fn reply_at(&self, gid: &str, name: &str, command: &str, now: &str) -> String {
        let notice = self.latest(gid, name);
        let n = self.sent.get() + 1;
        self.sent.set(n);
        let quoted: String = notice
            .text()
            .lines()
            .map(|l| format!("> {l}\r\n"))
            .collect();
        let raw = format!(
            "From: {name} <{}>\r\nTo: {}\r\nSubject: Re: game\r\nMessage-ID: <play{n}@client.example>\r\n\
             In-Reply-To: <{}>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n\r\nOn Tue, 1 Dec 2026, Postal wrote:\r\n{quoted}",
            addr(name),
            notice.reply_to(),
            notice.id(),
            command.replace('\n', "\r\n"),
        );
        stdout(
            postal_at(now)
                .args(["receive", "--referee"])
                .arg(&self.r)
                .write_stdin(raw.into_bytes()),
        )
    }

    fn reply(&self, gid: &str, name: &str, command: &str) -> String {
        self.reply_at(gid, name, command, "2026-12-01T12:00:00Z")
    }

    fn table(&self, format: &str) -> String {
        stdout(
            postal_at("2026-12-06T09:00:00Z")
                .args(["referee", "tournament", "table"])
                .arg(&self.r)
                .args(["club", "--format", format]),
        )
    }
}

/// The id of the game `white` v `black`.
fn game(all: &[serde_json::Value], white: &str, black: &str) -> String {
    all.iter()
        .find(|g| g["white"] == white && g["black"] == black)
        .unwrap_or_else(|| panic!("no game {white} v {black}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The hand count: each player's games, result by result (`+`/`-` the
/// forfeits of Cid's withdrawal), and the totals.
///
/// | game (white-black) | how it ends              | result |
/// | Ana-Fay            | 2... Qh4# by mail        | 0-1    |
/// | Ben-Eve            | draw offered, accepted   | =      |
/// | Cid-Dan            | Cid withdraws            | -/+    |
/// | Fay-Dan            | Fay resigns              | 0-1    |
/// | Eve-Cid            | Cid withdraws            | +/-    |
/// | Ana-Ben            | Ana resigns              | 0-1    |
/// | Ben-Fay            | Ben resigns              | 0-1    |
/// | Cid-Ana            | Cid resigns (before)     | 0-1    |
/// | Dan-Eve            | Dan's time runs out      | 0-1    |
/// | Fay-Eve            | Eve resigns              | 1-0    |
/// | Ana-Dan            | Dan resigns              | 1-0    |
/// | Ben-Cid            | Cid withdraws            | +/-    |
/// | Cid-Fay            | Cid withdraws            | -/+    |
/// | Dan-Ben            | Ben resigns              | 1-0    |
/// | Eve-Ana            | draw offered, accepted   | =      |
///
/// Scores: Ana 2.5, Ben 2.5, Cid 0, Dan 3, Eve 3, Fay 4 (15 in all).
/// Sonneborn-Berger (the final scores of those beaten, half of those
/// drawn with): Fay 2.5+2.5+3+0 = 8; Dan 0+4+2.5 = 6.5; Eve 1.25+0+3
/// +1.25 = 5.5; Ana 0+3+1.5 = 4.5; Ben 1.5+2.5+0 = 4; Cid 0. So Dan is
/// above Eve and Ana above Ben on Sonneborn-Berger, though Eve beat Dan
/// (on time) and Ben beat Ana: the direct encounter, put first, turns
/// both pairs round.
const HAND_COUNT: [(&str, f64, f64, usize, usize); 6] = [
    // name, score, Sonneborn-Berger, wins, rank
    ("Fay", 4.0, 8.0, 4, 1),
    ("Dan", 3.0, 6.5, 3, 2),
    ("Eve", 3.0, 5.5, 2, 3),
    ("Ana", 2.5, 4.5, 2, 4),
    ("Ben", 2.5, 4.0, 2, 5),
    ("Cid", 0.0, 0.0, 0, 6),
];

#[test]
fn a_six_player_tournament_played_to_its_end_by_mail() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess", "--time-control", "3d"],
    ));
    let play = Play {
        r: r.clone(),
        sent: std::cell::Cell::new(0),
    };
    let all = games(&r);
    let g = |w: &str, b: &str| game(&all, w, b);

    // A mate, move by move.
    let ana_fay = g("Ana", "Fay");
    for (who, mv) in [
        ("Ana", "f3"),
        ("Fay", "1... e5"),
        ("Ana", "g4"),
        ("Fay", "2... Qh4#"),
    ] {
        let out = play.reply(&ana_fay, who, mv);
        assert!(out.contains("applied"), "{out}");
    }
    // Both players' last letters hold the standing; every other player
    // is sent the cross-table (standings = "on-result").
    for who in ["Ana", "Fay"] {
        let text = play.latest(&ana_fay, who).text();
        assert!(text.contains("The tournament club now:"), "{text}");
        assert!(text.contains("Score  Played  Wins"), "{text}");
    }
    let to_ben: Vec<Mail> = play
        .letters()
        .into_iter()
        .map(|(_, m)| m)
        .filter(|m| m.to() == addr("Ben") && m.msg().subject().unwrap().contains("Ana v Fay, 0-1"))
        .collect();
    assert_eq!(to_ben.len(), 1, "Ben is told of the result once");
    assert!(to_ben[0].text().contains("The tournament club now:"));

    // Two draws by offer and acceptance.
    for (w, b) in [("Ben", "Eve"), ("Eve", "Ana")] {
        let id = g(w, b);
        play.reply(&id, w, "e4\ndraw offer");
        let out = play.reply(&id, b, "draw accept");
        assert!(out.contains("applied"), "{out}");
    }
    // Resignations, each by its player's own reply.
    for (w, b, who) in [
        ("Fay", "Dan", "Fay"),
        ("Ana", "Ben", "Ana"),
        ("Ben", "Fay", "Ben"),
        ("Cid", "Ana", "Cid"),
        ("Fay", "Eve", "Eve"),
        ("Ana", "Dan", "Dan"),
        ("Dan", "Ben", "Ben"),
    ] {
        let out = play.reply(&g(w, b), who, "resign");
        assert!(out.contains("applied"), "{w} v {b}: {out}");
    }
    // Cid withdraws: his four unfinished games are lost by forfeit, his
    // opponents told in each game's thread.
    let out = stdout(
        postal_at("2026-12-02T09:00:00Z")
            .args(["referee", "tournament", "withdraw"])
            .arg(&r)
            .args(["club", "cid@example.org"]),
    );
    assert!(
        out.contains("Cid withdrawn from club: 4 games lost by forfeit"),
        "{out}"
    );
    for (w, b, opp) in [
        ("Cid", "Dan", "Dan"),
        ("Eve", "Cid", "Eve"),
        ("Ben", "Cid", "Ben"),
        ("Cid", "Fay", "Fay"),
    ] {
        let text = play.latest(&g(w, b), opp).text();
        assert!(
            text.contains("Cid withdrew from the tournament club"),
            "{text}"
        );
    }
    for who in ["Ana", "Ben", "Dan", "Eve", "Fay"] {
        let told = play
            .letters()
            .into_iter()
            .filter(|(n, m)| n.starts_with("tournament-club-withdraw-") && m.to() == addr(who))
            .count();
        assert_eq!(told, 1, "{who} is told of the withdrawal once");
    }
    // Dan never moves against Eve: the sweep after his deadline (3 days
    // from the start) records the time forfeit.
    let dan_eve = g("Dan", "Eve");
    let out = stdout(
        postal_at("2026-12-05T09:00:00Z")
            .args(["referee", "sweep"])
            .arg(&r),
    );
    assert!(
        out.contains(&format!("1 time forfeit ({dan_eve})")),
        "{out}"
    );
    let text = play.latest(&dan_eve, "Eve").text();
    assert!(text.contains("The tournament club now:"), "{text}");

    // Every game is over.
    let all = games(&r);
    assert!(all.iter().all(|g| !g["result"].is_null()), "{all:?}");
    assert!(all.iter().all(|g| g["tournament"] == "club"));

    // The table against the hand count.
    let json: serde_json::Value = serde_json::from_str(&play.table("json")).unwrap();
    assert_eq!(json["name"], "club");
    assert_eq!(json["finished"], true);
    let rows = json["players"].as_array().unwrap();
    let got: Vec<(String, f64, f64, usize, usize)> = rows
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["score"].as_f64().unwrap(),
                p["sonneborn_berger"].as_f64().unwrap(),
                p["wins"].as_u64().unwrap() as usize,
                p["rank"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let want: Vec<(String, f64, f64, usize, usize)> = HAND_COUNT
        .iter()
        .map(|&(n, s, sb, w, r)| (n.to_string(), s, sb, w, r))
        .collect();
    assert_eq!(got, want);
    for p in rows {
        assert_eq!(p["played"], 5, "{p}");
        assert_eq!(p["withdrawn"], p["name"] == "Cid", "{p}");
    }
    let text = play.table("text");
    let expected = "\
club: FIDE chess, single round robin, 6 players, time control 3d

 No  Player           1 2 3 4 5 6  Score  Played  Wins     SB  Rank
  6  Fay              1 1 + 0 1 x      4       5     4      8     1
  4  Dan              0 1 + x 0 1      3       5     3    6.5     2
  5  Eve              = = + 1 x 0      3       5     2    5.5     3
  1  Ana              x 0 1 1 = 0    2.5       5     2    4.5     4
  2  Ben              1 x + 0 = 0    2.5       5     2      4     5
  3  Cid (withdrawn)  0 - x - - -      0       5     0      0     6

1 win, = draw, 0 loss, +/- won/lost by forfeit, blank: going on.
Ties broken by Sonneborn-Berger, then wins, then direct encounter.
";
    assert_eq!(text, expected, "\n{text}");

    // The direct encounter first: Eve beat Dan, Ben beat Ana.
    let settings = r.join("tournaments/club/settings.toml");
    let s = std::fs::read_to_string(&settings).unwrap();
    let s = s.replace(
        "tiebreaks = [\"sonneborn-berger\", \"wins\", \"direct-encounter\"]",
        "tiebreaks = [\"direct-encounter\", \"sonneborn-berger\"]",
    );
    std::fs::write(&settings, &s).unwrap();
    let json: serde_json::Value = serde_json::from_str(&play.table("json")).unwrap();
    let order: Vec<&str> = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["Fay", "Eve", "Dan", "Ben", "Ana", "Cid"]);
    // A name FIDE's list has and this table does not is refused.
    std::fs::write(
        &settings,
        s.replace("\"direct-encounter\", ", "\"buchholz\", "),
    )
    .unwrap();
    let out = postal_at(NOW)
        .args(["referee", "tournament", "table"])
        .arg(&r)
        .arg("club")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains(
            "unknown tie-break \"buchholz\"; known: sonneborn-berger, wins, direct-encounter, koya"
        ),
        "{e}"
    );
    std::fs::write(&settings, s.replace("\"direct-encounter\", ", "")).unwrap();

    let trf = play.table("trf");
    check_trf(&trf, &all);
    read_by_another_program(&trf);
}

/// The TRF read by the `trf` package of PyPI (a reader of FIDE's format,
/// installed by tests/run.sh): the same names, points, ranks and, round
/// by round, opponents, colours and results as the columns say.
fn read_by_another_program(trf: &str) {
    let script = "import json, sys, trf\n\
t = trf.loads(sys.stdin.read())\n\
print(json.dumps({'name': t.name, 'players': [{'startrank': p.startrank, 'name': p.name, \
'points': p.points, 'rank': p.rank, 'games': [[g.startrank, g.color, g.result] for g in p.games]} \
for p in t.players]}))\n";
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(trf.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the trf package (PyPI; `bash tests/run.sh` installs it) did not read the TRF: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["name"], "club");
    let players = read["players"].as_array().unwrap();
    assert_eq!(players.len(), 6);
    for p in players {
        let name = p["name"].as_str().unwrap();
        let hand = HAND_COUNT.iter().find(|h| h.0 == name).unwrap();
        assert_eq!(p["points"].as_f64().unwrap(), hand.1, "{name}");
        assert_eq!(p["rank"].as_u64().unwrap() as usize, hand.4, "{name}");
        let games = p["games"].as_array().unwrap();
        assert_eq!(games.len(), 5, "{name}");
        let points: f64 = games
            .iter()
            .map(|g| match g[2].as_str().unwrap() {
                "1" | "+" => 1.0,
                "=" => 0.5,
                _ => 0.0,
            })
            .sum();
        assert_eq!(points, hand.1, "{name}: the results add up to the points");
    }
}

/// Reads the TRF-16 back by its columns (FIDE C.04 Annex 2): `012` the
/// name, and each `001` line's starting rank (5-8), name (15-47), points
/// (81-84), rank (86-89), and each round's opponent (92-95 + 10 a
/// round), colour (97) and result (99), against the games as the
/// referee lists them.
fn check_trf(trf: &str, all: &[serde_json::Value]) {
    let lines: Vec<&str> = trf.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert!(trf.ends_with("\r\n"));
    assert_eq!(lines[0], "012 club");
    let col = |line: &str, from: usize, to: usize| -> String {
        line.chars()
            .chain(std::iter::repeat(' '))
            .skip(from - 1)
            .take(to + 1 - from)
            .collect()
    };
    let players: Vec<&&str> = lines.iter().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 6);
    let seat = |name: &str| NAMES.iter().position(|n| *n == name).unwrap() + 1;
    for (i, line) in players.iter().enumerate() {
        let n = i + 1;
        let name = NAMES[i];
        assert_eq!(col(line, 1, 4), "001 ");
        assert_eq!(col(line, 5, 8), format!("{n:>4}"));
        assert_eq!(col(line, 15, 47).trim_end(), name);
        let hand = HAND_COUNT.iter().find(|h| h.0 == name).unwrap();
        assert_eq!(col(line, 81, 84), format!("{:>4.1}", hand.1), "{line}");
        assert_eq!(col(line, 86, 89), format!("{:>4}", hand.4), "{line}");
        for round in 1..=5u64 {
            let base = 92 + (round as usize - 1) * 10;
            let g = all
                .iter()
                .find(|g| g["round"] == round && (g["white"] == name || g["black"] == name))
                .unwrap();
            let white = g["white"] == name;
            let opp = if white { &g["black"] } else { &g["white"] };
            assert_eq!(
                col(line, base, base + 3),
                format!("{:>4}", seat(opp.as_str().unwrap()))
            );
            assert_eq!(col(line, base + 5, base + 5), if white { "w" } else { "b" });
            let result = g["result"].as_str().unwrap();
            let points = match (result.split(',').next().unwrap(), white) {
                ("1/2-1/2", _) => "=",
                ("1-0", true) | ("0-1", false) => "1",
                _ => "0",
            };
            let forfeit = name == "Cid" || opp == "Cid";
            let cid_resigned = (name == "Cid" && opp == "Ana") || (name == "Ana" && opp == "Cid");
            let expected = match (forfeit && !cid_resigned, points) {
                (true, "1") => "+",
                (true, _) => "-",
                (false, p) => p,
            };
            assert_eq!(
                col(line, base + 7, base + 7),
                expected,
                "{name}, round {round}: {line}"
            );
        }
    }
}
