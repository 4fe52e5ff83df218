//! Mail against a real SMTP server on 127.0.0.1 (aiosmtpd, started and
//! stopped by these tests; `tests/run.sh` installs it): messages read back from
//! what the server received, threading across moves, AUTH, STARTTLS and
//! implicit TLS with a self-signed certificate the test trusts, and the
//! errors for a refused login, a refused recipient and a server that is
//! down.

use crate::common::smtp::Server;
use chrono::{DateTime, Utc};
use postal::mail::compose::{compose, game_subject, message_id, Notice, To};
use postal::mail::config::{Config, Security, TransportKind};
use postal::mail::maildir::{Folder, Maildir};
use postal::mail::transport::{send, Delivery};
use postal::mail::MailError;
use std::path::{Path, PathBuf};
use std::process::Command;

impl Server {
    fn received_text(&self) -> Vec<String> {
        self.files()
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap().replace("\r\n ", " "))
            .collect()
    }

    /// The envelope recipients of each message received, in order.
    fn recipients(&self) -> Vec<Vec<String>> {
        self.files()
            .iter()
            .map(|p| {
                let env: serde_json::Value = serde_json::from_str(
                    &std::fs::read_to_string(p.with_extension("json")).unwrap(),
                )
                .unwrap();
                env["to"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_string())
                    .collect()
            })
            .collect()
    }
}

struct Cert {
    _dir: tempfile::TempDir,
    cert: PathBuf,
    key: PathBuf,
}

/// A self-signed certificate for 127.0.0.1 that rustls accepts as a
/// trusted end-entity certificate: basicConstraints CA:FALSE and an IP name.
fn certificate() -> Cert {
    let dir = tempfile::tempdir().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    params.is_ca = rcgen::IsCa::ExplicitNoCa;
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let cert_path = dir.path().join("cert.pem");
    let key_path = dir.path().join("key.pem");
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    Cert {
        _dir: dir,
        cert: cert_path,
        key: key_path,
    }
}

