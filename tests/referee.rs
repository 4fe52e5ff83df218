//! The referee with real parts: a real SMTP server on 127.0.0.1 (aiosmtpd,
//! fixtures/mail/smtp_server.py) that delivers the players' replies into a
//! real Maildir, `postal referee run --once` over it, referee folders with
//! real files, and `postal receive` killed with SIGKILL at random moments.

use crate::common::smtp::Server;
use crate::common::{names, postal_at as postal, referee, stdout, without_keys_of, Mail, NOW};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

impl Server {
    /// The messages received, in order, as raw bytes.
    fn received(&self) -> Vec<Vec<u8>> {
        self.files()
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect()
    }

    /// Sends a message as a player's mail client would.
    fn submit(&self, from: &str, to: &str, raw: &[u8]) {
        use lettre::Transport;
        let t = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port)
            .tls(lettre::transport::smtp::client::Tls::None)
            .build();
        let env =
            lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
                .unwrap();
        t.send_raw(&env, raw).unwrap();
    }
}

/// How a reply is written.
#[derive(Clone, Copy)]
enum Style {
    /// The command on top, "On ... wrote:" and the notice quoted below.
    TopPost,
    /// The quoted notice first, the command below it.
    BottomPost,
    /// An HTML-only reply, as phones send, the notice in a blockquote.
    HtmlOnly,
    /// Quoted-printable with a non-breaking space, a signature and a
    /// mobile footer.
    Mobile,
}

fn quote(text: &str) -> String {
    text.lines().map(|l| format!("> {l}\r\n")).collect()
}

/// A reply to `notice` from `from` saying `command`.
fn reply(notice: &Mail, from: &str, command: &str, style: Style, n: usize) -> Vec<u8> {
    let head = format!(
        "From: {from}\r\nTo: {}\r\nSubject: Re: [postal] game\r\nMessage-ID: <reply{n}.{}@client.example>\r\nIn-Reply-To: <{}>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n",
        notice.reply_to(),
        std::process::id(),
        notice.id()
    );
    let attribution = "On Tue, 1 Dec 2026 at 09:00, Postal <postal@example.org> wrote:\r\n";
    let q = quote(&notice.text());
    match style {
        Style::TopPost => format!(
            "{head}Content-Type: text/plain; charset=utf-8\r\n\r\n{command}\r\n\r\nYour turn!\r\n\r\n{attribution}{q}"
        )
        .into_bytes(),
        Style::BottomPost => format!(
            "{head}Content-Type: text/plain; charset=utf-8\r\n\r\n{attribution}{q}\r\n{command}\r\n\r\nThanks for the game.\r\n"
        )
        .into_bytes(),
        Style::HtmlOnly => {
            let quoted: String = notice
                .text()
                .lines()
                .map(|l| format!("{}<br>", l.replace('<', "&lt;")))
                .collect();
            format!(
                "{head}Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><div dir=\"ltr\">{command}</div><br><div class=\"gmail_quote\"><div>On Tue, 1 Dec 2026 Postal wrote:</div><blockquote>{quoted}</blockquote></div></body></html>\r\n"
            )
            .into_bytes()
        }
        Style::Mobile => {
            let qp = command.replace(' ', "=C2=A0");
            format!(
                "{head}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{qp}\r\n\r\n--=20\r\nBen\r\n\r\nSent from my iPhone\r\n\r\n{q}"
            )
            .into_bytes()
        }
    }
}

#[test]
fn a_whole_game_by_replies_alone_through_smtp_and_a_maildir() {
    let tmp = tempfile::tempdir().unwrap();
    let md = tmp.path().join("Maildir");
    let server = Server::start(&[
        "--maildir",
        md.to_str().unwrap(),
        "--maildir-for",
        "postal+",
    ]);
    let mail = format!(
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
        server.port
    );
    let (r, gid) = referee(tmp.path(), Some(&mail));
    let first = server.received();
    assert_eq!(first.len(), 2, "both players are told that the game begins");
    let players = [
        ("ana@example.org", "Ana <ana@example.org>"),
        ("ben@example.org", "Ben <ben@example.org>"),
    ];
    // Fool's mate, each reply written as a different client writes it.
    let plan = [
        (0, "f3", Style::TopPost),
        (1, "1... e5", Style::BottomPost),
        (0, "g4", Style::HtmlOnly),
        (1, "2... Qh4#", Style::Mobile),
    ];
    for (n, (who, command, style)) in plan.into_iter().enumerate() {
        let (addr, from) = players[who];
        let all: Vec<Mail> = server
            .received()
            .into_iter()
            .map(|raw| Mail { raw })
            .collect();
        let notice = all.iter().rev().find(|m| m.to() == addr).unwrap();
        assert!(notice
            .text()
            .starts_with("-- postal: write your answer above this line --"));
        assert!(notice.text().contains("Your move"), "{}", notice.text());
        let before = all.len();
        server.submit(
            addr,
            &notice.reply_to(),
            &reply(notice, from, command, style, n),
        );
        assert_eq!(names(&md.join("new")).len(), 1);
        let out = stdout(
            postal(NOW)
                .args(["referee", "run"])
                .arg(&r)
                .arg("--maildir")
                .arg(&md)
                .arg("--once"),
        );
        assert!(out.contains("applied"), "{command}: {out}");
        assert!(names(&md.join("new")).is_empty());
        assert!(names(&md.join("cur")).iter().all(|n| n.ends_with(":2,S")));
        let after: Vec<Mail> = server
            .received()
            .into_iter()
            .map(|raw| Mail { raw })
            .collect();
        assert_eq!(
            after.len(),
            before + 2,
            "a notice to each player after {command}"
        );
        for m in &after[before..] {
            assert_eq!(
                m.header("Auto-Submitted").as_deref(),
                Some("auto-generated")
                    .filter(|_| m.to() != addr)
                    .or(Some("auto-replied"))
            );
            assert!(m
                .header("References")
                .unwrap()
                .contains(&format!("postal.{gid}.0.")));
        }
    }
    let all: Vec<Mail> = server
        .received()
        .into_iter()
        .map(|raw| Mail { raw })
        .collect();
    for (addr, _) in players {
        let last = all.iter().rev().find(|m| m.to() == addr).unwrap();
        assert!(
            last.text().contains("The game is over: 0-1, checkmate"),
            "{}",
            last.text()
        );
    }
    let game = std::fs::read_to_string(r.join("games").join(format!("{gid}.json"))).unwrap();
    assert!(game.contains("\"via\""), "{game}");
    assert!(
        game.contains("Thanks for the game."),
        "the bottom-posted comment is kept"
    );
    assert_eq!(names(&md.join("cur")).len(), 4);
}

/// The letters in the referee's outbox Maildir.
fn outbox(r: &Path) -> Vec<(String, Mail)> {
    let dir = r.join("outbox/new");
    names(&dir)
        .into_iter()
        .map(|n| {
            let raw = std::fs::read(dir.join(&n)).unwrap();
            (n, Mail { raw })
        })
        .collect()
}

/// The newest letter to `addr` among those not in `seen`.
fn new_letters(r: &Path, seen: &BTreeSet<String>) -> Vec<Mail> {
    outbox(r)
        .into_iter()
        .filter(|(n, _)| !seen.contains(n))
        .map(|(_, m)| m)
        .collect()
}

fn receive(r: &Path, raw: &[u8]) -> (String, BTreeSet<String>) {
    let before = names(&r.join("outbox/new"));
    let out = postal(NOW)
        .args(["receive", "--referee"])
        .arg(r)
        .write_stdin(raw.to_vec())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).unwrap(), before)
}

