//! Mail against a real SMTP server on 127.0.0.1 (aiosmtpd, started and
//! stopped by these tests; `.ci/run` installs it): messages read back from
//! what the server received, threading across moves, AUTH, STARTTLS and
//! implicit TLS with a self-signed certificate the test trusts, and the
//! errors for a refused login, a refused recipient and a server that is
//! down.

use chrono::{DateTime, Utc};
use postal::mail::compose::{compose, message_id, thread, Notice};
use postal::mail::config::{Config, Security, TransportKind};
use postal::mail::transport::{send, Delivery};
use postal::mail::MailError;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/smtp_server.py");
        let python = std::env::var("POSTAL_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
        let mut child = Command::new(&python)
            .arg(script)
            .arg("--dir")
            .arg(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {python}: {e}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .strip_prefix("READY ")
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or_else(|| {
                panic!("the SMTP test server did not start (is aiosmtpd installed for {python}?): {line:?}")
            });
        Server { child, port, dir }
    }

    fn received(&self) -> Vec<String> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        files.sort_by_key(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(0)
        });
        files
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap().replace("\r\n ", " "))
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
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

const GAME: &str = "20261129T120000Z-swap";

fn moves(ply: usize) -> Vec<String> {
    (1..=ply).map(|i| format!("m{i}")).collect()
}

fn id(ply: usize) -> String {
    message_id(GAME, &moves(ply), "example.org")
}