fn notice(n: usize) -> Notice {
    Notice {
        message_id: message_id("abc123", n, "example.org"),
        references: Vec::new(),
        subject: game_subject("Ana v Ben", "Swap Chess", "abc123"),
        from: "Postal <postal@example.org>".into(),
        to: vec![To {
            name: Some("Ben".into()),
            address: "ben@example.org".into(),
        }],
        text: format!("Notice {n}\n"),
        html: format!("<p>Notice {n}</p>"),
        board_png: None,
        attachment: None,
        date: DateTime::parse_from_rfc3339("2026-11-29T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc),
    }
}

fn smtp_config(port: u16, security: Security) -> Config {
    let mut c = Config {
        transport: TransportKind::Smtp,
        ..Config::default()
    };
    c.smtp.host = Some("127.0.0.1".into());
    c.smtp.port = Some(port);
    c.smtp.security = security;
    c.smtp.timeout = Some(10);
    c
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.split("\r\n\r\n")
        .next()?
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

#[test]
fn auth_and_headers_as_received() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let mut config = smtp_config(server.port, Security::None);
    config.smtp.user = Some("ana".into());
    config.smtp.password_command = Some("echo s3cret".into());
    let mut refs = Vec::new();
    for i in 0..3 {
        let mut n = notice(i);
        n.references = refs.clone();
        let msg = compose(&n).unwrap();
        let d = send(&config, &msg, Path::new("unused")).unwrap();
        assert!(matches!(d, Delivery::Smtp(_)));
        refs.push(n.message_id);
    }
    let got = server.received_text();
    assert_eq!(got.len(), 3);
    for (i, raw) in got.iter().enumerate() {
        assert_eq!(header(raw, "Message-ID"), Some(refs[i].as_str()));
        assert_eq!(header(raw, "Auto-Submitted"), Some("auto-generated"));
        if i > 0 {
            assert_eq!(header(raw, "In-Reply-To"), Some(refs[i - 1].as_str()));
            assert_eq!(
                header(raw, "References"),
                Some(refs[..i].join(" ").as_str())
            );
        }
        assert!(raw.contains(&format!("Notice {i}")));
    }
}

#[test]
fn starttls_with_a_trusted_self_signed_certificate() {
    let cert = certificate();
    let server = Server::start(&[
        "--mode",
        "starttls",
        "--cert",
        cert.cert.to_str().unwrap(),
        "--key",
        cert.key.to_str().unwrap(),
    ]);
    let mut config = smtp_config(server.port, Security::Starttls);
    config.smtp.ca_file = Some(cert.cert.clone());
    send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap();
    assert_eq!(server.received_text().len(), 1);
    // Without trusting the certificate the handshake is refused.
    config.smtp.ca_file = None;
    let e = send(&config, &compose(&notice(2)).unwrap(), Path::new("unused")).unwrap_err();
    assert!(matches!(e, MailError::Tls(_) | MailError::Send(_)), "{e:?}");
    assert_eq!(server.received_text().len(), 1);
}

#[test]
fn implicit_tls() {
    let cert = certificate();
    let server = Server::start(&[
        "--mode",
        "tls",
        "--cert",
        cert.cert.to_str().unwrap(),
        "--key",
        cert.key.to_str().unwrap(),
    ]);
    let mut config = smtp_config(server.port, Security::Tls);
    config.smtp.ca_file = Some(cert.cert.clone());
    send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap();
    assert_eq!(server.received_text().len(), 1);
}

#[test]
fn a_refused_login_is_said_at_once() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let mut config = smtp_config(server.port, Security::None);
    config.smtp.user = Some("ana".into());
    config.smtp.password_command = Some("echo wrong".into());
    let started = std::time::Instant::now();
    let e = send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap_err();
    assert!(matches!(e, MailError::LoginRefused(_)), "{e:?}");
    // Told by the server, not by the client's timeout.
    assert!(started.elapsed() < std::time::Duration::from_secs(9));
    assert!(server.received_text().is_empty());
}

#[test]
fn a_refused_recipient() {
    let server = Server::start(&["--refuse-recipient", "ben@"]);
    let config = smtp_config(server.port, Security::None);
    let e = send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap_err();
    assert!(matches!(e, MailError::RecipientRefused(_)), "{e:?}");
}

#[test]
fn a_server_that_is_down() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = smtp_config(port, Security::None);
    let e = send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap_err();
    assert!(matches!(e, MailError::ConnectionRefused(_)), "{e:?}");
}

#[test]
fn outbox_is_the_default_and_a_maildir() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::default();
    let outbox = dir.path().join("outbox");
    let mut paths = Vec::new();
    for i in 0..3 {
        let d = send(&config, &compose(&notice(i)).unwrap(), &outbox).unwrap();
        let Delivery::Outbox(path) = d else {
            panic!("{d:?}")
        };
        assert!(path.starts_with(outbox.join("new")), "{path:?}");
        paths.push(path);
    }
    assert_eq!(std::fs::read_dir(outbox.join("tmp")).unwrap().count(), 0);
    assert!(outbox.join("cur").is_dir());
    let md = Maildir::open(&outbox).unwrap();
    assert_eq!(md.list(Folder::New).unwrap().len(), 3);
    let got = inspect(&["--maildir", outbox.to_str().unwrap()]);
    assert_eq!(got.len(), 3);
    for m in &got {
        assert_eq!(m["defects"], serde_json::json!([]), "{m}");
    }
}

// ---- the command line: `postal mail`, `move --mail`, `new --mail` -------

fn postal(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("postal").unwrap();
    c.current_dir(dir)
        .env("POSTAL_NOW", "2026-11-29T12:00:00Z")
        .env("XDG_CONFIG_HOME", dir.join("no-config"))
        .env("XDG_DATA_HOME", crate::common::data_home())
        .env_remove("POSTAL_SMTP_PASSWORD");
    c
}