fn plain(from: &str, to: &str, id: &str, body: &str, extra: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: [postal]\r\nMessage-ID: <{id}@client.example>\r\n{extra}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

fn game_text(r: &Path, gid: &str) -> String {
    std::fs::read_to_string(r.join("games").join(format!("{gid}.json"))).unwrap()
}

/// White's first notice (Black has one too, which plays nothing yet).
fn first_notice(r: &Path) -> Mail {
    outbox(r)
        .into_iter()
        .map(|(_, m)| m)
        .find(|m| m.to() == "ana@example.org")
        .unwrap()
}

#[test]
fn refusals_holds_duplicates_and_auto_replies() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let notice = first_notice(&r);
    let token = notice.reply_to();
    let ana = "Ana <ana@example.org>";

    // An illegal move: answered with the reason, the game untouched.
    let before = game_text(&r, &gid);
    let (out, seen) = receive(
        &r,
        &plain(ana, &token, "illegal", "Ke2\r\n\r\n> quoted", ""),
    );
    assert!(out.contains("answered"), "{out}");
    assert_eq!(game_text(&r, &gid), before);
    let answer = new_letters(&r, &seen);
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0]
            .text()
            .contains("postal did not play your message"),
        "{}",
        answer[0].text()
    );
    assert!(answer[0].text().contains("> Ke2"));
    assert_eq!(answer[0].to(), "ana@example.org");

    // A wrong token: not answered, not applied.
    let bad = token.replace(&token[token.len() - 20..token.len() - 12], "aaaaaaaa");
    let (out, seen) = receive(&r, &plain(ana, &bad, "bad", "e4", ""));
    assert!(out.contains("ignored"), "{out}");
    assert!(new_letters(&r, &seen).is_empty());
    assert_eq!(game_text(&r, &gid), before);

    // An out-of-office reply to the notice: never answered.
    let (out, seen) = receive(
        &r,
        &plain(
            ana,
            &token,
            "ooo",
            "I am away until Monday.",
            "Auto-Submitted: auto-replied\r\n",
        ),
    );
    assert!(out.contains("ignored"), "{out}");
    assert!(new_letters(&r, &seen).is_empty());

    // A forged From with the right token: held, and the registered
    // address (not the From) asked to confirm.
    let (out, seen) = receive(
        &r,
        &plain("Eve <eve@evil.example>", &token, "forged", "e4", ""),
    );
    assert!(out.contains("held"), "{out}");
    assert_eq!(game_text(&r, &gid), before);
    let ask = new_letters(&r, &seen);
    assert_eq!(ask.len(), 1);
    assert_eq!(ask[0].to(), "ana@example.org");
    assert!(
        ask[0].text().contains("eve@evil.example"),
        "{}",
        ask[0].text()
    );
    assert_eq!(
        names(&r.join("held")).len(),
        2,
        "the message and its record"
    );
    // Eve cannot confirm it herself.
    let confirm = ask[0].reply_to();
    let (out, _) = receive(
        &r,
        &plain("eve@evil.example", &confirm, "eve-confirms", "yes", ""),
    );
    assert!(out.contains("ignored"), "{out}");
    assert_eq!(game_text(&r, &gid), before);

    // The real move, delivered twice: applied once, answered once.
    let (out, seen) = receive(&r, &plain(ana, &token, "move1", "e4", ""));
    assert!(out.contains("applied: White played 1. e4"), "{out}");
    let letters = new_letters(&r, &seen);
    assert_eq!(letters.len(), 2);
    let after = game_text(&r, &gid);
    let (out, seen) = receive(&r, &plain(ana, &token, "move1", "e4", ""));
    assert!(out.contains("already handled"), "{out}");
    assert!(new_letters(&r, &seen).is_empty());
    assert_eq!(game_text(&r, &gid), after);

    // Ana confirms the held message now: the game has moved on, so it is
    // refused as stale, not played.
    let (out, _) = receive(&r, &plain(ana, &confirm, "ana-confirms", "confirm", ""));
    assert!(out.contains("stale confirmation"), "{out}");
    assert_eq!(game_text(&r, &gid), after);

    // Ben answers; Ana answers the first notice again: stale, with the
    // current position.
    let to_ben = letters
        .iter()
        .find(|m| m.to() == "ben@example.org")
        .unwrap();
    let (out, _) = receive(
        &r,
        &plain(
            "ben@example.org",
            &to_ben.reply_to(),
            "move2",
            "1... e5",
            "",
        ),
    );
    assert!(out.contains("applied"), "{out}");
    let after = game_text(&r, &gid);
    let (out, seen) = receive(&r, &plain(ana, &token, "old", "d4", ""));
    assert!(out.contains("answers an old letter"), "{out}");
    let stale = new_letters(&r, &seen);
    assert!(
        stale[0].text().contains("old letter"),
        "{}",
        stale[0].text()
    );
    assert!(stale[0].text().contains("Moves: 1. e4 e5"));
    assert_eq!(game_text(&r, &gid), after);

    // A reply routed only by In-Reply-To, from Ana's own address: held.
    let (out, _) = receive(
        &r,
        &plain(
            ana,
            "postal@example.org",
            "thread",
            "Nf3",
            &format!("In-Reply-To: <{}>\r\n", notice.id()),
        ),
    );
    assert!(out.contains("held"), "{out}");
    // Ana confirms it: played now.
    let ask = outbox(&r)
        .into_iter()
        .map(|(_, m)| m)
        .rfind(|m| m.text().contains("without a reply token"))
        .unwrap();
    let (out, _) = receive(&r, &plain(ana, &ask.reply_to(), "confirm2", "Confirm", ""));
    assert!(out.contains("applied: White played 2. Nf3"), "{out}");
}

#[test]
fn a_crash_at_each_step_loses_nothing_and_doubles_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let token = first_notice(&r).reply_to();
    let msg = plain("ana@example.org", &token, "crash", "e4", "");
    for point in ["after-prepare", "after-commit"] {
        let out = postal(NOW)
            .args(["receive", "--referee"])
            .arg(&r)
            .env("POSTAL_TEST_FAIL_AT", point)
            .write_stdin(msg.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(75), "{point}");
    }
    assert!(
        game_text(&r, &gid).contains("\"e4\""),
        "committed by the second try"
    );
    assert_eq!(
        outbox(&r).len(),
        2,
        "nothing sent before the message is finished"
    );
    let (out, _) = receive(&r, &msg);
    assert!(out.contains("already handled"), "{out}");
    assert_eq!(outbox(&r).len(), 4);
    assert_eq!(game_text(&r, &gid).matches("\"canonical\"").count(), 1);
    // An answer interrupted before its message was marked seen is not doubled.
    let bad = plain("ana@example.org", &token, "bad-crash", "Ke2", "");
    let out = postal(NOW)
        .args(["receive", "--referee"])
        .arg(&r)
        .env("POSTAL_TEST_FAIL_AT", "after-spool")
        .write_stdin(bad.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    receive(&r, &bad);
    receive(&r, &bad);
    assert_eq!(outbox(&r).len(), 5);
}

/// A tiny deterministic generator for the kill times.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn kill_9_at_random_moments_200_times() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let referee = postal::referee::Referee::open(&r).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("postal");
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    let mut rng = Lcg(16);
    let mut kills = 0;
    for (i, mv) in line.iter().enumerate() {
        let game = postal::game::store::load(&referee.game_path(&gid), None).unwrap();
        let side = game.turn();
        let to = postal::referee::letter::reply_address(&referee, &gid, &game, side);
        let from = if i % 2 == 0 {
            "ana@example.org"
        } else {
            "ben@example.org"
        };
        let msg = plain(from, &to, &format!("kill{i}"), mv, "");
        let file = tmp.path().join(format!("m{i}.eml"));
        std::fs::write(&file, &msg).unwrap();
        for _ in 0..10 {
            let mut child = Command::new(&bin)
                .args(["receive", "--referee"])
                .arg(&r)
                .arg(&file)
                .env("POSTAL_NOW", NOW)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_micros(rng.next(12_000)));
            let _ = child.kill();
            let _ = child.wait();
            kills += 1;
        }
        let out = Command::new(&bin)
            .args(["receive", "--referee"])
            .arg(&r)
            .arg(&file)
            .env("POSTAL_NOW", NOW)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let game = postal::game::store::load(&referee.game_path(&gid), None).unwrap();
        assert_eq!(
            game.moves().len(),
            i + 1,
            "after {mv}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert_eq!(kills, 200);
    let game = postal::game::store::load(&referee.game_path(&gid), None).unwrap();
    let played: Vec<&str> = game.moves().iter().map(|m| m.played.as_str()).collect();
    assert_eq!(played, line);
    // Each act's two letters, once each, and the two first notices.
    let sent = names(&r.join("outbox/new"));
    assert_eq!(sent.len(), 2 * line.len() + 2, "{sent:?}");
    assert!(names(&r.join("spool")).iter().all(|n| n == "prepared"));
}

