//! The referee's reading and writing of mail under attack (issue 40, the
//! content points): what the opponent receives, caps on what a reply may
//! store, the time HTML and long replies take, forged From lines, replies
//! as GMX and Outlook shape them, strangers' mail, threading and the log.
//! Real parts: `postal receive --referee` on a real referee folder, its
//! letters in the folder's outbox Maildir, read back with a MIME parser.

use crate::common::{names, postal_at as postal, stdout, without_keys_of, Mail, NOW};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ANA: &str = "ana@example.org";
const BEN: &str = "ben@example.org";

/// A referee folder (its letters to an outbox Maildir) with one chess
/// game, three days a move, between Ana and Ben.
struct Club {
    _tmp: tempfile::TempDir,
    r: PathBuf,
    gid: String,
    n: std::cell::Cell<usize>,
}

impl Club {
    /// `extra` replaces or adds top-level lines of referee.toml.
    fn new(extra: &str) -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path().join("ref");
        stdout(
            postal(NOW)
                .args(["referee", "init"])
                .arg(&r)
                .args(["--address", "Postal Referee <postal@example.org>"]),
        );
        let path = r.join("referee.toml");
        let t = without_keys_of(&std::fs::read_to_string(&path).unwrap(), extra);
        let t = t.replacen("\n[mail]", &format!("\n{extra}\n[mail]"), 1);
        std::fs::write(&path, t).unwrap();
        let out = stdout(
            postal(NOW)
                .args(["new", "chess", "--referee"])
                .arg(&r)
                .args([
                    "--white",
                    "Ana <ana@example.org>",
                    "--black",
                    "Ben <ben@example.org>",
                    "--time-control",
                    "3d",
                ]),
        );
        let gid = out.split_whitespace().nth(1).unwrap().to_string();
        Club {
            _tmp: tmp,
            r,
            gid,
            n: std::cell::Cell::new(0),
        }
    }

    fn outbox(&self) -> PathBuf {
        self.r.join("outbox/new")
    }

    /// Every letter sent so far, oldest first.
    fn letters(&self) -> Vec<Mail> {
        let dir = self.outbox();
        let mut files: Vec<(std::time::SystemTime, String)> = names(&dir)
            .into_iter()
            .map(|n| (dir.join(&n).metadata().unwrap().modified().unwrap(), n))
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|(_, n)| Mail {
                raw: std::fs::read(dir.join(n)).unwrap(),
            })
            .collect()
    }

    /// The latest letter to `addr`.
    fn latest(&self, addr: &str) -> Mail {
        self.letters()
            .into_iter()
            .rev()
            .find(|m| m.to() == addr)
            .unwrap_or_else(|| panic!("no letter to {addr}"))
    }

    /// `postal receive --referee` of `raw` at `now`: its output and the
    /// letters it sent.
    fn receive_at(&self, raw: &[u8], now: &str) -> (String, Vec<Mail>) {
        let before = names(&self.outbox());
        let out = postal(now)
            .args(["receive", "--referee"])
            .arg(&self.r)
            .write_stdin(raw.to_vec())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let new = names(&self.outbox())
            .into_iter()
            .filter(|n| !before.contains(n))
            .map(|n| Mail {
                raw: std::fs::read(self.outbox().join(n)).unwrap(),
            })
            .collect();
        (String::from_utf8(out.stdout).unwrap(), new)
    }

    fn receive(&self, raw: &[u8]) -> (String, Vec<Mail>) {
        self.receive_at(raw, NOW)
    }

    fn next_id(&self) -> usize {
        self.n.set(self.n.get() + 1);
        self.n.get()
    }

    /// A plain reply from `from` to the letter `to`: `body` on top, the
    /// letter quoted below. `headers` go first (`From:` may be replaced).
    fn reply(&self, from: &str, to: &Mail, body: &str, headers: &str) -> Vec<u8> {
        let quoted: String = to.text().lines().map(|l| format!("> {l}\r\n")).collect();
        let from_line = if headers.contains("From:") {
            String::new()
        } else {
            format!("From: {from}\r\n")
        };
        format!(
            "{headers}{from_line}To: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <r{}.{}@client.example>\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\nOn Tue, 1 Dec 2026 at 09:00, Postal Referee <postal@example.org> wrote:\r\n{quoted}",
            to.reply_to(),
            self.next_id(),
            std::process::id(),
            to.id(),
            to.id(),
        )
        .into_bytes()
    }

    /// The player's reply to their latest letter.
    fn play(&self, from: &str, body: &str) -> (String, Vec<Mail>) {
        let notice = self.latest(from);
        self.receive(&self.reply(from, &notice, body, ""))
    }

    fn game(&self) -> String {
        std::fs::read_to_string(self.r.join("games").join(format!("{}.json", self.gid))).unwrap()
    }

    fn log(&self) -> String {
        let mut all = String::new();
        for n in names(&self.r.join("log")) {
            all.push_str(&std::fs::read_to_string(self.r.join("log").join(n)).unwrap());
        }
        all
    }
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// Issue 40, point 1: a player's conditional moves reach the opponent in
/// no letter of any kind (move notices, `show` answers, reminders), in
/// no attachment, and not on the site. Each side leaves lines in turn;
/// every byte of every letter the other side gets is searched, decoded.
#[test]
fn conditional_moves_never_reach_the_opponent_in_any_letter_or_attachment() {
    let club = Club::new("");
    // Ana moves and leaves a line for Ben's reply: 1... e5 2. Qh5.
    let (out, sent) = club.play(ANA, "1. e4\nif 1... e5 2. Qh5");
    assert!(out.contains("applied"), "{out}");
    assert!(club.game().contains("Qh5"), "kept in the game");
    let to_ben: Vec<&Mail> = sent.iter().filter(|m| m.to() == BEN).collect();
    assert_eq!(to_ben.len(), 1);
    assert!(to_ben[0].attachments().iter().any(|a| a.ends_with(".json")));
    // Ben asks to be shown the board while Ana's lines wait.
    let (out, _) = club.play(BEN, "show");
    assert!(out.contains("answered: show"), "{out}");
    // Ben answers otherwise (Ana's lines go) and leaves his own.
    let (out, _) = club.play(BEN, "1... c5\nif 2. b3 Qa5");
    assert!(out.contains("applied"), "{out}");
    assert!(club.game().contains("Qa5"), "kept in the game");
    // Ana asks for the board, and is reminded of her deadline.
    let (out, _) = club.play(ANA, "show");
    assert!(out.contains("answered: show"), "{out}");
    let out = stdout(
        postal("2026-12-03T10:00:00Z")
            .args(["referee", "sweep"])
            .arg(&club.r),
    );
    assert!(out.contains("1 reminder"), "{out}");
    let www = club._tmp.path().join("www");
    stdout(
        postal(NOW)
            .args(["referee", "site"])
            .arg(&club.r)
            .arg("-o")
            .arg(&www),
    );

    let letters = club.letters();
    let mut kinds = BTreeSet::new();
    for m in &letters {
        let (secret, owner) = if m.to() == BEN {
            ("Qh5", "Ana")
        } else {
            ("Qa5", "Ben")
        };
        let bytes = m.every_byte();
        assert!(
            !contains(&bytes, secret),
            "{owner}'s conditional line ({secret}) in a letter to {}:\n{}",
            m.to(),
            String::from_utf8_lossy(&bytes)
        );
        let text = m.text();
        for kind in ["A reminder", "Moves:", "Black played", "White played"] {
            if text.contains(kind) {
                kinds.insert((m.to(), kind));
            }
        }
    }
    assert!(
        kinds.contains(&(ANA.to_string(), "A reminder")),
        "{kinds:?}"
    );
    assert!(letters.len() >= 8, "{} letters", letters.len());
    // The owner's own copy keeps them, so that it is the game as it is.
    assert!(letters
        .iter()
        .filter(|m| m.to() == BEN)
        .any(|m| contains(&m.every_byte(), "Qa5")));
    let walk = |dir: &Path| -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out
    };
    for f in walk(&www) {
        let bytes = std::fs::read(&f).unwrap();
        for secret in ["Qa5", "conditional"] {
            assert!(!contains(&bytes, secret), "{secret} in {}", f.display());
        }
    }
}

