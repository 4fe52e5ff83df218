//! The referee on an IMAP mailbox (issue 30), against a real Dovecot on
//! 127.0.0.1 (tests/common/dovecot.rs; `tests/run.sh` installs it): replies put
//! in with IMAP APPEND, `postal referee run DIR --imap ...` waiting with
//! IDLE or run `--once`, the connection cut, the server restarted, the
//! mailbox recreated under a new UIDVALIDITY, 500 old messages waiting,
//! and the referee killed with SIGKILL at random moments.

use crate::common::dovecot::{Dovecot, Imap, Proxy, WAIT};
use crate::common::imap_run::*;
use crate::common::smtp::Server;
use mail_parser::MessageParser;
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn tls_and_starttls_with_a_ca_file_and_plain_text_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start_tls();
    let mut imap = dovecot.client();
    imap.append("INBOX", &reply(&r, &gid, "e4", "t1"));
    let imaps = format!("imaps://referee@127.0.0.1:{}/INBOX", dovecot.imaps_port);
    let starttls = format!("imap://referee@127.0.0.1:{}/INBOX", dovecot.port);
    // The certificate is nobody's: refused until referee.toml trusts it.
    let (status, out) = once_with(&r, &["--imap", &imaps], &[]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert!(out.contains("certificate"), "{out}");
    assert_eq!(moves(&r, &gid), Vec::<String>::new());
    let settings = r.join("referee.toml");
    let mut text = std::fs::read_to_string(&settings).unwrap();
    text.push_str(&format!("\n[imap]\nca_file = {:?}\n", dovecot.cert_file()));
    std::fs::write(&settings, text).unwrap();
    let (status, out) = once_with(&r, &["--imap", &imaps], &[]);
    assert!(status.success(), "{out}");
    assert_eq!(moves(&r, &gid), ["e4"], "{out}");
    imap.append("INBOX", &reply(&r, &gid, "e5", "t2"));
    let (status, out) = once_with(&r, &["--imap", &starttls], &[]);
    assert!(status.success(), "{out}");
    assert_eq!(moves(&r, &gid), ["e4", "e5"], "{out}");
    assert_eq!(imap.count("postal/done"), 2);
    // A server without STARTTLS: imap:// is refused, not spoken in clear.
    let plain = Dovecot::start();
    let (status, out) = once_with(&r, &["--imap", &Dovecot::url(plain.port)], &[]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert!(out.contains("STARTTLS refused"), "{out}");
    // And --insecure-plain only to this machine.
    let (status, out) = once_with(
        &r,
        &[
            "--imap",
            "imap://referee@192.0.2.1/INBOX",
            "--insecure-plain",
        ],
        &[],
    );
    assert_eq!(status.code(), Some(2), "{out}");
    assert!(out.contains("for a server on this machine only"), "{out}");
}

#[test]
fn a_whole_game_through_imap_with_idle_and_smtp() {
    let tmp = tempfile::tempdir().unwrap();
    let smtp = Server::start(&[]);
    let mail = format!(
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
        smtp.port
    );
    let (r, gid) = referee(tmp.path(), Some(&mail));
    assert_eq!(
        smtp.files().len(),
        2,
        "both players are told the game began"
    );
    let dovecot = Dovecot::start();
    let mut imap = dovecot.client();
    let run = Running::start(&r, dovecot.port, &[], &[]);
    run.wait_for("imap: referee@127.0.0.1", 1);
    let start = Instant::now();
    let mut timings = Vec::new();
    for (n, command) in ["f3", "1... e5", "g4", "2... Qh4#"].into_iter().enumerate() {
        let before = smtp.files().len();
        let raw = reply(&r, &gid, command, &format!("g{n}"));
        let appended = Instant::now();
        imap.append("INBOX", &raw);
        let stored = appended.elapsed();
        let mut applied = None;
        while smtp.files().len() < before + 2 {
            assert!(
                appended.elapsed() < WAIT,
                "no notices after {command}:\n{}",
                run.output()
            );
            if applied.is_none() && run.output().matches("applied").count() > n {
                applied = Some(appended.elapsed());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let sent = appended.elapsed();
        timings.push((command, stored, applied.unwrap_or(sent), sent));
    }
    let (status, out) = run.stop();
    assert!(
        status.success(),
        "SIGTERM ends it with 0: {status:?}\n{out}"
    );
    for (command, stored, applied, sent) in &timings {
        eprintln!(
            "{command:?}: APPEND answered OK {} ms; \"applied\" printed {} ms; both notices received by SMTP {} ms",
            stored.as_millis(),
            applied.as_millis(),
            sent.as_millis()
        );
    }
    eprintln!("{out}");
    for log in names(&r.join("log")) {
        eprintln!(
            "{log}:\n{}",
            std::fs::read_to_string(r.join("log").join(&log)).unwrap()
        );
    }
    assert_eq!(out.matches("applied").count(), 4, "{out}");
    assert_eq!(moves(&r, &gid), ["f3", "e5", "g4", "Qh4#"]);
    let last = std::fs::read(smtp.files().last().unwrap()).unwrap();
    let text = MessageParser::default()
        .parse(&last)
        .unwrap()
        .body_text(0)
        .unwrap()
        .into_owned();
    assert!(text.contains("The game is over: 0-1, checkmate"), "{text}");
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), 4);
    assert!(start.elapsed() < WAIT);
}

#[test]
fn five_hundred_old_messages_and_only_the_games_reply_acted_on() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    let mut imap = dovecot.client();
    for i in 0..500 {
        let raw = match i {
            250 => reply(&r, &gid, "e4", "the-reply"),
            // Not a mail message at all.
            300 => b"\x00\x01 this is not mail\r\n".to_vec(),
            _ if i % 7 == 0 => format!(
                "From: news@shop.example\r\nTo: postal@example.org\r\nList-Id: <news.shop.example>\r\nMessage-ID: <n{i}@shop.example>\r\nSubject: offers {i}\r\n\r\nBuy now\r\n"
            )
            .into_bytes(),
            _ if i % 11 == 0 => format!(
                "From: ana@example.org\r\nTo: postal@example.org\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <ooo{i}@example.org>\r\nSubject: away\r\n\r\nI am away\r\n"
            )
            .into_bytes(),
            _ => format!(
                "From: someone{i}@example.net\r\nTo: postal@example.org\r\nMessage-ID: <old{i}@example.net>\r\nSubject: hello {i}\r\n\r\ne4\r\n"
            )
            .into_bytes(),
        };
        imap.append("INBOX", &raw);
    }
    assert_eq!(imap.count("INBOX"), 500);
    let started = Instant::now();
    let (status, out) = once(&r, dovecot.port, &[]);
    let took = started.elapsed();
    assert!(status.success(), "{out}");
    eprintln!("500 messages in {} ms", took.as_millis());
    assert_eq!(out.matches("applied").count(), 1, "{out}");
    assert_eq!(moves(&r, &gid), ["e4"]);
    // The two first notices and the two letters of the move; of the
    // strangers' messages, a few told how to play (answers_per_hour an
    // hour in all), no flood.
    let letters = names(&r.join("outbox/new"));
    let how_to = letters.iter().filter(|n| n.contains("howto")).count();
    assert_eq!(letters.len() - how_to, 4, "{letters:?}");
    assert!(how_to <= 5, "{how_to} answers");
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), 499);
    assert_eq!(imap.count("postal/unreadable"), 1);
    assert!(
        out.contains("not a mail message; moved to postal/unreadable"),
        "{out}"
    );
    // A second run finds nothing to do.
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success());
    assert!(!out.contains("moved"), "{out}");
    // A mailbox that is not there ends the run (no endless reconnecting).
    let url = format!("imap://referee@127.0.0.1:{}/Nowhere", dovecot.port);
    let mut run = Running::start_args(&r, &["--imap", &url, "--insecure-plain"], &[]);
    let status = wait_bounded(&mut run.child);
    std::thread::sleep(Duration::from_millis(50));
    let out = run.output();
    assert_eq!(status.code(), Some(75), "{out}");
    assert!(out.contains("cannot open the mailbox \"Nowhere\""), "{out}");
}