#[test]
fn show_help_games_and_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let token = first_notice(&r).reply_to();
    let (out, seen) = receive(&r, &plain("ana@example.org", &token, "help", "help", ""));
    assert!(out.contains("answered: help"), "{out}");
    assert!(new_letters(&r, &seen)[0]
        .text()
        .contains("takeback request"));
    let (out, seen) = receive(&r, &plain("ana@example.org", &token, "show", "Show", ""));
    assert!(out.contains("answered: show"), "{out}");
    assert!(new_letters(&r, &seen)[0]
        .text()
        .contains("Your move (White)"));
    // The bare game address answers show, to the registered address only.
    let bare = format!("postal+{gid}@example.org");
    let (out, _) = receive(&r, &plain("ben@example.org", &bare, "bare", "show", ""));
    assert!(out.contains("answered"), "{out}");
    let (out, _) = receive(&r, &plain("eve@evil.example", &bare, "bare2", "show", ""));
    assert!(out.contains("ignored"), "{out}");

    let list = stdout(postal(NOW).args(["referee", "games"]).arg(&r).args([
        "--player",
        "ANA@example.org",
        "--my-turn",
    ]));
    assert!(
        list.contains(&gid) && list.contains("white to move"),
        "{list}"
    );
    let list = stdout(postal(NOW).args(["referee", "games"]).arg(&r).args([
        "--player",
        "ben@example.org",
        "--my-turn",
    ]));
    assert!(list.is_empty(), "{list}");
    let json = stdout(postal(NOW).args(["referee", "games"]).arg(&r).arg("--json"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["id"], gid.as_str());

    // A day before the deadline, a reminder; after it, a forfeit, once.
    let out = stdout(
        postal("2026-12-03T10:00:00Z")
            .args(["referee", "sweep"])
            .arg(&r),
    );
    assert!(out.contains("1 reminder; 0 time forfeits"), "{out}");
    let out = stdout(
        postal("2026-12-03T11:00:00Z")
            .args(["referee", "sweep"])
            .arg(&r),
    );
    assert!(out.contains("0 reminders; 0 time forfeits"), "{out}");
    let before = names(&r.join("outbox/new"));
    let out = stdout(
        postal("2026-12-04T10:00:00Z")
            .args(["referee", "sweep"])
            .arg(&r),
    );
    assert!(out.contains(&format!("1 time forfeit ({gid})")), "{out}");
    let ends = new_letters(&r, &before);
    assert_eq!(ends.len(), 2);
    assert!(
        ends.iter()
            .all(|m| m.text().contains("The game is over: 0-1")),
        "{}",
        ends[0].text()
    );
    let out = stdout(
        postal("2026-12-04T11:00:00Z")
            .args(["referee", "sweep"])
            .arg(&r),
    );
    assert!(out.contains("0 time forfeits"), "{out}");
    let list = stdout(postal(NOW).args(["referee", "games"]).arg(&r));
    assert!(list.contains("0-1"), "{list}");
}

#[test]
fn answers_are_rate_limited_per_address() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, _) = referee(tmp.path(), None);
    let token = first_notice(&r).reply_to();
    let before = names(&r.join("outbox/new"));
    for i in 0..8 {
        receive(
            &r,
            &plain("ana@example.org", &token, &format!("show{i}"), "show", ""),
        );
    }
    assert_eq!(new_letters(&r, &before).len(), 5, "answers_per_hour = 5");
    // A message over 1 MB through `postal receive` is read, not ignored.
    let big = plain(
        "ana@example.org",
        &token,
        "big",
        &format!("e4\r\n\r\n{}", "x".repeat(1 << 20)),
        "",
    );
    let (out, _) = receive(&r, &big);
    assert!(out.contains("applied: White played 1. e4"), "{out}");
}

// ---------------------------------------------------------------------
// Issue 29: a referee a club can trust. Each test plays through a real
// SMTP server (aiosmtpd) that delivers the players' replies into a real
// Maildir and receives the referee's letters; the replies are written as
// Gmail, Outlook, Thunderbird, Apple Mail and iPhone write them
// (fixtures/mail/replies/).

const ANA: &str = "ana@example.org";
const BEN: &str = "ben@example.org";

/// A club's referee with one game, its mail through a real SMTP server.
struct Club {
    _tmp: tempfile::TempDir,
    server: Server,
    md: PathBuf,
    r: PathBuf,
    gid: String,
    n: std::cell::Cell<usize>,
}

impl Club {
    /// A referee folder (`extra` appended to referee.toml's top level)
    /// and a game of `variant` between Ana and Ben, begun at NOW.
    fn new(variant: &str, time_control: Option<&str>, extra: &str) -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let md = tmp.path().join("Maildir");
        let server = Server::start(&["--maildir", md.to_str().unwrap(), "--maildir-for", "postal"]);
        let r = tmp.path().join("ref");
        stdout(
            postal(NOW)
                .args(["referee", "init"])
                .arg(&r)
                .args(["--address", "Postal Referee <postal@example.org>"]),
        );
        let path = r.join("referee.toml");
        let t = without_keys_of(&std::fs::read_to_string(&path).unwrap(), extra);
        let mail = format!(
            "{extra}\n[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
            server.port
        );
        std::fs::write(
            &path,
            t.replace("\n[mail]\ntransport = \"outbox\"\n", &mail),
        )
        .unwrap();
        let mut new = postal(NOW);
        new.args(["new", variant, "--referee"]).arg(&r).args([
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
        ]);
        if let Some(tc) = time_control {
            new.args(["--time-control", tc]);
        }
        let out = stdout(&mut new);
        let gid = out.split_whitespace().nth(1).unwrap().to_string();
        Club {
            _tmp: tmp,
            server,
            md,
            r,
            gid,
            n: std::cell::Cell::new(0),
        }
    }

    /// Every letter the referee has sent, in order.
    fn letters(&self) -> Vec<Mail> {
        self.server
            .received()
            .into_iter()
            .map(|raw| Mail { raw })
            .collect()
    }

    /// The latest letter to `addr`.
    fn latest(&self, addr: &str) -> Mail {
        self.letters()
            .into_iter()
            .rev()
            .find(|m| m.to() == addr)
            .unwrap()
    }

    /// Sends `raw` from `from` over SMTP to its `To`, then runs one pass
    /// of the referee at `now`: its output, and the letters it sent.
    fn send_at(&self, from: &str, raw: &[u8], now: &str) -> (String, Vec<Mail>) {
        let to = Mail { raw: raw.to_vec() }.to();
        let before = self.letters().len();
        self.server.submit(from, &to, raw);
        let out = self.run_at(now);
        (out, self.letters().split_off(before))
    }

    fn send(&self, from: &str, raw: &[u8]) -> (String, Vec<Mail>) {
        self.send_at(from, raw, NOW)
    }

    fn run_at(&self, now: &str) -> String {
        stdout(
            postal(now)
                .args(["referee", "run"])
                .arg(&self.r)
                .arg("--maildir")
                .arg(&self.md)
                .arg("--once"),
        )
    }

    /// A reply written as `fixture` (fixtures/mail/replies/) shapes it,
    /// from `from` to the letter `to`, saying `command`.
    fn fixture(&self, fixture: &str, from: &str, to: &Mail, command: &str) -> Vec<u8> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/mail/replies")
            .join(fixture);
        let text = std::fs::read_to_string(&path).unwrap();
        self.n.set(self.n.get() + 1);
        text.replace("{FROM}", from)
            .replace("{TO}", &to.reply_to())
            .replace("{PARENT}", &to.id())
            .replace(
                "{ID}",
                &format!("{}.{}@client.example", fixture, self.n.get()),
            )
            .replace("{MOVE}", command)
            .replace("\r\n", "\n")
            .replace('\n', "\r\n")
            .into_bytes()
    }

    /// A plain reply to the letter `to`, the command on top.
    fn reply(&self, from: &str, to: &Mail, body: &str, extra_headers: &str) -> Vec<u8> {
        self.n.set(self.n.get() + 1);
        format!(
            "{extra_headers}From: {from}\r\nTo: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <plain{}.{}@client.example>\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\nOn Tue, 1 Dec 2026 at 09:00, Postal Referee <postal@example.org> wrote:\r\n{}",
            to.reply_to(),
            self.n.get(),
            std::process::id(),
            to.id(),
            to.id(),
            quote(&to.text())
        )
        .into_bytes()
    }

    fn game(&self) -> String {
        game_text(&self.r, &self.gid)
    }

    fn log(&self) -> String {
        let mut all = String::new();
        for n in names(&self.r.join("log")) {
            all.push_str(&std::fs::read_to_string(self.r.join("log").join(n)).unwrap());
        }
        all
    }
}

/// The comment a letter passes on ("Ana writes:" and its indented lines).
fn passed_comment(m: &Mail) -> Option<String> {
    let text = m.text();
    let at = text.find(" writes")?;
    let rest = &text[at..];
    let lines: Vec<&str> = rest
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    Some(lines.join("\n"))
}

/// Issue 29, point 2: HTML-only replies from six clients, each played
/// with its comment passed on whole and nothing of the quoted letter.
#[test]
fn html_only_replies_from_six_clients_are_read_as_their_readers_see_them() {
    let club = Club::new("chess", Some("3d"), "");
    let plan = [
        (
            ANA,
            "outlook-desktop.eml",
            "1. e4",
            "Hi Ben, have a good game.",
        ),
        (BEN, "outlook-web.eml", "1... e5", "Hi Ana"),
        (ANA, "thunderbird.eml", "Nf3", "Good luck!"),
        (BEN, "apple-mail.eml", "2... Nc6", "Good luck!"),
        (ANA, "gmail.eml", "Bb5", "Good luck!"),
        (BEN, "iphone.eml", "a6", "Good luck!"),
    ];
    for (who, fixture, command, comment) in plan {
        let (other, name) = if who == ANA {
            (BEN, "Ana")
        } else {
            (ANA, "Ben")
        };
        let letter = club.latest(who);
        let raw = club.fixture(fixture, who, &letter, command);
        let (out, sent) = club.send(who, &raw);
        assert!(out.contains("applied"), "{fixture}: {out}");
        let to_other = sent.iter().find(|m| m.to() == other).unwrap();
        assert_eq!(
            passed_comment(to_other).as_deref(),
            Some(comment),
            "{fixture}: {}",
            to_other.text()
        );
        assert!(to_other.text().contains(&format!("{name} writes")));
        for quoted in ["From:", "Sent:", "wrote", "write your answer above"] {
            assert!(
                !passed_comment(to_other).unwrap().contains(quoted),
                "{fixture}: {quoted}"
            );
        }
    }
    assert!(club.game().contains("\"a6\""), "{}", club.game());
}