impl Club {
    /// A reply written as `fixture` (fixtures/mail/replies/) shapes it,
    /// from `from` to its latest letter, saying `command`.
    fn fixture(&self, fixture: &str, from: &str, command: &str) -> Vec<u8> {
        let to = self.latest(from);
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/mail/replies")
            .join(fixture);
        let text = std::fs::read_to_string(&path).unwrap();
        text.replace("{FROM}", from)
            .replace("{TO}", &to.reply_to())
            .replace("{PARENT}", &to.id())
            .replace(
                "{ID}",
                &format!("{fixture}.{}@client.example", self.next_id()),
            )
            .replace("{MOVE}", command)
            .replace("\r\n", "\n")
            .replace('\n', "\r\n")
            .into_bytes()
    }
}

/// The comment a letter passes on ("Ana writes:" and its indented lines).
fn passed_comment(m: &Mail) -> Option<String> {
    let text = m.text();
    let at = text.find(" writes")?;
    let lines: Vec<&str> = text[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    Some(lines.join("\n"))
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, std::time::Duration) {
    let t = std::time::Instant::now();
    let out = f();
    (out, t.elapsed())
}

/// Issue 40, point 2: a comment written directly under the move is cut
/// at the limit kept (2,000 characters), as one after a blank line is,
/// and the sender told.
#[test]
fn a_comment_under_the_move_is_cut_at_the_limit_and_the_sender_told() {
    let club = Club::new("");
    let long: String = (0..100)
        .map(|i| format!("line {i:03} of a long comment {}\r\n", "x".repeat(60)))
        .collect();
    let (out, sent) = club.play(ANA, &format!("1. e4\r\n{long}"));
    assert!(out.contains("applied"), "{out}");
    let game: serde_json::Value = serde_json::from_str(&club.game()).unwrap();
    let kept = game["moves"][0]["comment"].as_str().unwrap();
    assert!(
        kept.chars().count() <= 2000,
        "{} characters kept",
        kept.chars().count()
    );
    assert!(kept.starts_with("line 000"), "{kept}");
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    assert!(passed_comment(to_ben).unwrap().len() <= 2000 + 100);
    let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap();
    assert!(
        to_ana
            .text()
            .contains("only its first 2000 characters were kept and passed on"),
        "{}",
        to_ana.text()
    );
}

/// The game file of `club` grown, by a long comment on its first move,
/// to `size` bytes.
fn grow_to(club: &Club, size: usize) {
    let path = club.r.join("games").join(format!("{}.json", club.gid));
    let mut v: serde_json::Value = serde_json::from_str(&club.game()).unwrap();
    v["moves"][0]["comment"] = serde_json::Value::String(String::new());
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    let pad = size - text.len();
    v["moves"][0]["comment"] = serde_json::Value::String("x".repeat(pad));
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    assert_eq!(text.len(), size);
    std::fs::write(path, text).unwrap();
}

const MAX_STATE_BYTES: usize = 16 << 20;
const STATE_RESERVE: usize = 64 << 10;

/// Issue 40, point 2: nothing a player sends pushes a game file past its
/// 16 MiB limit. Near it, a comment that does not fit is dropped (the
/// move played, the sender told why); when not even the move fits, the
/// reply is refused, saying why; and the game can still be adjudicated,
/// or aborted, by the operator, and read again after.
#[test]
fn no_reply_pushes_a_game_past_its_limit_and_a_full_game_can_still_be_ended() {
    for end in ["adjudicate", "abort"] {
        let club = Club::new("answers_per_hour = 50");
        club.play(ANA, "1. e4");
        // Room for a move, not for a long comment with it.
        grow_to(&club, MAX_STATE_BYTES - STATE_RESERVE - 2000);
        let comment = "A long thought. ".repeat(120);
        let (out, sent) = club.play(BEN, &format!("1... e5\r\n\r\n{comment}"));
        assert!(out.contains("applied"), "{out}");
        let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
        assert!(
            to_ben.text().contains(
                "Your comment was not kept or passed on: the game's file has no room left for it"
            ),
            "{}",
            to_ben.text()
        );
        let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap();
        assert!(
            !to_ana.text().contains("A long thought"),
            "{}",
            to_ana.text()
        );
        assert!(club.game().len() <= MAX_STATE_BYTES - STATE_RESERVE);
        // No room even for a move: refused, and the file as it was.
        grow_to(&club, MAX_STATE_BYTES - STATE_RESERVE - 10);
        let before = club.game();
        let (out, sent) = club.play(ANA, "2. Nf3");
        assert!(out.contains("answered"), "{out}");
        assert_eq!(club.game(), before, "unchanged");
        assert!(
            sent[0]
                .text()
                .contains("the game's file has no room left for it"),
            "{}",
            sent[0].text()
        );
        // The operator ends it, within the room kept.
        let mut op = postal(NOW);
        op.args(["referee", end]).arg(&club.r).arg(&club.gid);
        if end == "adjudicate" {
            op.arg("1/2-1/2");
        }
        stdout(op.args(["--reason", "the game file is full"]));
        let text = club.game();
        assert!(text.len() <= MAX_STATE_BYTES, "{}", text.len());
        let games = stdout(postal(NOW).args(["referee", "games"]).arg(&club.r));
        assert!(games.contains(&club.gid), "{games}");
        assert!(
            games.contains(if end == "adjudicate" { "1/2-1/2" } else { "*" }),
            "{games}"
        );
    }
}

/// Issue 40, point 2: reading the command block is linear: 50 MB of
/// text lines are answered (the first 32 MB read, the command block and
/// comment within their limits) in well under 2 s.
#[test]
fn fifty_megabytes_of_text_lines_are_answered_in_under_two_seconds() {
    let club = Club::new("");
    let notice = club.latest(ANA);
    let mut raw = format!(
        "From: {ANA}\r\nTo: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <huge@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n1. e4\r\n",
        notice.reply_to()
    )
    .into_bytes();
    let line = b"and a line of text under the move, again and again and again\r\n";
    while raw.len() < 50_000_000 {
        raw.extend_from_slice(line);
    }
    let ((out, sent), took) = timed(|| club.receive(&raw));
    assert!(took.as_secs_f64() < 2.0, "{took:?}");
    assert!(out.contains(&club.gid), "{out}");
    let total: usize = sent.iter().map(|m| m.raw.len()).sum();
    assert!(total < 400_000, "the answers are {total} bytes");
    assert!(
        club.game().len() < 100_000,
        "{} bytes stored",
        club.game().len()
    );
}

/// Issue 40, point 3: HTML-only mail is read in linear time: a message
/// of 1 MiB (the size above which only text is read) of nested or
/// unclosed `td`, `div`, `b` or `blockquote` is answered in under 5 s
/// (it took about a minute at 0.8 MB).
#[test]
fn html_of_nested_or_unclosed_elements_is_read_in_linear_time() {
    let club = Club::new("answers_per_hour = 50");
    for tag in ["td", "div", "b", "blockquote"] {
        let notice = club.latest(ANA);
        let open = format!("<{tag}>x");
        let n = (1 << 20) / open.len();
        let body = format!("<html><body>e4{}</body></html>", open.repeat(n));
        let raw = format!(
            "From: {ANA}\r\nTo: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <html-{tag}@client.example>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{body}\r\n",
            notice.reply_to()
        );
        let ((out, _), took) = timed(|| club.receive(raw.as_bytes()));
        assert!(took.as_secs_f64() < 5.0, "<{tag}>: {took:?}");
        assert!(out.contains(&club.gid), "<{tag}>: {out}");
    }
}

/// Issue 40, point 7: two From headers, or a From naming several
/// mailboxes, with Ana's token: held, as a DMARC failure is, and nothing
/// played.
#[test]
fn two_from_headers_or_a_from_list_are_held_not_played() {
    let club = Club::new("answers_per_hour = 50");
    let before = club.game();
    let notice = club.latest(ANA);
    for (label, headers) in [
        (
            "two From headers",
            format!("From: Eve <eve@evil.example>\r\nFrom: Ana <{ANA}>\r\n"),
        ),
        (
            "two From headers, Ana first",
            format!("From: Ana <{ANA}>\r\nFrom: Eve <eve@evil.example>\r\n"),
        ),
        (
            "a From list",
            format!("From: Ana <{ANA}>, Eve <eve@evil.example>\r\n"),
        ),
        (
            "a From group",
            format!("From: players: Ana <{ANA}>, Eve <eve@evil.example>;\r\n"),
        ),
    ] {
        let raw = club.reply(ANA, &notice, "1. e4", &headers);
        let (out, _) = club.receive(&raw);
        assert!(out.contains("held for confirmation"), "{label}: {out}");
        assert!(out.contains("not exactly one mailbox"), "{label}: {out}");
        assert_eq!(club.game(), before, "{label}: nothing played");
    }
    // One mailbox plays, as ever.
    let (out, _) = club.play(ANA, "1. e4");
    assert!(out.contains("applied"), "{out}");
}

/// Issue 40, point 8: replies as GMX and Outlook with a sensitivity
/// label write them are read as their players meant: GMX's German
/// header block ("Gesendet: ... um 13:29 Uhr" first) is not passed on as
/// a comment, and the label's banner above the answer is not the move.
#[test]
fn gmx_header_blocks_and_outlook_classification_banners_are_read_as_meant() {
    let club = Club::new("");
    let (out, sent) = club.receive(&club.fixture("gmx-de.eml", ANA, "1. e4"));
    assert!(out.contains("applied"), "{out}");
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    assert_eq!(
        passed_comment(to_ben).as_deref(),
        Some("Schöne Eröffnung!"),
        "{}",
        to_ben.text()
    );
    let (out, sent) = club.receive(&club.fixture("outlook-banner.eml", BEN, "1... e5"));
    assert!(out.contains("applied: Black played 1... e5"), "{out}");
    let to_ana = sent.iter().find(|m| m.to() == ANA).unwrap();
    assert_eq!(
        passed_comment(to_ana).as_deref(),
        Some("Best Regards,\nAna")
    );
    for banner in [
        "General",
        "Internal",
        "[Public]",
        "Classification: Internal",
    ] {
        let notice = club.latest(ANA);
        let body = format!("{banner}\r\n\r\nshow");
        let (out, _) = club.receive(&club.reply(ANA, &notice, &body, ""));
        assert!(out.contains("answered: show"), "{banner}: {out}");
    }
}

/// Issue 40, point 9: answers to mail no token vouches for (held
/// messages, a token-less `show`) come from a budget of their own: a
/// stranger's forgeries leave Ana's own answers whole.
#[test]
fn strangers_mail_does_not_use_up_the_players_answers() {
    let club = Club::new("answers_per_hour = 5");
    let notice = club.latest(ANA);
    // Eve sends eight forgeries with Ana's token, from her own address.
    for i in 0..8 {
        let raw = club.reply(
            "eve@evil.example",
            &notice,
            &format!("1. h4\r\n\r\nforgery {i}"),
            "",
        );
        let (out, _) = club.receive(&raw);
        assert!(
            out.contains("held for confirmation") || out.contains("not held"),
            "{out}"
        );
    }
    // Ana's own refused move is still answered.
    let (out, sent) = club.play(ANA, "1. e5");
    assert!(out.contains("answered"), "{out}");
    assert!(!out.contains("not sent"), "{out}");
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].text().contains("did not play your message"),
        "{}",
        sent[0].text()
    );
}

