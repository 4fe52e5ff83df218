//! A referee's games as a static web site, for their players and anyone
//! they send the address to (`postal referee site DIR -o WWW`, and kept
//! current by `referee run` when `site` is set in `referee.toml`):
//!
//! - `index.html`: every game, with its players, variant, state, whose
//!   move it is and the deadline;
//! - `games/GID.html`: the game's replay page (every position drawn as
//!   SVG, the moves with their comments), and `games/GID.pgn` to
//!   download;
//! - `players/NAME.html`: a player's games, one page for each name shown
//!   (two names that read alike, "ANA!" and "Ana", get two pages);
//! - `tournaments/NAME.html`: a tournament's cross-table, each result a
//!   link to its game, and its games round by round
//!   (src/referee/tournament.rs); a tournament game's page and its
//!   players' pages link to it.
//!
//! The index lists the games going on first, the soonest deadline first,
//! then the games that ended, the latest first.
//!
//! Every page is written whole (`files::write_public`: a reader never sees
//! half a page) and readable by the web server (0644, folders 0755, though
//! the referee folder is private); a symbolic link planted in the site's
//! folder is replaced, never written through, and `games/` or `players/`
//! being a link is refused. Pages are readable without JavaScript (the boards are all in
//! the page; the script only steps through them). No page carries a mail
//! address, a reply token or a held message: players are named by their
//! names (or their colour), and anything in a comment that looks like an
//! address is withheld. Any static web server serves the folder.

use super::folder::{load_game, Referee};
use super::index::refresh;
use super::tournament::{self, report, Tournament};
use super::RefereeError;
use crate::color::Color;
use crate::files::write_public;
use crate::game::state::Game;
use crate::game::Party;
use crate::record::game::Game as Record;
use crate::record::writer;
use crate::render::html::{page, GameInfo, PageGame};
use crate::render::svg::escape;
use crate::render::Options;
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// What a site's writing did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub games: usize,
    pub players: usize,
    /// Games whose files could not be read (left out).
    pub skipped: Vec<String>,
}

/// A player's name as the site shows it: the name given, else the side.
fn shown_name(game: &Game, side: Color) -> String {
    game.file()
        .players
        .get(side)
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| side.name().to_string())
}

/// `text` with every word that looks like a mail address withheld.
fn without_addresses(text: &str) -> String {
    text.split_inclusive(char::is_whitespace)
        .map(|w| {
            let word = w.trim_end();
            if word.contains('@') {
                format!("[address withheld]{}", &w[word.len()..])
            } else {
                w.to_string()
            }
        })
        .collect()
}

/// The game as a record to publish: its players by name, and no address
/// in a tag or a comment.
fn public_record(game: &Game) -> Record {
    let mut record = crate::game::pgn::record(game);
    for (name, value) in &mut record.tags {
        match name.as_str() {
            "White" => *value = shown_name(game, Color::White),
            "Black" => *value = shown_name(game, Color::Black),
            _ => *value = without_addresses(value),
        }
    }
    let scrub = |list: &mut Vec<String>| {
        for c in list.iter_mut() {
            *c = without_addresses(c);
        }
    };
    scrub(&mut record.comments);
    for m in &mut record.moves {
        scrub(&mut m.before);
        scrub(&mut m.after);
    }
    record
}

/// A file name for a player's page: letters and digits of the name,
/// lower case, `-` between.
fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "player".to_string()
    } else {
        s
    }
}

/// The page of each player's name: its [`slug`], or where two names
/// have one slug, the slug and a hash of the name, so that no two names
/// share a page and a name's page stays where it is as games come.
fn pages<'a>(names: impl IntoIterator<Item = &'a String>) -> BTreeMap<String, String> {
    let mut by_slug: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for name in names {
        let list = by_slug.entry(slug(name)).or_default();
        if !list.contains(&name) {
            list.push(name);
        }
    }
    let mut pages = BTreeMap::new();
    for (slug, names) in by_slug {
        for name in &names {
            let page = if names.len() == 1 {
                slug.clone()
            } else {
                format!("{slug}-{}", &super::hash16(name.as_bytes())[..8])
            };
            pages.insert(name.to_string(), page);
        }
    }
    pages
}

const STYLE: &str = "body{font-family:system-ui,'DejaVu Sans',Arial,sans-serif;margin:1.5em;color:#222;background:#fafaf7}\
table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}\
th{color:#555;font-weight:600}a{color:#2f5f8a}";

fn html_page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"postal\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// One game's row in the tables.
struct Listed {
    gid: String,
    white: String,
    black: String,
    variant: String,
    state: String,
    to_move: String,
    deadline: Option<DateTime<Utc>>,
    ended: bool,
    /// The tournament and round of a tournament game.
    tournament: Option<(String, u32)>,
}