/// Issue 29, point 3: reply headers of Gmail and Outlook in eight
/// languages are cut, never passed on as comments.
#[test]
fn reply_headers_in_eight_languages_are_cut_from_comments() {
    let club = Club::new("chess", None, "");
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O",
    ];
    let clients = [
        ("gmail-en.eml", "Have fun!"),
        ("gmail-fr.eml", "Bonne chance !"),
        ("gmail-de.eml", "Viel Glück!"),
        ("gmail-es.eml", "¡Buena suerte!"),
        ("gmail-it.eml", "Buona fortuna!"),
        ("gmail-nl.eml", "Veel succes!"),
        ("gmail-pt.eml", "Boa sorte!"),
        ("gmail-pl.eml", "Powodzenia!"),
        ("outlook-en.eml", "Good luck."),
        ("outlook-fr.eml", "Bon jeu."),
        ("outlook-de.eml", "Gutes Spiel."),
        ("outlook-es.eml", "Buen juego."),
        ("outlook-it.eml", "Buon gioco."),
        ("outlook-nl.eml", "Goed spel."),
        ("outlook-pt.eml", "Bom jogo."),
        ("outlook-pl.eml", "Dobrej gry."),
    ];
    for (i, ((fixture, comment), mv)) in clients.iter().zip(line).enumerate() {
        let (who, other) = if i % 2 == 0 { (ANA, BEN) } else { (BEN, ANA) };
        let raw = club.fixture(fixture, who, &club.latest(who), mv);
        let (out, sent) = club.send(who, &raw);
        assert!(out.contains("applied"), "{fixture}: {out}");
        let to_other = sent.iter().find(|m| m.to() == other).unwrap();
        assert_eq!(
            passed_comment(to_other).as_deref(),
            Some(*comment),
            "{fixture}: {}",
            to_other.text()
        );
    }
}

