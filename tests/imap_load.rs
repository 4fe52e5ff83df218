//! The referee on an IMAP mailbox under load and against a hostile server
//! (issue 40): a large reply read as `postal receive` reads it (point 4),
//! a burst of replies played at once rather than at the IDLE renewal
//! (point 5), old mail that names no game left unanswered on the first
//! pass (point 9), and a server that never ends its answer (point 11),
//! which is a small TCP server in the test: that is the real thing for a
//! hostile server. The others run on a real Dovecot
//! (tests/common/dovecot.rs).

use crate::common::dovecot::{Dovecot, WAIT};
use crate::common::imap_run::*;
use mail_parser::MessageParser;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// A reply from the side to move with a photo of `size` bytes attached
/// (base64, as every client sends one).
fn reply_with_photo(r: &Path, gid: &str, command: &str, size: usize) -> Vec<u8> {
    let plain = String::from_utf8(reply(r, gid, command, "photo")).unwrap();
    let (head, body) = plain.split_once("\r\n\r\n").unwrap();
    let head = head.replace(
        "Content-Type: text/plain; charset=utf-8",
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"",
    );
    let mut photo = String::new();
    let line = "/9j/4AAQSkZJRgABAQEASABIAAD".repeat(3);
    while photo.len() < size {
        photo.push_str(&line[..76]);
        photo.push_str("\r\n");
    }
    format!(
        "{head}\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n--b1\r\nContent-Type: image/jpeg; name=\"board.jpg\"\r\nContent-Disposition: attachment; filename=\"board.jpg\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{photo}--b1--\r\n"
    )
    .into_bytes()
}

/// The text of the letters in the outbox addressed to `to`.
fn letters_to(r: &Path, to: &str) -> Vec<String> {
    names(&r.join("outbox/new"))
        .into_iter()
        .map(|n| std::fs::read(r.join("outbox/new").join(n)).unwrap())
        .filter_map(|raw| {
            let m = MessageParser::default().parse(&raw)?;
            let addr = m.to()?.first()?.address()?.to_string();
            (addr == to).then(|| m.body_text(0).unwrap_or_default().into_owned())
        })
        .collect()
}

/// Point 4: a 3.4 MB reply with a photo, over IMAP, is played and its
/// sender told the attachment was dropped, as through `postal receive`.
#[test]
fn a_large_reply_over_imap_is_read_for_its_text_and_the_sender_told() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    let mut imap = dovecot.client();
    let raw = reply_with_photo(&r, &gid, "e4", 3_400_000);
    assert!(raw.len() > 3_400_000);
    imap.append("INBOX", &raw);
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(moves(&r, &gid), ["e4"]);
    assert_eq!(imap.count("postal/done"), 1);
    assert_eq!(imap.count("postal/unreadable"), 0);
    let to_ana = letters_to(&r, "ana@example.org");
    assert!(
        to_ana
            .iter()
            .any(|t| t.contains("larger than the referee's limit") && t.contains("board.jpg")),
        "{to_ana:#?}"
    );
}

/// Point 5: replies that arrive while the referee is at work are played
/// at once, not at the IDLE renewal (25 minutes, left as it is here:
/// the test's WAIT is 20 s).
#[test]
fn a_burst_of_twenty_replies_is_played_within_seconds() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, first) = referee(tmp.path(), None);
    let mut gids = vec![first];
    for _ in 1..20 {
        let out = run_ok(
            postal_cmd()
                .args(["new", "chess", "--referee"])
                .arg(&r)
                .args([
                    "--white",
                    "Ana <ana@example.org>",
                    "--black",
                    "Ben <ben@example.org>",
                ]),
        );
        gids.push(out.split_whitespace().nth(1).unwrap().to_string());
    }
    let dovecot = Dovecot::start();
    let run = Running::start(&r, dovecot.port, &[], &[]);
    run.wait_for("imap: referee@", 1);
    let mut imap = dovecot.client();
    let started = Instant::now();
    // One every 50 ms: most arrive while the referee is at work on the
    // ones before.
    for (n, gid) in gids.iter().enumerate() {
        imap.append("INBOX", &reply(&r, gid, "d4", &format!("burst{n}")));
        std::thread::sleep(Duration::from_millis(50));
    }
    run.wait_for("applied", 20);
    eprintln!("20 replies played in {} ms", started.elapsed().as_millis());
    let (status, out) = run.stop();
    assert!(status.success(), "{out}");
    for gid in &gids {
        assert_eq!(moves(&r, gid), ["d4"], "{out}");
    }
    assert_eq!(imap.count("INBOX"), 0);
}

/// Point 9: mail that was in the mailbox before the referee's first pass
/// and names no game is moved to done unanswered; a stranger who writes
/// afterwards is told how to play.
#[test]
fn old_mail_naming_no_game_is_not_answered_on_the_first_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, gid) = referee(tmp.path(), None);
    let dovecot = Dovecot::start();
    let mut imap = dovecot.client();
    let stranger = |i: usize| {
        format!(
            "From: someone{i}@example.net\r\nTo: postal@example.org\r\nMessage-ID: <old{i}@example.net>\r\nSubject: hello {i}\r\n\r\ne4\r\n"
        )
        .into_bytes()
    };
    for i in 0..3 {
        imap.append("INBOX", &stranger(i));
    }
    imap.append("INBOX", &reply(&r, &gid, "e4", "first"));
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}");
    assert_eq!(moves(&r, &gid), ["e4"]);
    assert_eq!(
        out.matches("names no game and was there before the first pass")
            .count(),
        3,
        "{out}"
    );
    let howto = |r: &Path| {
        names(&r.join("outbox/new"))
            .iter()
            .filter(|n| n.contains("howto"))
            .count()
    };
    assert_eq!(howto(&r), 0);
    assert_eq!(imap.count("postal/done"), 4);
    // After the first pass, a stranger is answered.
    imap.append("INBOX", &stranger(9));
    let (status, out) = once(&r, dovecot.port, &[]);
    assert!(status.success(), "{out}");
    assert_eq!(howto(&r), 1, "{out}");
}