fn smtp_config_file(dir: &Path, port: u16, extra: &str) -> PathBuf {
    let path = dir.join("mail.toml");
    std::fs::write(
        &path,
        format!(
            "from = \"Postal <postal@example.org>\"\ntransport = \"smtp\"\n[smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\ntimeout = 10\n{extra}"
        ),
    )
    .unwrap();
    path
}

/// Python's strict reading of messages (fixtures/mail/check_messages.py):
/// one JSON object a message, with its defects, headers and text part.
fn inspect(args: &[&str]) -> Vec<serde_json::Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/check_messages.py");
    let python = std::env::var("POSTAL_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn inspect_files(paths: &[PathBuf]) -> Vec<serde_json::Value> {
    let args: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    inspect(&args)
}

/// Every message read without a defect, no header line over 998 bytes.
fn assert_clean(messages: &[serde_json::Value]) {
    for m in messages {
        assert_eq!(m["defects"], serde_json::json!([]), "{m}");
        let longest = m["longest_header_line"].as_u64().unwrap();
        assert!(longest <= 998, "{longest}: {m}");
    }
}

fn first_header(m: &serde_json::Value, name: &str) -> String {
    m["headers"][name][0].as_str().unwrap_or("").to_string()
}

fn id_list(m: &serde_json::Value, name: &str) -> Vec<String> {
    first_header(m, name)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

const ANA: &str = "ana@example.org";
const BEN: &str = "ben@example.org";

/// A game played through the real SMTP server, every act with `--mail`.
struct Play {
    dir: tempfile::TempDir,
    server: Server,
    config: PathBuf,
    /// The messages seen so far.
    seen: usize,
}

impl Play {
    fn start(variant: &str, extra: &[&str]) -> Play {
        let server = Server::start(&[]);
        let dir = tempfile::tempdir().unwrap();
        let config = smtp_config_file(dir.path(), server.port, "");
        let mut play = Play {
            dir,
            server,
            config,
            seen: 0,
        };
        let mut args = vec![
            "new",
            variant,
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
        ];
        args.extend_from_slice(extra);
        play.act(&args);
        play
    }

    /// Runs one act command with `--mail` at `POSTAL_NOW` `now`.
    fn act_at(&mut self, args: &[&str], now: &str) -> String {
        let out = postal(self.dir.path())
            .env("POSTAL_NOW", now)
            .args(args)
            .arg("--mail")
            .arg("--config")
            .arg(&self.config)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    }

    fn act(&mut self, args: &[&str]) -> String {
        self.act_at(args, "2026-11-29T12:00:00Z")
    }

    /// Plays an act and checks the one message it sent: its envelope
    /// recipients, its `To`, its first line and a line of what to do.
    fn expect(&mut self, args: &[&str], to: &[&str], first: &str, then: &str) {
        self.act(args);
        self.check(args, to, first, then);
    }

    fn check(&mut self, args: &[&str], to: &[&str], first: &str, then: &str) {
        let rcpts = self.server.recipients();
        assert_eq!(rcpts.len(), self.seen + 1, "{args:?}: one message an act");
        self.seen += 1;
        assert_eq!(rcpts[self.seen - 1], to, "{args:?}: envelope");
        let m = &inspect_files(&self.server.files()[self.seen - 1..])[0];
        let header_to: Vec<String> = m["to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a[1].as_str().unwrap().to_string())
            .collect();
        assert_eq!(header_to, to, "{args:?}: To");
        let text = m["text"].as_str().unwrap();
        assert_eq!(text.lines().next(), Some(first), "{args:?}:\n{text}");
        let head: String = text.split("\nSwap Chess:").next().unwrap().to_string();
        assert!(
            head.lines().any(|l| l.trim() == then),
            "{args:?}: no {then:?} in\n{text}"
        );
    }
}

#[test]
fn every_act_reaches_the_right_player_in_one_thread() {
    let mut p = Play::start("swap", &["--time-control", "3d"]);
    p.check(
        &["new"],
        &[ANA, BEN],
        "A new game of Swap Chess begins: Ana (White) v Ben (Black), time control 3d.",
        "postal move game.json \"MOVE\" --mail",
    );
    p.expect(
        &["move", "game.json", "e4"],
        &[BEN],
        "Ana (White) played 1. e4.",
        "Ben (Black), it is your move:",
    );
    p.expect(
        &["draw", "game.json", "offer"],
        &[ANA],
        "Ben (Black) offers a draw.",
        "postal draw game.json accept --mail",
    );
    p.expect(
        &["draw", "game.json", "decline"],
        &[BEN],
        "Ana (White) declines Ben's draw offer.",
        "Ben (Black), it is your move:",
    );
    p.expect(
        &["move", "game.json", "e5"],
        &[ANA],
        "Ben (Black) played 1... e5.",
        "Ana (White), it is your move:",
    );
    p.expect(
        &["move", "game.json", "Nf3"],
        &[BEN],
        "Ana (White) played 2. Nf3.",
        "postal move game.json \"MOVE\" --mail",
    );
    p.expect(
        &["takeback", "game.json", "request"],
        &[ANA],
        "Ben (Black) asks to take back 1... e5 and 2. Nf3.",
        "postal takeback game.json accept --mail",
    );
    p.expect(
        &["takeback", "game.json", "decline"],
        &[BEN],
        "Ana (White) refuses Ben's take-back request.",
        "Ben (Black), it is your move:",
    );
    p.expect(
        &["takeback", "game.json", "request"],
        &[ANA],
        "Ben (Black) asks to take back 1... e5 and 2. Nf3.",
        "postal takeback game.json decline --mail",
    );
    p.expect(
        &["takeback", "game.json", "accept"],
        &[BEN],
        "Ana (White) agrees to take back 1... e5 and 2. Nf3.",
        "Ben (Black), it is your move:",
    );
    p.expect(
        &["move", "game.json", "c5"],
        &[ANA],
        "Ben (Black) played 1... c5.",
        "Ana (White), it is your move:",
    );
    p.expect(
        &["resign", "game.json"],
        &[ANA, BEN],
        "Ana (White) resigns.",
        "The game is over: 0-1, White resigns.",
    );

    // Twelve notices, one thread: each names every earlier one.
    let all = inspect_files(&p.server.files());
    assert_eq!(all.len(), 12);
    assert_clean(&all);
    let ids: Vec<String> = all.iter().map(|m| first_header(m, "message-id")).collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 12, "{ids:?}");
    let subject = first_header(&all[0], "subject");
    assert!(
        subject.starts_with("[postal] Ana v Ben, Swap Chess ("),
        "{subject}"
    );
    for (i, m) in all.iter().enumerate() {
        assert_eq!(id_list(m, "references"), ids[..i].to_vec(), "message {i}");
        assert_eq!(
            id_list(m, "in-reply-to"),
            ids[..i].last().cloned().into_iter().collect::<Vec<_>>()
        );
        assert_eq!(first_header(m, "auto-submitted"), "auto-generated");
        if i > 0 {
            assert_eq!(first_header(m, "subject"), format!("Re: {subject}"));
        }
        assert_eq!(m["attachments"], serde_json::json!(["game.json"]));
    }
    // Read from each player's mailbox alone, the notices form one thread:
    // the same root, and each one's nearest ancestor in that mailbox
    // (following References back) is the one received before it.
    let rcpts = p.server.recipients();
    for player in [ANA, BEN] {
        let mine: Vec<usize> = (0..all.len())
            .filter(|&i| rcpts[i].iter().any(|r| r == player))
            .collect();
        assert!(mine.len() >= 6, "{player}: {mine:?}");
        assert_eq!(mine[0], 0, "{player} has the root");
        let have: Vec<&String> = mine.iter().map(|&i| &ids[i]).collect();
        for w in mine.windows(2) {
            let refs = id_list(&all[w[1]], "references");
            let parent = refs.iter().rev().find(|r| have.contains(r));
            assert_eq!(parent, Some(&ids[w[0]]), "{player}: message {}", w[1]);
            assert_eq!(refs[0], ids[0]);
        }
    }
    // The file records each notice: its id, recipients and act.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.dir.path().join("game.json")).unwrap())
            .unwrap();
    let notices = saved["notices"].as_array().unwrap();
    assert_eq!(notices.len(), 12);
    for (i, n) in notices.iter().enumerate() {
        assert_eq!(n["message_id"].as_str().unwrap(), ids[i]);
        assert_eq!(n["act"].as_u64().unwrap(), i as u64);
    }
    assert_eq!(notices[11]["to"].as_array().unwrap().len(), 2);
}

#[test]
fn endings_go_to_both_players() {
    // A claim on time, once Ben's day has passed.
    let mut p = Play::start("chess", &["--time-control", "1d"]);
    p.seen = 1;
    p.act(&["move", "game.json", "e4"]);
    p.seen = 2;
    p.act_at(&["claim", "game.json", "time"], "2026-12-01T12:00:00Z");
    p.check(
        &["claim"],
        &[ANA, BEN],
        "Ana (White) claims a time forfeit.",
        "The game is over: 1-0, Black lost on time (deadline 2026-11-30T12:00:00Z).",
    );
    // An accepted draw.
    let mut p = Play::start("chess", &[]);
    p.seen = 1;
    p.act(&["move", "game.json", "e4"]);
    p.act(&["draw", "game.json", "offer"]);
    p.seen = 3;
    p.expect(
        &["draw", "game.json", "accept"],
        &[ANA, BEN],
        "Ana (White) accepts Ben's draw offer.",
        "The game is over: 1/2-1/2, agreement.",
    );
    // Mate.
    let mut p = Play::start("chess", &[]);
    for m in ["f3", "e5", "g4"] {
        p.act(&["move", "game.json", m]);
    }
    p.seen = 4;
    p.expect(
        &["move", "game.json", "Qh4#"],
        &[ANA, BEN],
        "Ben (Black) played 2... Qh4#.",
        "Nothing is left to answer; the final file is attached.",
    );
    assert_clean(&inspect_files(&p.server.files()));
}

#[test]
fn resend_is_a_new_message_and_nothing_is_mailed_twice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    postal(d)
        .args([
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
        ])
        .args(["--black", "Ben <ben@example.org>", "--mail"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "Mailed Ana <ana@example.org> and Ben <ben@example.org>: written to",
        ));
    // Acts without --mail wait for `postal mail`, which sends them in one notice.
    postal(d)
        .args(["move", "game.json", "e4"])
        .assert()
        .success();
    postal(d)
        .args(["draw", "offer", "game.json", "--as", "white"])
        .assert()
        .success();
    postal(d)
        .args(["mail", "game.json"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Mailed Ben <ben@example.org>"));
    postal(d)
        .args(["mail", "game.json"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Nothing to mail"));
    postal(d)
        .args(["mail", "game.json", "--resend"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Mailed Ben <ben@example.org>"));
    let got = inspect(&["--maildir", d.join("outbox").to_str().unwrap()]);
    assert_eq!(got.len(), 3);
    assert_clean(&got);
    let by_refs = |n: usize| {
        got.iter()
            .find(|m| id_list(m, "references").len() == n)
            .unwrap()
            .clone()
    };
    let (first, both, again) = (by_refs(0), by_refs(1), by_refs(2));
    let text = both["text"].as_str().unwrap();
    assert!(
        text.starts_with("Ana (White) played 1. e4.\nAna (White) offers a draw.\n"),
        "{text}"
    );
    assert_eq!(again["text"], both["text"]);
    assert_ne!(
        first_header(&again, "message-id"),
        first_header(&both, "message-id")
    );
    assert_eq!(
        id_list(&again, "in-reply-to"),
        vec![first_header(&both, "message-id")]
    );
    let saved = std::fs::read_to_string(d.join("game.json")).unwrap();
    assert!(saved.contains(&format!(
        "\"resend_of\": \"{}\"",
        first_header(&both, "message-id")
    )));
    assert!(saved.contains("\"first_act\": 1"), "{saved}");
    assert!(first_header(&first, "subject").starts_with("[postal] Ana v Ben, FIDE chess ("));
}

#[test]
fn a_hundred_games_in_one_second_have_distinct_ids() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..100 {
        postal(dir.path())
            .args(["new", "gardner", "-o", &format!("g{i}.json")])
            .args([
                "--white",
                "Ana <ana@example.org>",
                "--black",
                "Ben <ben@example.org>",
            ])
            .arg("--mail")
            .assert()
            .success();
    }
    let outbox = dir.path().join("outbox");
    assert_eq!(std::fs::read_dir(outbox.join("tmp")).unwrap().count(), 0);
    let got = inspect(&["--maildir", outbox.to_str().unwrap()]);
    assert_eq!(got.len(), 100, "mailbox.Maildir reads every message");
    assert_clean(&got);
    let mut ids: Vec<String> = got.iter().map(|m| first_header(m, "message-id")).collect();
    let mut subjects: Vec<String> = got.iter().map(|m| first_header(m, "subject")).collect();
    ids.sort();
    ids.dedup();
    subjects.sort();
    subjects.dedup();
    assert_eq!(ids.len(), 100);
    assert_eq!(subjects.len(), 100, "every game has its own id");
}

#[test]
fn names_and_addresses_new_accepts_are_mailed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "b".repeat(100);
    postal(d)
        .args(["new", "chess", "-o", "game.json"])
        .args(["--white", "Ana, Ben <ana@example.org>"])
        .arg("--black")
        .arg(format!("{long} <ben@example.org>"))
        .arg("--mail")
        .assert()
        .success();
    postal(d)
        .args(["new", "chess", "-o", "g2.json"])
        .args(["--white", "Ana \"the rook\" Lima <ana@example.org>"])
        .args(["--black", "Bén Ñúñez <ben@example.org>", "--mail"])
        .assert()
        .success();
    let got = inspect(&["--maildir", d.join("outbox").to_str().unwrap()]);
    assert_eq!(got.len(), 2);
    assert_clean(&got);
    let mut tos: Vec<String> = got
        .iter()
        .map(|m| m["to_decoded"].as_str().unwrap().to_string())
        .collect();
    tos.sort();
    assert_eq!(
        tos,
        vec![
            "\"Ana \\\"the rook\\\" Lima\" <ana@example.org>, Bén Ñúñez <ben@example.org>"
                .to_string(),
            format!("Ana, Ben <ana@example.org>, {long} <ben@example.org>"),
        ]
    );
    // Python's address parser reads the display names back whole where
    // no encoded word is split.
    let parsed: Vec<serde_json::Value> = got.iter().map(|m| m["to"][0].clone()).collect();
    assert!(
        parsed.contains(&serde_json::json!(["Ana, Ben", ANA])),
        "{parsed:?}"
    );
    assert!(parsed.contains(&serde_json::json!(["Ana \"the rook\" Lima", ANA])));
}

#[test]
fn new_refuses_what_mail_would_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (player, why) in [
        (
            format!("{} <ana@example.org>", "a".repeat(101)),
            "the limit is 100",
        ),
        (
            "Ana\r\nBcc: eve@example.org <ana@example.org>".into(),
            "control character",
        ),
        ("Ana\nBcc: eve@example.org".into(), "control character"),
        ("José <josé@example.org>".into(), "SMTPUTF8"),
        ("Ana <ana@exämple.org>".into(), "SMTPUTF8"),
        ("Ana <a\"b@example.org>".into(), "not a mail address"),
        ("Ana <ana@example..org>".into(), "not a mail address"),
    ] {
        postal(d)
            .args(["new", "chess", "-o", "game.json", "--white"])
            .arg(&player)
            .arg("--mail")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
        assert!(!d.join("game.json").exists(), "{player:?}");
    }
    // A hand-edited file is refused by the same check when mailed, and
    // left as it was.
    postal(d)
        .args([
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
        ])
        .args(["--black", "Ben <ben@example.org>"])
        .assert()
        .success();
    let text = std::fs::read_to_string(d.join("game.json")).unwrap();
    for (edit, why) in [
        ("\"Ben\\r\\nBcc: eve@example.org\"", "control character"),
        (&*format!("\"{}\"", "x".repeat(5000)), "the limit is 100"),
    ] {
        let edited = text.replace("\"Ben\"", edit);
        std::fs::write(d.join("game.json"), &edited).unwrap();
        postal(d)
            .args(["mail", "game.json"])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(why));
        assert_eq!(
            std::fs::read_to_string(d.join("game.json")).unwrap(),
            edited
        );
        assert!(!d.join("outbox").exists());
    }
    let edited = text.replace("ben@example.org", "bén@example.org");
    std::fs::write(d.join("game.json"), &edited).unwrap();
    postal(d)
        .args(["mail", "game.json"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("SMTPUTF8"));
}

#[test]
fn a_file_from_before_notices_gets_a_stable_id() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    postal(d)
        .args([
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
        ])
        .args(["--black", "Ben <ben@example.org>"])
        .assert()
        .success();
    postal(d)
        .args(["move", "game.json", "e4"])
        .assert()
        .success();
    let text = std::fs::read_to_string(d.join("game.json")).unwrap();
    let old: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"id\":"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(d.join("game.json"), &old).unwrap();
    let derived =
        postal::game::notices::derived_game_id(postal::game::Game::from_json(&old).unwrap().file());
    postal(d).args(["mail", "game.json"]).assert().success();
    let saved = std::fs::read_to_string(d.join("game.json")).unwrap();
    assert!(saved.contains(&format!("\"id\": \"{derived}\"")), "{saved}");
    let got = inspect(&["--maildir", d.join("outbox").to_str().unwrap()]);
    assert!(first_header(&got[0], "subject").ends_with(&format!("({derived})")));
}

#[test]
fn a_failed_send_keeps_the_move_and_says_so() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let dir = tempfile::tempdir().unwrap();
    let config = smtp_config_file(dir.path(), server.port, "user = \"ana\"\n");
    postal(dir.path())
        .args([
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
        ])
        .args(["--black", "Ben <ben@example.org>"])
        .assert()
        .success();
    postal(dir.path())
        .env("POSTAL_SMTP_PASSWORD", "wrong")
        .args(["move", "game.json", "e4", "--mail", "--config"])
        .arg(&config)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "game.json is saved, but the mail was not sent",
        ))
        .stderr(predicates::str::contains("refused the login"));
    let saved = std::fs::read_to_string(dir.path().join("game.json")).unwrap();
    assert!(saved.contains("\"e4\""), "{saved}");
    assert!(!saved.contains("\"notices\""), "{saved}");
    // `postal mail` against a server that is down changes nothing.
    drop(server);
    let before = std::fs::read(dir.path().join("game.json")).unwrap();
    postal(dir.path())
        .args(["mail", "game.json", "--config"])
        .arg(&config)
        .env("POSTAL_SMTP_PASSWORD", "s3cret")
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "cannot connect to the mail server",
        ));
    assert_eq!(std::fs::read(dir.path().join("game.json")).unwrap(), before);
}