/// A plain message from `from` to `to` (no thread), with extra headers.
fn letter_to(from: &str, to: &str, id: &str, body: &str, extra: &str) -> Vec<u8> {
    format!(
        "{extra}From: {from}\r\nTo: {to}\r\nSubject: Re: [postal] Ana v Ben\r\nMessage-ID: <{id}@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// Issue 29, point 1: a held message is played by "confirm" alone; a
/// denial, an out-of-office without its headers and a move of the
/// player's own never play it; "drop" drops it.
#[test]
fn a_held_message_is_played_only_by_confirm_and_never_by_a_denial() {
    let club = Club::new("chess", Some("3d"), "answers_per_hour = 20");
    let notice = club.latest(ANA);
    // Eve writes from her own address with Ana's token, which she read
    // over Ana's shoulder.
    let forged = letter_to(
        "Eve <eve@evil.example>",
        &notice.reply_to(),
        "eve1",
        "e4",
        "",
    );
    let (out, sent) = club.send("eve@evil.example", &forged);
    assert!(out.contains("held for confirmation"), "{out}");
    assert_eq!(sent.len(), 1);
    let ask = &sent[0];
    assert_eq!(ask.to(), ANA, "the registered address, never the From");
    for h in ["In-Reply-To", "References"] {
        let v = ask.header(h).unwrap_or_default();
        assert!(
            v.contains("postal.") && !v.contains("eve1"),
            "{h}: {v}: in the game's thread, not Eve's"
        );
    }
    let text = ask.text();
    assert!(text.contains("eve@evil.example"), "{text}");
    assert!(
        text.contains("reply with the one word \"confirm\""),
        "{text}"
    );
    assert!(!text.contains("reply with anything"), "{text}");
    let before = club.game();

    // Ana denies it, as people do: not played, still held.
    let denial = club.reply(ANA, ask, "NO! That was not me. Do not play it.", "");
    let (out, sent) = club.send(ANA, &denial);
    assert!(
        out.contains("answered: held message not confirmed"),
        "{out}"
    );
    assert_eq!(club.game(), before);
    assert!(
        sent[0].text().contains("the held message was not played"),
        "{}",
        sent[0].text()
    );
    // An out-of-office without automatic-reply headers: not played either.
    let ooo = club.reply(
        ANA,
        ask,
        "I am out of the office until Monday 7 December.",
        "",
    );
    let (out, _) = club.send(ANA, &ooo);
    assert!(out.contains("not confirmed"), "{out}");
    assert_eq!(club.game(), before);
    // "drop" drops it.
    let (out, sent) = club.send(ANA, &club.reply(ANA, ask, "drop", ""));
    assert!(out.contains("dropped by its player"), "{out}");
    assert!(
        sent[0].text().starts_with("-- postal"),
        "{}",
        sent[0].text()
    );
    assert!(sent[0]
        .text()
        .contains("Dropped: the held message was not played"));
    assert_eq!(club.game(), before);
    let (out, _) = club.send(ANA, &club.reply(ANA, ask, "confirm", ""));
    assert!(out.contains("the held message is gone"), "{out}");
    assert_eq!(club.game(), before);

    // Ana's own move from her phone's address: held; her "confirm" plays it.
    let phone = letter_to(
        "Ana <ana.phone@example.net>",
        &notice.reply_to(),
        "phone1",
        "d4",
        "",
    );
    let (out, sent) = club.send("ana.phone@example.net", &phone);
    assert!(out.contains("held"), "{out}");
    let ask = &sent[0];
    let (out, sent) = club.send(ANA, &club.reply(ANA, ask, "Confirm", ""));
    assert!(out.contains("applied: White played 1. d4"), "{out}");
    assert!(sent
        .iter()
        .any(|m| m.to() == BEN && m.text().contains("White played 1. d4")));
    assert!(club.game().contains("\"d4\""));
    assert!(names(&club.r.join("held")).is_empty());

    // Held again (Ben from another address); Ben answers the held letter
    // with a different move of his own: that is played, the held one not.
    let to_ben = club.latest(BEN);
    let other = letter_to(
        "Ben <ben@work.example>",
        &to_ben.reply_to(),
        "work1",
        "1... c5",
        "",
    );
    let (_, sent) = club.send("ben@work.example", &other);
    let ask = &sent[0];
    let (out, _) = club.send(BEN, &club.reply(BEN, ask, "1... d5", ""));
    assert!(out.contains("applied: Black played 1... d5"), "{out}");
    assert!(!club.game().contains("\"c5\""));
    let mover = club.latest(BEN);
    assert!(
        mover.text().contains("did not say \"confirm\""),
        "{}",
        mover.text()
    );
}

/// Issue 29, point 1: Authentication-Results of the receiving server
/// saying dmarc=fail, or spf=fail without a passing DKIM, hold a message
/// that has the right token and From; results lower down (which a sender
/// can write) and those of untrusted hosts are not read.
#[test]
fn authentication_results_dmarc_fail_or_spf_fail_without_dkim_hold_the_message() {
    let club = Club::new("chess", None, "");
    let notice = club.latest(ANA);
    let to = notice.reply_to();
    let dmarc = "Authentication-Results: mx.example.org;\r\n dkim=none (message not signed) header.d=none;\r\n spf=pass (sender IP is 203.0.113.9) smtp.mailfrom=evil.example;\r\n dmarc=fail action=none header.from=example.org\r\n";
    let (out, sent) = club.send(ANA, &letter_to(ANA, &to, "ar1", "e4", dmarc));
    assert!(
        out.contains("held for confirmation") && out.contains("dmarc=fail"),
        "{out}"
    );
    assert_eq!(sent[0].to(), ANA);
    let spf = "Authentication-Results: mx.example.org; spf=fail smtp.mailfrom=example.org; dkim=fail header.d=example.org\r\n";
    let (out, _) = club.send(ANA, &letter_to(ANA, &to, "ar2", "e4", spf));
    assert!(out.contains("spf=fail and no passing DKIM"), "{out}");
    // A forger's own "pass" below the server's "fail" changes nothing.
    let both = format!("{dmarc}Authentication-Results: mx.example.org; dmarc=pass; dkim=pass\r\n");
    let (out, _) = club.send(ANA, &letter_to(ANA, &to, "ar3", "e4", &both));
    assert!(out.contains("held"), "{out}");
    assert!(!club.game().contains("\"e4\""));
    // SPF fails for a forwarded message, but its DKIM signature passes.
    let forwarded = "Authentication-Results: mx.example.org; spf=fail smtp.mailfrom=lists.example; dkim=pass header.d=example.org\r\n";
    let (out, _) = club.send(ANA, &letter_to(ANA, &to, "ar4", "e4", forwarded));
    assert!(out.contains("applied: White played 1. e4"), "{out}");

    // With trusted_authserv_ids, only those hosts' results are read.
    let club = Club::new("chess", None, "trusted_authserv_ids = [\"mx.google.com\"]");
    let to = club.latest(ANA).reply_to();
    let other = "Authentication-Results: relay.elsewhere.example; dmarc=fail\r\n";
    let google = "Authentication-Results: mx.google.com;\r\n       dkim=pass header.i=@example.org;\r\n       spf=pass smtp.mailfrom=ana@example.org;\r\n       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.org\r\n";
    let (out, _) = club.send(
        ANA,
        &letter_to(ANA, &to, "ar5", "e4", &format!("{other}{google}")),
    );
    assert!(out.contains("applied"), "{out}");
    let to = club.latest(BEN).reply_to();
    let google_fail =
        "Authentication-Results: mx.google.com; dmarc=fail (p=NONE) header.from=example.org\r\n";
    let (out, _) = club.send(
        BEN,
        &letter_to(
            BEN,
            &to,
            "ar6",
            "e5",
            &format!("{other}Received: by relay\r\n{google_fail}"),
        ),
    );
    assert!(
        out.contains("held") && out.contains("mx.google.com"),
        "{out}"
    );
}

/// Issue 29, point 4: nothing dropped in silence.
#[test]
fn nothing_is_dropped_in_silence() {
    let club = Club::new("chess", None, "");
    let notice = club.latest(ANA);

    // A move with an 800 kB photo, as a phone sends it: over the 1 MB
    // limit once encoded; its text is read, the photo dropped, Ana told.
    let photo: String = {
        let bytes: Vec<u8> = (0..800_000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        let b64 = data_encoding::BASE64.encode(&bytes);
        b64.as_bytes()
            .chunks(76)
            .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
            .collect()
    };
    let raw = format!(
        "From: Ana <ana@example.org>\r\nTo: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <photo@client.example>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"Apple-Mail-1\"\r\n\r\n--Apple-Mail-1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\ne4\r\n\r\nMy view from the window while I think.\r\n\r\n--Apple-Mail-1\r\nContent-Type: image/jpeg; name=\"IMG_0412.jpeg\"\r\nContent-Disposition: attachment; filename=\"IMG_0412.jpeg\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{photo}--Apple-Mail-1--\r\n",
        notice.reply_to(),
        notice.id()
    );
    assert!(raw.len() > 1 << 20);
    let (out, sent) = club.send(ANA, raw.as_bytes());
    assert!(out.contains("applied: White played 1. e4"), "{out}");
    let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap();
    assert!(
        to_ana
            .text()
            .contains("larger than the referee's limit of 1 MB"),
        "{}",
        to_ana.text()
    );
    assert!(
        to_ana.text().contains("IMG_0412.jpeg (800 kB)"),
        "{}",
        to_ana.text()
    );
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    assert_eq!(
        passed_comment(to_ben).as_deref(),
        Some("My view from the window while I think.")
    );

    // A new message to the referee's own address, no token, no thread:
    // one answer on how to play, once a day.
    let carol = letter_to(
        "Carol <carol@else.example>",
        "postal@example.org",
        "carol1",
        "Hello, can I play?",
        "",
    );
    let (out, sent) = club.send("carol@else.example", &carol);
    assert!(out.contains("answered: it names no game"), "{out}");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].to(), "carol@else.example");
    assert!(
        sent[0]
            .text()
            .contains("Reply to the latest letter of your game"),
        "{}",
        sent[0].text()
    );
    assert_eq!(
        sent[0].header("Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
    let again = letter_to(
        "Carol <carol@else.example>",
        "postal@example.org",
        "carol2",
        "Hello?",
        "",
    );
    let (out, sent) = club.send("carol@else.example", &again);
    assert!(out.contains("the answer was not sent"), "{out}");
    assert!(sent.is_empty());
    // Never to an auto-reply, a bounce or a list; the log says why.
    for (id, extra) in [
        ("auto", "Auto-Submitted: auto-replied\r\n"),
        ("list", "List-Id: <chess.lists.example>\r\n"),
    ] {
        let m = letter_to(
            "Dan <dan@else.example>",
            "postal@example.org",
            id,
            "Away",
            extra,
        );
        let (out, sent) = club.send("dan@else.example", &m);
        assert!(out.contains("ignored"), "{out}");
        assert!(sent.is_empty());
    }
    let log = club.log();
    assert!(
        log.contains("ignored: Auto-Submitted: auto-replied"),
        "{log}"
    );
    assert!(log.contains("ignored: a mailing list header"), "{log}");

    // A damaged token with a valid thread is held, as a missing one is.
    let to_ben = club.latest(BEN);
    let token = to_ben.reply_to();
    let (local, domain) = token.split_once('@').unwrap();
    let damaged = format!("{}zzzz@{domain}", &local[..local.len() - 4]);
    let raw = format!(
        "From: Ben <ben@example.org>\r\nTo: {damaged}\r\nSubject: Re: [postal]\r\nMessage-ID: <damaged@client.example>\r\nIn-Reply-To: <{}>\r\n\r\n1... e5\r\n",
        to_ben.id()
    );
    let (out, sent) = club.send(BEN, raw.as_bytes());
    assert!(
        out.contains("held for confirmation: its reply token is damaged"),
        "{out}"
    );
    assert_eq!(sent[0].to(), BEN);
    // A refusal the answer limit keeps back is logged as not sent.
    for i in 0..6 {
        let m = letter_to(BEN, &token, &format!("bad{i}"), "Ke7", "");
        club.send(BEN, &m);
    }
    assert!(
        club.log()
            .contains("the answer was not sent: the hourly limit"),
        "{}",
        club.log()
    );
}

/// Issue 29, point 5: with automatic forfeits, a move that arrives after
/// its deadline is not played; the forfeit is recorded then, and both
/// players told, before any sweep.
#[test]
fn a_move_after_its_deadline_is_not_played_and_the_forfeit_is_recorded_at_the_door() {
    let club = Club::new("chess", Some("3d"), "");
    let notice = club.latest(ANA);
    let late = club.reply(ANA, &notice, "e4", "");
    let (out, sent) = club.send_at(ANA, &late, "2026-12-04T10:00:00Z");
    assert!(out.contains("time forfeit recorded: 0-1"), "{out}");
    let game = club.game();
    assert!(!game.contains("\"e4\""), "{game}");
    assert!(game.contains("\"claim\": \"time\""), "{game}");
    assert_eq!(sent.len(), 2, "both players told");
    let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap().text();
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap().text();
    assert!(
        to_ana.contains("Your deadline passed at 2026-12-04T09:00:00Z (UTC) without a move from you. Your message arrived at 2026-12-04T10:00:00Z (UTC), after it, and was not played."),
        "{to_ana}"
    );
    assert!(
        to_ana.contains("The referee records a time forfeit: you lose"),
        "{to_ana}"
    );
    assert!(
        to_ben.contains("Ana's deadline passed at 2026-12-04T09:00:00Z (UTC) without a move."),
        "{to_ben}"
    );
    assert!(
        to_ben.contains("The referee records a time forfeit: you win"),
        "{to_ben}"
    );
    assert!(!to_ben.starts_with("Accepted"), "{to_ben}");
    // The message delivered again, and the sweep after it: nothing more.
    let out = club.run_at("2026-12-04T10:30:00Z");
    assert!(!out.contains("applied"), "{out}");
    let out = stdout(
        postal("2026-12-04T11:00:00Z")
            .args(["referee", "sweep"])
            .arg(&club.r),
    );
    assert!(out.contains("0 time forfeits"), "{out}");
    assert_eq!(
        club.letters().len(),
        4,
        "two first letters and two forfeit letters"
    );
}

/// Issue 29, point 6: both players are told when a game begins, and
/// every notice is written for its reader.
#[test]
fn both_players_are_told_when_a_game_begins_in_their_own_words() {
    let club = Club::new("chess", Some("3d"), "");
    let first = club.letters();
    assert_eq!(first.len(), 2);
    let to_ben = first.iter().find(|m| m.to() == BEN).unwrap();
    let to_ana = first.iter().find(|m| m.to() == ANA).unwrap();
    let ben = to_ben.text();
    for words in [
        "A new game: Ana (White) v Ben (Black), FIDE chess.",
        "You play Black; your opponent is Ana <ana@example.org>.",
        "Time control: 3d (3 days a move).",
        "Ana (White) moves first; you will get a letter with the move.",
        "deadline 2026-12-04T09:00:00Z (UTC; in 3 days)",
    ] {
        assert!(ben.contains(words), "{words}: {ben}");
    }
    assert!(
        ben.contains(&to_ben.reply_to()),
        "the reply address is named"
    );
    assert!(to_ben.reply_to().contains(&format!("{}-b0-", club.gid)));
    let ana = to_ana.text();
    assert!(
        ana.contains("You move first: reply to this letter with your move."),
        "{ana}"
    );
    assert!(
        ana.contains("Your deadline: 2026-12-04T09:00:00Z (UTC; in 3 days)."),
        "{ana}"
    );

    // Fool's mate: words for each reader, moves counted as moves.
    for (who, mv) in [(ANA, "f3"), (BEN, "e5"), (ANA, "g4")] {
        let (out, _) = club.send_at(
            who,
            &club.reply(who, &club.latest(who), mv, ""),
            "2026-12-01T12:00:00Z",
        );
        assert!(out.contains("applied"), "{out}");
    }
    let (out, sent) = club.send_at(
        BEN,
        &club.reply(BEN, &club.latest(BEN), "Qh4#", ""),
        "2026-12-01T12:00:00Z",
    );
    assert!(out.contains("sent 2 letters"), "{out}");
    let mover = sent.iter().find(|m| m.to() == BEN).unwrap().text();
    assert!(
        mover.contains("Accepted: Black played 2... Qh4#; game over: 0-1, checkmate"),
        "{mover}"
    );
    let list = stdout(postal(NOW).args(["referee", "games"]).arg(&club.r));
    assert!(list.contains("2 moves"), "{list}");
    let game = Club::new("chess", Some("2d+1d"), "");
    let ben = game.latest(BEN).text();
    assert!(
        ben.matches("Time control: 2d+1d (2 days for the game, plus 1 day a move).")
            .count()
            == 1,
        "{ben}"
    );
    let out = stdout(
        postal("2026-12-02T10:00:00Z")
            .args(["referee", "sweep"])
            .arg(&game.r),
    );
    assert!(
        out.starts_with(
            "1 game; 1 reminder; 0 time forfeits; 0 overdue games; 0 held messages expired; sent 1 letter"
        ),
        "{out}"
    );
    let reminder = game.latest(ANA).text();
    assert!(
        reminder.contains("2026-12-03T09:00:00Z (UTC; in 23 hours)"),
        "{reminder}"
    );
}

/// Issue 29, point 7: commands as people write them.
#[test]
fn commands_are_read_as_people_write_them() {
    let club = Club::new("chess", None, "answers_per_hour = 20");
    let plan = [
        (ANA, "1 e4", "White played 1. e4"),
        (BEN, "1) e5", "Black played 1... e5"),
        (ANA, "Nf3.", "White played 2. Nf3"),
        (BEN, "2... Nc6", "Black played 2... Nc6"),
        (ANA, "3. Bb5\r\nGood luck!", "White played 3. Bb5"),
        (BEN, "a6", "Black played 3... a6"),
        (ANA, "4. Ba4", "White played 4. Ba4"),
        (BEN, "Nf6", "Black played 4... Nf6"),
        (
            ANA,
            "5. Nc3 draw offer",
            "White played 5. Nc3; White offers a draw",
        ),
    ];
    for (who, command, said) in plan {
        let (out, sent) = club.send(who, &club.reply(who, &club.latest(who), command, ""));
        assert!(
            out.contains(&format!("applied: {said}")),
            "{command}: {out}"
        );
        if command.ends_with("Good luck!") {
            let mover = sent.iter().find(|m| m.to() == ANA).unwrap().text();
            assert!(
                mover.contains("Not a command, so read as your comment to Ben: \"Good luck!\"."),
                "{mover}"
            );
            let ben = sent.iter().find(|m| m.to() == BEN).unwrap();
            assert_eq!(passed_comment(ben).as_deref(), Some("Good luck!"));
        }
    }
    // A move the notation cannot read: the forms shown are this game's.
    let (out, sent) = club.send(BEN, &club.reply(BEN, &club.latest(BEN), "Qh", ""));
    assert!(out.contains("answered"), "{out}");
    let refusal = sent[0].text();
    assert!(
        refusal.contains("moves in this game are written e.g. \""),
        "{refusal}"
    );
    for other in ["QKc2-c4", "@f3", "Qd1/g4"] {
        assert!(!refusal.contains(other), "{other}: {refusal}");
    }

    // Building Chess: the check mark before the placement.
    let club = Club::new("building", None, "");
    for (who, command) in [
        (ANA, "Nc3 @(1,0)"),
        (BEN, "bxc3 @(1,-1)"),
        (ANA, "Rb1 @(1,-2)"),
        (BEN, "2... cxd2+ @(1,-3)"),
    ] {
        let (out, _) = club.send(who, &club.reply(who, &club.latest(who), command, ""));
        assert!(out.contains("applied"), "{command}: {out}");
    }
    assert!(club.game().contains("cxd2 @(1,-3)+"), "{}", club.game());
    let (_, sent) = club.send(ANA, &club.reply(ANA, &club.latest(ANA), "Kd", ""));
    let refusal = sent[0].text();
    assert!(
        refusal.contains(" @"),
        "Building's own form, with a placement: {refusal}"
    );
}

/// Issue 29, point 8: after the end, a player's message is passed to the
/// opponent once, as a comment; the letters of a finished game carry no
/// answer line and no token that plays.
#[test]
fn after_the_end_a_message_is_passed_on_once_and_plays_nothing() {
    let club = Club::new("chess", None, "answers_per_hour = 20");
    for (who, mv) in [(ANA, "f3"), (BEN, "e5"), (ANA, "g4"), (BEN, "Qh4#")] {
        let (out, _) = club.send(who, &club.reply(who, &club.latest(who), mv, ""));
        assert!(out.contains("applied"), "{out}");
    }
    let gid = &club.gid;
    for who in [ANA, BEN] {
        let last = club.latest(who);
        assert!(
            last.text().contains("The game is over: 0-1, checkmate"),
            "{}",
            last.text()
        );
        assert!(
            !last.text().contains("write your answer above"),
            "{}",
            last.text()
        );
        // The player's own token still: after the end, only it passes a
        // message on (issue 40, point 9).
        assert!(
            last.reply_to().starts_with(&format!("postal+{gid}-")),
            "{}",
            last.reply_to()
        );
    }
    let before = club.game();
    let gg = club.reply(BEN, &club.latest(BEN), "Good game, well played!", "");
    let (out, sent) = club.send(BEN, &gg);
    assert!(out.contains("passed on to the opponent"), "{out}");
    let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap();
    assert!(
        to_ana
            .text()
            .replace("\r\n", "\n")
            .starts_with("Ben writes, after the game:\n  Good game, well played!"),
        "{}",
        to_ana.text()
    );
    assert!(to_ana.reply_to().starts_with(&format!("postal+{gid}-")));
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    assert!(
        to_ben.text().starts_with("Passed on to Ana"),
        "{}",
        to_ben.text()
    );
    assert_eq!(club.game(), before, "nothing played");
    // The same message again: not passed on twice.
    let (out, sent) = club.send(BEN, &gg);
    assert!(out.contains("already handled"), "{out}");
    assert!(sent.is_empty());
    // Ana answers through an old letter's token: passed on too, and a
    // "move" in it plays nothing.
    let old = club.letters().into_iter().find(|m| m.to() == ANA).unwrap();
    let (out, _) = club.send(
        ANA,
        &club.reply(ANA, &old, "Qxh4\r\nThanks, well played.", ""),
    );
    assert!(out.contains("passed on"), "{out}");
    assert_eq!(club.game(), before);
    // At most three a day from a player.
    for i in 0..3 {
        let (out, _) = club.send(
            BEN,
            &club.reply(BEN, &club.latest(BEN), &format!("Note {i}"), ""),
        );
        if i < 2 {
            assert!(out.contains("passed on to the opponent"), "{out}");
        } else {
            assert!(out.contains("not passed on (limit)"), "{out}");
        }
    }
    // A stranger's message to the finished game is not passed on.
    let eve = letter_to(
        "eve@evil.example",
        &format!("postal+{gid}@example.org"),
        "eve-end",
        "Ha!",
        "",
    );
    let (out, sent) = club.send("eve@evil.example", &eve);
    assert!(
        out.contains("ignored: the game is over, and the message is not from a player"),
        "{out}"
    );
    assert!(sent.is_empty());
}

/// Issue 29, point 9: the operator's tools, each recorded in the game as
/// an event and mailed to both players.
#[test]
fn the_operator_lists_releases_and_drops_held_messages_and_adjudicates_extends_and_aborts() {
    let club = Club::new("chess", Some("3d"), "");
    let gid = club.gid.clone();
    let notice = club.latest(ANA);
    let phone = letter_to(
        "Ana <ana@phone.example>",
        &notice.reply_to(),
        "op1",
        "e4",
        "",
    );
    club.send("ana@phone.example", &phone);
    let list = stdout(postal(NOW).args(["referee", "held"]).arg(&club.r));
    assert!(
        list.contains(&gid)
            && list.contains("from ana@phone.example")
            && list.contains("reads \"e4\""),
        "{list}"
    );
    let key = list.split_whitespace().next().unwrap().to_string();
    let out = stdout(
        postal(NOW)
            .args(["referee", "held"])
            .arg(&club.r)
            .args(["--release", &key]),
    );
    assert!(out.contains("applied: White played 1. e4"), "{out}");
    assert!(club
        .latest(ANA)
        .text()
        .contains("The referee's operator released your held message"));
    assert!(club.latest(BEN).text().contains("White played 1. e4"));
    assert!(stdout(postal(NOW).args(["referee", "held"]).arg(&club.r)).is_empty());
    // Held again, and dropped by the operator: Ben is told.
    let work = letter_to(
        "Ben <ben@work.example>",
        &club.latest(BEN).reply_to(),
        "op2",
        "e5",
        "",
    );
    club.send("ben@work.example", &work);
    let list = stdout(postal(NOW).args(["referee", "held"]).arg(&club.r));
    let key = list.split_whitespace().next().unwrap().to_string();
    let out = stdout(
        postal(NOW)
            .args(["referee", "held"])
            .arg(&club.r)
            .args(["--drop", &key]),
    );
    assert!(
        out.contains("held message dropped by the operator"),
        "{out}"
    );
    assert!(club
        .latest(BEN)
        .text()
        .contains("The referee's operator dropped the message held for you"));
    let bad = postal(NOW)
        .args(["referee", "held"])
        .arg(&club.r)
        .args(["--drop", "../../x"])
        .output()
        .unwrap();
    assert!(!bad.status.success());

    // Extend Ben's deadline by 2 days: recorded, both told.
    let out = stdout(
        postal(NOW)
            .args(["referee", "extend"])
            .arg(&club.r)
            .arg(&gid)
            .args(["--by", "2d"]),
    );
    assert!(out.contains("The referee gives Ben (Black) 2d more for this move: the deadline is now 2026-12-06T09:00:00Z (UTC; in 5 days)"), "{out}");
    assert!(out.contains("sent 2 letters"), "{out}");
    assert!(
        club.game().contains("\"act\": \"extend\""),
        "{}",
        club.game()
    );
    for who in [ANA, BEN] {
        assert!(club
            .latest(who)
            .text()
            .contains("The referee gives Ben (Black) 2d more"));
    }
    // Ben's move on day 4 is in time now (the sweep would have forfeited).
    let late = club.reply(BEN, &club.latest(BEN), "e5", "");
    let (out, _) = club.send_at(BEN, &late, "2026-12-05T09:00:00Z");
    assert!(out.contains("applied: Black played 1... e5"), "{out}");

    // Adjudicate: the result recorded, both told, the game over.
    let out = stdout(
        postal("2026-12-05T10:00:00Z")
            .args(["referee", "adjudicate"])
            .arg(&club.r)
            .args([&gid, "1/2-1/2", "--reason", "both players asked the club"]),
    );
    assert!(out.contains("The referee adjudicates this game: 1/2-1/2, adjudicated by the referee: both players asked the club."), "{out}");
    let game = club.game();
    assert!(
        game.contains("\"act\": \"adjudicate\"") && game.contains("\"result\": \"1/2-1/2\""),
        "{game}"
    );
    for who in [ANA, BEN] {
        let m = club.latest(who);
        assert!(
            m.text().contains("The referee adjudicates this game"),
            "{}",
            m.text()
        );
        assert!(m.reply_to().starts_with(&format!("postal+{gid}-")));
    }
    let again = postal(NOW)
        .args(["referee", "abort"])
        .arg(&club.r)
        .args([&gid, "--reason", "x"])
        .output()
        .unwrap();
    assert!(!again.status.success(), "a finished game is not aborted");

    // Abort another game: no result ("*"), both told.
    let club = Club::new("chess", None, "");
    let gid = club.gid.clone();
    let out = stdout(postal(NOW).args(["referee", "abort"]).arg(&club.r).args([
        &gid,
        "--reason",
        "a player left the club",
    ]));
    assert!(out.contains("The referee aborts this game, without a result: *, aborted by the referee: a player left the club."), "{out}");
    assert!(club.game().contains("\"act\": \"abort\""));
    assert!(club.latest(BEN).text().contains("aborts this game"));
    let reason = postal(NOW)
        .args(["referee", "abort"])
        .arg(&club.r)
        .args([&gid, "--reason", "a\r\nBcc: x"])
        .output()
        .unwrap();
    assert!(!reason.status.success());
}

/// Issue 29, point 1: a held message nobody confirms is dropped after 7
/// days by the sweep, which says so; a confirmation after the end of the
/// game plays nothing and passes nothing on.
#[test]
fn held_messages_expire_after_seven_days_and_end_with_the_game() {
    let club = Club::new("chess", None, "");
    let to = club.latest(ANA).reply_to();
    club.send(
        "ana@phone.example",
        &letter_to("ana@phone.example", &to, "x1", "e4", ""),
    );
    let out = stdout(
        postal("2026-12-07T09:00:00Z")
            .args(["referee", "sweep"])
            .arg(&club.r),
    );
    assert!(out.contains("0 held messages expired"), "{out}");
    let out = stdout(
        postal("2026-12-08T09:01:00Z")
            .args(["referee", "sweep"])
            .arg(&club.r),
    );
    assert!(out.contains("1 held message expired"), "{out}");
    assert!(names(&club.r.join("held")).is_empty());
    assert!(club
        .log()
        .contains("held message dropped unconfirmed after 7 days"));

    club.send(
        "ana@phone.example",
        &letter_to("ana@phone.example", &to, "x2", "e4", ""),
    );
    let ask = club.latest(ANA);
    stdout(
        postal(NOW)
            .args(["referee", "abort"])
            .arg(&club.r)
            .args([&club.gid, "--reason", "test"]),
    );
    let before = club.letters().len();
    let (out, sent) = club.send(ANA, &club.reply(ANA, &ask, "confirm", ""));
    assert!(
        out.contains("the game is over; held message dropped"),
        "{out}"
    );
    assert_eq!(club.letters().len(), before + 1);
    assert_eq!(sent[0].to(), ANA, "nothing passed on to Ben");
    assert!(names(&club.r.join("held")).is_empty());
}

/// `referee site` writes the games as a static site: an index, a page
/// and a PGN per game, a page per player, every page whole and readable
/// without a script; no mail address or reply token on any page, even
/// one a player wrote in a comment. With `site` in referee.toml, `referee
/// run` keeps it current after the messages it handles.
#[test]
fn the_games_as_a_web_site_without_addresses_or_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let token = first_notice(&r).reply_to();
    let (out, _) = receive(
        &r,
        &plain(
            "ana@example.org",
            &token,
            "site1",
            "e4\r\n\r\nWrite to me at ana.private@example.org",
            "",
        ),
    );
    assert!(out.contains("applied"), "{out}");
    let www = tmp.path().join("www");
    let out = stdout(
        postal(NOW)
            .args(["referee", "site"])
            .arg(&r)
            .arg("-o")
            .arg(&www),
    );
    assert!(out.contains("wrote 1 game and 2 players"), "{out}");
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(
        index.contains("<td><a href=\"players/ana.html\">Ana</a></td>"),
        "{index}"
    );
    assert!(
        index.contains(&format!("<a href=\"games/{gid}.html\">move 1</a>")),
        "{index}"
    );
    assert!(index.contains("<td>Ben</td>"), "Ben to move: {index}");
    assert!(index.contains("2026-12-04"), "the deadline: {index}");
    let game = std::fs::read_to_string(www.join("games").join(format!("{gid}.html"))).unwrap();
    assert!(game.contains(">e4</a>"), "the moves");
    assert!(game.contains("<svg"), "the boards, without a script");
    assert!(
        game.contains("[address withheld]"),
        "the comment, without its address"
    );
    let pgn = std::fs::read_to_string(www.join("games").join(format!("{gid}.pgn"))).unwrap();
    assert!(
        pgn.contains("[White \"Ana\"]") && pgn.contains("1. e4"),
        "{pgn}"
    );
    let player = std::fs::read_to_string(www.join("players").join("ben.html")).unwrap();
    assert!(player.contains(&format!("games/{gid}.html")), "{player}");
    let token_part = token
        .split('@')
        .next()
        .unwrap()
        .trim_start_matches("postal+");
    for entry in walk(&www) {
        let text = std::fs::read_to_string(&entry).unwrap();
        assert!(!text.contains('@'), "{} holds an address", entry.display());
        assert!(
            !text.contains(token_part),
            "{} holds a token",
            entry.display()
        );
        assert!(
            !text.contains("held message") && !text.contains("confirm"),
            "{}",
            entry.display()
        );
    }
    // Kept current by `referee run` once referee.toml names the folder.
    let settings = r.join("referee.toml");
    let t = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, format!("site = \"../www2\"\n{t}")).unwrap();
    let md = tmp.path().join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(sub)).unwrap();
    }
    let black = outbox(&r)
        .into_iter()
        .map(|(_, m)| m)
        .find(|m| m.to() == "ben@example.org" && m.text().contains("1. e4"))
        .unwrap()
        .reply_to();
    std::fs::write(
        md.join("new").join("1.site2"),
        plain("ben@example.org", &black, "site2", "e5", ""),
    )
    .unwrap();
    let out = stdout(
        postal(NOW)
            .args(["referee", "run"])
            .arg(&r)
            .arg("--maildir")
            .arg(&md)
            .arg("--once"),
    );
    assert!(out.contains("site: 1 game in"), "{out}");
    let game = std::fs::read_to_string(
        tmp.path()
            .join("www2")
            .join("games")
            .join(format!("{gid}.html")),
    )
    .unwrap();
    assert!(game.contains(">e5</a>"), "{out}");
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Issue 32: a refereed 10/50d game by mail: conditional moves with a
/// move (three pairs played out at once, both players told, the lines
/// never shown to the opponent), a line left alone and cleared, and a
/// leave that moves the deadline, the opponent told, an overdraft
/// refused. `-- --nocapture` prints the letters around the answer and
/// the leave as received.
#[test]
fn conditional_moves_and_leave_by_mail() {
    let club = Club::new("chess", Some("10/50d"), "leave_days = 20");
    let to = |sent: &[Mail], addr: &str| {
        sent.iter()
            .find(|m| m.to() == addr)
            .unwrap_or_else(|| panic!("no letter to {addr}"))
            .text()
    };
    let notice = club.latest(ANA);
    club.send(ANA, &club.reply(ANA, &notice, "1. e4", ""));
    let notice = club.latest(BEN);
    let (out, sent) = club.send(
        BEN,
        &club.reply(
            BEN,
            &notice,
            "1... e5\nif 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\nif 2. Bc4 Nf6",
            "",
        ),
    );
    assert!(out.contains("applied"), "{out}");
    let (ana, ben) = (to(&sent, ANA), to(&sent, BEN));
    assert!(ana.contains("Black played 1... e5"), "{ana}");
    for hidden in ["Nc6", "Bc4", "conditional", "if 2."] {
        assert!(!ana.contains(hidden), "{hidden} shown to Ana: {ana}");
    }
    assert!(
        ben.contains("Your 2 lines of conditional moves are kept for Ana's reply"),
        "{ben}"
    );
    for line in [
        "Your conditional moves (never shown to Ana):",
        "  if 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6",
        "  if 2. Bc4 Nf6",
    ] {
        assert!(ben.lines().any(|l| l.trim_end() == line), "{line}: {ben}");
    }
    assert!(
        club.game().contains("\"conditional\": {"),
        "kept in the game"
    );
    // Ana plays into the line three times: each answer at once.
    for (mv, answer) in [
        ("2. Nf3", "2... Nc6"),
        ("3. Bb5", "3... a6"),
        ("4. Ba4", "4... Nf6"),
    ] {
        let notice = club.latest(ANA);
        let (_, sent) = club.send(ANA, &club.reply(ANA, &notice, mv, ""));
        assert_eq!(sent.len(), 2, "both told");
        let (ana, ben) = (to(&sent, ANA), to(&sent, BEN));
        let said =
            format!("Black answered at once with {answer}, a conditional move left in advance.");
        assert!(ana.contains(&said), "{ana}");
        assert!(ben.contains(&said), "{ben}");
        assert!(ana.contains("Your move (White)"), "{ana}");
        if mv == "2. Nf3" {
            println!("--- to Ana, around the conditional answer ---\n{ana}");
            println!("--- to Ben, around the conditional answer ---\n{ben}");
        }
    }
    assert!(!club.game().contains("\"conditional\": {"), "used up");
    // A line left alone is the sender's business only, and any other
    // move clears it.
    let notice = club.latest(BEN);
    let (_, sent) = club.send(BEN, &club.reply(BEN, &notice, "if 5. O-O Be7", ""));
    assert_eq!(sent.len(), 1, "only Ben hears of his lines");
    assert!(
        to(&sent, BEN).contains("  if 5. O-O Be7"),
        "{}",
        to(&sent, BEN)
    );
    let notice = club.latest(ANA);
    let (_, sent) = club.send(ANA, &club.reply(ANA, &notice, "5. d3", ""));
    let (ana, ben) = (to(&sent, ANA), to(&sent, BEN));
    assert!(
        !ana.contains("answered at once") && !ana.contains("Be7"),
        "{ana}"
    );
    assert!(!ben.contains("Your conditional moves"), "{ben}");
    // Ben, to move, takes leave: his deadline moves 10 days, Ana is told.
    let before = ben.clone();
    assert!(
        before.contains("Your deadline: 2027-01-20T09:00:00Z"),
        "{before}"
    );
    let notice = club.latest(BEN);
    let (_, sent) = club.send(
        BEN,
        &club.reply(BEN, &notice, "leave from 2026-12-05 for 10 days", ""),
    );
    let (ana, ben) = (to(&sent, ANA), to(&sent, BEN));
    let said =
        "Black takes leave for 10 days from 2026-12-05T00:00:00Z to 2026-12-15T00:00:00Z (UTC).";
    assert!(ana.contains(said), "{ana}");
    assert!(ben.contains(said), "{ben}");
    assert!(ana.contains("deadline 2027-01-30T09:00:00Z"), "{ana}");
    assert!(ben.contains("Your deadline: 2027-01-30T09:00:00Z"), "{ben}");
    assert!(
        ben.contains("Ben (Black): used nothing; 50 days left for 6 moves."),
        "{ben}"
    );
    println!("--- to Ana, on Ben's leave ---\n{ana}");
    println!("--- to Ben, on his leave ---\n{ben}");
    // An overdraft is refused with what is left.
    let notice = club.latest(BEN);
    let (_, sent) = club.send(
        BEN,
        &club.reply(BEN, &notice, "leave from 2026-12-20 for 11 days", ""),
    );
    assert_eq!(sent.len(), 1);
    let ben = to(&sent, BEN);
    assert!(
        ben.contains("Black has 10 days of leave left in 2026 (of 20 a year) and asks for 11 days"),
        "{ben}"
    );
}

