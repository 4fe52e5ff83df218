//! The referee with real parts: a real SMTP server on 127.0.0.1 (aiosmtpd,
//! fixtures/mail/smtp_server.py) that delivers the players' replies into a
//! real Maildir, `postal referee run --once` over it, referee folders with
//! real files, and `postal receive` killed with SIGKILL at random moments.

use mail_parser::MessageParser;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const NOW: &str = "2026-12-01T09:00:00Z";

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
            .unwrap_or_else(|| panic!("the SMTP test server did not start: {line:?}"));
        Server { child, port, dir }
    }

    /// The messages received, in order, as raw bytes.
    fn received(&self) -> Vec<Vec<u8>> {
        let mut files: Vec<(u32, PathBuf)> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| (p.file_stem().unwrap().to_str().unwrap().parse().unwrap(), p))
            .collect();
        files.sort();
        files.iter().map(|(_, p)| std::fs::read(p).unwrap()).collect()
    }

    /// Sends a message as a player's mail client would.
    fn submit(&self, from: &str, to: &str, raw: &[u8]) {
        use lettre::Transport;
        let t = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port)
            .tls(lettre::transport::smtp::client::Tls::None)
            .build();
        let env = lettre::address::Envelope::new(
            Some(from.parse().unwrap()),
            vec![to.parse().unwrap()],
        )
        .unwrap();
        t.send_raw(&env, raw).unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn postal(now: &str) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("postal").unwrap();
    c.env("POSTAL_NOW", now)
        .env_remove("POSTAL_TEST_FAIL_AT")
        .env("XDG_CONFIG_HOME", "/nonexistent");
    c
}

fn stdout(c: &mut assert_cmd::Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A referee folder with one chess game between Ana and Ben; the game id.
fn referee(dir: &Path, mail: Option<&str>) -> (PathBuf, String) {
    let r = dir.join("ref");
    stdout(postal(NOW).args(["referee", "init"]).arg(&r).args(["--address", "Postal <postal@example.org>"]));
    if let Some(m) = mail {
        let path = r.join("referee.toml");
        let t = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, t.replace("[mail]\ntransport = \"outbox\"\n", m)).unwrap();
    }
    let out = stdout(postal(NOW).args(["new", "chess", "--referee"]).arg(&r).args([
        "--white",
        "Ana <ana@example.org>",
        "--black",
        "Ben <ben@example.org>",
        "--time-control",
        "3d",
    ]));
    let gid = out.split_whitespace().nth(1).unwrap().to_string();
    (r, gid)
}

struct Mail {
    raw: Vec<u8>,
}

impl Mail {
    fn msg(&self) -> mail_parser::Message<'_> {
        MessageParser::default().parse(&self.raw).unwrap()
    }
    fn to(&self) -> String {
        self.msg().to().unwrap().first().unwrap().address().unwrap().to_string()
    }
    fn reply_to(&self) -> String {
        self.msg().reply_to().unwrap().first().unwrap().address().unwrap().to_string()
    }
    fn id(&self) -> String {
        self.msg().message_id().unwrap().to_string()
    }
    fn text(&self) -> String {
        self.msg().body_text(0).unwrap().into_owned()
    }
    fn header(&self, name: &str) -> Option<String> {
        self.msg()
            .headers_raw()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_string())
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

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_whole_game_by_replies_alone_through_smtp_and_a_maildir() {
    let tmp = tempfile::tempdir().unwrap();
    let md = tmp.path().join("Maildir");
    let server = Server::start(&["--maildir", md.to_str().unwrap(), "--maildir-for", "postal+"]);
    let mail = format!(
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
        server.port
    );
    let (r, gid) = referee(tmp.path(), Some(&mail));
    let first = server.received();
    assert_eq!(first.len(), 1, "the first notice goes to White");
    let players = [("ana@example.org", "Ana <ana@example.org>"), ("ben@example.org", "Ben <ben@example.org>")];
    // Fool's mate, each reply written as a different client writes it.
    let plan = [
        (0, "f3", Style::TopPost),
        (1, "1... e5", Style::BottomPost),
        (0, "g4", Style::HtmlOnly),
        (1, "2... Qh4#", Style::Mobile),
    ];
    for (n, (who, command, style)) in plan.into_iter().enumerate() {
        let (addr, from) = players[who];
        let all: Vec<Mail> = server.received().into_iter().map(|raw| Mail { raw }).collect();
        let notice = all.iter().rev().find(|m| m.to() == addr).unwrap();
        assert!(notice.text().starts_with("-- postal: write your answer above this line --"));
        assert!(notice.text().contains("Your move"), "{}", notice.text());
        let before = all.len();
        server.submit(addr, &notice.reply_to(), &reply(notice, from, command, style, n));
        assert_eq!(names(&md.join("new")).len(), 1);
        let out = stdout(postal(NOW).args(["referee", "run"]).arg(&r).arg("--maildir").arg(&md).arg("--once"));
        assert!(out.contains("applied"), "{command}: {out}");
        assert!(names(&md.join("new")).is_empty());
        assert!(names(&md.join("cur")).iter().all(|n| n.ends_with(":2,S")));
        let after: Vec<Mail> = server.received().into_iter().map(|raw| Mail { raw }).collect();
        assert_eq!(after.len(), before + 2, "a notice to each player after {command}");
        for m in &after[before..] {
            assert_eq!(m.header("Auto-Submitted").as_deref(), Some("auto-generated").filter(|_| m.to() != addr).or(Some("auto-replied")));
            assert!(m.header("References").unwrap().contains(&format!("postal.{gid}.0.")));
        }
    }
    let all: Vec<Mail> = server.received().into_iter().map(|raw| Mail { raw }).collect();
    for (addr, _) in players {
        let last = all.iter().rev().find(|m| m.to() == addr).unwrap();
        assert!(last.text().contains("The game is over: 0-1, checkmate"), "{}", last.text());
    }
    let game = std::fs::read_to_string(r.join("games").join(format!("{gid}.json"))).unwrap();
    assert!(game.contains("\"via\""), "{game}");
    assert!(game.contains("Thanks for the game."), "the bottom-posted comment is kept");
    assert_eq!(names(&md.join("cur")).len(), 4);
}