#[test]
fn the_connection_cut_during_idle_and_the_server_restarted_mid_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let mut dovecot = Dovecot::start();
    let proxy = Proxy::start(dovecot.port);
    let run = Running::start(&r, proxy.port, &[], &[]);
    run.wait_for("imap: referee@", 1);
    dovecot
        .client()
        .append("INBOX", &reply(&r, &gid, "e4", "c1"));
    run.wait_for("applied", 1);
    // Cut while it waits in IDLE: it connects again and goes on.
    std::thread::sleep(Duration::from_millis(200));
    proxy.cut();
    run.wait_for("connecting again", 1);
    dovecot
        .client()
        .append("INBOX", &reply(&r, &gid, "e5", "c2"));
    run.wait_for("applied", 2);
    // The server stopped and started again (same port, same mailbox).
    dovecot.stop();
    run.wait_for("connecting again", 3);
    dovecot.start_again();
    dovecot
        .client()
        .append("INBOX", &reply(&r, &gid, "Nf3", "c3"));
    run.wait_for("applied", 3);
    let (status, out) = run.stop();
    assert!(status.success(), "{out}");
    assert_eq!(moves(&r, &gid), ["e4", "e5", "Nf3"], "{out}");
    assert_eq!(out.matches("applied").count(), 3, "{out}");
    assert_eq!(names(&r.join("outbox/new")).len(), 8);
    let mut imap = dovecot.client();
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), 3);
}

