//! The referee's files and its outgoing mail (issue 40): one sender at a
//! time per folder, each letter sent once, at most once more after a
//! crash (point 6, against the real SMTP server of tests/common/smtp.rs);
//! a private folder whatever the umask, a web site that never writes
//! through a planted link and gives every name its own page (point 10);
//! the site's index in the order a player looks for (point 13).

use crate::common::smtp::Server;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

const NOW: &str = "2026-12-01T09:00:00Z";

/// `postal ARGS` under `umask` (the test's own umask is left alone).
fn postal(umask: u32) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("postal"));
    c.env("POSTAL_NOW", NOW)
        .env_remove("POSTAL_TEST_FAIL_AT")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("XDG_DATA_HOME", crate::common::data_home());
    // SAFETY: umask is async-signal-safe and touches only the child.
    unsafe {
        c.pre_exec(move || {
            libc::umask(umask as libc::mode_t);
            Ok(())
        });
    }
    c
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A referee folder made under umask 022; `mail` replaces its `[mail]`.
fn referee(dir: &Path, mail: Option<String>) -> PathBuf {
    let r = dir.join("ref");
    ok(postal(0o022)
        .args(["referee", "init"])
        .arg(&r)
        .args(["--address", "Postal <postal@example.org>"])
        .output()
        .unwrap());
    if let Some(m) = mail {
        let path = r.join("referee.toml");
        let t = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, t.replace("[mail]\ntransport = \"outbox\"\n", &m)).unwrap();
    }
    r
}

/// `postal new chess --referee R` between two players; the game id.
fn new_game(r: &Path, white: &str, black: &str, extra: &[&str]) -> String {
    let out = ok(postal(0o022)
        .args(["new", "chess", "--referee"])
        .arg(r)
        .args(["--white", white, "--black", black])
        .args(extra)
        .output()
        .unwrap());
    out.split_whitespace().nth(1).unwrap().to_string()
}

fn smtp_settings(port: u16) -> String {
    format!(
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\n"
    )
}

/// Puts `n` letters into the spool as the referee writes them.
fn spool_letters(r: &Path, round: usize, n: usize) {
    for i in 0..n {
        let raw = format!(
            "From: Postal <postal@example.org>\r\nTo: Ben <ben@example.org>\r\nMessage-ID: <r{round}-l{i}@example.org>\r\nSubject: letter {i}\r\n\r\nLetter {i} of round {round}.\r\n"
        );
        std::fs::write(r.join("spool").join(format!("r{round}-{i:03}.eml")), raw).unwrap();
    }
}

/// How many times each Message-ID was received.
fn received_ids(server: &Server) -> BTreeMap<String, usize> {
    let mut ids = BTreeMap::new();
    for f in server.files() {
        let raw = std::fs::read(f).unwrap();
        let m = mail_parser::MessageParser::default()
            .parse_headers(&raw)
            .unwrap();
        *ids.entry(m.message_id().unwrap_or("").to_string())
            .or_insert(0) += 1;
    }
    ids
}

fn send(r: &Path) -> Child {
    postal(0o022)
        .args(["referee", "send"])
        .arg(r)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Point 6: two `referee send` at once, five times over 40 letters: each
/// letter is received exactly once, and neither sender fails.
#[test]
fn two_senders_at_once_send_each_letter_once() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(&[]);
    let r = referee(tmp.path(), Some(smtp_settings(server.port)));
    for round in 0..5 {
        spool_letters(&r, round, 40);
        let (a, b) = (send(&r), send(&r));
        for c in [a, b] {
            let out = c.wait_with_output().unwrap();
            let text = ok(out);
            assert!(!text.contains("No such file"), "{text}");
        }
    }
    let ids = received_ids(&server);
    let twice: Vec<_> = ids.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "sent twice: {twice:?}");
    assert_eq!(ids.len(), 200);
    assert_eq!(std::fs::read_dir(r.join("sent")).unwrap().count(), 200);
}