fn table(
    rows: &[&Listed],
    pages: &BTreeMap<String, String>,
    prefix: &str,
    now: DateTime<Utc>,
) -> String {
    let mut t = String::from(
        "<table>\n<tr><th>White</th><th>Black</th><th>Variant</th><th>State</th><th>To move</th><th>Deadline</th></tr>\n",
    );
    for r in rows {
        let deadline = r.deadline.map_or(String::new(), |d| {
            let left = d - now;
            let words = if left.num_seconds() <= 0 {
                "passed".to_string()
            } else if left.num_days() >= 1 {
                format!(
                    "in {} day{}",
                    left.num_days(),
                    if left.num_days() == 1 { "" } else { "s" }
                )
            } else {
                format!("in {} hours", left.num_hours().max(1))
            };
            format!("{} UTC ({words})", d.format("%Y-%m-%d %H:%M"))
        });
        let _ = writeln!(
            t,
            "<tr><td><a href=\"{prefix}players/{}.html\">{}</a></td><td><a href=\"{prefix}players/{}.html\">{}</a></td><td>{}</td><td><a href=\"{prefix}games/{}.html\">{}</a></td><td>{}</td><td>{}</td></tr>",
            pages[&r.white],
            escape(&r.white),
            pages[&r.black],
            escape(&r.black),
            escape(&r.variant),
            r.gid,
            escape(&r.state),
            escape(&r.to_move),
            escape(&deadline)
        );
    }
    t.push_str("</table>\n");
    t
}

/// Writes the site of the referee folder `r` into `out`.
pub fn write(r: &Referee, out: &Path, now: DateTime<Utc>) -> Result<Written, RefereeError> {
    let io = |p: &Path, e: std::io::Error| RefereeError::io(p.display(), e);
    for dir in [
        out.to_path_buf(),
        out.join("games"),
        out.join("players"),
        out.join("tournaments"),
    ] {
        public_folder(&dir, dir != out).map_err(|e| io(&dir, e))?;
    }
    let (index, mut skipped) = refresh(r)?;
    let mut listed = Vec::new();
    for gid in index.games.keys() {
        // Game ids are made by postal: letters and digits. Any other name
        // in the folder is not published.
        if !gid.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            continue;
        }
        let game = match load_game(&r.game_path(gid)) {
            Ok(g) => g.copy_for(Party::Public),
            Err(_) => {
                skipped.push(gid.clone());
                continue;
            }
        };
        let record = public_record(&game);
        let mut pg = PageGame::of_record(&record);
        pg.info = GameInfo {
            start_ply: record.moves.len(),
            ..GameInfo::of_record(&record)
        };
        // The heading names the variant; the default event ("FIDE chess
        // by mail") would name it again.
        let event = format!("{} by mail", game.variant().spec().title);
        pg.info.details.retain(|d| *d != event);
        let html = page(&[pg], &Options::default())
            .map_err(|e| RefereeError::Io(format!("game {gid}: {e}")))?;
        let event = tournament::of_game(&game)
            .filter(|(name, _)| tournament::is_name(name))
            .map(|(name, round)| {
                format!(
                    " · <a href=\"../tournaments/{name}.html\">Tournament {name}, round {round}</a>"
                )
            })
            .unwrap_or_default();
        let html = html.replacen(
            "<body>\n",
            &format!(
                "<body>\n<p><a href=\"../index.html\">All games</a> · <a href=\"{gid}.pgn\">PGN</a>{event}</p>\n"
            ),
            1,
        );
        let path = out.join("games").join(format!("{gid}.html"));
        write_public(&path, html.as_bytes()).map_err(|e| io(&path, e))?;
        let path = out.join("games").join(format!("{gid}.pgn"));
        write_public(&path, writer::pgn(&record).as_bytes()).map_err(|e| io(&path, e))?;
        let state = match game.result() {
            Some(e) => e.to_string(),
            None => format!("move {}", game.current().fullmove),
        };
        listed.push(Listed {
            gid: gid.clone(),
            white: shown_name(&game, Color::White),
            black: shown_name(&game, Color::Black),
            variant: game.variant().spec().title.to_string(),
            to_move: if game.result().is_none() {
                shown_name(&game, game.turn())
            } else {
                String::new()
            },
            state,
            deadline: game.result().is_none().then(|| game.deadline()).flatten(),
            ended: game.result().is_some(),
            tournament: tournament::of_game(&game).filter(|(n, _)| tournament::is_name(n)),
        });
    }
    // Games going on, the soonest deadline first (none last), then the
    // games that ended, the latest first.
    listed.sort_by(|a, b| {
        (a.ended, a.deadline.is_none(), a.deadline)
            .cmp(&(b.ended, b.deadline.is_none(), b.deadline))
            .then_with(|| {
                if a.ended {
                    b.gid.cmp(&a.gid)
                } else {
                    a.gid.cmp(&b.gid)
                }
            })
    });
    let pages = pages(listed.iter().flat_map(|l| [&l.white, &l.black]));
    let all: Vec<&Listed> = listed.iter().collect();
    let tournaments = tournament_pages(r, out, &index, &listed, &pages)?;
    let links = |names: &[&String], prefix: &str| -> String {
        if names.is_empty() {
            return String::new();
        }
        let list: Vec<String> = names
            .iter()
            .map(|n| format!("<a href=\"{prefix}tournaments/{n}.html\">{n}</a>"))
            .collect();
        format!("<p>Tournaments: {}</p>\n", list.join(", "))
    };
    let body = format!(
        "<h1>Games</h1>\n<p>{} game{}, as of {} UTC.</p>\n{}{}",
        all.len(),
        if all.len() == 1 { "" } else { "s" },
        now.format("%Y-%m-%d %H:%M"),
        links(&tournaments.iter().collect::<Vec<_>>(), ""),
        table(&all, &pages, "", now)
    );
    let path = out.join("index.html");
    write_public(&path, html_page("Games", &body).as_bytes()).map_err(|e| io(&path, e))?;
    let mut players: BTreeMap<&String, Vec<&Listed>> = BTreeMap::new();
    for l in &listed {
        for name in [&l.white, &l.black] {
            let games = players.entry(name).or_default();
            if !games.iter().any(|g| g.gid == l.gid) {
                games.push(l);
            }
        }
    }
    for (name, games) in &players {
        let mut theirs: Vec<&String> = games
            .iter()
            .filter_map(|g| g.tournament.as_ref().map(|(t, _)| t))
            .filter(|t| tournaments.contains(t))
            .collect();
        theirs.sort();
        theirs.dedup();
        let body = format!(
            "<p><a href=\"../index.html\">All games</a></p>\n<h1>{}</h1>\n{}{}",
            escape(name),
            links(&theirs, "../"),
            table(games, &pages, "../", now)
        );
        let path = out.join("players").join(format!("{}.html", pages[*name]));
        write_public(&path, html_page(name, &body).as_bytes()).map_err(|e| io(&path, e))?;
    }
    Ok(Written {
        games: listed.len(),
        players: players.len(),
        skipped,
    })
}