#[test]
fn a_crash_between_journal_and_move_is_finished_without_reading_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    let mut imap = dovecot.client();
    imap.append("INBOX", &reply(&r, &gid, "e4", "j1"));
    let (status, out) = once(&r, dovecot.port, &[("POSTAL_TEST_FAIL_AT", "before-move")]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert_eq!(imap.count("INBOX"), 1, "not moved yet");
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}");
    assert!(
        out.contains("INBOX 1: ") && out.contains("moved to postal/done (finished before)"),
        "{out}"
    );
    assert_eq!(moves(&r, &gid), ["e4"]);
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), 1);
    // The pipeline read it once: one line of its own in the log, one of
    // the IMAP loop's.
    let log = names(&r.join("log"))
        .into_iter()
        .map(|n| std::fs::read_to_string(r.join("log").join(n)).unwrap())
        .collect::<String>();
    let received = log.lines().filter(|l| !l.contains("\"imap\"")).count();
    assert_eq!(received, 1, "{log}");
    assert_eq!(log.lines().count(), 2, "{log}");
}

#[test]
fn a_new_uidvalidity_rescans_and_recognises_handled_messages_by_message_id() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let mut dovecot = Dovecot::start();
    let first = reply(&r, &gid, "e4", "u1");
    let uv1 = {
        let mut imap = dovecot.client();
        imap.append("INBOX", &first);
        imap.uidvalidity("INBOX")
    };
    // Handled, journalled, and stopped before the move (as a crash would).
    let (status, out) = once(&r, dovecot.port, &[("POSTAL_TEST_FAIL_AT", "before-move")]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert_eq!(moves(&r, &gid), ["e4"]);
    let journal = std::fs::read_to_string(r.join("imap/journal.json")).unwrap();
    assert!(
        journal.contains(&format!("\"uidvalidity\": {uv1}")),
        "{journal}"
    );
    // The mailbox recreated: the message comes back under a new UIDVALIDITY.
    dovecot.stop();
    dovecot.remove_inbox();
    std::thread::sleep(Duration::from_millis(1100)); // UIDVALIDITY is a time in seconds
    dovecot.start_again();
    let mut imap = dovecot.client();
    imap.append("INBOX", &first);
    imap.append("INBOX", &reply(&r, &gid, "e5", "u2"));
    let uv2 = imap.uidvalidity("INBOX");
    assert_ne!(uv1, uv2);
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}");
    assert!(
        out.contains("INBOX 1: ") && out.contains("(recognised by its Message-ID)"),
        "{out}"
    );
    assert_eq!(
        out.matches("applied").count(),
        2,
        "the journal's outcome, and e5: {out}"
    );
    assert_eq!(moves(&r, &gid), ["e4", "e5"]);
    assert_eq!(names(&r.join("outbox/new")).len(), 6);
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), 2);
    let journal = std::fs::read_to_string(r.join("imap/journal.json")).unwrap();
    let journal: serde_json::Value = serde_json::from_str(&journal).unwrap();
    assert_eq!(journal["entries"], serde_json::json!([]), "{journal}");
}

