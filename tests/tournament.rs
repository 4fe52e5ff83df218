//! Tournaments by mail (issue 44), made from the shell: the Berger
//! pairings in the games the referee starts, the one welcome letter a
//! player with their games and nobody else's tokens, bad players files
//! refused with a caret and nothing made, a failure part-way that leaves
//! no game behind, the cross-table's forms. A tournament played to its
//! end by mail is in tests/tournament_play.rs.

use crate::common::{names, postal_at, stdout, Mail, NOW};
use std::path::{Path, PathBuf};

/// Six players, seeded in this order (Ana is 1, Fay 6).
pub const SIX: &str = "# The club's championship\n\
Ana <ana@example.org>\n\
Ben <ben@example.org>\n\
Cid <cid@example.org>   # seeded third\n\
\n\
Dan <dan@example.org>\n\
Eve <eve@example.org>\n\
Fay <fay@example.org>\n";

/// A referee folder (its letters to its outbox) and a players file.
pub fn folder(tmp: &Path, players: &str) -> (PathBuf, PathBuf) {
    let r = tmp.join("ref");
    stdout(
        postal_at(NOW)
            .args(["referee", "init"])
            .arg(&r)
            .args(["--address", "Postal <postal@example.org>"]),
    );
    let file = tmp.join("players.txt");
    std::fs::write(&file, players).unwrap();
    (r, file)
}

/// `postal referee tournament new R NAME --players FILE ARGS...`.
pub fn new_tournament(r: &Path, name: &str, file: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut c = postal_at(NOW);
    c.args(["referee", "tournament", "new"])
        .arg(r)
        .arg(name)
        .arg("--players")
        .arg(file)
        .args(args);
    c
}

/// The letters in the outbox, by name.
pub fn outbox(r: &Path) -> Vec<(String, Mail)> {
    let dir = r.join("outbox/new");
    names(&dir)
        .into_iter()
        .map(|n| {
            let raw = std::fs::read(dir.join(&n)).unwrap();
            (n, Mail { raw })
        })
        .collect()
}

/// `referee games --json`.
pub fn games(r: &Path) -> Vec<serde_json::Value> {
    let out = stdout(postal_at(NOW).args(["referee", "games", "--json"]).arg(r));
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_six_player_round_robin_starts_every_game_by_the_berger_table() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    let out = stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess", "--time-control", "3d"],
    ));
    assert!(out.contains("6 players, 15 games in 5 rounds"), "{out}");
    assert!(out.contains("sent 36 letters"), "{out}");
    let games = games(&r);
    assert_eq!(games.len(), 15);
    // FIDE C.05 Annex 1, 5 or 6 players, by the seeding of the file.
    let published = [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ];
    let seat = |name: &str| {
        ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"]
            .iter()
            .position(|n| *n == name)
            .unwrap()
            + 1
    };
    for (round, pairs) in published.iter().enumerate() {
        let mut made: Vec<String> = games
            .iter()
            .filter(|g| g["round"] == round as u64 + 1)
            .map(|g| {
                assert_eq!(g["tournament"], "club");
                assert_eq!(g["variant"], "chess");
                format!(
                    "{}-{}",
                    seat(g["white"].as_str().unwrap()),
                    seat(g["black"].as_str().unwrap())
                )
            })
            .collect();
        made.sort();
        let mut want: Vec<String> = pairs.split(' ').map(str::to_string).collect();
        want.sort();
        assert_eq!(made, want, "round {}", round + 1);
    }
    // Every game is an ordinary referee game: its own first letters.
    let letters = outbox(&r);
    assert_eq!(letters.len(), 36);
    for g in &games {
        let id = g["id"].as_str().unwrap();
        for side in ["w", "b"] {
            assert!(
                letters
                    .iter()
                    .any(|(n, _)| n == &format!("{id}-new-{side}.eml")),
                "{id}: no first letter to {side}"
            );
        }
    }
}

