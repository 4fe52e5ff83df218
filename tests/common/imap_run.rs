//! The referee run on a real Dovecot (tests/common/dovecot.rs): a
//! referee folder with one game, replies, `postal referee run --imap` in
//! the background with its output collected. Used by tests/imap.rs and
//! tests/imap_load.rs.

use super::dovecot::{Dovecot, PASSWORD, WAIT};
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use super::{names, referee, NOW};

pub fn postal_cmd() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("postal"));
    c.env("POSTAL_NOW", NOW)
        .env("XDG_DATA_HOME", super::data_home())
        .env_remove("POSTAL_TEST_FAIL_AT")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("POSTAL_IMAP_PASSWORD", PASSWORD);
    c
}

pub fn run_ok(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn moves(r: &Path, gid: &str) -> Vec<String> {
    let referee = postal::referee::Referee::open(r).unwrap();
    let game = postal::game::store::load(&referee.game_path(gid), None).unwrap();
    game.moves().iter().map(|m| m.played.clone()).collect()
}

/// A reply from the side to move, saying `command`, to the address of
/// the game's current notice; `n` makes its Message-ID.
pub fn reply(r: &Path, gid: &str, command: &str, n: &str) -> Vec<u8> {
    let referee = postal::referee::Referee::open(r).unwrap();
    let game = postal::game::store::load(&referee.game_path(gid), None).unwrap();
    let side = game.turn();
    let to = postal::referee::letter::reply_address(&referee, gid, &game, side);
    let from = if side == postal::Color::White {
        "Ana <ana@example.org>"
    } else {
        "Ben <ben@example.org>"
    };
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: [postal] game\r\nMessage-ID: <{n}.{}@client.example>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{command}\r\n\r\n> the notice, quoted\r\n",
        std::process::id()
    )
    .into_bytes()
}

/// `postal referee run --imap` in the background, its output collected.
pub struct Running {
    pub child: Child,
    pub out: Arc<Mutex<String>>,
}

impl Running {
    pub fn start(r: &Path, port: u16, extra: &[&str], env: &[(&str, &str)]) -> Running {
        let url = Dovecot::url(port);
        let mut args = vec!["--imap", &url, "--insecure-plain"];
        args.extend_from_slice(extra);
        Running::start_args(r, &args, env)
    }

    /// `referee run DIR ARGS...`.
    pub fn start_args(r: &Path, args: &[&str], env: &[(&str, &str)]) -> Running {
        let mut c = postal_cmd();
        c.args(["referee", "run"])
            .arg(r)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        let out: Arc<Mutex<String>> = Arc::default();
        for mut pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let o = Arc::clone(&out);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    o.lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
        }
        Running { child, out }
    }

    pub fn output(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    /// Waits until the output holds `text` `n` times.
    pub fn wait_for(&self, text: &str, n: usize) {
        let start = Instant::now();
        while self.output().matches(text).count() < n {
            assert!(
                start.elapsed() < WAIT,
                "no {n} x {text:?} within {WAIT:?}:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// SIGTERM, and the exit status and the output.
    pub fn stop(self) -> (ExitStatus, String) {
        self.signal(libc::SIGTERM)
    }

    /// Sends a signal and waits: the exit status and the output.
    pub fn signal(mut self, sig: i32) -> (ExitStatus, String) {
        // SAFETY: kill with a pid of our own child.
        unsafe { libc::kill(self.child.id() as i32, sig) };
        let status = wait_bounded(&mut self.child);
        std::thread::sleep(Duration::from_millis(50));
        (status, self.output())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn wait_bounded(child: &mut Child) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > WAIT {
            let _ = child.kill();
            panic!("postal did not exit within {WAIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `referee run --imap ... --once`: the exit status and the output.
pub fn once(r: &Path, port: u16, env: &[(&str, &str)]) -> (ExitStatus, String) {
    let url = Dovecot::url(port);
    once_with(r, &["--imap", &url, "--insecure-plain"], env)
}

/// `referee run DIR ARGS... --once`.
pub fn once_with(r: &Path, args: &[&str], env: &[(&str, &str)]) -> (ExitStatus, String) {
    let mut args = args.to_vec();
    args.push("--once");
    let mut run = Running::start_args(r, &args, env);
    let status = wait_bounded(&mut run.child);
    std::thread::sleep(Duration::from_millis(20));
    (status, run.output())
}