/// Issue 32, point 3: the opponent's move and the conditional answer it
/// sets off are one save. Interrupted before it, neither is in the game
/// (the message is delivered again); after it, both are, and once.
#[test]
fn a_crash_around_a_conditional_answer_loses_neither_and_doubles_neither() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let to = |letters: &[Mail], addr: &str| {
        letters
            .iter()
            .find(|m| m.to() == addr)
            .unwrap_or_else(|| panic!("no letter to {addr}"))
            .reply_to()
    };
    let token = first_notice(&r).reply_to();
    let (_, before) = receive(&r, &plain("ana@example.org", &token, "c1", "e4", ""));
    let token = to(&new_letters(&r, &before), "ben@example.org");
    let (out, before) = receive(
        &r,
        &plain("ben@example.org", &token, "c2", "e5\nif 2. Nf3 Nc6", ""),
    );
    assert!(out.contains("applied"), "{out}");
    let token = to(&new_letters(&r, &before), "ana@example.org");
    let nf3 = plain("ana@example.org", &token, "c3", "Nf3", "");
    let plies = |r: &Path| game_text(r, &gid).matches("\"canonical\"").count();
    let out = postal(NOW)
        .args(["receive", "--referee"])
        .arg(&r)
        .env("POSTAL_TEST_FAIL_AT", "after-prepare")
        .write_stdin(nf3.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    assert_eq!(plies(&r), 2, "neither move before the save");
    assert!(
        game_text(&r, &gid).contains("\"conditional\": {"),
        "lines kept"
    );
    let out = postal(NOW)
        .args(["receive", "--referee"])
        .arg(&r)
        .env("POSTAL_TEST_FAIL_AT", "after-commit")
        .write_stdin(nf3.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    let game = game_text(&r, &gid);
    assert_eq!(plies(&r), 4, "both moves in the one save: {game}");
    assert!(game.contains("\"conditional\": true"), "{game}");
    let (out, _) = receive(&r, &nf3);
    assert!(out.contains("already handled"), "{out}");
    assert_eq!(plies(&r), 4, "applied once");
}