/// Issue 40, point 9: `held/` keeps a few messages a game, and none of
/// their attachments.
#[test]
fn held_messages_are_capped_and_keep_no_attachment() {
    let club = Club::new("answers_per_hour = 50");
    let notice = club.latest(ANA);
    let mut outs = Vec::new();
    for i in 0..12 {
        let raw = format!(
            "From: eve@evil.example\r\nTo: {}\r\nSubject: Re: [postal]\r\nMessage-ID: <att{i}@client.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n1. e4\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"photo.jpg\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
            notice.reply_to(),
            "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\r\n".repeat(2000)
        );
        outs.push(club.receive(raw.as_bytes()).0);
    }
    let held = names(&club.r.join("held"));
    let emls: Vec<&String> = held.iter().filter(|n| n.ends_with(".eml")).collect();
    assert_eq!(emls.len(), 10, "{held:?}");
    assert!(outs[11].contains("not held"), "{}", outs[11]);
    for n in emls {
        let bytes = std::fs::read(club.r.join("held").join(n)).unwrap();
        assert!(!contains(&bytes, "photo.jpg"), "{n}");
        assert!(!contains(&bytes, "QUJDREVG"), "{n}");
        assert!(bytes.len() < 10_000, "{n}: {} bytes", bytes.len());
        assert!(contains(&bytes, "1. e4"), "{n}");
    }
    // A held message kept so is still played on its player's confirm.
    let request = club.latest(ANA);
    let (out, _) = club.receive(&club.reply(ANA, &request, "confirm", ""));
    assert!(out.contains("applied: White played 1. e4"), "{out}");
}