/// Point 6: `postal new` while `referee send` (as `referee run` does when
/// it starts) is at work on the spool: each letter is sent once.
#[test]
fn a_new_game_while_the_referee_sends_is_announced_once() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(&[]);
    let r = referee(tmp.path(), Some(smtp_settings(server.port)));
    for round in 0..10 {
        spool_letters(&r, round, 10);
        let sender = send(&r);
        let newer = postal(0o022)
            .args(["new", "chess", "--referee"])
            .arg(&r)
            .args([
                "--white",
                &format!("Ana <ana{round}@example.org>"),
                "--black",
                "Ben <ben@example.org>",
            ])
            .output()
            .unwrap();
        ok(newer);
        ok(sender.wait_with_output().unwrap());
    }
    ok(postal(0o022)
        .args(["referee", "send"])
        .arg(&r)
        .output()
        .unwrap());
    let ids = received_ids(&server);
    let twice: Vec<_> = ids.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "sent twice: {twice:?}");
    assert_eq!(
        ids.len(),
        10 * 10 + 2 * 10,
        "the letters and two notices a game"
    );
}

/// Point 6: `referee send` killed with SIGKILL again and again: a letter
/// the server may have is sent at most once more, as README says (a
/// letter cut off twice is moved to `sent/` unsent and logged); every
/// other letter arrives once.
#[test]
fn kill_9_while_sending_loses_none_and_repeats_at_most_one_a_kill() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(&[]);
    let r = referee(tmp.path(), Some(smtp_settings(server.port)));
    spool_letters(&r, 0, 40);
    let mut kills = 0;
    let mut seed = 12345u64;
    for _ in 0..25 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let mut c = send(&r);
        std::thread::sleep(std::time::Duration::from_millis(10 + (seed >> 33) % 150));
        if c.try_wait().unwrap().is_none() {
            kills += 1;
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    ok(send(&r).wait_with_output().unwrap());
    let ids = received_ids(&server);
    assert!(
        ids.values().all(|n| *n <= 2),
        "a letter sent thrice: {ids:?}"
    );
    let extra: usize = ids.values().map(|n| n - 1).sum();
    assert!(extra <= kills, "{extra} extra copies for {kills} kills");
    let log: String = std::fs::read_dir(r.join("log"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let given_up = log.matches("not_sent_again").count();
    assert!(given_up <= kills / 2, "{given_up} for {kills} kills");
    assert!(ids.len() + given_up >= 40, "{ids:?}\n{log}");
    assert_eq!(std::fs::read_dir(r.join("sent")).unwrap().count(), 40);
    eprintln!("{kills} kills: {extra} letters sent once more, {given_up} not sent again");
}

/// The mode bits of every file and folder below `dir` (and its own).
fn modes(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = vec![(
        dir.to_path_buf(),
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o777,
    )];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let m = std::fs::symlink_metadata(&p).unwrap();
        if m.is_dir() {
            out.extend(modes(&p));
        } else {
            out.push((p, m.permissions().mode() & 0o777));
        }
    }
    out
}

/// Point 10: under umask 022 the referee folder is 0700 and every file
/// it writes 0600; a folder made 0755 before is made 0700 when opened;
/// the site is 0755 and 0644, for the web server.
#[test]
fn the_referee_folder_is_private_whatever_the_umask() {
    let tmp = tempfile::tempdir().unwrap();
    let r = referee(tmp.path(), None);
    new_game(&r, "Ana <ana@example.org>", "Ben <ben@example.org>", &[]);
    ok(postal(0o022)
        .args(["referee", "sweep"])
        .arg(&r)
        .output()
        .unwrap());
    let open: Vec<_> = modes(&r)
        .into_iter()
        .filter(|(p, m)| if p.is_dir() { *m != 0o700 } else { *m != 0o600 })
        .collect();
    assert!(open.is_empty(), "readable by others: {open:?}");
    std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o755)).unwrap();
    ok(postal(0o022)
        .args(["referee", "games"])
        .arg(&r)
        .output()
        .unwrap());
    let mode = std::fs::metadata(&r).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let www = tmp.path().join("www");
    ok(postal(0o077)
        .args(["referee", "site"])
        .arg(&r)
        .arg("-o")
        .arg(&www)
        .output()
        .unwrap());
    for (p, m) in modes(&www) {
        let want = if p.is_dir() { 0o755 } else { 0o644 };
        assert_eq!(m, want, "{}", p.display());
    }
}