#[test]
fn each_player_gets_one_letter_with_all_their_games_and_no_other_players_token() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess"],
    ));
    let letters = outbox(&r);
    let games = games(&r);
    for (i, who) in ["ana", "ben", "cid", "dan", "eve", "fay"]
        .iter()
        .enumerate()
    {
        let addr = format!("{who}@example.org");
        let welcome: Vec<&Mail> = letters
            .iter()
            .filter(|(n, _)| n.starts_with("tournament-club-welcome-"))
            .map(|(_, m)| m)
            .filter(|m| m.to() == addr)
            .collect();
        assert_eq!(welcome.len(), 1, "{who}: one welcome letter");
        let w = welcome[0];
        assert!(!w.msg().subject().unwrap().starts_with("Re:"));
        let text = w.text();
        assert!(
            text.contains(&format!("You are player {}", i + 1)),
            "{text}"
        );
        // Each of the player's games: round, colour, opponent, the reply
        // address of that player's own first letter.
        let mine: Vec<&serde_json::Value> = games
            .iter()
            .filter(|g| {
                g["white"].as_str().unwrap().to_lowercase() == *who
                    || g["black"].as_str().unwrap().to_lowercase() == *who
            })
            .collect();
        assert_eq!(mine.len(), 5);
        for g in mine {
            let id = g["id"].as_str().unwrap();
            let white = g["white"].as_str().unwrap().to_lowercase() == *who;
            let first = &letters
                .iter()
                .find(|(n, _)| n == &format!("{id}-new-{}.eml", if white { "w" } else { "b" }))
                .unwrap()
                .1;
            assert_eq!(first.to(), addr);
            let opp = if white { &g["black"] } else { &g["white"] };
            let line = format!(
                "Round {}: {} against {} <{}@example.org>",
                g["round"],
                if white { "White" } else { "Black" },
                opp.as_str().unwrap(),
                opp.as_str().unwrap().to_lowercase()
            );
            assert!(text.contains(&line), "{line} not in\n{text}");
            assert!(text.contains(&first.reply_to()), "{who}'s address for {id}");
        }
        // No reply address (a token) of a letter to anyone else.
        let all = String::from_utf8_lossy(&w.every_byte()).into_owned();
        for (n, m) in &letters {
            if m.to() != addr && m.header("Reply-To").is_some() {
                let token = m.reply_to();
                let token = token.split('@').next().unwrap();
                assert!(
                    !all.contains(token),
                    "{who}'s welcome holds the token of {n}"
                );
            }
        }
    }
}

/// Runs `c`, which must fail with exit 2, and checks that the folder is
/// as it was: no game, no tournament, no letter.
fn refused_and_nothing_made(c: &mut assert_cmd::Command, r: &Path) -> String {
    let before_games = names(&r.join("games"));
    let before_out = names(&r.join("outbox/new"));
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names(&r.join("games")), before_games);
    assert_eq!(names(&r.join("outbox/new")), before_out);
    assert!(names(&r.join("spool/prepared")).is_empty());
    assert!(names(&r.join("spool"))
        .iter()
        .all(|n| n == "prepared" || n == "flight"));
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn bad_input_is_refused_with_its_line_and_a_caret_and_nothing_is_made() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    let shown = file.display().to_string();
    // A player twice (the address in other case).
    std::fs::write(&file, format!("{SIX}Anna <ANA@example.org>\n")).unwrap();
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "club", &file, &["--variant", "chess"]),
        &r,
    );
    assert!(
        e.contains(&format!("{shown}:9:1: Ana is already a player, on line 2")),
        "{e}"
    );
    assert!(e.contains("9 | Anna <ANA@example.org>"), "{e}");
    assert!(e.contains("  | ^^^^^^^^^^^^^^^^^^^^^^"), "{e}");
    // An address missing.
    std::fs::write(
        &file,
        "Ana <ana@example.org>\n  Ben\nCid <cid@example.org>\n",
    )
    .unwrap();
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "club", &file, &["--variant", "chess"]),
        &r,
    );
    assert!(
        e.contains(&format!("{shown}:2:3: a player is \"Name <address>\"")),
        "{e}"
    );
    assert!(e.contains("^^^"), "{e}");
    // Fewer than three players.
    std::fs::write(&file, "Ana <ana@example.org>\nBen <ben@example.org>\n").unwrap();
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "club", &file, &["--variant", "chess"]),
        &r,
    );
    assert!(
        e.contains("2 players in the file; a tournament needs at least 3"),
        "{e}"
    );
    // An unknown variant.
    std::fs::write(&file, SIX).unwrap();
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "club", &file, &["--variant", "chesss"]),
        &r,
    );
    assert!(e.contains("unknown variant \"chesss\""), "{e}");
    // A name already used: the first tournament stays as it was.
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess"],
    ));
    let record = std::fs::read(r.join("tournaments/club/tournament.json")).unwrap();
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "club", &file, &["--variant", "swap"]),
        &r,
    );
    assert!(e.contains("the tournament club is already in"), "{e}");
    assert_eq!(
        std::fs::read(r.join("tournaments/club/tournament.json")).unwrap(),
        record
    );
    // A name that cannot name a folder.
    let e = refused_and_nothing_made(
        &mut new_tournament(&r, "../x", &file, &["--variant", "chess"]),
        &r,
    );
    assert!(e.contains("cannot name a tournament"), "{e}");
}