fn notice(ply: usize) -> Notice {
    Notice {
        thread: thread(GAME, &moves(ply), "example.org"),
        title: "Ana v Ben".into(),
        variant: "Swap Chess".into(),
        from: "Postal <postal@example.org>".into(),
        to: if ply % 2 == 1 {
            "Ben <ben@example.org>".into()
        } else {
            "Ana <ana@example.org>".into()
        },
        side: if ply % 2 == 1 { "Black" } else { "White" }.into(),
        last_move: Some(format!("move {ply}")),
        board: " r n b q k b n r  8\n a b c d e f g h\n".into(),
        moves: "1. e4 e5".into(),
        deadline: None,
        reply: "postal move game.json \"MOVE\"".into(),
        result: None,
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
fn three_moves_thread_with_auth() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let mut config = smtp_config(server.port, Security::None);
    config.smtp.user = Some("ana".into());
    config.smtp.password_command = Some("echo s3cret".into());
    for ply in 1..=3 {
        let msg = compose(&notice(ply)).unwrap();
        let d = send(&config, &msg, Path::new("unused"), "x").unwrap();
        assert!(matches!(d, Delivery::Smtp(_)));
    }
    let got = server.received();
    assert_eq!(got.len(), 3);
    for (i, raw) in got.iter().enumerate() {
        let ply = i + 1;
        assert_eq!(header(raw, "Message-ID"), Some(id(ply).as_str()));
        assert_eq!(header(raw, "In-Reply-To"), Some(id(ply - 1).as_str()));
        let refs = header(raw, "References").unwrap();
        assert!(refs.ends_with(&id(ply - 1)), "{refs}");
        if ply > 1 {
            assert!(refs.starts_with(&id(0)), "{refs}");
        }
        assert!(raw.contains("Content-Type: text/plain"), "{raw}");
        assert!(raw.contains("Content-Type: text/html"));
        assert!(raw.contains(&format!("Last move: move {ply}")));
        assert!(raw.contains("postal move game.json"));
    }
    assert_eq!(header(&got[0], "To"), Some("Ben <ben@example.org>"));
    assert_eq!(header(&got[1], "To"), Some("Ana <ana@example.org>"));
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
    send(
        &config,
        &compose(&notice(1)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap();
    assert_eq!(server.received().len(), 1);
    // Without trusting the certificate the handshake is refused.
    config.smtp.ca_file = None;
    let e = send(
        &config,
        &compose(&notice(2)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap_err();
    assert!(matches!(e, MailError::Tls(_) | MailError::Send(_)), "{e:?}");
    assert_eq!(server.received().len(), 1);
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
    send(
        &config,
        &compose(&notice(1)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap();
    assert_eq!(server.received().len(), 1);
}

#[test]
fn a_refused_login_is_said_at_once() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let mut config = smtp_config(server.port, Security::None);
    config.smtp.user = Some("ana".into());
    config.smtp.password_command = Some("echo wrong".into());
    let started = std::time::Instant::now();
    let e = send(
        &config,
        &compose(&notice(1)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap_err();
    assert!(matches!(e, MailError::LoginRefused(_)), "{e:?}");
    // Told by the server, not by the client's timeout.
    assert!(started.elapsed() < std::time::Duration::from_secs(9));
    assert!(server.received().is_empty());
}

#[test]
fn a_refused_recipient() {
    let server = Server::start(&["--refuse-recipient", "ben@"]);
    let config = smtp_config(server.port, Security::None);
    let e = send(
        &config,
        &compose(&notice(1)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap_err();
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
    let e = send(
        &config,
        &compose(&notice(1)).unwrap(),
        Path::new("unused"),
        "x",
    )
    .unwrap_err();
    assert!(matches!(e, MailError::ConnectionRefused(_)), "{e:?}");
}

#[test]
fn outbox_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::default();
    let d = send(
        &config,
        &compose(&notice(1)).unwrap(),
        &dir.path().join("outbox"),
        "game-1",
    )
    .unwrap();
    let Delivery::Outbox(path) = d else {
        panic!("{d:?}")
    };
    assert_eq!(path, dir.path().join("outbox/game-1.eml"));
    let raw = std::fs::read_to_string(path).unwrap();
    assert!(raw.contains(&format!("Message-ID: {}", id(1))));
}

// ---- the command line: `postal mail`, `move --mail`, `new --mail` -------

fn postal(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("postal").unwrap();
    c.current_dir(dir)
        .env("POSTAL_NOW", "2026-11-29T12:00:00Z")
        .env("XDG_CONFIG_HOME", dir.join("no-config"))
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

fn new_game(dir: &Path) {
    postal(dir)
        .args([
            "new",
            "chess",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
        ])
        .assert()
        .success();
}

#[test]
fn moves_mailed_through_smtp_read_back_and_threaded() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let dir = tempfile::tempdir().unwrap();
    let config = smtp_config_file(dir.path(), server.port, "user = \"ana\"\n");
    new_game(dir.path());
    for mv in ["e4", "e5", "Nf3"] {
        postal(dir.path())
            .env("POSTAL_SMTP_PASSWORD", "s3cret")
            .args(["move", "game.json", mv, "--mail", "--config"])
            .arg(&config)
            .assert()
            .success()
            .stdout(predicates::str::contains("Mailed"));
    }
    let got = server.received();
    assert_eq!(got.len(), 3);
    assert_eq!(header(&got[0], "To"), Some("Ben <ben@example.org>"));
    assert_eq!(header(&got[1], "To"), Some("Ana <ana@example.org>"));
    assert!(header(&got[2], "Subject")
        .unwrap()
        .contains("2. Nf3, your move"));
    for i in 1..3 {
        assert_eq!(
            header(&got[i], "In-Reply-To"),
            header(&got[i - 1], "Message-ID")
        );
    }
    let raw = &got[2];
    assert!(raw.contains("Content-Type: text/plain"));
    assert!(raw.contains("Content-Type: text/html"));
    assert!(raw.contains("Content-Type: image/png"));
    assert!(raw.contains("filename=\"game.json\""));
    assert!(raw.contains("postal move game.json \"MOVE\""));
    assert!(raw.contains("1. e4 e5 2. Nf3"));
}

#[test]
fn a_failed_send_keeps_the_move_and_says_so() {
    let server = Server::start(&["--user", "ana", "--password", "s3cret"]);
    let dir = tempfile::tempdir().unwrap();
    let config = smtp_config_file(dir.path(), server.port, "user = \"ana\"\n");
    new_game(dir.path());
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
fn outbox_by_default_and_dry_run() {
    let dir = tempfile::tempdir().unwrap();
    postal(dir.path())
        .args([
            "new",
            "gardner",
            "-o",
            "game.json",
            "--white",
            "Ana <ana@example.org>",
            "--black",
            "Ben <ben@example.org>",
            "--mail",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("Mailed Ana <ana@example.org>"));
    assert!(dir.path().join("outbox/game-0.eml").exists());
    postal(dir.path())
        .args(["move", "game.json", "d3", "--mail"])
        .assert()
        .success();
    let eml = std::fs::read_to_string(dir.path().join("outbox/game-1.eml")).unwrap();
    assert!(eml.contains("To: Ben <ben@example.org>"));
    let before: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
        .unwrap()
        .collect();
    let out = postal(dir.path())
        .args(["mail", "game.json", "--dry-run"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("From: postal <postal@localhost>"));
    assert!(text.contains("To: Ben <ben@example.org>"));
    let after: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
        .unwrap()
        .collect();
    assert_eq!(before.len(), after.len(), "dry run sent nothing");
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