#[test]
fn dry_run_sends_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    postal(d)
        .args([
            "new",
            "gardner",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
        ])
        .args(["--black", "Ben <ben@example.org>", "--mail"])
        .assert()
        .success();
    postal(d)
        .args(["move", "game.json", "d3"])
        .assert()
        .success();
    let before = std::fs::read(d.join("game.json")).unwrap();
    let out = postal(d)
        .args(["mail", "game.json", "--dry-run"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("From: postal <postal@localhost>"));
    assert!(text.contains("To: Ben <ben@example.org>"));
    assert_eq!(std::fs::read(d.join("game.json")).unwrap(), before);
    assert_eq!(std::fs::read_dir(d.join("outbox/new")).unwrap().count(), 1);
}

#[test]
fn a_player_without_an_address_cannot_be_mailed() {
    let dir = tempfile::tempdir().unwrap();
    postal(dir.path())
        .args(["new", "chess", "-o", "game.json", "--white", "Ana"])
        .assert()
        .success();
    postal(dir.path())
        .args(["mail", "game.json"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("White has no mail address"));
}

/// Names holding RFC 2047 encoded words (what a mail client would decode
/// into a line break) reach the readers of every notice of a game as
/// written: each header of each letter, decoded as a client decodes it,
/// holds no line break, and the subject shows the name itself.
#[test]
fn every_notice_header_decodes_without_a_line_break() {
    let dir = tempfile::tempdir().unwrap();
    let sneaky = "=?utf-8?q?Ana=0D=0ABcc:_eve@example.org?=";
    let white = format!("{sneaky} <ana@example.org>");
    let black = "=?utf-8?b?QmVuDQpCY2M6IGV2ZUBleGFtcGxlLm9yZw==?= <ben@example.org>";
    let run = |args: &[&str]| {
        postal(dir.path()).args(args).assert().success();
    };
    run(&[
        "new", "chess", "-o", "g.json", "--white", &white, "--black", black, "--mail",
    ]);
    run(&["move", "g.json", "e4", "--mail"]);
    run(&["draw", "g.json", "offer", "--mail"]);
    run(&["draw", "g.json", "decline", "--mail"]);
    run(&["move", "g.json", "e5", "--mail"]);
    run(&["resign", "g.json", "--as", "white", "--mail"]);
    let new = dir.path().join("outbox").join("new");
    let letters: Vec<PathBuf> = std::fs::read_dir(&new)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(letters.len() >= 6, "{} letters", letters.len());
    for path in letters {
        let raw = std::fs::read(&path).unwrap();
        let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
        for h in msg.headers() {
            let value = format!("{:?}", h.value());
            assert!(
                !value.contains("\\r") && !value.contains("\\n"),
                "{}: {}: {value}",
                path.display(),
                h.name()
            );
        }
        let subject = msg.subject().unwrap();
        assert!(subject.contains(sneaky), "{subject}");
    }
}

/// Issue 40 point 12: `security = "none"` sends AUTH PLAIN in clear, so
/// it is for a server on this machine only: another host is refused
/// before any connection is made (as `--insecure-plain` is for IMAP).
#[test]
fn security_none_is_refused_for_a_host_that_is_not_this_machine() {
    // A listener on every address, reached through this machine's own
    // non-loopback address when it has one (else a name that is not).
    let listener = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let host = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|u| u.connect("192.0.2.1:9").map(|_| u))
        .and_then(|u| u.local_addr())
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
        .map_or("smtp.example.org".to_string(), |ip| ip.to_string());
    let mut config = smtp_config(port, Security::None);
    config.smtp.host = Some(host.clone());
    config.smtp.user = Some("ana".into());
    config.smtp.password_command = Some("echo s3cret".into());
    let e = send(&config, &compose(&notice(1)).unwrap(), Path::new("unused")).unwrap_err();
    assert!(
        matches!(&e, MailError::Config(m) if m.contains("this machine only")),
        "{host}: {e:?}"
    );
    assert!(
        listener.accept().is_err(),
        "a connection was made to {host}"
    );
    // The same settings on 127.0.0.1 are used as before.
    let server = Server::start(&[]);
    let config = smtp_config(server.port, Security::None);
    send(&config, &compose(&notice(2)).unwrap(), Path::new("unused")).unwrap();
    assert_eq!(server.received_text().len(), 1);
}