/// The most memory a process has held (VmHWM), in kB.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// An IMAP server on 127.0.0.1 that logs anyone in, has one message, and
/// answers `UID FETCH` with `answer` written forever (until the client
/// goes). Returns its port.
fn hostile(answer: fn(&mut dyn Write) -> std::io::Result<()>) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            std::thread::spawn(move || {
                let mut w = std::io::BufWriter::new(conn.try_clone().unwrap());
                let mut lines = BufReader::new(conn);
                let _ = w.write_all(b"* OK [CAPABILITY IMAP4rev1 IDLE MOVE] hostile\r\n");
                let _ = w.flush();
                let mut line = String::new();
                while lines.read_line(&mut line).unwrap_or(0) > 0 {
                    let mut words = line.split_whitespace();
                    let tag = words.next().unwrap_or("*").to_string();
                    let cmd = words.next().unwrap_or("").to_ascii_uppercase();
                    let sub = words.next().unwrap_or("").to_ascii_uppercase();
                    line.clear();
                    let reply = match (cmd.as_str(), sub.as_str()) {
                        ("CAPABILITY", _) => "* CAPABILITY IMAP4rev1 IDLE MOVE\r\n".to_string(),
                        ("LIST", _) => "* LIST () \"/\" \"INBOX\"\r\n".to_string(),
                        ("SELECT", _) => {
                            "* 1 EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT 2] ok\r\n"
                                .to_string()
                        }
                        ("UID", "FETCH") => {
                            let _ = answer(&mut w);
                            return;
                        }
                        ("LOGOUT", _) => "* BYE\r\n".to_string(),
                        _ => String::new(),
                    };
                    let _ = write!(w, "{reply}{tag} OK done\r\n");
                    let _ = w.flush();
                }
            });
        }
    });
    port
}

/// Runs `referee run --once` on a hostile server; its peak memory is
/// watched, and it is killed past 1 GB (as it was before the cap).
fn against(r: &Path, port: u16) -> (Option<i32>, String, u64) {
    let url = format!("imap://referee@127.0.0.1:{port}/INBOX");
    let mut run = Running::start_args(r, &["--imap", &url, "--insecure-plain", "--once"], &[]);
    let pid = run.child.id();
    let start = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(s) = run.child.try_wait().unwrap() {
            break s.code();
        }
        peak = peak.max(peak_kb(pid).unwrap_or(0));
        if peak > 1 << 20 || start.elapsed() > WAIT {
            let _ = run.child.kill();
            let _ = run.child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(20));
    (status, run.output(), peak)
}

/// Point 11: a server that never ends its FETCH answer, with endless
/// FETCH lines or with a literal of 4 GB, has its connection dropped
/// after the message size cap; the referee's memory stays bounded.
#[test]
fn a_server_that_never_ends_its_answer_is_cut_off_at_the_size_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, _) = referee(tmp.path(), None);
    let endless_lines: fn(&mut dyn Write) -> std::io::Result<()> = |w| {
        for n in 1u64.. {
            write!(w, "* {n} FETCH (UID {n} FLAGS (\\Seen))\r\n")?;
        }
        Ok(())
    };
    let endless_literal: fn(&mut dyn Write) -> std::io::Result<()> = |w| {
        w.write_all(b"* 1 FETCH (UID 1 BODY[] {4294967295}\r\n")?;
        let block = vec![b'x'; 1 << 16];
        loop {
            w.write_all(&block)?;
        }
    };
    // A literal under async-imap's own limit of 512 MiB, sent forever.
    let long_literal: fn(&mut dyn Write) -> std::io::Result<()> = |w| {
        w.write_all(b"* 1 FETCH (UID 1 BODY[] {500000000}\r\n")?;
        let block = vec![b'x'; 1 << 16];
        loop {
            w.write_all(&block)?;
        }
    };
    for (what, answer, says) in [
        (
            "lines",
            endless_lines,
            "the server sent more than 33 MB in answer to one command",
        ),
        (
            "4 GB literal",
            endless_literal,
            "the server announced a literal of 4294967295 bytes, over the limit of 33 MB",
        ),
        (
            "500 MB literal",
            long_literal,
            "the server announced a literal of 500000000 bytes, over the limit of 33 MB",
        ),
    ] {
        let (status, out, peak) = against(&r, hostile(answer));
        eprintln!("{what}: exit {status:?}, peak {} MB", peak >> 10);
        assert_eq!(status, Some(75), "{what}: {out}");
        assert!(out.contains(says), "{what}: {out}");
        // The cap (33 MB) and the buffers that hold it, not gigabytes.
        assert!(peak < 400 << 10, "{what}: {} MB", peak >> 10);
    }
}