/// Issue 40, point 9: after the end, a message is passed on to the
/// opponent only with the player's token; a forged From alone is not.
#[test]
fn after_the_end_only_the_players_token_passes_a_message_on() {
    let club = Club::new("answers_per_hour = 50");
    for (who, mv) in [(ANA, "f3"), (BEN, "e5"), (ANA, "g4"), (BEN, "Qh4#")] {
        let (out, _) = club.play(who, mv);
        assert!(out.contains("applied"), "{out}");
    }
    // Eve writes as Ana to the game's bare address.
    let bare = format!("postal+{}@example.org", club.gid);
    let forged = format!(
        "From: Ana <{ANA}>\r\nTo: {bare}\r\nSubject: Re: [postal]\r\nMessage-ID: <forged@evil.example>\r\nContent-Type: text/plain\r\n\r\nYou cheated, and I will tell everyone.\r\n"
    );
    let (out, sent) = club.receive(forged.as_bytes());
    assert!(
        out.contains("ignored") && out.contains("no reply token"),
        "{out}"
    );
    assert!(sent.is_empty(), "nothing passed on");
    // Ana's own reply, with her token, is passed on.
    let (out, sent) = club.play(ANA, "Good game!");
    assert!(out.contains("passed on to the opponent"), "{out}");
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    assert!(
        to_ben.text().contains("Ana writes, after the game:"),
        "{}",
        to_ben.text()
    );
}