/// Writes a page for each tournament of the folder whose games are on
/// the site: the cross-table and the games by round. Their names.
fn tournament_pages(
    r: &Referee,
    out: &Path,
    index: &super::index::Index,
    listed: &[Listed],
    pages: &BTreeMap<String, String>,
) -> Result<Vec<String>, RefereeError> {
    let mut done = Vec::new();
    for name in Tournament::names(r) {
        let Ok(t) = Tournament::open(r, &name) else {
            continue;
        };
        let table = t.table_of(index);
        let mut body = format!(
            "<p><a href=\"../index.html\">All games</a></p>\n<h1>Tournament {}</h1>\n<p>{}</p>\n{}",
            escape(&name),
            escape(&report::heading(&table)),
            report::html(&table, |gid| format!("../games/{gid}.html"))
        );
        body.push_str("<h2>Games</h2>\n<table>\n<tr><th>Round</th><th>White</th><th>Black</th><th>State</th></tr>\n");
        for g in &t.record.games {
            let Some(l) = listed.iter().find(|l| l.gid == g.id) else {
                continue;
            };
            let player = |n: &String| match pages.get(n) {
                Some(p) => format!("<a href=\"../players/{p}.html\">{}</a>", escape(n)),
                None => escape(n),
            };
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td><a href=\"../games/{}.html\">{}</a></td></tr>",
                g.round,
                player(&l.white),
                player(&l.black),
                l.gid,
                escape(&l.state)
            );
        }
        body.push_str("</table>\n");
        let path = out.join("tournaments").join(format!("{name}.html"));
        write_public(
            &path,
            html_page(&format!("Tournament {name}"), &body).as_bytes(),
        )
        .map_err(|e| RefereeError::io(path.display(), e))?;
        done.push(name);
    }
    Ok(done)
}

/// Makes a folder of the site readable by all (0755) when it is missing;
/// `inner` (`games/`, `players/`) may not be a symbolic link, which could
/// send the pages anywhere.
fn public_folder(dir: &Path, inner: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::symlink_metadata(dir) {
        Ok(m) if inner && m.file_type().is_symlink() => Err(std::io::Error::other(
            "a symbolic link, not a folder: not written through",
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        }
        Err(e) => Err(e),
    }
}

/// After `referee run` handled messages: the site brought up to date,
/// when `referee.toml` sets one; what to log.
pub fn keep_current(r: &Referee, now: DateTime<Utc>) -> Option<String> {
    let site = r.settings.site.as_ref()?;
    let out = r.dir.join(site);
    Some(match write(r, &out, now) {
        Ok(w) => format!(
            "site: {} game{} in {}\n",
            w.games,
            if w.games == 1 { "" } else { "s" },
            out.display()
        ),
        Err(e) => format!("site: not written: {e}\n"),
    })
}