#[test]
fn without_idle_or_move_it_polls_copies_and_uses_the_servers_separator() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    // Also Dovecot's own Maildir separator, ".", which refuses "postal/done".
    let dovecot = Dovecot::start_with(
        "imap_capability = IMAP4rev1 LITERAL+ UIDPLUS\nnamespace inbox {\n  separator = .\n}\n",
    );
    let run = Running::start(&r, dovecot.port, &["--poll", "1"], &[]);
    run.wait_for("no IDLE (polling every 1 s), no MOVE (COPY and EXPUNGE); finished mail goes to postal.done", 1);
    let mut imap = dovecot.client();
    imap.append("INBOX", &reply(&r, &gid, "d4", "p1"));
    run.wait_for("applied", 1);
    imap.append("INBOX", &reply(&r, &gid, "d5", "p2"));
    run.wait_for("applied", 2);
    let (status, out) = run.stop();
    assert!(status.success(), "{out}");
    assert_eq!(moves(&r, &gid), ["d4", "d5"]);
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal.done"), 2);
}

/// An OAuth 2 introspection endpoint on 127.0.0.1 for Dovecot's oauth2
/// passdb: `Authorization: Bearer TOKEN` with the one good token gets the
/// user's name, anything else 401.
fn introspection(good: &'static str) -> u16 {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut authorized = false;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                authorized |= line
                    .trim()
                    .eq_ignore_ascii_case(&format!("authorization: bearer {good}"));
            }
            let (status, body) = if authorized {
                ("200 OK", r#"{"email":"referee","active":true}"#)
            } else {
                ("401 Unauthorized", r#"{"error":"invalid_token"}"#)
            };
            let _ = write!(
                conn,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    port
}

#[test]
fn xoauth2_with_a_token_from_token_command() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    // Dovecot's auth process (nobody, when the tests run as root) reads this.
    let oauth = tempfile::tempdir().unwrap();
    std::fs::set_permissions(oauth.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let args = oauth.path().join("oauth2.conf");
    std::fs::write(
        &args,
        format!(
            "introspection_mode = auth\nintrospection_url = http://127.0.0.1:{}/userinfo\nusername_attribute = email\n",
            introspection("good-token")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&args, std::fs::Permissions::from_mode(0o644)).unwrap();
    let dovecot = Dovecot::start_with(&format!(
        "auth_mechanisms = plain login xoauth2\npassdb {{\n  driver = oauth2\n  mechanisms = xoauth2\n  args = {}\n}}\n",
        args.display()
    ));
    dovecot
        .client()
        .append("INBOX", &reply(&r, &gid, "e4", "x1"));
    let settings = r.join("referee.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        format!("{text}\n[imap]\ntoken_command = \"echo good-token\"\n"),
    )
    .unwrap();
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}\n{}", dovecot.log());
    assert_eq!(moves(&r, &gid), ["e4"]);
    assert!(
        dovecot.log().contains("method=XOAUTH2"),
        "{}",
        dovecot.log()
    );
    // A token the provider refuses: no login (Dovecot calls it a temporary
    // failure, so the run ends with 75 and is tried again later).
    std::fs::write(
        &settings,
        format!("{text}\n[imap]\ntoken_command = \"echo stale-token\"\n"),
    )
    .unwrap();
    let (status, out) = once(&r, dovecot.port, &[]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert!(out.contains("login"), "{out}");
}

#[test]
fn idle_renewed_often_misses_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    // IDLE ended and started again every 0.2 s instead of 25 minutes.
    let run = Running::start(
        &r,
        dovecot.port,
        &[],
        &[("POSTAL_TEST_IDLE_SECONDS", "0.2")],
    );
    run.wait_for("imap: referee@", 1);
    let mut imap = dovecot.client();
    for (n, mv) in ["c4", "c5", "Nc3"].into_iter().enumerate() {
        std::thread::sleep(Duration::from_millis(450));
        imap.append("INBOX", &reply(&r, &gid, mv, &format!("i{n}")));
        run.wait_for("applied", n + 1);
    }
    // A second referee on the same folder is refused while this one runs.
    let (status, out) = once(&r, dovecot.port, &[]);
    assert_eq!(status.code(), Some(75), "{out}");
    assert!(out.contains("another `referee run --imap`"), "{out}");
    let (status, out) = run.signal(libc::SIGINT);
    assert!(status.success(), "SIGINT ends it with 0 too: {out}");
    assert!(!out.contains("connecting again"), "{out}");
    assert_eq!(moves(&r, &gid), ["c4", "c5", "Nc3"]);
    assert_eq!(imap.count("INBOX"), 0);
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
fn kill_9_at_random_moments_100_times_over_a_20_move_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    let mut imap: Imap = dovecot.client();
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    let mut rng = Lcg(30);
    let mut kills = 0;
    // How far the killed runs got: moves they committed, and journal
    // entries they left (finished, not moved).
    let (mut committed_by_killed, mut journal_left) = (0, 0);
    let mut window_us = 40_000;
    let started = Instant::now();
    for (i, mv) in line.iter().enumerate() {
        imap.append("INBOX", &reply(&r, &gid, mv, &format!("k{i}")));
        for _ in 0..5 {
            let mut c = postal_cmd();
            let mut child = c
                .args(["referee", "run"])
                .arg(&r)
                .args([
                    "--imap",
                    &Dovecot::url(dovecot.port),
                    "--insecure-plain",
                    "--once",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_micros(rng.next(window_us)));
            let _ = child.kill();
            let _ = child.wait();
            kills += 1;
            let journal = std::fs::read_to_string(r.join("imap/journal.json")).unwrap_or_default();
            journal_left += usize::from(journal.contains("uidvalidity"));
        }
        committed_by_killed += usize::from(moves(&r, &gid).len() == i + 1);
        let clean = Instant::now();
        let done = postal_cmd()
            .args(["referee", "run"])
            .arg(&r)
            .args([
                "--imap",
                &Dovecot::url(dovecot.port),
                "--insecure-plain",
                "--once",
            ])
            .output()
            .unwrap();
        let (status, out) = (done.status, String::from_utf8_lossy(&done.stdout));
        // Kill within the time a whole run takes on this machine now
        // (start, login, the pass, the move, the spool), whatever its speed.
        window_us = (clean.elapsed().as_micros() as u64 * 3 / 2).clamp(5_000, 200_000);
        assert!(status.success(), "{out}");
        assert_eq!(moves(&r, &gid).len(), i + 1, "after {mv}: {out}");
    }
    eprintln!(
        "{kills} kills over {} moves in {} ms; {committed_by_killed} moves committed by a \
         killed run; {journal_left} kills left a journal entry",
        line.len(),
        started.elapsed().as_millis()
    );
    assert_eq!(kills, 100);
    assert_eq!(moves(&r, &gid), line);
    // Each act's two letters, once each, and the two first notices.
    assert_eq!(names(&r.join("outbox/new")).len(), 2 * line.len() + 2);
    assert!(names(&r.join("spool")).iter().all(|n| n == "prepared"));
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("postal/done"), line.len() as u32);
}