#[test]
fn a_failure_part_way_removes_every_game_and_letter_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    // The third player's welcome letter cannot be written (a folder
    // stands where it goes): the games were written before it.
    let planted = r.join("spool/prepared/tournament-club-welcome-3.eml");
    std::fs::create_dir(&planted).unwrap();
    let out = new_tournament(&r, "club", &file, &["--variant", "chess"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        names(&r.join("games")).is_empty(),
        "{:?}",
        names(&r.join("games"))
    );
    assert!(!r.join("tournaments/club").exists());
    assert_eq!(
        names(&r.join("spool/prepared")),
        ["tournament-club-welcome-3.eml".to_string()].into()
    );
    assert!(names(&r.join("outbox/new")).is_empty());
    // Once the fault is gone, the same command makes the tournament.
    std::fs::remove_dir(&planted).unwrap();
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess"],
    ));
    assert_eq!(games(&r).len(), 15);
}

#[test]
fn a_defined_variant_and_an_odd_number_with_a_bye_double_round_robin() {
    let tmp = tempfile::tempdir().unwrap();
    let five: String = SIX
        .lines()
        .filter(|l| !l.starts_with("Fay"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (r, file) = folder(tmp.path(), &five);
    std::fs::write(
        r.join("club.ini"),
        "# Capablanca chess on ten files.\n[capa:chess]\nmaxFile = 10\ncastlingKingsideFile = i\n\
         castlingQueensideFile = c\narchbishop = a\nchancellor = c\n\
         startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n\
         promotionPieceTypes = acqrbn\n",
    )
    .unwrap();
    let toml = r.join("referee.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("variants = \"club.ini\"\n{settings}")).unwrap();
    let out = stdout(&mut new_tournament(
        &r,
        "minis",
        &file,
        &["--variant", "capa", "--double"],
    ));
    assert!(out.contains("5 players, 20 games in 10 rounds"), "{out}");
    let games = games(&r);
    assert_eq!(games.len(), 20);
    assert!(games.iter().all(|g| g["variant"] == "capa"));
    // Each pair twice, colours reversed.
    for g in &games {
        let back = games
            .iter()
            .filter(|h| h["white"] == g["black"] && h["black"] == g["white"])
            .count();
        assert_eq!(back, 1, "{g}");
    }
    // Each player sits out one round of each cycle (the bye).
    let letters = outbox(&r);
    let (_, ana) = letters
        .iter()
        .find(|(n, _)| n == "tournament-minis-welcome-1.eml")
        .unwrap();
    assert!(
        ana.text()
            .contains("You have a bye (no game) in round 1, 6."),
        "{}",
        ana.text()
    );
}

/// `postal referee adjudicate R GID RESULT` at `now`.
fn adjudicate(r: &Path, gid: &str, result: &str, now: &str) -> String {
    stdout(postal_at(now).args(["referee", "adjudicate"]).arg(r).args([
        gid,
        result,
        "--reason",
        "agreed by the players",
    ]))
}

#[test]
fn the_site_has_a_page_per_tournament_linked_from_its_games_and_players() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess"],
    ));
    let all = games(&r);
    let first = all.iter().find(|g| g["round"] == 1).unwrap();
    let gid = first["id"].as_str().unwrap();
    adjudicate(&r, gid, "1-0", NOW);
    let www = tmp.path().join("www");
    stdout(
        postal_at(NOW)
            .args(["referee", "site"])
            .arg(&r)
            .arg("-o")
            .arg(&www),
    );
    let page = std::fs::read_to_string(www.join("tournaments/club.html")).unwrap();
    assert!(page.contains("<table class=\"crosstable\">"), "{page}");
    for g in &all {
        let id = g["id"].as_str().unwrap();
        assert!(
            page.contains(&format!("href=\"../games/{id}.html\"")),
            "{id} not linked"
        );
    }
    assert!(!page.contains('@'), "no address on the page");
    let white = first["white"].as_str().unwrap();
    assert!(page.contains(&format!("{white}</td>")), "{page}");
    let game_page = std::fs::read_to_string(www.join(format!("games/{gid}.html"))).unwrap();
    assert!(
        game_page.contains("<a href=\"../tournaments/club.html\">Tournament club, round 1</a>"),
        "the game names its tournament"
    );
    let player = std::fs::read_to_string(www.join("players/ana.html")).unwrap();
    assert!(
        player.contains("href=\"../tournaments/club.html\""),
        "{player}"
    );
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(index.contains("href=\"tournaments/club.html\""), "{index}");
}