/// Point 10: a symbolic link planted in the site's folder is replaced,
/// never written through; `games/` as a link is refused; "ANA!" and
/// "Ana" each have a page of their own.
#[test]
fn the_site_never_writes_through_a_link_and_names_have_their_own_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let r = referee(tmp.path(), None);
    let g1 = new_game(&r, "Ana <ana@example.org>", "Ben <ben@example.org>", &[]);
    let g2 = new_game(&r, "ANA! <other@example.org>", "Cy <cy@example.org>", &[]);
    let www = tmp.path().join("www");
    std::fs::create_dir_all(&www).unwrap();
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, www.join("index.html")).unwrap();
    let site = |www: &Path| {
        postal(0o022)
            .args(["referee", "site"])
            .arg(&r)
            .arg("-o")
            .arg(www)
            .output()
            .unwrap()
    };
    let out = ok(site(&www));
    assert!(out.contains("2 games and 4 players"), "{out}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let index = std::fs::symlink_metadata(www.join("index.html")).unwrap();
    assert!(index.is_file(), "the link was replaced by the page");
    let pages: Vec<String> = std::fs::read_dir(www.join("players"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(pages.len(), 4, "{pages:?}");
    let page_of = |name: &str| {
        pages
            .iter()
            .find(|p| {
                std::fs::read_to_string(www.join("players").join(p))
                    .unwrap()
                    .contains(&format!("<h1>{name}</h1>"))
            })
            .cloned()
            .unwrap_or_else(|| panic!("no page for {name}: {pages:?}"))
    };
    let (ana, shout) = (page_of("Ana"), page_of("ANA!"));
    assert_ne!(ana, shout);
    let text = |p: &str| std::fs::read_to_string(www.join("players").join(p)).unwrap();
    assert!(text(&ana).contains(&g1) && !text(&ana).contains(&g2));
    assert!(text(&shout).contains(&g2) && !text(&shout).contains(&g1));
    // A folder of the site that is a link is not written through.
    let www2 = tmp.path().join("www2");
    std::fs::create_dir_all(&www2).unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, www2.join("games")).unwrap();
    let out = site(&www2);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("symbolic link"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// Point 13: the index lists the games going on first, the soonest
/// deadline first, then the games that ended; a game's page names its
/// variant once.
#[test]
fn the_site_index_lists_games_going_on_by_deadline_first() {
    let tmp = tempfile::tempdir().unwrap();
    let r = referee(tmp.path(), None);
    let players = ["Ana <ana@example.org>", "Ben <ben@example.org>"];
    let ended = new_game(&r, players[0], players[1], &["--time-control", "1d"]);
    let slow = new_game(&r, players[0], players[1], &["--time-control", "10d"]);
    let untimed = new_game(&r, players[0], players[1], &[]);
    let fast = new_game(&r, players[0], players[1], &["--time-control", "2d"]);
    ok(postal(0o022)
        .args(["referee", "abort"])
        .arg(&r)
        .arg(&ended)
        .args(["--reason", "the club's season ended"])
        .output()
        .unwrap());
    let www = tmp.path().join("www");
    ok(postal(0o022)
        .args(["referee", "site"])
        .arg(&r)
        .arg("-o")
        .arg(&www)
        .output()
        .unwrap());
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    let at = |gid: &str| {
        index
            .find(&format!("games/{gid}.html"))
            .unwrap_or_else(|| panic!("{gid}: {index}"))
    };
    let order = [at(&fast), at(&slow), at(&untimed), at(&ended)];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{index}");
    let page = std::fs::read_to_string(www.join("games").join(format!("{fast}.html"))).unwrap();
    let body = page.split_once("<body>").unwrap().1;
    let named = body.matches("FIDE chess").count();
    assert_eq!(named, 1, "the variant named {named} times: {body}");
}