/// Issue 40, point 13: the forfeit letter of a late player answers in
/// that player's thread (never the opponent's letter); a reply of
/// conditional moves alone is logged in words.
#[test]
fn a_late_players_forfeit_letter_is_in_their_thread_and_the_log_reads_well() {
    let club = Club::new("");
    let (out, _) = club.play(ANA, "1. e4\r\nif 1... e5 2. Nf3");
    assert!(out.contains("applied"), "{out}");
    let (out, sent) = club.play(ANA, "if 1... c5 2. Nc3");
    assert!(sent.len() == 1 && sent[0].to() == ANA);
    assert!(
        !out.contains("applied: ;") && !out.trim_end().ends_with("applied:"),
        "{out}"
    );
    assert!(
        out.contains("1 line of conditional moves kept, for the sender alone"),
        "{out}"
    );
    assert!(
        club.log().contains("conditional moves kept"),
        "{}",
        club.log()
    );
    // Ben is late: his move comes after his deadline.
    let ben_last = club.latest(BEN);
    let ana_ids: BTreeSet<String> = club
        .letters()
        .iter()
        .filter(|m| m.to() == ANA)
        .map(|m| m.id())
        .collect();
    let (out, sent) = club.receive_at(
        &club.reply(BEN, &ben_last, "1... e5", ""),
        "2026-12-05T09:00:00Z",
    );
    assert!(out.contains("time forfeit recorded"), "{out}");
    let to_ben = sent.iter().find(|m| m.to() == BEN).unwrap();
    let parent = to_ben.header("In-Reply-To").unwrap();
    assert!(
        !ana_ids.iter().any(|id| parent.contains(id.as_str())),
        "{parent} is a letter to Ana"
    );
    let ben_ids: Vec<String> = club
        .letters()
        .iter()
        .filter(|m| m.to() == BEN)
        .map(|m| m.id())
        .collect();
    assert!(
        ben_ids.iter().any(|id| parent.contains(id.as_str())),
        "{parent} in Ben's thread"
    );
}