#[test]
fn standings_go_to_every_player_on_a_result_weekly_or_never() {
    for (setting, others_at_result) in [("on-result", 4), ("weekly", 0), ("never", 0)] {
        let tmp = tempfile::tempdir().unwrap();
        let (r, file) = folder(tmp.path(), SIX);
        stdout(&mut new_tournament(
            &r,
            "club",
            &file,
            &["--variant", "chess"],
        ));
        let settings = r.join("tournaments/club/settings.toml");
        let text = std::fs::read_to_string(&settings).unwrap();
        assert!(text.contains("standings = \"on-result\""));
        std::fs::write(
            &settings,
            text.replace("\"on-result\"", &format!("\"{setting}\"")),
        )
        .unwrap();
        let before = names(&r.join("outbox/new"));
        let all = games(&r);
        let gid = all[0]["id"].as_str().unwrap();
        adjudicate(&r, gid, "0-1", NOW);
        let new: Vec<(String, Mail)> = outbox(&r)
            .into_iter()
            .filter(|(n, _)| !before.contains(n))
            .collect();
        // The game's two players: the standing in their letters.
        let game_letters: Vec<&Mail> = new
            .iter()
            .filter(|(_, m)| m.header("X-Postal-Referee").as_deref() == Some(gid))
            .map(|(_, m)| m)
            .collect();
        assert_eq!(game_letters.len(), 2, "{setting}");
        for m in game_letters {
            assert!(m.text().contains("The tournament club now:"), "{setting}");
        }
        assert_eq!(new.len() - 2, others_at_result, "{setting}");
        // The sweep: the weekly standing, once a week.
        let sweep = |now: &str| {
            let before = names(&r.join("outbox/new"));
            stdout(postal_at(now).args(["referee", "sweep"]).arg(&r));
            names(&r.join("outbox/new"))
                .into_iter()
                .filter(|n| !before.contains(n) && n.contains("-week-"))
                .count()
        };
        let weekly = if setting == "weekly" { 6 } else { 0 };
        assert_eq!(sweep("2026-12-01T10:00:00Z"), weekly, "{setting}");
        assert_eq!(sweep("2026-12-01T11:00:00Z"), 0, "{setting}: once a week");
        assert_eq!(
            sweep("2026-12-08T10:00:00Z"),
            weekly,
            "{setting}: the next week"
        );
    }
}

#[test]
fn completions_offer_the_tournament_commands() {
    let bash = stdout(postal_at(NOW).args(["completions", "bash"]));
    for word in ["tournament", "withdraw", "--players", "--double", "trf"] {
        assert!(bash.contains(word), "{word} not completed");
    }
}

#[test]
fn the_clocks_start_on_the_start_day_and_a_past_day_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    let e = refused_and_nothing_made(
        &mut new_tournament(
            &r,
            "club",
            &file,
            &["--variant", "chess", "--start", "2026-11-30"],
        ),
        &r,
    );
    assert!(e.contains("--start 2026-11-30: the day has passed"), "{e}");
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &[
            "--variant",
            "chess",
            "--time-control",
            "3d",
            "--start",
            "2026-12-10",
        ],
    ));
    for g in games(&r) {
        assert_eq!(g["deadline"], "2026-12-13T00:00:00Z", "{g}");
    }
    let (_, ana) = outbox(&r)
        .into_iter()
        .find(|(n, _)| n == "tournament-club-welcome-1.eml")
        .unwrap();
    assert!(
        ana.text()
            .contains("(the clocks start at 2026-12-10T00:00:00Z)"),
        "{}",
        ana.text()
    );
}

#[test]
fn a_tournament_file_edited_wrong_is_refused_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, file) = folder(tmp.path(), SIX);
    stdout(&mut new_tournament(
        &r,
        "club",
        &file,
        &["--variant", "chess"],
    ));
    let path = r.join("tournaments/club/tournament.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replacen("\"white\": 1,", "\"white\": 99,", 1);
    assert_ne!(broken, text);
    std::fs::write(&path, &broken).unwrap();
    for format in ["text", "trf"] {
        let out = postal_at(NOW)
            .args(["referee", "tournament", "table"])
            .arg(&r)
            .args(["club", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(e.contains("is between players 99 and 6, of 1 to 6"), "{e}");
    }
    // A game of it still plays and ends: its letters go without the table.
    let gid = games(&r)[0]["id"].as_str().unwrap().to_string();
    stdout(
        postal_at(NOW)
            .args(["referee", "adjudicate"])
            .arg(&r)
            .args([&gid, "1-0", "--reason", "test"]),
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        broken,
        "the file is left as it was"
    );
}
