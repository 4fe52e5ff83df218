//! Helpers shared by the integration test binaries (`mod common;` in each):
//! the binary, positions and squares from text, moves played by text, the
//! legal moves as text. Each binary uses some of them.
#![allow(dead_code)]

pub mod dovecot;
pub mod imap_run;
pub mod smtp;

use assert_cmd::Command;
use postal::{Effects, Position, Square, Variant};

/// The `postal` binary, keeping the games' rules (issue 42) in this test
/// run's own data folder ([`data_home`]), never the user's.
pub fn postal() -> Command {
    let mut c = Command::cargo_bin("postal").expect("binary built");
    c.env("XDG_DATA_HOME", data_home());
    c
}

/// The data folder (`XDG_DATA_HOME`) of every `postal` the tests run:
/// one a run, under Cargo's temporary folder for tests, so that a run
/// never reads or writes the user's records of games' rules.
pub fn data_home() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("data-{}", std::process::id()))
}

/// A position of `variant` from its text; panics naming the text.
pub fn pos(variant: Variant, text: &str) -> Position {
    Position::from_text(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A square by name (`e4`, `(0,3)`, `prison`).
pub fn sq(name: &str) -> Square {
    postal::notation::square::parse_square(name).unwrap()
}

/// Plays a move given as text, checking that it reads and is legal.
pub fn play(p: &Position, text: &str) -> (Position, Effects) {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()));
    p.play_with_effects(&mv)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()))
}

/// The position after `moves`, each played by [`play`].
pub fn play_moves(p: &Position, moves: &[&str]) -> Position {
    moves.iter().fold(p.clone(), |p, m| play(&p, m).0)
}

/// The variant `name` defined in the variants.ini `text` (called `file`
/// in messages), registered; the test fails when any section is refused.
pub fn defined_variant(text: &str, file: &str, name: &str) -> Variant {
    let loaded = postal::variant::ini::load(text, file);
    assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
    let def = loaded
        .defs
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("{file} defines no {name}"));
    postal::variant::defined::register(def, file).unwrap()
}

/// The legal moves in canonical notation, check marks included.
pub fn texts(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| p.move_text(m)).collect()
}

/// Fairy-Stockfish's own variants.ini: `FAIRY_STOCKFISH_INI` when set,
/// else where `tests/run.sh` puts it (`target/fairy-stockfish/`, taken from
/// Debian's source package; GPL-3, so never part of postal). A missing file
/// fails the test, saying how to get it.
pub fn fairy_stockfish_ini() -> std::path::PathBuf {
    let path = std::env::var_os("FAIRY_STOCKFISH_INI")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/fairy-stockfish/variants.ini")
        });
    assert!(
        path.is_file(),
        "{}: Fairy-Stockfish's variants.ini is missing: `bash tests/run.sh` fetches it \
         (or name a copy in FAIRY_STOCKFISH_INI)",
        path.display()
    );
    path
}

/// Runs one of the pyffish scripts of tests/pyffish/ (`python3 SCRIPT
/// INI JOBS`) on `jobs`, written to a file, and reads the JSON list it
/// prints: Fairy-Stockfish's answers for the agreement tests.
pub fn pyffish(
    script: &str,
    ini: &std::path::Path,
    jobs: &serde_json::Value,
) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let jobs_path = dir.path().join("jobs.json");
    std::fs::write(&jobs_path, jobs.to_string()).unwrap();
    let out = std::process::Command::new("python3")
        .arg(format!("tests/pyffish/{script}"))
        .arg(ini)
        .arg(&jobs_path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "pyffish failed (is it installed? tests/run.sh installs it):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The time the referee tests run at (`POSTAL_NOW`).
pub const NOW: &str = "2026-12-01T09:00:00Z";

/// The `postal` binary at the time `now`, without the user's settings or
/// an injected failure.
pub fn postal_at(now: &str) -> Command {
    let mut c = postal();
    c.env("POSTAL_NOW", now)
        .env_remove("POSTAL_TEST_FAIL_AT")
        .env("XDG_CONFIG_HOME", "/nonexistent");
    c
}

/// A command's standard output; the test fails, with its standard error,
/// when the command does.
pub fn stdout(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The names in a folder, hidden ones left out (none when it is missing).
pub fn names(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// A referee folder with one chess game between Ana and Ben; `mail` is
/// the `[mail]` table (the outbox when `None`). Returns the folder and the
/// game id.
pub fn referee(dir: &std::path::Path, mail: Option<&str>) -> (std::path::PathBuf, String) {
    let r = dir.join("ref");
    stdout(
        postal_at(NOW)
            .args(["referee", "init"])
            .arg(&r)
            .args(["--address", "Postal <postal@example.org>"]),
    );
    if let Some(m) = mail {
        let path = r.join("referee.toml");
        let t = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, t.replace("[mail]\ntransport = \"outbox\"\n", m)).unwrap();
    }
    let out = stdout(
        postal_at(NOW)
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
    (r, gid)
}

/// A letter of the referee's, as received, read with a MIME parser.
pub struct Mail {
    pub raw: Vec<u8>,
}

impl Mail {
    pub fn msg(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(&self.raw)
            .unwrap()
    }
    pub fn to(&self) -> String {
        let m = self.msg();
        m.to()
            .unwrap()
            .first()
            .unwrap()
            .address()
            .unwrap()
            .to_string()
    }
    pub fn reply_to(&self) -> String {
        let m = self.msg();
        let a = m.reply_to().unwrap().first().unwrap().address().unwrap();
        a.to_string()
    }
    pub fn id(&self) -> String {
        self.msg().message_id().unwrap().to_string()
    }
    pub fn text(&self) -> String {
        self.msg().body_text(0).unwrap().into_owned()
    }
    pub fn header(&self, name: &str) -> Option<String> {
        self.msg()
            .headers_raw()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_string())
    }
    /// Every byte a reader can get from the letter: the raw message, and
    /// each part decoded (base64, quoted-printable), attachments too.
    pub fn every_byte(&self) -> Vec<u8> {
        let mut all = self.raw.clone();
        for part in &self.msg().parts {
            all.push(b'\n');
            all.extend_from_slice(part.contents());
        }
        all
    }
    /// The names of its attachments.
    pub fn attachments(&self) -> Vec<String> {
        self.msg()
            .attachments()
            .map(|a| {
                mail_parser::MimeHeaders::attachment_name(a)
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

/// referee.toml's text without the lines of the top-level keys that
/// `extra` sets, so that `extra`, added at the top level, replaces them.
pub fn without_keys_of(toml: &str, extra: &str) -> String {
    let mut t = toml.to_string();
    for line in extra.lines() {
        if let Some((k, _)) = line.split_once('=') {
            let k = format!("\n{} =", k.trim());
            if let Some(at) = t.find(&k) {
                let end = t[at + 1..].find('\n').map_or(t.len(), |e| at + 1 + e);
                t.replace_range(at..end, "");
            }
        }
    }
    t
}
